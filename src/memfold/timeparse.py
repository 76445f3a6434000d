"""Dates written by people, read deterministically.

This module owns every date and interval memfold reads out of text: the validity range a
fact's content states ("(Nov 27–Dec 1, 2025)", "(2025-11-27..2025-12-01)").  Functions here
are pure: the year a range omits comes from a `default_year` the caller passes, never from
the clock.
"""

from __future__ import annotations

import re
from collections.abc import Callable
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


NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a": 1, "an": 1,
           "couple": 2, "a couple": 2, "a couple of": 2, "couple of": 2, "few": 3, "a few": 3}
_NUMBER_WORDS = (r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
                 r"|(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few)")


def _number(text: str) -> int:
    """Digits or a number word ("two", "a couple of", "a few") as an int."""
    word = " ".join(text.lower().split())
    return int(word) if word.isdigit() else NUMBERS[word]


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
# "back in March", "way back in 2019": the "back" belongs to the time, not to what is asked
_BACK = r"(?:(?:way\s+)?back\s+(?=(?:in|on|during|around|about)\b))?"
# "last spring", "in the summer of 2024", "during winter": a season needs a preposition,
# "last"/"this" or a year, since "fall", "spring" and "summer" are ordinary words too
_SEASON_WORDS = (
    rf"(?:{_BACK}(?P<sprep>since|after|before|until|in|during|from)\s+)?(?:the\s+)?"
    r"(?:(?P<rel>last|past|this)\s+)?(?P<season>spring|summer|autumn|fall|winter)"
    r"(?:\s+(?:of\s+)?(?P<syear>\d{4}))?"
)
_PHRASE = re.compile(
    rf"\b{_BACK}(?P<prep>around|about|near|since|after|before|until|in|during|on|from)?\s*"
    rf"(?P<date>{_DATE_WORDS})\b"
    rf"|\b(?:in\s+the\s+)?(?:past|last)\s+(?P<n>\d+|{_NUMBER_WORDS})\s+"
    r"(?P<unit>days?|weeks?|months?|years?)\b"
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
    # each pattern runs only on text holding a word it needs: most text names no time, and
    # the patterns cost far more than a look at the words
    words = set(_WORD.findall(query.lower()))
    found = [f for pattern, read, needs in ((_PHRASE, _phrase_interval, _PHRASE_WORDS),
                                            (_MORE, _more_phrase, _MORE_WORDS))
             if (not words.isdisjoint(needs) or (needs is _PHRASE_WORDS
                                                  and _HAS_DIGIT.search(query)))
             and (f := _first(pattern, read, query, today))]
    if not found:
        return None
    # the earliest; of two at one place the longer ("last week of November", not "last week")
    return min(found, key=lambda f: (f[1][0], -f[1][1]))


def _first(pattern: re.Pattern[str],
           read: Callable[[re.Match[str], date], Interval | None], query: str,
           today: date) -> tuple[Interval, tuple[int, int]] | None:
    for m in pattern.finditer(query):
        try:
            interval = read(m, today)
        except (OverflowError, ValueError):  # a day outside 0001..9999
            interval = None
        if interval is not None:
            return interval, m.span()
    return None


def _phrase_interval(m: re.Match[str], today: date) -> Interval | None:
    if m.group("n"):
        start = _ago(today, _number(m.group("n")), _UNIT_WORDS[m.group("unit").lower()][0])
        return Interval(start, today)
    if m.group("season"):
        interval, prep = _season_words(m, today), (m.group("sprep") or "").lower()
    else:
        interval = _date_words(m.group("date"), today)
        if _is_plain_word(m):
            return None
        prep = (m.group("prep") or "").lower()
    return _with_prep(interval, prep, today)


def _with_prep(interval: Interval | None, prep: str, today: date) -> Interval | None:
    """The interval a preposition makes of a time: "around" widens it AROUND_DAYS each side,
    "since"/"after"/"from" run from it to today (or on, open, from a day after today),
    "before" ends the day before it, "until" with it."""
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


# -- more phrases people use: parts of a month, weeks of a month, weekends, "N weeks ago",
# "between X and Y", the holidays.  One pattern, its alternatives told apart by their groups;
# `find_time_phrase` takes the earliest phrase of this and of _PHRASE, the longer on a tie.

_DAY_DATE = (rf"(?:{_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?"
             rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}\.?(?:,?\s+\d{{4}})?|\d{{4}}-\d{{2}}-\d{{2}})")
