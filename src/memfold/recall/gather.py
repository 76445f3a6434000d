"""A recall's candidates: the searches it runs over the index and what each found matches.

Lexical (BM25 over every term and phrase, any of them), entity (facts linked to a name the
query mentions) and, for queries that only name a time or filters, the newest facts in range;
in semantic and hybrid mode the nearest vectors too (`Semantic.fuse`).  Then the words the
best candidates share (`expansion.expand`), word knowledge (`expansion.word_knowledge`) and,
in lexical mode, the second hop (`expansion.second_hop`).  Filters are applied inside each
search, so a narrow filter never starves the results.  `context_of` reads each candidate's
neighbours in its file for the context `ranking` weighs.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from dataclasses import replace as evolve

from memfold.index.base import Candidate, Filters, RecallIndex, Terms
from memfold.names import entity_key
from memfold.recall import folded, places, ranking, topic
from memfold.recall.expansion import SEEDS, expand, second_hop, term_weights, word_knowledge
from memfold.recall.fusion import LEXICAL, SEMANTIC, lexical_part
from memfold.recall.hits import matched_terms
from memfold.recall.options import RecallOptions
from memfold.recall.owned import owned
from memfold.recall.query import QueryPlan, clean_text
from memfold.recall.scoring import LEFT_OUT, standing
from memfold.values import Interval

MIN_CANDIDATES = 50  # each search fetches max(MIN_CANDIDATES, 4 * k) rows to rank


class Found(dict[tuple[str, int], Candidate]):
    """Candidates by path and rowid, not line: a sentence row shares its line with its
    paragraph or a sibling.  `setdefault` keys by rowid whatever key it is given (the
    vector search keys by line), so a fact found twice is kept once, as first found."""

    def setdefault(self, key: tuple[str, int], default: Candidate) -> Candidate:
        return super().setdefault((default.fact.path, default.rowid), default)


def query_names(backend: RecallIndex, plan: QueryPlan) -> tuple[list[str], tuple[str, ...]]:
    """Entities the query names (every @mention, and known names among its words), and the
    words it calls one of them by that are not its key: an alias ("score" for @Fatima, "mum"
    for @Zora).  A fact that says the word names the entity as the query does
    (`scoring.score_candidate`, off the subject)."""
    mention_keys = [entity_key(m) for m in plan.mentions]
    resolved = backend.resolve_names([*mention_keys, *plan.name_keys])
    keys = [resolved.get(k, k) for k in mention_keys]
    keys += [resolved[k] for k in plan.name_keys if k in resolved]
    called = tuple(k for k in plan.name_keys if resolved.get(k, k) != k)
    return list(dict.fromkeys(k for k in keys if k)), called


def resolve_entities(backend: RecallIndex, names: Iterable[str]) -> list[str]:
    keys = [entity_key(clean_text(n).lstrip("@")) for n in names]
    resolved = backend.resolve_names(keys)
    return [resolved.get(k, k) for k in keys]


def vector_text(plan: QueryPlan, named: Sequence[str]) -> str:
    """What the query's vector is made of (`ranking.VECTOR_NAMES`)."""
    if ranking.tunable("VECTOR_NAMES") >= 0.5:
        return plan.text
    return plan.without_names(frozenset(named))


def _hop(backend: RecallIndex, plan: QueryPlan, named: Sequence[str], found: Found,
         match: dict[int, float], filters: Filters, options: RecallOptions) -> dict[int, str]:
    """Lexical mode: add the facts the second hop finds (`expansion.second_hop`) to `found`
    and `match`; returns the seed each was found by.  It starts only from facts recall may
    show, and adds only those (`standing`, as `score_candidate` judges them): a superseded fact it
    meets is no match of the query, so it is neither shown nor counted as left out."""
    def showable(c: Candidate) -> bool:
        status, *_, current = standing(c, plan, options)
        return current or status not in LEFT_OUT

    hopped: dict[int, str] = {}
    best_first = sorted(found.values(),  # ties by place: rowids follow the index's history
                        key=lambda c: (-match.get(c.rowid, 0.0), c.fact.path, c.fact.line))
    seeds = list(itertools.islice(filter(showable, best_first), SEEDS))
    for c, value, seed in second_hop(backend, plan, named, seeds, match, filters).values():
        if showable(c):
            found[(c.fact.path, c.rowid)] = c
            match[c.rowid] = value
            hopped[c.rowid] = seed
    return hopped


