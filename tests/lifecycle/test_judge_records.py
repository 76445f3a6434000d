"""Records of a time, the amount one event came to, and a word that only qualifies what
ended: supersedes each class made on a year of memory written by a person (personal years
tune14-32), where the older fact stayed true.  Each test beside them keeps a real change of
the same shape superseding.  Wordings are this file's own."""

from __future__ import annotations

import pytest
from judge_pairs import kept, superseded

# -- two observations, each of its own time ----------------------------------------------

@pytest.mark.parametrize(("old", "new"), [
    ("S @Potting-Shed: May brought 18 commissions and about 900 euros.",
     "S @Potting-Shed: June had 26 commissions and about 1,300 euros in sales."),
    ("S @me: Harvest so far: about 3 tonnes of apples from the top orchard.",
     "S @me: Harvest's finished: 4.2 tonnes of apples from the top orchard."),
])
def test_a_summary_does_not_replace_the_summary_before_it(old: str, new: str) -> None:
    assert kept(old, new)


def test_an_observed_status_that_moved_on_still_supersedes() -> None:
    assert superseded("S @Quayside: Quayside's Android build 3.1 is waiting on Play Store review.",
                      "W @Quayside: Quayside 3.1 was approved and is live on the Play Store.")


# -- what one event came to --------------------------------------------------------------

@pytest.mark.parametrize(("old", "new"), [
    ("W @House: The cottage on Mill Lane is listed at £285,000.",
     "B @House: Put in an offer of £270,000 for the Mill Lane cottage."),
    ("W @me: My mortgage with Nationwide is £180,000 over 25 years.",
     "B @me: The first mortgage payment of £1,020 went out to Nationwide."),
    ("W @me: My rent on the Quay Street flat is £900 a month.",
     "B @me: Hired a van from a place on Quay Street for £95 a day for the move."),
    ("W @me: I teach for three hours every weekday afternoon.",
     "B @me: Taught for seven hours straight at the summer school and lost my voice."),
])
def test_an_amount_an_event_came_to_does_not_replace_a_standing_one(old: str, new: str) -> None:
    assert kept(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("W @Car: Road tax on the Fabia is £190 a year, due in June.",
     "B @Car: Renewed the Fabia's road tax; it's gone up to £210."),
    ("W @me: A loaf at the Crumb bakery is £3.40.", "B @me: Crumb put the loaf up to £3.80."),
])
def test_an_event_that_tells_a_standing_amount_changed_still_supersedes(old: str,
                                                                        new: str) -> None:
    assert superseded(old, new)


# -- a word that only qualifies what ended -------------------------------------------------

@pytest.mark.parametrize(("old", "new"), [
    ("W @me: I read on the tram to work most mornings.",
     "B @me: Cancelled my monthly tram pass and pay per ride with my bank card now."),
    ("W @me: My canoe is a green Old Town Discovery I bought in 2019.",
     "W @me: I left the Riverside canoe club and joined the Weir Paddlers, 60 euros a year."),
])
def test_ending_a_thing_a_word_only_qualifies_keeps_the_fact_on_that_word(old: str,
                                                                         new: str) -> None:
    assert kept(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("W @me: I do yoga at Lotus Studio on Mondays.",
     "B @me: Cancelled my Lotus Studio membership; Mondays clash with the new shift."),
    ("W @Aled: Aled works as a fire service paramedic in Bangor.",
     "W @Aled: Aled has left the fire service and works at the 999 control room in Caernarfon."),
    ("W @me: I sing tenor in the cathedral choir on Friday evenings.",
     "B @me: Quit the cathedral choir; Friday rehearsals clash with my night classes."),
    ("W @Efa: Efa swims at the Splott Road Baths every Tuesday and Friday.",
     "B @Efa: The Splott Road pool shut for repairs, so Efa took up spin classes on those days."),
    ("W @Rhys: Rhys lives in a flat in Splott.",
     "W @Rhys: Rhys has moved to Bristol for good and gave up the Splott flat."),
])
def test_ending_the_thing_itself_or_ones_tie_to_it_still_supersedes(old: str, new: str) -> None:
    assert superseded(old, new)


def test_selling_one_of_many_is_no_end() -> None:
    assert kept("W @Gran: Gran restores antique music boxes in her shed.",
                "B @Gran: Gran sold a Swiss cylinder music box for £2,400.")


# -- a repair, a time away, a record of one period, a view said with weight ---------------

def test_a_repair_somewhere_is_no_move() -> None:
    assert kept("W @me: I'm renting a room in Stromness for the dig season at £400 a month.",
                "B @me: Had the Vespa's back tyre replaced in Stromness, £80.")


def test_a_repair_of_what_was_broken_still_supersedes() -> None:
    assert superseded("W @me: My laptop's screen is cracked; the shop quoted £240.",
                      "B @me: Had the laptop screen replaced at a repair shop in town for £210.")


def test_closing_early_is_no_end() -> None:
    assert kept("W @me: The stall is by the harbour steps in Tenby.",
                "B @me: It rained all morning, so I closed the stall early twice this week.")


def test_a_record_of_one_period_is_not_replaced() -> None:
    assert kept("W @me: The March gas bill for the flat was £96 from Ovo.",
                "W @me: I've switched gas supplier from Ovo to Octopus for a cheaper tariff.")


def test_a_view_said_with_actually_is_no_correction() -> None:
    assert kept("O(c=0.8) @me: Early shifts on the ward wear me out more than anything.",
                "O(c=0.7) @me: I actually prefer long day shifts to the early shifts on the ward.")
