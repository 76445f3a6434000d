"""Newer facts on the asked slot that share no word with a question about now.

"What running shoes do I use these days?" finds "My go-to running shoes are Brooks Ghosts";
the fact that replaced it, "I switched to Hoka Cliftons after the Brooks gave me blisters",
shares no word with the question, names no entity of it, and the judge left the two as they
were (an experience retires nothing).  The search never sees it, so `asked_slot` cannot
place it.

`pull_newer` reads, for a question about now, the best few matches (`FROM_BEST`, by match)
that state a value of the asked slot (`asked_slot.on_slot`) for a subject — the entities the
match is about among those it is linked to; for a fact of the user, @me, that is every fact
of the user — and brings into the candidates the subject's facts written after the match
(linked to it, or written under another entity and naming it in their text: the search for
the question's words leaves its entities' names out)
(at most `LIMIT`, newest first), active or faded by decay (a change holds however long
unused), that the judge reads as on the match's slot (`same_slot`).  Each comes in with no
match of its own: `asked_slot.current_first` weighs it against the fact that brought it
and places it above when it states the current value of the slot, and leaves it out
otherwise, so a pulled fact never ranks by a match it does not have.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableMapping
from dataclasses import replace as evolve
from datetime import date, timedelta

from memfold.index.base import Candidate, Filters, RecallIndex, Terms
from memfold.journal.fold import ACTIVE, ARCHIVED, status_of
from memfold.names import USER, entity_key, find_words
from memfold.recall.asked_slot import (
    JOB_START,
    PLACE_WORDS,
    SINGLE,
    WORK_ASKED,
    Slot,
    judge_says,
    lemma_stems,
    names_value,
    on_slot,
    subjects,
)
from memfold.recall.mine import NEW_BEFORE
from memfold.recall.query import word_stem
from memfold.values import TEXT, Fact, Interval

FROM_BEST = 3  # the best matches a pull starts from
LIMIT = 40  # of a subject's facts newer than a match, the newest this many are read
OWN = frozenset("my our his her their its".split())  # "his new flat": a home of his own
# the words of a home (not of a move: "climbed with Tasha before the move" gives no home)
PLACE = frozenset(word_stem(w) for w in PLACE_WORDS)
HOME = PLACE - {word_stem(w) for w in (
    "move", "moved", "moves", "relocated", "relocate")}


def same_slot(new: Fact, old: Fact, shared: Iterable[str]) -> bool:
    """Whether the judge reads the newer fact as on the older one's slot: a rule that reads
    one slot with two values, the older one's value named, as a name ("switched to Hoka
    Cliftons after the Brooks gave me blisters"), one attribute ("main database"), or one relation a
    subject holds one value of (where it lives, its employer); never a plan, a change that
    did not happen, a visit or someone else's news (the judge's guards)."""
    from memfold.lifecycle.judge.readers import read  # the judge's lexicons load late

    keys = list(shared)
    n, o = read(new), read(old)
    if n.guard:
        return False
    changes, guard = judge_says(new, old, keys)
    if guard is not None:
        return False
    if changes or (names_value(new, old, keys) and _named(new, old)):
        return True
    if n.attr and o.attr and n.attr & o.attr:
        return True
    return n.relation is not None and n.relation == o.relation and n.relation in SINGLE


def new_on_slot(new: Fact, old: Fact, slot: Slot) -> bool:
    """Whether a newer fact of the subject says, by its own words, that it holds a new value
    of the asked slot, where the judge weighed it against nothing ("Helped Ulrich unload the
    van at his new flat in Karlsruhe", written under another entity, is an experience): on
    the slot, and a change it states with its new value, a job begun, or "new" after a
    possessive a few words before the slot's word ("his new flat"; not "the new flat his
    sister rents").  A home is such a value only beside a match that gives a home: "where
    do I climb?" asks no home, though it asks "where"."""
    from memfold.lifecycle.judge.readers import read  # the judge's lexicons load late

    reading = read(new)
    if reading.guard is not None or not on_slot(new, slot):
        return False
    if slot.place and not on_slot(new, evolve(slot, stems=slot.stems - PLACE, place=False)) \
            and not (lemma_stems(old.content) & HOME or read(old).relation == "location"):
        return False
    if any(c.new for c in reading.changes) or (slot.stems & WORK_ASKED
                                               and JOB_START.search(new.content)):
        return True  # "moved to Kaunas", "first week as head of science at Westgate"
    stems = [word_stem(w) for w in find_words(new.content.casefold())]
    return any(a in OWN and b == "new"
               and slot.stems.intersection(stems[at + 2: at + 3 + NEW_BEFORE])
               for at, (a, b) in enumerate(zip(stems, stems[1:], strict=False)))


def _named(new: Fact, old: Fact) -> bool:
    """Whether the older fact's value the newer one names is a name there ("after the
    Brooks gave me blisters"), not a common word both happen to use ("flat white" and a
    flat handed back)."""
    from memfold.lifecycle.judge import words as w
    from memfold.lifecycle.judge.aliases import priced
    from memfold.lifecycle.judge.readers import read_priced

    said = find_words(priced(new).content)
    return bool(read_priced(old).value
                & {w.stem(x.casefold()) for x in said[1:] if x[:1].isupper()})


def _subject(c: Candidate) -> list[str]:
    """The entities a matched fact is about, among those it is linked to."""
    from memfold.lifecycle.judge.readers import read

    links = [entity_key(e) for e in c.links]
    about = [k for k in links if k in read(c.fact).about]
    return about or links


def pull_newer(backend: RecallIndex, found: MutableMapping[tuple[str, int], Candidate],
               match: Mapping[int, float], slot: Slot | None, filters: Filters,
               today: date) -> dict[int, str]:
    """Bring into `found` the newer facts on the slot of the best matches (module
    docstring); returns each pulled fact's rowid and the id of the match that brought it."""
    if slot is None or not slot.now:
        return {}
    best = sorted((c for c in found.values() if match.get(c.rowid, 0.0) > 0
                   or slot.named & {entity_key(e) for e in c.links}),  # found by its name
                  key=lambda c: (-match.get(c.rowid, 0.0), c.fact.path, c.fact.line)
                  )[:FROM_BEST]  # ties by place: rowids follow the index's history
    pulled: dict[int, str] = {}
    for old in best:
        day = old.fact.day
        if day is None or day >= today or old.fact.kind == TEXT or not old.links \
                or status_of(old.fact, old.life, today)[0] not in (ACTIVE, ARCHIVED) \
                or not on_slot(old.fact, slot):
            continue
        subject = _subject(old)
        after = Interval(day + timedelta(days=1), today)
        window = after if filters.window is None else _within(filters.window, after)
        if window is None:
            continue
        for c in _newer_about(backend, subject, evolve(filters, window=window)):
            if c.fact.day is None or not day < c.fact.day <= today or c.fact.kind == TEXT \
                    or (c.fact.path, c.rowid) in found or c.rowid in pulled \
                    or status_of(c.fact, c.life, today)[0] not in (ACTIVE, ARCHIVED):
                continue
            if same_slot(c.fact, old.fact, subject) or new_on_slot(c.fact, old.fact, slot):
                found[(c.fact.path, c.rowid)] = c
                pulled[c.rowid] = old.fact.id
    return pulled


def _newer_about(backend: RecallIndex, subject: list[str],
                 filters: Filters) -> list[Candidate]:
    """The subject's facts in the window of `filters`: those linked to it (at most
    `LIMIT`), and those written under another entity that name it in their text ("B @me:
    Imke's first week as head of science at Westgate College went well"), found by its
    name (at most `LIMIT`; not for the user, whose name is "I").  The search for the
    question's words leaves the names of its entities out (their links find their facts),
    so such a fact is found only here."""
    found = backend.linked(subject, filters, LIMIT)
    names = tuple(" ".join(p for p in k.split("-") if p) for k in subject if k != USER)
    if not names:
        return found
    seen = {c.rowid for c in found}
    return found + [c for c in backend.lexical(Terms(phrases=names), filters, LIMIT)
                    if c.rowid not in seen
                    and subjects(c.fact, [entity_key(e) for e in c.links], subject) & set(subject)]


def _within(a: Interval, b: Interval) -> Interval | None:
    """Where two windows meet, or None when they do not."""
    start = max((d for d in (a.start, b.start) if d), default=None)
    end = min((d for d in (a.end, b.end) if d), default=None)
    if start and end and start > end:
        return None
    return Interval(start, end)
