"""Vector feedback in hybrid recall moves the question's vector toward its three best
candidates' (`recall.semantic.FEEDBACK`), not two: a fact that shares meaning with the third
best match, and no word with the question, comes in.  Three was chosen leave-one-file-out over
the six personal years among the counts that keep LoCoMo dev hybrid (every fold chose it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from concept_support import concept_memory
from memfold.memory import Memory
from memfold.recall import semantic

NOW = "2025-11-28T12:00:00+00:00"
# what the stand-in model understands: each place word is a concept of its own (invented
# words, so no lexicon or stem relates them; names chosen so no two share a hash bucket)
CONCEPTS = {"vorn": "moss", "plim": "reed", "skarv": "fern", "tully": "flint", "brant": "ember"}
# three sightings, the longest (the weakest BM25) third; the last fact holds no word of the
# question and is far from it (cosine 0.28, below the 0.3 a fact found by its vector needs),
# but shares the skarv with the third sighting
FACTS = (("2025-11-20", "B: saw a heron by the vorn"),
         ("2025-11-21", "B: saw a heron by the plim at dusk"),
         ("2025-11-22", "B: saw a heron by the skarv at dusk with the whole family"),
         ("2025-11-23", "W: the skarv and the tully and the brant"))
QUESTION = "Where did I see a heron?"
BESIDE = "the skarv and the tully and the brant"


@pytest.fixture
def memory(workspace: Path) -> Iterator[Memory]:
    with concept_memory(workspace, CONCEPTS, FACTS, NOW) as mem:
        yield mem


def contents(memory: Memory, mode: str) -> list[str]:
    return [h.fact.content for h in memory.recall(QUESTION, mode=mode).hits]


def test_feedback_follows_the_three_best_candidates(memory: Memory) -> None:
    assert semantic.FEEDBACK == 3
    found = contents(memory, "hybrid")
    assert [c for c in found if "heron" in c] == found[:3]  # the sightings first
    assert BESIDE in found  # near the third sighting, brought by the moved question
    assert BESIDE not in contents(memory, "semantic")  # no feedback there: too far


def test_two_candidates_would_leave_it_out(memory: Memory,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The moved question is the mean of the best candidates' vectors: toward the first two
    sightings only, it is no nearer the skarv, and the fact stays out."""
    monkeypatch.setattr(semantic, "FEEDBACK", 2)
    found = contents(memory, "hybrid")
    assert len([c for c in found if "heron" in c]) == 3
    assert BESIDE not in found