_OF_MONTH = rf"(?:{_MONTH}\.?(?:,?\s+\d{{4}})?|(?:this|last)\s+month)"
_MONTH_NAME = re.compile(rf"\b{_MONTH}\b", re.IGNORECASE)
_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_MORE = re.compile(
    # no "from": "move from 4 years ago" is no start of a time ("from X to Y" is a range, below)
    rf"\b(?:{_BACK}(?P<prep>around|about|near|since|after|before|until|in|during|on|over|at)"
    r"\s+)?"
    r"(?:"
    rf"(?P<n>\d+|{_NUMBER_WORDS}|a|an)\s+(?P<unit>days?|weeks?|months?|years?)\s+ago"
    r"|(?:the\s+)?(?P<part>early|mid|late|(?:the\s+)?(?:beginning|start|middle|end)\s+of)"
    rf"(?:\s+|-)(?P<period>{_OF_MONTH}|\d{{4}}|(?:this|last)\s+year)"
    r"|(?:the\s+)?(?P<nth>first|1st|second|2nd|third|3rd|fourth|4th|last)\s+week\s+(?:of|in)\s+"
    rf"(?P<month>{_OF_MONTH})"
    rf"|(?:the\s+)?weekend\s+of\s+(?P<of>{_DAY_DATE})"
    rf"|between\s+(?P<a>{_DATE_WORDS})\s+and\s+(?P<b>{_DATE_WORDS}|\d{{1,2}}(?:st|nd|rd|th)?)"
    rf"|from\s+(?P<a2>{_DATE_WORDS})\s+(?:to|until|till|through)\s+"
    rf"(?P<b2>{_DATE_WORDS}|\d{{1,2}}(?:st|nd|rd|th)?)"
    r"|(?P<the>the\s+)?(?P<holiday>holidays|holiday\s+season|christmas(?:\s+(?:eve|day))?|xmas"
    r"|new\s+year(?:'s|s)?(?:\s+(?:eve|day))?)(?:\s+(?:of\s+)?(?P<hyear>\d{4}))?"
    rf"|(?:the\s+)?(?:last\s+|first\s+)?(?P<near>week|weekend|{_WEEKDAY})\s+"
    rf"(?P<side>before|after)\s+(?P<ref>{_DAY_DATE})"
    rf"|(?P<rel>last|this(?:\s+past)?|past)\s+(?P<wd>weekend|{_WEEKDAY})"
    r"|(?:the\s+)?(?P<back>day|week|weekend|month|year)\s+before\s+(?:last|yesterday)"
    r"|(?P<el>earlier|later)\s+this\s+(?P<elp>week|month|year)|earlier\s+(?P<etoday>today)"
    r")\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"\w+")
# the words (beside digits) without which no _PHRASE, and no _MORE, can match
_PHRASE_WORDS = frozenset({*MONTHS, *WEEKDAYS, "today", "yesterday", "this", "last", "past",
                           "spring", "summer", "autumn", "fall", "winter"})
_MORE_WORDS = frozenset({
    "ago", "early", "mid", "late", "beginning", "start", "middle", "end", "week", "weekend",
    "between", "from", "holidays", "holiday", "christmas", "xmas", "year", "years", "before",
    "after", "last", "this", "past", "earlier", "later"})
# half the width of the window around "N units ago": a day either side of "3 days ago", the
# week around "2 weeks ago", the month around "3 months ago", the year around "2 years ago"
AGO_WIDTH = {"d": 1, "w": 3, "m": 15, "y": 182}
# parts of a month (days) and of a year (months): early, mid, late
MONTH_PARTS = {"early": (1, 10), "mid": (11, 20), "late": (21, 31)}
YEAR_PARTS = {"early": (1, 4), "mid": (5, 8), "late": (9, 12)}
PART_WORDS = {"beginning": "early", "start": "early", "middle": "mid", "end": "late"}
NTH_WEEK = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4,
            "4th": 4}
