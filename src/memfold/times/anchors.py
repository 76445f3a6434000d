"""Times named by an event instead of a date: "around my birthday", "before the move",
"since I started the new job", "the weekend after Mum's fall", "in the weeks before the
wedding", "my first week at the university".

`find_anchor` reads the phrase (pure: the words only); the event's day comes from the facts
(`recall.anchored` finds the fact that tells of it), and `anchor_window` turns that day into
the window asked about.  A phrase whose words say a date is read by `times.parse` first; an
ordering question ("before or after we moved") names no window and is not read here.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import date

from memfold.times.spans import weekend_next_to
from memfold.times.words import AROUND_DAYS, on_first_use, shift
from memfold.values import Interval

# "the weeks before", "in the days after", "the weekend following", "the month leading up to"
_SPAN = (r"(?:(?:in|during|over)\s+)?the\s+(?P<span>(?:few\s+|couple\s+of\s+)?"
         r"(?:days?|weeks?|months?|weekend))\s+(?P<side>before|after|leading\s+up\s+to|following)")
# "my first week at the university", "our first month in Glasgow"
_FIRST = (r"(?:(?:in|during|over)\s+)?(?:my|our|his|her|their|the)\s+first\s+"
          r"(?P<first>days?|week|weeks|month|months|year)\s+(?:at|of|in|on|with|after)")
_PREP = (r"(?:(?:just|right|shortly|soon|not\s+long)\s+)?"
         r"(?P<prep>around|before|after|since|until|till)")
ANCHOR = on_first_use(rf"\b(?:{_SPAN}|{_FIRST}|{_PREP})\s+(?P<rest>[^?!.,;:]+)", re.IGNORECASE)
# a question that asks when something happened: "when did I ...", "what day was ...", "how
# long ago did ..." (not "when is ...": a plan or a date, which may not have happened yet)
WHEN = on_first_use(r"^\W*(?:when|(?:what|which)\s+(?:day|date|month|year|week)|how\s+long\s+ago)"
                  r"\s+(?:did|was|were|had|have|has)\b", re.IGNORECASE)
# "when did I last see Dee?": the latest such event, which decay orders as it should
LATEST = on_first_use(r"\b(?:last|latest|most\s+recent(?:ly)?|recently)\b", re.IGNORECASE)
HOW_LONG = on_first_use(r"\bhow\s+(?:long|many\s+\w+|soon)\b", re.IGNORECASE)
OR_NEXT = on_first_use(r"^\s*(?:or|and)\b", re.IGNORECASE)

DETERMINERS = frozenset({"my", "our", "the", "his", "her", "their", "mum's", "mom's",
                         "dad's"})
SUBJECTS = frozenset({"i", "we", "he", "she", "they"})
# the words that end an event's phrase: a question's verb, a conjunction, a preposition
ENDS = frozenset("""did do does was were is are am has have had will would could can and or
    but when what where who how which that then so if of at in on with for to from by about
    as i we you he she they it around before after since until during while now then""".split())
# verbs whose "after" is part of them, not a time: "looks after the cat", "takes after her mum"
PHRASAL = on_first_use(r"\b(?:look|looks|looked|looking|take|takes|took|taking|named|name|go|goes"
                     r"|went|going|run|runs|ran|running|ask|asks|asked|chase|chased|sought"
                     r"|come|comes|came)\s*$", re.IGNORECASE)
# heads that name a time, not an event ("before the weekend", "after the end")
TIME_HEADS = frozenset("""weekend week month year day morning evening night afternoon end
    start beginning middle time holidays holiday summer winter spring autumn""".split())
MOST_WORDS = 5
SPAN_DAYS = {"day": 1, "days": 5, "week": 7, "weeks": 28, "month": 31, "months": 92}
FIRST_DAYS = {"day": 1, "days": 5, "week": 7, "weeks": 21, "month": 31, "months": 92,
              "year": 365}


@dataclass(frozen=True)
class Anchor:
    """An event a query names as its time: how the time stands to it (`side`: around,
    before, after, since, until, first), for how many days (`days`, 0: open), the
    event's words (`event`, `head`: the word it turns on), the words before them
    (`frame`), and whether the event's words are asked too (`asked`: "how long after the
    move did I ..." asks for both ends)."""

    side: str
    days: int
    event: tuple[str, ...]
    head: str
    frame: tuple[str, ...]  # the words that say how the time stands to it ("the week after")
    asked: bool


