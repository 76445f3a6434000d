"""Reading times: --since/--until SPECs (`parse_spec`) and time phrases in queries
(`find_time_phrase`).  Everything is relative to a fixed `today`; nothing reads the clock."""

from __future__ import annotations

import re
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memfold.times.parse import (
    SPEC_FORMS,
    TimeSpecError,
    find_time_phrase,
    parse_spec,
    unread_time_phrase,
)
from memfold.values import Interval

WED = date(2025, 12, 3)  # a Wednesday; Monday of its week is 2025-12-01


def d(text: str) -> date:
    return date.fromisoformat(text)


def iv(start: str | None, end: str | None) -> Interval:
    return Interval(d(start) if start else None, d(end) if end else None)


def phrase(query: str, today: date = WED) -> Interval | None:
    found = find_time_phrase(query, today=today)
    return found[0] if found else None


def phrase_and_text(query: str) -> tuple[Interval, str]:
    """The time phrase found in `query` and the text its span covers."""
    found = find_time_phrase(query, today=WED)
    assert found is not None
    interval, (start, end) = found
    return interval, query[start:end].strip()


def unread(query: str) -> str | None:
    found = find_time_phrase(query, today=WED)
    return unread_time_phrase(query, read=found[1] if found else None)


# -- parse_spec: every SPEC form ----------------------------------------------------------------


@pytest.mark.parametrize(("spec", "expected"), [
    ("30d", iv("2025-11-03", "2025-12-03")),
    ("0d", iv("2025-12-03", "2025-12-03")),
    ("1d", iv("2025-12-02", "2025-12-03")),
    ("2w", iv("2025-11-19", "2025-12-03")),
    ("6m", iv("2025-06-03", "2025-12-03")),
    ("1y", iv("2024-12-03", "2025-12-03")),
    ("30 d", iv("2025-11-03", "2025-12-03")),
    ("30D", iv("2025-11-03", "2025-12-03")),
    ("2025-11-27", iv("2025-11-27", "2025-11-27")),
    ("2025-11", iv("2025-11-01", "2025-11-30")),
    ("2024-02", iv("2024-02-01", "2024-02-29")),
    ("2025-12", iv("2025-12-01", "2025-12-31")),
    ("9999-12", iv("9999-12-01", "9999-12-31")),
    ("2025", iv("2025-01-01", "2025-12-31")),
    ("today", iv("2025-12-03", "2025-12-03")),
    ("yesterday", iv("2025-12-02", "2025-12-02")),
    ("this week", iv("2025-12-01", "2025-12-03")),
    ("last week", iv("2025-11-24", "2025-11-30")),
    ("this month", iv("2025-12-01", "2025-12-03")),
    ("last month", iv("2025-11-01", "2025-11-30")),
    ("this year", iv("2025-01-01", "2025-12-03")),
    ("last year", iv("2024-01-01", "2024-12-31")),
    ("monday", iv("2025-12-01", "2025-12-01")),
    ("wednesday", iv("2025-12-03", "2025-12-03")),  # today's weekday is today
    ("thursday", iv("2025-11-27", "2025-11-27")),  # the latest Thursday, last week
    ("sunday", iv("2025-11-30", "2025-11-30")),
])
def test_every_spec_form(spec: str, expected: Interval) -> None:
    assert parse_spec(spec, today=WED) == expected


@pytest.mark.parametrize("spec", ["Last Week", "  last   week ", "LAST WEEK", "\tlast week\n"])
def test_specs_ignore_case_and_spacing(spec: str) -> None:
    assert parse_spec(spec, today=WED) == iv("2025-11-24", "2025-11-30")


@pytest.mark.parametrize(("spec", "expected"), [
    ("nov 27", iv("2025-11-27", "2025-11-27")),
    ("november 2025", iv("2025-11-01", "2025-11-30")),
    ("around nov 27", iv("2025-11-24", "2025-11-30")),
    ("since monday", iv("2025-12-01", "2025-12-03")),
    ("last 3 days", iv("2025-11-30", "2025-12-03")),
    ("before 2025-01-01", iv(None, "2024-12-31")),
])
def test_a_whole_time_phrase_is_a_spec(spec: str, expected: Interval) -> None:
    assert parse_spec(spec, today=WED) == expected


