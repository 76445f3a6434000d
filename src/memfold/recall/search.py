"""Recall: turn a query plan into ranked, cited hits.

Candidates come from three searches over the index — lexical (FTS5 BM25 over every term,
OR-ed), entity (facts linked to a name the query mentions) and, for queries that only name a
time or filters, the newest facts in range (plus, in semantic and hybrid mode, the nearest
vectors) — and are then scored by `ranking`, each candidate lifted by the best match beside
it in its file.  Filters (kinds, time window, required entities) are applied inside each
search, so a narrow filter never starves the results.  As of a day in the past (`as_of`),
only facts written by then are searched.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from dataclasses import replace as evolve
from datetime import date
from typing import TYPE_CHECKING, Any, TypeVar

from memfold.errors import BadInput
from memfold.index.base import Candidate, Filters, IndexBackend
from memfold.journal.fold import (
    ACTIVE,
    ARCHIVED,
    EXPIRED,
    MERGED,
    STATE_KINDS,
    SUPERSEDED,
    lifecycle_weight,
    status_of,
)
from memfold.names import entity_key, find_words, fold
from memfold.recall import currency, ranking
from memfold.recall.expansion import SEEDS, expand, second_hop, word_knowledge
from memfold.recall.fusion import HYBRID, LEXICAL, SEMANTIC, lexical_part
from memfold.recall.query import QueryPlan, clean_text, refuse_long, word_stem
from memfold.recall.ranking import Scored, confidence_of, order, relevance, score, time_factor
from memfold.times.parse import TimeSpecError, find_time_phrase, parse_spec
from memfold.values import KIND_LETTERS, KINDS, TEXT, AboutResult, Fact, Hit, Interval

if TYPE_CHECKING:
    from memfold.embed.rerank import Reranker
    from memfold.recall.semantic import Semantic

_Ranked = TypeVar("_Ranked", Candidate, Scored)
PASSAGE_NUDGE = 0.001  # a sentence that holds its paragraph's match ranks just above it
MIN_CANDIDATES = 50  # each search fetches max(MIN_CANDIDATES, 4 * k) rows to rank
LEFT_OUT = (SUPERSEDED, MERGED, EXPIRED)  # statuses recall leaves out unless --all


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
    rerank: Reranker | None = None  # a second look at the best candidates (embed.rerank)


@dataclass(frozen=True)
class Ranked:
    hits: list[Hit]
    window: Interval | None
    entities: tuple[str, ...]
    truncated: int
    # matching facts left out for their lifecycle (superseded, merged, expired), by status
    hidden: dict[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()  # one line each: a time not read, an as-of before any fact


class _Found(dict[tuple[str, int], Candidate]):
    """Candidates by path and rowid, not line: a sentence row shares its line with its
    paragraph or a sibling.  `setdefault` keys by rowid whatever key it is given (the
    vector search keys by line), so a fact found twice is kept once, as first found."""

    def setdefault(self, key: tuple[str, int], default: Candidate) -> Candidate:
        return super().setdefault((default.fact.path, default.rowid), default)


def intersect(a: Interval | None, b: Interval | None) -> Interval | None:
    if a is None or b is None:
        return a or b
    starts = [d for d in (a.start, b.start) if d]
    ends = [d for d in (a.end, b.end) if d]
    return Interval(max(starts) if starts else None, min(ends) if ends else None)


def recall(backend: IndexBackend, plan: QueryPlan, options: RecallOptions) -> Ranked:
    window = intersect(plan.window, options.window)
    written_by, before_any = as_of(backend, options.today)
    notes = _unread(plan)
    if before_any:
        return Ranked([], window, (), 0, notes=(*notes, before_any))
    named = _query_entities(backend, plan)
    # A time phrase beside words is a preference, not a filter: people write about events
    # after they happen ("last month we ..."), so in-window facts rank higher but others
    # stay findable.  A query that is only a time phrase is restricted to it.
    soft = plan.window is not None and bool(plan.terms or plan.phrases or named)
    hard = options.window if soft else window
    required = tuple(_resolve(backend, options.entities))
    filters = Filters(kinds=options.kinds, window=hard, entity_keys=required,
                      written_by=written_by)
    if plan.about:
        about_key = backend.resolve_names([entity_key(plan.about)]).get(entity_key(plan.about))
        if about_key:
            linked = _one_per_passage(backend.linked([about_key], filters,
                                                     max(options.k, 1) * 2))
            hits = [h for c in linked if (h := _linked_hit(c, about_key, options))]
            statuses = Counter(status_of(c.fact, c.life, options.today)[0] for c in linked)
            return _pack(hits[: options.k], options, window, (about_key,),
                         _left_out(statuses, options), notes)
    found = _Found()
    limit = max(MIN_CANDIDATES, 4 * options.k)
    fts = plan.fts(skip=set(named))
    if fts and options.mode != SEMANTIC:
        for c in backend.lexical(fts, filters, limit):
            found[(c.fact.path, c.rowid)] = c
    selective = False  # the names the query gives are linked to fewer facts than `limit`
    if named:
        linked = backend.linked(named, filters, limit)
        selective = len(linked) < limit
        for c in linked:
            found.setdefault((c.fact.path, c.rowid), c)
    if (plan.window is not None and not soft) or (not fts and not named
                                                   and filters != Filters()):
        # a query of only punctuation or emoji ("*", "🍣") with no filter names nothing:
        # it finds nothing rather than every fact in memory
        for c in backend.recent(filters, limit):
            found.setdefault((c.fact.path, c.rowid), c)
    if soft and not found:  # nothing matched the words: answer with the time alone
        for c in backend.recent(evolve(filters, window=window), limit):
            found.setdefault((c.fact.path, c.rowid), c)
    fused = None  # semantic and hybrid: BM25 and cosine fused, by rowid (recall.fusion)
    if options.semantic is not None and options.mode != LEXICAL:
        fused = options.semantic.fuse(backend, plan, found, filters, limit, options.mode,
                                      text=_vector_text(plan, named), named=named)
    best = max((-c.bm25 for c in found.values() if c.bm25 is not None), default=0.0)
    match = {c.rowid: fused.get(c.rowid, 0.0) if fused is not None
             else lexical_part(c.bm25, best) for c in found.values()}
    if fts and options.mode != SEMANTIC:  # words the best candidates share (`expansion`)
        for c, value in expand(backend, plan, found, filters).values():
            found[(c.fact.path, c.rowid)] = c
            match[c.rowid] = value
    known = _known(backend, plan, named, found, match, filters) if (
        fts and options.mode != SEMANTIC) else {}
    hopped = _hop(backend, plan, named, found, match, filters, options) if (
        fts and options.mode == LEXICAL) else {}
    _within_passages(found.values(), match)
    # a fact found by the hop lifts no neighbour: its match is a guess at one remove
    context = _context(backend, found.values(),
                       {r: v for r, v in match.items() if r not in hopped} if hopped else match)
    # a question about a time is answered as of then, without successors
    ends, via = currency.bring_successors(backend, found, match, filters, options.today,
                                          hopped) if plan.window is None else ({}, {})
    scored = _held_by_neighbours([_score(c, plan, named, match[c.rowid], options,
                                         context.get(c.rowid), selective)
                                  for c in found.values()])
    shown = [s for s in scored if not s.hidden]
    if options.include_all:
        shown = currency.replacements_first(shown, plan.window is not None, ends)
    shown = currency.newer_first(shown, options.k, options.today)
    ordered = currency.below_current(_one_per_passage(sorted(shown, key=order)))
    if fused is not None and options.mode == HYBRID and options.semantic is not None:
        ordered = _spread(ordered, options.semantic)
    if options.rerank is not None:
        ordered = _reranked(ordered, plan.text, options.rerank)
    hits = [_explain(s, plan, window, fused, hopped.get(s.candidate.rowid),
                     via.get(s.candidate.rowid), known.get(s.candidate.rowid))
            for s in ordered[: options.k]]
    hidden = Counter(s.status for s in scored if s.hidden)
    return _pack(hits, options, window, tuple(named), hidden, notes)


def as_of(backend: IndexBackend, today: date) -> tuple[date | None, str | None]:
    """What a recall as of `today` may see: the day facts must be written by (None when the
    index holds no fact dated after today: every fact is seen, and searches keep their
    unfiltered paths), and, when today is before the first fact was written, one line
    saying so."""
    first, last = backend.fact_days()
    if first is not None and today < first:
        return today, (f"nothing was written by {today.isoformat()}: the first fact was "
                       f"written on {first.isoformat()}")
    return (today if last is not None and last > today else None), None


def _unread(plan: QueryPlan) -> tuple[str, ...]:
    if plan.unread_time is None:
        return ()
    return (f"{plan.unread_time!r} was not read as a time: searched as words",)


def _hop(backend: IndexBackend, plan: QueryPlan, named: Sequence[str], found: _Found,
         match: dict[int, float], filters: Filters, options: RecallOptions) -> dict[int, str]:
    """Lexical mode: add the facts the second hop finds (`expansion.second_hop`) to `found`
    and `match`; returns the seed each was found by.  It starts only from facts recall may
    show, and adds only those (`_standing`, as `_score` judges them): a superseded fact it
    meets is no match of the query, so it is neither shown nor counted as left out."""
    def showable(c: Candidate) -> bool:
        status, *_, current = _standing(c, plan, options)
        return current or status not in LEFT_OUT

    hopped: dict[int, str] = {}
    best_first = sorted(found.values(), key=lambda c: -match.get(c.rowid, 0.0))
    seeds = list(itertools.islice(filter(showable, best_first), SEEDS))
    for c, value, seed in second_hop(backend, plan, named, seeds, match, filters).values():
        if showable(c):
            found[(c.fact.path, c.rowid)] = c
            match[c.rowid] = value
            hopped[c.rowid] = seed
    return hopped


def _known(backend: IndexBackend, plan: QueryPlan, named: Sequence[str], found: _Found,
           match: dict[int, float], filters: Filters) -> dict[int, str]:
    """Add the facts word knowledge finds (`expansion.word_knowledge`) to `found`, or their
    match there to what they matched already; returns how each was found, for `why`."""
    known: dict[int, str] = {}
    for c, by_term in word_knowledge(backend, plan, frozenset(named), list(found.values()),
                                     filters).values():
        told = [(v, t) for term, (v, t) in by_term.items()  # a word it holds counted already
                if not _matched_terms(c, [term], forms=True)]
        if told:
            found.setdefault((c.fact.path, c.rowid), c)
            match[c.rowid] = match.get(c.rowid, 0.0) + sum(v for v, _ in told)
            known[c.rowid] = "; ".join(t for _, t in told)
    return known


def _held_by_neighbours(scored: list[Scored]) -> list[Scored]:
    """The context lifts a fact toward the fact that lifted it (`_context`), never past it:
    a fact whose score with its context reaches that fact's score without its own comes
    just below it, and never below its own score without the context.  A reply rises past
    facts it beats in nothing but words, not past the answer beside it.  On the
    LoCoMo dev split, lexical R@10 75.4 -> 76.6 (docs/semantic.md)."""
    own = {s.fact.id: s.own for s in scored}
    return [evolve(s, score=max(s.own, own[s.lifter] * (1 - PASSAGE_NUDGE)))
            if s.lifter in own and s.score >= own[s.lifter] else s for s in scored]


def about(backend: IndexBackend, name: str, *, k: int, today: date,
          include_all: bool = False) -> AboutResult:
    key = entity_key(name.lstrip("@"))
    resolved = backend.resolve_names([key]).get(key) if key else None
    info = backend.entity(resolved) if resolved else None
    if resolved is None or info is None:
        return AboutResult(name=name, key=None, page=None, aliases=(), hits=())
    options = RecallOptions(today=today, k=k, include_all=include_all)
    written_by, before_any = as_of(backend, today)
    found = [] if before_any else _one_per_passage(
        backend.linked([resolved], Filters(written_by=written_by), k * 2))
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


def _matched_terms(c: Candidate, terms: Sequence[str], *, forms: bool = False) -> list[str]:
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


def _vector_text(plan: QueryPlan, named: Sequence[str]) -> str:
    """What the query's vector is made of (`ranking.VECTOR_NAMES`)."""
    if ranking.tunable("VECTOR_NAMES") >= 0.5:
        return plan.text
    return plan.without_names(frozenset(named))


