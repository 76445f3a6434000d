"""Changes the judge missed on the personal years it was measured on (tune14-40), each
neither superseded nor offered before: an entity gone for good (died, sold by its name), an
age said in words, a slot of one's own given a new holder under another entity, a person
who moved or left a job, another price of the same thing, an opinion that turned.  Each
test beside keeps a look-alike that is no change.  Wordings are this file's own."""

from __future__ import annotations

from pathlib import Path

import pytest
from judge_pairs import kept, verdicts

from memfold import Memory
from memfold.lifecycle.judge.ages import age_of


def only(old: str, new: str) -> tuple[bool, str, bool]:
    """(supersedes, reason, offer) of the one verdict on the pair."""
    [v] = verdicts(old, new)
    return v.supersedes, v.reason, v.offer


# -- an entity gone for good ------------------------------------------------------------------

@pytest.mark.parametrize(("old", "new"), [
    ("W @Pepper: Pepper is my eleven-year-old springer spaniel.",
     "B @Pepper: Pepper died in her sleep last night."),
    ("W @Pepper @me: I walk Pepper along the canal every morning.",
     "B @Pepper @me: We had Pepper put to sleep at the Ashgrove vets."),
    ("W @Kestrel: Our boat is Kestrel, a 2011 Orkney 19 with a 40 hp Honda.",
     "B @Kestrel: Sold Kestrel to a man from Whitby for £9,800."),
])
def test_an_entity_gone_for_good_retires_its_states(old: str, new: str) -> None:
    supersedes, reason, _ = only(old, new)
    assert supersedes and reason.endswith("is gone")


@pytest.mark.parametrize(("old", "new"), [
    ("W @Mum: Mum lives in Harrogate.", "B @Mum: Mum's neighbour Harold died on Sunday."),
    ("W @Lise: Lise cycles to the studio.",
     "W @Lise: Lise takes the ferry to the studio since her bike was stolen."),
    ("W @Phone: My phone is a Pixel 8.", "B @Phone: My phone died on the bus home."),
    ("W @me: I live in Harrogate.", "B @Pepper @me: Pepper died in her sleep last night."),
    ("W @Kestrel: Our boat is Kestrel, a 2011 Orkney 19.",
     "B @Kestrel: Sold the old trailer we used to launch Kestrel."),
])
def test_another_death_a_flat_battery_or_another_thing_sold_is_no_end(old: str,
                                                                        new: str) -> None:
    assert kept(old, new)


def test_an_entity_gone_retires_the_states_of_others_that_name_it(workspace: Path) -> None:
    """"Tansy had to be put to sleep" (@Tansy) ends "Owain has a collie called Tansy" and
    "Owain walks Tansy on the beach" (@Owain), not where Owain lives, nor a fact that names
    Tansy only inside a longer name ("the Tansy Room")."""
    with Memory.open(workspace) as memory:
        has = memory.retain("W @Owain: Owain has an elderly collie cross called Tansy.",
                            date="2025-01-02").facts[0]
        memory.retain("W @Owain: Owain lives in Mumbles.", date="2025-01-03")
        memory.retain("W @Owain: Owain teaches Year 4 in the Tansy Room.", date="2025-01-03")
        walks = memory.retain("W @Owain: Owain walks Tansy on Oxwich beach every Sunday.",
                              date="2025-01-04").facts[0]
        gone = memory.retain("B @Tansy: Tansy had to be put to sleep at the vets; she was "
                             "fourteen.", date="2025-05-02")
    assert sorted(j.id for j in gone.superseded) == sorted([has.id, walks.id])
    assert {j.reason for j in gone.superseded} == {"the newer fact says 'Tansy' is gone"}


# -- an age ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("old", "new", "reason"), [
    ("W @Niamh: Niamh is nine and in third class at the village school.",
     "B @Niamh: Niamh turned ten and had a sleepover for six friends.", "'nine' became 'ten'"),
    ("W @Bruno: Bruno is my seven-year-old boxer.", "B @Bruno: Bruno turned eight today.",
     "'seven' became 'eight'"),
    ("W @Seamus: My father, Seamus, is 79 and still drives to Mass.",
     "B @Seamus: Dad turned eighty; we had cake at the hotel.", "'79' became 'eighty'"),
])
def test_a_greater_age_in_words_replaces_the_one_before(old: str, new: str,
                                                        reason: str) -> None:
    supersedes, why, _ = only(old, new)
    assert supersedes and why == f"age: {reason}"


