"""What is true now, for recall: the fact that replaced a match, the facts a newer one may have
outdated, and where a faded fact stands beside the current one.

- successors: a superseded (or merged) fact that matches a query answers with the end of its
  chain of replacements — the `superseded_by` pointers followed until a fact nothing
  replaced, never past a fact written after `today` and never round a cycle — so recall
  answers with the current fact even when it shares no word with the question;
- outdated: two facts about one subject that recall shows together, where the judge reads the
  newer as a change of the older's value but did not supersede it (a conflict it left active,
  or facts indexed together and never weighed): the older is *possibly outdated by* the newer.
  A newer fact that is a plan, a change that did not happen, a visit or someone else's news
  outdates nothing.  The judge is imported only when two such facts meet;
- covered: a fact faded by decay (archived by time, not by a person) ranks below a newer
  active fact about the same subject and topic — the same entities, and a content word or a
  kind of product in common ("Investigating Bun.js as a JavaScript runtime" below "The
  build runs on Node.js 22") — while against unrelated facts it keeps its relevance.

Pure functions of facts and journal states, but for `successors`, which reads the index.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from functools import lru_cache
from typing import Protocol

from .index.base import Candidate, Filters, IndexBackend
from .lifecycle import STATE_KINDS
from .model import TEXT, Fact


def successors(backend: IndexBackend, replaced_by: Mapping[str, str], filters: Filters,
               today: date) -> dict[str, Candidate]:
    """For each replaced fact (its id -> the id that replaced it), the end of its chain of
    replacements that passes `filters`: the last fact reached, walking `superseded_by`,
    before a fact written after `today`, a fact the index no longer holds, or a cycle."""
    ends: dict[str, Candidate] = {}
    walk = {old: (nxt, frozenset({old})) for old, nxt in replaced_by.items()}
    while walk:
        found = {c.fact.id: c for c in backend.by_ids(sorted({n for n, _ in walk.values()}))}
        step: dict[str, tuple[str, frozenset[str]]] = {}
        for old, (nxt, seen) in walk.items():
            c = found.get(nxt)
            if c is None or nxt in seen or (c.fact.day is not None and c.fact.day > today):
                continue
            ends[old] = c
            later = c.life.superseded_by if c.life else None
            if later:
                step[old] = (later, seen | {nxt})
        walk = step
    if not ends:
        return {}
    allowed = {c.rowid for c in backend.by_rowids(sorted({c.rowid for c in ends.values()}),
                                                  filters)}
    return {old: c for old, c in ends.items() if c.rowid in allowed}


class Shown(Protocol):
    """A result as recall ranks it: the candidate and its lifecycle status."""

    @property
    def candidate(self) -> Candidate: ...

    @property
    def status(self) -> str: ...


def written(fact: Fact) -> tuple[int, str, int]:
    """When a fact was written, to compare two: its day, then its file and line."""
    return (fact.day.toordinal() if fact.day else 0, fact.path, fact.line)


def outdated(shown: Sequence[Shown], today: date) -> dict[str, list[str]]:
    """Older fact id -> the ids of newer facts among `shown` that may have outdated it (see
    the module docstring), newest first.  The older fact is active; the newer one is active
    or faded (a change holds the value it states, however long unused), written on a later
    day and not after `today`: facts of one day, or undated ones, outdate none of each
    other.  Only typed facts that share an entity are weighed, so most recalls never ask
    the judge."""
    dated = {s.candidate.fact.id: (s.candidate, day) for s in shown
             if (day := s.candidate.fact.day) is not None and day <= today
             and s.candidate.fact.kind != TEXT and s.candidate.links
             and s.status in ("active", "archived")}
    active = {s.candidate.fact.id for s in shown if s.status == "active"}
    pairs = [(new, old) for new, new_day in dated.values() for old, old_day in dated.values()
             if old.fact.id in active and old.fact.kind in STATE_KINDS and old_day < new_day
             and set(old.links) & set(new.links)]
    found: dict[str, list[str]] = {}
    for new, old in sorted(pairs, key=lambda p: written(p[0].fact), reverse=True):
        if _outdates(new.fact, old.fact):
            found.setdefault(old.fact.id, []).append(new.fact.id)
    return found


def _outdates(new: Fact, old: Fact) -> bool:
    """Whether the judge reads `new` as a change of `old`'s value (a supersede it would make,
    or a conflict it left active), and `new` is not a plan, a change that did not happen, a
    visit or someone else's news."""
    from .judge.reading import read  # the judge's lexicons load only when two facts meet
    from .judge.rules import RuleJudge

    if read(new).guard:
        return False
    return bool(RuleJudge().weigh(new, [old]))


def covered(faded: Candidate, active: Candidate) -> bool:
    """Whether an active fact written after a faded one is about the same subject and topic:
    the active one a state fact, the faded one a typed fact of any kind (design note 002's
    faded "Investigating Bun.js" is an activity), linked to the same entities (or both to
    none), sharing a content word or a kind of product (`judge.words.FAMILY`).  A faded fact
    written after the active one may be what changed it, so it is not covered."""
    a, b = faded.fact, active.fact
    if a.kind == TEXT or b.kind not in STATE_KINDS or set(faded.links) != set(
            active.links) or not (a.day and b.day and a.day < b.day):
        return False
    return bool(_topic(a.content, _names(a.entities)) & _topic(b.content, _names(b.entities)))


def _names(entities: Iterable[str]) -> frozenset[str]:
    return frozenset(part for e in entities for part in re.split(r"[-_.\s]", e.lower()) if part)


@lru_cache(maxsize=4096)
def _topic(content: str, names: frozenset[str]) -> frozenset[str]:
    """A fact's content words (stems, without stop words, numbers and its entities' names)
    and the kinds of product it names ("#runtime" for Bun.js and Node.js)."""
    from .judge import words as w  # lexicons load only when a faded fact meets an active one

    out: set[str] = set()
    for word in w.tokens(content):
        if family := w.FAMILY.get(word):
            out.add("#" + family)
        if word not in w.STOP and word not in names and not w.is_number(word):
            out.add(w.stem(word))
    return frozenset(out)
