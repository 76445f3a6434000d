"""What a supersede's shared thing is (judge/heads.py, judge/holders.py, judge/evidence.py).
Read on an eleventh person's year (benchmarks/data/personal-tune11.json), retained day by
day: a word that only qualifies another noun is no shared thing, "one" standing for a thing
is no number, an amount for a part of a thing is not the thing's price, a second state
joined by "and still" is a part of the older fact, and a role handed to a new person retires
the old holder's fact.  Each class is written here in other words than the year's."""

from __future__ import annotations

import pytest
from judge_pairs import superseded, verdicts

from memfold import Memory

NO_CHANGE = [
    # the older fact's thing is the supervisor (a person), not the pumps being replaced
    ("W @Ilse @Harbour-Water: Ilse Brandt is the pump supervisor for our district and my "
     "manager.",
     "W @Harbour-Water: Harbour Water is replacing the diesel pumps at the Kessel station "
     "with electric ones this autumn."),
    # "pumps division": a division, not the pumps
    ("W @Harbour-Water: Our works council is the Metalworkers Guild, pumps division.",
     "W @Harbour-Water: Harbour Water is replacing the diesel pumps at the Kessel station "
     "with electric ones this autumn."),
    # a new supervisor of the pumps is no new value of the pumps
    ("W @Harbour-Water: Harbour Water is replacing the diesel pumps at the Kessel station "
     "with electric ones this autumn.",
     "W @Joris @Harbour-Water: Joris Vermeer is our new pump supervisor."),
    # "valve chambers" and "valve actuators" share only the word that qualifies them
    ("S @me: Most of February went to frozen hydrants and valve chambers on the Kessel line.",
     "B @me: Certified on the new smart valve actuators at the depot in Ostend."),
    # "one" stands for the kayak wanted, it is no count to set against the model's number
    ("W @me: I'm saving for a new kayak; I want a Dagger Axis 12 in plastic.",
     "O(c=0.7) @me: Plastic kayaks bought used are the only way to afford one."),
    # new tyres for the van are not what the van cost
    ("W @Van: The Transit cost $41,200 after the discount.",
     "B @Van: The Transit needed a new set of Michelin all-season tyres: $960 at Ridgeway "
     "Motors."),
]


@pytest.mark.parametrize(("old", "new"), NO_CHANGE)
def test_a_shared_word_that_is_not_a_shared_thing_retires_nothing(old: str, new: str) -> None:
    assert not superseded(old, new)


def test_a_second_state_joined_by_and_still_is_only_a_part() -> None:
    found = verdicts("W @Dad: Dad lives alone in the farmhouse near Tullow and still keeps "
                     "his sheep.", "B @Dad: Dad sold his sheep to a neighbour in Rathvilly.")
    assert found and not any(v.supersedes for v in found) and all(v.offer for v in found)


HANDED_OVER = [
    ("W @Ilse @Harbour-Water: Ilse Brandt is the pump supervisor for our district and my "
     "manager.", "W @Joris @Harbour-Water: Joris Vermeer is our new pump supervisor."),
    ("W @Wren @Kestrel: Wren Adeyemi is the CFO of Kestrel.",
     "W @Tomasz @Kestrel: Tomasz Lis is the new CFO of Kestrel."),
]


@pytest.mark.parametrize(("old", "new"), HANDED_OVER)
def test_a_role_handed_to_a_new_holder_retires_the_old_holder(old: str, new: str) -> None:
    found = verdicts(old, new)
    assert [v.supersedes for v in found] == [True]
    assert "became" in found[0].reason


ROLE_KEPT = [
    # another scope: the Ostend district's supervisor is not ours
    ("W @Ilse @Harbour-Water: Ilse Brandt is the pump supervisor for our district.",
     "W @Joris @Harbour-Water: Joris Vermeer is the new pump supervisor for the Ostend "
     "district."),
    # another role
    ("W @Ilse @Harbour-Water: Ilse Brandt is the pump supervisor for our district.",
     "W @Joris @Harbour-Water: Joris Vermeer is our new safety officer."),
    # the same person, said again
    ("W @Ilse @Harbour-Water: Ilse Brandt is the pump supervisor.",
     "W @Ilse @Harbour-Water: Ilse Brandt is our new pump supervisor."),
]


@pytest.mark.parametrize(("old", "new"), ROLE_KEPT)
def test_a_role_of_another_scope_or_kind_retires_nothing(old: str, new: str) -> None:
    assert not superseded(old, new)


STILL_CHANGES = [
    # a word of the older fact's attribute names its slot
    ("W @me: Our electricity supplier is Octopus.", "W @me: We switched electricity to Ovo."),
    # the thing's own measure: a membership fee is what the membership costs
    ("W @me @Climb-Hub: My Climb Hub bouldering membership costs £48 a month.",
     "B @Climb-Hub: Climb Hub raised its monthly membership fee to £55 from March."),
    ("W @Van: The Transit cost $41,200 after the discount.",
     "W @Van: Sold the Transit to a courier in Leeds for $29,000."),
    # an older fact that opens with a change of mind states no untouched first state
    ("O(c=0.7) @Ines: Ines has gone off beer; it is cider every weekend now.",
     "O(c=0.8) @Ines: Ines switched from cider to red wine at the weekends."),
]


@pytest.mark.parametrize(("old", "new"), STILL_CHANGES)
def test_real_changes_beside_them_still_supersede(old: str, new: str) -> None:
    assert superseded(old, new)


def test_the_new_holder_retires_the_old_one_through_retain(tmp_path: object) -> None:
    """Retained day by day, the pumps' replacement leaves the supervisor's fact standing,
    and the new supervisor retires it."""
    Memory.init(str(tmp_path))
    with Memory.open(str(tmp_path)) as memory:
        boss = memory.retain("W @Ilse @Harbour-Water: Ilse Brandt is the pump supervisor for "
                             "our district and my manager.", date="2025-01-04").facts[0]
        pumps = memory.retain("W @Harbour-Water: Harbour Water is replacing the diesel pumps "
                              "at the Kessel station with electric ones this autumn.",
                              date="2025-03-10")
        assert not pumps.superseded
        joris = memory.retain("W @Joris @Harbour-Water: Joris Vermeer is our new pump "
                              "supervisor.", date="2025-08-29")
        assert [f.id for f in joris.superseded] == [boss.id]
