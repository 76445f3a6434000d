"""A recall's results: each scored candidate as a hit with `why` in a few words (`explain`),
a fact's lineage (`Trace`), and the hits that fit a token budget (`pack`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from dataclasses import replace as evolve
from datetime import date
from typing import Any

from memfold.index.base import Candidate, FactReader
from memfold.journal.fold import ACTIVE, lifecycle_weight, status_of
from memfold.names import entity_key, find_words, fold
from memfold.recall import ranking
from memfold.recall.options import RecallOptions
from memfold.recall.query import QueryPlan, word_stem
from memfold.recall.ranking import Scored, relevance, score
from memfold.recall.scoring import LEFT_OUT, fact_confidence
from memfold.values import Hit, Interval


@dataclass(frozen=True)
class Ranked:
    hits: list[Hit]
    window: Interval | None
    entities: tuple[str, ...]
    truncated: int
    # matching facts left out for their lifecycle (superseded, merged, expired), by status
    hidden: dict[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()  # one line each: a time not read, an as-of before any fact


def explain(s: Scored, plan: QueryPlan, window: Interval | None,
            fused: dict[int, float] | None = None, hopped: str | None = None,
            replaces: str | None = None, known: str | None = None,
            newer_than: str | None = None) -> Hit:
    """A scored candidate as a hit, with `why` in a few words."""
    why = []
    if replaces:
        why.append(f"replaces ^{replaces}, which matched")
    if newer_than:
        why.append(f"newer on the slot of ^{newer_than}, which matched")
    if terms := matched_terms(s.candidate, [*plan.phrases, *plan.terms], forms=True):
        why.append("words " + ", ".join(terms[:6]))
    elif fused and fused.get(s.candidate.rowid, 0.0) > 0 and not (replaces or newer_than):
        why.append("similar meaning")
    if known:
        why.append(known)
    if hopped:
        why.append(f"shares rare words with ^{hopped}")
    if s.beside:
        why.append(f"next to ^{s.beside}")
    if s.alike:
        why.append(f"much like ^{s.alike} above")
    if s.linked:
        names = {entity_key(n): n for n in s.fact.entities}
        why.append("entity " + ", ".join(f"@{names.get(k, k)}" for k in s.linked))
    if s.opinion:
        why.append("opinion asked")
    if plan.unread_time:
        why.append(f"{plan.unread_time!r} not read as a time")
    if window and (when := time_why(s, window)):
        why.append(when)
    hit = describe(s.candidate, None, score=s.score, why="; ".join(why) or "in range",
                   status=(s.status, s.decay))
    return evolve(hit, possibly_outdated_by=s.outdated_by) if s.outdated_by else hit


def time_why(s: Scored, window: Interval) -> str | None:
    """How the fact stands to the time the query asks about, true of this fact: "in
    <window>" only for a fact valid, written or still held in it (`Scored.then`), else
    what keeps it out — replaced before it began, valid at another time, written before or
    after it — and nothing for an undated fact.  Only words: the score weighed `then`."""
    fact = s.fact
    if s.then in (ranking.VALID, ranking.WRITTEN, ranking.HELD):
        return f"in {window} ({s.then})"
    on = s.candidate.life.superseded_on if s.candidate.life else None
    if on is not None and window.start is not None and on <= window.start.isoformat():
        return f"replaced before {window}"
    if fact.valid is not None and not _overlaps(fact.valid, window):
        return f"valid {fact.valid}, not in {window}"
    if fact.day is None:
        return None
    if window.end is not None and fact.day > window.end:
        return f"written after {window}"
    if window.start is not None and fact.day < window.start:
        return f"written before {window}"
    return f"in {window}" if s.then == ranking.UNDATED else f"written in {window}, not of it"


def _overlaps(a: Interval, b: Interval) -> bool:
    return (a.start is None or b.end is None or a.start <= b.end) and (
        a.end is None or b.start is None or b.start <= a.end)


def matched_terms(c: Candidate, terms: Sequence[str], *, forms: bool = False) -> list[str]:
    """The terms the fact holds; with `forms`, also those it holds in another form (the
    lexical search stems), told as "moving (moved)"."""
    haystack = fold(c.fact.content + " " + " ".join(c.fact.entities))
    held = [t for t in terms if fold(t) in haystack]
    if not forms or len(held) == len(terms):
        return held
    stems = {word_stem(w): w for w in find_words(haystack)}
    out = []
    for t in terms:
        if t in held:
            out.append(t)
        elif (w := stems.get(word_stem(fold(t)))) is not None:
            out.append(f"{t} ({w})")
    return out


def linked_hit(c: Candidate, key: str, options: RecallOptions) -> Hit | None:
    status, decay = status_of(c.fact, c.life, options.today)
    if not options.include_all and status in LEFT_OUT:
        return None
    weight = 1.0 if options.include_all else lifecycle_weight(status, decay)
    value = score(relevance(0.0, entity=True, opinion=False),
                  kind=ranking.weighed_kind(c.fact), confidence=fact_confidence(c),
                  importance=c.fact.importance, lifecycle=weight)
    return describe(c, None, score=value, why=f"about @{key}", status=(status, decay))


def describe(c: Candidate, today: date | None, *, score: float = 0.0, why: str = "by id",
             status: tuple[str, float] | None = None) -> Hit:
    """A candidate as a hit, with its lifecycle state spelled out."""
    if status is None:
        status = status_of(c.fact, c.life, today or date.today()) if today else (ACTIVE, 1.0)
    life = c.life
    return Hit(fact=c.fact, score=score, why=why, confidence=fact_confidence(c), status=status[0],
               sha256=c.sha256, decay=status[1], rev=life.rev if life else 0,
               note=life.note if life else None, reason=life.reason if life else None,
               # active though a later fact replaced it: as of `today` it was not replaced yet
               superseded_by=life.superseded_by if life and status[0] != ACTIVE else None,
               supersedes=tuple(life.supersedes) if life else (),
               derived_from=tuple(life.derived_from) if life else (),
               origin=life.origin if life else None)


@dataclass(frozen=True)
class Trace:
    """A fact's lineage: the facts it replaced, the facts that replaced it, its sources."""

    root: Hit
    supersedes: tuple[Hit, ...]  # older facts this one replaced, transitively
    superseded_by: tuple[Hit, ...]  # newer facts that replaced this one, in order
    derived_from: tuple[Hit, ...]

    def to_dict(self) -> dict[str, object]:
        return {"id": self.root.fact.id, "fact": self.root.to_dict(),
                "supersedes": [h.to_dict() for h in self.supersedes],
                "superseded_by": [h.to_dict() for h in self.superseded_by],
                "derived_from": [h.to_dict() for h in self.derived_from]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Trace:
        def hits(items: Iterable[Mapping[str, Any]]) -> tuple[Hit, ...]:
            return tuple(Hit.from_dict(h) for h in items)

        return cls(Hit.from_dict(d["fact"]), hits(d["supersedes"]), hits(d["superseded_by"]),
                   hits(d["derived_from"]))


def build_trace(backend: FactReader, root: Candidate, today: date) -> Trace:
    def hits(ids: Iterable[str]) -> list[Hit]:
        found = {c.fact.id: c for c in backend.by_ids(list(ids))}
        return [describe(found[i], today) for i in ids if i in found]

    newer: list[str] = []
    current = root.life.superseded_by if root.life else None
    while current and current not in newer and current != root.fact.id:
        newer.append(current)
        state = backend.life([current]).get(current)
        current = state.superseded_by if state else None
    older: list[str] = []
    frontier = list(root.life.supersedes) if root.life else []
    while frontier:
        fact_id = frontier.pop(0)
        if fact_id in older or fact_id == root.fact.id:
            continue
        older.append(fact_id)
        state = backend.life([fact_id]).get(fact_id)
        frontier.extend(state.supersedes if state else [])
    derived = list(root.life.derived_from) if root.life else []
    return Trace(describe(root, today), tuple(hits(older)), tuple(hits(newer)),
                 tuple(hits(derived)))


def left_out(statuses: Counter[str], options: RecallOptions) -> dict[str, int]:
    """How many of the statuses recall leaves out without --all."""
    return {} if options.include_all else {s: n for s, n in statuses.items() if s in LEFT_OUT}


def pack(hits: list[Hit], options: RecallOptions, window: Interval | None,
         entities: tuple[str, ...], hidden: dict[str, int],
         notes: tuple[str, ...] = ()) -> Ranked:
    top = hits[: options.k]
    left_out = dict(hidden)
    if options.budget is None:
        return Ranked(top, window, entities, 0, left_out, notes)
    packed = within_budget(top, options.budget)
    return Ranked(packed, window, entities, len(top) - len(packed), left_out, notes)


def within_budget(hits: Sequence[Hit], budget: int) -> list[Hit]:
    """The whole results, best first, that fit in about `budget` tokens (a result too large
    is passed over, and smaller ones after it still taken)."""
    packed, used = [], 0
    for hit in hits:
        cost = hit.tokens()
        if used + cost <= budget:
            packed.append(hit)
            used += cost
    return packed
