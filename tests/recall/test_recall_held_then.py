"""A question about what held at a time ("what phone did I have in the spring?", "what was my
rent back in February?"): an experience written at another time tells of that time, as a state
that did not hold then does (`scoring._told_apart`), and a fact that looks ahead names the
next date it gives, not the last ("From 1 April the rent goes up", written on 28 March;
`scoring.said_time`)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from timeline import ids, retain

from memfold import Memory
from memfold.recall.scoring import said_time
from memfold.values import Interval

NOW = "2025-12-01T09:00:00"


def test_an_experience_written_at_another_time_tells_of_it(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        phone = retain(memory, "2025-01-08", "W @Phone: My phone is a Samsung Galaxy A52 I "
                                             "bought second-hand in 2023.")
        retain(memory, "2025-02-18", "B @Phone: Dropped my phone on the tram and cracked the "
                                     "screen.")
        retain(memory, "2025-06-22", "B @Phone: The phone's battery started swelling.")
        spring = ids(memory.recall("What phone did I have in the spring?", now=NOW))
        assert spring[0] == phone
        # one told in that time is of it
        told = retain(memory, "2025-04-12", "B @Phone: Lost the phone at the climbing gym; "
                                            "found it the next day.")
        assert told in ids(memory.recall("What happened to my phone in the spring?",
                                         now=NOW))[:1]


def test_a_fact_that_looks_ahead_names_the_next_date() -> None:
    assert said_time("From 1 April the flat's rent goes up to 10,150 DKK a month.",
                     date(2025, 3, 28)) == Interval(date(2025, 4, 1), date(2026, 3, 27))
    assert said_time("The rent will go up to $3,750 a month starting May 1.",
                     date(2025, 3, 3)) == Interval(date(2025, 5, 1), date(2025, 5, 1))
    # told of as past, it is the last one
    assert said_time("Moved in on 3 March.", date(2025, 3, 10)) == Interval(
        date(2025, 3, 3), date(2025, 3, 3))
    assert said_time("Got the keys on 1 April.", date(2025, 5, 2)) == Interval(
        date(2025, 4, 1), date(2025, 4, 1))


def test_the_rent_then_is_not_the_rise_announced_for_later(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        rent = retain(memory, "2025-01-05", "W @me: The rent for the flat is 9,800 DKK a month "
                                            "including heating.")
        rise = retain(memory, "2025-03-28", "W @me: From 1 April the flat's rent goes up to "
                                            "10,150 DKK a month.")
        assert ids(memory.recall("What was my rent back in February?", now=NOW))[0] == rent
        assert ids(memory.recall("What was my rent in May?", now=NOW))[0] == rise
