"""Days people name instead of dating them: Valentine's Day, Halloween, Bonfire Night, St
Patrick's Day, Easter (computed), Thanksgiving, Hogmanay, Boxing Day; a month's break ("the
October holidays", "May half-term", "the August bank holiday"); and "last night".

`times.spans.MORE` holds their pattern (`NAMED_DAYS`, `MONTH_BREAK`, `LAST_NIGHT`) beside
its other alternatives; `named_day` and `month_break` read a match relative to `today`.  A
named day without a year is the latest one that has begun by today.  Pure functions.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from memfold.times.words import MONTH_PATTERN, month_words
from memfold.values import Interval

# the words are times whatever stands before them ("for Halloween", "Valentine's dinner"):
# none of them is an everyday word
NAMED_DAYS = (
    r"(?P<named>valentine(?:'s|s)?(?:\s+day)?|hallowe'?en|bonfire\s+night|guy\s+fawkes(?:\s+night)?"
    r"|st\.?\s+patrick(?:'s|s)?(?:\s+day)?|saint\s+patrick(?:'s|s)?(?:\s+day)?|hogmanay"
    r"|boxing\s+day|good\s+friday|easter(?:\s+(?:sunday|monday|weekend))?|thanksgiving)"
    r"(?:\s+(?:of\s+)?(?P<nyear>\d{4}))?"
)
# "the October holidays", "May half-term", "the August bank holiday": the month
# lower case, "may" and "march" are verbs ("the vase may break") unless "the" comes first
MONTH_BREAK = (
    rf"(?:the\s+|(?!(?-i:may|mar|march)\b))(?P<mbreak>{MONTH_PATTERN})\s+"
    r"(?:holidays?|half[- ]?term|break|long\s+weekend|bank\s+holiday(?:\s+weekend)?)"
)
LAST_NIGHT = r"(?P<lastnight>last\s+night)"
WORDS = frozenset({"valentine", "valentine's", "valentines", "halloween", "hallowe'en",
                   "bonfire", "fawkes", "patrick", "patrick's", "patricks", "hogmanay",
                   "boxing", "easter", "thanksgiving", "friday", "holidays", "holiday",
                   "half", "term", "break", "bank", "night"})
# the fixed days: (month, day) to (month, day)
FIXED = {"valentine": ((2, 14), (2, 14)), "halloween": ((10, 31), (10, 31)),
         "bonfire": ((11, 5), (11, 5)), "guy": ((11, 5), (11, 5)),
         "st": ((3, 17), (3, 17)), "saint": ((3, 17), (3, 17)),
         "hogmanay": ((12, 31), (12, 31)), "boxing": ((12, 26), (12, 26))}


def easter_sunday(year: int) -> date:
    """Easter Sunday of the Gregorian calendar (the anonymous algorithm of 1876)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    el = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * el) // 451
    month, day = divmod(h + el - 7 * m + 114, 31)
    return date(year, month, day + 1)


def _of_year(name: str, year: int) -> Interval:
    word = re.sub(r"['.]", "", name.lower())  # "St. Patrick's" is "st patricks"
    first = word.split()[0]
    if first in ("easter", "good"):
        sunday = easter_sunday(year)
        if word == "easter sunday":
            return Interval(sunday, sunday)
        if word in ("easter monday", "good friday"):
            day = sunday + timedelta(days=1 if word == "easter monday" else -2)
            return Interval(day, day)
        return Interval(sunday - timedelta(days=2), sunday + timedelta(days=1))
    if first == "thanksgiving":  # the fourth Thursday of November
        day = date(year, 11, 1) + timedelta(days=(3 - date(year, 11, 1).weekday()) % 7 + 21)
        return Interval(day, day)
    key = "valentine" if first.startswith("valentine") else "halloween" if first.startswith(
        "hallow") else first
    (m1, d1), (m2, d2) = FIXED[key]
    return Interval(date(year, m1, d1), date(year, m2, d2))


def named_day(m: re.Match[str], today: date) -> Interval | None:
    """The named day of the year written, or the latest one that has begun by today."""
    if m.group("nyear"):
        year = int(m.group("nyear"))
        return _of_year(m.group("named"), year) if 1900 <= year <= 2100 else None
    for year in (today.year, today.year - 1):
        found = _of_year(m.group("named"), year)
        if found.start is not None and found.start <= today:
            return found
    return None


def month_break(m: re.Match[str], today: date) -> Interval | None:
    """"the October holidays": the month, the latest one not after today."""
    return month_words(m.group("mbreak").lower().rstrip("."), today)


def last_night(today: date) -> Interval:
    day = today - timedelta(days=1)
    return Interval(day, day)
