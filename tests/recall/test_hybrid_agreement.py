"""Hybrid fusion counts a lexical match by the question's words it holds (`fusion.agreed`):
a match on frame or common words alone counts only as far as the embedder agrees, so it no
longer outranks the fact the embedder places first; a fact holding what the question asks
keeps its lexical weight whatever its vector."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from concept_support import concept_memory, first
from memfold.memory import Memory
from memfold.recall import fusion

NOW = "2025-11-28T12:00:00+00:00"
# what the stand-in model understands: invented words, so no lexicon or stem relates them
CONCEPTS = {"zorblat": "pet", "glimmick": "pet", "skiff": "boat", "quorra": "boat"}
FACTS = (("2025-11-20", "W: the name of the skiff was painted on her bow"),
         ("2025-11-24", "W: our glimmick sleeps in the sun all afternoon"),
         ("2025-11-27", "W: the quorra leaks when it rains"))


@pytest.fixture
def memory(workspace: Path) -> Iterator[Memory]:
    with concept_memory(workspace, CONCEPTS, FACTS, NOW) as mem:
        yield mem


def test_a_match_on_frame_words_alone_gives_way_to_what_the_embedder_finds(
        memory: Memory) -> None:
    """"name" only frames the answer (`weak.FRAME_WORDS`): the skiff fact holds it and no
    word the question asks, and the model puts it far from the question.  With a fixed
    0.6 / 0.4 weighting the best BM25 scored 0.6 before any vector had a say; now the fact
    the model places first, which holds no word of the question, comes first."""
    query = "What was the name of the zorblat?"
    assert "glimmick" in first(memory, query, "semantic")
    assert "glimmick" in first(memory, query, "hybrid")
    # a fact that holds the asked word keeps its lexical weight though the model puts it
    # no nearer than the skiff: "quorra" is asked, and held
    assert "quorra" in first(memory, "When does the quorra leak?", "hybrid")


def test_agreement_counts_the_words_held_in_full_and_the_rest_by_the_vector() -> None:
    assert fusion.agreed(1.0, 0.0) == 1.0  # every asked word held: all of the match
    assert fusion.agreed(0.0, 0.3) == pytest.approx(0.3)  # none: as far as the model agrees
    assert fusion.agreed(0.5, 0.2) == pytest.approx(0.6)
    assert fusion.agreed(0.0, None) == 1.0  # no vector yet: the model cannot say
    # the agreed share scales the lexical part only
    assert fusion.fuse("hybrid", 1.0, 0.0, agreement=0.0) == 0.0
    assert fusion.fuse("hybrid", 1.0, 1.0, agreement=1.0) == pytest.approx(
        fusion.W_LEXICAL + fusion.W_SEMANTIC)
    assert fusion.fuse("lexical", 0.7, 0.9, agreement=0.0) == 0.7