def _context(backend: IndexBackend, found: Iterable[Candidate],
             match: dict[int, float]) -> dict[int, tuple[float, str]]:
    """Each candidate's context (`ranking`): the best match among the candidates just
    before and after it in its file, plus CONTEXT_FAR of the best among those two facts
    away, and the id of the neighbour that gave the most."""
    ids = {c.rowid: c.fact.id for c in found}
    near = backend.neighbours(list(ids))
    far_share = ranking.tunable("CONTEXT_FAR")
    near_of = near  # two facts away: the neighbours' neighbours, but for the fact itself
    ring = {o for others in near.values() for o in others if o not in near}
    if far_share > 0 and ring:
        near_of = {**near, **backend.neighbours(sorted(ring))}
    context: dict[int, tuple[float, str]] = {}
    for rowid, others in near.items():
        parts = [max(((match[o], o) for o in others if match.get(o, 0.0) > 0),
                     default=None)]
        if far_share > 0:
            far = {f for o in others for f in near_of.get(o, ())} - {rowid, *others}
            best_far = max(((match[f], f) for f in far if match.get(f, 0.0) > 0),
                           default=None)
            parts.append((far_share * best_far[0], best_far[1]) if best_far else None)
        given = [p for p in parts if p is not None]
        if given:
            context[rowid] = (sum(v for v, _ in given), ids[max(given)[1]])
    return context


