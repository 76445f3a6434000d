"""The asked subject's own facts on the slot a question asks, when they use other words.

"Where do I live?" asked of a memory that holds "W @me: Moved to Porto." finds nothing by
its words: the fact says "moved", not "live", and the user's facts do not say "I".  A plain
search then answers with the only fact that holds "live" — someone else's home ("W @Kenji:
Lives in Osaka.").  The question asks one slot (`asked_slot.slot_of`: where the subject
lives, where it works) of one subject: the entities it names, or the user (`@me`) when it
is asked in the first person.  `owned` reads the subject's facts found already (by its
name) and searches its facts for the words the slot is stated with (a home and a move:
`asked_slot.PLACE_WORDS`; a job: `JOB_WORDS`), and brings each that the judge reads as
stating that relation (a move, not "moved off Compass"; a job, not "work is busy") into
the candidates, matched as well as the best fact found: it answers the asked slot of the
asked subject; `asked_slot.current_first` then puts the current one first.  Not when a
fact of the subject on the slot is that best match already (`pulled` and `asked_slot`
place what is newer).  The search is bounded (`LIMIT`) and runs only for such questions;
words that ask no home or job as a question (`ASKS_HOME`, `ASKS_JOB`: "Peter lives monzel"
is a search for its words) cost two pattern searches: their slot is not read and the judge's
readers are not loaded.
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping, Sequence
from dataclasses import replace as evolve

from memfold.index.base import Candidate, Filters, RecallIndex, Terms
from memfold.names import USER
from memfold.recall import asked_slot
from memfold.recall.asked_slot import PLACE_WORDS
from memfold.recall.query import QueryPlan

LIMIT = 20  # of the subject's facts that state the slot, the best this many by words
# the words a job is stated with: its start and its holder's place ("joined", "hired")
JOB_ASKED = frozenset(("work", "job", "employer", "workplace"))  # the words that ask it
PLACE_ASKED = frozenset(("live", "lives", "living", "home", "based", "reside", "resides"))
# a place's words a question asks it with beside them: "which city do I live in?"
PLACE_NAMED = frozenset(("city", "town", "country", "neighbourhood", "neighborhood", "area"))
# a question of where one lives or works, not words that hold "lives" or "based" ("Peter
# lives monzel", "which renmon does Juniper have for the shabra and based?")
ASKS_HOME = re.compile(r"\bwhere\b.*\b(?:live|lives|living|based|reside|resides|home)\b"
                       r"|\b(?:do|does|did|am|are|is)\s+(?:\S+\s+){1,3}?(?:still\s+)?(?:live|living"
                       r"|reside)\b|\bwhich\s+(?:city|town|country|neighbou?rhood|area|place)\b",
                       re.IGNORECASE)
ASKS_JOB = re.compile(r"\bwhere\b.*\bwork(?:s|ing)?\b|\b(?:job|employer|workplace)\b",
                      re.IGNORECASE)
# the judge's relations that state each slot (`memfold.lifecycle.judge.readers`)
PLACE_RELATIONS = frozenset({"location"})
JOB_RELATIONS = frozenset({"employer", "role"})
JOB_WORDS = ("work", "works", "job", "joined", "hired", "employer", "role", "position",
             "started")


def owned(backend: RecallIndex, plan: QueryPlan, named: Sequence[str],
          found: MutableMapping[tuple[str, int], Candidate], match: dict[int, float],
          filters: Filters) -> tuple[dict[int, str], dict[int, frozenset[str]]]:
    """Add the asked subject's facts on the asked slot to `found` and `match`; returns how
    each was found, for `why`, and the question's words each stands for (`weak`), by
    rowid."""
    asked = {w.casefold() for w in plan.terms}
    work = asked & JOB_ASKED if ASKS_JOB.search(plan.text) else set()
    home = asked & PLACE_ASKED if ASKS_HOME.search(plan.text) else set()
    if not (work or home):
        return {}, {}  # no question of either slot: "Peter lives monzel" searches its words
    slot = asked_slot.slot_of(plan, named)
    if slot is None:
        return {}, {}
    place = slot.place and not work and home  # "where do I work?": a job
    if not (place or work):
        return {}, {}
    keys = list(named) or ([USER] if slot.mine else [])
    subjects = [k for k in backend.resolve_names(keys).values() if k]
    if len(subjects) != 1:
        return {}, {}
    from memfold.lifecycle.judge.readers import read  # the judge's lexicons load late

    relations = PLACE_RELATIONS if place else JOB_RELATIONS
    best = max(match.values(), default=0.0) or 1.0
    if any(match.get(c.rowid, 0.0) >= best and subjects[0] in c.links
           and read(c.fact).relation in relations for c in found.values()):
        return {}, {}  # the words found the subject's slot: what is current is placed later
    how = f"states where @{subjects[0]} {'lives' if place else 'works'}"
    covers = frozenset(place | (asked & PLACE_NAMED) if place else work)
    added: dict[int, str] = {}
    linked = [c for c in found.values() if subjects[0] in c.links]  # found by the name
    for c in [*linked, *backend.lexical(Terms(words=PLACE_WORDS if place else JOB_WORDS),
                                        evolve(filters, entity_keys=(subjects[0],)), LIMIT)]:
        if match.get(c.rowid, 0.0) >= best or read(c.fact).relation not in relations:
            continue
        found.setdefault((c.fact.path, c.rowid), c)
        match[c.rowid] = best
        added[c.rowid] = how
    return added, {rowid: covers for rowid in added}
