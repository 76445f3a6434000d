"""Recall as of a day in the past (`now=`, `--as-of`, MEMFOLD_NOW) sees only what was written
by then, and each fact's lifecycle as it stood then (issue 30); a time phrase recall cannot
read is searched as words and the result says so."""

from __future__ import annotations

import json

import pytest

from conftest import Cli
from memfold import Memory


def retain(memory: Memory, day: str, bullet: str) -> str:
    [fact] = memory.retain([bullet], date=day, now=f"{day}T10:00:00").facts
    return fact.id


@pytest.fixture
def moves(memory: Memory) -> tuple[Memory, str, str]:
    """Peter lives in Berlin (March 2025), then in Lisbon (September 2025), the second
    superseding the first."""
    berlin = retain(memory, "2025-03-10", "W @Peter: Peter lives in Berlin")
    lisbon = retain(memory, "2025-09-02", "W @Peter: Peter lives in Lisbon")
    if memory.get(berlin, use=False).superseded_by != lisbon:
        memory.supersede(berlin, lisbon, now="2025-09-02T10:00:00")
    return memory, berlin, lisbon


def ids(memory: Memory, query: str, now: str, **options: object) -> list[str]:
    return [h.fact.id for h in memory.recall(query, now=now, **options).hits]  # type: ignore[arg-type]


def test_a_fact_written_after_now_is_not_seen(moves: tuple[Memory, str, str]) -> None:
    memory, berlin, lisbon = moves
    assert lisbon not in ids(memory, "where does Peter live", "2025-06-01T12:00:00")
    assert lisbon not in ids(memory, "Lisbon", "2025-06-01T12:00:00", include_all=True)
    assert lisbon in ids(memory, "where does Peter live", "2025-10-01T12:00:00")


def test_a_supersede_after_now_is_not_applied(moves: tuple[Memory, str, str]) -> None:
    memory, berlin, _ = moves
    [hit] = memory.recall("where does Peter live", now="2025-06-01T12:00:00").hits
    assert hit.fact.id == berlin
    assert hit.status == "active" and hit.superseded_by is None
    # and today it is superseded: left out without --all
    assert berlin not in ids(memory, "where does Peter live", "2025-10-01T12:00:00")


def test_about_as_of_then_sees_only_what_was_written(moves: tuple[Memory, str, str]) -> None:
    memory, berlin, lisbon = moves
    then = [h.fact.id for h in memory.about("Peter", now="2025-06-01T12:00:00").hits]
    assert then == [berlin]
    later = [h.fact.id for h in memory.about("Peter", now="2025-10-01T12:00:00").hits]
    assert lisbon in later


def test_before_the_first_fact_nothing_and_one_line_why(moves: tuple[Memory, str, str]) -> None:
    memory, _, _ = moves
    result = memory.recall("Peter", now="1999-01-01T12:00:00", include_all=True)
    assert result.hits == ()
    assert result.notes == ("nothing was written by 1999-01-01: the first fact was written on "
                            "2025-03-10",)
    assert memory.about("Peter", now="1999-01-01T12:00:00").hits == ()


def test_cli_as_of_before_the_first_fact(run: Cli) -> None:
    run("retain", "--date", "2025-03-10", "W @Peter: Peter lives in Berlin")
    for args, env in ((["--as-of", "1999-06-01"], None), ([], {"MEMFOLD_NOW": "1999-06-01"})):
        result = run(*args, "recall", "Berlin", env=env)
        assert result.exit_code == 0
        assert result.stdout == ""
        assert result.stderr.strip() == ("no results; nothing was written by 1999-06-01: the "
                                         "first fact was written on 2025-03-10")
        data = json.loads(run(*args, "recall", "Berlin", "--json", env=env).stdout)
        assert data["results"] == [] and data["notes"] == [
            "nothing was written by 1999-06-01: the first fact was written on 2025-03-10"]


def test_cli_as_of_in_the_past_hides_later_facts(run: Cli) -> None:
    run("retain", "--date", "2025-03-10", "W @Peter: Peter lives in Berlin")
    run("retain", "--date", "2025-09-02", "B @Peter: Peter visited Berlin zoo")
    then = run("--as-of", "2025-06-01", "recall", "Berlin", "--json")
    assert [r["content"] for r in json.loads(then.stdout)["results"]] == [
        "Peter lives in Berlin"]