def _score(c: Candidate, plan: QueryPlan, named: Sequence[str], match: float,
           options: RecallOptions, near: tuple[float, str] | None = None,
           selective: bool = False) -> Scored:
    """The candidate's score; `hidden` when its lifecycle keeps it out of the answer.
    `selective`: the entities the query names are linked to few facts (fewer than recall
    fetches), so a fact about none of them is off the subject (`ranking.OFF_SUBJECT`); a
    name on half the memory (a speaker in a chat log) says little of what a fact is about."""
    status, decay, then, as_of_then, current = _standing(c, plan, options)
    linked = tuple(k for k in named if k in c.links)
    opinion = plan.opinion and c.fact.kind == "opinion"
    confidence = _confidence(c)
    context, beside = near or (0.0, None)
    off_subject = selective and not linked and not _names(c.fact, named)
    weight = 1.0 if options.include_all or as_of_then else lifecycle_weight(status, decay)

    def valued(context: float) -> float:
        rel = relevance(match, context=context, entity=bool(linked), opinion=opinion,
                        off_subject=off_subject)
        return score(rel, kind=c.fact.kind, confidence=confidence,
                     importance=c.fact.importance, lifecycle=weight) * time_factor(
                         then, state=c.fact.kind in STATE_KINDS)

    tier = 0 if current or _faded(c, status) else (1 if status == ARCHIVED else 2)
    value = valued(context)
    return Scored(c, value, confidence, linked, opinion, status, decay, tier,
                   beside if ranking.tunable("CONTEXT_SHARE") * context > match else None, then,
                   hidden=not current and status in LEFT_OUT,
                   own=valued(0.0) if context else value, lifter=beside if context else None)