@functools.lru_cache(maxsize=256)
def asks_when(text: str) -> bool:
    """Whether a question asks when something happened ("When did I sign up for the
    Cardiff Half?"): it asks about the past, so an event's decay since says nothing of how
    well it answers (`recall.scoring`).  Not when it asks for the latest ("when did I last
    ..."): recency is what decay weighs."""
    return bool(WHEN().match(text)) and not LATEST().search(text)


def find_anchor(text: str) -> Anchor | None:
    """The first time named by an event in `text`, or None."""
    for m in ANCHOR().finditer(text):
        if OR_NEXT().match(m.group("rest")):
            continue  # "before or after we moved": an order, not a window
        if m.group("prep") and PHRASAL().search(text, 0, m.start()):
            continue  # "who looks after the dog": a verb, not a time
        words = _event(m.group("rest"))
        if words is None:
            continue
        event, head = words
        side, days = _side(m)
        frame = tuple(text[m.start():m.start("rest")].split())
        return Anchor(side, days, event, head, frame, bool(HOW_LONG().search(text)))
    return None


def _event(rest: str) -> tuple[tuple[str, ...], str] | None:
    """The event's words after the time word: a determiner or possessive and up to four
    more words ("my birthday", "Mum's fall", "the new job"), or a pronoun and its verb
    with what follows ("we moved", "I started the new job"); None for anything else."""
    words = rest.split()
    if not words:
        return None
    first = words[0].lower().replace("\u2019", "'")
    clause = first in SUBJECTS
    if not (clause or first in DETERMINERS or first.endswith("'s")):
        return None
    event = [words[0]]
    for w in words[1:MOST_WORDS + 1]:
        low = w.lower()
        if low in ENDS and not (clause and len(event) == 1 and low in ("did", "had")):
            break
        event.append(w)
    content = [w for w in event[1:] if w.lower() not in ENDS]
    if not content:
        return None
    head = content[0] if clause else content[-1]
    if head.lower() in TIME_HEADS:
        return None
    return tuple(event), head


def _side(m: re.Match[str]) -> tuple[str, int]:
    if m.group("first"):
        return "first", FIRST_DAYS[m.group("first").lower()]
    if m.group("span"):
        unit = m.group("span").lower().split()[-1]
        side = "after" if m.group("side").lower() in ("after", "following") else "before"
        return side, -1 if unit == "weekend" else SPAN_DAYS[unit]
    prep = m.group("prep").lower()
    return {"till": "until"}.get(prep, prep), 0


def anchor_window(anchor: Anchor, day: Interval, today: date) -> Interval | None:
    """The window an anchored time names, given the event's days."""
    start, end = day.start, day.end
    if start is None or end is None:
        return None
    side, days = anchor.side, anchor.days
    if side == "around":
        return Interval(shift(start, -AROUND_DAYS), shift(end, AROUND_DAYS))
    if side == "first":
        return Interval(start, shift(start, days - 1))
    if days < 0:  # the weekend before or after
        return weekend_next_to(side == "before", start if side == "before" else end)
    if side == "before":  # "before X" holds X's own day (what led up to it that day)
        return Interval(shift(start, -days), shift(start, -1)) if days else Interval(None, end)
    if side == "until":
        return Interval(None, end)
    if side == "since":
        return Interval(start, max(start, today))
    # the days after; "after X" from X's own day (what followed it that day) to today
    if days:
        return Interval(shift(end, 1), shift(end, days))
    return Interval(start, max(start, today))
