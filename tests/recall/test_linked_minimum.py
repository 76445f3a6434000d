"""A fact the vector search finds that is linked to an entity the query names joins the
candidates from the model's floor, not only from its minimum (`ranking.LINKED_MINIMUM`,
`embed.semantic.admits`).

A reply that answers in other words ("off to go swimming with the kids") is only faintly
like the question ("What does Melanie do for fun?"); its link to Melanie vouches for what
the vector alone cannot.  A query that names nobody still finds nothing below the minimum."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from memfold.embed.base import FakeEmbedder
from memfold.memory import Memory
from memfold.recall import fusion, ranking
from memfold.recall.semantic import admits

NOW = "2025-11-28T12:00:00+00:00"
FAINT = 0.25  # between the fake model's floor (0.2) and its minimum (0.3)


class Designed(FakeEmbedder):
    """Queries about fun point one way; a text about swimming is FAINT like them; every
    other text is unlike both (a direction of its own, by its hash)."""

    def _vector(self, text: str, query: bool) -> np.ndarray:
        dims = self.identity.dims
        v = np.zeros(dims, dtype=np.float32)
        if query and "fun" in text:
            v[0] = 1.0
        elif "swimming" in text:
            v[0], v[1] = FAINT, math.sqrt(1 - FAINT * FAINT)
        else:
            v[2 + int(hashlib.sha256(text.encode()).hexdigest(), 16) % (dims - 2)] = 1.0
        return v

    def embed(self, texts: Sequence[str]) -> object:  # type: ignore[override]
        return np.stack([self._vector(t, False) for t in texts]).reshape(len(texts), -1)

    def embed_query(self, text: str) -> object:  # type: ignore[override]
        return self._vector(text, True)


@pytest.fixture
def memory(workspace: Path) -> Memory:
    mem = Memory.open(workspace, now=NOW)
    mem.set_embedder(Designed())
    # the answer is older: the entity's newest facts, which join any query naming her, are
    # the 60 notes below, so only the vector search can bring it in
    mem.retain(["B @Melanie: Yep, off to go swimming with the kids. Talk soon!",
                "W: the swimming pool on the corner opens in June"], date="2025-11-20")
    mem.retain([f"B @Melanie: note {n} about the garden shed" for n in range(60)],
               date="2025-11-27")
    yield mem  # type: ignore[misc]
    mem.close()


def contents(memory: Memory, query: str, mode: str, k: int = 1) -> list[str]:
    return [h.fact.content for h in memory.recall(query, mode=mode, k=k).hits]


def test_a_linked_fact_faintly_like_the_query_is_found(memory: Memory) -> None:
    assert ranking.LINKED_MINIMUM == 0  # from the floor by default
    answer = "Yep, off to go swimming with the kids. Talk soon!"
    for mode in ("hybrid", "semantic"):
        assert contents(memory, "What does Melanie do for fun?", mode) == [answer]
    with ranking.tuned({"LINKED_MINIMUM": 1.0}):  # the minimum, as for any fact
        assert answer not in contents(memory, "What does Melanie do for fun?", "hybrid", 10)


def test_a_query_that_names_nobody_finds_nothing_below_the_minimum(memory: Memory) -> None:
    assert contents(memory, "What happens for fun?", "hybrid", 10) == []
    assert contents(memory, "What happens for fun?", "semantic", 10) == []


def test_admits_from_the_floor_only_when_linked() -> None:
    mini = fusion.calibration("all-MiniLM-L6-v2")
    assert admits(mini, 0.21, linked=True) and not admits(mini, 0.21, linked=False)
    assert not admits(mini, 0.19, linked=True) and admits(mini, 0.3, linked=False)
    e5 = fusion.calibration("multilingual-e5-small-q4")  # its own floor and minimum
    assert admits(e5, 0.76, linked=True) and not admits(e5, 0.76, linked=False)
    with ranking.tuned({"LINKED_MINIMUM": 0.5}):  # half way from the floor to the minimum
        assert admits(mini, 0.25, linked=True) and not admits(mini, 0.24, linked=True)
