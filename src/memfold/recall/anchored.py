"""A time named by an event ("around my birthday", "in the weeks before the move", "my first
week at the university"): the event's day is read from the fact that tells of it, and the
query is asked as of the window it names.

`times.anchors` reads the phrase; this module finds the event's fact among those written by
the day asked at — a fact holding the event's head word (by its stem), the one holding most
of the event's words, then the phrase itself ("my birthday"), then the best match (for "my
first ...": one that tells of a beginning, the earliest) — and takes its day: a date its own
words state ("My birthday is 21 June": the latest 21 June by now; "the movers come on 26
July", a plan), else a time it states relative to its writing ("last night"), else the day
it was written. Only a question that asks nothing else ("what was I doing around my
birthday", "what happened the week after the move") is asked so, without the event's words
and those framing it (the facts of that time rarely repeat them); beside other words ("what
did Mel realize after the charity race", "who do I report to since the restructure", "how
long after the move did I ...") the event is what is asked about, and the question stays as
it was, with the current-value reading a window would turn off. An event no fact tells of
leaves the query as it was.
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from dataclasses import replace as evolve
from datetime import date, timedelta
from typing import Any

from memfold.index.base import Candidate, Filters, RecallIndex, Terms
from memfold.names import STOP_WORDS, find_words
from memfold.recall.fusion import lexical_part
from memfold.recall.query import OCCASION_DAYS, TIME_TOPICS, QueryPlan, occasion_words, word_stem
from memfold.recall.ranking import Scored
from memfold.recall.scoring import TOLD_DAYS, said_time, tells_of, year_on
from memfold.times.anchors import Anchor, anchor_window
from memfold.times.parse import find_time_phrase
from memfold.times.words import MONTH_PATTERN
from memfold.values import Fact, Interval

SEARCHED = 30  # the event's best matches looked at (and an occasion's, `occasions`)
LONGEST_DAYS = 31  # a stated time longer than this is no event's day
# words that ask nothing beside a time: "where did we go", "what did I get up to"
LIGHT_VERBS = frozenset("""go goes went gone going do does did doing done happen happens
    happened happening get gets got getting spend spent spending""".split())
KIND_ORDER = {"experience": 3.0, "observation": 2.0, "world": 1.0}
EVENT_NUDGE = 1e-9  # far below any score a match gives
_ABSOLUTE = re.compile(rf"\d|\b{MONTH_PATTERN}\b", re.IGNORECASE)
# words that tell of a beginning: "my first week at X" anchors on the fact that starts X
BEGINNING = frozenset(word_stem(w) for w in ("first", "start", "started", "began", "joined",
                                              "new"))


def with_anchor(backend: RecallIndex, plan: QueryPlan, written_by: date | None,
                today: date) -> tuple[QueryPlan, str | None]:
    """The plan asked as of the window its event names, and a note saying how the time was
    read; the plan unchanged (and no note) when it names no event or no fact tells of it.
    Either way a time with light verbs only is asked as a time alone (`only_time`)."""
    anchor = plan.anchor
    if anchor is None or plan.window is not None:
        return only_time(plan), None
    words = _words(anchor)
    frame = {w.casefold() for w in find_words(" ".join(anchor.frame))}
    rest = [t for t in plan.terms if t not in frame and t not in words]
    if anchor.asked or plan.mentions or any(t not in LIGHT_VERBS for t in rest):
        # beside other words ("what did Mel realize after the charity race", "who do I
        # report to since the restructure") the event is what is asked about: no window
        return plan, None
    found = _event_fact(backend, anchor, words, written_by)
    if found is None:
        return plan, None
    window = anchor_window(anchor, event_days(found.fact, today), today)
    if window is None:
        return plan, None
    # the frame's words ("week", "first") and the event's say the time: the facts of that
    # time rarely repeat them, so what is left (`rest`, light verbs) is searched
    note = (f"{' '.join(anchor.event)!r} read as the day of ^{found.fact.id}: "
            f"{_shown(window)}")
    return only_time(evolve(plan, window=window, terms=tuple(rest))), note


def only_time(plan: QueryPlan) -> QueryPlan:
    """A question whose words beside its time are only light verbs ("where did we go for
    Valentine's Day", "how did we spend Easter"), and the time's own words searched beside
    them ("Valentine"), asks what happened then: it is asked as a time alone, as "what did
    we do at Halloween" is.  Else the plan as it was."""
    if plan.window is None or not plan.terms or plan.phrases or plan.mentions:
        return plan
    if all(t in LIGHT_VERBS or t in TIME_TOPICS for t in plan.terms):
        return evolve(plan, terms=())
    return plan


def events_first(scored: list[Scored], plan: QueryPlan) -> list[Scored]:
    """A question that is only a time ("what happened in August", "what did I do around my
    birthday") asks what happened: facts nothing else ranks (no words, no names) are
    ordered experiences first, then observations, world facts and opinions, each kind
    newest first as before."""
    if plan.window is None or plan.terms or plan.phrases or plan.mentions:
        return scored
    # a fact that names the occasion asked (`occasions`) comes first; its neighbours are
    # no nearer to the question for being next to it
    return [evolve(s, score=s.own or KIND_ORDER.get(s.fact.kind, 0.0) * EVENT_NUDGE)
            for s in scored]


def told_after(window: Interval | None, today: date) -> Interval | None:
    """A window recall is restricted to, reaching TOLD_DAYS past its end (never past today):
    what happened is often written down the next day ("we took Felix guising last night",
    the morning after Halloween).  Of the facts written in those days only the ones whose
    own words place them then are kept (`told_then`)."""
    if window is None or window.end is None or window.end >= today:
        return window
    return Interval(window.start, min(today, window.end + timedelta(days=TOLD_DAYS)))


def told_then(found: MutableMapping[Any, Candidate], window: Interval | None) -> None:
    """Leave out of `found` the facts written after `window` (in the days `told_after`
    adds) whose own words do not place them within it."""
    if window is None or window.end is None:
        return
    end = window.end
    for key, c in list(found.items()):
        day = c.fact.day
        if day is not None and day > end and not _said_in(c.fact, window):
            del found[key]


def _said_in(fact: Fact, window: Interval) -> bool:
    """Whether the fact's own words place it within the window ("last night"; not "this
    year", which only overlaps it)."""
    said = said_time(fact.content, fact.day)
    return said is not None and said.start is not None and said.end is not None and (
        window.start is None or window.start <= said.start) and (
        window.end is None or said.end <= window.end)


def occasions(backend: RecallIndex, plan: QueryPlan, window: Interval | None,
              filters: Filters) -> dict[int, tuple[Candidate, float]]:
    """A question that is only a time named by an occasion ("what did we do at Easter?",
    `only_time`): the facts that name the occasion, written within OCCASION_DAYS of it,
    each with its match on the occasion's words (`fusion.lexical_part`), by rowid.  The
    window finds what was written then; these are found by what they say, however far from
    the calendar's day they were written."""
    words = occasion_words(plan.text)
    if not words or window is None or window.start is None or window.end is None:
        return {}
    reach = timedelta(days=OCCASION_DAYS)
    near = evolve(filters, window=Interval(window.start - reach, window.end + reach))
    hits = [c for c in backend.lexical(Terms(words=tuple(sorted(words))), near, SEARCHED)
            if c.bm25 is not None and tells_of(c.fact, words, window)]
    best = max((-c.bm25 for c in hits if c.bm25 is not None), default=0.0)
    return {c.rowid: (c, lexical_part(c.bm25, best)) for c in hits}


def _words(anchor: Anchor) -> tuple[str, ...]:
    return tuple(dict.fromkeys(w.casefold() for w in find_words(" ".join(anchor.event))
                               if w.casefold() not in STOP_WORDS))


def _event_fact(backend: RecallIndex, anchor: Anchor, words: tuple[str, ...],
                written_by: date | None) -> Candidate | None:
    """The fact that tells of the event (module docstring), or None."""
    if not words:
        return None
    found = backend.lexical(Terms(words=words), Filters(written_by=written_by), SEARCHED)
    head, stems = word_stem(anchor.head.casefold()), {word_stem(w) for w in words}
    phrase = " ".join(anchor.event[:2]).casefold().replace("\u2019", "'")
    held = []
    for n, c in enumerate(found):
        own = {word_stem(w.casefold()) for w in find_words(c.fact.content)}
        if head in own:
            held.append((n, c, len(stems & own), phrase in c.fact.content.casefold(),
                         bool(own & BEGINNING)))
    if not held:
        return None
    if anchor.side == "first":
        return min(held, key=lambda h: (not h[4], h[1].fact.day or date.max, h[0]))[1]
    return min(held, key=lambda h: (-h[2], not h[3], h[0]))[1]


def event_days(fact: Fact, today: date) -> Interval:
    """The days of the event a fact tells of (module docstring)."""
    day = fact.day or today
    whole = Interval(day, day)
    found = find_time_phrase(fact.content, today=day)
    if found is None:
        return whole
    said, (start, end) = found
    if _ABSOLUTE.search(fact.content[start:end]):
        if fact.kind == "experience":
            return whole  # told as it happened; a date in it is another time ("last day 18 July")
        # a date without its year: the latest by now (a birthday), else the next one after
        # the fact was written (a plan)
        again = find_time_phrase(fact.content, today=today)
        said = again[0] if again else said
        said = year_on(fact.content, day, said) or said
    if said.start is None or said.end is None or (said.end - said.start).days > LONGEST_DAYS:
        return whole
    return said


def _shown(window: Interval) -> str:
    start = window.start.isoformat() if window.start else "..."
    end = window.end.isoformat() if window.end else "..."
    return start if start == end else f"{start} to {end}"
