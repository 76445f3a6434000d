"""A supersede the rules find is made by itself only with the evidence for one (judge/evidence.py).
Read on a tenth person's year (a respiratory therapist in Pittsburgh,
benchmarks/data/personal-tune10.json), retained day by day, where most automatic supersedes
were wrong: amounts in different roles, vehicles of different kinds, another person's move,
a place slot without a place, a change or an end of another thing, damage, a change the older
preference wanted, a part of an older fact.  Each class is written here in other words than
the year's; the real changes beside them still supersede."""

from __future__ import annotations

import pytest
from judge_pairs import superseded, verdicts

NO_CHANGE = [
    # a limit is not what was taken
    ("W @me @Tern-CU: Tern Credit Union pre-approved us for a car loan of up to $40,000.",
     "W @me @Tern-CU: Our car loan with Tern Credit Union is $31,500 at 5.9% over five years."),
    # a one-off price is not a rate per month
    ("W @me: We bought a used Mazda CX-5, blue, from a lot in Tempe for $18,900.",
     "W @me: The Mazda is insured with Geico for $96 a month."),
    # two one-off payments for different things
    ("W @me: Moving costs came to $2,400 on top of the deposit of $1,800.",
     "B @me: The dishwasher at the new flat needed a new drain hose; it cost $120."),
    # a motorcycle is not the car we drive
    ("W @me @R75: I'm rebuilding a 1972 BMW R75 motorcycle in the shed; it hasn't started in "
     "years.", "B @me: Sold the Volvo to a breaker in Leith for $600 rather than fix the gearbox."),
    # how the home is heated is no place it moved to, nor a new value of its internet
    ("W @me: We live in our own flat on Marsh Lane in Leith now.",
     "W @me: The new flat is heated by electric storage heaters with a timer."),
    ("W @me: Our broadband at the new flat is Hyperoptic 500.",
     "W @me: The new flat is heated by electric storage heaters with a timer."),
    # a thing handed on that the older fact names otherwise
    ("W @me @Seaview-Studio: I run Seaview Studio, my own pottery and glazing business, from a "
     "shed in the garden.",
     "B @me @Kofi: Had to hand the Usher Hall glazing for the spring gala to Kofi because of my "
     "wrist."),
    # a lane closed by floods is not the lane a beer is brewed up
    ("O(c=0.7) @me: Ruddy's stout is my favourite beer, and it's brewed just up the lane.",
     "B @me: Floods closed the lane past Kirk Brae; cancelled two deliveries in Liberton."),
    # a change the older preference already wanted
    ("O(c=0.8) @Tom: Tom says he'd rather play the drums than the guitar because they are "
     "louder.", "W @Tom: Tom switched from guitar to drums; his new teacher is Mr. Ellis."),
    # another person's move (the year's own pair)
    ("W @me: The new house is heated by a gas boiler with cast-iron radiators.",
     "B @me @Rania: Rania moved to Chicago; our Arabic lessons are on Zoom now."),
    # what a thing did stopped, not the thing
    ("W @me: The new house is heated by a gas boiler with cast-iron radiators.",
     "B @me: An engineer from Leith Heating bled the radiators and stopped the boiler "
     "rattling; $95."),
    # a word shared inside two different names ("Town Hall", "City of Dunedin Choir")
    ("W @me: I sing alto in the City of Dunedin Choir; rehearsals are Monday nights at Knox "
     "Church.", "B @me @Jae-won: Had to hand the Town Hall tuning for the NZSO concert to "
     "Jae-won because of my shoulder; I checked his work."),
    # an outcome of a thing named otherwise
    ("W @me: My permit for the shed is pending with the borough.",
     "B @me: The borough approved the Kowalski's pool permit."),
    # new people to teach are no new value of anything (the year's own pair)
    ("W @me @Allegheny-General: I'm responsible for orienting the twelve new respiratory "
     "therapist grads this winter.",
     "O(c=0.8) @me: Teaching new grads is the best part of the job; I don't miss bedside shifts "
     "at all."),
]


