"""A supersede made by itself needs the thing it says changed to be the same thing in both
facts (judge/about.py, judge/aliases.py; docs/format.md, "The same thing in both facts").
Each class was seen retiring a true fact on a year of memory written by a person; each
test beside it keeps a real change of the same shape superseding.  Wordings are this
file's own."""

from __future__ import annotations

import pytest
from judge_pairs import superseded, verdicts


def offered_or_kept(old: str, new: str) -> bool:
    """The older fact stays active: no supersede, at most a conflict offered."""
    return not superseded(old, new)


# -- amounts ------------------------------------------------------------------------------

@pytest.mark.parametrize(("old", "new"), [
    # written currencies are money, before or after the amount, with a scale word too
    ("W @me: Netflix costs me KSh 1,100 a month.", "W @me: My rent is KSh 38,000 a month."),
    ("W @me: The gym is 1,050 zł a month.", "W @me: My phone plan is 60 zł a month."),
    ("W @me: My scooter rental is 1.8 million dong a month.",
     "W @me: The electricity bill was 900,000 dong."),
    # another thing's amount, though both name the same car or place
    ("W @Car: Insurance on the Golf is $96 a month.",
     "B @Car: New brake pads on the Golf: $240 at the garage."),
    ("W @me: The water bill at the Elm Street flat is about $60 a month.",
     "W @me: The gas bill at the Elm Street flat is about $85 a month."),
    # what a tag owns is not the thing: "the van's" belt, not its insurance
    ("W @Van: The van's insurance is $1,200 a year.",
     "B @Van: Had the van's clutch replaced for $1,350."),
    # two kinds of one thing
    ("W @me: The car loan payment is $310 a month.",
     "W @me: The student loan payment is $190 a month."),
    ("W @me: Home insurance with Aviva is £410 a year.",
     "W @me: Car insurance with Aviva is £530 a year."),
    # a bound is no value; a total for a year is an event
    ("W @me: Diesel in town went up to $1.92 a litre.",
     "O @me: The truck costs a fortune now that diesel is over $1.90."),
    ("W @Shop: A jar of the lavender balm sells for $14.",
     "B @Shop: The shop made about $31,000 in sales in 2025."),
    # "a month before tax" says nothing of a tax
    ("W @me: Council tax on the house is £140 a month.",
     "W @me: My salary is now £3,900 a month before tax."),
    # a flat is not a home internet, though the lexicon reads both as a home
    ("W @me: The Oak Lane flat is $1,900 a month.", "W @me: Our home internet is $55 a month."),
])
def test_an_amount_of_another_thing_is_not_replaced(old: str, new: str) -> None:
    assert offered_or_kept(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("W @me: My rent is KSh 32,000 a month.", "W @me: My rent went up to KSh 35,000 a month."),
    ("W @me: My salary is 7,400 zł a month.", "W @me: My salary went up to 8,100 zł a month."),
    ("W @me: I pay $1,300 a month in rent for the flat.",
     "W @me: The rent on the flat went up to $1,380 a month."),
    ("W @Gym: My climbing gym membership is $70 a month.",
     "B @Gym: The gym raised its monthly membership fee to $76 from May."),
    ("W @me: My usual fee for a wedding set is $900.",
     "B @me: Put my wedding set fee up to $1,000 from spring."),
])
def test_an_amount_of_the_same_thing_still_supersedes(old: str, new: str) -> None:
    assert superseded(old, new)


# -- values -------------------------------------------------------------------------------

