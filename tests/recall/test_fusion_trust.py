"""Hybrid fusion weighs its lexical side by how much of the question that side covers
(`fusion.lexical_weight`, `semantic.lexical_confidence`, `ranking.LEXICAL_TRUST`).

A question worded unlike the fact that answers it ("Which Japanese city are we visiting?"
— "Reserved the Hotel Mizuho") meets, lexically, only a fact that shares one of its
common words ("city").  That lexical match is the best one, so its normalised BM25 is 1.0
whatever it covers; weighed at a fixed 0.6 it outranked the fact the model places far above
everything else.  Weighed by its coverage of the asked words, it no longer does; a fact that
holds every asked word keeps the lexical side's full weight."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from datetime import date
from pathlib import Path

import numpy as np
import pytest

from memfold.embed.base import FakeEmbedder
from memfold.index.base import Filters, Terms
from memfold.memory import Memory
from memfold.recall import fusion, ranking
from memfold.recall.query import plan_query
from memfold.recall.semantic import lexical_confidence

NOW = "2025-12-20T12:00:00+00:00"
ANSWER = "Reserved the Hotel Mizuho for 28 March to 11 April 2026."
ONE_WORD = "If we only have time for one city, Jules would rather see Kyoto than Tokyo."
# how like the question the model finds each, and the direction of the rest of its vector
# (each its own, so that the two are unlike each other; every other text is unlike all)
LIKENESS = {ANSWER: (0.8, 1), ONE_WORD: (0.3, 2)}


class Designed(FakeEmbedder):
    """The question points one way; the answer and the one-word match lie at their
    LIKENESS from it; every other text points a way of its own (by its hash)."""

    def _vector(self, text: str, query: bool) -> np.ndarray:
        dims = self.identity.dims
        v = np.zeros(dims, dtype=np.float32)
        like = next((cos for known, cos in LIKENESS.items() if known in text), None)
        if query:
            v[0] = 1.0
        elif like is not None:
            cos, side = like
            v[0], v[side] = cos, math.sqrt(1 - cos * cos)
        else:
            v[3 + int(hashlib.sha256(text.encode()).hexdigest(), 16) % (dims - 3)] = 1.0
        return v

    def embed(self, texts: Sequence[str]) -> object:  # type: ignore[override]
        return np.stack([self._vector(t, False) for t in texts]).reshape(len(texts), -1)

    def embed_query(self, text: str) -> object:  # type: ignore[override]
        return self._vector(text, True)


@pytest.fixture
def memory(workspace: Path) -> Memory:
    mem = Memory.open(workspace, now=NOW)
    mem.set_embedder(Designed())
    # a day each, so that no fact lends another the context of a neighbour
    for day, text in enumerate([f"B: {ANSWER}", f"O: {ONE_WORD}",
                                "W: The Niro had its first service.",
                                "B: Took Milo to the fireworks on the Downs.",
                                "W: The allotment is a short drive from the house."], 1):
        mem.retain([text], date=f"2025-12-{day:02d}")
    yield mem  # type: ignore[misc]
    mem.close()


def first(memory: Memory, query: str, mode: str = "hybrid") -> str:
    hits = memory.recall(query, mode=mode, k=5).hits
    assert hits
    return hits[0].fact.content


def test_a_weak_lexical_match_does_not_outrank_what_the_model_finds(memory: Memory) -> None:
    question = "Which Japanese city are we visiting?"
    assert first(memory, question, "semantic") == ANSWER
    assert first(memory, question) == ANSWER
    with ranking.tuned({"LEXICAL_TRUST": 0.0}):  # a fixed lexical weight, as before
        assert first(memory, question) == ONE_WORD


def test_a_lexical_match_of_every_asked_word_keeps_its_weight(memory: Memory) -> None:
    """Kyoto and Tokyo are both in the fact: the lexical side covers the question, weighs
    in full, and holds its match first although the model prefers the flights."""
    assert first(memory, "Kyoto or Tokyo?") == ONE_WORD


def test_the_lexical_weight_follows_coverage() -> None:
    assert fusion.lexical_weight(1.0) == pytest.approx(fusion.W_LEXICAL)
    trust = ranking.LEXICAL_TRUST
    assert 0 < trust <= 1
    assert fusion.lexical_weight(0.0) == pytest.approx(fusion.W_LEXICAL * (1 - trust))
    assert fusion.lexical_weight(0.5) < fusion.lexical_weight(0.9) < fusion.W_LEXICAL
    with ranking.tuned({"LEXICAL_TRUST": 0.0}):
        assert fusion.lexical_weight(0.0) == pytest.approx(fusion.W_LEXICAL)
    # the weights of the two sides still sum to 1: the fused match stays in 0..1
    assert fusion.fuse(fusion.HYBRID, 1.0, 1.0, lexical_weight=0.3) == pytest.approx(1.0)


def test_a_lexical_side_that_matched_no_word_leaves_nothing_to_doubt(tmp_path: Path) -> None:
    """Every candidate came by the name the question gives (or by the model): the lexical
    parts are all 0, and weight moved to the model would only let its small differences
    outweigh the rest of ranking (the newer of two facts about what Pippin eats).  A match
    by a word that covers none of the asked ones is still doubted."""
    Memory.init(tmp_path / "ws")
    with Memory.open(tmp_path / "ws", now=NOW) as memory:
        memory.retain(["W @Pippin: Pippin the dog eats Acana kibble."], date="2023-04-04")
        memory.retain(["W @Pippin: The vet put Pippin on a Hill's sensitive-stomach diet."],
                      date="2024-12-02")
        backend = memory.index_backend
        plan = plan_query("What food is Pippin on these days?", today=date(2025, 12, 20))
        named = frozenset({"pippin"})
        linked = backend.linked(["pippin"], Filters(), 10)
        assert len(linked) == 2 and all(c.bm25 is None for c in linked)
        by_name = {(c.fact.path, c.fact.line): c for c in linked}
        assert lexical_confidence(backend, plan, named, by_name) == 1.0
        worded = backend.lexical(Terms(words=("kibble",)), Filters(), 10)
        assert [c.bm25 is not None for c in worded] == [True]
        by_word = {**by_name, **{(c.fact.path, c.fact.line): c for c in worded}}
        assert lexical_confidence(backend, plan, named, by_word) == 0.0
