"""Dates written by people, read deterministically.

This module owns every date and interval memfold reads out of text: the validity range a
fact's content states ("(Nov 27–Dec 1, 2025)", "(2025-11-27..2025-12-01)"), a --since/--until
spec (`parse_spec`), and the first time phrase in a query or a fact (`find_time_phrase`: its
own dates, seasons and "in the past N days", with the spans of `times.spans`, on the calendar of
`times.words`), and a range that names a time but cannot be read (`unread_time_phrase`).
Functions here are pure: the year a range omits comes from a `default_year` the caller passes,
and a relative phrase from the `today` it passes, never from the clock.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

from memfold.language import looks_vietnamese
from memfold.times.spans import MORE, MORE_WORDS, more_phrase
from memfold.times.words import (
    BACK_PATTERN,
    DATE_PATTERN,
    MONTH_PATTERN,
    NUMBER_PATTERN,
    UNIT_WORDS,
    WEEKDAY_PATTERN,
    WEEKDAYS,
    ago,
    date_words,
    fixed_spec,
    number,
    on_first_use,
    recent_seasons,
    with_prep,
)
from memfold.times.words import MONTHS as MONTHS  # these are read from here by others, as before
from memfold.times.words import SEASONS as SEASONS
from memfold.times.words import build_range as build_range
from memfold.times.words import parse_iso_day as parse_iso_day
from memfold.times.words import season as season
from memfold.times.words_vi import MARKS, VI_WRITTEN, find_vi_time_phrase, vi_validity
from memfold.values import Interval

_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_SEP = r"\s*(?:–|—|-|\.\.|\bto\b|\buntil\b|\bthrough\b|\bthru\b)\s*"
_ISO = r"(\d{4}-\d{2}-\d{2})"

ISO_RANGE = on_first_use(rf"(?<![\w/]){_ISO}{_SEP}{_ISO}(?![\w/])")
# "Nov 27–Dec 1, 2025", "Nov 27 - 30, 2025", "Nov 27, 2025 to Dec 1, 2025"
NAMED_RANGE = on_first_use(
    rf"\b({MONTH_PATTERN})\.?\s+{_DAY}(?:,?\s+(\d{{4}}))?{_SEP}(?:({MONTH_PATTERN})\.?\s+)?{_DAY}(?:,?\s+(\d{{4}}))?\b",
    re.IGNORECASE,
)
# "27 Nov – 1 Dec 2025", "27–30 Nov 2025"
DAY_FIRST_RANGE = on_first_use(
    rf"\b{_DAY}(?:\s+({MONTH_PATTERN})\.?)?(?:\s+(\d{{4}}))?{_SEP}{_DAY}\s+({MONTH_PATTERN})\.?(?:,?\s+(\d{{4}}))?\b",
    re.IGNORECASE,
)


_HAS_DIGIT = re.compile(r"\d")


def _month(name: str | None) -> int | None:
    return MONTHS.get(name.lower().rstrip(".")) if name else None


def extract_interval(content: str, *, default_year: int) -> Interval | None:
    """The first date range stated in `content`, or None.

    A single date is not a validity range (a birthday does not expire), so only ranges count.
    """
    if not _HAS_DIGIT.search(content):
        return None
    if m := ISO_RANGE().search(content):
        start, end = parse_iso_day(m.group(1)), parse_iso_day(m.group(2))
        if start and end and start <= end:
            return Interval(start, end)
    if m := NAMED_RANGE().search(content):
        m1, m2 = _month(m.group(1)), _month(m.group(4)) or _month(m.group(1))
        y1, y2 = m.group(3), m.group(6)
        if m1 and m2:
            return build_range(m1, int(m.group(2)), int(y1) if y1 else None,
                               m2, int(m.group(5)), int(y2) if y2 else None, default_year)
    for m in DAY_FIRST_RANGE().finditer(content):
        if _modal_may(m.group(2), m.group(5)) and not (m.group(3) or m.group(6)):
            continue  # "Steps 1-2 may need sudo": the verb, not the month
        m2 = _month(m.group(5))
        m1 = _month(m.group(2)) or m2
        y1, y2 = m.group(3), m.group(6)
        if m1 and m2:
            return build_range(m1, int(m.group(1)), int(y1) if y1 else None,
                               m2, int(m.group(4)), int(y2) if y2 else None, default_year)
        return None
    return vi_validity(content, default_year=default_year) if looks_vietnamese(content) \
        else None


def _modal_may(first: str | None, second: str) -> bool:
    """Whether the only month word in a day-first range is a lowercase "may" (a verb after a
    range of numbers far more often than a month)."""
    return second == "may" and first in (None, "may")


# -- relative times: --since/--until specs and time phrases inside queries -------------


class TimeSpecError(ValueError):
    """A time expression that cannot be read; the message lists the accepted forms."""


SPEC_FORMS = ("30d, 2w, 6m, 1y, 2025-11-27, 2025-11, 2025, today, yesterday, "
              "this week, last week, this month, last month, this year, last year, a weekday, "
              "last spring, summer 2025")


def parse_spec(spec: str, *, today: date) -> Interval:
    """A --since/--until value as an interval of days (since takes its start, until its end).

    Raises TimeSpecError for anything else, naming the forms that are accepted.
    """
    text = " ".join(spec.strip().lower().split())
    try:
        if fixed := fixed_spec(text, today):
            return fixed
        found = find_time_phrase(text, today=today)
    except (OverflowError, ValueError):  # a day outside 0001..9999, e.g. "yesterday" at 0001
        found = None
    if found and found[1] == (0, len(text)):
        return found[0]
    raise TimeSpecError(f"cannot read time {spec!r}; use one of: {SPEC_FORMS}")


# "last spring", "in the summer of 2024", "during winter": a season needs a preposition,
# "last"/"this" or a year, since "fall", "spring" and "summer" are ordinary words too
_SEASON_WORDS = (
    rf"(?:{BACK_PATTERN}(?P<sprep>since|after|before|until|in|during|from|over|throughout)\s+)?"
    r"(?:the\s+)?"
    r"(?:(?P<rel>last|past|this)\s+)?(?P<season>spring|summer|autumn|fall|winter)"
    r"(?:\s+(?:of\s+)?(?P<syear>\d{4}))?"
)
_PHRASE = on_first_use(
    rf"\b{BACK_PATTERN}(?P<prep>around|about|near|since|after|before|until|in|during|on|from)?\s*"
    rf"(?P<date>{DATE_PATTERN})\b"
    rf"|\b(?:in\s+the\s+)?(?:past|last)\s+(?P<n>\d+|{NUMBER_PATTERN})\s+"
    r"(?P<unit>days?|weeks?|months?|years?)\b"
    rf"|\b{_SEASON_WORDS}\b",
    re.IGNORECASE,
)


_WORD = re.compile(r"\w+")
# the words (beside digits) without which no _PHRASE, and no MORE, can match
_PHRASE_WORDS = frozenset({*MONTHS, *WEEKDAYS, "today", "yesterday", "this", "last", "past",
                           "spring", "summer", "autumn", "fall", "winter"})


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
                                            (MORE, more_phrase, MORE_WORDS))
             if (not words.isdisjoint(needs) or (needs is _PHRASE_WORDS
                                                  and _HAS_DIGIT.search(query)))
             and (f := _first(pattern, read, query, today))]
    if (vi := _vietnamese(query, words, today)) is not None:
        found.append(vi)
    if not found:
        return None
    # the earliest; of two at one place the longer ("last week of November", not "last week")
    return min(found, key=lambda f: (f[1][0], -f[1][1]))


def _vietnamese(query: str, words: set[str],
                today: date) -> tuple[Interval, tuple[int, int]] | None:
    """A Vietnamese time phrase (`times.words_vi`), looked for only when a word it needs is
    there, as written or typed without diacritics (text with combining marks is folded
    first)."""
    if VI_WRITTEN.isdisjoint(words) and "/" not in query and not MARKS.search(query):
        return None
    return find_vi_time_phrase(query, today=today)


def _first(pattern: Callable[[], re.Pattern[str]],
           read: Callable[[re.Match[str], date], Interval | None], query: str,
           today: date) -> tuple[Interval, tuple[int, int]] | None:
    for m in pattern().finditer(query):
        try:
            interval = read(m, today)
        except (OverflowError, ValueError):  # a day outside 0001..9999
            interval = None
        if interval is not None:
            return interval, m.span()
    return None


def _phrase_interval(m: re.Match[str], today: date) -> Interval | None:
    if m.group("n"):
        start = ago(today, number(m.group("n")), UNIT_WORDS[m.group("unit").lower()][0])
        return Interval(start, today)
    if m.group("season"):
        interval, prep = _season_words(m, today), (m.group("sprep") or "").lower()
    else:
        interval = date_words(m.group("date"), today)
        if _is_plain_word(m):
            return None
        prep = (m.group("prep") or "").lower()
    return with_prep(interval, prep, today)


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
    seasons = recent_seasons(name, today)
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


# "between banana and Tuesday": a range whose ends are not both times, though one looks like
# a time — searched as words, and said so (`unread_time_phrase`)
_RANGE_WORDS = on_first_use(
    r"\b(?:between\s+(?P<a>\w+(?:\s+\w+)??)\s+(?:and|&)|from\s+(?P<a2>\w+(?:\s+\w+)??)\s+"
    r"(?:to|until|till|through))\s+(?P<b>\w+(?:\s+\d{1,4}(?:st|nd|rd|th)?\b)?)",
    re.IGNORECASE)
_TIME_WORD = on_first_use(
    rf"\b(?:{WEEKDAY_PATTERN}|(?!may\b|mar(?:ch)?\b){MONTH_PATTERN}|today|yesterday|tomorrow|tonight|week|weekend|month|year|morning|evening"
    r"|night|holidays|christmas|\d{4}(?:-\d{2}){0,2}|\d{1,2}(?:st|nd|rd|th))\b",
    re.IGNORECASE)


def unread_time_phrase(query: str, *, read: tuple[int, int] | None) -> str | None:
    """The first "between X and Y" or "from X to Y" in a query that names a time on one side
    but is not a time phrase as a whole, or None.  `read`: the span of the time phrase
    `find_time_phrase` found in the query."""
    for m in _RANGE_WORDS().finditer(query):
        sides = " ".join(filter(None, (m.group("a"), m.group("a2"), m.group("b"))))
        if read is not None and read[0] <= m.start() < read[1]:
            continue
        if _TIME_WORD().search(sides):
            return m.group(0)
    return None
