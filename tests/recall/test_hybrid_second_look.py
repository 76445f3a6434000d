"""Hybrid recall takes a second look at its few best results (`fusion.LOOK_TOP`) with the
embedder's own late interaction (`embed.rerank.LateInteraction`: each query token's best
match among the fact's tokens), when the embedder gives token vectors: a fact whose words
answer the question's words one by one rises above one that only shares its rarest word."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace as evolve
from datetime import date
from pathlib import Path

import pytest

from memfold.embed.base import FakeEmbedder
from memfold.index.base import Candidate
from memfold.memory import Memory
from memfold.recall import asked_slot, fusion, ranking, search
from memfold.recall.query import plan_query
from memfold.recall.ranking import Scored
from memfold.values import Fact

NOW = "2025-11-28T12:00:00+00:00"
# what the stand-in model's token vectors understand (its single vector does not)
CONCEPTS = {"skiff": "boat", "quorra": "boat", "stay": "moor", "stays": "moor",
            "moored": "moor", "kept": "moor"}


class TokenEmbedder(FakeEmbedder):
    """A stand-in model with token vectors: a text's single vector hashes its words
    (`FakeEmbedder`), its token vectors read each word as its concept (CONCEPTS), so "the
    skiff" and "the quorra" are one boat to them, "stay" and "moored" one mooring."""

    def __init__(self) -> None:
        super().__init__()
        self.token_calls = 0

    def token_vectors(self, texts: Sequence[str]) -> list[object]:
        self.token_calls += 1
        return [FakeEmbedder.embed(self, [CONCEPTS.get(w, w) for w in
                                          re.findall(r"\w+", t.casefold())] or ["."])
                for t in texts]


class PlainEmbedder(FakeEmbedder):
    """The same single vectors, and no token vectors: no second look."""


FACTS = (("2025-11-20", "W: the skiff leaks when it rains"),
         ("2025-11-22", "W: we stay in on Fridays"),
         ("2025-11-24", "W: the quorra stays moored where the river meets the harbour"))


def recalled(workspace: Path, embedder: FakeEmbedder, query: str) -> list[str]:
    mem = Memory.open(workspace, now=NOW)
    try:
        mem.set_embedder(embedder)
        for day, bullet in FACTS:  # a day each: no fact is another's neighbour in its file
            mem.retain(bullet, date=day)
        return [h.fact.content for h in mem.recall(query, mode="hybrid").hits]
    finally:
        mem.close()


QUERY = "Where does the skiff stay?"


@pytest.fixture(autouse=True)
def _lexical_side_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stand-in model's hashed vectors place "the skiff leaks" far from the question,
    and it holds only one of its asked words: `fusion.trust` would drop the lexical side and
    order these facts before any look.  The look is tested over the word-led order."""
    monkeypatch.setattr(fusion, "LEXICAL_DOUBT", 0.0)


def test_without_token_vectors_the_fused_order_stands(workspace: Path) -> None:
    """"skiff" is the rarest asked word: the fact holding it is the best fused match."""
    assert "skiff leaks" in recalled(workspace, PlainEmbedder(), QUERY)[0]


def test_a_second_look_puts_the_fact_that_answers_each_word_first(workspace: Path) -> None:
    model = TokenEmbedder()
    hits = recalled(workspace, model, QUERY)
    assert "quorra stays moored" in hits[0]
    assert model.token_calls  # the late interaction ran
    assert any("skiff leaks" in h for h in hits[1:])  # reordered, nothing dropped


def test_the_look_share_zero_is_the_fused_order(workspace: Path) -> None:
    with ranking.tuned({"LOOK_SHARE": 0.0}):
        assert "skiff leaks" in recalled(workspace, TokenEmbedder(), QUERY)[0]
    assert fusion.LOOK_TOP >= 2 and 0 < fusion.LOOK_SHARE < 1



def _scored(fact_id: str, content: str, day: date, score: float) -> Scored:
    fact = Fact(id=fact_id, kind="world", content=content, path=f"memory/{day}.md", line=3,
                end_line=3, day=day, entities=("Nadia",))
    return Scored(Candidate(fact, None, ("nadia",), "", rowid=day.toordinal(), life=None),
                  score=score, confidence=1.0, linked=("nadia",), opinion=False,
                  status="active", decay=1.0, tier=0)


class OlderFirst:
    """A stand-in late interaction that likes the older fact's words best."""

    def scores(self, query: str, texts: Sequence[str]) -> list[float]:
        return [1.0 if "Oslo" in t else 0.0 for t in texts]


