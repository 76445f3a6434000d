"""Facts retained day by day, as the recall tests of what is true now write them: each on its
date at midnight (tests/recall/test_recall_*.py)."""

from __future__ import annotations

from memfold import Memory
from memfold.values import RecallResult


def retain(memory: Memory, day: str, bullet: str) -> str:
    """Retain `bullet` on `day` at midnight; its id."""
    [fact] = memory.retain([bullet], date=day, now=f"{day}T00:00:00").facts
    return fact.id


def retain_others(memory: Memory, bullets: tuple[str, ...]) -> None:
    """Other facts of the year, one a day from 10 January: in a memory of a handful of facts
    a word half of them hold weighs nothing in BM25, and a test would measure that."""
    for n, bullet in enumerate(bullets):
        retain(memory, f"2025-01-{10 + n}", bullet)


def ids(result: RecallResult) -> list[str]:
    """The ids of a recall's hits, best first."""
    return [h.fact.id for h in result.hits]


def top(result: RecallResult) -> str:
    """The id of a recall's best hit."""
    return result.hits[0].fact.id
