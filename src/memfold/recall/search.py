"""Recall: turn a query plan into ranked, cited hits.

The steps, each in its module of `memfold.recall`: the candidates and their match
(`gather`: lexical, entity and time searches, the nearest vectors in semantic and hybrid
mode, expansion, word knowledge and the second hop), each candidate's standing and score
(`scoring`, weighed by `ranking`, lifted by the best match beside it in its file), what is
true now (`currency`), and the hits with `why` (`hits`).  This module runs them in order and
orders what is shown: one row per passage, spread (hybrid) and reranked when asked.  As of a
day in the past (`as_of`), only facts written by then are searched.

`recall`, `about` and the names callers import from here (`RecallOptions`, `Ranked`,
`Trace`, `describe`, `build_trace`, `recall_options`, ...) are this package's entry points.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace as evolve
from datetime import date
from typing import TYPE_CHECKING, TypeVar

from memfold import lexicon
from memfold.index.base import Candidate, Filters, RecallIndex
from memfold.journal.fold import status_of
from memfold.language import looks_vietnamese
from memfold.names import USER, entity_key
from memfold.recall import (
    anchored,
    asked_slot,
    before,
    currency,
    learned,
    members,
    offered,
    ranking,
    sets,
)
from memfold.recall.answer_kind import AnswerKind, asks_person, kind_of
from memfold.recall.fusion import HYBRID
from memfold.recall.gather import (
    Pool,
    context_of,
    gather,
    query_names,
    resolve_entities,
    vector_text,
)
from memfold.recall.hits import (
    Ranked,
    Trace,
    build_trace,
    describe,
    explain,
    left_out,
    linked_hit,
    pack,
    within_budget,
)
from memfold.recall.options import RecallOptions, check_budget, recall_options, spec
from memfold.recall.pulled import pull_newer
from memfold.recall.query import QueryPlan
from memfold.recall.ranking import Scored, order
from memfold.recall.roles import with_roles
from memfold.recall.scoring import (
    WEIGHED_KINDS,
    held_by_neighbours,
    said_time,
    score_candidate,
    within_passages,
)
from memfold.recall.weak import Asked, asked, weak_of
from memfold.times.anchors import asks_when
from memfold.values import TEXT, AboutResult, Fact, Interval
from memfold.values.results import strict_note
from memfold.workspace.format import cited_turn, is_turn

if TYPE_CHECKING:
    from memfold.embed.rerank import Reranker
    from memfold.recall.semantic import Semantic

# recall's entry points, and the names callers import from here
__all__ = [
    "Ranked", "RecallOptions", "Trace", "about", "as_of", "build_trace", "check_budget",
    "describe", "recall", "recall_options", "said_time", "spec", "within_budget",
]

_Ranked = TypeVar("_Ranked", Candidate, Scored)


def intersect(a: Interval | None, b: Interval | None) -> Interval | None:
    if a is None or b is None:
        return a or b
    starts = [d for d in (a.start, b.start) if d]
    ends = [d for d in (a.end, b.end) if d]
    return Interval(max(starts) if starts else None, min(ends) if ends else None)


def recall(backend: RecallIndex, plan: QueryPlan, options: RecallOptions) -> Ranked:
    written_by, before_any = as_of(backend, options.today)
    notes = _unread(plan)
    plan, read = anchored.with_anchor(backend, plan, written_by, options.today)
    notes = (*notes, read) if read else notes
    for reading in (before.asked_before, before.asked_when):
        plan, read = reading(backend, plan, written_by, options.today)
        notes = (*notes, read) if read else notes
    window = intersect(plan.window, options.window)
    if before_any:
        return Ranked([], window, (), 0, notes=(*notes, before_any))
    named, called = query_names(backend, plan)
    # A time phrase beside words is a preference, not a filter: people write about events
    # after they happen ("last month we ..."), so in-window facts rank higher but others
    # stay findable.  A query that is only a time phrase is restricted to it.
    soft = plan.window is not None and bool(plan.terms or plan.phrases or named)
    # a query that is only a time phrase also sees what was written just after that time
    # and says it happened then ("last night", the morning after)
    only_time = not soft and options.window is None
    hard = anchored.told_after(window, options.today) if only_time else options.window if soft \
        else window
    required = tuple(resolve_entities(backend, options.entities))
    filters = Filters(kinds=options.kinds, window=hard, entity_keys=required,
                      written_by=written_by)
    if plan.about:
        about_key = backend.resolve_names([entity_key(plan.about)]).get(entity_key(plan.about))
        if about_key:
            return _about_hits(backend, about_key, filters, options, window, notes)
    plan, named = with_roles(backend, plan, named, filters)
    told = members.telling(backend, plan, named, filters, options.mode)
    plan, named = sets.with_groups(backend, plan, named, filters, options.mode)
    pool = gather(backend, plan, named, filters, options, soft=soft, window=window)
    if only_time:
        anchored.told_then(pool.found, window)
        for c, value in anchored.occasions(backend, plan, window, filters).values():
            pool.found[(c.fact.path, c.rowid)] = c
            pool.match[c.rowid] = max(pool.match.get(c.rowid, 0.0), value)
    return _ranked(backend, plan, named, pool, filters, options, window, notes, told,
                   called)


def _about_hits(backend: RecallIndex, key: str, filters: Filters, options: RecallOptions,
                window: Interval | None, notes: tuple[str, ...]) -> Ranked:
    """A "tell me about X" query: the facts linked to the entity, newest first."""
    linked = _one_per_passage(backend.linked([key], filters, max(options.k, 1) * 2))
    hits = [h for c in linked if (h := linked_hit(c, key, options))]
    statuses = Counter(status_of(c.fact, c.life, options.today)[0] for c in linked)
    return pack(hits[: options.k], options, window, (key,), left_out(statuses, options), notes)


def _ranked(backend: RecallIndex, plan: QueryPlan, named: Sequence[str], pool: Pool,
            filters: Filters, options: RecallOptions, window: Interval | None,
            notes: tuple[str, ...], told: frozenset[str] = frozenset(),
            called: Sequence[str] = ()) -> Ranked:
    """The candidates scored, ordered and explained; the facts in `told` (`members`) first."""
    found, match, hopped = pool.found, pool.match, pool.hopped
    within_passages(found.values(), match)
    # a fact found by the hop lifts no neighbour: its match is a guess at one remove
    context = context_of(backend, found.values(),
                         {r: v for r, v in match.items() if r not in hopped} if hopped else match)
    # a question about a time is answered as of then, without successors
    ends, via = currency.bring_successors(backend, found, match, filters, options.today,
                                          hopped) if plan.window is None else ({}, {})
    slot = asked_slot.slot_of(plan, named)
    # newer facts on the asked slot of the best matches, which share no word with a
    # question about now: `current_first` places them or leaves them out
    pulled = pull_newer(backend, found, match, slot, filters, options.today)
    for rowid in pulled:
        match[rowid] = 0.0
    # whether the memory has the user's entity: asked once, when first needed
    has_user = functools.cache(lambda: bool(backend.resolve_names([USER]).get(USER)))
    # the user's entity, when the memory has one and the question is asked of the user
    user = USER if plan.user_subject and not named and has_user() else None
    wanted = kind_of(plan.text, named)
    question, brought = asked(backend, plan, named), {**via, **pulled}
    headless = _headless(question, plan.text, found.values(), pool.covers, brought)
    # the aliases the query names them by (`query_names`): off the subject, said in a fact
    called = called if pool.selective else ()
    scored = held_by_neighbours([score_candidate(c, plan, named, match[c.rowid], options,
                                                 context.get(c.rowid), pool.selective, user,
                                                 wanted, c.rowid in headless, called)
                                 for c in found.values()])
    scored = anchored.events_first(scored, plan)
    by_rowid = {c.rowid: c.fact.id for c in found.values()}
    weak = weak_of(question, pool.found.values(), pool.covers, brought)
    shown, modelled = _learned(has_user, [s for s in scored if not s.hidden], plan, named,
                               functools.partial(_shape, plan, named, slot, wanted), pool,
                               options, weak)
    ordered = _ordered(shown, plan, options, ends, pool.fused, modelled,
                       slot, {by_rowid[r]: old for r, old in pulled.items()},
                       currency.stood_for(found.values(), via), offered.reader(backend))
    # siblings follow a best match that misses the question's words, not one that only
    # misses its head: the flag tells the reader, it does not reorder (`weak.Asked.head`)
    ordered = members.told_first(sets.with_siblings(
        backend, ordered, plan, named, pool, filters,
        weak_of(question.headless, pool.found.values(), pool.covers, brought)), told)
    shown = ordered[: options.k]
    if options.strict:  # the k best that are not weak, and how many weak ones gave way
        left = sum(map(weak, (s.candidate for s in shown)))
        shown = [s for s in ordered if not weak(s.candidate)][: options.k]
        notes = (*notes, strict_note(left)) if left else notes
    hits = [evolve(explain(s, plan, window, pool.fused, hopped.get(s.candidate.rowid),
                           via.get(s.candidate.rowid), pool.known.get(s.candidate.rowid),
                           pulled.get(s.candidate.rowid)),
                   weak=weak(s.candidate))
            for s in shown]
    hidden = Counter(s.status for s in scored if s.hidden)
    return pack(hits, options, window, tuple(named), hidden, notes)


def _shape(plan: QueryPlan, named: Sequence[str], slot: asked_slot.Slot | None,
           wanted: AnswerKind | None) -> dict[str, float]:
    """The question's flags as the plan reads them, for the learned order (`learned`)."""
    return learned.shape_of(plan.text, {
        "opinion": plan.opinion, "user": plan.user_subject, "history": plan.history,
        "time": plan.window is not None, "before": plan.change_day is not None,
        "named": bool(named), "slot": slot is not None,
        "now": not plan.history and plan.window is None, "person": asks_person(plan.text),
        "several": sets.asks_for_several(plan), "asks_when": asks_when(plan.text),
        "sum": wanted is not None and wanted.kind in WEIGHED_KINDS})


