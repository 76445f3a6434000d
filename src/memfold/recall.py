"""Recall: turn a query plan into ranked, cited hits.

Candidates come from three searches over the index — lexical (FTS5 BM25 over every term,
OR-ed), entity (facts linked to a name the query mentions) and, for queries that only name a
time or filters, the newest facts in range — and are then scored by `ranking`.  Filters
(kinds, time window, required entities) are applied inside each search, so a narrow filter
never starves the results.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .index.base import Candidate, Filters, IndexBackend
from .model import AboutResult, Fact, Hit, Interval
from .names import entity_key, fold
from .query import QueryPlan
from .ranking import confidence_of, relevance, score

MIN_CANDIDATES = 50  # each search fetches max(MIN_CANDIDATES, 4 * k) rows to rank


@dataclass(frozen=True)
class RecallOptions:
    k: int = 25
    kinds: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()  # names every result must be linked to
    window: Interval | None = None  # from --since/--until
    include_all: bool = False
    budget: int | None = None


@dataclass(frozen=True)
class Ranked:
    hits: list[Hit]
    window: Interval | None
    entities: tuple[str, ...]
    truncated: int


def intersect(a: Interval | None, b: Interval | None) -> Interval | None:
    if a is None or b is None:
        return a or b
    starts = [d for d in (a.start, b.start) if d]
    ends = [d for d in (a.end, b.end) if d]
    return Interval(max(starts) if starts else None, min(ends) if ends else None)


def recall(backend: IndexBackend, plan: QueryPlan, options: RecallOptions) -> Ranked:
    window = intersect(plan.window, options.window)
    required = tuple(_resolve(backend, options.entities))
    filters = Filters(kinds=options.kinds, window=window, entity_keys=required)
    named = _query_entities(backend, plan)
    if plan.about:
        about_key = backend.resolve_names([entity_key(plan.about)]).get(entity_key(plan.about))
        if about_key:
            hits = [_linked_hit(c, about_key) for c in backend.linked([about_key], filters,
                                                                      max(options.k, 1))]
            return _pack(hits, options, window, (about_key,))
    found: dict[tuple[str, int], Candidate] = {}
    limit = max(MIN_CANDIDATES, 4 * options.k)
    fts = plan.fts(skip=set(named))  # a known name is found through its links, not BM25
    if fts:
        for c in backend.lexical(fts, filters, limit):
            found[(c.fact.path, c.fact.line)] = c
    if named:
        for c in backend.linked(named, filters, limit):
            found.setdefault((c.fact.path, c.fact.line), c)
    if plan.window is not None or (not fts and not named and filters != Filters()):
        # a query of only punctuation or emoji ("*", "🍣") with no filter names nothing:
        # it finds nothing rather than every fact in memory
        for c in backend.recent(filters, limit):
            found.setdefault((c.fact.path, c.fact.line), c)
    best = max((-c.bm25 for c in found.values() if c.bm25 is not None), default=0.0)
    scored = sorted((_score(c, plan, named, best) for c in found.values()), key=_order)
    hits = [_explain(s, plan, window) for s in scored[: options.k]]
    return _pack(hits, options, window, tuple(named))


def about(backend: IndexBackend, name: str, *, k: int) -> AboutResult:
    key = entity_key(name.lstrip("@"))
    resolved = backend.resolve_names([key]).get(key) if key else None
    info = backend.entity(resolved) if resolved else None
    if resolved is None or info is None:
        return AboutResult(name=name, key=None, page=None, aliases=(), hits=())
    hits = tuple(_linked_hit(c, resolved) for c in backend.linked([resolved], Filters(), k))
    return AboutResult(name=info.name, key=resolved, page=info.page, aliases=info.aliases,
                       hits=hits)


def _resolve(backend: IndexBackend, names: Iterable[str]) -> list[str]:
    keys = [entity_key(n.lstrip("@")) for n in names]
    resolved = backend.resolve_names(keys)
    return [resolved.get(k, k) for k in keys]


def _query_entities(backend: IndexBackend, plan: QueryPlan) -> list[str]:
    """Entities the query names: every @mention, and known names among its words."""
    mention_keys = [entity_key(m) for m in plan.mentions]
    resolved = backend.resolve_names([*mention_keys, *plan.name_keys])
    keys = [resolved.get(k, k) for k in mention_keys]
    keys += [resolved[k] for k in plan.name_keys if k in resolved]
    return list(dict.fromkeys(k for k in keys if k))


def _matched_terms(c: Candidate, terms: Sequence[str]) -> list[str]:
    haystack = fold(c.fact.content + " " + " ".join(c.fact.entities))
    return [t for t in terms if fold(t) in haystack]


@dataclass(frozen=True)
class _Scored:
    candidate: Candidate
    score: float
    confidence: float
    linked: tuple[str, ...]
    opinion: bool

    @property
    def fact(self) -> Fact:
        return self.candidate.fact


def _score(c: Candidate, plan: QueryPlan, named: Sequence[str], best: float) -> _Scored:
    lexical = (-c.bm25 / best) if c.bm25 is not None and best > 0 else 0.0
    linked = tuple(k for k in named if k in c.links)
    opinion = plan.opinion and c.fact.kind == "opinion"
    confidence = confidence_of(c.fact.kind, c.fact.confidence)
    valid = c.fact.valid
    valid_then = bool(plan.window and valid and _overlaps(valid, plan.window))
    rel = relevance(lexical, entity=bool(linked), opinion=opinion,
                    timely=plan.window is not None, valid_then=valid_then)
    value = score(rel, kind=c.fact.kind, confidence=confidence, importance=c.fact.importance)
    return _Scored(c, value, confidence, linked, opinion)


def _overlaps(a: Interval, b: Interval) -> bool:
    return (a.start is None or b.end is None or a.start <= b.end) and (
        a.end is None or b.start is None or b.start <= a.end)


def _explain(s: _Scored, plan: QueryPlan, window: Interval | None) -> Hit:
    """A scored candidate as a hit, with `why` in a few words."""
    why = []
    if terms := _matched_terms(s.candidate, [*plan.phrases, *plan.terms]):
        why.append("words " + ", ".join(terms[:6]))
    if s.linked:
        names = {entity_key(n): n for n in s.fact.entities}
        why.append("entity " + ", ".join(f"@{names.get(k, k)}" for k in s.linked))
    if s.opinion:
        why.append("opinion asked")
    if window:
        why.append(f"in {window}")
    return Hit(fact=s.fact, score=s.score, why="; ".join(why) or "in range",
               confidence=s.confidence, sha256=s.candidate.sha256)


def _linked_hit(c: Candidate, key: str) -> Hit:
    confidence = confidence_of(c.fact.kind, c.fact.confidence)
    value = score(relevance(0.0, entity=True, opinion=False), kind=c.fact.kind,
                  confidence=confidence, importance=c.fact.importance)
    return Hit(fact=c.fact, score=value, why=f"about @{key}", confidence=confidence,
               sha256=c.sha256)


def _order(hit: Hit | _Scored) -> tuple[float, int, str, int]:
    day = hit.fact.day.toordinal() if hit.fact.day else 0
    return (-round(hit.score, 9), -day, hit.fact.path, hit.fact.line)


def _pack(hits: list[Hit], options: RecallOptions, window: Interval | None,
          entities: tuple[str, ...]) -> Ranked:
    top = hits[: options.k]
    if options.budget is None:
        return Ranked(top, window, entities, 0)
    packed, used = [], 0
    for hit in top:
        cost = hit.tokens()
        if used + cost <= options.budget:
            packed.append(hit)
            used += cost
    return Ranked(packed, window, entities, len(top) - len(packed))

