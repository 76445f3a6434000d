"""Recall that tells the truth about time and lifecycle (issue 13).

- a question about a time ("in November 2025", "in January 2025", "last spring") ranks what
  held then first, above facts written after that time;
- a recall whose matches were left out for their lifecycle (superseded, expired) says how
  many and that `--all` shows them, in text and JSON;
- with `--all`, a fact ranks above what it superseded.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from conftest import Cli
from memfold import Memory
from memfold.journal.fold import EXPIRED, MERGED, SUPERSEDED
from memfold.times.parse import find_time_phrase, parse_spec
from memfold.values import LEFT_OUT_STATUSES, Interval, RecallResult

LATER = "2026-01-10T10:00:00"


def retain(memory: Memory, day: str, bullet: str) -> str:
    [fact] = memory.retain([bullet], date=day, now=f"{day}T10:00:00").facts
    return fact.id


def supersede(memory: Memory, old: str, new: str, day: str) -> None:
    """By hand, so the test does not depend on what the judge decides by itself (the call
    does nothing when the judge already superseded `old`)."""
    if memory.get(old, use=False).superseded_by != new:
        memory.supersede(old, new, now=f"{day}T10:00:00")


def contents(result: RecallResult) -> list[str]:
    return [h.fact.content for h in result.hits]


def rank(result: RecallResult, fact_id: str) -> int:
    return [h.fact.id for h in result.hits].index(fact_id)


# -- 1. a question about a time ranks what held then first ---------------------------------


@pytest.fixture
def peter(workspace: Path) -> dict[str, str]:
    """The issue's story: Vienna, a trip to Marrakech, back home, and other Peter facts."""
    with Memory.open(workspace) as memory:
        return {
            "vienna": retain(memory, "2025-10-01", "W @Peter: Lives in Vienna."),
            "job": retain(memory, "2025-10-05", "W @Peter: Works as a software engineer."),
            "cat": retain(memory, "2025-10-20", "W @Peter: Has a cat named Mila."),
            "trip": retain(memory, "2025-11-27", "W @Peter: Currently in Marrakech "
                           "(Nov 27–Dec 1, 2025) for Andy's birthday."),
            "home": retain(memory, "2025-12-03", "W @Peter: Back home in Vienna."),
            "arabic": retain(memory, "2025-12-10", "W @Peter: Started learning Arabic."),
        }


@pytest.mark.parametrize("include_all", [False, True])
def test_where_was_peter_in_november_ranks_what_held_then_first(
        workspace: Path, peter: dict[str, str], include_all: bool) -> None:
    with Memory.open(workspace, now=LATER) as memory:
        result = memory.recall("where was Peter in November 2025", include_all=include_all)
    held = {peter[k] for k in ("vienna", "job", "cat", "trip")}
    later = {peter["home"], peter["arabic"]}
    found = [h.fact.id for h in result.hits]
    assert set(found) == held | later
    # every fact that held in November (the trip valid then, the facts written before it
    # and never replaced) above every fact written after November
    assert set(found[: len(held)]) == held, contents(result)
    assert rank(result, peter["trip"]) < rank(result, peter["home"])
    trip = result.hits[rank(result, peter["trip"])]
    assert trip.status == EXPIRED  # found, flagged, and not pushed down for it
    assert "valid then" in trip.why


