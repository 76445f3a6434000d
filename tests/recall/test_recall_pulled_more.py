"""The newer facts on the asked slot that share no word with a question about now (issue
29, `recall.pulled`): a change faded by decay is still brought in."""

from __future__ import annotations

from pathlib import Path

from timeline import ids, retain

from memfold import Memory


def test_a_change_faded_by_decay_is_still_pulled_in(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2024-03-01", "W @me: My go-to running shoes are Brooks Ghosts.")
        new = retain(memory, "2025-03-01",
                     "B @me: Switched to Hoka Cliftons after the Brooks gave me blisters.")
        result = memory.recall("Which running shoes do I wear these days?",
                               now="2025-06-01T09:00:00")
        assert {h.fact.id: h for h in result.hits}[new].status == "archived"
        assert ids(result)[:2] == [new, old]