@pytest.mark.parametrize(("today", "spec", "expected"), [
    # month arithmetic clamps to the month's last day
    (d("2025-03-31"), "1m", iv("2025-02-28", "2025-03-31")),
    (d("2024-03-31"), "1m", iv("2024-02-29", "2024-03-31")),
    (d("2024-02-29"), "1y", iv("2023-02-28", "2024-02-29")),
    (d("2025-01-15"), "2m", iv("2024-11-15", "2025-01-15")),
    # periods crossing a year
    (d("2025-01-15"), "last month", iv("2024-12-01", "2024-12-31")),
    (d("2025-01-01"), "yesterday", iv("2024-12-31", "2024-12-31")),
    (d("2025-01-01"), "last week", iv("2024-12-23", "2024-12-29")),  # Jan 1 2025 is a Wed
    # on a Monday, this week is just today and last week the full previous week
    (d("2025-12-01"), "this week", iv("2025-12-01", "2025-12-01")),
    (d("2025-12-01"), "last week", iv("2025-11-24", "2025-11-30")),
    # on a Sunday, this week is Monday..Sunday
    (d("2025-12-07"), "this week", iv("2025-12-01", "2025-12-07")),
    (d("2025-12-07"), "sunday", iv("2025-12-07", "2025-12-07")),
    (d("2025-12-07"), "monday", iv("2025-12-01", "2025-12-01")),
    (d("2025-03-01"), "this month", iv("2025-03-01", "2025-03-01")),
])
def test_specs_relative_to_other_todays(today: date, spec: str, expected: Interval) -> None:
    assert parse_spec(spec, today=today) == expected


@pytest.mark.parametrize("spec", [
    "", "   ", "nope", "30days", "30 days", "1y2d", "-1d", "d", "30x", "2025-02-30", "2025-13",
    "2025-00", "2025-1", "25-11-27", "2025/11/27", "0000", "0000-01", "0000-01-01", "10000",
    "may", "next week", "tomorrow", "monday notes", "last", "week", "since", "Feb 30",
])
def test_unreadable_specs_raise_time_spec_error_listing_the_forms(spec: str) -> None:
    with pytest.raises(TimeSpecError) as err:
        parse_spec(spec, today=WED)
    message = str(err.value)
    assert "\n" not in message
    assert repr(spec) in message and SPEC_FORMS in message


@pytest.mark.parametrize("spec", ["99999999d", "999999999999y", "9999999w", "99999999999m"])
def test_amounts_beyond_year_one_reach_the_first_day(spec: str) -> None:
    assert parse_spec(spec, today=WED) == Interval(date.min, WED)


def test_the_error_is_a_value_error() -> None:
    assert issubclass(TimeSpecError, ValueError)


# -- find_time_phrase: time phrases inside queries ----------------------------------------------


