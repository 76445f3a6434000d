"""A question about now asked by a value only ("Is Wrenfield on PostHog now?") is answered by
the state of the entity it names, above a suggestion, plan or pitch that names the value
and that the judge offered against the state; a real change to the value still answers."""

from __future__ import annotations

from pathlib import Path

from timeline import retain, top

from memfold import Memory


def test_a_suggestion_naming_the_value_ranks_below_the_state(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        state = retain(memory, "2024-07-08", "W @Wrenfield: Wrenfield's product analytics "
                                             "run on Mixpanel.")
        retain(memory, "2025-06-19", "O(c=0.6) @Wrenfield: Daria thinks Wrenfield should "
                                     "move product analytics to PostHog to save money.")
        assert top(memory.recall("Is Wrenfield on PostHog now?",
                                 now="2026-01-10T09:00:00")) == state


def test_a_change_to_the_value_still_answers(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2024-07-08", "W @Wrenfield: Wrenfield's product analytics run on "
                                     "Mixpanel.")
        new = retain(memory, "2025-06-19", "W @Wrenfield: Wrenfield moved product analytics "
                                           "from Mixpanel to PostHog.")
        assert top(memory.recall("Is Wrenfield on PostHog now?",
                                 now="2026-01-10T09:00:00")) == new
