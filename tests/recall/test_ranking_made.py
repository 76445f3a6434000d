"""`ranking.made_scored` makes the same `Scored` as its dataclass constructor: every field,
those it leaves at their defaults too, and what recall sorts by."""

from __future__ import annotations

import dataclasses

from memfold.index.base import Candidate
from memfold.recall import ranking
from memfold.recall.ranking import Scored
from memfold.values import Fact


def _candidate() -> Candidate:
    fact = Fact(id="a1", kind="world", content="Lives in Warsaw", path="memory/2025-01-02.md",
                line=3, end_line=3, entities=("Marcus",), params={}, confidence=None,
                importance=None, valid=None, day=None)
    return Candidate(fact=fact, bm25=-1.5, links=("marcus",), sha256="0" * 64, rowid=7)


def test_made_scored_is_the_dataclass_it_stands_for() -> None:
    c = _candidate()
    args = (c, 0.42, 0.9, ("marcus",), False, "active", 1.0, 0, "b2", "in range")
    made = ranking.made_scored(*args, hidden=False, own=0.4, lifter="b2")
    built = Scored(*args, hidden=False, own=0.4, lifter="b2")
    assert made == built
    assert vars(made) == {f.name: getattr(built, f.name) for f in dataclasses.fields(Scored)}
    assert ranking.order(made) == ranking.order(built)
    assert dataclasses.replace(made, score=1.0).score == 1.0
