"""Bullets folded into their captured turns: recall reaches them through the turn.

A bullet `memfold capture` extracts from a turn cites it (`(turn at line 5)`,
`workspace.format.cited_turn`) and repeats its words.  As a full-text row of its own it made
those words count for less in every search's statistics and took candidate places the turns
needed (LoCoMo dev, evidence R@10 on a captured workspace, docs/capture.md), so the SQLite
index gives it none (`index.sqlite.writes.folded`).  `unfold` brings it back: each
turn a search found brings the bullets that cite it, each matching as well as its turn does
for the share of the query words the turn holds that the bullet holds too (a bullet that
holds none of them is not brought).  Ranking then weighs turn and bullets as before, and
`search` shows the best of them as one result.  When the filters leave turns out (`kinds`
without text), the turns are searched for anyway, only to bring their bullets.

A backend whose full-text index still holds such bullets (no `cited_by`) is left as it is.
"""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from dataclasses import replace as evolve
from typing import Protocol, runtime_checkable

from memfold.index.base import Candidate, Filters, Terms
from memfold.names import entity_key
from memfold.recall.fusion import lexical_part
from memfold.recall.hits import matched_terms
from memfold.recall.query import QueryPlan
from memfold.values import TEXT
from memfold.workspace.format import cited_turn, is_turn


@runtime_checkable
class FoldedSearch(Protocol):
    """A backend that folds bullets into their turns, and finds them by the turns."""

    def cited_by(self, turns: Sequence[tuple[str, int]], filters: Filters) -> list[Candidate]:
        ...

    def lexical(self, terms: Terms, filters: Filters, limit: int) -> list[Candidate]:
        ...


def unfold(backend: object, plan: QueryPlan, named: Sequence[str],
           found: MutableMapping[tuple[str, int], Candidate], match: dict[int, float],
           filters: Filters, searched: Terms | None, limit: int) -> None:
    """Add to `found` and `match` the bullets folded into the turns found (or, when the
    filters leave turns out, into the turns that match `searched`)."""
    if not isinstance(backend, FoldedSearch):
        return
    turns = {(c.fact.path, c.fact.line): (c, match.get(c.rowid, 0.0))
             for c in found.values() if is_turn(c.fact)}
    if filters.kinds and TEXT not in filters.kinds and searched is not None:
        turns.update(_turns_matching(backend, searched, filters, limit))
    turns = {place: (c, value) for place, (c, value) in turns.items() if value > 0}
    if not turns:
        return
    terms = [t for t in plan.terms if entity_key(t) not in named]
    for bullet in backend.cited_by(sorted(turns), filters):
        key = (bullet.fact.path, bullet.rowid)
        if key in found:
            continue
        from_turn = bullet.fact.path, _cited(bullet)
        turn, value = turns[from_turn]
        share = _share(bullet, turn, terms)
        if share > 0:
            found[key] = bullet
            match[bullet.rowid] = value * share


def _turns_matching(backend: FoldedSearch, searched: Terms, filters: Filters,
                    limit: int) -> dict[tuple[str, int], tuple[Candidate, float]]:
    """The turns that match the words, whatever kinds the filters ask for, each with its
    match among them."""
    hits = [c for c in backend.lexical(searched, evolve(filters, kinds=(TEXT,)), limit)
            if is_turn(c.fact)]
    best = max((-c.bm25 for c in hits if c.bm25 is not None), default=0.0)
    return {(c.fact.path, c.fact.line): (c, lexical_part(c.bm25, best)) for c in hits}


def _cited(bullet: Candidate) -> int:
    return cited_turn(bullet.fact.content) or 0


def _share(bullet: Candidate, turn: Candidate, terms: Sequence[str]) -> float:
    """How much of what the turn matched the bullet says: the share of the query words the
    turn holds that the bullet holds too (1 when the turn holds none: it matched as a
    whole, by a phrase or a name)."""
    held = {t.split(" (")[0] for t in matched_terms(turn, terms, forms=True)}
    if not held:
        return 1.0
    said = {t.split(" (")[0] for t in matched_terms(bullet, terms, forms=True)}
    return len(said & held) / len(held)
