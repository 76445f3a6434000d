"""Two readings the truth bench's tuning timelines (benchmarks/data/truthqa-tune.jsonl) showed
wrong: "took the dog to puppy training" is an errand, not a change of the dog's name; and a
wish said with a change of mind ("changed his mind and wants to be reached on Signal") is the
preference now, not a plan."""

from __future__ import annotations

import pytest
from judge_pairs import superseded, verdicts


@pytest.mark.parametrize(("old", "new"), [
    ("W @Oren: Oren's dog is called Pretzel.", "B @Oren: Oren took the dog to puppy training."),
    ("W @Ada: Ada's car is a blue Fiat Panda.", "B @Ada: Ada took the car to the garage."),
    ("W @Ada: Ada's son goes to Greenfield Primary.",
     "B @Ada: Ada took her son to the dentist in town."),
])
def test_taking_something_somewhere_changes_nothing(old: str, new: str) -> None:
    assert not verdicts(old, new)


def test_taking_over_a_role_is_still_a_change() -> None:
    assert superseded("W @Falcon: Project Falcon is led by Priya.",
                      "W @Falcon: Tom took over Project Falcon from Priya.")


def test_a_changed_mind_with_a_wish_is_the_preference_now() -> None:
    assert superseded("O @Kwame: Kwame prefers to be contacted by email.",
                      "O @Kwame: Kwame changed his mind and wants to be reached on Signal "
                      "instead of email.")


def test_a_wish_alone_is_still_a_plan() -> None:
    assert not superseded("O @Kwame: Kwame prefers to be contacted by email.",
                          "O @Kwame: Kwame wants to be reached on Signal instead of email "
                          "next year.")


def test_the_old_one_named_beside_the_new_one_is_a_change() -> None:
    """A fact that names both members of a family changes nothing by itself ("uses Slack
    and Teams"), unless it calls one the old one and says the other holds now."""
    assert superseded("W @me: My phone is a Pixel 6.",
                      "B @me: Gave my old Pixel to my nephew; I'm on an iPhone 15 now.")
    assert not superseded("W @me: My phone is an iPhone 15.",
                          "B @me: Found my old Pixel in a drawer; I still use the iPhone 15.")