def _names(fact: Fact, keys: Sequence[str]) -> bool:
    """Whether the fact's text names one of the entities `keys` without a link to it."""
    text = f" {' '.join(find_words(fold(fact.content)))} "
    return any(f" {key.replace('-', ' ')} " in text for key in keys)


def _standing(c: Candidate, plan: QueryPlan, options: RecallOptions,
              ) -> tuple[str, float, str, bool, bool]:
    """How a candidate stands: its status and decay, how it stands to the time the query
    asks about (`_then`), whether it is weighed as of then (`_current_then`), and whether
    it is current — shown whatever its status (with --all, every fact is)."""
    status, decay = status_of(c.fact, c.life, options.today)
    then = _then(c, plan.window)
    as_of_then = plan.window is not None and _current_then(c, status, then)
    return status, decay, then, as_of_then, options.include_all or status == ACTIVE or as_of_then


def _then(c: Candidate, window: Interval | None) -> str:
    """How a fact stands to the time a query asks about (`ranking.time_factor`)."""
    if window is None:
        return ranking.UNDATED
    fact = c.fact
    on = c.life.superseded_on if c.life else None
    if on is not None and window.start is not None and on <= window.start.isoformat():
        return ranking.NOT_THEN  # replaced before that time began
    if fact.valid is not None and _overlaps(fact.valid, window):
        return ranking.VALID
    if (said := said_time(fact.content, fact.day)) is not None and _overlaps(said, window):
        return ranking.VALID  # its own words place it then ("last Saturday", "in 2022")
    state = fact.kind in STATE_KINDS
    if fact.valid is not None and state:
        return ranking.NOT_THEN  # a state that says when it holds, and that is another time
    if fact.day is None:
        return ranking.UNDATED
    if _written_in(fact, window):
        return ranking.WRITTEN
    # a state written before that time still held in it; an experience told before it is
    # about something earlier, and one told after it may be about it ("last month we ...")
    before = window.start is not None and fact.day < window.start
    return ranking.HELD if state and before else ranking.NOT_THEN


