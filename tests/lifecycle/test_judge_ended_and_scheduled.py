"""Shapes that retired true facts on the read years (benchmarks/data/personal-tune14-48),
weighed through a workspace as a retain weighs them:

- a fact that ended by its own time more than a week before the newer fact's day
  (`ledger.TOLD_END`) is over: the newer fact tells what came later and retires nothing
  ("on antibiotics until 15 April" when "was put to sleep" is written in June), while news
  of the end within the week still supersedes ("he's back up ladders");
- a sale ends what one had or used ("I still drive the Clio"), not what was said of the
  thing ("the Wave's insured with Rivadavia");
- a thing moved to a time of the week is rescheduled, not moved house ("our weekly call
  moved to Saturdays" against "home is now a two-bedroom in Al Nahda");
- a word of status used as something else is no status: "signed up for" enrolled, "after
  the skills assessment" tells an event past, "a construction dispute" is a kind of dispute,
  and works are finished, not delivered ("the kitchen units were delivered" mid-refit);
- a number after a label names one of a series ("Term 1"), not how many;
- two wants of different things are no reversed opinion ("doesn't want Paolo to know" /
  "only wants fare alerts"), where two preferences of one thing are;
- an end kept to some times ends nothing said of other times ("stop coffee after lunch"
  against the first coffee of the morning); a thing handed over is named by its head (a
  secretary job, not the plot at the gardens); an amount moved from an account leaves the
  account;
- a one-word tag written as a noun after a word that qualifies it is the thing, a slot
  ("@Laptop: my work laptop is a MacBook Air now" changes "my laptop is a ThinkPad");
- "Quin's mum, Isabel, lives in Brighton" is Isabel's home, not Quin's;
- "Sofia has replaced Mateusz as third engineer" hands Mateusz's role to Sofia (and
  "replaced Ben as treasurer" nothing of Carl's).

Beside each, the change that must still be made."""

from __future__ import annotations

from pathlib import Path

import pytest

from memfold import Memory

KEPT = [
    ("W(until=2025-04-15) @Biltong: Biltong is on a two-week course of antibiotics for a "
     "bladder infection.",
     "B @Biltong: Biltong was put to sleep at Lakeside this morning; his kidneys had failed."),
    ("W(until=2025-05-20) @Orlagh: Orlagh is on maternity leave from Carey's Pharmacy.",
     "B @Orlagh: Orlagh handed in her notice at Carey's Pharmacy."),
    ("W @Wave: The Wave's insured with Rivadavia, $14.000 a month.",
     "B @me @Wave: Sold the Wave to a kid in Perdriel for $1.300.000."),
    ("W @me @Mama_Lorna: Our weekly call moved to Saturdays, 3pm Dubai time (7pm in "
     "Bacolod).",
     "W @me @Bea: Home is now a two-bedroom in Al Nahda 2 shared with Bea; my room is AED "
     "1,800 a month."),
    ("W @me: My pickleball rating went up to 3.5 after the Brentwood skills assessment.",
     "B @me: Signed up for the Brentwood winter pickleball session with Teo as my "
     "mixed-doubles partner."),
    ("W @Project-Verdun: Lexica assigned me Project Verdun, about 80,000 words of discovery "
     "documents for a construction dispute.",
     "B @Project-Verdun: Delivered the second Project Verdun batch, 20,000 words."),
    ("W @me @Craigpark-House: No kitchen during the refit, so we cook on a two-ring "
     "induction plate in the dining room.",
     "B @Craigpark-House: The kitchen units were delivered flat-packed and filled the whole "
     "hall."),
    ("W @Rangiwai-School: Our four classrooms are the Kōwhai Room, the Harakeke Room, the "
     "Rimu Room and the Tōtara Room.",
     "W @Rangiwai-School: The school roll for Term 1 is 84 children in four classes."),
    ("O(c=0.8) @me @Paolo: Doesn't want Paolo to know exactly how much she earns.",
     "O(c=0.8) @me: Only wants fare alerts for DXB–MNL and MNL–BCD now."),
    ("W @me: I do the crossword every morning with my first coffee.",
     "W @me: Dra. Pinho told me to stop coffee after lunch; my afternoon drink is lemon "
     "verbena tea now."),
    ("W @me @Garden: I've swapped plot 12 for the bigger plot 7 at the community gardens, "
     "nearer the tap.",
     "W @me @Garden: I've handed over the community gardens secretary job to Pat Coombes; I "
     "haven't the time any more."),
    ("W @Carl: Carl is the treasurer.",
     "W @Ana: Ana replaced Ben as treasurer."),
    ("W @Isabel: Quin's mum, Isabel Ferreira, lives in Brighton and minds the kids when "
     "we're stuck.",
     "W @Quin: Quin works from home on Fridays now, so he does the Friday pickups."),
    ("W @me @Emirates-NBD: Salary now goes to my Emirates NBD account; the BPI account just "
     "sits there.",
     "B @me @Emirates-NBD: Set up an automatic AED 1,000 a month from my Emirates NBD current "
     "account into a 3.5% savings account."),
]

