"""A fact faded by decay ranks below a newer active fact only when that one is on its subject
and topic (`currency.covered`): a content word in common, not "is" or "was" — which nearly
every fact holds — nor "I've".  "I've supported the Stormers in rugby since I was a boy"
stays above a newer fact that shares only the user and a verb of being with it."""

from __future__ import annotations

from pathlib import Path

from timeline import ids, retain

from memfold import Memory


def test_a_faded_view_is_not_covered_by_a_fact_that_only_shares_is(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        stormers = retain(memory, "2024-03-15", "O(c=0.7) @me: I've supported the Stormers "
                                                "in rugby since I was a boy.")
        team = retain(memory, "2025-11-02", "W @me: My team at work is eight people and the "
                                            "office is busy.")
        found = memory.recall("Which team do I support in rugby?", now="2025-12-31T09:00:00")
        assert ids(found)[:2] == [stormers, team]