@functools.lru_cache(maxsize=1 << 14)  # the same facts come back query after query
def said_time(content: str, day: date | None) -> Interval | None:
    """The time a fact's own words name, read as of the day it was written: "last
    Saturday" in a log of Monday 8 May 2023 is 6 May 2023 (`times.parse.find_time_phrase`).
    None for an undated fact or one that names no time."""
    if day is None:
        return None
    found = find_time_phrase(content, today=day)
    return found[0] if found else None


def _faded(c: Candidate, status: str) -> bool:
    """Archived by decay alone (no person archived it): it competes with the active facts,
    weighed down by its lifecycle weight, instead of ranking below all of them — an exact
    match on words nothing recent holds is still found, years later."""
    return status == ARCHIVED and not _archived_by_person(c)


def _archived_by_person(c: Candidate) -> bool:
    """Archived by a person (`memfold forget`), not by decay."""
    return c.life is not None and c.life.status == ARCHIVED and c.life.reason != "decay"


def _current_then(c: Candidate, status: str, then: str) -> bool:
    """Whether a question about a time weighs the fact as current: it is answered as of
    then, so today's decay does not count (a fact archived by decay alone is current), and
    a fact superseded or expired since counts when it held then.  A fact a person archived
    stays archived."""
    if status == ARCHIVED:
        return not _archived_by_person(c)
    return status == ACTIVE or then in ranking.HELD_THEN


def _written_in(fact: Fact, window: Interval) -> bool:
    day = fact.day
    return day is not None and (window.start is None or window.start <= day) and (
        window.end is None or day <= window.end)


def _confidence(c: Candidate) -> float:
    if c.life is not None and c.life.confidence is not None:
        return c.life.confidence
    return confidence_of(c.fact.kind, c.fact.confidence)


def _overlaps(a: Interval, b: Interval) -> bool:
    return (a.start is None or b.end is None or a.start <= b.end) and (
        a.end is None or b.start is None or b.start <= a.end)


