"""A state told without its subject, as a bullet under its entity writes it ("W @Priya: Is the
CTO at @Globex."), is read as the entity's: a role, a diet, a relationship.  A past one ("Was
the lead on …") or a passing state ("Is in Berlin this week") is no current value."""

from __future__ import annotations

import pytest
from judge_pairs import superseded

CHANGED = [
    ("W @Priya @Globex: Is the CTO at @Globex.", "W @Priya @Initech: Is the CTO at @Initech now."),
    ("W @Okon: Is a staff nurse at St Mary's.", "W @Okon: Is a ward manager at St Mary's now."),
    ("W @Lior: Is vegetarian.", "W @Lior: Is vegan now."),
]

KEPT = [
    ("W @Priya @Globex: Is the CTO at @Globex.",
     "W @Priya: Was the lead on the Kestrel project before she joined."),
    ("W @Priya @Globex: Is the CTO at @Globex.", "W @Priya: Is in Berlin this week for a summit."),
]


@pytest.mark.parametrize(("old", "new"), CHANGED)
def test_a_state_without_its_subject_is_the_entitys(old: str, new: str) -> None:
    assert superseded(old, new)


@pytest.mark.parametrize(("old", "new"), KEPT)
def test_a_past_or_passing_state_without_its_subject_retires_nothing(old: str, new: str) -> None:
    assert not superseded(old, new)
