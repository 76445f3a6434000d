"""Changes the rules never weigh, offered (judge/settled.py): a plan settled, and a slot of
one's own ("my manager") held by someone tagged with another entity.  Wordings are this
file's own."""

from __future__ import annotations

from pathlib import Path

import pytest
from judge_pairs import verdicts

from memfold import Memory


@pytest.mark.parametrize(("old", "new"), [
    ("O @me: I'm thinking about getting a rescue greyhound.",
     "O @me: Decided against a greyhound; the flat is too small."),
    ("W @me: I'm planning to swim the Lake Bled crossing in August.",
     "B @me: Pulled out of the Lake Bled crossing with a shoulder strain."),
])
def test_a_plan_settled_is_offered_not_superseded(old: str, new: str) -> None:
    found = verdicts(old, new)
    assert found and all(v.offer and not v.supersedes for v in found)
    assert "plan" in found[0].reason


def test_a_plan_about_something_else_is_left_alone() -> None:
    assert not verdicts("O @me: I'm thinking about getting a rescue greyhound.",
                        "B @me: Cancelled the dentist appointment.")


def test_a_slot_of_ones_own_held_by_another_is_offered_across_entities(tmp_path: Path) -> None:
    Memory.init(tmp_path / "ws")
    with Memory.open(tmp_path / "ws", watch=False) as memory:
        memory.retain("W @Oskar: Oskar Lind runs the data team and is my manager.",
                      date="2025-02-01")
        told = memory.retain("W @Maren: Maren Holt, the new head of platform, is my manager.",
                             date="2025-08-01")
    assert [j.content for j in told.conflicts] == [
        "Oskar Lind runs the data team and is my manager."]
    assert not told.superseded and "my manager" in told.conflicts[0].reason


def test_another_slot_of_mine_is_not_offered(tmp_path: Path) -> None:
    Memory.init(tmp_path / "ws")
    with Memory.open(tmp_path / "ws", watch=False) as memory:
        memory.retain("W @Oskar: Oskar Lind is my manager.", date="2025-02-01")
        told = memory.retain("W @Vera: Vera Holm is my dentist.", date="2025-08-01")
    assert not told.judged
