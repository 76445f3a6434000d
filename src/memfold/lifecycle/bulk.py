"""Candidates for judging a workspace's existing facts at once (`Ledger.judge_existing`).

A first index of notes that already exist judges every fact in the order written, against
the facts written by then: thousands of candidate searches (by entity links, by words, by
names in the text), each a few SQL statements and rows made into values again.  The files do
not change while they are judged, only the facts' lifecycle does, so `BulkCandidates` reads
the state facts once, keeps them in memory (newest first, and per entity key), and answers
the judge's searches from there:

- `linked`: the facts linked to some entity keys that pass the filters, newest first — each
  key's facts kept newest first, so a search walks from the window's last day;
- `lexical`: the full-text index scores every match of a search once (`match_scores`; the
  scores cannot change while no file does, and one entity's name is searched for again with
  each fact about it), the filters and the order applied here;
- `resolve_names`, `alias_keys`: the entities' names, asked once each.

Each answer is the backend's, row for row and in its order — the filters mean what the SQL
conditions mean (`index.sqlite.rows.conditions`, NULLs included) and ties are broken as the
SQL breaks them (newest day first, undated last, then path and line) — so the decisions
are the ones a search per fact would give.  A search the judge does not make here (other
filters) goes to the backend.  The lifecycle state each candidate carries (what
`_standing_older` reads) follows the journal: `refresh` re-reads the state of the facts the
events folded since the last look name.
"""

from __future__ import annotations

import bisect
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Protocol

from memfold.index.base import Candidate, Filters, IndexBackend, Terms
from memfold.journal.fold import STATE_KINDS, LifeState

# matches of the full-text searches whose scores are kept, the most recent searches (a name
# is searched for again with each fact about it; a fact's own words rarely are)
SCORED_KEPT = 100_000


class CandidateSource(Protocol):
    """The searches the judge runs to find the older facts it weighs a new one against:
    an index backend, or `BulkCandidates` over one."""

    def linked(self, keys: Sequence[str], filters: Filters, limit: int) -> list[Candidate]:
        ...

    def lexical(self, terms: Terms, filters: Filters, limit: int) -> list[Candidate]: ...

    def resolve_names(self, keys: Sequence[str]) -> dict[str, str]: ...

    def alias_keys(self, entities: Sequence[str]) -> list[str]: ...


@dataclass(slots=True)
class _Row:
    """A state fact as the filters and the order read it (days as ordinals)."""

    rank: int  # its place newest first: (undated last, day descending, path, line)
    candidate: Candidate
    kind: str
    day: int | None
    valid_from: int | None
    valid_until: int | None


def _ordinal(day: date | None) -> int | None:
    return day.toordinal() if day is not None else None