@pytest.mark.parametrize(("query", "expected", "span_text"), [
    ("what happened around Nov 27", iv("2025-11-24", "2025-11-30"), "around Nov 27"),
    ("around 27 Nov", iv("2025-11-24", "2025-11-30"), "around 27 Nov"),
    ("near 2025-11-27", iv("2025-11-24", "2025-11-30"), "near 2025-11-27"),
    ("about Nov 27?", iv("2025-11-24", "2025-11-30"), "about Nov 27"),
    ("deploys in November 2025", iv("2025-11-01", "2025-11-30"), "in November 2025"),
    ("what was true in Nov 2025", iv("2025-11-01", "2025-11-30"), "in Nov 2025"),
    ("in 2025-11", iv("2025-11-01", "2025-11-30"), "in 2025-11"),
    ("crash last week", iv("2025-11-24", "2025-11-30"), "last week"),
    ("notes this month", iv("2025-12-01", "2025-12-03"), "this month"),
    ("what changed since Monday", iv("2025-12-01", "2025-12-03"), "since Monday"),
    ("on monday", iv("2025-12-01", "2025-12-01"), "on monday"),
    ("what did I do yesterday", iv("2025-12-02", "2025-12-02"), "yesterday"),
    ("today's plan", iv("2025-12-03", "2025-12-03"), "today"),
    ("on 2025-11-27", iv("2025-11-27", "2025-11-27"), "on 2025-11-27"),
    ("Nov 27th, 2025", iv("2025-11-27", "2025-11-27"), "Nov 27th, 2025"),
    ("27th November 2025", iv("2025-11-27", "2025-11-27"), "27th November 2025"),
    ("on Nov 11th", iv("2025-11-11", "2025-11-11"), "on Nov 11th"),
    ("Nov 1st", iv("2025-11-01", "2025-11-01"), "Nov 1st"),
    ("22nd dec 2024", iv("2024-12-22", "2024-12-22"), "22nd dec 2024"),
    ("Sep. 5", iv("2025-09-05", "2025-09-05"), "Sep. 5"),
    ("sept 5th", iv("2025-09-05", "2025-09-05"), "sept 5th"),
    ("in the past 3 days", iv("2025-11-30", "2025-12-03"), "in the past 3 days"),
    ("last 2 weeks", iv("2025-11-19", "2025-12-03"), "last 2 weeks"),
    ("past 6 months", iv("2025-06-03", "2025-12-03"), "past 6 months"),
    ("last 1 year", iv("2024-12-03", "2025-12-03"), "last 1 year"),
    ("before Nov 27", iv(None, "2025-11-26"), "before Nov 27"),
    ("before 2025-11", iv(None, "2025-10-31"), "before 2025-11"),
    ("until Nov 27", iv(None, "2025-11-27"), "until Nov 27"),
    ("until today", iv(None, "2025-12-03"), "until today"),
    ("since Nov 27", iv("2025-11-27", "2025-12-03"), "since Nov 27"),
    ("from November", iv("2025-11-01", "2025-12-03"), "from November"),
    ("after 2025-11-27", iv("2025-11-27", "2025-12-03"), "after 2025-11-27"),
    ("in 2024", iv("2024-01-01", "2024-12-31"), "in 2024"),
    ("during 2024", iv("2024-01-01", "2024-12-31"), "during 2024"),
    ("in May", iv("2025-05-01", "2025-05-31"), "in May"),
    ("May 5", iv("2025-05-05", "2025-05-05"), "May 5"),
    ("it may rain in may", iv("2025-05-01", "2025-05-31"), "in may"),
])
def test_time_phrases(query: str, expected: Interval, span_text: str) -> None:
    assert phrase_and_text(query) == (expected, span_text)


@pytest.mark.parametrize("query", [
    "may I ask something", "it may rain", "May", "Monday notes", "sunday roast",
    "1500 chars", "the 2025 plan", "in 1800", "room 2101", "march on", "december",
    "Nov 31", "Feb 30", "2025-02-30", "on 2025-02-30", "2025-13", "in 2025-13", "0000",
    "nov 0000", "in 0000-01", "Baileys crash", "", "   ", "last", "in the past days",
])
def test_words_that_are_not_time_phrases(query: str) -> None:
    assert find_time_phrase(query, today=WED) is None


@pytest.mark.parametrize(("today", "query", "expected"), [
    # a date without a year is the latest one not after today
    (d("2025-03-10"), "Nov 27", iv("2024-11-27", "2024-11-27")),
    (d("2025-11-27"), "Nov 27", iv("2025-11-27", "2025-11-27")),
    (d("2025-11-26"), "Nov 27", iv("2024-11-27", "2024-11-27")),
    (d("2025-03-10"), "mar 10", iv("2025-03-10", "2025-03-10")),
    (d("2025-03-10"), "mar 11", iv("2024-03-11", "2024-03-11")),
    # a month without a year: this year's when it has begun, else last year's
    (d("2025-03-10"), "in November", iv("2024-11-01", "2024-11-30")),
    (d("2025-03-10"), "in march", iv("2025-03-01", "2025-03-31")),
    (d("2025-03-10"), "what happened in Sept.", iv("2024-09-01", "2024-09-30")),
    (d("2025-12-03"), "in December", iv("2025-12-01", "2025-12-31")),
    # Feb 29 is the latest leap day
    (d("2025-12-03"), "on feb 29", iv("2024-02-29", "2024-02-29")),
    # around a date near New Year crosses it
    (d("2025-03-10"), "around dec 30", iv("2024-12-27", "2025-01-02")),
    # a weekday is the latest one, today included
    (d("2025-03-10"), "on monday", iv("2025-03-10", "2025-03-10")),
    (d("2025-03-10"), "on sunday", iv("2025-03-09", "2025-03-09")),
])
def test_year_inference(today: date, query: str, expected: Interval) -> None:
    assert phrase(query, today) == expected


