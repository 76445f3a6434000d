"""A change written under another entity (issue 29): the ledger weighs a new fact against the
older facts about an entity its text names, and against older facts whose text names one of
its entities; the judge's subject and slot rules then decide, and a doubtful pair is offered
as a conflict rather than superseded."""

from __future__ import annotations

from pathlib import Path

from memfold import Memory
from memfold.lifecycle import named
from memfold.lifecycle.judge.rules import RuleJudge


def test_a_change_under_the_entity_an_older_fact_names_supersedes_it(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        fee = memory.retain("W @me: My PureFit gym membership costs £35 a month.",
                            date="2024-05-01").facts[0]
        raised = memory.retain("B @PureFit: PureFit raised its monthly membership fee to £42 "
                               "from January.", date="2025-01-01")
        assert [j.id for j in raised.superseded] == [fee.id]
        assert memory.get(fee.id, use=False).superseded_by == raised.facts[0].id


def test_a_state_written_under_me_about_someone_named_supersedes_theirs(
        workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        home = memory.retain("W @Omar: Omar lives in Stockholm.", date="2024-02-01").facts[0]
        moved = memory.retain("W @me: Omar lives in Copenhagen now.", date="2025-02-01")
        assert [j.id for j in moved.superseded] == [home.id]


def test_a_name_from_an_entity_page_finds_the_entity_in_the_text(workspace: Path) -> None:
    pages = workspace / "bank" / "entities"
    pages.mkdir(parents=True, exist_ok=True)
    (pages / "Omar.md").write_text("---\naliases: [Omi]\n---\n# Omar\n", encoding="utf-8")
    with Memory.open(workspace) as memory:
        memory.index()
        home = memory.retain("W @Omar: Omar lives in Stockholm.", date="2024-02-01").facts[0]
        moved = memory.retain("W @me: Omi lives in Copenhagen now.", date="2025-02-01")
        assert [j.id for j in moved.superseded] == [home.id]


def test_an_experience_that_names_someone_in_passing_is_only_offered(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        year = memory.retain("W @Nadia: Nadia is in Year 5 at Oakfield Primary.",
                             date="2024-09-02").facts[0]
        walked = memory.retain("B @me: Walked Nadia to her first day of Year 6 at Oakfield "
                               "Primary.", date="2025-09-03")
        assert not walked.superseded
        [conflict] = walked.conflicts
        assert conflict.id == year.id and "Year: 5 became 6" in conflict.reason
        assert conflict.reason.endswith(named.ACROSS)
        # journaled, so a person can settle it
        assert [i.older.id for i in memory.review().items] == [year.id]


def test_a_mention_in_an_experience_never_retires_the_state(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        lead = memory.retain("W @Keiko: Keiko is the lead first violinist of the Sapporo "
                             "Youth Orchestra.", date="2024-05-14").facts[0]
        went = memory.retain("B @me: Went to Keiko's winter concert in Sapporo, where she "
                             "played the violin solo.", date="2024-11-02")
        assert not went.superseded
        assert memory.get(lead.id, use=False).status == "active"


def test_someone_named_as_a_value_keeps_their_own_slot(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        theirs = memory.retain("W @Priya: Priya's manager is Tom.", date="2024-03-01").facts[0]
        mine = memory.retain("W @me: My manager is Priya now.", date="2025-03-01")
        assert theirs.id not in {j.id for j in mine.superseded}


def test_the_older_facts_weighed_across_entities_are_bounded_newest_first(
        workspace: Path, monkeypatch) -> None:
    weighed: list[str] = []
    judge = RuleJudge()
    original = judge.weigh

    def counting(new, older):  # type: ignore[no-untyped-def]
        weighed.extend(o.content for o in older if "Nadia" in o.content)
        return original(new, older)

    monkeypatch.setattr(judge, "weigh", counting)
    monkeypatch.setattr(named, "NAMED_CANDIDATES", 3)
    with Memory.open(workspace, judge=judge) as memory:
        for n, hobby in enumerate(HOBBIES):
            memory.retain(f"W @Nadia: Nadia {hobby}.", date=f"2024-0{n + 1}-01")
        weighed.clear()
        memory.retain("B @me: Took Nadia to the library on Saturday.", date="2024-09-01")
    assert list(dict.fromkeys(weighed)) == [f"Nadia {h}." for h in reversed(HOBBIES[3:])]


HOBBIES = ["plays the cello", "is in the chess club", "collects stamps", "swims on Tuesdays",
           "reads comics", "bakes bread"]


def test_an_older_fact_is_read_with_only_the_entities_its_text_names(workspace: Path) -> None:
    """"Lucia left Globex and joined Initech" names Globex, not Yuki: Yuki's move the other way
    is not about Lucia's employer (read with Yuki among its entities, it was)."""
    with Memory.open(workspace) as memory:
        lucia = memory.retain("W @Lucia @Initech: Lucia left Globex and joined Initech.",
                              date="2025-03-01").facts[0]
        yuki = memory.retain("W @Yuki @Globex: Yuki left Initech and joined Globex.",
                             date="2025-06-01")
        assert yuki.superseded == ()
        felix = memory.retain("W @Felix @Acme: Felix left Hooli and joined Acme.",
                              date="2025-07-01").facts[0]
        kenji = memory.retain("W @Kenji @Hooli: Kenji started a new job at Hooli.",
                              date="2025-09-01")
        assert kenji.superseded == ()
        assert memory.get(lucia.id, use=False).superseded_by is None
        assert memory.get(felix.id, use=False).superseded_by is None