def _explain(s: Scored, plan: QueryPlan, window: Interval | None,
             fused: dict[int, float] | None = None, hopped: str | None = None,
             replaces: str | None = None, known: str | None = None) -> Hit:
    """A scored candidate as a hit, with `why` in a few words."""
    why = []
    if replaces:
        why.append(f"replaces ^{replaces}, which matched")
    if terms := _matched_terms(s.candidate, [*plan.phrases, *plan.terms], forms=True):
        why.append("words " + ", ".join(terms[:6]))
    elif fused and fused.get(s.candidate.rowid, 0.0) > 0 and not replaces:
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
    if window:  # and how the fact stands to it, when that weighed
        weighed = s.then != ranking.NOT_THEN or s.fact.kind in STATE_KINDS
        why.append(f"in {window}" + (f" ({s.then})" if s.then and weighed else ""))
    hit = describe(s.candidate, None, score=s.score, why="; ".join(why) or "in range",
                   status=(s.status, s.decay))
    return evolve(hit, possibly_outdated_by=s.outdated_by) if s.outdated_by else hit


def _linked_hit(c: Candidate, key: str, options: RecallOptions) -> Hit | None:
    status, decay = status_of(c.fact, c.life, options.today)
    if not options.include_all and status in LEFT_OUT:
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


def _reranked(ordered: list[Scored], query: str, reranker: Reranker) -> list[Scored]:
    """The RERANK_TOP best candidates ordered again by a blend of their score and the
    reranker's (each scaled to 0..1 among them, the reranker's at RERANK_SHARE); the rest
    follow as they were.  The blend, spread between the best score and the best of the
    rest, becomes the score, so scores still fall down the list; tiers (active before
    archived) still come first."""
    share = ranking.tunable("RERANK_SHARE")
    top, rest = ordered[: ranking.RERANK_TOP], ordered[ranking.RERANK_TOP :]
    if share <= 0 or len(top) < 2:
        return ordered
    raw = reranker.scores(query, [s.fact.content for s in top])
    low, high = min(raw), max(raw)
    best = max(s.score for s in top)
    floor = min(max((s.score for s in rest), default=0.0), best)
    blended = [evolve(s, score=floor + (best - floor) * (
                   (1 - share) * (s.score / best if best > 0 else 0.0)
                   + share * ((r - low) / (high - low) if high > low else 0.0)))
               for s, r in zip(top, raw, strict=True)]
    return sorted(blended, key=order) + rest


def _spread(ordered: list[Scored], semantic: Semantic) -> list[Scored]:
    """Hybrid: the SPREAD_POOL best ordered again so that a result much like one above it
    gives way (`ranking.spread`), each with its lowered score (no lower than the best score
    of the rest, which follow as they were)."""
    top, rest = ordered[: ranking.SPREAD_POOL], ordered[ranking.SPREAD_POOL :]
    if ranking.tunable("VECTOR_SPREAD") <= 0 or len(top) < 2:
        return ordered
    cosines = semantic.pairwise([s.candidate.rowid for s in top])
    floor = max((s.score for s in rest), default=0.0)
    placed = ranking.spread([(s.tier, s.score) for s in top], cosines)
    order = [i for i, _ in placed]
    spread: list[Scored] = []
    for n, (i, lowered) in enumerate(placed):
        if lowered == top[i].score:
            spread.append(top[i])
            continue  # the first placed is never lowered: order[:n] is never empty here
        above = max(order[:n], key=cosines[i].__getitem__)  # the one it is most like
        spread.append(evolve(top[i], score=max(lowered, floor), alike=top[above].fact.id))
    return spread + rest


def _within_passages(found: Iterable[Candidate], match: dict[int, float]) -> None:
    """A text row inside a longer one found too (a sentence in its paragraph,
    `workspace.sentences`) matches what that passage matches: it is there to cite the line,
    not to outrank typed facts the paragraph ranks below (a short sentence's BM25 would).
    A sentence that matches at least as well as its paragraph comes just above it
    (PASSAGE_NUDGE); one that matches less keeps its own, lower, match."""
    spans: dict[str, list[Candidate]] = {}
    for c in found:
        if c.fact.kind == TEXT:
            spans.setdefault(c.fact.path, []).append(c)
    for rows in spans.values():
        for c in rows:
            f = c.fact
            around = [match[o.rowid] for o in rows if o.fact.line <= f.line
                      and f.end_line <= o.fact.end_line
                      and o.fact.end_line - o.fact.line > f.end_line - f.line]
            if around and match[c.rowid] >= max(around) > 0:
                match[c.rowid] = max(around) * (1 + PASSAGE_NUDGE)


