"""`PgRecallIndex`: recall's index (`RecallIndex`: FactReader and FactSearch) over a bank's
recall rows in PostgreSQL (schema 0005, kept by memfold.server.recall_rows), so recall's own
ranking code runs on a replica that holds no copy of the bank.

Every method is a query or two on one connection, inside the caller's transaction (one
REPEATABLE READ snapshot per request: every answer of a recall sees one bank version).
Rows come back as the SQLite index's do (`index.sqlite.rows.fact_of`): the same columns,
the same row order — ties by path (byte order, `COLLATE "C"`), line, then row key, which
follows file order as SQLite's does — and full-text matches scored by memfold's BM25
(memfold.server.bm25) from the bank's term statistics.  What a bank version answered — a
search, a count, a row — is kept with the version (memfold.server.pgcache) and not asked
again in it; the searches' SQL is memfold.server.pgsearch's.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING, Any

from memfold.index.base import (
    Candidate,
    EntityInfo,
    FactDays,
    Filters,
    IndexCounts,
    ReviewPage,
    ReviewQuery,
    ReviewRow,
    Succession,
    Terms,
)
from memfold.index.sqlite.rows import fact_of
from memfold.journal.fold import LifeState
from memfold.journal.log import Event
from memfold.server import bm25, pgreview
from memfold.server.pgcache import BankFacts
from memfold.server.pgreview import ANY_CONFLICT, open_items
from memfold.server.pgsearch import (
    BOUNDED,
    CHAIN,
    CHAIN_DEPTH,
    CUT_FETCH,
    FILTERED,
    LINKED_TO,
    conditions,
    holders,
    read_places,
)
from memfold.values import TEXT, ParseWarning

if TYPE_CHECKING:
    import psycopg

FACT_SELECT = (
    "f.rowid, f.fact_id, f.kind, f.content, f.path, f.line, f.end_line, f.entities, f.params,"
    " f.confidence, f.importance, f.valid_from, f.valid_until, f.day, f.explicit,"
    " files.sha256, l.state,"
    # the fact's entity links, in the order they were written
    " ARRAY(SELECT k.key FROM recall_links k WHERE k.fact = f.rowid ORDER BY k.ctid)")
FACT_FROM = (
    "recall_facts f JOIN files ON files.bank_id = f.bank_id AND files.path = f.path"
    " LEFT JOIN recall_life l ON l.bank_id = f.bank_id AND l.id = f.fact_id"
    " AND NOT f.shadowed")
PATH = 'f.path COLLATE "C"'
NEWEST = f"ORDER BY f.day IS NULL, f.day DESC, {PATH}, f.line, f.rowid"
HOLDER_FIRST = f"ORDER BY f.shadowed, {PATH}, f.line, f.rowid"



# a row's neighbours in its file, the row before and the row after (`c`: the row)
BEFORE_AFTER = (
    "(SELECT n.rowid FROM recall_facts n WHERE n.bank_id = c.bank_id AND n.path = c.path"
    " AND n.line < c.line ORDER BY n.line DESC, n.rowid DESC LIMIT 1) AS prior,"
    " (SELECT n.rowid FROM recall_facts n WHERE n.bank_id = c.bank_id AND n.path = c.path"
    " AND n.line > c.line ORDER BY n.line, n.rowid LIMIT 1) AS later")
# the neighbours of the rows asked (the bank, then the rows) and those of their neighbours
NEIGHBOURS = f"""
WITH asked AS (SELECT c.rowid, {BEFORE_AFTER} FROM recall_facts c
               WHERE c.bank_id = %s AND c.rowid = ANY(%s)),
ring AS (SELECT x FROM asked a, unnest(ARRAY[a.prior, a.later]) x WHERE x IS NOT NULL
         EXCEPT SELECT rowid FROM asked)