def test_the_look_never_lifts_an_older_fact_over_a_newer_one_on_the_asked_slot() -> None:
    """Recall put the newer fact about Nadia first by time; on a question that asks a slot
    ("Where does Nadia live now?") the look, weighing words alone, does not lift the older
    one above it — on a question that asks none, it may."""
    ordered = [_scored("new", "Lives in Bergen now.", date(2025, 11, 20), 0.9),
               _scored("old", "Nadia lives where the fjord meets Oslo.", date(2025, 10, 1), 0.89)]
    with ranking.tuned({"LOOK_SHARE": 0.9}):
        asked = search._looked(ordered, "Where does Nadia live now?", OlderFirst(), True)
        free = search._looked(ordered, "Nadia and the fjord", OlderFirst(), False)
    assert [s.fact.id for s in asked] == ["new", "old"]
    assert [s.fact.id for s in free] == ["old", "new"]
    assert asked[0].score >= asked[1].score


def test_the_look_never_lifts_a_value_held_before_over_what_holds() -> None:
    """A newer fact that tells the old home as held before ("misses Oslo, where she lived
    for years"), which recall placed below the move (`Scored.replaced`), stays below it on a
    question that asks a slot, though the look likes its words best."""
    moved = _scored("moved", "Nadia moved to Bergen for a job.", date(2025, 6, 1), 0.9)
    missed = evolve(_scored("missed", "Nadia misses Oslo, where she lived for years.",
                            date(2025, 11, 1), 0.85), replaced=True)
    with ranking.tuned({"LOOK_SHARE": 0.9}):
        asked = search._looked([moved, missed], "Where does Nadia live?", OlderFirst(), True)
    assert [s.fact.id for s in asked] == ["moved", "missed"]


def test_a_value_held_before_is_marked_below_what_holds() -> None:
    """`current_first` marks the fact that tells the old home as held before, even when
    the move already ranks above it, so the look keeps it below."""
    moved = _scored("moved", "Nadia moved to Bergen for a job.", date(2025, 6, 1), 0.9)
    missed = _scored("missed", "Nadia misses Oslo, where she lived for years.",
                     date(2025, 11, 1), 0.85)
    slot = asked_slot.slot_of(plan_query("Where does Nadia live?", today=date(2025, 12, 1)),
                              ["Nadia"])
    shown = asked_slot.current_first([moved, missed], slot, 10, date(2025, 12, 1))
    assert {s.fact.id: s.replaced for s in shown} == {"moved": False, "missed": True}


class SixthFirst:
    """A stand-in late interaction that reads the sixth result as the answer."""

    def scores(self, query: str, texts: Sequence[str]) -> list[float]:
        return [1.0 if "Bergen" in t else 0.0 for t in texts]


def test_the_look_weighs_the_ten_best_so_a_sixth_result_can_come_first() -> None:
    """Five results that share the question's one asked word score a little above the fact
    the model reads as the answer; the look weighs the ten best (`fusion.LOOK_TOP`), not
    only the five, so the answer placed sixth comes into the five — here first."""
    word = [_scored(f"w{n}", f"Nadia's word number {n}.", date(2025, 11, 10 + n), 0.9 - n / 100)
            for n in range(5)]
    answer = _scored("answer", "Nadia lives in Bergen.", date(2025, 11, 1), 0.84)
    looked = search._looked([*word, answer], "Where does Nadia live?", SixthFirst())
    assert fusion.LOOK_TOP >= 6
    assert looked[0].fact.id == "answer"
    assert [s.score for s in looked] == sorted((s.score for s in looked), reverse=True)