def _learned(has_user: Callable[[], bool], shown: list[Scored], plan: QueryPlan,
             named: Sequence[str], shape_of: Callable[[], dict[str, float]], pool: Pool,
             options: RecallOptions, weak: Callable[[Candidate], bool],
             ) -> tuple[list[Scored], bool]:
    """The scored candidates, the TOP best (by `ranking.order`) ordered again by the learned
    weights of the mode (`learned`), when it has any and the memory is one an assistant
    keeps about its user — it has the user's entity (`names.USER`), as the years the
    weights learned from do; a chat log's speakers (LoCoMo) or another's timeline are
    not; a question in Vietnamese neither (the years were English).  Recorded instead
    under `learned.recording`.  The best scores are dealt out again
    in the learned order, so the rules that place facts after scoring (what is true now
    above what it replaced, the members told, siblings, spread: `_ordered`) still hold.
    Returns the facts and whether the model ordered them."""
    weights = learned.weights_for(options.mode)
    if weights is not None and (looks_vietnamese(plan.text) or not has_user()):
        weights = None  # learned from English years only; no Vietnamese year measures it
    if (weights is None and not learned.recording_now()) or not shown:
        return shown, False
    ordered, shape = sorted(shown, key=order), shape_of()
    how = {**{r: "known" for r in pool.known}, **{r: "hopped" for r in pool.hopped}}
    rows = learned.features(ordered, options.today, how, pool.fused, weak,
                            _cosines(ordered[: learned.TOP], plan, named, pool, options))
    if weights is None:
        learned.record(plan.text, ordered, rows, shape)
        return shown, False
    top = learned.reordered(ordered[: len(rows)], rows, shape, weights)
    return top + ordered[len(rows):], True


