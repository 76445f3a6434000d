"""Hybrid's second look gives the embedder's lead its say (`fusion.LOOK_LEAD`,
`semantic.Look`): a fact among the few best that the model places far nearer the question
than the first comes first, though a word of the question lifted the other."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from memfold.embed.base import FakeEmbedder
from memfold.memory import Memory
from memfold.recall import fusion, ranking

NOW = "2025-03-01T09:00:00+00:00"
# what the stand-in model's single vectors understand: to stitch or glue a cut is what a vet
# does to mend it
MEANING = {"stitched": "vet mended wound", "glued": "mended wound", "up": ""}
FACTS = (("2025-02-01", "W @Fern: Fern is our border collie and she is six."),
         ("2025-02-10", "B @Fern: Fern cut her paw on a mussel shell at the beach."),
         ("2025-02-11", "B @Fern: The vet glued the cut and gave Fern antibiotics."))
QUESTION = "Who stitched up Fern's paw?"
# the question asks who, and a fact that names nobody weighs NOBODY_SHARE (`answer_kind`):
# that alone puts the vet first, so the cases without the lead turn it off to see the lead's
# own say
NO_WHO = {"NOBODY_SHARE": 1.0}


class MeaningEmbedder(FakeEmbedder):
    """Single vectors that read each word as its meaning (MEANING); token vectors that
    read the words as written, so the late interaction alone does not know them."""

    def embed(self, texts: Sequence[str]) -> object:
        return FakeEmbedder.embed(self, [" ".join(MEANING.get(w, w) for w in
                                                  re.findall(r"\w+", t.casefold()))
                                         for t in texts])

    def token_vectors(self, texts: Sequence[str]) -> list[object]:
        return [FakeEmbedder.embed(self, re.findall(r"\w+", t.casefold()) or ["."])
                for t in texts]


def recalled(workspace: Path, question: str = QUESTION) -> list[str]:
    mem = Memory.open(workspace, now=NOW)
    try:
        mem.set_embedder(MeaningEmbedder())
        for day, bullet in FACTS:
            mem.retain(bullet, date=day)
        return [h.fact.content for h in mem.recall(question, mode="hybrid").hits]
    finally:
        mem.close()


def test_the_fact_the_model_places_far_nearer_comes_first(workspace: Path) -> None:
    hits = recalled(workspace)
    assert "glued the cut" in hits[0]
    assert any("paw on a mussel shell" in h for h in hits[1:])  # reordered, not dropped


def test_without_the_lead_the_word_match_stays_first(workspace: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fusion, "LEAD_WEIGHT", 0.0)
    with ranking.tuned(NO_WHO):
        assert "paw on a mussel shell" in recalled(workspace)[0]


def test_a_small_lead_leaves_the_order(workspace: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Below LOOK_LEAD the model's nearness is no lead: the fused order and the late
    interaction decide, as before."""
    monkeypatch.setattr(fusion, "LOOK_LEAD", 0.9)
    with ranking.tuned(NO_WHO):
        assert "paw on a mussel shell" in recalled(workspace)[0]


def test_lead_is_the_nearest_against_the_best_placed_other() -> None:
    assert fusion.lead([0.4, 0.45, 0.6, None], 0.125) == [False, False, True, False]
    assert fusion.lead([0.6, 0.45, 0.5], 0.125) == [True, False, False]  # the first, kept
    assert fusion.lead([0.6, 0.5, 0.2], 0.125) == [False, False, False]  # no lead
    assert fusion.lead([None, 0.9], 0.125) == [False, False]  # the first has no vector
    assert fusion.lead([0.9], 0.125) == [False]
    assert fusion.lead([], 0.125) == []
