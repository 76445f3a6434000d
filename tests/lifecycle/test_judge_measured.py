"""What a change must share with the fact it retires: a change stays in its sentence, an
amount measures a thing both facts name, a status moves on to an outcome of that status, and
a summary of a time is no state.  Each class retired a true fact on personal years written
by people who never read the judge (tune33-40); each test beside keeps a real change of the
same shape superseding.  Wordings are this file's own."""

from __future__ import annotations

import pytest
from judge_pairs import kept, superseded

# -- a change stays within its sentence --------------------------------------------------

def test_what_a_change_left_does_not_run_into_the_next_sentence() -> None:
    assert kept("W @me: Diesel is $1.62 a litre now.",
                "W @me @Ines: Dropped Vitality. We're on the union's health plan now, with a $40 "
                "top-up for both.")


def test_a_change_in_its_own_sentence_still_supersedes() -> None:
    assert superseded("W @me: My health insurance is with Vitality.",
                      "W @me: Dropped Vitality for Bupa. Cheaper for both of us.")


# -- an amount measures a thing both facts name -----------------------------------------

@pytest.mark.parametrize(("old", "new"), [
    ("W @me: Our team retro runs 45 minutes every other Friday.",
     "W @me: The cycle to the office from Leith is 25 minutes now."),
    ("W @me: The flat on Marsh Lane is $1,400/mo plus power.",
     "W @me @Hilux: Truck insurance renewed at $1,150/mo."),
])
def test_two_amounts_of_different_things_are_not_one_slot(old: str, new: str) -> None:
    assert kept(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("W @me: The cycle to the office is 40 minutes.",
     "W @me: The cycle to the office is 25 minutes now."),
    ("W @me: The flat on Marsh Lane is $1,400/mo plus power.",
     "W @me: The Marsh Lane flat went up to $1,520/mo in March."),
])
def test_an_amount_of_the_same_thing_still_supersedes(old: str, new: str) -> None:
    assert superseded(old, new)


# -- a status moves on to an outcome of that status --------------------------------------

@pytest.mark.parametrize(("old", "new"), [
    ("W(until=2025-08-31) @me @Halden: On a three-month probation at Halden until the end of "
     "August.", "B @me @Mira @Parkrun: 24:10 PB; Mira did 23:30 and waited for me at the end."),
    ("W @me @Tele2: Moved my number to Tele2: 20GB plan, 15 euros a month.",
     "B @me @Jonas @Ana: Moving day. Jonas's van plus a trailer, 120 euros. Done by noon."),
    ("W @me @Ravi: Ravi Iyer is my engagement manager on Kestrel.",
     "B @me @KestrelBank: Billing dashboard v2 shipped to Kestrel's finance team."),
])
def test_an_outcome_of_something_else_ends_no_status(old: str, new: str) -> None:
    assert kept(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("W @Ada @Kestrel: Ada is on a three-month trial at Kestrel.",
     "W @Ada @Kestrel: Ada's trial at Kestrel is over; she is permanent now."),
    ("W @me: The grant application is under review at the Wellcome Trust.",
     "B @me: The Wellcome Trust rejected the grant application."),
])
def test_an_outcome_of_the_status_still_supersedes(old: str, new: str) -> None:
    assert superseded(old, new)


# -- a summary of a time is no state ----------------------------------------------------

@pytest.mark.parametrize(("old", "new"), [
    ("W @me @Corsa: My car is a 2019 Vauxhall Corsa, blue, bought for £9,800.",
     "S @me: Spring: new car, boiler fixed, Tom started nursery, Dad's move planned."),
    ("S @me: Spring: new car, boiler fixed, Tom started nursery, Dad's move planned.",
     "W @me: I've stopped going to Thursday choir; evenings fill up with Dad's things."),
])
def test_a_summary_of_a_time_neither_replaces_nor_is_replaced_by_a_state(old: str,
                                                                          new: str) -> None:
    assert kept(old, new)


# -- an end within its sentence, and a "from" that is no value left ----------------------

def test_an_end_does_not_run_into_the_next_sentence() -> None:
    assert kept("W @me @Ana @Rui @Oak-Road: Home is a two-bed flat on Oak Road; I have Ana (11) "
                "and Rui (6) every other week.",
                "B @me: Cancelled Disney+. Nobody watched it apart from Rui rewatching the same "
                "films.")


def test_how_far_from_a_place_is_no_move_away_from_it() -> None:
    assert kept("W @me @Bela: I rent a studio in Bela Vista, Lisbon.",
                "W @me @Bela: Switched gyms: now at Holmes Place in Avenidas, 10 minutes' walk "
                "from Bela Vista.")


def test_a_move_away_from_a_place_still_supersedes() -> None:
    assert superseded("W @me @Bela: I rent a studio in Bela Vista, Lisbon.",
                      "W @me: Moved from Bela Vista to a flat in Campo de Ourique.")


# -- what "runs" names --------------------------------------------------------------------

@pytest.mark.parametrize(("old", "new"), [
    ("W @me @Asana: We run two-week cycles in Asana now instead of sprints.",
     "W @me: Stopped going to pilates; after the half marathon I just run easy and sleep in."),
    ("W @Harbour-Freight: Harbour Freight runs Dundee to Aberdeen and Inverness. Drivers get "
     "60p a mile.",
     "W @me @Harbour-Freight: Runs are Dundee-Aberdeen-Inverness. Out Monday, home Friday "
     "night."),
])
def test_a_thing_run_is_no_platform(old: str, new: str) -> None:
    assert kept(old, new)


def test_a_platform_run_still_supersedes() -> None:
    assert superseded("W @Kite-Team: The Kite team runs Nomad 1.6.",
                      "W @Kite-Team: The Kite team runs Nomad 1.8 now.")


def test_joining_a_gym_for_a_fee_is_no_new_employer() -> None:
    assert kept("W @me @Fenwick: Started at Fenwick Pharmacy today: dispensary manager at the "
                "Didsbury branch.",
                "B @me: Joined PureGym in Didsbury for the rowing machines, £22.99 a month.")


def test_joining_a_firm_still_changes_the_employer() -> None:
    assert superseded("W @me: I work at Fenwick Pharmacy in Didsbury.",
                      "W @me: Joined Boots in Stockport as a pharmacist manager.")
