"""A word the memory never uses, whose first kinds it never uses either, is asked by the kinds
of those kinds: "do I have a pet?" of a memory that says "beagle" but never "pet" or "dog"
(`expansion.bare_words`, `_kinds_below`).  A memory that says "dog" is asked by its own word."""

from __future__ import annotations

from pathlib import Path

from timeline import ids, retain, top

from memfold import Memory

NOW = "2025-12-01T09:00:00"


def test_a_pet_is_found_by_a_kind_of_a_kind(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        beagle = retain(memory, "2025-01-05", "W @me @Biscuit: Has a beagle named Biscuit.")
        retain(memory, "2025-01-05", "W @me: Prefers tea over coffee.")
        result = memory.recall("Do I have a pet?", now=NOW)
        assert top(result) == beagle
        assert "beagle, a kind of pet" in result.hits[0].why


def test_a_memory_that_says_the_kind_is_asked_by_it(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        dog = retain(memory, "2025-01-05", "W @me: Our dog Rolo sleeps in the kitchen.")
        retain(memory, "2025-02-05", "W @me: Has a beagle named Biscuit.")
        assert ids(memory.recall("Do I have a pet?", now=NOW))[:1] == [dog]
