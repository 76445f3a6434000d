"""Days people name instead of dating them, and times named by an event (issue 30)."""

from __future__ import annotations

from datetime import date

import pytest

from memfold.times.anchors import anchor_window, asks_when, find_anchor
from memfold.times.days import easter_sunday
from memfold.times.parse import find_time_phrase
from memfold.values import Interval

TODAY = date(2025, 12, 15)


def window(text: str, today: date = TODAY) -> tuple[date | None, date | None] | None:
    found = find_time_phrase(text, today=today)
    return (found[0].start, found[0].end) if found else None


def day(iso: str) -> tuple[date, date]:
    d = date.fromisoformat(iso)
    return d, d


@pytest.mark.parametrize(("text", "expected"), [
    ("Where did we go for Valentine's Day?", day("2025-02-14")),
    ("What did we do at Halloween?", day("2025-10-31")),
    ("Bonfire Night 2024", day("2024-11-05")),
    ("what did I eat on St Patrick's Day", day("2025-03-17")),
    ("what did I do on St. Patrick's Day", day("2025-03-17")),
    ("Thanksgiving", day("2025-11-27")),  # the fourth Thursday of November
    ("Easter Sunday 2024", day("2024-03-31")),
    ("over Easter", (date(2025, 4, 18), date(2025, 4, 21))),  # Good Friday to Easter Monday
    ("What did we do in the October holidays?", (date(2025, 10, 1), date(2025, 10, 31))),
    ("What did we do over May half-term?", (date(2025, 5, 1), date(2025, 5, 31))),
    ("what did I eat last night", day("2025-12-14")),
    ("Who was my manager over the summer?", (date(2025, 6, 1), date(2025, 8, 31))),
])
def test_named_days_are_times(text: str, expected: tuple[date, date]) -> None:
    assert window(text) == expected


def test_a_named_day_not_yet_come_this_year_is_last_years() -> None:
    assert window("at Halloween", today=date(2025, 6, 1)) == day("2024-10-31")


def test_a_fact_told_the_next_morning_says_the_night_before() -> None:
    assert window("We took Felix guising round the houses last night.",
                  today=date(2025, 11, 1)) == day("2025-10-31")


def test_easter_sunday_by_the_computus() -> None:
    assert [easter_sunday(y) for y in (2024, 2025, 2026)] == [
        date(2024, 3, 31), date(2025, 4, 20), date(2026, 4, 5)]


def test_may_and_march_written_as_verbs_are_no_month_break() -> None:
    """"may break", "march break" in lower case are a verb and a noun, not a month's
    break; "the may half-term" is one."""
    assert window("the old vase may break") is None
    assert window("they march break the ice") is None
    assert window("the may half-term") == (date(2025, 5, 1), date(2025, 5, 31))


def test_ordinary_words_are_no_named_days() -> None:
    assert window("may I ask about the bank") is None
    assert window("Felix's last day at school") is None


@pytest.mark.parametrize(("text", "side", "days", "event"), [
    ("What was I doing around my birthday?", "around", 0, ("my", "birthday")),
    ("What happened in the weeks before the move?", "before", 28, ("the", "move")),
    ("What did I do the weekend after Mum's fall?", "after", -1, ("Mum's", "fall")),
    ("What did I do in my first week at the university?", "first", 7,
     ("the", "university")),
    ("Which school did Felix go to before we moved?", "before", 0, ("we", "moved")),
    ("since I started the new job", "since", 0, ("I", "started", "the", "new", "job")),
])
def test_a_time_named_by_an_event(text: str, side: str, days: int,
                                  event: tuple[str, ...]) -> None:
    anchor = find_anchor(text)
    assert anchor is not None
    assert (anchor.side, anchor.days, anchor.event) == (side, days, event)


@pytest.mark.parametrize("text", [
    "Did I pass my cello exam before or after we moved?",  # an order, no window
    "what did I do after work",  # no event named
    "what do I do before the weekend",  # a time, not an event
    "What does Gina say about the grand opening?",  # a topic, not a time
    "Who looks after Siobhan's teeth now?",  # a verb, not a time
    "Who looked after the cat while we were abroad?",
])
def test_no_event_named(text: str) -> None:
    assert find_anchor(text) is None


def test_how_long_between_two_events_asks_for_the_event_too() -> None:
    anchor = find_anchor("How long after the move did I start the new job?")
    assert anchor is not None and anchor.asked and anchor.event == ("the", "move")
    anchor = find_anchor("What happened after the move?")
    assert anchor is not None and not anchor.asked


@pytest.mark.parametrize(("text", "expected"), [
    ("around my birthday", (date(2025, 6, 18), date(2025, 6, 24))),
    ("the week after my birthday", (date(2025, 6, 22), date(2025, 6, 28))),
    ("in the weeks before my birthday", (date(2025, 5, 24), date(2025, 6, 20))),
    ("my first week at the lab", (date(2025, 6, 21), date(2025, 6, 27))),
    ("the weekend after my birthday", (date(2025, 6, 28), date(2025, 6, 29))),
    ("since my birthday", (date(2025, 6, 21), TODAY)),
    ("before my birthday", (None, date(2025, 6, 21))),  # the day itself too
    ("after my birthday", (date(2025, 6, 21), TODAY)),
])
def test_the_window_an_event_names(text: str, expected: tuple[date | None, date]) -> None:
    anchor = find_anchor(text)
    assert anchor is not None
    found = anchor_window(anchor, Interval(date(2025, 6, 21), date(2025, 6, 21)), TODAY)
    assert found is not None and (found.start, found.end) == expected


@pytest.mark.parametrize(("text", "asks"), [
    ("When did I sign up for the Cardiff Half?", True),
    ("What day was the wedding?", True),
    ("How long ago did I get the Yaris?", True),
    ("When is our Edinburgh trip?", False),  # a plan or a date
    ("When did I last see Dee?", False),  # the latest: recency, which decay weighs
])
def test_a_question_asking_when_something_happened(text: str, asks: bool) -> None:
    assert asks_when(text) is asks
