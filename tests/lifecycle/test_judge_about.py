"""A supersede is made by itself only when the thing it says changed is what both facts are
about (judge/about.py).  Read on a twelfth person's year (benchmarks/data/personal-tune12.json),
retained day by day, where most automatic supersedes shared a word that one of the two facts
was not about: a place inside a phrase that qualifies a noun, an evaluative word, a noun that
only qualifies another, a possessor, a clause read as a new value, the amounts of one-off
events, a value said only in a relative clause, a name something is sold under.  Each class is
written here in other words than the year's; the real changes beside them still supersede."""

from __future__ import annotations

import pytest
from judge_pairs import superseded, verdicts

NOT_TAKEN = [
    # a place inside "her flights from ...": the flights were cancelled, not the town
    ("W @me @Kerrin: Kerrin now lives in Galway and works at the university.",
     "B @me @Kerrin: Kerrin can't come for Christmas after all; her flights from Galway were "
     "cancelled by the strike."),
    # an evaluative word shared with an opinion on another thing
    ("O(c=0.8) @me: The Kestrel is the best bike I've ever ridden.",
     "O(c=0.8) @me: I've come round to the Corolla; it's the best car I've had for camping "
     "trips."),
    # a noun that only qualifies another ("camping trips", "the camping gear")
    ("O(c=0.8) @me: The Yaris was too small for the camping gear.",
     "O(c=0.8) @me: I've come round to the Corolla; it's the best car I've had for camping "
     "trips."),
    # a clause read as the new value, holding the old one: a judgement of the move
    ("W @me: Wexford is the town I'd most like to live in.",
     "O(c=0.8) @me: Moving to Wexford was the best decision we made."),
    # amounts of one-off events: two seasons' bills, a price paid and a repair, a standing
    # charge and a bill
    ("W @me: Our winter gas bill was $610.", "W @me: Our spring gas bill came down to $300."),
    ("W @me: The Hyundai cost $21,000.", "W @me: A tyre replacement on the Hyundai cost $180."),
    ("W @me: Water rates on the flat are $900 a year.",
     "W @me: Our winter gas bill at the flat was $610."),
    # a value said only in a relative clause ("who is eleven") is not the cats' value
    ("W @me: We have two cats, Biscuit, a ginger tom, and Soot, a black cat who is eleven.",
     "W @me: The cats are insured with Bought By Many on the standard plan."),
    # sold as a name: nothing called so was sold
    ("W @me: The final Tern Pale recipe uses Citra hops.",
     "W @me: Project Tern is sold as Tern Pale in bottles."),
    # another doer's activity stopped
    ("W @me: The caterers charged $700 for the party.",
     "W @me: The Kindle stopped charging; Amazon replaced it."),
]


@pytest.mark.parametrize(("old", "new"), NOT_TAKEN)
def test_a_shared_word_the_facts_are_not_about_retires_nothing(old: str, new: str) -> None:
    assert not superseded(old, new), verdicts(old, new)


def test_an_opinion_on_a_possessor_is_offered_not_taken() -> None:
    found = verdicts("O(c=0.8) @me: The Corolla's parking sensors drive me mad.",
                     "O(c=0.8) @me: I've come round to the Corolla; it's a great car.")
    assert found and not any(v.supersedes for v in found) and any(v.offer for v in found)
    assert "not what both facts are about" in found[0].reason


STILL_TAKEN = [
    ("W @me @Kerrin: Kerrin lives in Galway and teaches at the university.",
     "W @me @Kerrin: Kerrin has left Galway and lives in Sligo now."),
    ("W @me: Ines is a baker at Harbourside Bakery.",
     "W @me: Ines has left Harbourside Bakery and joined a cafe in Cobh."),
    ("O(c=0.8) @me: I can't stand the Corolla.",
     "O(c=0.8) @me: I've come round to the Corolla; it's a great car."),
    ("W @me: Our rent is $1,450 a month.", "W @me: Our rent went up to $1,520 a month."),
    ("W @me: I swim at the Leisureland pool on Mondays.",
     "W @me: I've stopped swimming; the pool is too far from Cobh."),
    ("W @me: I drive a 2010 Honda Jazz with 180,000 km on it.",
     "W @me: Sold the Jazz to a dealer in Athlone for $2,000."),
    ("W @me: The old Hetzner cluster runs the backups.",
     "W @me: The old Hetzner cluster was decommissioned in May."),
    ("W @me: We have two cats.", "W @me: We're down to one cat after the fox."),
]


@pytest.mark.parametrize(("old", "new"), STILL_TAKEN)
def test_the_real_changes_beside_them_still_supersede(old: str, new: str) -> None:
    assert superseded(old, new), verdicts(old, new)