def test_feb_29_without_a_leap_year_in_reach_is_not_a_date() -> None:
    # 2023 and 2022 have no Feb 29: the words stay words, nothing fails
    assert phrase("on feb 29", d("2023-12-01")) is None


@pytest.mark.parametrize(("query", "expected"), [
    ("around 0001-01-01", iv("0001-01-01", "0001-01-04")),
    ("around 9999-12-31", iv("9999-12-28", "9999-12-31")),
    ("before 0001-01-01", iv(None, "0001-01-01")),
    ("in the past 99999999999 days", Interval(date.min, WED)),
    ("dec 9999", iv("9999-12-01", "9999-12-31")),
])
def test_the_ends_of_the_calendar_do_not_overflow(query: str, expected: Interval) -> None:
    assert phrase(query) == expected


def test_the_first_time_phrase_wins() -> None:
    query = "yesterday or last week"
    found = find_time_phrase(query, today=WED)
    assert found is not None
    assert found[0] == iv("2025-12-02", "2025-12-02")
    assert found[1] == (0, len("yesterday"))


# -- properties ---------------------------------------------------------------------------------

WIDE = st.characters(codec=None, exclude_categories=("Cs",))
VOCAB = st.sampled_from([
    "nov", "November", "27", "27th", "11th", "2025", "2025-11-27", "2025-02-30", "2025-13",
    "0000", "9999-12-31", "0001-01-01", "in", "around", "since", "before", "until", "after",
    "from", "on", "may", "last", "past", "the", "week", "days", "3", "99999999999", "monday",
    "today", "yesterday", "this", "month", "year", "d", "w", "m", "y", "-", ",", ".", " ",
    "ſ", "K", "İ", "２０２５", "٣", "\x00",
])
TIMEISH = st.lists(st.one_of(VOCAB, st.text(WIDE, max_size=4)), max_size=10).map(" ".join)
TODAYS = st.dates(min_value=date(1900, 1, 1), max_value=date(2100, 12, 31))


@settings(max_examples=400)
@given(st.one_of(st.text(WIDE), TIMEISH), TODAYS)
def test_parse_spec_raises_only_time_spec_error(text: str, today: date) -> None:
    try:
        result = parse_spec(text, today=today)
    except TimeSpecError:
        return
    assert isinstance(result, Interval)
    assert result.start is not None or result.end is not None


@settings(max_examples=400)
@given(st.one_of(st.text(WIDE), TIMEISH), TODAYS)
def test_find_time_phrase_never_raises_and_spans_the_query(text: str, today: date) -> None:
    found = find_time_phrase(text, today=today)
    if found is None:
        return
    interval, (start, end) = found
    assert 0 <= start < end <= len(text)
    assert re.search(r"\w", text[start:end])
    assert interval.start is not None or interval.end is not None


@settings(max_examples=200)
@given(TODAYS, st.integers(min_value=0, max_value=5000), st.sampled_from("dwmy"))
def test_amount_specs_end_today_and_start_before(today: date, amount: int, unit: str) -> None:
    interval = parse_spec(f"{amount}{unit}", today=today)
    assert interval.end == today
    assert interval.start is not None and interval.start <= today


@settings(max_examples=200)
@given(TODAYS, st.sampled_from(["today", "yesterday", "this week", "last week", "this month",
                                "last month", "this year", "last year", "monday", "friday"]))
def test_named_periods_are_closed_and_not_after_today(today: date, spec: str) -> None:
    interval = parse_spec(spec, today=today)
    assert interval.start is not None and interval.end is not None
    assert interval.start <= interval.end <= today