# the holidays: Dec 20 to Jan 5; Christmas Dec 24-26; New Year's Eve to New Year's Day
HOLIDAYS = {"holidays": ((12, 20), (1, 5)), "christmas": ((12, 24), (12, 26)),
            "christmas eve": ((12, 24), (12, 24)), "christmas day": ((12, 25), (12, 25)),
            "new year": ((12, 31), (1, 1)), "new year's eve": ((12, 31), (12, 31)),
            "new year's day": ((1, 1), (1, 1))}
_HOLIDAY_PREPS = ("around", "about", "near", "since", "after", "before", "until", "during",
                  "over", "in", "on", "at")


def _more_phrase(m: re.Match[str], today: date) -> Interval | None:
    prep = (m.group("prep") or "").lower()
    if m.group("holiday") and not _holiday_named(m, prep):
        return None
    interval = _more_interval(m, today)
    return _with_prep(interval, "" if prep in ("over", "during", "in", "on", "at") else prep,
                      today)


def _more_interval(m: re.Match[str], today: date) -> Interval | None:
    if m.group("n"):
        return _ago_window(_number(m.group("n")), m.group("unit")[0].lower(), today)
    if m.group("part"):
        return _part_of(m.group("part"), m.group("period"), today)
    if m.group("nth"):
        return _nth_week(m.group("nth").lower(), m.group("month"), today)
    if m.group("of"):
        day = _date_words(m.group("of"), today)
        return _weekend(day.start) if day and day.start else None
    if m.group("a") or m.group("a2"):
        return _between(m.group("a") or m.group("a2"), m.group("b") or m.group("b2"), today)
    if m.group("holiday"):
        return _holiday(m.group("holiday"), m.group("hyear"), today)
    if m.group("wd"):
        return _relative_day(m.group("rel").lower(), m.group("wd").lower(), today)
    if m.group("back"):
        return _before_last(m.group("back").lower(), today)
    if m.group("near"):
        ref = _date_words(m.group("ref"), today)
        return _next_to(m.group("near").lower(), m.group("side").lower() == "before",
                        ref.start) if ref and ref.start else None
    if m.group("etoday"):
        return Interval(today, today)
    return _earlier_later(m.group("el").lower(), m.group("elp").lower(), today)


def _ago_window(amount: int, unit: str, today: date) -> Interval:
    """The days around `amount` units before today, ending no later than today."""
    point = _ago(today, amount, unit)
    width = AGO_WIDTH[unit] if amount > 1 or unit != "d" else 0
    return Interval(_shift(point, -width), min(_shift(point, width), today))


def _period(text: str, today: date) -> Interval | None:
    """A whole month ("November", "Nov 2024", this/last month) or year (2024, this/last
    year), not cut at today."""
    word = " ".join(text.lower().replace(",", " ").split())
    if word in ("this month", "last month"):
        first = today.replace(day=1) if word == "this month" else _minus_months(
            today.replace(day=1), 1)
        return Interval(first, _month_end(first.year, first.month))
    if word in ("this year", "last year"):
        year = today.year - (word == "last year")
        return Interval(date(year, 1, 1), date(year, 12, 31))
    if re.fullmatch(r"\d{4}", word):
        return _fixed_spec(word, today) if 1900 <= int(word) <= 2100 else None
    return _month_words(word, today)