def _cosines(top: Sequence[Scored], plan: QueryPlan, named: Sequence[str], pool: Pool,
             options: RecallOptions) -> dict[int, float] | None:
    """The cosine of each of the `top` with the question's vector, by rowid (those with a
    vector), in semantic and hybrid mode; None in lexical mode."""
    if pool.fused is None or options.semantic is None:
        return None
    semantic = options.semantic
    query = semantic.query_vector(vector_text(plan, named))
    return semantic.store.similarity(query, [s.candidate.rowid for s in top])


def _headless(question: Asked, text: str, found: Collection[Candidate],
              covers: Mapping[int, Collection[str]], brought: Mapping[int, str],
              ) -> frozenset[int]:
    """The candidates (by rowid) that hold none of the thing the question asks for
    (`weak.Asked.holds_head`, its last word: "which *factory* did I visit in Japan?" of
    "Lachlan has a fellowship at Hokkaido University"), when another candidate holds it
    and the head names a thing (`_names_a_thing`, no kind asked: KIND_ASKED); a fact
    brought in for another (`brought`: a replacement, a newer value on the asked slot)
    answers for that one and is left alone."""
    if not question.head or not _names_a_thing(question.head[-1]) or KIND_ASKED.search(text):
        return frozenset()
    question = evolve(question, head=question.head[-1:])  # the noun: "tuning *app*"
    without = {c.rowid for c in found
               if c.rowid not in brought and not question.holds_head(c, covers.get(c.rowid, ()))}
    return frozenset(without) if len(without) < len(found) - len(brought) else frozenset()


