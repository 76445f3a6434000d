"""Recall: turn a query plan into ranked, cited hits.

Candidates come from three searches over the index — lexical (FTS5 BM25 over every term,
OR-ed), entity (facts linked to a name the query mentions) and, for queries that only name a
time or filters, the newest facts in range (plus, in semantic and hybrid mode, the nearest
vectors) — and are then scored by `ranking`, each candidate lifted by the best match beside
it in its file.  Filters (kinds, time window, required entities) are applied inside each
search, so a narrow filter never starves the results.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from . import ranking
from .embed.fusion import LEXICAL, SEMANTIC, lexical_part
from .index.base import Candidate, Filters, IndexBackend
from .lifecycle import ACTIVE, ARCHIVED, EXPIRED, MERGED, SUPERSEDED, lifecycle_weight, status_of
from .model import AboutResult, Fact, Hit, Interval
from .names import entity_key, fold
from .query import QueryPlan, clean_text
from .ranking import confidence_of, relevance, score, time_factor

if TYPE_CHECKING:
    from .embed.semantic import Semantic

MIN_CANDIDATES = 50  # each search fetches max(MIN_CANDIDATES, 4 * k) rows to rank


@dataclass(frozen=True)
class RecallOptions:
    today: date
    k: int = 25
    kinds: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()  # names every result must be linked to
    window: Interval | None = None  # from --since/--until
    include_all: bool = False
    budget: int | None = None
    mode: str = LEXICAL  # lexical, semantic or hybrid (memfold.embed)
    semantic: Semantic | None = None  # vector search, for semantic and hybrid mode


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
    named = _query_entities(backend, plan)
    window = intersect(plan.window, options.window)
    # A time phrase beside words is a preference, not a filter: people write about events
    # after they happen ("last month we ..."), so in-window facts rank higher but others
    # stay findable.  A query that is only a time phrase is restricted to it.
    soft = plan.window is not None and bool(plan.terms or plan.phrases or named)
    hard = options.window if soft else window
    required = tuple(_resolve(backend, options.entities))
    filters = Filters(kinds=options.kinds, window=hard, entity_keys=required)
    if plan.about:
        about_key = backend.resolve_names([entity_key(plan.about)]).get(entity_key(plan.about))
        if about_key:
            linked = backend.linked([about_key], filters, max(options.k, 1) * 2)
            hits = [h for c in linked if (h := _linked_hit(c, about_key, options))]
            return _pack(hits[: options.k], options, window, (about_key,))
    found: dict[tuple[str, int], Candidate] = {}
    limit = max(MIN_CANDIDATES, 4 * options.k)
    fts = plan.fts(skip=set(named))
    if fts and options.mode != SEMANTIC:
        for c in backend.lexical(fts, filters, limit):
            found[(c.fact.path, c.fact.line)] = c
    if named:
        for c in backend.linked(named, filters, limit):
            found.setdefault((c.fact.path, c.fact.line), c)
    if (plan.window is not None and not soft) or (not fts and not named
                                                   and filters != Filters()):
        # a query of only punctuation or emoji ("*", "🍣") with no filter names nothing:
        # it finds nothing rather than every fact in memory
        for c in backend.recent(filters, limit):
            found.setdefault((c.fact.path, c.fact.line), c)
    if soft and not found:  # nothing matched the words: answer with the time alone
        for c in backend.recent(Filters(kinds=options.kinds, window=window,
                                        entity_keys=required), limit):
            found.setdefault((c.fact.path, c.fact.line), c)
    fused = None  # semantic and hybrid: BM25 and cosine fused, by rowid (embed.fusion)
    if options.semantic is not None and options.mode != LEXICAL:
        fused = options.semantic.fuse(backend, plan, found, filters, limit, options.mode)
    best = max((-c.bm25 for c in found.values() if c.bm25 is not None), default=0.0)
    match = {c.rowid: fused.get(c.rowid, 0.0) if fused is not None
             else lexical_part(c.bm25, best) for c in found.values()}
    context = _context(backend, found.values(), match)
    scored = sorted((s for c in found.values()
                     if (s := _score(c, plan, named, match[c.rowid], options,
                                     context.get(c.rowid)))), key=_order)
    hits = [_explain(s, plan, window, fused) for s in scored[: options.k]]
    return _pack(hits, options, window, tuple(named))


def about(backend: IndexBackend, name: str, *, k: int, today: date,
          include_all: bool = False) -> AboutResult:
    key = entity_key(name.lstrip("@"))
    resolved = backend.resolve_names([key]).get(key) if key else None
    info = backend.entity(resolved) if resolved else None
    if resolved is None or info is None:
        return AboutResult(name=name, key=None, page=None, aliases=(), hits=())
    options = RecallOptions(today=today, k=k, include_all=include_all)
    found = backend.linked([resolved], Filters(), k * 2)
    hits = tuple(h for c in found if (h := _linked_hit(c, resolved, options)))[:k]
    return AboutResult(name=info.name, key=resolved, page=info.page, aliases=info.aliases,
                       hits=hits)


def _resolve(backend: IndexBackend, names: Iterable[str]) -> list[str]:
    keys = [entity_key(clean_text(n).lstrip("@")) for n in names]
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
    status: str
    decay: float
    tier: int  # 0 active (or true at the asked time), 1 archived, 2 superseded or expired
    beside: str | None = None  # the neighbour whose match lifted it more than its own

    @property
    def fact(self) -> Fact:
        return self.candidate.fact


def _context(backend: IndexBackend, found: Iterable[Candidate],
             match: dict[int, float]) -> dict[int, tuple[float, str]]:
    """Each candidate's context (`ranking`): the best match among the candidates just
    before and after it in its file, and that neighbour's id."""
    ids = {c.rowid: c.fact.id for c in found}
    context: dict[int, tuple[float, str]] = {}
    for rowid, others in backend.neighbours(list(ids)).items():
        best = max(((match[o], o) for o in others if match.get(o, 0.0) > 0), default=None)
        if best is not None:
            context[rowid] = (best[0], ids[best[1]])
    return context


