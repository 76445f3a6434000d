"""A question about what held before a change ("where did I live before Nairobi?", "what phone
did I have before the Samsung?", "how much was the electricity before we switched to Bord
Gáis?"): asked without the change's words, as of the day before the fact that tells of it.

The words after "before" name the newer state, not the answer: the facts that hold them ("I've
moved to Nairobi; I live in the Kilimani flat now") match the question best and are the one
thing it does not ask for.  So the change's fact is found — among the facts written by the day
asked at that hold the change's words, the one holding most of them, then most of the
question's other words (whose change it is: "before the price went up" of Starlink's price,
not the gym's), then the earliest (a change is told first when it happens) — and the question
is asked with its other words, as of the day before that fact's day: what held then ranks
first, a fact written since weighs `ranking.AFTER_CHANGE` (it tells of the change or of what
came after), and a fact replaced since is shown, as for any question that names a time
(`scoring.standing`).

A question about what held when something was so or happened ("how much was my electricity bill
when I lived in Barranco?", "what internet did I have when I first moved to Kilimani?",
`asked_when`) is read the same way: the clause's fact is found as a change's is, and the
question is asked with its other words for the time from that fact's day to the day before
it was replaced, or WHEN_DAYS on when it was not, and from WHEN_DAYS before it: what was
done for a move is often done the weeks before it.

Not read so: a question with a time of its own, one that asks for the order of two things
("before or after we moved"), one in the present ("what do I need before the trip?": a plan),
one whose words are all the change's, and a change no fact tells of — those stay as they were.
`recall.anchored` reads a time named by an event when nothing else is asked ("what did we do
the week before the move?").
"""

from __future__ import annotations

import re
from dataclasses import replace as evolve
from datetime import date, timedelta

from memfold import lexicon
from memfold.index.base import Candidate, Filters, RecallIndex, Terms
from memfold.names import STOP_WORDS, entity_key, find_words
from memfold.recall.anchored import LIGHT_VERBS, event_days
from memfold.recall.query import QueryPlan, word_stem
from memfold.values import Interval

SEARCHED = 30  # the change's best matches looked at
WHEN_DAYS = 30  # how long after its fact's day a time told by a clause runs, at least
# "when I lived in Barranco", "when we met": a clause of the user's after the question's own
# words (not "When did I ...", which asks when; not "when Caroline went ...", which a
# conversation's questions ask of the turns around it)
WHEN = re.compile(r"(?<=\w)\W+when\s+(?P<rest>(?:I|we)\b[^?!.,;:]+)")
MOST_WORDS = 6  # the words after "before" read as the change
BEFORE = re.compile(r"\b(?:(?:just|right|shortly|not\s+long)\s+)?(?:before|prior\s+to)\s+"
                    r"(?P<rest>[^?!.,;:]+)", re.IGNORECASE)
# "before or after we moved": an order asked, not a time
ORDER = re.compile(r"^\s*(?:or|and)\b", re.IGNORECASE)
# the question asks about the past: what held, not what is planned
PAST = re.compile(r"\b(?:did|was|were|had|used)\b", re.IGNORECASE)


def asked_before(backend: RecallIndex, plan: QueryPlan, written_by: date | None,
                 today: date) -> tuple[QueryPlan, str | None]:
    """The plan asked as of the day before the change it names, and a note saying how it
    was read; the plan unchanged (and no note) otherwise (module docstring)."""
    read = _clause(backend, plan, BEFORE, written_by, today)
    if read is None:
        return plan, None
    change, rest, found, start = read
    day = start - timedelta(days=1)
    keys = tuple(k for k in plan.name_keys if not set(k.split("-")) & {entity_key(w)
                                                                       for w in change})
    note = f"before {' '.join(change)!r} read as before ^{found.fact.id}: as of {day}"
    return evolve(plan, terms=rest, name_keys=keys, window=Interval(day, day),
                  anchor=None, change_day=start), note


def asked_when(backend: RecallIndex, plan: QueryPlan, written_by: date | None,
               today: date) -> tuple[QueryPlan, str | None]:
    """The plan asked for the time a "when" clause tells of, and a note; the plan unchanged
    (and no note) otherwise (module docstring)."""
    read = _clause(backend, plan, WHEN, written_by, today)
    if read is None:
        return plan, None
    clause, rest, found, start = read
    end = start + timedelta(days=WHEN_DAYS)
    on = found.life.superseded_on if found.life else None
    if on is not None and date.fromisoformat(on) - timedelta(days=1) > end:
        end = date.fromisoformat(on) - timedelta(days=1)
    start -= timedelta(days=WHEN_DAYS)  # "sold the mower when I moved": the weeks before too
    note = f"when {' '.join(clause)!r} read as ^{found.fact.id}: {start} to {end}"
    return evolve(plan, terms=rest, window=Interval(start, min(end, today)), anchor=None), note


def _clause(backend: RecallIndex, plan: QueryPlan, pattern: re.Pattern[str],
            written_by: date | None, today: date,
            ) -> tuple[list[str], tuple[str, ...], Candidate, date] | None:
    """For a question in the past whose `pattern` finds a clause ("before the e-bike", "when
    I lived in Barranco"): the clause's words, the question's other terms (a word it also
    asks outside the clause stays: "what bike did I have before the e-bike?"), the fact
    that tells of the clause and its day.  None when the question names a time of its own,
    asks for an order, is all clause, or no fact tells of it."""
    if plan.window is not None or not PAST.search(plan.text):
        return None
    m = pattern.search(plan.text)
    if m is None or ORDER.match(m.group("rest")):
        return None
    words = _content_words(m.group("rest"))[:MOST_WORDS]
    outside = {word_stem(w) for w in _content_words(plan.text[:m.start()] + " "
                                                     + plan.text[m.end():])}
    stems = {word_stem(w) for w in words}
    rest = tuple(t for t in plan.terms if word_stem(t) not in stems - outside)
    if not words or not rest or len(rest) == len(plan.terms):
        return None
    found = _change_fact(backend, _with_forms(words), rest, written_by)
    if found is None:
        return None
    return words, rest, found, event_days(found.fact, today).start or today


def _content_words(text: str) -> list[str]:
    """The words of `text` that say something: no stop words, no light verbs."""
    words = (w.casefold() for w in find_words(text))
    return list(dict.fromkeys(w for w in words if w not in STOP_WORDS and w not in LIGHT_VERBS))


def _with_forms(words: list[str]) -> dict[str, tuple[str, ...]]:
    """Each word with its forms ("promotion": promote)."""
    return {w: (w, *(f for f in lexicon.related(w, lexicon.FORM) if f.isalpha()))
            for w in words}


def _change_fact(backend: RecallIndex, change: dict[str, tuple[str, ...]],
                 rest: tuple[str, ...], written_by: date | None) -> Candidate | None:
    """The fact that tells of the change (module docstring), or None."""
    searched = {f for forms in change.values() for f in forms} | set(rest)
    found = backend.lexical(Terms(words=tuple(sorted(searched))),
                            Filters(written_by=written_by), SEARCHED)
    stems = [{word_stem(f) for f in forms} for forms in change.values()]
    asked = {word_stem(t) for t in rest}
    best: tuple[int, int, int] | None = None
    chosen = None
    for c in found:
        own = {word_stem(w.casefold()) for w in find_words(c.fact.content)}
        held = sum(1 for forms in stems if own & forms)
        if not held or c.fact.day is None:
            continue
        key = (held, len(own & asked), -c.fact.day.toordinal())
        if best is None or key > best:
            best, chosen = key, c
    return chosen
