"""memfold.views through `Memory.views`: the timeline, opinion histories, lifecycle lists,
supersede chains, entity counts, source files and the journal check the web view draws."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from memfold import BadInput, Memory
from web_corpus import NOW, Planted, plant


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Planted]:
    root = tmp_path_factory.mktemp("views") / "ws"
    Memory.init(root)
    return root, plant(root)


@pytest.fixture
def memory(planted: tuple[Path, Planted]) -> Memory:
    with Memory.open(planted[0], now=NOW) as opened:
        yield opened


def test_timeline_counts_typed_facts_per_day_by_kind(memory: Memory) -> None:
    timeline = memory.views.timeline(since="2025-11-01", until="2025-11-20")
    assert [(d.day.isoformat(), d.counts) for d in timeline.days] == [
        ("2025-11-01", {"opinion": 1}), ("2025-11-05", {"experience": 1}),
        ("2025-11-10", {"experience": 1}), ("2025-11-15", {"experience": 1}),
        ("2025-11-20", {"world": 2, "opinion": 1})]
    last = timeline.days[-1]
    assert last.total == 3
    assert [h.fact.line for h in last.facts] == [4, 5, 6]  # the bullets in file order
    assert [h.status for h in last.facts] == ["superseded", "active", "expired"]
    everything = memory.views.timeline(since="1y")
    assert sum(d.total for d in everything.days) == 12
    with pytest.raises(BadInput, match="is after"):
        memory.views.timeline(since="2025-11-20", until="2025-11-01")


def test_an_opinion_history_has_one_step_per_confidence_event(memory: Memory,
                                                              planted: tuple[Path, Planted]
                                                              ) -> None:
    ids = planted[1]
    [walks] = [o for o in memory.views.opinions(entity="@peter")
               if o.opinion.fact.id == ids.walks]
    events = [e for e in memory.history(ids.walks) if e.event == "confidence"]
    assert len(walks.steps) == len(events) == 3
    assert walks.written == 0.6
    assert [(s.before, s.after) for s in walks.steps] == [(0.6, 0.64), (0.64, 0.544),
                                                          (0.544, 0.462)]
    assert [h.fact.id for h in walks.steps[0].support] == [ids.walk_support]
    assert [h.fact.id for h in walks.steps[1].contradict] == [ids.walk_contradict]
    assert walks.steps[0].on == "2025-11-05"
    anna = memory.views.opinions(entity="Anna")
    assert sorted(o.opinion.fact.id for o in anna) == sorted([ids.tea, ids.coffee])
    assert all(o.steps == () for o in anna)


def test_lifecycle_lists_each_status_and_what_fades_soon(memory: Memory,
                                                         planted: tuple[Path, Planted]) -> None:
    ids = planted[1]
    lists = memory.views.lifecycle()
    assert [h.fact.id for h in lists.superseded] == [ids.vienna]
    assert lists.superseded[0].superseded_by == ids.berlin
    assert [h.fact.id for h in lists.expired] == [ids.lisbon]
    assert [h.fact.id for h in lists.archived] == [ids.archived]
    assert [(f.hit.fact.id, f.on, f.becomes) for f in lists.fading] == [
        (ids.fading, date(2025, 12, 2), "archived")]
    assert memory.views.lifecycle(horizon=1).fading == ()  # Dec 2 is two days away
    with pytest.raises(BadInput):
        memory.views.lifecycle(horizon=-1)


def test_chains_give_each_edge_its_reason_and_judge(memory: Memory,
                                                    planted: tuple[Path, Planted]) -> None:
    ids = planted[1]
    chains = memory.views.chains([ids.berlin])
    assert [(e.old, e.new, e.event, e.judge) for e in chains.edges] == [
        (ids.vienna, ids.berlin, "supersede", "rules")]
    assert "Vienna" in chains.edges[0].reason and chains.edges[0].on == "2025-11-25"
    assert {h.fact.id for h in chains.facts} == {ids.vienna, ids.berlin}
    assert memory.views.chains([ids.tea]).edges == ()


def test_a_hand_supersede_is_an_edge_by_the_manual_judge(tmp_path: Path) -> None:
    Memory.init(tmp_path)
    with Memory.open(tmp_path, now=NOW) as memory:
        old, new = (f.id for f in memory.retain(["W @Zoe: Has a red bike.",
                                                 "B @Zoe: Painted something."]).facts)
        memory.supersede(old, new, reason="she repainted it")
        [edge] = memory.views.chains([old]).edges
        assert (edge.old, edge.new, edge.reason, edge.judge) == (old, new, "she repainted it",
                                                                 "manual")
        memory.restore(old)
        assert memory.views.chains([old]).edges == ()


def test_entities_are_counted_by_mentions(memory: Memory) -> None:
    assert memory.views.entities() == [("Peter", 7), ("Anna", 2), ("warelay", 2),
                                       ("Mallory", 1)]


def test_source_reads_only_files_memfold_reads_and_redacts_secrets(tmp_path: Path) -> None:
    Memory.init(tmp_path)
    key = "-----BEGIN PRIVATE KEY-----\n" + "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n" * 3 \
        + "-----END PRIVATE KEY-----\n"
    (tmp_path / "memory").joinpath("2025-11-01.md").write_text(
        f"# Notes\n\n{key}\nafter the key\n")
    with Memory.open(tmp_path, now=NOW) as memory:
        source = memory.views.source("memory/2025-11-01.md")
        assert source.lines[0] == "# Notes"
        assert source.lines[2].startswith("[REDACTED:")
        assert source.lines[8] == "after the key"  # line numbers kept
        assert "MIIE" not in "\n".join(source.lines)
        for bad in ("../etc/passwd", "journal.jsonl", ".memory/index.sqlite",
                    "memory/../journal.jsonl", "memory/2025-01-01.md", ""):
            with pytest.raises(BadInput):
                memory.views.source(bad)


def test_journal_check_names_a_broken_chain(tmp_path: Path) -> None:
    Memory.init(tmp_path)
    with Memory.open(tmp_path, now=NOW) as memory:
        [fact] = memory.retain(["W: The sky is blue."]).facts
        memory.note(fact.id, "checked", rev=0)
        check = memory.views.journal_check()
        assert (check.events, check.problem) == (2, None)
        journal = tmp_path / "journal.jsonl"
        journal.write_text(journal.read_text().replace("checked", "forged"))
        assert "breaks the chain" in (memory.views.journal_check().problem or "")
