"""Reading the SQLite index: counts and warnings, entities, the searches recall runs (BM25 over
FTS5, entity links, newest in a window), facts by id or row key, and what the vectors are made
from (`fact_texts`, `facts_signature`).

Functions of an open connection; `SqliteIndex` calls them and turns the driver's errors into
memfold errors.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import date

from memfold.errors import IndexDamaged, IndexError_
from memfold.index.base import (
    Candidate,
    EntityInfo,
    FactDays,
    Filters,
    IndexCounts,
    Succession,
)
from memfold.index.sqlite.rows import (
    FACT_FROM,
    FACT_SELECT,
    HOLDER_FIRST,
    LIFE_FIELDS,
    LIFE_JOIN,
    NEWEST,
    SCORE_COLUMN,
    chunks,
    conditions,
    day_of,
    encodable,
    fact_of,
    life_of,
    marks,
)
from memfold.index.sqlite.schema import damaged
from memfold.values import TEXT, ParseWarning
from memfold.workspace.format import cited_turn

# a bullet folded into its captured turn (`writes.folded`) is no one's neighbour:
# the turns around a conversation's Retain section neighbour each other, as without it
UNFOLDED = "NOT (n.kind != 'text' AND n.content LIKE '%(turn at line %)')"
NEIGHBOURS = ("SELECT c.rowid,"  # noqa: S608 (constants only)
              " (SELECT n.rowid FROM facts n WHERE n.file = c.file AND n.line < c.line"
              f"  AND {UNFOLDED} ORDER BY n.line DESC LIMIT 1),"
              " (SELECT n.rowid FROM facts n WHERE n.file = c.file AND n.line > c.line"
              f"  AND {UNFOLDED} ORDER BY n.line LIMIT 1) FROM facts c")
DUMP = (
    "SELECT 'file', path, role, day, size, sha256 FROM files ORDER BY path",
    "SELECT 'fact', f.id, files.path, f.line, f.end_line, f.kind, f.content, f.entities,"
    " f.params, f.confidence, f.importance, f.valid_from, f.valid_until, f.day, f.explicit"
    " FROM facts f JOIN files ON files.id = f.file ORDER BY 3, 4, 2",
    "SELECT 'link', files.path, f.line, f.id, l.key, l.name FROM fact_entities l"
    " JOIN facts f ON f.rowid = l.fact JOIN files ON files.id = f.file ORDER BY 2, 3, 4, 5",
    # the full-text index keeps no text (contentless): its terms, each at its place, stand
    # for it; a term left behind by a fact since removed shows with no path
    "SELECT 'fts', files.path, f.line, f.id, t.col, t.offset, t.term FROM temp.facts_terms t"
    " LEFT JOIN facts f ON f.rowid = t.doc LEFT JOIN files ON files.id = f.file"
    " ORDER BY 2, 3, 4, 5, 6, 7",
    # and the totals bm25 weighs by (rows, tokens per column: FTS5's record 1)
    "SELECT 'fts-totals', hex(block) FROM facts_fts_data WHERE id = 1",
    "SELECT 'alias', path, entity, key, name FROM aliases ORDER BY 2, 3, 4, 5",
    "SELECT 'warning', path, line, message FROM warnings ORDER BY 2, 3, 4",
    "SELECT 'duplicate', id FROM duplicate_ids ORDER BY 2",
    f"SELECT 'life', {', '.join(LIFE_FIELDS)} FROM lifecycle ORDER BY id",  # noqa: S608
    "SELECT 'event', seq, ts, event, id, data FROM events ORDER BY seq",
    "SELECT 'cite', path, line, source, source_line, sha FROM citations ORDER BY 2, 3",
)


# -- counts and warnings -------------------------------------------------------------------

def meta(db: sqlite3.Connection, key: str) -> str | None:
    row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def counts(db: sqlite3.Connection) -> IndexCounts:
    by_kind = dict(db.execute("SELECT kind, COUNT(*) FROM facts WHERE kind != ? "
                              "GROUP BY kind ORDER BY kind", (TEXT,)).fetchall())
    return IndexCounts(
        files=db.execute("SELECT COUNT(*) FROM files").fetchone()[0],
        facts_by_kind=by_kind,
        entities=db.execute("SELECT COUNT(*) FROM entities").fetchone()[0],
        chunks=db.execute("SELECT COUNT(*) FROM facts WHERE kind = ?", (TEXT,)).fetchone()[0],
        warnings=warning_count(db),
    )


def warning_count(db: sqlite3.Connection) -> int:
    return int(db.execute("SELECT COUNT(*) FROM warnings").fetchone()[0])


def fact_days(db: sqlite3.Connection) -> FactDays:
    # one subquery each: a step down an index; min and max in one select would scan
    first, retained, last = db.execute(
        "SELECT (SELECT min(day) FROM facts), (SELECT min(retained_on) FROM lifecycle),"
        " (SELECT max(day) FROM facts)").fetchone()
    days = [date.fromordinal(first)] if isinstance(first, int) else []
    if isinstance(retained, str) and (day := _iso_day(retained)) is not None:
        days.append(day)
    return FactDays(min(days) if days else None,
                    date.fromordinal(last) if isinstance(last, int) else None)


def _iso_day(text: str) -> date | None:
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def warnings(db: sqlite3.Connection) -> list[ParseWarning]:
    rows = db.execute("SELECT path, line, message FROM warnings ORDER BY path, line")
    return [ParseWarning(*row) for row in rows]


def locate(db: sqlite3.Connection, fact_id: str) -> list[str]:
    """Citations (`path#Lline`) of every row with this id, its holder first."""
    rows = db.execute("SELECT files.path, f.line FROM facts f JOIN files ON files.id = f.file"  # noqa: S608
                      f" WHERE f.id = ? ORDER BY {HOLDER_FIRST}, 1, 2", (fact_id,))
    return [f"{path}#L{line}" for path, line in rows]


def dump(db: sqlite3.Connection) -> list[tuple[object, ...]]:
    db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.facts_terms"
               " USING fts5vocab(main, facts_fts, instance)")
    rows: list[tuple[object, ...]] = []
    for sql in DUMP:
        rows.extend(db.execute(sql).fetchall())
    return rows


# -- entities ------------------------------------------------------------------------------

def resolve_names(db: sqlite3.Connection, keys: Sequence[str]) -> dict[str, str]:
    wanted = json.dumps(list(dict.fromkeys(keys)))
    found: dict[str, str] = {}
    for key, entity in db.execute(
        "SELECT a.key, a.entity FROM aliases a WHERE a.key IN (SELECT value FROM json_each(?))"
        " UNION ALL SELECT k.value, k.value FROM json_each(?) k"
        " WHERE EXISTS (SELECT 1 FROM fact_entities WHERE key = k.value)",
        (wanted, wanted),
    ):
        found.setdefault(key, entity)
    return found


def alias_keys(db: sqlite3.Connection, entities: Sequence[str]) -> list[str]:
    rows = db.execute("SELECT DISTINCT key FROM aliases WHERE entity IN (SELECT value FROM "
                      "json_each(?)) AND key != entity ORDER BY key",
                      (json.dumps(list(dict.fromkeys(entities))),))
    return [row[0] for row in rows]


def entity(db: sqlite3.Connection, key: str) -> EntityInfo | None:
    row = db.execute("SELECT key, name FROM entities WHERE key = ?", (key,)).fetchone()
    if row is None:
        return None
    pages = db.execute("SELECT path, name FROM aliases WHERE entity = ? "
                       "ORDER BY path, rowid", (key,)).fetchall()
    page = pages[0][0] if pages else None
    names = tuple(dict.fromkeys(name for path, name in pages if path == page))
    return EntityInfo(key=key, name=names[0] if names else row[1], page=page,
                      aliases=names[1:])


# -- searches ------------------------------------------------------------------------------

BM25 = ("SELECT rowid, bm25(facts_fts, 1.0, 0.5) FROM facts_fts WHERE facts_fts MATCH ?")


def lexical(db: sqlite3.Connection, fts: str, filters: Filters, limit: int) -> list[Candidate]:
    """The `limit` best matches of an FTS5 expression that pass the filters, best first.

    Ranked in the full-text index alone, then the rows of the few kept are fetched; a
    filtered search that cannot be answered that way (`_filtered`) is ranked and filtered
    in one SQL statement over every match."""
    where, params = conditions(filters)
    try:
        if filters == Filters():
            # twice the rows asked for: facts tied at the cut are then almost always all
            # in hand, and need no second scan to be ordered (`_cut`)
            want = 2 * limit + 1
            ranked = db.execute(BM25 + " ORDER BY 2 LIMIT ?", (fts, want)).fetchall()
            if len(ranked) > limit:
                ranked = _cut(db, fts, ranked, limit, every=len(ranked) < want)
        elif (kept := _filtered(db, fts, where, params, limit)) is not None:
            ranked = kept
        else:
            sql = (f"SELECT {FACT_SELECT}, bm25(facts_fts, 1.0, 0.5) FROM facts_fts"  # noqa: S608
                   " JOIN facts f ON f.rowid = facts_fts.rowid JOIN files ON files.id = f.file"
                   f" {LIFE_JOIN}"
                   f" WHERE facts_fts MATCH ? {where} ORDER BY {SCORE_COLUMN + 1},"
                   " f.day DESC, files.path, f.line LIMIT ?")
            return candidates(db, sql, [fts, *params, limit])
    except sqlite3.OperationalError as exc:
        raise IndexError_(f"search failed: {exc}") from exc
    scores = dict(ranked)
    found = candidates(db, f"SELECT {FACT_SELECT}, NULL FROM {FACT_FROM}"  # noqa: S608
                       f" WHERE f.rowid IN ({marks(ranked)})", list(scores), scores)
    if filters == Filters():
        def order(c: Candidate) -> tuple[object, ...]:
            return (scores[c.rowid], c.fact.path, c.fact.line)
    else:
        def order(c: Candidate) -> tuple[object, ...]:
            return _filtered_order(scores[c.rowid], c.fact.day, c.fact.path, c.fact.line)
    return sorted(found, key=order)


FILTERED_FETCH = 8  # a filtered search first ranks this many times its limit, unfiltered


def _filtered_order(score: float, day: date | int | None, path: str,
                    line: int) -> tuple[float, bool, int, str, int]:
    """A filtered search's order: score, then newest day first (no day last), path, line —
    the ORDER BY of its SQL, which it must give whichever way it was answered."""
    ordinal = day.toordinal() if isinstance(day, date) else day
    return (score, ordinal is None, -(ordinal or 0), path, line)


def _filtered(db: sqlite3.Connection, fts: str, where: str, params: list[object],
              limit: int) -> list[tuple[int, float]] | None:
    """The best `limit` matches that pass the filters (`where`), ranked in the full-text
    index alone first: the FILTERED_FETCH × limit best matches are fetched, the filters
    applied to them, and the answer kept when no match left unfetched could rank among it
    (it scores below the last one fetched).  None: it could — the caller asks SQLite to
    rank and filter every match (a filter that passes few facts, or a long tie)."""
    if limit < 1:
        return []
    want = FILTERED_FETCH * limit + 1
    ranked = db.execute(BM25 + " ORDER BY 2 LIMIT ?", (fts, want)).fetchall()
    scores = dict(ranked)
    passing: list[tuple[int, int | None, str, int]] = []
    for chunk in chunks(list(scores), 500):
        passing.extend(db.execute(
            "SELECT f.rowid, f.day, files.path, f.line FROM facts f"  # noqa: S608
            f" JOIN files ON files.id = f.file WHERE f.rowid IN ({marks(chunk)}) {where}",
            [*chunk, *params]))
    passing.sort(key=lambda r: _filtered_order(scores[r[0]], *r[1:]))
    kept = [(rowid, scores[rowid]) for rowid, *_ in passing[:limit]]
    if len(ranked) == want and (len(kept) < limit or kept[-1][1] >= ranked[-1][1]):
        return None
    return kept


def _cut(db: sqlite3.Connection, fts: str, ranked: list[tuple[int, float]],
         limit: int, *, every: bool = False) -> list[tuple[int, float]]:
    """The best `limit` of `ranked` (more rows than that, best first; `every`: all the
    matches), with facts tied at the cut taken by path and line rather than by rowid: rowids
    follow the order a workspace happened to be indexed in, and two copies of one memory
    must answer alike."""
    if limit < 1:
        return []
    cut = ranked[limit - 1][1]
    if ranked[limit][1] != cut:
        return ranked[:limit]
    above = [row for row in ranked if row[1] < cut]
    if every or ranked[-1][1] != cut:  # the rows in hand hold every fact tied at the cut
        tied = [rowid for rowid, score in ranked if score == cut]
    else:  # the same bm25 computed the same way, equal to the cut exactly
        tied = [rowid for (rowid,) in db.execute(
            "SELECT rowid FROM facts_fts WHERE facts_fts MATCH ?"
            " AND bm25(facts_fts, 1.0, 0.5) = ?", (fts, cut))]
    place: dict[int, tuple[str, int]] = {}
    for chunk in chunks(tied, 500):
        for rowid, path, line in db.execute(
                "SELECT f.rowid, files.path, f.line FROM facts f"  # noqa: S608
                f" JOIN files ON files.id = f.file WHERE f.rowid IN ({marks(chunk)})",
                chunk):
            place[rowid] = (path, line)
    placed = sorted(place, key=lambda rowid: place[rowid])
    return above + [(rowid, cut) for rowid in placed[:limit - len(above)]]


def match_scores(db: sqlite3.Connection, fts: str) -> dict[int, float]:
    """The bm25 of every match of an FTS5 expression, by row key, unordered (the score
    `lexical` ranks by, computed by the same statement's function)."""
    try:
        return dict(db.execute(BM25, (fts,)).fetchall())
    except sqlite3.OperationalError as exc:
        raise IndexError_(f"search failed: {exc}") from exc


def fact_rows(db: sqlite3.Connection) -> int:
    """The number of rows of `facts`: what the index holds, however it came to hold it.
    Not the highest rowid: that follows the index's history (a file indexed again gets its
    rows after every other file's), and recall weighs words by it (`weak.asked`), so two
    replicas of one bank that synced in other steps would score alike facts apart.  SQLite
    counts a table's rows from its smallest index's pages: about 15 microseconds at 125,000
    facts."""
    return int(db.execute("SELECT count(*) FROM facts").fetchone()[0])


def term_counts(db: sqlite3.Connection, expressions: Sequence[str],
                most: int) -> dict[str, int]:
    """How many facts each FTS5 expression matches (a quoted word: as the search matches
    it, stemmed and folded), counted up to `most` + 1: the count stops there, so a common
    word costs no more than a rare one."""
    return {e: db.execute("SELECT count(*) FROM (SELECT 1 FROM facts_fts WHERE facts_fts"
                          " MATCH ? LIMIT ?)", (e, most + 1)).fetchone()[0]
            for e in dict.fromkeys(expressions)}


def linked(db: sqlite3.Connection, keys: Sequence[str], filters: Filters,
           limit: int) -> list[Candidate]:
    if not keys:
        return []
    if filters == Filters():  # newest links first from the (key, day) index
        rows = db.execute(
            f"SELECT fact, day FROM fact_entities WHERE key IN ({marks(keys)})"  # noqa: S608
            " ORDER BY day DESC LIMIT ?", [*keys, limit + 1]).fetchall()  # NULL days last
        if len(rows) <= limit or rows[limit - 1][1] != rows[limit][1]:
            rowids = [r[0] for r in rows[:limit]]
            return candidates(db, f"SELECT {FACT_SELECT}, NULL FROM {FACT_FROM}"  # noqa: S608
                              f" WHERE f.rowid IN ({marks(rowids)}) {NEWEST}", rowids)
        # facts of one day straddle the cut: take them by path and line, as below, from the
        # facts of later days and every fact of the cut's day (the (key, day) index again),
        # not from every fact linked to the keys, which may be thousands
        tied = _straddling(db, keys, rows, limit)
        if tied is not None:
            return candidates(db, f"SELECT {FACT_SELECT}, NULL FROM {FACT_FROM}"  # noqa: S608
                              f" WHERE f.rowid IN ({marks(tied)}) {NEWEST} LIMIT ?",
                              [*tied, limit])
    where, params = conditions(filters)
    sql = (f"SELECT {FACT_SELECT}, NULL FROM {FACT_FROM}"  # noqa: S608
           f" WHERE f.rowid IN (SELECT fact FROM fact_entities WHERE key IN ({marks(keys)}))"
           f" {where} {NEWEST} LIMIT ?")
    return candidates(db, sql, [*keys, *params, limit])


STRADDLING = 500  # facts `_straddling` hands on; past that, every linked fact is ordered


def _straddling(db: sqlite3.Connection, keys: Sequence[str], rows: list[tuple[int, int | None]],
                limit: int) -> list[int] | None:
    """The facts `linked` (no filters) must order to cut at `limit` when facts of one day
    straddle the cut: those of later days (in `rows`, the first `limit` + 1 links newest
    first, NULL days last, as the (key, day) index gives them) and every fact of the cut's
    day.  None when they are fewer than `limit` facts (a fact linked to two of the keys
    comes twice in `rows`) or too many to list: the caller orders every linked fact."""
    cut = rows[limit - 1][1]
    later = [fact for fact, day in rows if day != cut]
    same = "day IS NULL" if cut is None else "day = ?"
    tied = [r[0] for r in db.execute(
        f"SELECT fact FROM fact_entities WHERE key IN ({marks(keys)}) AND {same}",  # noqa: S608
        [*keys, *([] if cut is None else [cut])])]
    rowids = list(dict.fromkeys([*later, *tied]))
    return rowids if limit <= len(rowids) <= STRADDLING else None


def recent(db: sqlite3.Connection, filters: Filters, limit: int) -> list[Candidate]:
    where, params = conditions(filters)
    return candidates(db, f"SELECT {FACT_SELECT}, NULL FROM {FACT_FROM}"  # noqa: S608
                      f" WHERE 1 {where} {NEWEST} LIMIT ?", [*params, limit])


def cited_by(db: sqlite3.Connection, turns: Sequence[tuple[str, int]],
             filters: Filters) -> list[Candidate]:
    """The bullets that cite these captured turns ((path, header line) each; a bullet and
    its turn share a file) and pass the filters, in file order: the bullets folded into
    their turns, which have no full-text row (`writes.folded`)."""
    wanted = set(turns)
    where, params = conditions(filters)
    found: list[Candidate] = []
    for chunk in chunks(sorted({path for path, _ in wanted}), 500):
        found += candidates(db, f"SELECT {FACT_SELECT}, NULL FROM {FACT_FROM}"  # noqa: S608
                            f" WHERE files.path IN ({marks(chunk)}) AND f.kind != 'text'"
                            f" AND f.content LIKE '%(turn at line %)' {where}"
                            " ORDER BY files.path, f.line", [*chunk, *params])
    return [c for c in found if (c.fact.path, cited_turn(c.fact.content)) in wanted]


def fts_rowids(db: sqlite3.Connection, fts: str, limit: int) -> list[int]:
    """Row keys of up to `limit` facts matching an FTS5 expression, unranked."""
    return [r[0] for r in db.execute(
        "SELECT rowid FROM facts_fts WHERE facts_fts MATCH ? LIMIT ?", (fts, limit))]


# -- facts by key --------------------------------------------------------------------------

def by_id(db: sqlite3.Connection, fact_id: str) -> list[Candidate]:
    if not encodable(fact_id):
        return []  # undecodable bytes from a command line: no fact has such an id
    return candidates(db, f"SELECT {FACT_SELECT}, NULL FROM {FACT_FROM}"  # noqa: S608
                      f" WHERE f.id = ? ORDER BY {HOLDER_FIRST}, files.path, f.line",
                      [fact_id])


def by_ids(db: sqlite3.Connection, ids: Sequence[str]) -> list[Candidate]:
    """The row holding each id (sqlite.holders), for ids that exist."""
    found: dict[str, Candidate] = {}
    for chunk in chunks(list(dict.fromkeys(ids)), 500):
        for c in candidates(db, f"SELECT {FACT_SELECT}, NULL FROM {FACT_FROM}"  # noqa: S608
                            f" WHERE f.id IN ({marks(chunk)})"
                            f" ORDER BY {HOLDER_FIRST}, files.path, f.line", chunk):
            found.setdefault(c.fact.id, c)
    return list(found.values())


CHAIN_DEPTH = 64  # links of a chain of replacements one `successions` statement walks
# the ids a chain of replacements reaches from the ids given (`successions`): the row holding
# an id (not a shadowed copy, sqlite.holders) is the one with its lifecycle state
CHAIN = (
    "WITH RECURSIVE walk(id, depth) AS (SELECT value, 0 FROM json_each(?)"
    " UNION SELECT l.superseded_by, w.depth + 1 FROM walk w"
    " JOIN facts f ON f.id = w.id AND f.rowid NOT IN (SELECT fact FROM shadowed)"
    " JOIN lifecycle l ON l.id = f.id"
    " WHERE w.depth < ? AND l.rev IS NOT NULL AND COALESCE(l.superseded_by, '') != '')"
    " SELECT DISTINCT id FROM walk"
)


def successions(db: sqlite3.Connection, ids: Sequence[str],
                ) -> tuple[dict[str, Succession], set[str]]:
    """`ChainReader.successions`: the ids the chains from `ids` reach in CHAIN_DEPTH links
    (one statement), then the row holding each, as `by_ids` picks it (another)."""
    wanted = [i for i in dict.fromkeys(ids) if encodable(i)]
    reached = {row[0] for row in db.execute(CHAIN, (json.dumps(wanted), CHAIN_DEPTH))}
    rows: dict[str, Succession] = {}
    for chunk in chunks(sorted(reached), 500):
        for fact_id, day, rev, by in db.execute(
                f"SELECT f.id, f.day, l.rev, l.superseded_by FROM {FACT_FROM}"  # noqa: S608
                f" WHERE f.id IN ({marks(chunk)})"
                f" ORDER BY {HOLDER_FIRST}, files.path, f.line", chunk):
            rows.setdefault(fact_id, (day_of(day), by if rev is not None else None))
    return rows, reached | set(ids)


def by_rowids(db: sqlite3.Connection, rowids: Sequence[int],
              filters: Filters) -> list[Candidate]:
    """The facts with these row keys that pass `filters`, in no particular order."""
    where, params = conditions(filters)
    out: list[Candidate] = []
    for chunk in chunks(list(rowids), 500):
        out.extend(candidates(db, f"SELECT {FACT_SELECT}, NULL FROM {FACT_FROM}"  # noqa: S608
                              f" WHERE f.rowid IN ({marks(chunk)}) {where}",
                              [*chunk, *params]))
    return out


def neighbours(db: sqlite3.Connection, rowids: Sequence[int]) -> dict[int, tuple[int, ...]]:
    """For each fact, the facts just before and after it in its file (by line)."""
    out: dict[int, tuple[int, ...]] = {}
    for chunk in chunks(list(rowids), 500):
        sql = NEIGHBOURS + f" WHERE c.rowid IN ({marks(chunk)})"
        for rowid, before, after in db.execute(sql, chunk):
            out[rowid] = tuple(n for n in (before, after) if n is not None)
    return out


def candidates(db: sqlite3.Connection, sql: str, params: Sequence[object],
               scores: dict[int, float] | None = None) -> list[Candidate]:
    """The rows `sql` selects (FACT_SELECT and a score column) as candidates, with their
    entity links; `scores`: each one's bm25 by rowid, given in place of the score column
    (set as each candidate is made, not copied onto it after: a search's candidates are
    made once)."""
    try:
        rows = db.execute(sql, params).fetchall()
    except sqlite3.DatabaseError as exc:  # a damaged page read only now, or a bad query
        if damaged(exc):
            raise IndexDamaged(f"search failed: {exc}; `memfold index --full` rebuilds "
                               "the index") from exc
        raise IndexError_(f"search failed: {exc}") from exc
    links: dict[int, list[str]] = {}
    for chunk in chunks([row[0] for row in rows], 500):
        for fact, key in db.execute(
            f"SELECT fact, key FROM fact_entities WHERE fact IN ({marks(chunk)})",  # noqa: S608
            chunk,
        ):
            links.setdefault(fact, []).append(key)
    return [Candidate(fact=fact_of(row),
                      bm25=row[SCORE_COLUMN] if scores is None else scores[row[0]],
                      links=tuple(links.get(row[0], ())), sha256=row[15], rowid=row[0],
                      life=life_of(row[16:SCORE_COLUMN])) for row in rows]


# -- what the vectors are made from --------------------------------------------------------

def fact_texts(db: sqlite3.Connection) -> list[tuple[int, str]]:
    """(row key, content) of every fact, by row key."""
    return [(int(rowid), str(content)) for rowid, content
            in db.execute("SELECT rowid, content FROM facts ORDER BY rowid")]


def facts_signature(db: sqlite3.Connection) -> str:
    """What vectors made now are made against: the `facts_token` every sync that changes a
    fact renews (else, for an index without one, counts and sums)."""
    token = meta(db, "facts_token")
    if token:
        return f"token:{token}"
    facts = db.execute("SELECT count(*), coalesce(max(rowid), 0) FROM facts").fetchone()
    files = db.execute("SELECT count(*), total(checked_ns), total(size) FROM files").fetchone()
    return json.dumps([*facts, *files])