def _part_of(part: str, period: str, today: date) -> Interval | None:
    """Early, mid or late in a month (days 1-10, 11-20, 21-end) or a year (Jan-Apr, May-Aug,
    Sep-Dec); "the beginning/middle/end of" are early, mid and late."""
    whole = _period(period, today)
    if whole is None or whole.start is None or whole.end is None:
        return None
    words = part.lower().split()
    name = PART_WORDS.get(words[-2], "") if len(words) > 1 else words[0]
    start = whole.start
    if whole.start.month != whole.end.month:  # a year
        first, last = YEAR_PARTS[name]
        return Interval(date(start.year, first, 1), _month_end(start.year, last))
    first, last = MONTH_PARTS[name]
    return Interval(start.replace(day=first), start.replace(day=min(last, whole.end.day)))


def _nth_week(nth: str, month: str, today: date) -> Interval | None:
    """The first (days 1-7), second, third or fourth week of a month; the last: its last
    seven days."""
    whole = _period(month, today)
    if whole is None or whole.start is None or whole.end is None:
        return None
    if nth == "last":
        return Interval(whole.end - timedelta(days=6), whole.end)
    first = whole.start + timedelta(days=7 * (NTH_WEEK[nth] - 1))
    return Interval(first, first + timedelta(days=6))


def _weekend(day: date) -> Interval:
    """The Saturday and Sunday of the week (Monday to Sunday) that holds `day`."""
    saturday = day + timedelta(days=5 - day.weekday())
    return Interval(saturday, saturday + timedelta(days=1))


def _between(first: str, second: str, today: date) -> Interval | None:
    """From the start of one time to the end of another; a bare day ("between Nov 25 and
    30") is in the first time's month, and a range that would run backwards crosses a new
    year ("between Dec 28 and Jan 3")."""
    a = _date_words(first, today)
    if a is None or a.start is None:
        return None
    if re.fullmatch(r"\d{1,2}(?:st|nd|rd|th)?", second.strip(), re.IGNORECASE):
        day = int(re.sub(r"\D", "", second))
        b: Interval | None = Interval(None, a.start.replace(day=day))
    else:
        b = _date_words(second, today)
    if b is None or b.end is None:
        return None
    end = b.end
    if end < a.start and _MONTH_NAME.search(second) and not re.search(r"\d{4}", second):
        end = next((moved for year in (a.start.year, a.start.year + 1)
                    if (moved := end.replace(year=year)) >= a.start), end)
    return Interval(a.start, end) if a.start <= end else None


def _holiday_named(m: re.Match[str], prep: str) -> bool:
    """"over the holidays", "at Christmas", "Christmas 2024": a holiday word is a time
    after a preposition or before a year ("holidays" also with "the"), not in "Christmas
    tree" or "a holiday in Spain"."""
    if m.group("hyear") or m.group("holiday").lower().endswith(("eve", "day")):
        return True  # "Christmas 2024", "New Year's Eve"
    if m.group("holiday").lower().startswith("holiday"):
        return bool(m.group("the")) and prep in _HOLIDAY_PREPS
    return prep in _HOLIDAY_PREPS


def _holiday(name: str, year_text: str | None, today: date) -> Interval | None:
    """The holiday of `year_text`, or the latest one that has begun by today."""
    word = " ".join(name.lower().replace("'s", "").replace("years", "year").split())
    word = {"holiday season": "holidays", "xmas": "christmas", "new year eve": "new year's eve",
            "new year day": "new year's day"}.get(word, word)
    (m1, d1), (m2, d2) = HOLIDAYS[word]
    years = [int(year_text)] if year_text else [today.year, today.year - 1]
    for year in years:
        if not 1900 <= year <= 2100:
            return None
        start = date(year, m1, d1)
        end = date(year + ((m2, d2) < (m1, d1)), m2, d2)
        if year_text or start <= today:
            return Interval(start, end)
    return None


def _relative_day(rel: str, word: str, today: date) -> Interval:
    """"last weekend" (the latest one over before today), "this weekend" (this week's),
    "last Saturday" (the latest before today), "this Saturday" (this week's)."""
    monday = today - timedelta(days=today.weekday())
    if word == "weekend":
        return _weekend(today if rel == "this" else monday - timedelta(days=1))
    index = WEEKDAYS.index(word)
    if rel == "this":
        day = monday + timedelta(days=index)
        return Interval(day, day)
    day = today - timedelta(days=(today.weekday() - index - 1) % 7 + 1)
    return Interval(day, day)