def _one_per_passage(ordered: list[_Ranked]) -> list[_Ranked]:
    """Text rows whose lines lie within a text row ranked above them are left out: a
    sentence under its own paragraph (`workspace.sentences`), or a second sentence of the
    same line, says nothing the row above does not.  A paragraph below one of its
    sentences stays — it holds more."""
    kept: list[_Ranked] = []
    spans: dict[str, list[tuple[int, int]]] = {}
    for s in ordered:
        f = s.fact
        if f.kind == TEXT:
            if any(a <= f.line and f.end_line <= b for a, b in spans.get(f.path, ())):
                continue
            spans.setdefault(f.path, []).append((f.line, f.end_line))
        kept.append(s)
    return kept


def _left_out(statuses: Counter[str], options: RecallOptions) -> dict[str, int]:
    """How many of the statuses recall leaves out without --all."""
    return {} if options.include_all else {s: n for s, n in statuses.items() if s in LEFT_OUT}


def _pack(hits: list[Hit], options: RecallOptions, window: Interval | None,
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


def check_budget(budget: int | None) -> None:
    if budget is not None and budget < 1:
        raise BadInput(f"--budget must be a positive number of tokens, not {budget}")


# -- a recall's arguments -----------------------------------------------------------------------


def recall_options(query: object, *, k: int, since: str | date | None, until: str | date | None,
                   kinds: Sequence[str] | str | None, entities: Sequence[str],
                   include_all: bool, budget: int | None, today: date) -> RecallOptions:
    """A recall's arguments checked and read (BadInput, saying what to do, when one is not
    usable): a query of at most MAX_QUERY_CHARS, k and budget positive, time specs, kinds."""
    if not isinstance(query, str) or not query.strip():
        raise BadInput("the query is empty; say what to recall, e.g. 'where does Peter live'")
    refuse_long(query, "query", " (what recall reads): ask in a few words, not a document")
    if k < 1:
        raise BadInput(f"--k must be at least 1, not {k}")
    check_budget(budget)
    return RecallOptions(k=k, kinds=parse_kinds(kinds), entities=tuple(entities),
                         window=spec_window(since, until, today), include_all=include_all,
                         budget=budget, today=today)


def parse_kinds(kinds: Sequence[str] | str | None) -> tuple[str, ...]:
    """W,B,O,S or world,experience,opinion,observation,text -> the kinds' full names."""
    if kinds is None:
        return ()
    items = kinds.split(",") if isinstance(kinds, str) else list(kinds)
    out: list[str] = []
    for item in (i.strip() for i in items):
        if not item:
            continue
        name = KIND_LETTERS.get(item.upper(), item.lower()) if len(item) == 1 else item.lower()
        if name not in KINDS:
            raise BadInput(f"unknown kind {item!r}; use W, B, O, S or "
                           "world, experience, opinion, observation, text")
        out.append(name)
    return tuple(dict.fromkeys(out))


def spec_window(since: str | date | None, until: str | date | None,
                 today: date) -> Interval | None:
    if since is None and until is None:
        return None
    try:
        start = spec(since, today).start if since is not None else None
        end = spec(until, today).end if until is not None else None
    except TimeSpecError as exc:
        raise BadInput(str(exc)) from None
    if start and end and start > end:
        raise BadInput(f"--since {since} is after --until {until}")
    return Interval(start, end)


def spec(value: str | date, today: date) -> Interval:
    if isinstance(value, date):
        return Interval(value, value)
    return parse_spec(value, today=today)
