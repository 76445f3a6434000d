"""Hybrid fusion weighs the whole lexical side by what its best word match can vouch for
(`fusion.trust`, LEXICAL_DOUBT): the fact with the highest BM25 scores 1.0 as lexical however
little of the question it holds, so when it holds few of the question's asked words and the
embedder places it with the unrelated, the model orders the candidates instead."""

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
from memfold.recall import fusion

NOW, CONCEPTS, FACTS = SPLICE_NOW, SPLICE_CONCEPTS, SPLICE_FACTS


@pytest.fixture
def memory(workspace: Path) -> Iterator[Memory]:
    with concept_memory(workspace, CONCEPTS, FACTS, NOW) as mem:
        yield mem


def test_a_best_word_match_the_model_rejects_gives_way_to_the_model(
        memory: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    """"splice", the word the question turns on, is in no fact; the best BM25 is Gwen's
    fact, on "sommer", which the model places far from a wedding.  Its lexical 1.0 used to
    put it first; now the lexical side rests on it only as far as it holds the asked words
    or the model agrees, and the wedding the model places first comes first, as in
    semantic mode."""
    query = "Who did the splice in the sommer?"
    assert "wedded" in first(memory, query, "semantic")
    assert "wedded" in first(memory, query, "hybrid")
    monkeypatch.setattr(fusion, "LEXICAL_DOUBT", 0.0)  # the lexical side whole, as before
    assert "Gwen" in first(memory, query, "hybrid")


def test_a_best_word_match_holding_the_question_keeps_the_lexical_side(
        memory: Memory) -> None:
    assert "Gwen" in first(memory, "Who retires from the desk in the sommer?", "hybrid")
    assert "wedded" in first(memory, "Who did the splice at the harbour?", "hybrid")


def test_trust_doubts_only_a_match_that_neither_holds_the_question_nor_is_near() -> None:
    assert fusion.trust(0.0, 1.0, 1.0) == 1.0  # holds every asked word: the model may disagree
    assert fusion.trust(1.0, 0.0, 1.0) == 1.0  # the model places it as near as any
    assert fusion.trust(0.0, 0.0, 1.0) == 0.0
    assert fusion.trust(0.0, 0.0, 0.5) == pytest.approx(0.5)
    assert fusion.trust(0.5, 0.5, 1.0) == pytest.approx(0.75)
    assert fusion.trust(-1.0, 2.0, 1.0) == 1.0  # clamped
    assert fusion.trust(0.0, 0.0) == 1.0 - fusion.LEXICAL_DOUBT