CHANGED = [
    ("W(until=2025-05-28) @Ruairi: Ruairí is off ladders for four weeks with a slipped disc.",
     "B @Ruairi: Ruairí's back is grand again and he's back up ladders."),
    ("W @me @Clio: I still drive Joaquim's 2011 Renault Clio, mostly for the school run.",
     "B @me @Clio: Sold the Clio to a young man from Maia for €3,400."),
    ("W(until=2025-07-31) @Ruairi: Ruairí is off ladders with a slipped disc, and his cousin "
     "Ger is covering his jobs.",
     "B @Ruairi: Ruairí's back is grand again and he's back up ladders."),
    ("W @me: Our weekly call is on Sundays.",
     "W @me: Our weekly call moved to Saturdays."),
    ("W @me: The grant application is awaiting assessment.",
     "B @me: The grant application was approved."),
    ("W @Alder-House: Alder House is under construction.",
     "B @Alder-House: Alder House is finished."),
    ("W @me: The kitchen refit is under way.",
     "B @me: The kitchen refit is finished."),
    ("W @Maya: Maya's class is in Room 4.",
     "W @Maya: Maya's class moved to Room 6."),
    ("W @me: I drink coffee after lunch.",
     "W @me: I stopped coffee after lunch."),
    ("W @me: Ana is the club treasurer.",
     "W @me: Ana handed the treasurer role over to Sam."),
    ("W @me: My salary goes to my Monzo account.",
     "B @me: Switched my salary from Monzo to Chase."),
    ("W @Mateusz: Mateusz Nowak is the third engineer on my crew.",
     "W @Sofia: Sofia Eklund has replaced Mateusz as third engineer on my crew."),
    ("W @Priya: Priya's manager is Tom Hale.",
     "W @Priya: Priya's manager is now Sara Obi."),
    ("W @Laptop: My laptop is a ThinkPad T480 the department lent me.",
     "W @Laptop: My work laptop is a MacBook Air M3 now."),
    ("O(c=0.8) @Noah: Noah prefers working late at night.",
     "O(c=0.7) @Noah: Noah says he's become a morning person and prefers to do deep work "
     "before 9am."),
]


def _weighed(workspace: Path, old: str, new: str) -> tuple[str, list[str]]:
    """The older fact's id and the ids the newer fact's retain superseded."""
    with Memory.open(workspace) as memory:
        older = memory.retain(old, date="2025-03-01").facts[0]
        newer = memory.retain(new, date="2025-06-01")
        return older.id, [j.id for j in newer.superseded]


@pytest.mark.parametrize(("old", "new"), KEPT)
def test_what_ended_by_itself_or_was_no_change_is_not_retired(
        workspace: Path, old: str, new: str) -> None:
    older, superseded = _weighed(workspace, old, new)
    assert older not in superseded


@pytest.mark.parametrize(("old", "new"), CHANGED)
def test_the_change_itself_still_supersedes(workspace: Path, old: str, new: str) -> None:
    older, superseded = _weighed(workspace, old, new)
    assert superseded == [older]


def test_an_expired_fact_keeps_its_own_end_and_no_judgement(workspace: Path) -> None:
    """The expired fact is neither superseded nor offered: its status is its own expiry."""
    old, new = KEPT[0]
    with Memory.open(workspace) as memory:
        older = memory.retain(old, date="2025-03-01").facts[0]
        newer = memory.retain(new, date="2025-06-01")
        assert older.id not in [j.id for j in newer.superseded + newer.conflicts]


def test_an_end_at_the_far_edge_of_the_calendar_is_weighed_without_error(
        workspace: Path) -> None:
    """`until=9999-12-31` is a valid end: the week's grace is counted without overflowing."""
    older, superseded = _weighed(workspace, "W(until=9999-12-31) @Sam: Sam lives in Leeds.",
                                 "W @Sam: Sam moved to York.")
    assert superseded == [older]
