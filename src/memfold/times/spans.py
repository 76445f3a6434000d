"""Time phrases that name spans beyond a date: parts of a month or year ("late November"),
weeks of a month ("the first week of December"), weekends ("the weekend of June 14", "last
weekend"), "N weeks ago", ranges ("between Nov 25 and Nov 30"), the holidays, "the week
before last", "earlier this year".

One pattern (`MORE`), its alternatives told apart by their groups; `more_phrase` reads a
match relative to `today`.  `times.parse.find_time_phrase` runs it beside its own dates and
seasons, and only on text holding one of MORE_WORDS.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from memfold.times.days import (
    LAST_NIGHT,
    MONTH_BREAK,
    NAMED_DAYS,
    last_night,
    month_break,
    named_day,
)
from memfold.times.days import WORDS as DAY_WORDS
from memfold.times.words import (
    BACK_PATTERN,
    DATE_PATTERN,
    MONTH_PATTERN,
    NUMBER_PATTERN,
    WEEKDAY_PATTERN,
    WEEKDAYS,
    ago,
    date_words,
    fixed_spec,
    minus_months,
    month_end,
    month_words,
    number,
    on_first_use,
    shift,
    with_prep,
)
from memfold.values import Interval

_DAY_DATE = (rf"(?:{MONTH_PATTERN}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?"
             rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+{MONTH_PATTERN}\.?(?:,?\s+\d{{4}})?|\d{{4}}-\d{{2}}-\d{{2}})")
_OF_MONTH = rf"(?:{MONTH_PATTERN}\.?(?:,?\s+\d{{4}})?|(?:this|last)\s+month)"
_MONTH_NAME = re.compile(rf"\b{MONTH_PATTERN}\b", re.IGNORECASE)
MORE = on_first_use(
    # no "from": "move from 4 years ago" is no start of a time ("from X to Y" is a range, below)
    rf"\b(?:{BACK_PATTERN}(?P<prep>around|about|near|since|after|before|until|in|during|on|over|at)"
    r"\s+)?"
    r"(?:"
    rf"(?P<n>\d+|{NUMBER_PATTERN}|a|an)\s+(?P<unit>days?|weeks?|months?|years?)\s+ago"
    r"|(?:the\s+)?(?P<part>early|mid|late|(?:the\s+)?(?:beginning|start|middle|end)\s+of)"
    rf"(?:\s+|-)(?P<period>{_OF_MONTH}|\d{{4}}|(?:this|last|the)\s+year)"
    r"|(?:the\s+)?(?P<nth>first|1st|second|2nd|third|3rd|fourth|4th|last)\s+week\s+(?:of|in)\s+"
    rf"(?P<month>{_OF_MONTH})"
    rf"|(?:the\s+)?weekend\s+of\s+(?P<of>{_DAY_DATE})"
    rf"|between\s+(?P<a>{DATE_PATTERN})\s+and\s+(?P<b>{DATE_PATTERN}|\d{{1,2}}(?:st|nd|rd|th)?)"
    rf"|from\s+(?P<a2>{DATE_PATTERN})\s+(?:to|until|till|through)\s+"
    rf"(?P<b2>{DATE_PATTERN}|\d{{1,2}}(?:st|nd|rd|th)?)"
    r"|(?P<the>the\s+)?(?P<holiday>holidays|holiday\s+season|christmas(?:\s+(?:eve|day))?|xmas"
    r"|new\s+year(?:'s|s)?(?:\s+(?:eve|day))?)(?:\s+(?:of\s+)?(?P<hyear>\d{4}))?"
    rf"|(?:the\s+)?(?:last\s+|first\s+)?(?P<near>week|weekend|{WEEKDAY_PATTERN})\s+"
    rf"(?P<side>before|after)\s+(?P<ref>{_DAY_DATE})"
    rf"|(?P<rel>last|this(?:\s+past)?|past)\s+(?P<wd>weekend|{WEEKDAY_PATTERN})"
    r"|(?:the\s+)?(?P<back>day|week|weekend|month|year)\s+before\s+(?:last|yesterday)"
    r"|(?P<el>earlier|later)\s+this\s+(?P<elp>week|month|year)|earlier\s+(?P<etoday>today)"
    rf"|{NAMED_DAYS}|{MONTH_BREAK}|{LAST_NIGHT}"
    r")\b",
    re.IGNORECASE,
)
MORE_WORDS = frozenset({
    "ago", "early", "mid", "late", "beginning", "start", "middle", "end", "week", "weekend",
    "between", "from", "holidays", "holiday", "christmas", "xmas", "year", "years", "before",
    "after", "last", "this", "past", "earlier", "later", *DAY_WORDS})
# half the width of the window around "N units ago": a day either side of "3 days ago", the
# week around "2 weeks ago", the month around "3 months ago", the year around "2 years ago"
AGO_WIDTH = {"d": 1, "w": 3, "m": 15, "y": 182}
# parts of a month (days) and of a year (months): early, mid, late
MONTH_PARTS = {"early": (1, 10), "mid": (11, 20), "late": (21, 31)}
YEAR_PARTS = {"early": (1, 4), "mid": (5, 8), "late": (9, 12)}
# a part of "the year" that began fewer days ago than this is read in the year before
JUST_BEGUN = 31
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


def more_phrase(m: re.Match[str], today: date) -> Interval | None:
    prep = (m.group("prep") or "").lower()
    if m.group("holiday") and not _holiday_named(m, prep):
        return None
    interval = _more_interval(m, today)
    return with_prep(interval, "" if prep in ("over", "during", "in", "on", "at") else prep,
                      today)


def _more_interval(m: re.Match[str], today: date) -> Interval | None:
    if m.group("named"):
        return named_day(m, today)
    if m.group("mbreak"):
        return month_break(m, today)
    if m.group("lastnight"):
        return last_night(today)
    if m.group("n"):
        return ago_window(number(m.group("n")), m.group("unit")[0].lower(), today)
    if m.group("part"):
        return _part_of(m.group("part"), m.group("period"), today)
    if m.group("nth"):
        return _nth_week(m.group("nth").lower(), m.group("month"), today)
    if m.group("of"):
        day = date_words(m.group("of"), today)
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
        ref = date_words(m.group("ref"), today)
        return _next_to(m.group("near").lower(), m.group("side").lower() == "before",
                        ref.start) if ref and ref.start else None
    if m.group("etoday"):
        return Interval(today, today)
    return _earlier_later(m.group("el").lower(), m.group("elp").lower(), today)


def ago_window(amount: int, unit: str, today: date) -> Interval:
    """The days around `amount` units before today, ending no later than today."""
    point = ago(today, amount, unit)
    width = AGO_WIDTH[unit] if amount > 1 or unit != "d" else 0
    return Interval(shift(point, -width), min(shift(point, width), today))


def period(text: str, today: date) -> Interval | None:
    """A whole month ("November", "Nov 2024", this/last month) or year (2024, this/last
    year), not cut at today."""
    word = " ".join(text.lower().replace(",", " ").split())
    if word in ("this month", "last month"):
        first = today.replace(day=1) if word == "this month" else minus_months(
            today.replace(day=1), 1)
        return Interval(first, month_end(first.year, first.month))
    if word in ("this year", "last year", "the year"):
        year = today.year - (word == "last year")
        return Interval(date(year, 1, 1), date(year, 12, 31))
    if re.fullmatch(r"\d{4}", word):
        return fixed_spec(word, today) if 1900 <= int(word) <= 2100 else None
    return month_words(word, today)


def _part_of(part: str, period_text: str, today: date) -> Interval | None:
    """"early", "mid", "late", "the beginning/middle/end of" (early, mid and late) a
    period."""
    words = part.lower().split()
    name = PART_WORDS.get(words[-2], "") if len(words) > 1 else words[0]
    found = part_of(name, period(period_text, today))
    if (found is not None and found.start is not None and " ".join(period_text.split()).lower()
            == "the year" and found.start > today - timedelta(days=JUST_BEGUN)):
        # "the start of the year" asked in its first days is the year just gone
        return part_of(name, period("last year", today))
    return found


def part_of(name: str, whole: Interval | None) -> Interval | None:
    """Early, mid or late (`name`) in a whole month (days 1-10, 11-20, 21-end) or year
    (Jan-Apr, May-Aug, Sep-Dec)."""
    if whole is None or whole.start is None or whole.end is None:
        return None
    start = whole.start
    if whole.start.month != whole.end.month:  # a year
        first, last = YEAR_PARTS[name]
        return Interval(date(start.year, first, 1), month_end(start.year, last))
    first, last = MONTH_PARTS[name]
    return Interval(start.replace(day=first), start.replace(day=min(last, whole.end.day)))


def _nth_week(nth: str, month: str, today: date) -> Interval | None:
    """The first (days 1-7), second, third or fourth week of a month; the last: its last
    seven days."""
    whole = period(month, today)
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
    a = date_words(first, today)
    if a is None or a.start is None:
        return None
    if re.fullmatch(r"\d{1,2}(?:st|nd|rd|th)?", second.strip(), re.IGNORECASE):
        day = int(re.sub(r"\D", "", second))
        b: Interval | None = Interval(None, a.start.replace(day=day))
    else:
        b = date_words(second, today)
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
        first = minus_months(today.replace(day=1), 2)
        return Interval(first, month_end(first.year, first.month))
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
                  "month": (today.replace(day=1), month_end(today.year, today.month)),
                  "year": (date(today.year, 1, 1), date(today.year, 12, 31))}[unit]
    if which == "later":
        return Interval(today, end)
    return Interval(start, max(start, today - timedelta(days=1)))


def weekend_next_to(before: bool, day: date) -> Interval:
    """The weekend just before or just after `day` (`times.anchors`)."""
    return _next_to("weekend", before, day)