def test_a_time_phrase_that_cannot_be_read_is_searched_as_words(memory: Memory) -> None:
    retain(memory, "2025-11-20", "B: bought a banana bread recipe")
    result = memory.recall("between banana and Tuesday", now="2025-12-03T12:00:00")
    assert result.window is None
    assert [h.fact.content for h in result.hits] == ["bought a banana bread recipe"]
    assert "'between banana and Tuesday' not read as a time" in result.hits[0].why
    assert result.notes == ("'between banana and Tuesday' was not read as a time: searched "
                            "as words",)
    assert result.to_dict()["notes"] == list(result.notes)


def test_a_range_recall_reads_is_a_window(memory: Memory) -> None:
    retain(memory, "2025-11-20", "B: dentist appointment")
    retain(memory, "2025-11-27", "B: dentist appointment again")
    result = memory.recall("between Nov 25 and Nov 30", now="2025-12-03T12:00:00")
    assert str(result.window) == "2025-11-25..2025-11-30"
    assert [h.fact.content for h in result.hits] == ["dentist appointment again"]
    late = memory.recall("what happened in late November", now="2025-12-03T12:00:00")
    assert [h.fact.content for h in late.hits] == ["dentist appointment again"]


# -- times a fact's own words name, read as of the day it was written ----------------------------


def test_a_fact_saying_when_is_read_as_of_its_own_day() -> None:
    from datetime import date

    from memfold.recall.search import said_time
    from memfold.values import Interval

    monday = date(2023, 5, 8)
    assert said_time("went to a support group last Saturday", monday) == Interval(
        date(2023, 5, 6), date(2023, 5, 6))
    assert said_time("we had a blast last year at the Pride fest", monday) == Interval(
        date(2022, 1, 1), date(2022, 12, 31))
    assert said_time("went to a support group last Saturday", None) is None
    assert said_time("Peter lives in Berlin", monday) is None


def test_a_fact_that_says_it_happened_then_ranks_first(memory: Memory) -> None:
    said = retain(memory, "2023-08-17", "B: we had a blast at the pride fest last year")
    retain(memory, "2023-08-10", "B: pride fest with friends, a blast")
    result = memory.recall("the pride fest in 2022", now="2023-09-01T12:00:00")
    assert result.hits[0].fact.id == said
    assert "(valid then)" in result.hits[0].why


def test_words_of_a_time_phrase_that_are_topics_are_searched_beside_others() -> None:
    from datetime import date

    from memfold.recall.query import plan_query

    today = date(2025, 12, 3)
    beside = plan_query("What event did John volunteer at last weekend?", today=today)
    assert "weekend" in beside.terms and str(beside.window) == "2025-11-29..2025-11-30"
    alone = plan_query("what did I do last weekend", today=today)
    assert alone.terms == () and alone.window is not None  # only a time: restricted to it


def test_an_agent_tool_recall_carries_the_notes(memory: Memory) -> None:
    from memfold.agents.results import recall_result

    retain(memory, "2025-03-10", "W @Peter: Peter lives in Berlin")
    before = memory.recall("Berlin", now="1999-01-01T12:00:00")
    assert recall_result(before, budget=None, full=False)["notes"] == list(before.notes)
    plain = memory.recall("Berlin", now="2025-06-01T12:00:00")
    assert "notes" not in recall_result(plain, budget=None, full=False)


def test_a_plan_retained_into_a_later_day_is_seen_from_the_day_it_was_written(
        memory: Memory) -> None:
    [plan] = memory.retain(["B @Peter: Conference in Lisbon planned"], date="2026-01-05",
                           now="2025-11-28T10:00:00", future=True).facts
    assert [h.fact.id for h in memory.recall("conference", now="2025-12-01T12:00:00").hits] \
        == [plan.id]
    before = memory.recall("conference", now="2025-11-01T12:00:00")
    assert before.hits == () and before.notes == (
        "nothing was written by 2025-11-01: the first fact was written on 2025-11-28",)
