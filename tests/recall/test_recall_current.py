"""Recall answers with what is true now (`memfold.recall.currency`): the fact that replaced a match,
the newer of two facts that may disagree, a faded fact below the current one, and present
states that time alone does not archive."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from conftest import Cli
from memfold import Memory
from memfold.agents.tools import call
from memfold.index.base import Candidate, Filters
from memfold.journal.fold import ACTIVE, ARCHIVED, SUPERSEDED, LifeState
from memfold.recall import currency
from memfold.values import Fact


def retain(memory: Memory, day: str, *bullets: str) -> list[str]:
    return [f.id for f in memory.retain(list(bullets), date=day, now=day).facts]


def ids(result: object) -> list[str]:
    return [h.fact.id for h in result.hits]  # type: ignore[attr-defined]


# -- a superseded match brings its successor ------------------------------------------------


def test_what_replaced_a_match_answers_though_it_shares_no_word(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        [old] = retain(memory, "2025-01-10", "W: The main app's database is PostgreSQL.")
        [new] = retain(memory, "2025-04-10",
                       "W: We replaced PostgreSQL with MySQL for the main app.")
        assert memory.get(old, use=False).superseded_by == new
        result = memory.recall("what database do we use?", now="2025-06-01")
        assert ids(result) == [new]
        assert result.hits[0].why.startswith(f"replaces ^{old}, which matched")
        assert result.hidden == {SUPERSEDED: 1}  # still counted as left out
        everything = memory.recall("what database do we use?", now="2025-06-01",
                                   include_all=True)
        assert ids(everything) == [new, old]  # both, the successor first
        assert everything.hits[1].status == SUPERSEDED


def test_a_chain_answers_with_its_end(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        [first] = retain(memory, "2025-01-10", "W @Heron: Heron's CI runs on Jenkins.")
        [second] = retain(memory, "2025-03-10", "W @Heron: Moved from Jenkins to CircleCI.")
        [third] = retain(memory, "2025-05-10",
                         "W @Heron: GitHub Actions took over from CircleCI.")
        memory.supersede(first, second)
        memory.supersede(second, third)
        result = memory.recall("which CI does Heron run on Jenkins", now="2025-06-01")
        assert ids(result)[0] == third
        assert f"replaces ^{first}" in result.hits[0].why
        # asked before the last step was written, the chain ends at what was there then
        then = memory.recall("Jenkins", now="2025-04-01")
        assert third not in ids(then)


def test_the_walk_along_a_chain_stops_at_a_cycle() -> None:
    """memfold refuses a supersede that closes a cycle, but a journal edited by hand can
    hold one: the walk ends at the last fact before it comes round again."""
    facts = {i: Candidate(Fact(id=i, kind="world", content=i, path="memory/2025-01-01.md",
                               line=n, end_line=n, day=date(2025, 1, 1)),
                          None, (), "", rowid=n, life=LifeState(i, superseded_by=nxt))
             for n, (i, nxt) in enumerate((("a", "b"), ("b", "c"), ("c", "a")), start=1)}

    class Backend:
        def by_ids(self, wanted: list[str]) -> list[Candidate]:
            return [facts[i] for i in wanted if i in facts]

        def by_rowids(self, rowids: list[int], filters: Filters) -> list[Candidate]:
            return [c for c in facts.values() if c.rowid in rowids]

    ends = currency.successors(Backend(), {"a": "b"}, Filters(),  # type: ignore[arg-type]
                               date(2025, 6, 1))
    assert ends["a"].fact.id == "c"


def test_where_dana_lives_after_she_moved(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        [lisbon] = retain(memory, "2025-01-05", "W @Dana: Dana lives in Lisbon.")
        retain(memory, "2025-01-20", "W @Dana: Dana's sister lives in Porto.")
        retain(memory, "2025-02-01", "W @Dana: Dana's parents live in Coimbra.")
        retain(memory, "2025-03-01", "O @Dana: Dana loves live jazz.")
        retain(memory, "2025-03-10", "B @Dana: Dana ran a 10k in Lisbon.")
        [berlin] = retain(memory, "2025-04-01", "W @Dana: Moved from Lisbon to Berlin.")
        assert memory.get(lisbon, use=False).status == SUPERSEDED
        result = memory.recall("where does Dana live", now="2025-05-01")
        assert ids(result)[0] == berlin
        assert lisbon not in ids(result)


# -- two active facts that disagree: the newer first ------------------------------------------


def test_the_newer_of_two_values_ranks_first_and_the_older_says_so(workspace: Path,
                                                                   run: Cli) -> None:
    # written by hand and indexed together without judging (`index --no-judge`): both active
    (workspace / "memory/2025-01-10.md").write_text(
        "## Retain\n- W @Kenji: Kenji lives in Berlin. ^kberlin1\n")
    (workspace / "memory/2025-06-10.md").write_text(
        "## Retain\n- W @Kenji: Kenji lives in Zurich now. ^kzurich1\n"
        "- W @Kenji: Kenji plans to move to Oslo someday. ^koslo001\n")
    with Memory.open(workspace, now="2025-07-01") as memory:
        memory.index(judge=False)
        result = memory.recall("where does Kenji live")
        by_id = {h.fact.id: h for h in result.hits}
        assert ids(result).index("kzurich1") < ids(result).index("kberlin1")
        assert by_id["kberlin1"].status == ACTIVE
        assert by_id["kberlin1"].possibly_outdated_by == ("kzurich1",)  # not the plan
        assert by_id["kzurich1"].possibly_outdated_by == ()
        tool = call(memory, "recall", {"query": "where does Kenji live"})  # MCP's compact form
        compact = {r["id"]: r for r in tool["results"]}
        assert compact["kberlin1"]["possibly_outdated_by"] == ["kzurich1"]
        assert "possibly_outdated_by" not in compact["kzurich1"]
    data = json.loads(run("--as-of", "2025-07-01", "recall", "where does Kenji live",
                          "--json").stdout)
    found = {r["id"]: r for r in data["results"]}
    assert found["kberlin1"]["possibly_outdated_by"] == ["kzurich1"]
    assert found["kzurich1"]["possibly_outdated_by"] == []
    text = run("--as-of", "2025-07-01", "recall", "where does Kenji live").stdout
    [line] = [x for x in text.splitlines() if "Berlin" in x]
    assert "may be outdated by ^kzurich1" in line


def test_someone_elses_news_outdates_nothing(workspace: Path) -> None:
    (workspace / "memory/2025-01-10.md").write_text(
        "## Retain\n- W @Jonas: Jonas lives in Ghent near the Vrijdagmarkt. ^jghent01\n")
    (workspace / "memory/2025-05-10.md").write_text(
        "## Retain\n- B @Jonas: Jonas's sister Elke moved from Ghent to Rotterdam. ^jelke001\n")
    with Memory.open(workspace) as memory:
        result = memory.recall("where does Jonas live in Ghent", now="2025-06-01")
        assert ids(result)[0] == "jghent01"
        assert all(h.possibly_outdated_by == () for h in result.hits)


# -- a faded fact and the current one ----------------------------------------------------------


def test_a_faded_exploration_ranks_below_the_current_fact_but_a_faded_match_is_found(
        workspace: Path) -> None:
    """Design note 002's Bun.js story, and its other half: fading ranks a fact below the
    current fact about the same subject and topic, never below weak matches about others."""
    with Memory.open(workspace) as memory:
        [bun] = retain(memory, "2024-10-10",
                       "W(i=8) @me: Investigating Bun.js as an alternative JavaScript runtime.")
        [node] = retain(memory, "2025-01-10", "W @me: The build runs on Node.js 22.")
        for n, day in enumerate(("2025-03-01", "2025-03-08", "2025-03-15", "2025-03-22")):
            retain(memory, day, f"B @me: Fixed build warning number {n} in the build logs.")
        [paper] = retain(memory, "2021-03-01", "O @litware: Decided the research paper "
                                               "should move to Airflow next quarter.")
        for name in ("contoso", "fabrikam", "northwind", "tailspin"):
            retain(memory, "2025-04-01", f"W @{name}: The {name} research group writes a "
                                         "paper every quarter.")
        now = "2025-04-10"
        assert memory.get(bun, use=False, now=now).status == ARCHIVED
        runtime = memory.recall("JavaScript runtime for the build", now=now)
        assert ids(runtime).index(node) < ids(runtime).index(bun)
        decided = memory.recall("What did litware decide about moving the research paper "
                                "to Airflow?", now=now)
        assert ids(decided)[0] == paper
        assert decided.hits[0].status == ARCHIVED


# -- present states are not archived by time ---------------------------------------------------


def test_a_present_tense_state_is_not_archived_by_time_alone(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        [cookies] = retain(memory, "2025-01-01",
                           "W(c=0.95,i=3) @Sam: Sam enjoys peanut butter cookies.")
        [camera] = retain(memory, "2025-01-01",
                          "W @Viktor: Viktor shoots street photography with a Fujifilm X-T4.")
        [bun] = retain(memory, "2025-01-01", "W @Sam: Sam is investigating Bun.js.")
        [told] = retain(memory, "2025-01-01", "W @Sam: Sam said the party was too loud.")
        later = "2025-03-17"  # 75 days unused
        assert memory.get(cookies, use=False, now=later).status == ACTIVE
        assert memory.get(camera, use=False, now=later).status == ACTIVE
        assert memory.get(bun, use=False, now=later).status == ARCHIVED  # an activity
        assert memory.get(told, use=False, now=later).status == ARCHIVED  # told in the past


def test_a_long_chain_is_read_a_chain_at_a_time(workspace: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The links of a chain of replacements are read chains at a time (one statement walks
    `search.CHAIN_DEPTH` links), not one whole fact per link: a chain of twelve reads the
    facts by id once, for the end, however the walk is cut."""
    from memfold.index.sqlite import search
    from memfold.index.sqlite.backend import SqliteIndex

    read: list[list[str]] = []
    by_ids = SqliteIndex.by_ids

    def spy(self: SqliteIndex, wanted: list[str]) -> list[Candidate]:
        read.append(list(wanted))
        return by_ids(self, wanted)  # type: ignore[no-any-return]

    with Memory.open(workspace) as memory:
        chain = [retain(memory, f"2025-01-{n + 10:02d}",
                        f"W @Heron: Heron's build server is number {n}.")[0] for n in range(12)]
        for old, new in zip(chain, chain[1:], strict=False):
            if memory.get(old, use=False).superseded_by != new:
                memory.supersede(old, new)
        monkeypatch.setattr(SqliteIndex, "by_ids", spy)
        for depth in (64, 3):
            monkeypatch.setattr(search, "CHAIN_DEPTH", depth, raising=False)
            read.clear()
            result = memory.recall("Heron build server number 0", now="2025-06-01",
                                   include_all=True)
            assert ids(result)[0] == chain[-1]
            assert read == [[chain[-1]]]
        read.clear()  # as of a day inside the chain, it ends at what was there then
        then = memory.recall("Heron build server number 0", now="2025-01-15")
        assert chain[-1] not in ids(then)
        assert chain[5] in ids(then)