def _before_last(unit: str, today: date) -> Interval:
    """The day before yesterday, the week (Monday to Sunday), weekend, month or year before
    last."""
    if unit == "day":
        return Interval(today - timedelta(days=2), today - timedelta(days=2))
    monday = today - timedelta(days=today.weekday())
    if unit == "week":
        return Interval(monday - timedelta(days=14), monday - timedelta(days=8))
    if unit == "weekend":
        last = _relative_day("last", "weekend", today)
        assert last.start
        return _weekend(last.start - timedelta(days=7))
    if unit == "month":
        first = _minus_months(today.replace(day=1), 2)
        return Interval(first, _month_end(first.year, first.month))
    return Interval(date(today.year - 2, 1, 1), date(today.year - 2, 12, 31))


def _next_to(unit: str, before: bool, day: date) -> Interval:
    """The week (seven days), weekend or weekday just before or just after `day`: "the
    week before June 9", "the weekend after May 20", "the Friday before July 15"."""
    step = -1 if before else 1
    if unit == "week":
        return Interval(day - timedelta(days=7), day - timedelta(days=1)) if before else \
            Interval(day + timedelta(days=1), day + timedelta(days=7))
    # a weekend before a day ends on a Sunday before it; one after starts on a Saturday after
    target = (6 if before else 5) if unit == "weekend" else WEEKDAYS.index(unit)
    other = day + timedelta(days=step)
    while other.weekday() != target:
        other += timedelta(days=step)
    return _weekend(other) if unit == "weekend" else Interval(other, other)


def _earlier_later(which: str, unit: str, today: date) -> Interval:
    """Earlier this week/month/year: from its start to yesterday (today on its first day);
    later this week/month/year: from today to its end."""
    monday = today - timedelta(days=today.weekday())
    start, end = {"week": (monday, monday + timedelta(days=6)),
                  "month": (today.replace(day=1), _month_end(today.year, today.month)),
                  "year": (date(today.year, 1, 1), date(today.year, 12, 31))}[unit]
    if which == "later":
        return Interval(today, end)
    return Interval(start, max(start, today - timedelta(days=1)))


# "between banana and Tuesday": a range whose ends are not both times, though one looks like
# a time — searched as words, and said so (`unread_time_phrase`)
_RANGE_WORDS = re.compile(
    r"\b(?:between\s+(?P<a>\w+(?:\s+\w+)??)\s+(?:and|&)|from\s+(?P<a2>\w+(?:\s+\w+)??)\s+"
    r"(?:to|until|till|through))\s+(?P<b>\w+(?:\s+\d{1,4}(?:st|nd|rd|th)?\b)?)",
    re.IGNORECASE)
_TIME_WORD = re.compile(
    rf"\b(?:{_WEEKDAY}|(?!may\b|mar(?:ch)?\b){_MONTH}|today|yesterday|tomorrow|tonight|week|weekend|month|year|morning|evening"
    r"|night|holidays|christmas|\d{4}(?:-\d{2}){0,2}|\d{1,2}(?:st|nd|rd|th))\b",
    re.IGNORECASE)


def unread_time_phrase(query: str, *, read: tuple[int, int] | None) -> str | None:
    """The first "between X and Y" or "from X to Y" in a query that names a time on one side
    but is not a time phrase as a whole, or None.  `read`: the span of the time phrase
    `find_time_phrase` found in the query."""
    for m in _RANGE_WORDS.finditer(query):
        sides = " ".join(filter(None, (m.group("a"), m.group("a2"), m.group("b"))))
        if read is not None and read[0] <= m.start() < read[1]:
            continue
        if _TIME_WORD.search(sides):
            return m.group(0)
    return None
