"""Time phrases written in Vietnamese, with or without diacritics.

This module owns the Vietnamese calendar words: dates ("27 tháng 11", "ngày 27/11",
"tháng 11 năm 2025", "năm ngoái"), named periods ("hôm qua", "tuần trước", "tháng này"),
weekdays ("từ thứ Hai"), amounts ("2 tuần trước", "3 ngày qua"), parts of a month or year
("cuối tháng 11", "đầu năm nay"), seasons ("mùa xuân năm ngoái"), the prepositions that make
an interval of them (khoảng, từ, trước, đến, sau, vào), and the validity ranges a bullet
states ("(27 tháng 11 – 1 tháng 12, 2025)", "27/11–1/12/2025", "đến hết 15/12").

Text is matched folded (lowercase, tone marks and đ dropped), so "khoang 27 thang 11" reads
like "khoảng 27 tháng 11"; spans are given in the caller's text.  `times.parse` calls
`find_vi_time_phrase` beside its English patterns and `vi_validity` from `extract_interval`.
Pure functions of the text and the `today` the caller passes.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date

from memfold.times.spans import ago_window, part_of, period
from memfold.times.words import (
    ago,
    build_range,
    latest_month,
    latest_month_day,
    month_end,
    named_period,
    on_first_use,
    recent_seasons,
    season,
    shift,
    with_prep,
)
from memfold.values import Interval

# -- folding ----------------------------------------------------------------------------


def _base(ch: str) -> str:
    if ch in "đĐ":
        return "d"
    decomposed = unicodedata.normalize("NFD", ch)
    return decomposed[0].lower() if len(decomposed[0].lower()) == 1 else ch


# one character for one: ASCII capitals, and the Latin letters with marks (Latin-1 to
# Latin Extended-B, and Vietnamese's U+1EA0..U+1EF9) to their lowercase base letter
_FOLD = {ord(c): _base(c) for c in (*map(chr, range(0x41, 0x5B)), *map(chr, range(0xC0, 0x250)),
                                    *map(chr, range(0x1EA0, 0x1EFA)))}
MARKS = re.compile("[\u0300-\u036f]")


def fold(text: str) -> tuple[str, list[int]]:
    """`text` lowercased without tone marks and with đ as d, and for each character of the
    result the index of the character of `text` it came from (combining marks dropped)."""
    if not MARKS.search(text):  # precomposed text: one character for one, by a table
        return text.translate(_FOLD), list(range(len(text)))
    out: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        if ch in "đĐ":
            base = "d"
        elif ch.isascii():
            base = ch.lower()
        else:
            decomposed = unicodedata.normalize("NFD", ch)
            base = decomposed[0].lower() if unicodedata.category(decomposed[0])[0] != "M" \
                else ""
        if len(base) == 1:
            out.append(base)
            origin.append(i)
    return "".join(out), origin


def _span(origin: list[int], text: str, start: int, end: int) -> tuple[int, int]:
    """A span of the folded text as a span of the original (with trailing marks)."""
    last = origin[end - 1] + 1
    while last < len(text) and unicodedata.category(text[last])[0] == "M":
        last += 1
    return origin[start], last


# -- the words --------------------------------------------------------------------------

NUMBER_WORDS = {"mot": 1, "hai": 2, "ba": 3, "bon": 4, "tu": 4, "nam": 5, "sau": 6, "bay": 7,
                "tam": 8, "chin": 9, "muoi": 10, "vai": 3, "may": 3}
_NUM = r"(?:\d{1,3}|mot|hai|ba|bon|nam|sau|bay|tam|chin|muoi|vai)"
WEEKDAY_WORDS = {"hai": 0, "2": 0, "ba": 1, "3": 1, "tu": 2, "4": 2, "nam": 3, "5": 3,
                 "sau": 4, "6": 4, "bay": 5, "7": 5}
_ENGLISH_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                     "sunday")
UNITS = {"ngay": "d", "tuan": "w", "thang": "m", "nam": "y"}
PREPS = {"khoang": "around", "tam": "around", "quanh": "around", "tu": "since",
         "ke tu": "since", "tu sau": "after", "sau": "after", "truoc": "before",
         "den": "until", "den het": "until", "toi": "until", "cho den": "until",
         "vao": "", "trong": "", "hoi": "", "luc": "", "ngay": ""}
SEASONS = {"xuan": "spring", "he": "summer", "ha": "summer", "thu": "autumn", "dong": "winter"}
PARTS = {"dau": "early", "giua": "mid", "cuoi": "late"}

_YEAR_REL = r"(?:nay|ngoai|truoc|roi|\d{4})"
_MONTH = rf"thang\s+(?P<mm>\d{{1,2}})(?:\s*(?:,\s*)?(?:nam\s+|/)(?P<my>{_YEAR_REL}))?"
_DAY_MONTH = (r"(?:ngay\s+)?(?P<d>\d{1,2})(?:\s+thang\s+|/)(?P<m>\d{1,2})"
              rf"(?:\s*(?:,\s*)?(?:nam\s+|/)(?P<y>{_YEAR_REL}))?(?![\d/])")
_PREP = r"(?P<prep>khoang|tam|quanh|ke\s+tu|tu\s+sau|tu|sau|truoc|den\s+het|cho\s+den|den|toi" \
        r"|vao|trong|hoi|luc)"
VI_PHRASE = on_first_use(
    rf"(?<!\w)(?:{_PREP}\s+)?(?:"
    rf"{_DAY_MONTH}"
    rf"|(?P<part>dau|giua|cuoi)\s+(?:{_MONTH.replace('mm', 'pm').replace('my', 'py')}"
    rf"|(?P<pper>thang\s+(?:nay|truoc|roi)|nam\s+{_YEAR_REL}))"
    rf"|{_MONTH}"
    rf"|nam\s+(?P<year>{_YEAR_REL})"
    r"|(?P<named>hom\s+nay|hom\s+qua|hom\s+kia|(?:tuan|thang)\s+(?:nay|truoc|roi))"
    r"|(?P<weekday>thu\s+(?:hai|ba|tu|nam|sau|bay|[2-7])|chu\s+nhat)"
    rf"|(?P<n>{_NUM})\s+(?P<unit>ngay|tuan|thang|nam)\s+(?P<dir>truoc|qua|gan\s+day|vua\s+qua)"
    rf"|mua\s+(?P<season>xuan|he|ha|thu|dong)(?:\s+(?:nam\s+)?(?P<syear>{_YEAR_REL}))?"
    r")(?!\w)",
)
# folded words without one of which no Vietnamese phrase can match
VI_WORDS = frozenset({"thang", "nam", "ngay", "tuan", "hom", "thu", "chu", "mua"})
# the same as people write them: a look at a text's words far cheaper than folding it
VI_WRITTEN = frozenset({*VI_WORDS, "tháng", "năm", "ngày", "tuần", "hôm", "thứ", "chủ", "mùa"})


def find_vi_time_phrase(text: str, *, today: date) -> tuple[Interval, tuple[int, int]] | None:
    """The first Vietnamese time phrase in `text`: its interval and its span in `text`."""
    folded, origin = fold(text)
    at = 0
    while m := VI_PHRASE().search(folded, at):
        at = m.start() + 1
        if m.group("part") and not _is_part(text, origin, m):
            continue
        try:
            interval = _read(m, today)
        except (OverflowError, ValueError):
            interval = None
        if interval is not None:
            return interval, _span(origin, text, *m.span())
    return None


def _is_part(text: str, origin: list[int], m: re.Match[str]) -> bool:
    """Whether the word read as a part of a period is one: "đâu" (where) folds to "dau"
    like "đầu" (the start), so "ở đâu tháng 11" asks where, in November."""
    start, end = _span(origin, text, *m.span("part"))
    word = unicodedata.normalize("NFC", text[start:end]).lower()
    if not word.isascii():
        return word in ("đầu", "giữa", "cuối")
    return not re.search(r"(?<!\w)o\s+$", text[:start].lower())  # "o dau": where


def _read(m: re.Match[str], today: date) -> Interval | None:
    prep = " ".join((m.group("prep") or "").split())
    if m.group("weekday") and not prep:
        return None  # "thứ hai" is also "the second": a weekday needs a preposition
    if m.group("season") and not (prep or m.group("syear")):
        return None  # "mùa thu" alone: folded it is also "mua thu", to buy
    if m.group("d") and not (prep or m.group("y") or re.search(r"ngay|thang", m.group(0))):
        return None  # a bare "1/2" is a fraction as often as a day
    interval = _core(m, today)
    return with_prep(interval, PREPS.get(prep, ""), today)


def _core(m: re.Match[str], today: date) -> Interval | None:
    if m.group("d"):
        return _day(int(m.group("d")), int(m.group("m")), m.group("y"), today)
    if m.group("part"):
        return _part(m, today)
    if m.group("mm"):
        return _month(int(m.group("mm")), m.group("my"), today)
    if m.group("year"):
        return _year(m.group("year"), today)
    if m.group("named"):
        return _named(" ".join(m.group("named").split()), today)
    if m.group("weekday"):
        word = m.group("weekday").split()[-1]
        name = "sunday" if word == "nhat" else _ENGLISH_WEEKDAYS[WEEKDAY_WORDS[word]]
        return named_period(name, today)
    if m.group("n"):
        return _amount(m.group("n"), m.group("unit"), m.group("dir"), today)
    return _season(m.group("season"), m.group("syear"), today)


def _year_of(word: str | None, today: date) -> int | None:
    if word is None:
        return None
    if word.isdigit():
        return int(word) if 1 <= int(word) <= 9999 else None
    return today.year if word == "nay" else today.year - 1


def _day(day: int, month: int, year_word: str | None, today: date) -> Interval | None:
    if not 1 <= month <= 12:
        return None
    year = _year_of(year_word, today)
    found = latest_month_day(month, day, today) if year is None else date(year, month, day)
    return Interval(found, found) if found else None


def _month(month: int, year_word: str | None, today: date) -> Interval | None:
    if not 1 <= month <= 12:
        return None
    year = _year_of(year_word, today) or latest_month(month, today)
    return Interval(date(year, month, 1), month_end(year, month))


def _year(word: str, today: date) -> Interval | None:
    year = _year_of(word, today)
    if year is None or (word.isdigit() and not 1900 <= year <= 2100):
        return None
    return Interval(date(year, 1, 1), date(year, 12, 31))


def _named(word: str, today: date) -> Interval | None:
    english = {"hom nay": "today", "hom qua": "yesterday", "tuan nay": "this week",
               "tuan truoc": "last week", "tuan roi": "last week", "thang nay": "this month",
               "thang truoc": "last month", "thang roi": "last month"}
    if word == "hom kia":  # the day before yesterday
        day = shift(today, -2)
        return Interval(day, day)
    return named_period(english[word], today)


def _amount(n: str, unit: str, direction: str, today: date) -> Interval:
    amount = int(n) if n.isdigit() else NUMBER_WORDS[n]
    if direction == "truoc":  # "2 tuần trước": two weeks ago
        return ago_window(amount, UNITS[unit], today)
    return Interval(ago(today, amount, UNITS[unit]), today)  # "3 ngày qua": the past 3 days


def _part(m: re.Match[str], today: date) -> Interval | None:
    part = PARTS[m.group("part")]
    if m.group("pm"):
        return part_of(part, _month(int(m.group("pm")), m.group("py"), today))
    words = m.group("pper").split()
    if words[0] == "thang":
        return part_of(part, period("this month" if words[1] == "nay" else "last month", today))
    year = _year_of(words[1], today)
    return None if year is None else part_of(part, period(str(year), today))


def _season(name: str, year_word: str | None, today: date) -> Interval | None:
    english = SEASONS[name]
    if year_word is not None:
        year = _year_of(year_word, today)
        return season(english, year) if year and 1900 <= year <= 2100 else None
    return next(s for s in recent_seasons(english, today) if s.start and s.start <= today)


# -- validity ranges inside a bullet ------------------------------------------------------

_END = (r"(?P<d2>\d{1,2})(?:\s+thang\s+|/)(?P<m2>\d{1,2})"
        r"(?:\s*(?:,\s*)?(?:nam\s+|/)(?P<y2>\d{4}))?(?![\d/])")
VI_RANGE = on_first_use(
    r"(?<![\w/])(?:ngay\s+)?(?P<d1>\d{1,2})(?:(?:\s+thang\s+|/)(?P<m1>\d{1,2}))?"
    r"(?:\s*(?:,\s*)?(?:nam\s+|/)(?P<y1>\d{4}))?"
    rf"\s*(?:–|—|-|\bden\b|\btoi\b)\s*(?:ngay\s+)?{_END}")
VI_UNTIL = on_first_use(rf"(?<!\w)(?:den\s+het|cho\s+den|den)\s+(?:ngay\s+)?{_END}")


def vi_validity(content: str, *, default_year: int) -> Interval | None:
    """The first validity range a Vietnamese bullet states: "27 tháng 11 – 1 tháng 12,
    2025", "27/11–1/12/2025", or an end alone, "đến hết 15/12" (open start)."""
    folded, _ = fold(content)
    if m := VI_RANGE().search(folded):
        m2 = int(m.group("m2"))
        m1 = int(m.group("m1")) if m.group("m1") else m2
        if 1 <= m1 <= 12 and 1 <= m2 <= 12:
            y1, y2 = m.group("y1"), m.group("y2")
            return build_range(m1, int(m.group("d1")), int(y1) if y1 else None, m2,
                               int(m.group("d2")), int(y2) if y2 else None, default_year)
    if m := VI_UNTIL().search(folded):
        year = int(m.group("y2")) if m.group("y2") else default_year
        try:
            end = date(year, int(m.group("m2")), int(m.group("d2")))
        except ValueError:
            return None
        return Interval(None, end)
    return None