SELECT rowid, prior, later FROM asked
UNION ALL SELECT c.rowid, {BEFORE_AFTER} FROM recall_facts c
WHERE c.bank_id = %s AND c.rowid IN (SELECT x FROM ring)
"""  # noqa: S608


# the first and last day a bank's facts speak of (`b.bank_id`: the bank)
DAYS = ("(SELECT min(day) FROM recall_facts WHERE bank_id = b.bank_id),"
        " (SELECT min(retained_on COLLATE \"C\") FROM recall_life WHERE bank_id = b.bank_id),"
        " (SELECT max(day) FROM recall_facts WHERE bank_id = b.bank_id)")


def _life(state: Any, fact_id: str | None = None) -> LifeState | None:
    if state is None:
        return None
    return LifeState(**(state if isinstance(state, dict) else json.loads(state)))


def _filtered_order(score: float, day: int | None, path: str,
                    line: int, rowid: int) -> tuple[float, bool, int, str, int, int]:
    return (score, day is None, -(day or 0), path, line, rowid)


class PgRecallIndex:
    """Recall's index over one bank's recall rows, on a connection inside a transaction
    that set the bank's tenant (row-level security)."""

    def __init__(self, conn: psycopg.Connection[Any], bank_id: int, *,
                 stats: tuple[int, int] | None = None, facts: BankFacts | None = None) -> None:
        """`stats` (rows, terms) when the caller read them already; `facts`: what earlier
        snapshots of this bank version answered (memfold.server.pgcache) — the bank's
        warnings and days, the rows holding a term, a phrase's count, an entity key's name
        — read from it and added to it; without, kept for this snapshot alone."""
        self.conn = conn
        self.bank_id = bank_id
        self._stats = stats
        facts = facts or BankFacts(bank_id, (0, ""))
        self._facts = facts
        self._held = facts.held
        self._names = facts.names
        self._counted = facts.counted
        self._near = facts.near
        self._kept = facts.rows
        self._ids = facts.ids

    def _rows(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        return self.conn.execute(sql, [self.bank_id, *params]).fetchall()

    def _candidates(self, where: str, params: Sequence[object], tail: str = "",
                    scores: dict[int, float] | None = None) -> list[Candidate]:
        rows = self._rows(f"SELECT {FACT_SELECT} FROM {FACT_FROM} WHERE f.bank_id = %s"  # noqa: S608
                          f" {where} {tail}", params)
        found = [self._candidate(row) for row in rows]
        if not scores:
            return found
        return [replace(c, bm25=scores.get(c.rowid)) for c in found]

    def _candidate(self, row: Sequence[Any]) -> Candidate:
        """A fact row as a search finds it, kept for this bank version."""
        c = Candidate(fact=fact_of(row), bm25=None, links=tuple(row[17]),
                      sha256=row[15] or "", rowid=row[0], life=_life(row[16]))
        self._facts.keep_row(c)
        return c

    def _by_rowids(self, rowids: Sequence[int],
                   scores: dict[int, float] | None = None) -> list[Candidate]:
        """These rows' facts in this order (a row not in the bank left out), those read
        before in this bank version not read again."""
        missing = [r for r in rowids if r not in self._kept]
        if missing:
            self._candidates("AND f.rowid = ANY(%s)", [missing])
        found = [self._kept[r] for r in rowids if r in self._kept]
        return [replace(c, bm25=scores.get(c.rowid)) for c in found] if scores else found

    # -- statistics ---------------------------------------------------------------------

    def statistics(self) -> tuple[int, int]:
        """(rows, terms) of the bank's recall rows."""
        if self._stats is None:
            found = self._rows("SELECT rows, terms FROM recall_stats WHERE bank_id = %s")
            self._stats = (int(found[0][0]), int(found[0][1])) if found else (0, 0)
        return self._stats

    def _holding(self, found: Sequence[bm25.Phrase]) -> list[int]:
        """How many rows hold each phrase: a term's count from the statistics, a phrase's or
        a prefix's counted over the GIN index."""
        self._terms_held(sorted({p.terms[0] for p in found if p.single()}))
        self._phrases_held([p for p in found if not p.single()])
        return [self._held.get(p.terms[0], 0) if p.single() else self._count(p, -1)
                for p in found]

    def _phrases_held(self, phrases: Sequence[bm25.Phrase]) -> None:
        """Count the rows matching each of these phrases or prefixes not counted yet, all in
        one statement (a question's kinds can be a hundred phrases: "maine coon")."""
        wanted = list({p.tsquery(): p for p in phrases
                       if (p.tsquery(), -1) not in self._counted}.values())
        if len(wanted) < 2:
            return  # one is counted by `_count` as it always was
        near, params = holders(wanted, self.bank_id)
        sql = ("SELECT w.n, count(*) FROM (SELECT f.terms FROM recall_facts f"  # noqa: S608
               f" WHERE f.bank_id = %s{near} AND f.terms @@ %s::tsquery) f"
               " JOIN unnest(%s::tsquery[]) WITH ORDINALITY w(q, n) ON f.terms @@ w.q"
               " GROUP BY w.n")
        got = {int(n): int(count) for n, count in self._rows(sql, [
            *params, bm25.tsquery(wanted, every=False), [p.tsquery() for p in wanted]])}
        for n, phrase in enumerate(wanted, 1):
            self._counted[(phrase.tsquery(), -1)] = got.get(n, 0)

    def _terms_held(self, terms: Sequence[str]) -> None:
        """Learn how many rows hold each of these terms (0: none), each asked once per bank
        version."""
        wanted = [t for t in terms if t not in self._held]
        if wanted:
            got = dict(self._rows("SELECT term, rows FROM recall_terms WHERE bank_id = %s"
                                  " AND term = ANY(%s)", [wanted]))
            self._held.update({t: int(got.get(t, 0)) for t in wanted})

    def _count(self, phrase: bm25.Phrase, most: int) -> int:
        """How many rows match a phrase or a prefix (counted over the GIN index), at most
        `most` + 1 (-1: all), asked once per bank version."""
        key = (phrase.tsquery(), most)
        if key not in self._counted:
            near, params = holders([phrase], self.bank_id)
            rows = (f"FROM recall_facts f WHERE f.bank_id = %s{near}"  # noqa: S608
                    " AND f.terms @@ %s::tsquery")
            params = [*params, phrase.tsquery()]
            if most >= 0:  # no more rows than that read
                sql = f"SELECT count(*) FROM (SELECT 1 {rows} LIMIT %s) x"  # noqa: S608
                params.append(most + 1)
            else:
                sql = f"SELECT count(*) {rows}"
            self._counted[key] = int(self._rows(sql, params)[0][0])
        return self._counted[key]

    # -- searches -------------------------------------------------------------------------

    def _searched(self, key: tuple[Any, ...],
                  search: Callable[[], list[Candidate]]) -> list[Candidate]:
        """A search's answer, its rows and their scores kept for this bank version (a
        function of the bank's rows and the search alone) when the version has a token: a
        search asked again reads no row but those forgotten since."""
        if self._facts.token is None:
            return search()
        try:
            kept = self._facts.searches.get(key)
        except TypeError:  # a list among the arguments: asked as it comes, not kept
            return search()
        if kept is None:
            found = search()
            self._facts.keep_search(key, tuple((c.rowid, c.bm25) for c in found))
            return found
        scores = {rowid: score for rowid, score in kept if score is not None}
        return self._by_rowids([rowid for rowid, _ in kept], scores)

    def lexical(self, terms: Terms, filters: Filters, limit: int) -> list[Candidate]:
        return self._searched(("lexical", terms, filters, limit),
                              lambda: self._lexical(terms, filters, limit))

    def _lexical(self, terms: Terms, filters: Filters, limit: int) -> list[Candidate]:
        found = bm25.phrases(terms)
        if not found or limit < 1:
            return []
        rows, tokens = self.statistics()
        if not rows:
            return []
        avgdl = tokens / rows
        info: dict[int, tuple[int, int | None, str, int]] = {}
        if all(p.single() for p in found):
            scores = self._scored_terms(found, rows, avgdl, terms.every, filters, limit, info)
        else:
            scores = self._scored_phrases(found, rows, avgdl, terms.every, filters, info)
        if filters == Filters():
            def order(r: int) -> tuple[object, ...]:
                return (scores[r], info[r][2], info[r][3], r)
        else:
            def order(r: int) -> tuple[object, ...]:
                return _filtered_order(scores[r], info[r][1], info[r][2], info[r][3], r)
        return self._by_rowids(sorted(scores, key=order)[:limit], scores)

    def _scored_terms(self, found: Sequence[bm25.Phrase], rows: int, avgdl: float,
                      every: bool, filters: Filters, limit: int,
                      info: dict[int, tuple[int, int | None, str, int]]) -> dict[int, float]:
        """A search of single terms (`BOUNDED`): each match that can rank among the best
        `limit` (its place in `info`) with its bm25, from its terms' hits in the postings."""
        sql, params = self._bounded(found, rows, avgdl, every, filters, limit)
        matched: dict[int, dict[str, float]] = {}
        held: dict[str, int] = {}  # a term's rows (a term no row kept holds weighs 0)
        for rowid, length, day, path, line, lexemes, hits, counts in self.conn.execute(
                sql, params):
            info[rowid] = (length, day, path, line)
            matched[rowid] = dict(zip(lexemes, hits, strict=True))
            held.update(zip(lexemes, map(int, counts), strict=True))
        self._held.update(held)
        idfs = [bm25.idf(rows, held.get(p.terms[0], 0)) for p in found]
        return {rowid: bm25.score_of([(idf, matched[rowid].get(p.terms[0], 0))
                                      for p, idf in zip(found, idfs, strict=True)],
                                     info[rowid][0], avgdl) for rowid in matched}

    def _scored_phrases(self, found: Sequence[bm25.Phrase], rows: int, avgdl: float,
                        every: bool, filters: Filters,
                        info: dict[int, tuple[int, int | None, str, int]]) -> dict[int, float]:
        """A search with a phrase or a prefix: every match (its place in `info`) with its
        bm25, from its terms' places in the row's tsvector."""
        sql, params = self._places(found, every, filters)
        places: dict[int, dict[str, list[tuple[int, int]]]] = {}
        for rowid, length, day, path, line, lexeme, positions, weights in self.conn.execute(
                sql, params):
            info[rowid] = (length, day, path, line)
            places.setdefault(rowid, {})[lexeme] = read_places(positions, weights)
        idfs = [bm25.idf(rows, n) for n in self._holding(found)]
        return {rowid: bm25.score(found, idfs, places[rowid], info[rowid][0], avgdl)
                for rowid in places}

    def _bounded(self, found: Sequence[bm25.Phrase], rows: int, avgdl: float, every: bool,
                 filters: Filters, limit: int) -> tuple[str, list[object]]:
        """`BOUNDED` for a search of single terms: the hits of the matches that can rank
        among the best `limit`, read from the bank's postings."""
        where, params = conditions(filters, self.bank_id)
        join = f"{FILTERED} {where}" if where else ""
        having = "HAVING count(*) = (SELECT count(*) FROM q)" if every else ""
        return BOUNDED.format(join=join, having=having), [
            self.bank_id, rows, avgdl, [p.terms[0] for p in found], *params,
            CUT_FETCH * limit]

    def _places(self, found: Sequence[bm25.Phrase], every: bool,
                filters: Filters) -> tuple[str, list[object]]:
        """The query that hands back, for every match of a search with a phrase or a
        prefix, the places of the search's terms."""
        where, params = conditions(filters, self.bank_id)
        near, near_params = holders(found, self.bank_id)
        match = [self.bank_id, *near_params, bm25.tsquery(found, every=every), *params]
        exact = sorted({t for p in found for t in (p.terms if not p.prefix else p.terms[:-1])})
        starts = sorted({p.terms[-1] for p in found if p.prefix})
        sql = ("SELECT f.rowid, f.length, f.day, f.path, f.line, u.lexeme, u.positions,"  # noqa: S608
               f" u.weights FROM recall_facts f, unnest(f.terms) u WHERE f.bank_id = %s{near}"
               f" AND f.terms @@ %s::tsquery {where} AND ")
        if not starts:  # no prefix: the terms asked alone
            return sql + "u.lexeme = ANY(%s)", [*match, exact]
        return (sql + "(u.lexeme = ANY(%s) OR EXISTS (SELECT 1 FROM unnest(%s::text[]) s"  # noqa: S608
                " WHERE starts_with(u.lexeme, s)))", [*match, exact, starts])

    def word_counts(self, words: Sequence[str], most: int) -> dict[str, int]:
        read = {word: bm25.phrases(Terms(words=(word,))) for word in dict.fromkeys(words)}
        self._terms_held(sorted({found[0].terms[0] for found in read.values()
                                 if found and found[0].single()}))
        counts: dict[str, int] = {}
        for word, found in read.items():
            if not found:
                counts[word] = 0
            elif found[0].single():
                counts[word] = min(self._held.get(found[0].terms[0], 0), most + 1)
            else:
                counts[word] = self._count(found[0], most)
        return {w: counts[w] for w in words}

    def matching_rowids(self, terms: Terms, limit: int) -> list[int]:
        found = bm25.phrases(terms)
        if not found:
            return []
        return [r[0] for r in self._rows(
            "SELECT rowid FROM recall_facts WHERE bank_id = %s AND terms @@ %s::tsquery"
            " ORDER BY rowid LIMIT %s", [bm25.tsquery(found, every=terms.every), limit])]

    def fact_rows(self) -> int:
        return self.statistics()[0]

    def linked(self, keys: Sequence[str], filters: Filters, limit: int) -> list[Candidate]:
        """Facts linked to any of these entities, newest first (`sqlite.search.linked`,
        whose unfiltered answer is the `limit` newest links when no day straddles the cut)."""
        if not keys:
            return []
        return self._searched(("linked", tuple(keys), filters, limit),
                              lambda: self._linked(keys, filters, limit))

    def _linked(self, keys: Sequence[str], filters: Filters, limit: int) -> list[Candidate]:
        if filters == Filters():
            rows = self._rows("SELECT fact, day FROM recall_links WHERE bank_id = %s AND key"
                              " = ANY(%s) ORDER BY day DESC NULLS LAST LIMIT %s",
                              [list(keys), limit + 1])
            if len(rows) <= limit or rows[limit - 1][1] != rows[limit][1]:
                return self._candidates("AND f.rowid = ANY(%s)",
                                        [[r[0] for r in rows[:limit]]], NEWEST)
        where, params = conditions(filters, self.bank_id)
        return self._limited(f"AND {LINKED_TO} {where}",
                             [self.bank_id, list(keys), *params], limit)

    def _limited(self, where: str, params: list[object], limit: int) -> list[Candidate]:
        return self._candidates(where, [*params, limit], f"{NEWEST} LIMIT %s")

    def recent(self, filters: Filters, limit: int) -> list[Candidate]:
        where, params = conditions(filters, self.bank_id)
        return self._searched(("recent", filters, limit),
                              lambda: self._limited(where, params, limit))

    # -- facts by key ---------------------------------------------------------------------

    def by_id(self, fact_id: str) -> list[Candidate]:
        if "\x00" in fact_id:
            return []
        return self._candidates("AND f.fact_id = %s", [fact_id], HOLDER_FIRST)

    def by_ids(self, ids: Sequence[str]) -> list[Candidate]:
        """Each id's fact (its holder's row first), in the statement's order; an id asked
        before in this bank version not asked again."""
        wanted = [i for i in dict.fromkeys(ids) if "\x00" not in i]
        missing = [i for i in wanted if i not in self._ids]
        if missing:
            rows = self._rows(f"SELECT {FACT_SELECT}, f.shadowed FROM {FACT_FROM} WHERE"  # noqa: S608
                              f" f.bank_id = %s AND f.fact_id = ANY(%s) {HOLDER_FIRST}",
                              [missing])
            for row in rows:
                c = self._candidate(row)
                if c.fact.id not in self._ids or self._ids[c.fact.id] is None:
                    self._ids[c.fact.id] = ((bool(row[-1]), c.fact.path, c.fact.line,
                                             c.rowid), c)
            for i in missing:
                self._ids.setdefault(i, None)
        found = [e for i in wanted if (e := self._ids.get(i)) is not None]
        return [c for _, c in sorted(found, key=lambda e: e[0])]

    def successions(self, ids: Sequence[str]) -> tuple[dict[str, Succession], set[str]]:
        """`ChainReader.successions` (what `recall.currency` walks to a replaced fact's
        current one): the ids the chains of replacements from `ids` reach, CHAIN_DEPTH
        links in one statement (kept per bank version), then the row holding each as
        `by_ids` reads it — not a statement a link; and every id looked for."""
        wanted = tuple(sorted({i for i in ids if "\x00" not in i}))
        reached = self._facts.chains.get(wanted) if self._facts.token else None
        if reached is None:
            reached = frozenset(str(row[0]) for row in self.conn.execute(
                CHAIN, [list(wanted), self.bank_id, self.bank_id, CHAIN_DEPTH])
            ) if wanted else frozenset()
            if self._facts.token:
                self._facts.chains[wanted] = reached
        return ({c.fact.id: (c.fact.day, c.life.superseded_by if c.life else None)
                 for c in self.by_ids(sorted(reached))}, set(reached) | set(ids))

    def by_rowids(self, rowids: Sequence[int], filters: Filters) -> list[Candidate]:
        """These rows' facts that pass `filters`, by row key (as SQLite answers); without
        filters (the vector search's usual ask) those read before in this bank version are
        not read again."""
        if filters == Filters():
            return sorted(self._by_rowids(list(dict.fromkeys(rowids))), key=lambda c: c.rowid)
        where, params = conditions(filters, self.bank_id)
        return self._candidates(f"AND f.rowid = ANY(%s) {where}", [list(rowids), *params],
                               "ORDER BY f.rowid")

    def neighbours(self, rowids: Sequence[int]) -> dict[int, tuple[int, ...]]:
        """Each row's neighbours in its file; read with theirs (the rows two away, which
        recall asks next), each once per bank version."""
        wanted = [r for r in dict.fromkeys(rowids) if r not in self._near]
        if wanted:
            for rowid, before, after in self._rows(NEIGHBOURS, [wanted, self.bank_id]):
                self._near[rowid] = tuple(n for n in (before, after) if n is not None)
        return {r: self._near[r] for r in rowids if r in self._near}

    def life(self, ids: Iterable[str]) -> dict[str, LifeState]:
        states: dict[str, LifeState] = {}
        for fact_id, state in self._rows("SELECT id, state FROM recall_life WHERE bank_id ="
                                         " %s AND id = ANY(%s)", [list(ids)]):
            found = _life(state)
            if found is not None:
                states[fact_id] = found
        return states

    def locate(self, fact_id: str) -> list[str]:
        return [f"{c.fact.path}#L{c.fact.line}" for c in self.by_id(fact_id)]

    # -- entities -------------------------------------------------------------------------

    def resolve_names(self, keys: Sequence[str]) -> dict[str, str]:
        wanted = [k for k in dict.fromkeys(keys) if k not in self._names]
        if wanted:
            self._names.update(dict.fromkeys(wanted))
            self._names.update(self._resolve(wanted))
        return {k: name for k in dict.fromkeys(keys) if (name := self._names[k]) is not None}

    def _resolve(self, wanted: list[str]) -> dict[str, str]:
        found: dict[str, str] = {}
        for key, entity in self._rows(
                "SELECT key, entity FROM (SELECT a.key, a.entity, 0 AS o, a.path, a.place"
                " FROM recall_aliases a WHERE a.bank_id = %s AND a.key = ANY(%s)"
                " UNION ALL SELECT k, k, 1, '', 0 FROM unnest(%s::text[]) k WHERE EXISTS"
                " (SELECT 1 FROM recall_links l WHERE l.bank_id = %s AND l.key = k)) x"
                " ORDER BY o, path COLLATE \"C\", place", [wanted, wanted, self.bank_id]):
            found.setdefault(key, entity)
        return found

    def alias_keys(self, entities: Sequence[str]) -> list[str]:
        return [r[0] for r in self._rows(
            "SELECT DISTINCT key COLLATE \"C\" FROM recall_aliases WHERE bank_id = %s"
            " AND entity = ANY(%s) AND key <> entity ORDER BY 1",
            [list(dict.fromkeys(entities))])]

    def entity(self, key: str) -> EntityInfo | None:
        named = self._rows(
            "SELECT min(name COLLATE \"C\") FROM (SELECT name FROM recall_links WHERE bank_id"
            " = %s AND key = %s UNION ALL SELECT name FROM recall_aliases WHERE bank_id = %s"
            " AND entity = %s AND key = entity) x", [key, self.bank_id, key])
        if not named or named[0][0] is None:
            return None
        pages = self._rows("SELECT path, name FROM recall_aliases WHERE bank_id = %s AND"
                           " entity = %s ORDER BY path COLLATE \"C\", place", [key])
        page = pages[0][0] if pages else None
        names = tuple(dict.fromkeys(name for path, name in pages if path == page))
        return EntityInfo(key=key, name=names[0] if names else named[0][0], page=page,
                          aliases=names[1:])

    # -- what the bank holds ----------------------------------------------------------------

    def fact_days(self) -> FactDays:
        first, retained, last = self._head()[1:4]
        days = [date.fromordinal(first)] if isinstance(first, int) else []
        if isinstance(retained, str):
            with contextlib.suppress(ValueError):
                days.append(date.fromisoformat(retained))
        return FactDays(min(days) if days else None,
                        date.fromordinal(last) if isinstance(last, int) else None)

    def counts(self) -> IndexCounts:
        by_kind = dict(self._rows("SELECT kind, count(*) FROM recall_facts WHERE bank_id = %s"
                                  " AND kind <> %s GROUP BY kind ORDER BY kind", [TEXT]))
        files, entities, chunks = self._rows(
            "SELECT (SELECT count(*) FROM files WHERE bank_id = %s AND content IS NOT NULL),"
            " (SELECT count(*) FROM (SELECT key FROM recall_links WHERE bank_id = %s UNION"
            " SELECT entity FROM recall_aliases WHERE bank_id = %s AND key = entity) e),"
            " (SELECT count(*) FROM recall_facts WHERE bank_id = %s AND kind = %s)",
            [self.bank_id, self.bank_id, self.bank_id, TEXT])[0]
        return IndexCounts(files=int(files), facts_by_kind={str(k): int(v) for k, v
                                                            in by_kind.items()},
                           entities=int(entities), chunks=int(chunks),
                           warnings=self.warning_count())

    def warning_count(self) -> int:
        return int(self._head()[0] or 0)

    def _head(self) -> tuple[Any, ...]:
        """The bank's warning count and days (`DAYS`), and whether it holds a conflict the
        judge journaled, read once per bank version."""
        if self._facts.head is None:
            self._facts.head = tuple(self._rows(
                "SELECT (SELECT coalesce(sum(warnings), 0) FROM recall_files WHERE"  # noqa: S608
                f" bank_id = %s), {DAYS.replace('b.bank_id', '%s')}, {ANY_CONFLICT}",
                [self.bank_id] * 4)[0])
        return self._facts.head

    # -- the review queue -------------------------------------------------------------------

    def open_reviews(self, olds: Sequence[str], limit: int) -> dict[str, tuple[ReviewRow, ...]]:
        """The open review items about each of these older facts, newest first, at most
        `limit` each (memfold.server.pgreview): none read when the bank holds no conflict,
        all the facts not asked before in this bank version in one statement."""
        kept = self._facts.reviews
        wanted = [i for i in dict.fromkeys(olds) if (i, limit) not in kept]
        if wanted and self._head()[4]:
            kept.update({(i, limit): rows for i, rows in open_items(
                self.conn, self.bank_id, wanted, limit).items()})
        return {i: kept.get((i, limit), ()) for i in olds}

    def review_rows(self, query: ReviewQuery) -> ReviewPage:
        """The review items a query names, as the local index's review table answers it
        (memfold.server.pgreview: what review accept and reject read)."""
        return pgreview.review_rows(self.conn, self.bank_id, query)

    def events_at(self, seqs: Sequence[int]) -> list[Event]:
        return pgreview.events_at(self.conn, self.bank_id, seqs)

    def warnings(self) -> list[ParseWarning]:
        return []  # the messages stay in the files; `status` reads them from a copy

    def fact_texts(self) -> list[tuple[int, str]]:
        return [(int(r), str(c)) for r, c in self._rows(
            "SELECT rowid, content FROM recall_facts WHERE bank_id = %s ORDER BY rowid")]

    def facts_version(self) -> str | None:
        """This bank version's token (pgcache.BankFacts.token): what `recall.versioned`
        keeps recall's own readings by, none of them read again until a write; None
        without one (a write's rows)."""
        return self._facts.token

    def facts_signature(self) -> str:
        rows, tokens = self.statistics()
        head = self._rows("SELECT head FROM banks WHERE bank_id = %s")
        return f"pg:{self.bank_id}:{head[0][0] if head else 0}:{rows}:{tokens}"

    def dump(self) -> list[tuple[object, ...]]:
        return [("fact", *row) for row in self._rows(
            "SELECT f.fact_id, f.path, f.line, f.end_line, f.kind, f.content, f.entities,"
            " f.params, f.confidence, f.importance, f.valid_from, f.valid_until, f.day,"
            " f.explicit FROM recall_facts f WHERE f.bank_id = %s ORDER BY f.path COLLATE"
            " \"C\", f.line, f.fact_id")]
