"""The judge's work per retain when many older facts share an entity: each fact is read
once however many pairs it is weighed in, and a retain makes journal events only for what
it journals (issue 29's cost: a day of 2,000 facts about one entity)."""

from __future__ import annotations

from pathlib import Path

import pytest
from judge_pairs import fact

from memfold.journal.events import Conflict
from memfold.lifecycle import ledger
from memfold.lifecycle.judge import RuleJudge, caches, readers
from memfold.lifecycle.judge.lexicon import Lexicon
from memfold.lifecycle.ledger import JOURNALED_CONFLICTS
from memfold.memory import Memory
from memfold.values import Fact

OLDER = 60


def _bullet(n: int) -> str:
    return f"W @sam: Sam garden shed note {n:04d} ok café naïve"


def test_each_fact_is_read_once_however_many_pairs_it_is_weighed_in(
        monkeypatch: pytest.MonkeyPatch) -> None:
    caches.forget_readings()
    asked: list[str] = []
    told = readers.lexicon_of

    def counting(text: str) -> Lexicon | None:
        asked.append(text)
        return told(text)

    monkeypatch.setattr(readers, "lexicon_of", counting)
    older = [fact(_bullet(n), n + 1) for n in range(OLDER)]
    judge = RuleJudge()
    first = judge.weigh(fact(_bullet(OLDER), OLDER + 1), older)
    second = judge.weigh(fact(_bullet(OLDER + 1), OLDER + 2), older)  # the next retain
    assert len(first) == len(second) == OLDER  # the premise: every pair is weighed to a word
    assert all(v.reason.startswith("same topic: ") for v in first + second)
    assert len(asked) == len(set(asked)) == OLDER + 2  # each fact read once, not once a pair


def test_a_retain_makes_events_only_for_the_conflicts_it_journals(
        workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []
    record = ledger.conflict_record

    def counting(old: Fact, new: Fact, *, reason: str, judge: str) -> Conflict:
        made.append(old.id)
        return record(old, new, reason=reason, judge=judge)

    with Memory.open(workspace, watch=False) as memory:
        for n in range(12):
            memory.retain(_bullet(n), date="2025-11-27")
        monkeypatch.setattr(ledger, "conflict_record", counting)
        result = memory.retain(_bullet(12), date="2025-11-27")
        conflicts = [j for j in result.judged if not j.superseded]
        assert len(conflicts) == 12  # the retain still reports its word on every older fact
        assert len(made) == JOURNALED_CONFLICTS  # but journals, and makes, only the first
        journaled = [e for j in conflicts for e in memory.history(j.id)
                     if e.event == "conflict" and e.data.get("by") == result.facts[0].id]
        assert len(journaled) == JOURNALED_CONFLICTS
