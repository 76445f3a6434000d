"""The calendar of the phrases people write, read relative to a `today` the caller passes.

This module owns month and weekday names, number words, month arithmetic that stops at the
ends of the calendar, the fixed spec forms (30d, 2025-11, 2025, today, last week, ...) and
one date written in words ("Nov 27", "27th November 2025", "November", "2025-11-27"), with
the interval a preposition makes of it ("around", "since", "before", "until"), the seasons,
and a range built from its parts (`build_range`).  A date
without a year is the latest one not after today.  Pure functions; nothing reads the clock.
`times.spans` and `times.parse` read whole phrases with it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from datetime import date, timedelta

from memfold.values import Interval

MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ],
        start=1,
    )
    for name in names
}
MONTH_PATTERN = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
WEEKDAY_PATTERN = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"


# every pattern `on_first_use` made, so a long-lived process can compile them all at start
ON_FIRST_USE: list[Callable[[], re.Pattern[str]]] = []


def on_first_use(pattern: str, flags: int = 0) -> Callable[[], re.Pattern[str]]:
    """`pattern` compiled when it is first asked for, not at import: the time phrases'
    patterns take tens of milliseconds to compile, and every command that reads the
    Markdown format imports them, though most never read a time phrase.  Listed in
    ON_FIRST_USE."""
    compiled = functools.cache(lambda: re.compile(pattern, flags))
    ON_FIRST_USE.append(compiled)
    return compiled


def parse_iso_day(text: str) -> date | None:
    """`YYYY-MM-DD` to a date, or None when it is not a real calendar day."""
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
AROUND_DAYS = 3
_AMOUNT = re.compile(r"(\d+)\s*(d|w|m|y)", re.IGNORECASE)
UNIT_WORDS = {"day": "d", "days": "d", "week": "w", "weeks": "w", "month": "m",
               "months": "m", "year": "y", "years": "y"}


def month_end(year: int, month: int) -> date:
    if month == 12:
        return date(year, 12, 31)  # also for 9999, whose next month does not exist
    return date(year, month + 1, 1) - timedelta(days=1)


def minus_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 - months
    year, month = divmod(index, 12)
    return date(year, month + 1, min(day.day, month_end(year, month + 1).day))


def ago(today: date, amount: int, unit: str) -> date:
    """`amount` units before today; an amount reaching past year 1 stops at 0001-01-01."""
    unit = unit.lower()
    try:
        if unit == "d":
            return today - timedelta(days=amount)
        if unit == "w":
            return today - timedelta(weeks=amount)
        if unit == "m":
            return minus_months(today, amount)
        return minus_months(today, 12 * amount)
    except (OverflowError, ValueError):
        return date.min


def shift(day: date, days: int) -> date:
    """`day` moved by `days`, stopping at the first and last representable days."""
    try:
        return day + timedelta(days=days)
    except OverflowError:
        return date.min if days < 0 else date.max


def named_period(text: str, today: date) -> Interval | None:
    """today, yesterday, this/last week|month|year, and weekday names (the latest one)."""
    word = " ".join(text.lower().split())
    monday = today - timedelta(days=today.weekday())
    periods = {
        "today": (today, today),
        "yesterday": (today - timedelta(days=1), today - timedelta(days=1)),
        "this week": (monday, today),
        "last week": (monday - timedelta(days=7), monday - timedelta(days=1)),
        "this month": (today.replace(day=1), today),
        "last month": (minus_months(today.replace(day=1), 1),
                       today.replace(day=1) - timedelta(days=1)),
        "this year": (date(today.year, 1, 1), today),
        "last year": (date(today.year - 1, 1, 1), date(today.year - 1, 12, 31)),
    }
    if word in periods:
        return Interval(*periods[word])
    if word in WEEKDAYS:
        back = (today.weekday() - WEEKDAYS.index(word)) % 7
        day = today - timedelta(days=back)
        return Interval(day, day)
    return None


def latest_month_day(month: int, day: int, today: date) -> date | None:
    """The most recent `month`/`day` not after today (a date written without a year)."""
    for year in (today.year, today.year - 1):
        try:
            candidate = date(year, month, day)
        except ValueError:
            continue
        if candidate <= today:
            return candidate
    return None


def latest_month(month: int, today: date) -> int:
    return today.year if month <= today.month else today.year - 1


def fixed_spec(text: str, today: date) -> Interval | None:
    """The fixed SPEC forms (amounts, named periods, ISO day/month/year), or None.

    Never falls back to time phrases: `date_words` calls this for "2025-02-30", and a
    fallback would call `date_words` again, for ever.
    """
    if m := _AMOUNT.fullmatch(text):
        return Interval(ago(today, int(m.group(1)), m.group(2)), today)
    if named := named_period(text, today):
        return named
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        day = parse_iso_day(text)
        return Interval(day, day) if day else None
    if m := re.fullmatch(r"(\d{4})-(\d{2})", text):
        year, month = int(m.group(1)), int(m.group(2))
        if year >= 1 and 1 <= month <= 12:
            return Interval(date(year, month, 1), month_end(year, month))
        return None
    if re.fullmatch(r"\d{4}", text) and 1 <= int(text) <= 9999:
        return Interval(date(int(text), 1, 1), date(int(text), 12, 31))
    return None


NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a": 1, "an": 1,
           "couple": 2, "a couple": 2, "a couple of": 2, "couple of": 2, "few": 3, "a few": 3}
NUMBER_PATTERN = (r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
                 r"|(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few)")


def number(text: str) -> int:
    """Digits or a number word ("two", "a couple of", "a few") as an int."""
    word = " ".join(text.lower().split())
    return int(word) if word.isdigit() else NUMBERS[word]


# Time phrases inside a query.  Each pattern yields an interval; the matched text is removed
# from the words that are searched for.
DATE_PATTERN = (
    rf"(?:{MONTH_PATTERN}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+{MONTH_PATTERN}\.?(?:,?\s+\d{{4}})?"
    rf"|{MONTH_PATTERN}\.?(?:\s+\d{{4}})?"
    r"|\d{4}-\d{2}-\d{2}|\d{4}-\d{2}|(?<!\d)\d{4}(?!\d)"
    r"|today|yesterday|(?:this|last)\s+(?:week|month|year)"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
)
# "back in March", "way back in 2019": the "back" belongs to the time, not to what is asked
BACK_PATTERN = r"(?:(?:way\s+)?back\s+(?=(?:in|on|during|around|about)\b))?"


def date_words(text: str, today: date) -> Interval | None:
    """One date expression (as matched by DATE_PATTERN) to an interval."""
    word = " ".join(text.lower().replace(",", " ").split())
    if named := named_period(word, today):
        return named
    return fixed_spec(word, today) if re.match(r"\d{4}", word) else month_words(word, today)


def month_words(word: str, today: date) -> Interval | None:
    parts = word.replace(".", "").split()
    numbers = [p for p in parts if p[0].isdigit()]
    names = [p for p in parts if not p[0].isdigit()]
    month = MONTHS.get(names[0]) if names else None
    if month is None:
        return None
    # a year is four bare digits: "11th" is four characters too, and a day
    years = [int(p) for p in numbers if len(p) == 4 and p.isdigit()]
    days = [int(re.sub(r"\D", "", p)) for p in numbers if len(p) != 4 or not p.isdigit()]
    if days:
        if years:
            try:
                day = date(years[0], month, days[0])
            except ValueError:
                return None
        else:
            found = latest_month_day(month, days[0], today)
            if found is None:
                return None
            day = found
        return Interval(day, day)
    year = years[0] if years else latest_month(month, today)
    if not 1 <= year <= 9999:
        return None
    return Interval(date(year, month, 1), month_end(year, month))


def with_prep(interval: Interval | None, prep: str, today: date) -> Interval | None:
    """The interval a preposition makes of a time: "around" widens it AROUND_DAYS each side,
    "since"/"after"/"from" run from it to today (or on, open, from a day after today),
    "before" ends the day before it, "until" with it."""
    if interval is None:
        return None
    if prep in ("around", "about", "near"):
        assert interval.start and interval.end
        return Interval(shift(interval.start, -AROUND_DAYS), shift(interval.end, AROUND_DAYS))
    if prep in ("since", "after", "from"):
        # "since" runs to today; from a day after today it runs on, open (plans dated ahead)
        first = interval.start
        return Interval(first, today if first is None or first <= today else None)
    if prep == "before":
        assert interval.start
        return Interval(None, shift(interval.start, -1))
    if prep == "until":
        return Interval(None, interval.end)
    return interval


# meteorological seasons of the northern hemisphere: first and last month; winter runs from
# the December of its year into the next
SEASONS = {"spring": (3, 5), "summer": (6, 8), "autumn": (9, 11), "fall": (9, 11),
           "winter": (12, 2)}


def season(name: str, year: int) -> Interval:
    """The season `name` of `year` (winter: December of `year` to February of the next)."""
    first, last = SEASONS[name.lower()]
    end_year = year + 1 if last < first else year
    return Interval(date(year, first, 1), month_end(end_year, last))


def recent_seasons(name: str, today: date) -> list[Interval]:
    """The season `name` of today's year, the year before and the one before that, newest
    first: the candidates a season without a year names."""
    return [season(name, year) for year in (today.year, today.year - 1, today.year - 2)]


def build_range(m1: int, d1: int, y1: int | None, m2: int, d2: int, y2: int | None,
                default_year: int) -> Interval | None:
    """The validity range from month/day/year parts (a year left out: `default_year`, or
    the other end's); None when a day does not exist or the range runs backwards."""
    wraps = int((m1, d1) > (m2, d2))  # "Dec 28 – Jan 3" crosses a new year
    if y2 is not None:
        start_year, end_year = y1 if y1 is not None else y2 - wraps, y2
    else:
        start_year = y1 if y1 is not None else default_year
        end_year = start_year + wraps
    try:
        start, end = date(start_year, m1, d1), date(end_year, m2, d2)
    except ValueError:
        return None
    return Interval(start, end) if start <= end else None
