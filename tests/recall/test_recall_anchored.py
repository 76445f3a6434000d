"""Recall of a time named by an event or a named day (issue 30): the event's day is read
from the fact that tells of it ("My birthday is 21 June"), and the facts of that time come
first although they share no word with the question."""

from __future__ import annotations

import pytest

from memfold import Memory

NOW = "2025-12-15T09:00:00"
YEAR = [
    ("2025-02-10", "W @me: My birthday is 21 June."),
    ("2025-03-02", "B @me: Ran a slow 10k along the canal."),
    ("2025-06-14", "B @me: Repainted the garden fence."),
    ("2025-06-21", "B @me @Noor: Picnic on the seafront with Noor to celebrate."),
    ("2025-06-22", "B @me: Swam the one-mile lake race in 38 minutes."),
    ("2025-06-26", "W @me: Passed grade 2 cello with a merit."),
    ("2025-08-01", "B @me @Uni: First day at the university; got my lab coat and keys."),
    ("2025-08-05", "B @me: Did the university's fire warden training."),
    ("2025-09-20", "B @me: The university library was shut for a strike."),
    ("2025-11-03", "B @me @Noor: Took Noor out to dinner for her birthday."),
    ("2025-11-01", "B @me @Felix: Took Felix guising round the houses last night."),
    ("2025-02-14", "B @me @Noor: Dinner at Wilks with Noor tonight."),
]


@pytest.fixture
def year(memory: Memory) -> dict[str, str]:
    ids = {}
    for day, bullet in sorted(YEAR):
        [fact] = memory.retain([bullet], date=day, now=f"{day}T10:00:00").facts
        ids[bullet.split(": ", 1)[1]] = fact.id
    return ids


def top(memory: Memory, query: str, k: int = 3) -> list[str]:
    return [h.fact.content for h in memory.recall(query, now=NOW, k=k).hits]


def test_around_my_birthday_finds_what_happened_then(memory: Memory,
                                                     year: dict[str, str]) -> None:
    found = top(memory, "What was I doing around my birthday?")
    assert set(found[:2]) == {"Picnic on the seafront with Noor to celebrate.",
                              "Swam the one-mile lake race in 38 minutes."}
    notes = memory.recall("What was I doing around my birthday?", now=NOW).notes
    assert any("my birthday" in n and "2025-06-18 to 2025-06-24" in n for n in notes)


def test_the_week_after_an_event(memory: Memory, year: dict[str, str]) -> None:
    found = top(memory, "What happened the week after my birthday?")
    assert set(found[:2]) == {"Swam the one-mile lake race in 38 minutes.",
                              "Passed grade 2 cello with a merit."}


def test_my_first_week_at_a_place_starts_at_the_fact_that_begins_it(
        memory: Memory, year: dict[str, str]) -> None:
    found = top(memory, "What did I do in my first week at the university?")
    assert sorted(found) == [  # not the strike in September, which says "university" too
        "Did the university's fire warden training.",
        "First day at the university; got my lab coat and keys."]


def test_an_event_beside_other_words_names_no_window(memory: Memory,
                                                    year: dict[str, str]) -> None:
    """"How far did I swim after my birthday?" asks about the swim: the question stays as it
    was (a window would turn off what recall does for questions about now)."""
    result = memory.recall("How far did I swim after my birthday?", now=NOW)
    assert result.window is None
    assert not any("read as the day of" in n for n in result.notes)


def test_an_event_no_fact_tells_of_is_searched_as_words(memory: Memory,
                                                        year: dict[str, str]) -> None:
    result = memory.recall("What did I do after the divorce?", now=NOW)
    assert not any("read as the day of" in n for n in result.notes)
    assert result.window is None  # no window from an event no fact tells of
    # the same shape, with an event a fact tells of, is read as its day
    told = memory.recall("What did I do after my birthday?", now=NOW)
    assert told.window is not None and any("read as the day of" in n for n in told.notes)


def test_a_named_day_finds_the_fact_told_that_night_or_the_next_morning(
        memory: Memory, year: dict[str, str]) -> None:
    assert top(memory, "What did we do at Halloween?", k=1) == [
        "Took Felix guising round the houses last night."]
    assert top(memory, "Where did we go for Valentine's Day?", k=1) == [
        "Dinner at Wilks with Noor tonight."]


def test_when_did_finds_an_event_faded_by_decay(memory: Memory) -> None:
    """An experience faded by decay is the answer to a question asking when it happened,
    above newer active facts on its subject (a faded fact otherwise ranks below them)."""
    for day, bullet in [
        ("2025-07-22", "B @me: Signed up for the Cardiff Half Marathon on 5 October."),
        ("2025-10-03", "B @me: Picked up my race number for the Cardiff Half."),
        ("2025-11-20", "W @me: I'd like to sign up for another half marathon next spring."),
    ]:
        memory.retain([bullet], date=day, now=f"{day}T10:00:00")
    [hit] = memory.recall("When did I sign up for the Cardiff Half?", now=NOW, k=1).hits
    assert hit.fact.content == "Signed up for the Cardiff Half Marathon on 5 October."
    assert hit.status == "archived"
