"""Hybrid fusion counts a lexical match by the question's words it holds (`fusion.agreed`):
a match on frame or common words alone counts only as far as the embedder agrees, so it no
longer outranks the fact the embedder places first; a fact holding what the question asks
keeps its lexical weight whatever its vector."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from memfold.embed.base import FakeEmbedder
from memfold.memory import Memory
from memfold.recall import fusion

NOW = "2025-11-28T12:00:00+00:00"
# what the stand-in model understands: invented words, so no lexicon or stem relates them
CONCEPTS = {"zorblat": "pet", "glimmick": "pet", "skiff": "boat", "quorra": "boat"}


class ConceptEmbedder(FakeEmbedder):
    """A stand-in model that reads meaning, not words: a text's vector is its concepts
    (CONCEPTS, each twice) plus one token every text shares (cosine 0.2 between two
    concepts: the floor of unrelated text).  "the name of the zorblat" and "our
    glimmick" are one thing to it; "the name of the skiff" is another, whatever words
    they share."""

    def embed(self, texts: Sequence[str]) -> object:  # type: ignore[override]
        return super().embed([" ".join(["text", *(f"{CONCEPTS[w]} {CONCEPTS[w]}" for w in
                                                  re.findall(r"\w+", t.casefold())
                                                  if w in CONCEPTS)]) for t in texts])


@pytest.fixture
def memory(workspace: Path) -> Memory:
    mem = Memory.open(workspace, now=NOW)
    mem.set_embedder(ConceptEmbedder())
    # a day each: no fact is another's neighbour in its file (`ranking` context)
    for day, bullet in (("2025-11-20", "W: the name of the skiff was painted on her bow"),
                        ("2025-11-24", "W: our glimmick sleeps in the sun all afternoon"),
                        ("2025-11-27", "W: the quorra leaks when it rains")):
        mem.retain(bullet, date=day)
    yield mem  # type: ignore[misc]
    mem.close()


def first(memory: Memory, query: str, mode: str) -> str:
    hits = memory.recall(query, mode=mode).hits
    assert hits
    return hits[0].fact.content


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