@pytest.mark.parametrize(("old", "new"), [
    # a name alone is no slot: two descriptions of one person
    ("W @Rosa: Rosa is a paramedic with the county service.",
     "W @Rosa: Rosa is allergic to penicillin."),
    # an event that befell someone is not what they are
    ("W @Rosa: Rosa is a paramedic with the county service.",
     "B @Rosa: Rosa was offered a desk job at the dispatch centre."),
    # a judgement is no value of a slot
    ("O @me @Ilse: Ilse is a tough manager but a fair one.",
     "O @me @Ilse: Ilse was the best manager I've had."),
    # two years: two periods' figures
    ("W @me: Property tax on the cabin was $2,900 for 2024.",
     "W @me: The 2025 property tax bill for the cabin came to $3,050."),
    # a condition is not what a thing is
    ("W @Phone: My phone is a Pixel 8.",
     "S @Phone: The Pixel's case split, but the phone itself is fine."),
    # a value the older fact already gives, said more broadly, restates it
    ("W @me: I live in a rented studio in Fitzroy, Melbourne, Australia.",
     "W @me: I'm a 29-year-old designer from Leeds, and I've been living in Australia since "
     "2021."),
    # a new value that still names the old one adds to it
    ("W @me @Harbor: I've joined Harbor's support rotation.",
     "W @me: I work for two clients now: Harbor and Lumen."),
    # a slot the older fact does not name, or owns only
    ("W @Gil: Gil is my cousin; he's a plumber in Leeds.",
     "B @me: Barbecue at Gil's in Leeds; I brought the salad."),
    ("W @Shop: The shop is open 9 to 5 on weekdays.",
     "W @Shop: The shop's fire insurance is with Zurich at $1,800 a year."),
    # said of oneself and of someone named, though both tag @me
    ("O @me @Ilse: Ilse is a demanding manager.",
     "W @me @Kestrel: I work as a data engineer at Kestrel Labs."),
])
def test_a_value_of_another_slot_is_not_replaced(old: str, new: str) -> None:
    assert offered_or_kept(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("W @Phone: My phone is a Nokia G42.", "W @Phone: My phone is a Motorola Edge 50."),
    ("W @Rosa: Rosa is a paramedic with the county service.",
     "W @Rosa: Rosa is a firefighter now."),
    ("W @Ilse: Ilse is a junior analyst at Corvid.",
     "W @Ilse: Ilse was promoted to senior analyst at Corvid."),
    ("W @Car: My car is a 2011 Mazda 3 with 190,000 km on it.",
     "W @Car: My car is a 2020 Kia Niro."),
])
def test_a_value_of_the_same_slot_still_supersedes(old: str, new: str) -> None:
    assert superseded(old, new)


# -- ends ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("old", "new"), [
    # the doer of an end that names what it left did not end
    ("W @Lena: Lena's birthday is 4 October.", "B @Lena: Lena moved out of the Dock Street flat."),
    # a parting ends the bond, not all else of the one named
    ("W @Mia: Mia plays cello in the school orchestra.", "B @Mia: Mia and Theo broke up."),
    # an accident, a fall to a new amount, sales of some, some of a kind leaving
    ("W @Phone: My phone is a Galaxy S23.",
     "B @Phone: Dropped the Galaxy S23 on the tiles and cracked the screen."),
    ("W @Car: The Leaf gets about 240 km on a charge in summer.",
     "S @Car: In the cold the Leaf's range dropped to about 180 km."),
    ("W @Dad: Dad repairs old radios and sells them at the market.",
     "B @Dad: Dad sold a 1950s Bakelite radio for $300."),
    ("W @me: I'm a staff nurse on the cardiac ward.",
     "B @me: Two staff nurses left the cardiac ward, so the rota changed."),
    # a view on a thing is not a state its end retires
    ("O @me: I'm losing patience with the old Corolla.",
     "B @Car: Sold the Corolla to a neighbour."),
    # a sold thing that only owns what the older fact is about
    ("W @me: The bakery's rent is now $2,900 a month.",
     "B @Ruth: Ruth sold the flower shop next to the bakery."),
])
def test_an_end_of_something_else_retires_nothing(old: str, new: str) -> None:
    assert offered_or_kept(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("W @Lena: Lena shares a flat on Dock Street with two friends.",
     "B @Lena: Lena moved out of the Dock Street flat."),
    ("W @Mia: Mia is dating Theo.", "B @Mia: Mia and Theo broke up."),
    ("W @Car: I drive a 2009 Corolla.", "B @Car: Sold the Corolla to a neighbour."),
])
def test_a_real_end_still_supersedes(old: str, new: str) -> None:
    assert superseded(old, new)


