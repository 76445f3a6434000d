"""Hybrid fusion can weigh the whole lexical side by the question's lexical evidence
(`fusion.evidence`, LEXICAL_EVIDENCE): when the words a question turns on are in no fact,
the best BM25 is a match on what is left of it, and at a share above 0 it no longer outranks
the fact the embedder places first.  The default share is 0 (measured and not kept:
docs/semantic.md, "A second look"); `memfold bench locomo --tune LEXICAL_EVIDENCE=...`
weighs it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from concept_support import (
    SPLICE_CONCEPTS,
    SPLICE_FACTS,
    SPLICE_NOW,
    concept_memory,
    first,
)
from memfold.memory import Memory
from memfold.recall import fusion, ranking

NOW = SPLICE_NOW
CONCEPTS = {**SPLICE_CONCEPTS, "office": "work"}
FACTS = SPLICE_FACTS


@pytest.fixture
def memory(workspace: Path) -> Iterator[Memory]:
    with concept_memory(workspace, CONCEPTS, FACTS, NOW) as mem:
        yield mem


def test_a_match_on_what_is_left_of_the_question_gives_way_to_the_embedders_answer(
        memory: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    """"splice" — the word the question turns on — is in no fact; "sommer" is in one, which
    the model puts near the question only through the season.  The best BM25 used to score
    it 1.0, and its own coverage lowered it only as far as the model let it: it came first.
    Now the whole lexical side weighs as much as the best word match can tell, and the fact
    the model places first comes first, as in semantic mode."""
    query = "Who did the splice in the sommer?"
    # the question's best word match weighed alone: `fusion.trust` doubts it too, by default
    # (tests/recall/test_hybrid_trust.py)
    monkeypatch.setattr(fusion, "LEXICAL_DOUBT", 0.0)
    assert "wedded" in first(memory, query, "semantic")
    assert "Gwen" in first(memory, query, "hybrid")  # the default: the lexical side whole
    with ranking.tuned({"LEXICAL_EVIDENCE": 0.5}):
        assert "wedded" in first(memory, query, "hybrid")
        # a question whose asked words a fact holds keeps its lexical side whole
        assert "Gwen" in first(memory, "Who retires from the desk in the sommer?", "hybrid")


def test_evidence_is_the_best_coverage_of_a_word_match() -> None:
    assert fusion.evidence(1.0, 0.5) == 1.0  # a fact holds every asked word: all of it
    assert fusion.evidence(0.0, 0.5) == pytest.approx(0.5)
    assert fusion.evidence(0.5, 0.5) == pytest.approx(0.75)
    assert fusion.evidence(2.0, 0.5) == 1.0  # clamped
    assert fusion.evidence(0.0) == 1.0 - fusion.LEXICAL_EVIDENCE
