"""Facts retained day by day, as the recall tests of what is true now write them: each on its
date at midnight (tests/recall/test_recall_*.py)."""

from __future__ import annotations

from memfold import Memory
from memfold.values import RecallResult


def retain(memory: Memory, day: str, bullet: str) -> str:
    """Retain `bullet` on `day` at midnight; its id."""
    [fact] = memory.retain([bullet], date=day, now=f"{day}T00:00:00").facts
    return fact.id


def ids(result: RecallResult) -> list[str]:
    """The ids of a recall's hits, best first."""
    return [h.fact.id for h in result.hits]


def top(result: RecallResult) -> str:
    """The id of a recall's best hit."""
    return result.hits[0].fact.id
