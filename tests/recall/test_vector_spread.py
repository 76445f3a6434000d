"""Spread (`ranking.VECTOR_SPREAD`, `ranking.spread`): in hybrid mode a result much like one
ranked above it gives way, so the first results are not one answer said three times."""

from __future__ import annotations

from pathlib import Path

import pytest

from memfold.embed.base import FakeEmbedder
from memfold.memory import Memory
from memfold.recall import fusion, ranking

NOW = "2025-11-28T12:00:00+00:00"
SAID_AGAIN = ["B @Ada: saw a grey heron at the marsh lake this morning",
              "B @Ada: saw a grey heron at the marsh lake this evening",
              "B @Ada: saw a grey heron at the marsh lake this noon"]
OTHER = "B @Ada: watched an otter swim across the marsh"
# the otter holds a word the herons do not ("swimming"), the herons more: hybrid fusion counts
# the words a fact holds of the question in full (`fusion.agreed`), so without one of its own
# the otter falls further behind the herons than the spread reaches
QUERY = "what did Ada see at the marsh lake or swimming"


@pytest.fixture
def memory(workspace: Path) -> Memory:
    mem = Memory.open(workspace, now=NOW)
    mem.set_embedder(FakeEmbedder())
    for day, said in zip((20, 21, 22), SAID_AGAIN, strict=True):  # a file each: no context
        mem.retain([said], date=f"2025-11-{day}")
    mem.retain(["W: tax forms are due in april", "B: repaired the bicycle chain"],
               date="2025-11-24")
    mem.retain([OTHER], date="2025-11-27")
    # "see" would find "saw" as a word form and lift every heron past what the spread takes
    # away; the spread is measured between results the words rank alike.  The stand-in
    # model's hashed vectors place the best word match far from the question, and it holds
    # part of its asked words: `fusion.trust` would shrink the whole lexical side and with
    # it the gaps the spread is measured against — it is tested on the word-led order
    with ranking.tuned({"FORM_SHARE": 0.0}), pytest.MonkeyPatch.context() as patch:
        patch.setattr(fusion, "LEXICAL_DOUBT", 0.0)
        yield mem  # type: ignore[misc]
    mem.close()


def first(memory: Memory, query: str, mode: str = "hybrid", k: int = 2) -> list[str]:
    return [h.fact.content for h in memory.recall(query, mode=mode, k=k).hits]


def test_a_result_like_one_above_it_gives_way(memory: Memory) -> None:
    assert ranking.VECTOR_SPREAD > 0  # on by default (chosen leave-one-out on LoCoMo)
    query = QUERY
    with ranking.tuned({"VECTOR_SPREAD": 0.0}):
        plain = first(memory, query)
    assert all("heron" in c for c in plain)  # the same sighting twice
    spread = first(memory, query)
    assert "heron" in spread[0]  # the best stays first
    assert "otter" in spread[1]  # the second place goes to something else


def test_a_result_that_gave_way_says_to_which(memory: Memory) -> None:
    hits = memory.recall(QUERY, mode="hybrid", k=3).hits
    assert ["heron" in h.fact.content for h in hits] == [True, False, True]
    assert f"much like ^{hits[0].fact.id} above" in hits[2].why
    assert "much like" not in hits[0].why and "much like" not in hits[1].why
    with ranking.tuned({"VECTOR_SPREAD": 0.0}):
        plain = memory.recall(QUERY, mode="hybrid", k=3).hits
    assert not any("much like" in h.why for h in plain)


def test_scores_still_fall_and_lexical_recall_is_untouched(memory: Memory) -> None:
    hits = memory.recall(QUERY, mode="hybrid", k=6).hits
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)
    with ranking.tuned({"VECTOR_SPREAD": 0.0}):
        plain = first(memory, "heron marsh", "lexical", 4)
    assert first(memory, "heron marsh", "lexical", 4) == plain


def test_spread_orders_by_score_less_likeness_within_tiers() -> None:
    cosines = [[1.0, 0.95, 0.2, 0.9], [0.95, 1.0, 0.1, 0.9], [0.2, 0.1, 1.0, 0.1],
               [0.9, 0.9, 0.1, 1.0]]
    ranked = [(0, 1.0), (0, 0.95), (0, 0.9), (1, 2.0)]
    with ranking.tuned({"VECTOR_SPREAD": 0.2, "SPREAD_FLOOR": 0.5}):
        placed = ranking.spread(ranked, cosines)
    assert [i for i, _ in placed] == [0, 2, 1, 3]  # a tier never passes a better one
    lowered = dict(placed)
    # 0.95 less 0.2 of the best (2.0) times its likeness past the floor, (0.95-0.5)/0.5
    assert lowered[1] == pytest.approx(0.95 - 0.2 * 2.0 * 0.9)
    assert lowered[0] == 1.0 and lowered[2] == pytest.approx(0.9)
    with ranking.tuned({"VECTOR_SPREAD": 0.0}):
        assert ranking.spread(ranked, cosines) == list(enumerate(s for _, s in ranked))