def _known(backend: RecallIndex, plan: QueryPlan, named: Sequence[str], found: Found,
           match: dict[int, float], filters: Filters,
           ) -> tuple[dict[int, str], dict[int, frozenset[str]]]:
    """Add the facts word knowledge finds (`expansion.word_knowledge`) to `found`, or their
    match there to what they matched already; returns how each was found, for `why`, and
    the query words each stands for (`weak`)."""
    known: dict[int, str] = {}
    covers: dict[int, frozenset[str]] = {}
    terms = [t for t in plan.terms if entity_key(t) not in named]
    held = {c.rowid: [t.split(" (")[0] for t in matched_terms(c, terms, forms=True)]
            for c in found.values() if match.get(c.rowid, 0.0) > 0}
    weights = term_weights(terms, {r: ts for r, ts in held.items() if ts}, match)
    knowledge = word_knowledge(backend, plan, frozenset(named), list(found.values()), filters,
                               weights)
    for c, by_term in [*knowledge.values(), *places.within(  # Japan: Osaka, Tokyo
            backend, plan, frozenset(named), list(found.values()), filters, weights).values()]:
        # a query word the fact holds is counted already
        told = [(v, t, term) for term, (v, t) in by_term.items()
                if not matched_terms(c, [term], forms=True)]
        if told:
            found.setdefault((c.fact.path, c.rowid), c)
            match[c.rowid] = match.get(c.rowid, 0.0) + sum(v for v, _, _ in told)
            earlier = [known[c.rowid]] if c.rowid in known else []  # a kind, then a place
            known[c.rowid] = "; ".join([*earlier, *(t for _, t, _ in told)])
            covers[c.rowid] = covers.get(c.rowid, frozenset()) | frozenset(
                w for _, _, term in told for w in term.split())
    return known, covers


def context_of(backend: RecallIndex, found: Iterable[Candidate],
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


@dataclass(frozen=True)
class Pool:
    """What a recall's searches found: the candidates (by path and rowid), each one's match
    by rowid (0..1), the fused relevance in semantic and hybrid mode, and how the facts the
    word knowledge and the second hop brought were found (for `why`)."""

    found: Found
    match: dict[int, float]
    fused: dict[int, float] | None = None
    selective: bool = False  # the names the query gives are linked to fewer facts than fetched
    known: dict[int, str] = field(default_factory=dict)
    hopped: dict[int, str] = field(default_factory=dict)
    covers: dict[int, frozenset[str]] = field(default_factory=dict)  # words known stands for


def gather(backend: RecallIndex, plan: QueryPlan, named: Sequence[str], filters: Filters,
           options: RecallOptions, *, soft: bool, window: Interval | None) -> Pool:
    """Every search recall runs, in order, and each candidate's match."""
    limit = max(MIN_CANDIDATES, 4 * options.k)
    searched = plan.search_terms(skip=set(named))
    found, selective = _searched(backend, plan, named, searched, filters, options, limit,
                                 soft=soft, window=window)
    for c in topic.framed(found.values(), plan, named).values():  # frame words alone
        found[(c.fact.path, c.rowid)] = c
    fused = None  # semantic and hybrid: BM25 and cosine fused, by rowid (recall.fusion)
    if options.semantic is not None and options.mode != LEXICAL:
        fused = options.semantic.fuse(backend, plan, found, filters, limit, options.mode,
                                      text=vector_text(plan, named), named=named,
                                      look=options.rerank is None)
    best = max((-c.bm25 for c in found.values() if c.bm25 is not None), default=0.0)
    match = {c.rowid: fused.get(c.rowid, 0.0) if fused is not None
             else lexical_part(c.bm25, best) for c in found.values()}
    if not searched or options.mode == SEMANTIC:
        folded.unfold(backend, plan, named, found, match, filters, searched, limit)
        return Pool(found, match, fused, selective)
    for c, value in expand(backend, plan, found, filters).values():  # words the best share
        found[(c.fact.path, c.rowid)] = c
        match[c.rowid] = value
    known, covers = _known(backend, plan, named, found, match, filters)
    owns, stands = owned(backend, plan, named, found, match, filters)  # "where do I live?"
    known.update(owns)
    covers.update(stands)
    hopped = _hop(backend, plan, named, found, match, filters, options) if (
        options.mode == LEXICAL) else {}
    folded.unfold(backend, plan, named, found, match, filters, searched, limit)
    return Pool(found, match, fused, selective, known, hopped, covers)


def _searched(backend: RecallIndex, plan: QueryPlan, named: Sequence[str],
              searched: Terms | None, filters: Filters, options: RecallOptions, limit: int,
              *, soft: bool, window: Interval | None) -> tuple[Found, bool]:
    """The lexical, entity and time searches' candidates, and whether the names the query
    gives are linked to fewer facts than `limit`."""
    found = Found()
    if searched and options.mode != SEMANTIC:
        for c in backend.lexical(searched, filters, limit):
            found[(c.fact.path, c.rowid)] = c
    selective = False
    if named:
        linked = backend.linked(named, filters, limit)
        selective = len(linked) < limit
        for c in linked:
            found.setdefault((c.fact.path, c.rowid), c)
    if (plan.window is not None and not soft) or (not searched and not named
                                                   and filters != Filters()):
        # a query of only punctuation or emoji ("*", "🍣") with no filter names nothing:
        # it finds nothing rather than every fact in memory
        for c in backend.recent(filters, limit):
            found.setdefault((c.fact.path, c.rowid), c)
    if soft and not found:  # nothing matched the words: answer with the time alone
        for c in backend.recent(evolve(filters, window=window), limit):
            found.setdefault((c.fact.path, c.rowid), c)
    return found, selective