@pytest.mark.parametrize(("old", "new"), [
    ("W @Mum: Mum is 71.", "B @Mum: Mum's dog turned 9."),
    ("W @Bruno: Bruno is eight.", "B @Bruno: Bruno is seven kilos heavier than in spring."),
    ("W @Niamh: Niamh is ten.", "W @Niamh: Niamh is nine minutes from school by bike."),
])
def test_another_age_or_a_number_that_is_no_age_changes_nothing(old: str, new: str) -> None:
    assert kept(old, new)


def test_an_age_is_read_only_of_the_entity_named() -> None:
    assert age_of("Tomas is twenty-one now.", frozenset({"tomas"})) == (21, "twenty-one")
    assert age_of("Tomas's cousin is 30.", frozenset({"tomas"})) is None
    assert age_of("The house is 5 km from the beach.", frozenset({"house"})) is None


# -- a slot of one's own with a new holder ---------------------------------------------------

@pytest.mark.parametrize(("old", "new", "slot"), [
    ("W @Akira @Saffron: My sous chef at Saffron is Akira Mori, from Osaka.",
     "W @Dele @Saffron: My new sous chef at Saffron is Dele Ade, promoted from the pastry "
     "section.", "sous chef"),
    ("W @Fiesta: My car is a 2012 Ford Fiesta.", "W @Yaris: My car is now a 2021 Toyota Yaris.",
     "car"),
    ("W @Lena: Lena Ortiz at Brightside Talent is my agent.",
     "W @Rory: Rory Quinn at Northlight is my agent now.", "agent"),
])
def test_a_new_holder_of_a_slot_of_ones_own_is_offered(old: str, new: str, slot: str) -> None:
    supersedes, reason, offer = only(old, new)
    assert not supersedes and offer and reason.startswith(f"same slot: my {slot};")


@pytest.mark.parametrize(("old", "new"), [
    ("W @Sam: Sam is my friend from the climbing wall.", "W @Jo: Jo is my friend now."),
    ("W @Fiesta: My car is a 2012 Ford Fiesta.", "W @Rex: My new dog is a rescue lurcher."),
    ("W @Ana: Ana is my colleague on the night desk.", "W @Tom: Tom is my new colleague."),
])
def test_a_slot_one_has_many_of_or_another_slot_is_no_new_holder(old: str, new: str) -> None:
    assert not verdicts(old, new)


# -- a person who moved or left a job ---------------------------------------------------------

@pytest.mark.parametrize(("old", "new", "what"), [
    ("W @Ines: Ines, my friend from choir, teaches piano in Leith.",
     "W @Ines: Ines lives in Lyon now.", "Ines moved"),
    ("W @Bram: Bram Visser is one of my shift leads at the depot.",
     "B @Bram: Bram handed in his notice; he starts at a brewery in May.",
     "Bram left or changed a job"),
    ("W @Moira @Harbour-Cafe: Moira has been my pastry chef since 2021.",
     "B @Moira: Moira's last day at Harbour Cafe; we had a cake for her.",
     "Moira left or changed a job"),
])
def test_a_person_who_moved_or_left_a_job_is_offered(old: str, new: str, what: str) -> None:
    supersedes, reason, offer = only(old, new)
    assert not supersedes and offer and reason.startswith(f"the newer fact says {what};")


@pytest.mark.parametrize(("old", "new"), [
    ("W @me: We rent a two-bed terrace on Mill Lane in Bicester.",
     "W @me: We live in a three-bed semi on Orchard Way in Kidlington."),
    ("W @me: Rent on Mill Lane is £1,350 a month.",
     "W @me: I live at 9 Orchard Way, Kidlington, which we own."),
])
def test_where_one_lives_now_is_offered_against_a_rented_home(old: str, new: str) -> None:
    assert only(old, new) == (False, "the newer fact says where one lives now; the older one "
                                     "tells a rented home", True)


def test_living_on_in_the_rented_home_is_not_offered() -> None:
    assert not [v for v in verdicts("W @me: We rent a flat on Mill Lane in Bicester.",
                                    "W @me: We live on Mill Lane still, happily.")
                if "rented home" in v.reason]


@pytest.mark.parametrize(("old", "new"), [
    ("W @Ines: Ines teaches piano in Leith.", "B @Ines: Ines's sister moved to Lyon."),
    ("W @Bram: Bram loves cold-water swimming.", "B @Bram: Bram resigned from the depot."),
    ("W @Bram: Bram is a shift lead at the depot.", "B @Bram: Bram moved the rota meeting."),
    ("W @me: Works at @Halden.", "W @me: Works at @Halden now."),
])
def test_anothers_move_a_state_of_no_place_or_work_or_no_move_is_not_offered(
        old: str, new: str) -> None:
    assert not verdicts(old, new)


