"""The lifecycle: supersede, expiry, decay, confidence, notes with revisions, the journal."""

from __future__ import annotations

import json
import multiprocessing
import shutil
from pathlib import Path

import pytest

from memfold import BadInput, Memory, StaleRevision, UnknownId
from memfold.journal.fold import ARCHIVED, EXPIRED, SUPERSEDED, decay_score, half_life_days
from memfold.journal.log import JOURNAL_NAME
from memfold.values import Fact


def retain(memory: Memory, day: str, *bullets: str) -> list[str]:
    return [f.id for f in memory.retain(list(bullets), date=day).facts]


def ids(result: object) -> list[str]:
    return [h.fact.id for h in result.hits]  # type: ignore[attr-defined]


def dump(root: Path) -> list[tuple[object, ...]]:
    with Memory.open(root) as memory:
        memory.refresh()
        return memory.index_backend.dump()


def rebuilt_dump(root: Path) -> list[tuple[object, ...]]:
    shutil.rmtree(root / ".memory")
    with Memory.open(root) as memory:
        memory.index(full=True)
        return memory.index_backend.dump()


# -- supersede -----------------------------------------------------------------------


def test_postgresql_to_mysql(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-09-01") as memory:
        old = []
        for n in range(14):
            importance = 9 if n % 3 == 0 else 6
            old += retain(memory, f"2025-0{1 + n % 7}-{10 + n}",
                          f"W(i={importance}) @shop: The main database is PostgreSQL; note {n}.")
        history = retain(memory, "2025-08-01", "B @shop: Tuned PostgreSQL autovacuum for orders.")
        [switch] = retain(memory, "2025-08-20",
                          "W @shop: Switched the main database from PostgreSQL to MySQL.")
        result = memory.recall("which database do we use?")
        assert result.hits[0].fact.id == switch
        assert not set(old) & set(ids(result))
        everything = memory.recall("which database do we use?", include_all=True, k=50)
        flagged = {h.fact.id: h for h in everything.hits}
        for fact_id in old:
            assert flagged[fact_id].status == SUPERSEDED
            assert flagged[fact_id].superseded_by == switch
        assert memory.get(history[0], use=False).status == "active"  # history stays
        assert set(memory.get(switch, use=False).supersedes) == set(old)


def test_same_attribute_new_value_supersedes(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-03-01") as memory:
        [vienna] = retain(memory, "2025-01-10", "W @Peter: Lives in Vienna.")
        [tea] = retain(memory, "2025-01-11", "O @Peter: Likes green tea.")
        [berlin] = retain(memory, "2025-02-10", "W @Peter: Lives in Berlin.")
        [coffee] = retain(memory, "2025-02-11", "O @Peter: Likes black coffee.")
        assert memory.get(vienna, use=False).superseded_by == berlin
        assert memory.get(tea, use=False).status == "active"  # likes are not single-valued
        assert memory.get(coffee, use=False).status == "active"
        assert ids(memory.recall("where does Peter live"))[0] == berlin


def test_explicit_supersedes_param(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-03-01") as memory:
        [a] = retain(memory, "2025-01-10", "W @x: The venue is the old hall.")
        [b] = retain(memory, "2025-01-12", f"W(supersedes=^{a}) @y: Moved it somewhere else.")
        assert memory.get(a, use=False).superseded_by == b
        assert [e.event for e in memory.history(a)] == ["retain", "supersede"]


def test_hand_written_fact_is_judged_when_first_indexed(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-03-01") as memory:
        [vienna] = retain(memory, "2025-01-10", "W @Peter: Lives in Vienna.")
        (workspace / "memory" / "2025-02-01.md").write_text(
            "# 2025-02-01\n\n## Retain\n- W @Peter: Lives in Berlin. ^berlin01\n")
        memory.recall("Peter")
        assert memory.get(vienna, use=False).superseded_by == "berlin01"


def test_manual_supersede_restore_and_cycle(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-03-01") as memory:
        a, b, c = retain(memory, "2025-01-10", "W @m: Alpha plan.", "W @m: Beta plan.",
                         "W @m: Gamma plan.")
        assert memory.supersede(a, b)
        assert not memory.supersede(a, b)  # already: nothing new written
        memory.supersede(b, c)
        with pytest.raises(BadInput, match="cycle"):
            memory.supersede(c, a)
        with pytest.raises(BadInput, match="itself"):
            memory.supersede(a, a)
        with pytest.raises(UnknownId):
            memory.supersede(a, "nosuch99")
        trace = memory.trace(b)
        assert [h.fact.id for h in trace.supersedes] == [a]
        assert [h.fact.id for h in trace.superseded_by] == [c]
        memory.restore(a)
        assert memory.get(a, use=False).status == "active"
        assert a not in memory.get(b, use=False).supersedes


def test_bad_input_writes_nothing(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-03-01") as memory:
        [a] = retain(memory, "2025-01-10", "W @m: Alpha plan.")
        journal = workspace / JOURNAL_NAME
        before = journal.read_bytes() if journal.exists() else b""
        for call in (lambda: memory.note("nosuch99", "x", rev=0),
                     lambda: memory.note(a, "x", rev=-1),
                     lambda: memory.supersede(a, a),
                     lambda: memory.use("nosuch99"),
                     lambda: memory.history("nosuch99")):
            with pytest.raises(BadInput):
                call()
        after = journal.read_bytes() if journal.exists() else b""
        assert after == before


# -- expiry, decay, confidence --------------------------------------------------------


def test_expiry_and_its_own_time(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-11-28") as memory:
        [trip] = retain(memory, "2025-11-27",
                        "W @Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for a birthday.")
        assert ids(memory.recall("where is Peter"))[0] == trip
    with Memory.open(workspace, now="2025-12-05") as memory:
        assert trip not in ids(memory.recall("where is Peter"))
        assert memory.get(trip, use=False).status == EXPIRED
        then = memory.recall("where was Peter in November 2025")
        assert ids(then)[0] == trip and then.hits[0].status == EXPIRED
        assert trip in ids(memory.recall("where is Peter", include_all=True))


def test_until_param_expires(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-03-01") as memory:
        [wait] = retain(memory, "2025-02-20",
                        "W(until=2025-02-28) @Alice: Waiting for the API spec from Alice.")
        assert memory.get(wait, use=False).status == EXPIRED


def test_bun_js_fades_and_a_use_revives_it(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-07-10") as memory:
        [bun] = retain(memory, "2025-01-10",
                       "W(i=8) @build: Investigating Bun.js as the runtime for the build.")
        [node] = retain(memory, "2025-06-20", "W(i=5) @build: The build runs on Node 22.")
        result = memory.recall("what runtime does the build use", k=5)
        assert ids(result)[0] == node
        bun_hit = next(h for h in result.hits if h.fact.id == bun)
        assert bun_hit.status == ARCHIVED  # kept, findable, flagged
        memory.use(bun)
        assert memory.get(bun, use=False).status == "active"


def test_a_faded_fact_that_alone_matches_every_word_is_still_found(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-07-10") as memory:
        [old] = retain(memory, "2019-03-02",
                       "B @Omar: Fixed the quill pump at the zephyr harbour dock.")
        recent = retain(memory, "2025-07-01", *(
            f"B @Omar: Walked past the harbour on errand number {n}." for n in range(12)))
        result = memory.recall("quill pump zephyr harbour", k=10)
        assert ids(result)[0] == old  # years old and faded, but the only full match
        assert result.hits[0].status == ARCHIVED
        # at equal words the fresh fact still wins: fading weighs, it does not hide
        [again] = retain(memory, "2025-07-09",
                         "B @Omar: Fixed the quill pump at the zephyr harbour dock.")
        assert ids(memory.recall("quill pump zephyr harbour", k=10))[:2] == [again, old]
        assert set(ids(memory.recall("harbour errand", k=12))) == set(recent)


def test_a_fact_a_person_archived_ranks_below_every_active_one(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-07-10") as memory:
        [old] = retain(memory, "2025-07-01", "W @Ana: The quill pump sits at the zephyr dock.")
        [partial] = retain(memory, "2025-07-02", "W @Ana: The dock was repainted.")
        memory.forget(old)
        assert ids(memory.recall("quill pump zephyr dock", k=5))[:2] == [partial, old]


def test_decay_is_slower_for_important_facts() -> None:
    from datetime import date

    def fact(importance: int) -> Fact:
        return Fact(id="x", kind="world", content="c", path="memory/2025-01-01.md", line=1,
                    end_line=1, importance=importance, day=date(2025, 1, 1))

    later = date(2025, 3, 2)  # 60 days
    assert decay_score(fact(5), None, later) < 0.3 < decay_score(fact(10), None, later)
    assert half_life_days(10) > half_life_days(5) > half_life_days(1)
    scores = [decay_score(fact(5), None, date(2025, 1, 1 + d)) for d in range(0, 30, 3)]
    assert scores == sorted(scores, reverse=True)


def test_confidence_orders_equal_relevance(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-01-11") as memory:
        [weak] = retain(memory, "2025-01-10", "W(i=8,c=0.3) @x: The quarterly zeppelin report.")
        [sure] = retain(memory, "2025-01-10", "W(i=6,c=0.9) @y: The quarterly zeppelin report.")
        assert ids(memory.recall("quarterly zeppelin report"))[:2] == [sure, weak]


# -- notes, revisions, the journal ----------------------------------------------------


def test_note_compare_and_set(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-03-01") as memory:
        [a] = retain(memory, "2025-01-10", "W @m: Alpha plan.")
        assert memory.note(a, "first", rev=0) == 1
        with pytest.raises(StaleRevision) as stale:
            memory.note(a, "lost", rev=0)
        assert stale.value.current == 1
        assert memory.note(a, "second", rev=1) == 2
        hit = memory.get(a, use=False)
        assert (hit.rev, hit.note) == (2, "second")


def _race(root: str, fact_id: str, barrier: multiprocessing.synchronize.Barrier,
          results: multiprocessing.Queue[str]) -> None:  # type: ignore[name-defined]
    with Memory.open(root, now="2025-03-01") as memory:
        rev = memory.get(fact_id, use=False).rev
        barrier.wait()
        try:
            memory.note(fact_id, f"from {multiprocessing.current_process().name}", rev=rev)
            results.put("applied")
        except StaleRevision:
            results.put("stale")


def test_two_processes_race_on_one_revision(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-03-01") as memory:
        [a] = retain(memory, "2025-01-10", "W @m: Alpha plan.")
    context = multiprocessing.get_context("spawn")
    for round_ in range(3):
        barrier, results = context.Barrier(2), context.Queue()
        procs = [context.Process(target=_race, args=(str(workspace), a, barrier, results))
                 for _ in range(2)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(60)
        assert sorted(results.get(timeout=5) for _ in procs) == ["applied", "stale"]
        with Memory.open(workspace) as memory:
            assert memory.get(a, use=False).rev == round_ + 1


def test_text_edit_raises_the_revision_and_keeps_the_note(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-03-01") as memory:
        [a] = retain(memory, "2025-01-10", "W @m: Alpha plan.")
        memory.note(a, "keep me", rev=0)
        path = workspace / "memory" / "2025-01-10.md"
        path.write_text(path.read_text().replace("Alpha plan.", "Alpha plan, revised."))
        hit = memory.get(a, use=False)
        assert (hit.rev, hit.note, hit.fact.content) == (2, "keep me", "Alpha plan, revised.")
        assert [e.event for e in memory.history(a)] == ["retain", "note", "revise"]


def test_rebuild_from_nothing_restores_every_lifecycle_field(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-06-01") as memory:
        a, b = retain(memory, "2025-01-10", "W @p: Lives in Vienna.", "O(c=0.6) @p: Likes tea.")
        [c] = retain(memory, "2025-02-10", "W @p: Lives in Berlin.")
        memory.note(b, "ask again", rev=0)
        memory.use(b)
        memory.supersede(b, c, reason="testing pointers")
        memory.restore(b)
        path = workspace / "memory" / "2025-01-10.md"
        path.write_text(path.read_text().replace("Likes tea.", "Likes tea a lot."))
        memory.recall("tea")
        assert memory.get(a, use=False).superseded_by == c
    before = dump(workspace)
    assert any(row[0] == "life" for row in before)
    assert rebuilt_dump(workspace) == before


def test_torn_journal_line_is_skipped(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-03-01") as memory:
        [a] = retain(memory, "2025-01-10", "W @m: Alpha plan.")
        memory.note(a, "first", rev=0)
    journal = workspace / JOURNAL_NAME
    with journal.open("a") as handle:
        handle.write('{"seq": 2, "ts": "2025-03-01", "event": "note", "id": "')
    shutil.rmtree(workspace / ".memory")
    with Memory.open(workspace, now="2025-03-01") as memory:
        memory.index(full=True)
        assert memory.get(a, use=False).note == "first"
        assert any("incomplete last line" in n for n in memory.notices)
        assert memory.note(a, "second", rev=1) == 2
    lines = journal.read_text().splitlines()
    assert json.loads(lines[-1])["note"] == "second"
    assert rebuilt_dump(workspace) == dump(workspace)


def test_journal_chain_detects_tampering(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-03-01") as memory:
        [a] = retain(memory, "2025-01-10", "W @m: Alpha plan.")
        for rev in range(3):
            memory.note(a, f"note {rev}", rev=rev)
        assert memory.ledger.journal.verify() == (4, None)  # a retain and three notes
    journal = workspace / JOURNAL_NAME
    journal.write_text(journal.read_text().replace("note 1", "note X"))
    with Memory.open(workspace) as memory:
        checked, problem = memory.ledger.journal.verify()
        assert problem is not None and "event 3" in problem


def test_refilling_an_empty_index_makes_no_new_decisions(workspace: Path) -> None:
    """A first index judges hand-written notes in the order written (their journal holds
    no decision yet); refilling an empty index later replays those decisions, no more."""
    (workspace / "memory" / "2025-01-10.md").write_text(
        "## Retain\n- W @Peter: Lives in Vienna. ^vienna01\n")
    (workspace / "memory" / "2025-02-10.md").write_text(
        "## Retain\n- W @Peter: Lives in Berlin. ^berlin01\n")
    with Memory.open(workspace, now="2025-03-01") as memory:
        memory.recall("Peter")  # the first sync fills an empty index and judges
        assert memory.get("vienna01", use=False).status == "superseded"
    journal = (workspace / JOURNAL_NAME).read_text()
    assert journal.count('"event": "supersede"') == 1
    (workspace / ".memory" / "index.sqlite").unlink()
    with Memory.open(workspace, now="2025-03-01") as memory:
        memory.recall("Peter")  # refilled: the journal's decisions, nothing new
        assert memory.get("vienna01", use=False).status == "superseded"
    assert (workspace / JOURNAL_NAME).read_text() == journal


def test_editing_a_retained_fact_raises_its_revision(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-03-01") as memory:
        [a] = retain(memory, "2025-01-10", "W @m: Alpha plan.")
        assert memory.get(a, use=False).rev == 0
        path = workspace / "memory" / "2025-01-10.md"
        path.write_text(path.read_text().replace("Alpha plan.", "Alpha plan, final."))
        assert memory.get(a, use=False).rev == 1  # a reader at revision 0 is now stale
        with pytest.raises(StaleRevision):
            memory.note(a, "based on the old text", rev=0)
    assert rebuilt_dump(workspace) == dump(workspace)