def _score(c: Candidate, plan: QueryPlan, named: Sequence[str], match: float,
           options: RecallOptions, near: tuple[float, str] | None = None) -> _Scored | None:
    """The candidate's score, or None when its lifecycle keeps it out of the answer."""
    status, decay = status_of(c.fact, c.life, options.today)
    if not (options.include_all or status not in (SUPERSEDED, MERGED, EXPIRED)
            or _true_then(c, status, plan.window)):
        return None
    linked = tuple(k for k in named if k in c.links)
    opinion = plan.opinion and c.fact.kind == "opinion"
    confidence = _confidence(c)
    window = plan.window
    valid_then = bool(window and c.fact.valid and _overlaps(c.fact.valid, window))
    written_then = bool(window and _written_in(c.fact, window))
    context, beside = near or (0.0, None)
    rel = relevance(match, context=context, entity=bool(linked), opinion=opinion)
    weight = 1.0 if options.include_all else lifecycle_weight(status, decay)
    value = score(rel, kind=c.fact.kind, confidence=confidence, importance=c.fact.importance,
                  lifecycle=weight) * time_factor(valid_then=valid_then,
                                                  written_then=written_then)
    tier = 0 if options.include_all or status == ACTIVE or _true_then(
        c, status, plan.window) else (1 if status == ARCHIVED else 2)
    return _Scored(c, value, confidence, linked, opinion, status, decay, tier,
                   beside if ranking.CONTEXT_SHARE * context > match else None)


def _written_in(fact: Fact, window: Interval) -> bool:
    day = fact.day
    return day is not None and (window.start is None or window.start <= day) and (
        window.end is None or day <= window.end)


def _confidence(c: Candidate) -> float:
    if c.life is not None and c.life.confidence is not None:
        return c.life.confidence
    return confidence_of(c.fact.kind, c.fact.confidence)


def _true_then(c: Candidate, status: str, window: Interval | None) -> bool:
    """Whether a superseded or expired fact held during the time a query asks about
    ("where was Peter in November 2025?" still finds what was true then)."""
    if window is None:
        return False
    if status == EXPIRED:
        return bool(c.fact.valid and _overlaps(c.fact.valid, window))
    on = c.life.superseded_on if c.life else None
    started = c.fact.valid.start if c.fact.valid and c.fact.valid.start else c.fact.day
    return (window.start is None or on is None or on > window.start.isoformat()) and (
        window.end is None or started is None or started <= window.end)


def _overlaps(a: Interval, b: Interval) -> bool:
    return (a.start is None or b.end is None or a.start <= b.end) and (
        a.end is None or b.start is None or b.start <= a.end)


def _explain(s: _Scored, plan: QueryPlan, window: Interval | None,
             fused: dict[int, float] | None = None) -> Hit:
    """A scored candidate as a hit, with `why` in a few words."""
    why = []
    if terms := _matched_terms(s.candidate, [*plan.phrases, *plan.terms]):
        why.append("words " + ", ".join(terms[:6]))
    elif fused and fused.get(s.candidate.rowid, 0.0) > 0:
        why.append("similar meaning")
    if s.beside:
        why.append(f"next to ^{s.beside}")
    if s.linked:
        names = {entity_key(n): n for n in s.fact.entities}
        why.append("entity " + ", ".join(f"@{names.get(k, k)}" for k in s.linked))
    if s.opinion:
        why.append("opinion asked")
    if window:
        why.append(f"in {window}")
    return describe(s.candidate, None, score=s.score, why="; ".join(why) or "in range",
                    status=(s.status, s.decay))


def _linked_hit(c: Candidate, key: str, options: RecallOptions) -> Hit | None:
    status, decay = status_of(c.fact, c.life, options.today)
    if not options.include_all and status in (SUPERSEDED, MERGED, EXPIRED):
        return None
    weight = 1.0 if options.include_all else lifecycle_weight(status, decay)
    value = score(relevance(0.0, entity=True, opinion=False), kind=c.fact.kind,
                  confidence=_confidence(c), importance=c.fact.importance, lifecycle=weight)
    return describe(c, None, score=value, why=f"about @{key}", status=(status, decay))


def describe(c: Candidate, today: date | None, *, score: float = 0.0, why: str = "by id",
             status: tuple[str, float] | None = None) -> Hit:
    """A candidate as a hit, with its lifecycle state spelled out."""
    if status is None:
        status = status_of(c.fact, c.life, today or date.today()) if today else (ACTIVE, 1.0)
    life = c.life
    return Hit(fact=c.fact, score=score, why=why, confidence=_confidence(c), status=status[0],
               sha256=c.sha256, decay=status[1], rev=life.rev if life else 0,
               note=life.note if life else None, reason=life.reason if life else None,
               superseded_by=life.superseded_by if life else None,
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


def build_trace(backend: IndexBackend, root: Candidate, today: date) -> Trace:
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


def _order(hit: Hit | _Scored) -> tuple[int, float, int, str, int]:
    """Active facts first (archived ones rank below them, however relevant), then score,
    then newest, then path and line."""
    day = hit.fact.day.toordinal() if hit.fact.day else 0
    tier = hit.tier if isinstance(hit, _Scored) else 0
    return (tier, -round(hit.score, 9), -day, hit.fact.path, hit.fact.line)


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