# -- moves and changes --------------------------------------------------------------------

@pytest.mark.parametrize(("old", "new"), [
    # a choice made each time, a trip's return, a repair under warranty
    ("W @me: I drive to the office in Dartmouth.",
     "W @me: I take the train to the city on Saturdays instead of driving."),
    ("W @me: I rent a flat on Quay Street in Cork.",
     "B @me: Priced flights to Lisbon: about €240 return from Cork."),
    ("W @Phone: My phone is a Pixel 8.", "B @Phone: Google replaced the Pixel under warranty."),
    # a view that judges a place is not left by a move
    ("O @me: The harbour walk is the best thing about living in Oban.",
     "B @me: The removal van took our things from Oban to Inverness."),
    # the value a change says was left must be the older fact's
    ("W @me @Tessel: Tessel pays my invoices in dollars into my bank account.",
     "B @me @Tessel: Moved the Tessel contract off Upwork to direct invoicing."),
    # the thing goes on
    ("B @me: Cancelled Vodafone broadband and moved to Sky broadband at £30 a month.",
     "B @me: Moved my Sky broadband to the new flat; still £30 a month."),
    # talking about it is a plan
    ("W @Jo: Jo's husband, Ray, is a carpenter.",
     "O @Jo: Jo and Ray are talking about moving back to Cornwall."),
])
def test_what_is_no_move_or_change_retires_nothing(old: str, new: str) -> None:
    assert offered_or_kept(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("W @me: I drive to the office in Dartmouth.",
     "W @me: I take the ferry to the office now instead of driving."),
    ("W @Club: The club meets at the Anchor pub.",
     "W @Club: From March, the club meets at the library instead of the Anchor pub."),
    ("W @Phone: My phone is a Pixel 8.", "B @Phone: Replaced the Pixel 8 with an iPhone 16."),
    ("O @Nils: Nils would rather play the piano than the organ.",
     "W @Nils: Nils switched from piano to organ this term."),
])
def test_a_real_move_or_change_still_supersedes(old: str, new: str) -> None:
    assert superseded(old, new)


def test_a_change_of_mind_is_about_what_it_names() -> None:
    assert offered_or_kept("O @me: The new awning was worth it; customers sit outside longer.",
                           "O @me: I've come around on e-scooters; the customers love them.")


def test_another_of_a_things_kind_is_offered() -> None:
    found = verdicts("W @me: We keep $9,000 in a Marcus savings account.",
                     "W @me: Our household account moved to Monzo.")
    assert found and not any(v.supersedes for v in found)


@pytest.mark.parametrize(("old", "new"), [
    # a time away is no end
    ("W @me @Jonas: Jonas and I are dating.",
     "B @me @Jonas: Jonas left on a two-week survey voyage."),
    ("W @me: My Italian class is on Thursday evenings.",
     "B @me: Italian class ended for the term; I passed the A2 test."),
    # a part replaced on a thing is a repair
    ("W @Van: The van is insured with Aviva for £900 a year.",
     "B @Van: Clutch replaced on the van at the garage, £650."),
    # an end of what the older fact already said it left
    ("W @Rhian: Rhian replaced the Fiesta with a 2021 Kia Ceed.",
     "B @Rhian: Sold the old Fiesta to a neighbour for £900."),
    # two bills are two periods' records
    ("W @me: The gas bill was £140 for the last two months.",
     "W @me: Gas bill was £118 for May–June."),
    # a look back on a choice
    ("O @me: The Kangoo is nicer to drive than the Transit.",
     "O @me: I'm starting to regret buying the Kangoo instead of another Transit."),
    # sols are money: a salary is not a washing machine
    ("W @me: My salary is S/ 9,800 a month.", "B @me: Paid S/ 1,100 for a new fridge."),
])
def test_a_time_away_a_repair_or_a_record_retires_nothing(old: str, new: str) -> None:
    assert offered_or_kept(old, new)
