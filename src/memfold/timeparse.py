"""Dates written by people, read deterministically.

This module owns every date and interval memfold reads out of text: the validity range a
fact's content states ("(Nov 27–Dec 1, 2025)", "(2025-11-27..2025-12-01)").  Functions here
are pure: the year a range omits comes from a `default_year` the caller passes, never from
the clock.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from .model import Interval

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
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_SEP = r"\s*(?:–|—|-|\.\.|\bto\b|\buntil\b|\bthrough\b|\bthru\b)\s*"
_ISO = r"(\d{4}-\d{2}-\d{2})"

ISO_RANGE = re.compile(rf"(?<![\w/]){_ISO}{_SEP}{_ISO}(?![\w/])")
# "Nov 27–Dec 1, 2025", "Nov 27 - 30, 2025", "Nov 27, 2025 to Dec 1, 2025"
NAMED_RANGE = re.compile(
    rf"\b({_MONTH})\.?\s+{_DAY}(?:,?\s+(\d{{4}}))?{_SEP}(?:({_MONTH})\.?\s+)?{_DAY}(?:,?\s+(\d{{4}}))?\b",
    re.IGNORECASE,
)
# "27 Nov – 1 Dec 2025", "27–30 Nov 2025"
DAY_FIRST_RANGE = re.compile(
    rf"\b{_DAY}(?:\s+({_MONTH})\.?)?(?:\s+(\d{{4}}))?{_SEP}{_DAY}\s+({_MONTH})\.?(?:,?\s+(\d{{4}}))?\b",
    re.IGNORECASE,
)


_HAS_DIGIT = re.compile(r"\d")


def parse_iso_day(text: str) -> date | None:
    """`YYYY-MM-DD` to a date, or None when it is not a real calendar day."""
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def _month(name: str | None) -> int | None:
    return MONTHS.get(name.lower().rstrip(".")) if name else None


def _build(m1: int, d1: int, y1: int | None, m2: int, d2: int, y2: int | None,
           default_year: int) -> Interval | None:
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


def extract_interval(content: str, *, default_year: int) -> Interval | None:
    """The first date range stated in `content`, or None.

    A single date is not a validity range (a birthday does not expire), so only ranges count.
    """
    if not _HAS_DIGIT.search(content):
        return None
    if m := ISO_RANGE.search(content):
        start, end = parse_iso_day(m.group(1)), parse_iso_day(m.group(2))
        if start and end and start <= end:
            return Interval(start, end)
    if m := NAMED_RANGE.search(content):
        m1, m2 = _month(m.group(1)), _month(m.group(4)) or _month(m.group(1))
        y1, y2 = m.group(3), m.group(6)
        if m1 and m2:
            return _build(m1, int(m.group(2)), int(y1) if y1 else None,
                          m2, int(m.group(5)), int(y2) if y2 else None, default_year)
    for m in DAY_FIRST_RANGE.finditer(content):
        if _modal_may(m.group(2), m.group(5)) and not (m.group(3) or m.group(6)):
            continue  # "Steps 1-2 may need sudo": the verb, not the month
        m2 = _month(m.group(5))
        m1 = _month(m.group(2)) or m2
        y1, y2 = m.group(3), m.group(6)
        if m1 and m2:
            return _build(m1, int(m.group(1)), int(y1) if y1 else None,
                          m2, int(m.group(4)), int(y2) if y2 else None, default_year)
        return None
    return None


def _modal_may(first: str | None, second: str) -> bool:
    """Whether the only month word in a day-first range is a lowercase "may" (a verb after a
    range of numbers far more often than a month)."""
    return second == "may" and first in (None, "may")


# -- relative times: --since/--until specs and time phrases inside queries -------------

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
AROUND_DAYS = 3
_AMOUNT = re.compile(r"(\d+)\s*(d|w|m|y)", re.IGNORECASE)
_UNIT_WORDS = {"day": "d", "days": "d", "week": "w", "weeks": "w", "month": "m",
               "months": "m", "year": "y", "years": "y"}


class TimeSpecError(ValueError):
    """A time expression that cannot be read; the message lists the accepted forms."""


SPEC_FORMS = ("30d, 2w, 6m, 1y, 2025-11-27, 2025-11, 2025, today, yesterday, "
              "this week, last week, this month, last month, this year, last year, a weekday, "
              "last spring, summer 2025")


def _month_end(year: int, month: int) -> date:
    if month == 12:
        return date(year, 12, 31)  # also for 9999, whose next month does not exist
    return date(year, month + 1, 1) - timedelta(days=1)


def _minus_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 - months
    year, month = divmod(index, 12)
    return date(year, month + 1, min(day.day, _month_end(year, month + 1).day))


def _ago(today: date, amount: int, unit: str) -> date:
    """`amount` units before today; an amount reaching past year 1 stops at 0001-01-01."""
    unit = unit.lower()
    try:
        if unit == "d":
            return today - timedelta(days=amount)
        if unit == "w":
            return today - timedelta(weeks=amount)
        if unit == "m":
            return _minus_months(today, amount)
        return _minus_months(today, 12 * amount)
    except (OverflowError, ValueError):
        return date.min


def _shift(day: date, days: int) -> date:
    """`day` moved by `days`, stopping at the first and last representable days."""
    try:
        return day + timedelta(days=days)
    except OverflowError:
        return date.min if days < 0 else date.max


def _named_period(text: str, today: date) -> Interval | None:
    """today, yesterday, this/last week|month|year, and weekday names (the latest one)."""
    word = " ".join(text.lower().split())
    monday = today - timedelta(days=today.weekday())
    periods = {
        "today": (today, today),
        "yesterday": (today - timedelta(days=1), today - timedelta(days=1)),
        "this week": (monday, today),
        "last week": (monday - timedelta(days=7), monday - timedelta(days=1)),
        "this month": (today.replace(day=1), today),
        "last month": (_minus_months(today.replace(day=1), 1),
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


def _latest_month_day(month: int, day: int, today: date) -> date | None:
    """The most recent `month`/`day` not after today (a date written without a year)."""
    for year in (today.year, today.year - 1):
        try:
            candidate = date(year, month, day)
        except ValueError:
            continue
        if candidate <= today:
            return candidate
    return None


def _latest_month(month: int, today: date) -> int:
    return today.year if month <= today.month else today.year - 1


def parse_spec(spec: str, *, today: date) -> Interval:
    """A --since/--until value as an interval of days (since takes its start, until its end).

    Raises TimeSpecError for anything else, naming the forms that are accepted.
    """
    text = " ".join(spec.strip().lower().split())
    try:
        if fixed := _fixed_spec(text, today):
            return fixed
        found = find_time_phrase(text, today=today)
    except (OverflowError, ValueError):  # a day outside 0001..9999, e.g. "yesterday" at 0001
        found = None
    if found and found[1] == (0, len(text)):
        return found[0]
    raise TimeSpecError(f"cannot read time {spec!r}; use one of: {SPEC_FORMS}")


def _fixed_spec(text: str, today: date) -> Interval | None:
    """The fixed SPEC forms (amounts, named periods, ISO day/month/year), or None.

    Never falls back to time phrases: `_date_words` calls this for "2025-02-30", and a
    fallback would call `_date_words` again, for ever.
    """
    if m := _AMOUNT.fullmatch(text):
        return Interval(_ago(today, int(m.group(1)), m.group(2)), today)
    if named := _named_period(text, today):
        return named
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        day = parse_iso_day(text)
        return Interval(day, day) if day else None
    if m := re.fullmatch(r"(\d{4})-(\d{2})", text):
        year, month = int(m.group(1)), int(m.group(2))
        if year >= 1 and 1 <= month <= 12:
            return Interval(date(year, month, 1), _month_end(year, month))
        return None
    if re.fullmatch(r"\d{4}", text) and 1 <= int(text) <= 9999:
        return Interval(date(int(text), 1, 1), date(int(text), 12, 31))
    return None


# Time phrases inside a query.  Each pattern yields an interval; the matched text is removed
# from the words that are searched for.
_DATE_WORDS = (
    rf"(?:{_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}\.?(?:,?\s+\d{{4}})?"
    rf"|{_MONTH}\.?(?:\s+\d{{4}})?"
    r"|\d{4}-\d{2}-\d{2}|\d{4}-\d{2}|(?<!\d)\d{4}(?!\d)"
    r"|today|yesterday|(?:this|last)\s+(?:week|month|year)"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
)
# "last spring", "in the summer of 2024", "during winter": a season needs a preposition,
# "last"/"this" or a year, since "fall", "spring" and "summer" are ordinary words too
_SEASON_WORDS = (
    r"(?:(?P<sprep>since|after|before|until|in|during|from)\s+)?(?:the\s+)?"
    r"(?:(?P<rel>last|past|this)\s+)?(?P<season>spring|summer|autumn|fall|winter)"
    r"(?:\s+(?:of\s+)?(?P<syear>\d{4}))?"
)
_PHRASE = re.compile(
    rf"\b(?P<prep>around|about|near|since|after|before|until|in|during|on|from)?\s*"
    rf"(?P<date>{_DATE_WORDS})\b"
    r"|\b(?:in\s+the\s+)?(?:past|last)\s+(?P<n>\d+)\s+(?P<unit>days?|weeks?|months?|years?)\b"
    rf"|\b{_SEASON_WORDS}\b",
    re.IGNORECASE,
)
# meteorological seasons of the northern hemisphere: first and last month; winter runs from
# the December of its year into the next
SEASONS = {"spring": (3, 5), "summer": (6, 8), "autumn": (9, 11), "fall": (9, 11),
           "winter": (12, 2)}


def _date_words(text: str, today: date) -> Interval | None:
    """One date expression (as matched by _DATE_WORDS) to an interval."""
    word = " ".join(text.lower().replace(",", " ").split())
    if named := _named_period(word, today):
        return named
    return _fixed_spec(word, today) if re.match(r"\d{4}", word) else _month_words(word, today)


def _month_words(word: str, today: date) -> Interval | None:
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
            found = _latest_month_day(month, days[0], today)
            if found is None:
                return None
            day = found
        return Interval(day, day)
    year = years[0] if years else _latest_month(month, today)
    if not 1 <= year <= 9999:
        return None
    return Interval(date(year, month, 1), _month_end(year, month))


def find_time_phrase(query: str, *, today: date) -> tuple[Interval, tuple[int, int]] | None:
    """The first time phrase in a query: its interval and the span of text it occupies.

    "around Nov 27" widens the day by three days each side; "since X" runs from X to today
    (or on, open-ended, when X is after today);
    "before X" ends the day before X, "until X" with X; "in November 2025" is the month;
    "last week" is the previous Monday to Sunday; "last spring" the latest spring that has
    ended (`season`).  Dates that do not exist ("Feb 30",
    "2025-13", "0000") are not time phrases.
    """
    for m in _PHRASE.finditer(query):
        try:
            interval = _phrase_interval(m, today)
        except (OverflowError, ValueError):  # a day outside 0001..9999
            interval = None
        if interval is not None:
            return interval, m.span()
    return None


def _phrase_interval(m: re.Match[str], today: date) -> Interval | None:
    if m.group("n"):
        start = _ago(today, int(m.group("n")), _UNIT_WORDS[m.group("unit").lower()][0])
        return Interval(start, today)
    if m.group("season"):
        interval, prep = _season_words(m, today), (m.group("sprep") or "").lower()
    else:
        interval = _date_words(m.group("date"), today)
        if _is_plain_word(m):
            return None
        prep = (m.group("prep") or "").lower()
    if interval is None:
        return None
    if prep in ("around", "about", "near"):
        assert interval.start and interval.end
        return Interval(_shift(interval.start, -AROUND_DAYS), _shift(interval.end, AROUND_DAYS))
    if prep in ("since", "after", "from"):
        # "since" runs to today; from a day after today it runs on, open (plans dated ahead)
        first = interval.start
        return Interval(first, today if first is None or first <= today else None)
    if prep == "before":
        assert interval.start
        return Interval(None, _shift(interval.start, -1))
    if prep == "until":
        return Interval(None, interval.end)
    return interval


def season(name: str, year: int) -> Interval:
    """The season `name` of `year` (winter: December of `year` to February of the next)."""
    first, last = SEASONS[name.lower()]
    end_year = year + 1 if last < first else year
    return Interval(date(year, first, 1), _month_end(end_year, last))


def _season_words(m: re.Match[str], today: date) -> Interval | None:
    """A season phrase: "summer 2024" is that year's; "last spring" the latest one that has
    ended; "this winter" the one under way (or this year's); "in spring" the latest one that
    has begun.  A bare season word ("fall asleep") is not a time."""
    name, rel = m.group("season").lower(), (m.group("rel") or "").lower()
    if m.group("syear"):
        year = int(m.group("syear"))
        return season(name, year) if 1900 <= year <= 2100 else None
    if not (rel or m.group("sprep")):
        return None
    # the three candidates around today, newest first
    seasons = [season(name, year) for year in (today.year, today.year - 1, today.year - 2)]
    if rel in ("last", "past"):
        return next(s for s in seasons if s.end and s.end < today)
    if rel == "this":
        return next((s for s in seasons if s.start and s.start <= today
                     and s.end and today <= s.end), seasons[0])
    return next(s for s in seasons if s.start and s.start <= today)


def _is_plain_word(m: re.Match[str]) -> bool:
    """Words that are dates only after a preposition: "in 2024" but not "1500 chars",
    "in May" but not "may I", "since Monday" but not "Monday notes"."""
    text = m.group("date").lower().rstrip(".")
    if re.fullmatch(r"\d{4}", text) and not 1900 <= int(text) <= 2100:
        return True
    if m.group("prep"):
        return False
    return bool(re.fullmatch(r"\d{4}", text)) or text in WEEKDAYS or text in MONTHS