# -- what may outdate a fact, and what only shares its topic ---------------------------------


def test_an_event_on_the_same_topic_does_not_outdate_the_state(workspace: Path) -> None:
    """Later visits that name the vet do not say the vet changed: the judge found them on
    one topic (Dr. Okafor), and recall no longer reads that as a newer value."""
    with Memory.open(workspace) as memory:
        [vet] = retain(memory, "2025-03-02", "W @Biscuit: Biscuit's new vet is Dr. Okafor "
                                            "at the Riverside Animal Clinic in Bexley.")
        retain(memory, "2025-06-11", "B @me @Biscuit: Biscuit's booster jabs with Dr. Okafor, "
                                     "£62.")
        retain(memory, "2025-10-20", "B @me @Biscuit: Biscuit had an ear infection; Dr. Okafor "
                                     "gave him drops, £85.")
        hits = memory.recall("Who's Biscuit's vet?", now="2025-12-01").hits
        assert hits[0].fact.id == vet
        assert not hits[0].possibly_outdated_by


def test_a_newer_view_on_the_same_topic_still_outdates_the_older(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2024-04-18", "O @Elif: Elif always flies Turkish Airlines when she "
                                     "visits family in Izmir.")
        [now] = retain(memory, "2025-03-08", "O(c=0.9) @Elif: After two lost bags, Elif has "
                                             "sworn off Turkish Airlines and now books Pegasus "
                                             "for trips to Izmir.")
        hits = memory.recall("Which airline will Elif take to see her family?",
                             now="2025-04-01").hits
        assert hits[0].fact.id == now


def test_a_faded_fact_is_held_below_a_newer_one_only_where_that_answers_as_well(
        workspace: Path) -> None:
    """A faded fact that answers far better than a newer fact sharing one of its words
    keeps its place above it (the Bun.js story, where the newer answers as well, is
    `test_a_faded_exploration_ranks_below_the_current_fact_but_a_faded_match_is_found`)."""
    with Memory.open(workspace) as memory:
        [camera] = retain(memory, "2025-01-30", "W @me: I shoot film on a Pentax MX my "
                                                "grandfather left me.")
        [leave] = retain(memory, "2025-11-02", "W @me: I'm taking two weeks of leave in "
                                               "December.")
        now = "2025-12-20"
        assert memory.get(camera, use=False, now=now).status == ARCHIVED
        assert memory.get(leave, use=False, now=now).status == ACTIVE
        assert ids(memory.recall("What camera did my grandfather leave me?", now=now))[:2] \
            == [camera, leave]