# -- another price of the same thing, an opinion that turned ---------------------------------

@pytest.mark.parametrize(("old", "new", "reason"), [
    ("W @Hotjar: Heatmaps: Hotjar, about $39 a month.",
     "W @Hotjar: Hotjar is $59 a month now.", "another price a month for Hotjar"),
    ("W @me @Oona: I coach Oona, a twelve-year-old in Didsbury, at chess on Mondays for £30 "
     "an hour.", "W @me @Oona: Oona's parents now pay me £35 an hour.",
     "another price an hour for Oona"),
    ("W @me @Velo-Hub: I bought a ten-ride pass at Velo Hub for 95 zł.",
     "W @Velo-Hub: Velo Hub's ten-ride pass went up to 110 zł.", "another price for Velo-Hub"),
    ("O(c=0.6) @Dev: Dev is very rigid about process; not sure about him yet.",
     "O(c=0.7) @Dev: Dev is actually great at shielding us from scope creep.",
     "the opinion on Dev may have turned"),
    ("O(c=0.7) @me: The Kindle's screen is too dim. Miss paper books.",
     "O(c=0.6) @me: The Kindle has grown on me; I read more now.",
     "the opinion on Kindle may have turned"),
    ("O(c=0.5) @me: I'm not sure about Figma yet; the shortcuts keep tripping me up.",
     "O(c=0.7) @me: I now prefer Figma to Sketch for client work.",
     "the opinion on Figma may have turned"),
    ("O(c=0.8) @me: Clontarf is the best neighbourhood in Dublin to live in.",
     "O(c=0.6) @me: I've gone off Clontarf; it's too noisy at weekends now.",
     "the opinion on Clontarf may have turned"),
    ("O(c=0.7) @me: I want to go to Electric Picnic with Aoife in August.",
     "B @me: Decided not to go to Picnic after all; tickets plus the train were too dear.",
     "the plan on 'Picnic' may be settled"),
])
def test_another_price_or_a_turned_opinion_is_offered(old: str, new: str, reason: str) -> None:
    assert only(old, new) == (False, reason, True)


@pytest.mark.parametrize(("old", "new"), [
    ("W @me: Rent is $1,400 a month.", "W @me: Gym is $40 a month now."),
    ("W @Plausible: Plausible is $19 a month.", "W @Plausible: Plausible's setup fee was $50."),
    ("W @me @Velo-Hub: I bought a ten-ride pass at Velo Hub for 95 zł.",
     "B @me @Velo-Hub: Paid 20 zł for a spin class at Velo Hub."),
    ("O(c=0.7) @me: The Kindle's screen is too dim.",
     "O(c=0.6) @me: Honestly the Lisbon trip was actually great."),
    ("O(c=0.7) @me: Okay so Clontarf is loud.", "O(c=0.6) @me: Okay, I was wrong about Howth."),
    ("O(c=0.7) @me: I want to go to Electric Picnic with Aoife in August.",
     "B @me: Booked the dentist for August."),
])
def test_two_things_priced_or_two_opinions_on_two_things_are_not_offered(old: str,
                                                                          new: str) -> None:
    assert not [v for v in verdicts(old, new)
                if v.reason.startswith(("another price", "the opinion on", "the plan on"))]


# -- an end of what the older fact is about ---------------------------------------------------

@pytest.mark.parametrize(("old", "new", "reason"), [
    ("W @me @Fitzone: Down to two Fitzone classes a week.", "B @me @Fitzone: Cancelled Fitzone.",
     "the newer fact says 'Fitzone' ended"),
    ("W @me: I run along the canal three times a week, about 5 km each time.",
     "B @me: Stopped running for now. The knee can't take it, and cycling is enough cardio.",
     "the newer fact says 'running' ended"),
    ("W @Tavi: Tavi plays under-14 hockey, defence.",
     "W @Tavi: Tavi's done with hockey. Wants to try rowing in the spring.",
     "the newer fact says 'hockey' ended"),
    ("W @Ruth: Ruth, my girlfriend, is a luthier with a workshop in Frome.",
     "B @me @Ruth: Ruth and I broke up; we'll stay friends, she says.",
     "the newer fact says the relationship ended"),
    ("W @me @Lior: I've been with Lior for three years; he teaches in Haifa.",
     "W @me: I'm single now.", "the newer fact says the relationship ended"),
    ("W @Tomas: Tomas, my boyfriend, is a sound engineer at a radio station in Cork.",
     "W @me @Tomas: Tomas and I have broken up; he's moving to Galway.",
     "the newer fact says the relationship ended"),
])
def test_an_end_of_what_the_older_fact_is_about_is_offered(old: str, new: str,
                                                           reason: str) -> None:
    supersedes, why, offer = only(old, new)
    assert not supersedes and offer and why.startswith(reason)


