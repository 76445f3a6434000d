"""Hybrid recall keeps a fact's word match when its vector finds it too: the vector search
hands back facts the word search already holds, and the first-found copy (with its BM25)
is the one that is scored."""

from __future__ import annotations

from pathlib import Path

from memfold.embed.base import FakeEmbedder
from memfold.memory import Memory

NOW = "2025-11-28T12:00:00+00:00"


def test_a_fact_found_by_words_and_by_vector_keeps_its_word_match(workspace: Path) -> None:
    with Memory.open(workspace, now=NOW) as memory:
        memory.set_embedder(FakeEmbedder())
        memory.retain(["W: The kitchen walls are sage green.", "W: Tax forms are due in April.",
                       "B: Painted the garden fence white."], date="2025-11-27")
        top = memory.recall("sage green kitchen walls", mode="hybrid").hits[0]
    assert "sage green" in top.fact.content
    # 0.6 of the fused relevance is the word match (1.0 for the best), times confidence 0.9
    assert top.score >= 0.6 * 0.9