# the lexicon's classes of an abstract thing ("topic": cognition, "focus": quality, "career
# path": course of action): what answers one is a clause, not the word
ABSTRACT_CLASSES = frozenset({"cognition", "communication", "message", "quality", "attribute",
                              "action", "course of action", "psychological feature",
                              "abstraction", "content", "mental object"})


@functools.lru_cache(maxsize=1024)  # the lexicon is asked once a word, not once a recall
def _names_a_thing(word: str) -> bool:
    """Whether the head a question asks for names a thing a fact that answers would hold:
    not a plural ("which books did I finish?" is answered by their names: "Finished
    'Birnam Wood'"), a kind of place ("which area of Glasgow?": "Partick"), something
    abstract ("what topic", "what career path": the answer is a clause), or a word in
    -ing or -ed, which is no noun ("what *exciting* news")."""
    if word.endswith(("ing", "ed")) or any(w != word for w in lexicon.lemmas(word)):
        return False
    classes = set(lexicon.classes(word))
    return not _named_place(word) and not classes & ABSTRACT_CLASSES


# a question that asks for a kind of the thing it names ("what *style of* dance", "what kind
# of dog"): the answer names the kind ("contemporary", "a huntaway cross"), seldom the thing
KIND_ASKED = re.compile(r"\b(?:kinds?|types?|sorts?|styles?|forms?|genres?|brands?|makes?|names?)"
                        r"\s+of\b", re.IGNORECASE)
# the lexicon's classes of a word for a kind of place ("city": district, geographical area)
PLACE_CLASSES = frozenset({"area", "geographical area", "geographic area", "district",
                           "region", "location", "point"})


def _named_place(word: str) -> bool:
    """Whether `word` is a kind of place ("area", "suburb", "town"): "which area of Glasgow
    did I prefer?" is answered by a place's name ("Partick"), not by the word."""
    return word in PLACE_CLASSES or not PLACE_CLASSES.isdisjoint(lexicon.classes(word))


def _ordered(shown: list[Scored], plan: QueryPlan, options: RecallOptions,
             ends: Mapping[str, str], fused: dict[int, float] | None, modelled: bool,
             slot: asked_slot.Slot | None = None,
             pulled: Mapping[str, str] | None = None,
             stood: Mapping[str, Fact] | None = None,
             conflicts: offered.Reader | None = None) -> list[Scored]:
    """The facts recall shows, best first: what is true now above what it replaced
    (`currency`), one row per passage and per captured turn, spread (hybrid) and reranked
    when asked."""
    if options.include_all:
        shown = currency.replacements_first(shown, plan.window is not None, ends)
    shown = currency.newer_first(shown, options.k, options.today)
    shown, lifted = offered.newer_first(shown, slot, conflicts, options.k, options.today,
                                        lift=not modelled)
    shown = asked_slot.current_first(shown, slot, options.k, options.today,
                                     {i: o for i, o in (pulled or {}).items() if i not in lifted},
                                     stood or {})
    ordered = _one_per_turn(currency.below_current(_one_per_passage(sorted(shown, key=order)),
                                                   asks_when(plan.text), plan.text))
    if fused is not None and options.mode == HYBRID and options.semantic is not None:
        ordered = _spread(ordered, options.semantic)
        late = options.semantic.late_interaction() if options.rerank is None else None
        if late is not None:  # a second look at the few best (`fusion.LOOK_TOP`)
            ordered = _looked(ordered, plan.text, late, slot is not None)
    if options.rerank is not None:
        ordered = _reranked(ordered, plan.text, options.rerank, slot_asked=slot is not None)
    return ordered