class BulkCandidates:
    """The judge's searches over one index whose files do not change meanwhile."""

    def __init__(self, backend: IndexBackend) -> None:
        self.backend = backend
        self._position = backend.journal_position()
        found = backend.recent(Filters(kinds=tuple(sorted(STATE_KINDS))), backend.fact_rows())
        self._rows: dict[int, _Row] = {}
        self._by_key: dict[str, list[_Row]] = {}
        self._holders: dict[str, list[int]] = {}  # fact id -> its rows' keys
        self._life: dict[int, LifeState | None] = {}
        for rank, c in enumerate(found):
            valid = c.fact.valid
            row = _Row(rank, c, c.fact.kind, _ordinal(c.fact.day),
                       _ordinal(valid.start) if valid else None,
                       _ordinal(valid.end) if valid else None)
            self._rows[c.rowid] = row
            self._life[c.rowid] = c.life
            self._holders.setdefault(c.fact.id, []).append(c.rowid)
            for key in dict.fromkeys(c.links):
                self._by_key.setdefault(key, []).append(row)
        # each key's rows newest first (as `found`), and where each dated row's day falls
        self._days = {key: [-r.day if r.day is not None else float("inf") for r in rows]
                      for key, rows in self._by_key.items()}
        self._ranged = {key: [r for r in rows if r.valid_until is not None]
                        for key, rows in self._by_key.items()}
        self._scores: OrderedDict[Terms, list[tuple[float, _Row]]] = OrderedDict()
        self._kept = 0  # matches kept in `_scores`
        self._names: dict[str, str | None] = {}
        self._aliases: dict[str, list[str]] = {}

    # -- lifecycle state ----------------------------------------------------------------

    def refresh(self) -> None:
        """Re-read the lifecycle state of the facts the journal events folded since the
        last look name (every fact's, when the index's journal was replaced)."""
        position = self.backend.journal_position()
        before, self._position = self._position, position
        if position == before:
            return
        if position.offset < before.offset or position.last_seq < before.last_seq:
            ids = list(self._holders)
        else:
            events = self.backend.events_at(range(before.last_seq + 1, position.last_seq + 1))
            ids = list(dict.fromkeys(i for e in events for i in _named_ids(e.id, e.data)
                                     if i in self._holders))
        self._read_life(ids)

    def _read_life(self, ids: Sequence[str]) -> None:
        """The state each of these facts' rows carries now, as a search gives it."""
        for c in self.backend.by_ids(ids):
            if c.rowid in self._life:
                self._life[c.rowid] = c.life
        for fact_id in ids:  # a duplicated block id: only the row holding it has its state
            if len(self._holders[fact_id]) > 1:
                for c in self.backend.by_id(fact_id):
                    if c.rowid in self._life:
                        self._life[c.rowid] = c.life

    def _candidate(self, row: _Row, score: float | None = None) -> Candidate:
        """The row as the backend would give it now: with its state, and its score."""
        c = row.candidate
        life = self._life[c.rowid]
        if score is None and life is c.life:
            return c
        made = Candidate(fact=c.fact, bm25=score, links=c.links, sha256=c.sha256,
                         rowid=c.rowid, life=life)
        if score is None:
            row.candidate = made  # (kept for the next search that finds it)
        return made

    # -- the searches -------------------------------------------------------------------

    def linked(self, keys: Sequence[str], filters: Filters, limit: int) -> list[Candidate]:
        """`IndexBackend.linked` for state facts in a window ending on a day (or none)."""
        if not _served(filters):
            return self.backend.linked(keys, filters, limit)
        passes = _filter(filters)
        end = _end(filters)
        chosen: dict[int, _Row] = {}
        for key in dict.fromkeys(keys):
            rows = self._by_key.get(key)
            if rows is None:
                continue
            start = 0 if end is None else bisect.bisect_left(self._days[key], -end)
            taken = 0
            for row in rows[start:]:
                if taken == limit:
                    break
                if passes(row):
                    chosen[row.rank] = row
                    taken += 1
            if end is not None:  # facts of later days (or undated) valid during the window
                chosen.update((r.rank, r) for r in self._ranged[key] if passes(r))
        return [self._candidate(chosen[rank]) for rank in sorted(chosen)[:max(limit, 0)]]

    def lexical(self, terms: Terms, filters: Filters, limit: int) -> list[Candidate]:
        """`IndexBackend.lexical` for state facts in a window ending on a day (or none):
        best score first, then newest day first, undated last, path and line."""
        if not _served(filters):
            return self.backend.lexical(terms, filters, limit)
        passes = _filter(filters)
        found: list[Candidate] = []
        for score, row in self._ranked(terms):
            if len(found) >= limit:
                break
            if passes(row):
                found.append(self._candidate(row, score))
        return found

    def _ranked(self, terms: Terms) -> list[tuple[float, _Row]]:
        """The state facts matching `terms`, best score first, then newest first."""
        ranked = self._scores.get(terms)
        if ranked is None:
            rows = self._rows
            ranked = sorted(((score, rows[rowid]) for rowid, score
                             in self.backend.match_scores(terms).items() if rowid in rows),
                            key=_by_score)
            self._scores[terms] = ranked
            self._kept += len(ranked)
            while self._kept > SCORED_KEPT and len(self._scores) > 1:
                self._kept -= len(self._scores.popitem(last=False)[1])
        else:
            self._scores.move_to_end(terms)
        return ranked

    def resolve_names(self, keys: Sequence[str]) -> dict[str, str]:
        missing = [k for k in dict.fromkeys(keys) if k not in self._names]
        if missing:
            found = self.backend.resolve_names(missing)
            self._names.update((k, found.get(k)) for k in missing)
        return {k: e for k in dict.fromkeys(keys) if (e := self._names[k]) is not None}

    def alias_keys(self, entities: Sequence[str]) -> list[str]:
        every: set[str] = set()
        for entity in dict.fromkeys(entities):
            if entity not in self._aliases:
                self._aliases[entity] = self.backend.alias_keys([entity])
            every.update(self._aliases[entity])
        return sorted(every)


def _by_score(match: tuple[float, _Row]) -> tuple[float, int]:
    return match[0], match[1].rank


def _named_ids(fact_id: str | None, data: object) -> list[str]:
    """The facts a journal event names: its own and those it points at."""
    ids = [fact_id] if fact_id else []
    if isinstance(data, dict):
        for key in ("by", "id", "ids", "into", "supersedes", "merged"):
            value = data.get(key)
            if isinstance(value, str):
                ids.append(value)
            elif isinstance(value, list):
                ids += [v for v in value if isinstance(v, str)]
    return ids


def _served(filters: Filters) -> bool:
    """The filters the judge searches with: state kinds, by a day (`ledger._state_filters`)."""
    return bool(filters.kinds) and set(filters.kinds) <= STATE_KINDS \
        and not filters.entity_keys and filters.written_by is None \
        and (filters.window is None or filters.window.start is None)


def _end(filters: Filters) -> int | None:
    window = filters.window
    return window.end.toordinal() if window is not None and window.end is not None else None


def _filter(filters: Filters) -> Callable[[_Row], bool]:
    """The filters as a test of one row, as the SQL conditions read them: of the kinds, and
    written by the window's end or valid during the window (a NULL day or range passes
    neither way)."""
    kinds = frozenset(filters.kinds)
    if filters.window is None:
        return lambda row: row.kind in kinds
    end = _end(filters)
    last = end if end is not None else date.max.toordinal()

    def passes(row: _Row) -> bool:
        if row.kind not in kinds:
            return False
        if row.day is not None and row.day <= last:
            return True
        since = row.valid_from if row.valid_from is not None else row.day
        return row.valid_until is not None and since is not None and since <= last
    return passes