@pytest.mark.parametrize(("old", "new"), [
    ("W @me: I live in Frome.", "B @me: Stopped at the bakery for bread."),
    ("W @me @Fitzone: Down to two Fitzone classes a week.", "B @me: Cancelled the dentist."),
    ("W @Ruth: Ruth is a luthier with a workshop in Frome.",
     "B @me @Ruth: Ruth and I broke the old bench moving it."),
])
def test_an_end_of_something_else_is_not_offered(old: str, new: str) -> None:
    assert not verdicts(old, new)


# -- a booking called off ---------------------------------------------------------------------

def test_a_booking_told_as_done_is_offered_when_called_off(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        booked = memory.retain("B @me @Wren: Booked a cottage in Dingle for the first week of "
                               "June with Wren.", date="2025-02-01").facts[0]
        memory.retain("B @me @Wren: Had dinner with Wren at the new Thai place.",
                      date="2025-03-01")
        off = memory.retain("B @me @Wren: Cancelled the Dingle cottage; the silage is late.",
                            date="2025-05-01")
        other = memory.retain("B @me @Wren: Cancelled the dentist for Thursday.",
                              date="2025-05-02")
    assert [(j.id, j.superseded, j.reason) for j in off.conflicts] == [
        (booked.id, False, "the plan on 'cottage Dingle' may be settled")]
    assert not other.conflicts and not other.superseded


def test_a_slot_of_ones_own_is_found_under_another_entity_by_its_last_word(
        workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        was = memory.retain("W @Ingvar: Professor Ingvar Dahl is my postdoc supervisor.",
                            date="2025-01-03").facts[0]
        deputy = memory.retain("W @Stuart: Stuart Renwick is my deputy head and teaches the "
                               "Year 6 class.", date="2025-01-04").facts[0]
        now = memory.retain("W @Kasimir: Kasimir Lind is my main supervisor now.",
                            date="2025-06-01")
        new = memory.retain("W @Aroha: Aroha Moki has been appointed as our new deputy head "
                            "from Term 4.", date="2025-07-01")
    assert [j.id for j in now.conflicts] == [was.id]
    assert [j.id for j in new.conflicts] == [deputy.id]


def test_a_booking_long_before_is_found_by_its_words(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        booked = memory.retain("B @me: Booked a cottage on Anglesey for October half-term.",
                               date="2025-03-01").facts[0]
        for day in range(1, 29):  # a month of other experiences of the user's
            memory.retain(f"B @me: Walked the dog along the canal, lap {day}.",
                          date=f"2025-04-{day:02d}")
        off = memory.retain("B @me: Cancelled the Anglesey cottage; Mum isn't up to travelling.",
                            date="2025-09-01")
    assert [j.id for j in off.conflicts if "plan on" in j.reason] == [booked.id]


# -- an end of another thing that shares a word ---------------------------------------------

@pytest.mark.parametrize(("old", "new"), [
    ("W @me: My phone is now a Google Pixel 9a.",
     "B @me: Sold the old cracked Pixel 6a to a trade-in site for £35."),
    ("O(c=0.8) @me: I'm tired of Halden. No budget for anything.",
     "O(c=0.6) @me: The Leith flat is over budget, but I'd save two hours a day."),
    ("W @Sam: Sam's start date in Nashville is 2 June.",
     "W @me @Sam: Sam and I broke up. He moves to Nashville at the end of the month."),
])
def test_another_model_over_budget_or_a_start_date_is_no_end(old: str, new: str) -> None:
    assert kept(old, new)
    assert not [v for v in verdicts(old, new) if "ended" in v.reason]


def test_the_same_model_sold_still_ends() -> None:
    supersedes, reason, _ = only("W @me: My phone is a Google Pixel 6a.",
                                 "B @me: Sold the old cracked Pixel 6a to a trade-in site.")
    assert supersedes and reason == "the newer fact says 'Pixel 6a' ended"