def test_a_replaced_fact_that_held_then_ranks_above_its_replacement(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        initech = retain(memory, "2024-11-01", "W @Peter: Works at Initech as a developer.")
        globex = retain(memory, "2025-03-01", "W @Peter: Works at Globex as a developer.")
        supersede(memory, initech, globex, "2025-03-01")
    with Memory.open(workspace, now=LATER) as memory:
        for include_all in (False, True):
            then = memory.recall("where did Peter work in January 2025",
                                 include_all=include_all)
            assert [h.fact.id for h in then.hits] == [initech, globex]
            assert then.hits[0].status == SUPERSEDED
        # asked about a time after the change, the replacement answers
        now = memory.recall("where did Peter work in June 2025")
        assert [h.fact.id for h in now.hits] == [globex]
        # and a fact replaced before the time asked about did not hold then
        assert memory.recall("where did Peter work in June 2025",
                             include_all=True).hits[-1].fact.id == initech


def test_last_spring_is_a_time_and_ranks_what_held_then(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        porto = retain(memory, "2024-12-01", "W @Anna: Lives in Porto near the river.")
        lisbon = retain(memory, "2025-07-01", "W @Anna: Lives in Lisbon near the river.")
        supersede(memory, porto, lisbon, "2025-07-01")
    with Memory.open(workspace, now="2025-09-15") as memory:
        result = memory.recall("where did Anna live last spring")
        assert result.window == Interval(date(2025, 3, 1), date(2025, 5, 31))
        assert [h.fact.id for h in result.hits] == [porto, lisbon]


def test_an_experience_told_after_the_time_is_not_pushed_down(workspace: Path) -> None:
    """Events are often written down after they happen: only state facts written after the
    time asked about weigh less."""
    with Memory.open(workspace) as memory:
        state = retain(memory, "2025-06-10", "W @Anna: Goes hiking in the Alps each month.")
        told = retain(memory, "2025-06-20", "B @Anna: Went hiking in the Alps with Anna.")
    with Memory.open(workspace, now="2025-12-15") as memory:
        result = memory.recall("hiking in the Alps last spring")
        assert [h.fact.id for h in result.hits] == [told, state]
        assert memory.recall("hiking in the Alps last spring", include_all=True).hits[
            0].fact.id == told


def test_a_query_that_is_only_a_time_phrase_stays_restricted_to_it(
        workspace: Path, peter: dict[str, str]) -> None:
    with Memory.open(workspace, now=LATER) as memory:
        result = memory.recall("in November 2025")
    assert [h.fact.id for h in result.hits] == [peter["trip"]]


@pytest.mark.parametrize(("query", "today", "expected", "span"), [
    ("where was Peter last spring", "2026-01-10", ("2025-03-01", "2025-05-31"), "last spring"),
    ("last spring", "2025-07-01", ("2025-03-01", "2025-05-31"), "last spring"),
    ("last spring", "2025-04-10", ("2024-03-01", "2024-05-31"), "last spring"),
    ("trips last summer", "2025-12-03", ("2025-06-01", "2025-08-31"), "last summer"),
    ("last fall", "2025-12-03", ("2025-09-01", "2025-11-30"), "last fall"),
    ("last autumn", "2025-10-15", ("2024-09-01", "2024-11-30"), "last autumn"),
    ("last winter", "2025-12-03", ("2024-12-01", "2025-02-28"), "last winter"),
    ("last winter", "2025-01-15", ("2023-12-01", "2024-02-29"), "last winter"),
    ("this winter", "2026-01-10", ("2025-12-01", "2026-02-28"), "this winter"),
    ("this summer", "2025-04-01", ("2025-06-01", "2025-08-31"), "this summer"),
    ("in the summer of 2024", "2025-12-03", ("2024-06-01", "2024-08-31"),
     "in the summer of 2024"),
    ("spring 2025 plans", "2025-12-03", ("2025-03-01", "2025-05-31"), "spring 2025"),
    ("during winter", "2025-07-01", ("2024-12-01", "2025-02-28"), "during winter"),
    ("in the fall", "2025-10-01", ("2025-09-01", "2025-11-30"), "in the fall"),
    ("since last summer", "2025-12-03", ("2025-06-01", "2025-12-03"), "since last summer"),
    ("before last spring", "2025-12-03", (None, "2025-02-28"), "before last spring"),
])
def test_seasons_are_time_phrases(query: str, today: str, expected: tuple[str | None, str],
                                  span: str) -> None:
    found = find_time_phrase(query, today=date.fromisoformat(today))
    assert found is not None
    start, end = expected
    assert found[0] == Interval(date.fromisoformat(start) if start else None,
                                date.fromisoformat(end))
    assert query[found[1][0]:found[1][1]].strip() == span


@pytest.mark.parametrize("query", ["fall asleep", "spring boot config", "summer house",
                                   "winter tyres", "on spring break", "the 2025 spring"])
def test_a_bare_season_word_is_not_a_time(query: str) -> None:
    assert find_time_phrase(query, today=date(2025, 12, 3)) is None


def test_a_season_is_a_since_spec() -> None:
    assert parse_spec("last spring", today=date(2026, 1, 10)) == Interval(
        date(2025, 3, 1), date(2025, 5, 31))


# -- 2. left out for its lifecycle: say how many, and that --all shows them -----------------


@pytest.fixture
def trip(workspace: Path) -> str:
    with Memory.open(workspace) as memory:
        return retain(memory, "2025-11-27", "W @Peter: Currently in Marrakech "
                      "(Nov 27–Dec 1, 2025) for Andy's birthday.")


def test_a_recall_of_only_expired_matches_says_so_in_text(run: Cli, trip: str) -> None:
    result = run("--as-of", LATER, "recall", "Marrakech")
    assert result.exit_code == 0 and result.stdout == ""
    assert result.stderr.strip() == ("no results; 1 matching fact is expired — add --all to "
                                     "see it")
    shown = run("--as-of", LATER, "recall", "Marrakech", "--all")
    assert trip in shown.stdout or "Marrakech" in shown.stdout
    assert "add --all" not in shown.stderr


def test_a_recall_of_only_expired_matches_says_so_in_json(run: Cli, trip: str) -> None:
    data = json.loads(run("--as-of", LATER, "recall", "Marrakech", "--json").stdout)
    assert data["results"] == []
    assert data["hidden_by_lifecycle"] == {"superseded": 0, "merged": 0, "expired": 1}
    everything = json.loads(run("--as-of", LATER, "recall", "Marrakech", "--all",
                                "--json").stdout)
    assert [r["id"] for r in everything["results"]] == [trip]
    assert everything["hidden_by_lifecycle"] == {"superseded": 0, "merged": 0, "expired": 0}


@pytest.fixture
def databases(workspace: Path) -> tuple[str, str]:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2025-06-01", "W @acme: The main database is PostgreSQL.")
        new = retain(memory, "2025-06-08", "W @acme: The main database is MySQL.")
        supersede(memory, old, new, "2025-06-08")
    return old, new


def test_results_with_some_left_out_carry_the_count(
        workspace: Path, run: Cli, trip: str, databases: tuple[str, str]) -> None:
    old, new = databases
    with Memory.open(workspace, now="2025-06-15") as memory:
        result = memory.recall("main database")
        assert [h.fact.id for h in result.hits] == [new]
        assert result.hidden == {SUPERSEDED: 1}
    data = json.loads(run("--as-of", "2025-06-15", "recall", "main database",
                          "--json").stdout)
    assert [r["id"] for r in data["results"]] == [new]
    assert data["hidden_by_lifecycle"] == {"superseded": 1, "merged": 0, "expired": 0}
    text = run("--as-of", "2025-06-15", "recall", "main database")
    assert len(text.stdout.splitlines()) == 1
    assert text.stderr.strip() == "(1 matching fact is superseded — add --all to see it)"
    # both statuses at once: expired and superseded
    with Memory.open(workspace, now=LATER) as memory:
        both = memory.recall("Marrakech PostgreSQL")
        # what replaced the superseded match answers in its place (`memfold.recall.currency`)
        assert [h.fact.id for h in both.hits] == [new]
        assert both.hits[0].why.startswith(f"replaces ^{old}, which matched")
        assert both.hidden == {SUPERSEDED: 1, EXPIRED: 1}
        assert both.hidden_hint() == ("2 matching facts are superseded or expired "
                                      "(1 superseded, 1 expired) — add --all to see them")


def test_tell_me_about_counts_what_it_left_out(workspace: Path, trip: str) -> None:
    with Memory.open(workspace, now=LATER) as memory:
        result = memory.recall("tell me about Peter")
        assert result.hits == () and result.hidden == {EXPIRED: 1}
        assert memory.recall("tell me about Peter", include_all=True).hidden == {}


def test_the_reported_statuses_are_the_lifecycle_ones() -> None:
    assert LEFT_OUT_STATUSES == (SUPERSEDED, MERGED, EXPIRED)


# -- 3. with --all, a replacement ranks above what it replaced ------------------------------


def test_with_all_the_replacement_ranks_first_at_equal_relevance(workspace: Path) -> None:
    """Written the same day, the two facts tie on every term; the tie no longer falls to
    the older line."""
    with Memory.open(workspace) as memory:
        facts = memory.retain(["W @acme: The main database is PostgreSQL.",
                               "W @acme: The main database is MySQL."],
                              date="2025-06-01", now="2025-06-01T10:00:00").facts
        old, new = facts[0].id, facts[1].id
        supersede(memory, old, new, "2025-06-01")
    with Memory.open(workspace, now="2025-06-15") as memory:
        result = memory.recall("main database", include_all=True)
        assert [h.fact.id for h in result.hits] == [new, old]
        assert result.hits[1].superseded_by == new


def test_with_all_a_less_wordy_old_fact_does_not_outrank_its_replacement(
        workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2025-06-01", "W @acme: The main database is PostgreSQL.")
        new = retain(memory, "2025-06-08", "W @acme: After the outage in May we moved the "
                     "main database of the billing service over to MySQL.")
        unrelated = retain(memory, "2025-06-09", "W @acme: The main office is in Graz.")
        supersede(memory, old, new, "2025-06-08")
    with Memory.open(workspace, now="2025-06-15") as memory:
        result = memory.recall("main database", include_all=True)
        found = [h.fact.id for h in result.hits]
        assert found.index(new) < found.index(old)
        assert found.index(unrelated) > found.index(old)  # nothing else is lifted
        scores = {h.fact.id: h.score for h in result.hits}
        assert scores[new] >= scores[old]


def test_with_all_a_chain_of_replacements_ranks_newest_first(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        first = retain(memory, "2025-01-10", "W @build: The build runs on Node 18.")
        second = retain(memory, "2025-03-10", "W @build: We moved the build over to a newer "
                        "runtime, Node 20, after the security notice.")
        third = retain(memory, "2025-05-10", "W @build: The build now runs on Bun, which "
                       "replaced Node for speed on the CI machines.")
        supersede(memory, first, second, "2025-03-10")
        supersede(memory, second, third, "2025-05-10")
    with Memory.open(workspace, now="2025-05-20") as memory:
        result = memory.recall("build runs on Node", include_all=True)
        assert [h.fact.id for h in result.hits] == [third, second, first]
        assert [h.fact.id for h in memory.recall("build runs on Node").hits] == [third]
