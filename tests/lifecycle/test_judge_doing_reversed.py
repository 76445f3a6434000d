"""A liking of a doing reversed: "hates running" then "loves running now". The doing is
told by a common verb ("run", "work") that alone links no two facts, so the reversal was
read only of a thing ("hates coffee"); the same doing on both sides links them now, and two
doings that share only their verb ("working late" / "working from home") stay apart."""

from __future__ import annotations

import pytest
from judge_pairs import superseded, verdicts


@pytest.mark.parametrize("new", ["W @Tove: Tove loves running now.",
                                 "W @Tove: Tove enjoys running these days."])
def test_the_same_doing_liked_after_hated_supersedes(new: str) -> None:
    assert superseded("W @Tove: Tove hates running.", new), verdicts(
        "W @Tove: Tove hates running.", new)


@pytest.mark.parametrize(("old", "new"), [
    ("W @Sam: Sam hates working late.", "W @Sam: Sam loves working from home."),
    ("W @Tove: Tove hates running.", "W @Tove: Tove might enjoy running if she had company."),
])
def test_another_doing_or_a_maybe_supersedes_nothing(old: str, new: str) -> None:
    assert not superseded(old, new), verdicts(old, new)