def test_the_start_of_the_year_asked_in_its_first_days_is_the_year_gone() -> None:
    # on 5 January a question about "the start of the year" asks about the year just ended
    assert find_time_phrase("what was my rent at the start of the year",
                            today=d("2026-01-05")) == (iv("2025-01-01", "2025-04-30"), (17, 41))
    assert find_time_phrase("at the start of the year", today=d("2026-02-15"))[0] == iv(
        "2026-01-01", "2026-04-30")


# -- phrases people use beyond dates (issue 30) -------------------------------------------------


@pytest.mark.parametrize(("query", "expected", "span_text"), [
    # parts of a month: 1-10, 11-20, 21-end; of a year: Jan-Apr, May-Aug, Sep-Dec
    ("what did I do in late November", iv("2025-11-21", "2025-11-30"), "in late November"),
    ("early Nov 2024", iv("2024-11-01", "2024-11-10"), "early Nov 2024"),
    ("mid-November", iv("2025-11-11", "2025-11-20"), "mid-November"),
    ("mid february", iv("2025-02-11", "2025-02-20"), "mid february"),
    ("the end of November", iv("2025-11-21", "2025-11-30"), "the end of November"),
    ("at the beginning of last month", iv("2025-11-01", "2025-11-10"),
     "at the beginning of last month"),
    ("late 2024", iv("2024-09-01", "2024-12-31"), "late 2024"),
    ("early this year", iv("2025-01-01", "2025-04-30"), "early this year"),
    ("what phone did I have at the start of the year", iv("2025-01-01", "2025-04-30"),
     "at the start of the year"),
    ("the end of the year", iv("2025-09-01", "2025-12-31"), "the end of the year"),
    # ranges
    ("between Nov 25 and Nov 30", iv("2025-11-25", "2025-11-30"), "between Nov 25 and Nov 30"),
    ("between Nov 25 and 30", iv("2025-11-25", "2025-11-30"), "between Nov 25 and 30"),
    ("between Dec 28 and Jan 3", iv("2024-12-28", "2025-01-03"), "between Dec 28 and Jan 3"),
    ("between 2023 and 2024", iv("2023-01-01", "2024-12-31"), "between 2023 and 2024"),
    ("from Nov 25 to Nov 30", iv("2025-11-25", "2025-11-30"), "from Nov 25 to Nov 30"),
    ("from March to May", iv("2025-03-01", "2025-05-31"), "from March to May"),
    # N units ago: a window around the day, half a unit each side, never past today
    ("2 weeks ago", iv("2025-11-16", "2025-11-22"), "2 weeks ago"),
    ("what happened two weeks ago", iv("2025-11-16", "2025-11-22"), "two weeks ago"),
    ("3 days ago", iv("2025-11-29", "2025-12-01"), "3 days ago"),
    ("a day ago", iv("2025-12-02", "2025-12-02"), "a day ago"),
    ("a couple of weeks ago", iv("2025-11-16", "2025-11-22"), "a couple of weeks ago"),
    ("a month ago", iv("2025-10-19", "2025-11-18"), "a month ago"),
    ("in the past two weeks", iv("2025-11-19", "2025-12-03"), "in the past two weeks"),
    # weeks of a month
    ("the first week of December", iv("2025-12-01", "2025-12-07"), "the first week of December"),
    ("second week in October", iv("2025-10-08", "2025-10-14"), "second week in October"),
    ("the last week of November", iv("2025-11-24", "2025-11-30"), "the last week of November"),
    # weekends (Saturday and Sunday)
    ("the weekend of June 14", iv("2025-06-14", "2025-06-15"), "the weekend of June 14"),
    ("weekend of 15 June 2025", iv("2025-06-14", "2025-06-15"), "weekend of 15 June 2025"),
    ("last weekend", iv("2025-11-29", "2025-11-30"), "last weekend"),
    ("this past weekend", iv("2025-11-29", "2025-11-30"), "this past weekend"),
    ("this weekend", iv("2025-12-06", "2025-12-07"), "this weekend"),
    ("the weekend before last", iv("2025-11-22", "2025-11-23"), "the weekend before last"),
    # weekdays with last/this
    ("last Saturday", iv("2025-11-29", "2025-11-29"), "last Saturday"),
    ("last Wednesday", iv("2025-11-26", "2025-11-26"), "last Wednesday"),
    ("this Friday", iv("2025-12-05", "2025-12-05"), "this Friday"),
    # the holidays
    ("what did we do over the holidays", iv("2024-12-20", "2025-01-05"), "over the holidays"),
    ("at Christmas", iv("2024-12-24", "2024-12-26"), "at Christmas"),
    ("Christmas 2025", iv("2025-12-24", "2025-12-26"), "Christmas 2025"),
    ("new year's eve", iv("2024-12-31", "2024-12-31"), "new year's eve"),
    # before last, earlier/later this ...
    ("the week before last", iv("2025-11-17", "2025-11-23"), "the week before last"),
    ("the day before yesterday", iv("2025-12-01", "2025-12-01"), "the day before yesterday"),
    ("the month before last", iv("2025-10-01", "2025-10-31"), "the month before last"),
    ("earlier this year", iv("2025-01-01", "2025-12-02"), "earlier this year"),
    ("earlier this month", iv("2025-12-01", "2025-12-02"), "earlier this month"),
    ("later this week", iv("2025-12-03", "2025-12-07"), "later this week"),
    # the week, weekend or weekday just before or after a day
    ("what did she do the weekend before April 10, 2023", iv("2023-04-08", "2023-04-09"),
     "the weekend before April 10, 2023"),
    ("last weekend before April 10, 2023", iv("2023-04-08", "2023-04-09"),
     "last weekend before April 10, 2023"),
    ("the weekend before June 15 2025", iv("2025-06-07", "2025-06-08"),
     "the weekend before June 15 2025"),  # a Sunday: the weekend it ends is not before it
    ("the week before June 9", iv("2025-06-02", "2025-06-08"), "the week before June 9"),
    ("the Friday before July 15", iv("2025-07-11", "2025-07-11"), "the Friday before July 15"),
    ("the weekend after May 20 2023", iv("2023-05-27", "2023-05-28"),
     "the weekend after May 20 2023"),
    # "back in": the "back" is part of the time
    ("What car were we driving back in March?", iv("2025-03-01", "2025-03-31"),
     "back in March"),
    ("way back in 2019", iv("2019-01-01", "2019-12-31"), "way back in 2019"),
    ("back in the spring", iv("2025-03-01", "2025-05-31"), "back in the spring"),
    ("back in early November", iv("2025-11-01", "2025-11-10"), "back in early November"),
    # with a preposition, as any other time
    ("since two weeks ago", iv("2025-11-16", "2025-12-03"), "since two weeks ago"),
    ("before the holidays", iv(None, "2024-12-19"), "before the holidays"),
])
def test_more_time_phrases(query: str, expected: Interval, span_text: str) -> None:
    assert phrase_and_text(query) == (expected, span_text)


