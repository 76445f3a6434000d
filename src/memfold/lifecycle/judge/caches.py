"""What the rule judge remembers of the facts it has read, emptied in one call."""

from __future__ import annotations

from memfold.lifecycle.judge import (
    aliases,
    offers,
    pieces,
    readers,
    reading,
    reading_table,
    subjects,
)


def forget_readings() -> None:
    """Empty the caches of readings and of what the rules read of one fact (benchmarks time
    a judge reading both facts, as a fresh process would)."""
    readers.read_parts.cache_clear()
    reading.forget_readings()
    reading_table.forget()
    pieces.forget()
    aliases.forget()
    offers.gerunds.cache_clear()
    subjects.forget()