def as_of(backend: RecallIndex, today: date) -> tuple[date | None, str | None]:
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


def about(backend: RecallIndex, name: str, *, k: int, today: date,
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
    hits = tuple(h for c in found if (h := linked_hit(c, resolved, options)))[:k]
    return AboutResult(name=info.name, key=resolved, page=info.page, aliases=info.aliases,
                       hits=hits)


def _reranked(ordered: list[Scored], query: str, reranker: Reranker,
              top_n: int | None = None, share_of: str = "RERANK_SHARE",
              slot_asked: bool = False) -> list[Scored]:
    """The `top_n` best candidates (RERANK_TOP when None) ordered again by a blend of their
    score and the reranker's (each scaled to 0..1 among them, the reranker's at `share_of`);
    the rest follow as they were.  The blend, spread between the best score and the best of the
    rest, becomes the score, so scores still fall down the list; tiers (active before
    archived) still come first.  A reranker weighs words, not time: the order keeps what
    recall placed by time (`_in_time`)."""
    share = ranking.tunable(share_of)
    top_n = ranking.RERANK_TOP if top_n is None else top_n
    top, rest = ordered[:top_n], ordered[top_n:]
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
    return _in_time(sorted(blended, key=order), top, slot_asked) + rest


def _in_time(looked: list[Scored], before: list[Scored], slot_asked: bool) -> list[Scored]:
    """`looked` (a reordering of `before`), except that a fact never passes a newer one
    recall found may replace it (`Scored.outdated_by`, `currency`) — nor, when the question
    asks a slot (`asked_slot`), a fact about one of its entities that recall placed above it
    in `before` and that is newer, or that recall placed it below as what holds (a value
    told as held before, "misses Bristol, where she lived", below "moved to Cardiff":
    `Scored.replaced`).  Scores are kept falling down the list."""
    rank = {s.fact.id: n for n, s in enumerate(before)}
    left, placed = list(looked), list[Scored]()

    def held_back(s: Scored) -> bool:  # a fact on its subject that holds was above it
        return slot_asked and any(
            rank[o.fact.id] < rank[s.fact.id] and (s.replaced or _newer(o.fact, s.fact))
            and not set(o.fact.entities).isdisjoint(s.fact.entities) for o in left)
    while left:
        ids = {s.fact.id for s in left}
        pick = next((s for s in left if ids.isdisjoint(s.outdated_by) and not held_back(s)),
                    left[0])
        left.remove(pick)
        placed.append(evolve(pick, score=min(pick.score, placed[-1].score)) if placed
                      else pick)
    return placed


def _looked(ordered: list[Scored], query: str, late: Reranker,
            slot_asked: bool = False) -> list[Scored]:
    """Hybrid: the LOOK_TOP best ordered again by a blend of their score and the embedder's
    late interaction (`_reranked` at LOOK_SHARE)."""
    return _reranked(ordered, query, late, int(ranking.tunable("LOOK_TOP")), "LOOK_SHARE",
                     slot_asked)


def _newer(a: Fact, b: Fact) -> bool:
    return a.day is not None and (b.day is None or a.day > b.day)


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


def _one_per_turn(ordered: list[_Ranked]) -> list[_Ranked]:
    """A captured turn and the bullets extracted from it (`workspace.format.turns`) say one
    thing: the first of them in `ordered` is shown, the rest left out."""
    kept: list[_Ranked] = []
    turns: set[tuple[str, int]] = set()
    for s in ordered:
        if (turn := _turn_of(s.fact)) is not None:
            if turn in turns:
                continue
            turns.add(turn)
        kept.append(s)
    return kept


def _turn_of(fact: Fact) -> tuple[str, int] | None:
    """The captured turn a fact is or was extracted from, as (file, header line)."""
    if is_turn(fact):
        return fact.path, fact.line
    line = cited_turn(fact.content)
    return None if line is None else (fact.path, line)
