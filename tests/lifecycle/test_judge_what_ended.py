"""What an end, a status and a move share with an older fact of the user's: the thing that
ended, not a word that qualifies it. Read on an eighth person's year (a piano tuner in
Dunedin, benchmarks/data/personal-tune8.json), where these retired true facts: a choir left
is no end of the city it is named after; occurrences cancelled are no state; a left hip is
no departure; a possession sold is no end of its owner; an interim word used as a verb is
no interim state; "actually" before a feeling is no correction; a capitalised place name is
no verb; who made a change for someone ("switched me to") is not what changed; "it is not
worth" ends nothing; a number of a thing bought is no new value of another thing's number
through its unit word alone. The real ends, statuses and moves beside each still supersede."""

from __future__ import annotations

import pytest
from judge_pairs import superseded, verdicts

RETIRES_NOTHING = [
    ("O(c=0.7) @me: I hate winter in Dunedin: black ice, dark at five, and a cold workshop.",
     "B @me: Left the City of Dunedin Choir; driving in on Monday nights was too much."),
    ("W @me: Old Mr Dunbar taught me to tune by ear at his shop in Christchurch in 1991.",
     "B @me: Flu knocked me out for five days; cancelled a week of tunings."),
    ("S @me: Shoulder much better since the cortisone; I can tune grands again.",
     "B @me: Snow on the hill road; cancelled two tunings in Halfway Bush."),
    ("W @Tui: Tui's vet is Dr. Whitcombe at Dunedin Vet Centre on Hillside Road.",
     "B @Tui: X-rays at the vet show arthritis in Tui's left hip."),
    ("W @Margaret: Mum lives at Iona rest home in Oamaru now.",
     "B @Margaret: Mum's unit sold for $395,000."),
    ("W @me: We own a 1910 villa on Mount Street, Port Chalmers, looking over the harbour.",
     'B @me: Finished "Birnam Wood".'),
    ("W @me @Southern-Keys: Southern Keys charges $95 an hour for repair work.",
     "B @me: Kiwibank pre-approved us for a mortgage of up to $480,000."),
    ("O(c=0.7) @me: The St Clair hot pool is the best thing about summer in Dunedin.",
     "O(c=0.6) @me: Early morning lengths at Moana Pool are the only exercise I actually enjoy."),
    ("W @me: Old Mr Dunbar taught me to tune by ear at his shop in Christchurch in 1991.",
     "B @me: Found a new coffee place in Port Chalmers, two doors from Aroha's shop."),
    ("W @me: I drive a silver 2009 Toyota Hiace van with my tools racked in the back.",
     "O(c=0.7) @me: It's not worth a new gearbox in a van with 410,000 km on the clock."),
    ("O(c=0.7) @me: It's not worth a new gearbox in a van with 410,000 km on the clock.",
     "B @me: Bought a white 2019 Ford Transit Custom with 86,000 km from a dealer."),
    ("W @me: My GP is Dr. Sandhu at Mornington Health Centre.",  # the doctor is the doer
     "B @me: Atorvastatin gave me muscle aches; Dr. Kowalczyk switched me to rosuvastatin."),
]


@pytest.mark.parametrize(("old", "new"), RETIRES_NOTHING)
def test_a_word_beside_what_ended_retires_nothing(old: str, new: str) -> None:
    assert not superseded(old, new), verdicts(old, new)


STILL_SUPERSEDES = [
    ("W @me: I sing alto in the City of Dunedin Choir; rehearsals are Monday nights.",
     "B @me: Left the City of Dunedin Choir; driving in on Monday nights was too much."),
    ("W @me: My bike is at the shop for repairs.",
     "W @me: Picked up my bike from the shop; it's fixed."),
    ("W @Taavi: Taavi lives in Tartu.",
     "W @Taavi: Taavi and his family live in Tallinn now; they sold the Tartu place."),
    ("W @Ana: Ana lives in Porto.", "W @Ana: Correction: Ana actually lives in Braga."),
    ("W @Dana: Dana lives in Lisbon.", "W @Dana: Dana moved from Lisbon to Berlin."),
]


@pytest.mark.parametrize(("old", "new"), STILL_SUPERSEDES)
def test_the_thing_that_ended_still_supersedes(old: str, new: str) -> None:
    assert superseded(old, new), verdicts(old, new)