@pytest.mark.parametrize("query", [
    "christmas tree", "a holiday in Spain", "holidays", "late fee", "mid range", "a few weeks",
    "the weekend", "between Python and Go", "last", "early bird",
])
def test_more_words_that_are_not_time_phrases(query: str) -> None:
    assert find_time_phrase(query, today=WED) is None


def test_at_the_start_of_january_last_weekend_is_in_the_old_year() -> None:
    assert phrase("last weekend", d("2025-01-01")) == iv("2024-12-28", "2024-12-29")
    assert phrase("over the holidays", d("2025-01-03")) == iv("2024-12-20", "2025-01-05")


@pytest.mark.parametrize(("query", "text"), [
    ("between banana and Tuesday", "between banana and Tuesday"),
    ("what happened between banana and Tuesday?", "between banana and Tuesday"),
    ("from my sister to Monday", "from my sister to Monday"),
    ("between nov 31 and dec 2", "between nov 31 and dec 2"),
])
def test_a_range_that_names_a_time_but_cannot_be_read_is_reported(query: str,
                                                                   text: str) -> None:
    assert unread(query) == text


@pytest.mark.parametrize("query", [
    "between Nov 25 and Nov 30", "the difference between Python and Go", "from Python to Go",
    "between May and me", "what happened last week",
])
def test_ranges_read_or_not_about_time_are_not_reported(query: str) -> None:
    assert unread(query) is None
