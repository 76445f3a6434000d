"""Dates written by people, read deterministically.

This module owns every date and interval memfold reads out of text: the validity range a
fact's content states ("(Nov 27–Dec 1, 2025)", "(2025-11-27..2025-12-01)").  Functions here
are pure: the year a range omits comes from a `default_year` the caller passes, never from
the clock.
"""

from __future__ import annotations

import re
from datetime import date

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
    if m := DAY_FIRST_RANGE.search(content):
        m2 = _month(m.group(5))
        m1 = _month(m.group(2)) or m2
        y1, y2 = m.group(3), m.group(6)
        if m1 and m2:
            return _build(m1, int(m.group(1)), int(y1) if y1 else None,
                          m2, int(m.group(4)), int(y2) if y2 else None, default_year)
    return None
