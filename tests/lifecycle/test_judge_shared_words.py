"""A word two facts share is not one state of one thing when it names another thing: the new
flat's broadband is no new value of the flat; an end shares with the older fact only a number,
or a word that one fact writes as a name ("Salt Marsh Studios") and the other as a common
word ("salt"); an end said of another subject ("Pickle stopped eating"); and "went diving off
Dahab" is something done there, not a move away.  Each of these retired a true fact of a
personal year.  The real changes beside them are still taken."""

from __future__ import annotations

import pytest
from judge_pairs import superseded

KEPT = [
    ("W @me: My home espresso is almost as good as Nomad's now.",
     "W @me: Broadband at the new house is 500 Mbps fibre from Zen."),
    ("W @me: The sale of the Leith flat is with Burness solicitors.",
     "W @me: Broadband at the new flat is 500 Mbps fibre from Zen."),
    ("W @me: Internet at the flat is 200 Mbps fibre from Hyperoptic.",
     "B @me: Sold the Sigma 70-200 and bought the Tamron 70-200 for the weddings."),
    ("O(c=0.8) @me: Grilled fish with just salt and lime beats any sauce.",
     "B @me: Gave up the desk at Salt Marsh Studios and work from home now."),
    ("O(c=0.8) @me: The tagine in Fez was the best thing I ate this year.",
     "B @me @Pickle: Pickle stopped eating; the vet at Leith Vets said it is his teeth."),
    ("W(until=2025-05-20) @me @Farah: We're in Dahab, Egypt, for a week.",
     "B @me @Farah: Went diving off Dahab; Farah saw a turtle."),
]

CHANGED = [
    ("W @me: I rent a desk at Salt Marsh Studios.",
     "B @me: Gave up the desk at Salt Marsh Studios and work from home now."),
    ("W @me: I drive a grey 2012 Skoda Fabia.", "B @me: Sold the Skoda Fabia to a neighbour."),
    ("W @Pickle: Pickle eats dry food twice a day.",
     "W @Pickle: Pickle stopped eating dry food; he is on wet food now."),
    ("W @me: We live in Dahab.", "W @me: Moved away from Dahab to Cairo in June."),
]


@pytest.mark.parametrize(("old", "new"), KEPT)
def test_a_shared_word_of_another_thing_retires_nothing(old: str, new: str) -> None:
    assert not superseded(old, new)


@pytest.mark.parametrize(("old", "new"), CHANGED)
def test_the_real_changes_beside_them_still_supersede(old: str, new: str) -> None:
    assert superseded(old, new)
