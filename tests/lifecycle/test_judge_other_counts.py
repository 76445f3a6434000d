"""Words and numbers two facts share that are no value of one state: a number word that ends
a name ("the Harbour Five"), a product's name before a business's head noun ("Pixel
Bakery"), a part of a count ("the first 300 customers"), a change by an amount ("down 4 kg"),
those who did something ("1,800 customers have joined"), a limit set on an amount ("no more
than £950"), another named thing's size, a new time for a thing the older fact gives none
of, a part of the thing ("the Jazz's gearbox"), a value named only as when a state began
("since starting"), an interim word that names an event ("the beta launch") or what was
talked about ("rang Dad about the offer"), and an outcome with an object of its own ("passed
grade 3 piano").  Each retired a true fact of a personal year; the real changes beside them
are still taken."""

from __future__ import annotations

import pytest
from judge_pairs import superseded

KEPT = [
    ("W @me: I'm taking a break from the Harbour Five until after the festival season.",
     "S @me: Six festivals in three weekends; worn out."),
    ("W @me: My phone is now a Samsung Galaxy S23.",
     "W @me: Pixel Bakery does the cakes for our café now, at £40 a dozen."),
    ("W @Project-Harbour: The Harbour pilot has 1,800 customers.",
     "B @Project-Harbour: The Harbour pilot opened to the first 300 customers."),
    ("W @me: Down 4 kg since I took up rowing.", "W @me: I'm down to 81 kg."),
    ("W @Project-Harbour: 1,800 customers have joined the waitlist for the Harbour app.",
     "W @Project-Harbour: The staff meeting heard that the Harbour app has 6,000 customers."),
    ("W @me: Our rent in Leith is £1,100 a month.",
     "W @me: Jonas and I agreed to spend no more than £950 a month on rent in Dundee."),
    ("W @me: Our rent in Dundee is £950 a month.",
     "W @me: My violin teacher in Dundee is Ewa Nowak, Friday mornings, £32 a lesson."),
    ("W @me: My main saw is a Bahco ProfCut, 550 mm, from my first year as a joiner.",
     "B @me: Bought a 600 mm Irwin Jack saw for the site work."),
    ("W @Tomasz: Tomasz is from Gdańsk and charges £30 a lesson.",
     "W @Tomasz: Tomasz moved my piano lessons from Wednesday to Thursday mornings."),
    ("W @me: We have a 2016 Honda Jazz; I drive it to the station.",
     "B @me: The garage replaced the Jazz's gearbox for £900."),
    ("W @me: Down 4 kg since starting intermittent fasting.",
     "W @me: Switched from intermittent fasting to three meals a day."),
    ("W @me: Our broadband provider is Sky.", "B @me: Switched our gas supplier to British Gas."),
    ("W @Project-Harbour: The Harbour beta launch slipped from March to May because of PCI "
     "integration delays.", "B @Project-Harbour: Harbour passed its PCI DSS assessment."),
    ("S @me: Called Dad and Ines and Tomas about the Northwind offer; Dad cried.",
     "B @me: Finished OPC, my officer training, at Dartmouth."),
    ("W @me: I'm on the waiting list for a plot at the Hillside allotments.",
     "B @me: Passed grade 3 piano with a distinction."),
]

CHANGED = [
    ("W @me: I weigh 90 kg.", "W @me: I'm down to 86 kg."),
    ("W @Tomasz: Tomasz charges £30 a lesson.", "W @Tomasz: Tomasz charges £34 a lesson now."),
    ("W @me: My phone is a Google Pixel 7.",
     "B @me: Replaced the Pixel 7 with an iPhone 15 because the battery died."),
    ("W @me: Our rent in Leith is £1,100 a month.", "W @me: Our rent in Leith went up to £1,180."),
    ("W @me: I have the Canon 24-70 for receptions.",
     "B @me: Sold the Canon 24-70 and bought a Sigma 28-70."),
    ("W @me: We drive a 2016 Honda Jazz.", "B @me: Sold the Honda Jazz to a dealer in Perth."),
    ("W @Project-Harbour: Harbour is in beta.", "W @Project-Harbour: Harbour is out of beta now."),
    ("W @me: I'm on a low-carb diet.", "W @me: Switched from low-carb to a Mediterranean diet."),
]


@pytest.mark.parametrize(("old", "new"), KEPT)
def test_a_count_or_a_word_of_another_thing_retires_nothing(old: str, new: str) -> None:
    assert not superseded(old, new)


@pytest.mark.parametrize(("old", "new"), CHANGED)
def test_the_real_changes_beside_them_still_supersede(old: str, new: str) -> None:
    assert superseded(old, new)