@pytest.mark.parametrize(("old", "new"), NO_CHANGE)
def test_no_change_of_one_slot_retires_nothing(old: str, new: str) -> None:
    assert not superseded(old, new)


OFFERED = [
    # damage ends nothing by itself
    ("W @me: My tablet is an iPad Air.",
     "B @me: Dropped my iPad on the station platform in Leeds and cracked it."),
    ("W @me: My laptop is a ThinkPad X1 Carbon.",
     "B @me: My laptop fell out of my bike pannier on Leith Walk and the screen cracked."),
    # a person moved to a ward: maybe for a while
    ("W @Elspeth: Gran (Elspeth) is ninety and lives on her own in a cottage in Peebles.",
     "B @Elspeth: Gran moved to the stroke ward at Borders General Hospital."),
    # the newer fact touches only a part of the older one
    ("W @me: We have a 2012 Honda Jazz; I drive it to the depot, about 15 minutes.",
     "W @me: I walk to the new depot along the canal, about 30 minutes."),
    ("W @Dad: Dad lives in a two-bedroom flat in Inverness; the croft is listed for sale.",
     "B @Dad: Sold the croft to a neighbour for £210,000."),
    # an end in someone else's report
    ("W @Elspeth: Gran (Elspeth) is ninety and lives on her own in a cottage in Peebles.",
     "B @Elspeth: Gran's district nurse says she can't manage the cottage alone any more."),
    # an end said only as the time of something else (the year's own pair)
    ("W @Aroha: Aroha Tane is my closest friend; she owns a yarn shop in Port Chalmers.",
     "B @me @Aroha: Aroha and I swam at the St Clair Hot Salt Water Pool after her shop "
     "closed."),
]


@pytest.mark.parametrize(("old", "new"), OFFERED)
def test_a_change_without_the_evidence_is_offered_not_made(old: str, new: str) -> None:
    found = verdicts(old, new)
    assert found and not any(v.supersedes for v in found)
    assert all(v.offer for v in found)


STILL_CHANGES = [
    ("W @me: My salary at Brightwell is £40,000 a year.",
     "W @me: With the promotion, my salary went up to £43,500."),
    ("W @Noor: Noor charges £30 a lesson.", "W @Noor: Noor has put her lesson price up to £34."),
    ("W @me: I pay $1,450 a month in rent for the flat.",
     "W @me: The rent on the flat went up to $1,520 a month."),
    ("W @me: We drive a 2012 Honda Jazz.",
     "B @me: Sold the Honda Jazz to a dealer in Falkirk for £2,100."),
    ("W @me: My tablet is an iPad Air.", "B @me: Sold my iPad to a student in Leeds."),
    # a word that is both a name's and written small in the newer fact is not set apart
    ("W @me: Our broadband provider is Sky.", "W @me: We switched broadband to Cuckoo Broadband."),
    # a sentence's first word is capitalised for the sentence, not a name
    ("W @me: Our car is a 2011 Ford Ka.", "B @me: Sold the Ka to a scrap dealer for £300."),
    ("W @me: I sing bass in the Portobello Male Voice Choir; rehearsals are Thursday nights "
     "at St Mark's.", "B @me: Left the Portobello Male Voice Choir; the Thursday drive was too "
     "much."),
    # the subject's own report of its move
    ("W @Ines: Ines works remotely from Leith.",
     "W @Ines: Ines says she's moved to Porto for good and gave up the Leith flat."),
    # a preference the change goes against is reversed by it
    ("O(c=0.8) @Tom: Tom says he'd rather play the guitar than the drums.",
     "W @Tom: Tom switched from guitar to drums; his new teacher is Mr. Ellis."),
    ("W @me: We live in a rented flat on Marsh Lane in Leith.",
     "W @me: We live in our own house on Bell Street in Dundee now."),
]


@pytest.mark.parametrize(("old", "new"), STILL_CHANGES)
def test_real_changes_beside_them_still_supersede(old: str, new: str) -> None:
    assert superseded(old, new)
