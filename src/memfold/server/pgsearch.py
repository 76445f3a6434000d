"""The SQL of a search over a bank's recall rows in PostgreSQL (memfold.server.pgindex): a
search of single terms ranked from the bank's postings (`BOUNDED`), the rows that may match a
phrase (`holders`), the search's filters as conditions (`conditions`), and a term's places
read from a row's tsvector (`read_places`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from memfold.index.base import Filters
from memfold.server import bm25

# a fact linked to any of these entities; the bank a parameter of its own, not f's (a
# subquery that names f would run once per fact)
LINKED_TO = ("f.rowid IN (SELECT k.fact FROM recall_links k WHERE k.bank_id = %s"
             " AND k.key = ANY(%s))")


CHAIN_DEPTH = 64  # links of a chain of replacements one `successions` statement walks
# the ids a chain of replacements reaches from the ids given (`PgRecallIndex.successions`),
# as the SQLite index's `search.CHAIN` walks them: each id's holder (its row not shadowed)
# and its lifecycle state's `superseded_by`, CHAIN_DEPTH links at most
CHAIN = """
WITH RECURSIVE walk(id, depth) AS (
    SELECT DISTINCT unnest(%s::text[]), 0
    UNION
    SELECT l.state ->> 'superseded_by', w.depth + 1 FROM walk w
    JOIN recall_facts f ON f.bank_id = %s AND f.fact_id = w.id AND NOT f.shadowed
    JOIN recall_life l ON l.bank_id = %s AND l.id = w.id
    WHERE w.depth < %s AND coalesce(l.state ->> 'superseded_by', '') <> '')
SELECT DISTINCT id FROM walk
"""


# A search of single terms is ranked in PostgreSQL first, from the bank's postings alone
# (`recall_postings`, schema 0006: per term, the rows that hold it, its hits weighed by
# column and the row's length), so it reads only the rows that hold its terms, in its bank:
# each match's bm25 computed there (`bm25.score`'s formula) — equal to memfold's own up to
# rounding, as the order of the operations may differ.  Only the matches that score within
# a rounding margin (1e-9 of the score) of the CUT_FETCH × limit-th best come back, each
# with its terms' hits (the posting's own: a term's places weighed by column, as
# `bm25.Phrase.hits` counts them from the row's tsvector) and each term's count of rows,
# one row per match, to be scored by memfold's own bm25 and ordered: every match left
# behind scores below at least that many kept, so the best `limit` and their ties are the
# ones an unbounded pull would give.
CUT_FETCH = 2
BOUNDED = """
WITH k AS (SELECT %s::integer AS bank, %s::float8 AS rows, %s::float8 AS avgdl),
q AS MATERIALIZED (
    SELECT t.term, coalesce(r.rows, 0)::float8 AS n, t.times
    FROM (SELECT term, count(*) AS times FROM unnest(%s::text[]) term GROUP BY term) t
    LEFT JOIN recall_terms r ON r.bank_id = (SELECT bank FROM k) AND r.term = t.term),
w AS (SELECT q.term, q.n, q.times * CASE WHEN (k.rows - q.n + 0.5) / (q.n + 0.5) > 1
                                         THEN ln((k.rows - q.n + 0.5) / (q.n + 0.5))
                                         ELSE 1e-6 END AS idf FROM q, k),
scored AS MATERIALIZED (
    SELECT p.rowid, -sum(w.idf * (p.hits * 2.2) / (p.hits + 1.2 * (0.25 + 0.75 * p.length
                                                                   / (SELECT avgdl FROM k))))
           AS score, array_agg(p.term) AS terms, array_agg(p.hits) AS hits,
           array_agg(w.n) AS held
    FROM w JOIN recall_postings p ON p.bank_id = (SELECT bank FROM k) AND p.term = w.term
    {join}
    GROUP BY p.rowid {having}),
cut AS (SELECT coalesce((SELECT score + 1e-9 * (1 + abs(score)) FROM scored
                         ORDER BY score OFFSET %s - 1 LIMIT 1), 'infinity') AS v)
SELECT f.rowid, f.length, f.day, f.path, f.line, s.terms, s.hits, s.held
FROM scored s JOIN recall_facts f ON f.rowid = s.rowid
WHERE s.score <= (SELECT v FROM cut)
"""
# the postings' rows narrowed by the search's filters (`conditions`, which name f)
FILTERED = "JOIN recall_facts f ON f.rowid = p.rowid WHERE true"
# the rows that hold the rarest exact term of at least one of the phrases (a row matching a
# phrase holds each of its terms, so its rarest too): (phrase, term) pairs, each term's
# rows read from the bank's statistics — one index range of postings per phrase, not every
# posting of every term (a phrase with "of" or "the" in it held thousands).  The rows come
# as an array, so PostgreSQL reads each by its key and tests the tsquery on those alone:
# as a join it estimated the postings' rows blind and tested the tsquery on every row of
# the bank (190 ms for a question's hundred phrases on the 1,000-file bank)
HOLDERS = ("f.rowid = ANY(ARRAY(SELECT p.rowid FROM recall_postings p WHERE p.bank_id = %s"
           " AND p.term = ANY(ARRAY(SELECT DISTINCT ON (w.phrase) w.term FROM unnest(%s::int[],"
           " %s::text[]) w(phrase, term) LEFT JOIN recall_terms r ON r.bank_id = %s AND"
           " r.term = w.term ORDER BY w.phrase, coalesce(r.rows, 0), w.term COLLATE \"C\"))))")


def holders(found: Sequence[bm25.Phrase], bank_id: int) -> tuple[str, list[object]]:
    """A condition on `f` that keeps the rows that may match these phrases — those holding
    the rarest term of one of them (a prefix's last term aside), read from the bank's
    postings — so that the tsquery is tested on those rows only; ("", []) when a phrase is
    a prefix alone (any row may match: the tsquery over the bank's GIN index decides)."""
    pairs: list[tuple[int, str]] = []
    for n, phrase in enumerate(found):
        exact = sorted(set(phrase.terms[:-1] if phrase.prefix else phrase.terms))
        if not exact:
            return "", []
        pairs.extend((n, term) for term in exact)
    return f" AND {HOLDERS}", [bank_id, [n for n, _ in pairs], [t for _, t in pairs], bank_id]


def conditions(filters: Filters, bank_id: int) -> tuple[str, list[object]]:
    """The filters as SQL conditions to append after a WHERE (`sqlite.rows.conditions`)."""
    clauses: list[str] = []
    params: list[object] = []
    if filters.kinds:
        clauses.append("f.kind = ANY(%s)")
        params.append(list(filters.kinds))
    if filters.window:
        start = filters.window.start.toordinal() if filters.window.start else 0
        end = filters.window.end.toordinal() if filters.window.end else date.max.toordinal()
        clauses.append("(f.day BETWEEN %s AND %s OR (f.valid_until >= %s"
                       " AND COALESCE(f.valid_from, f.day) <= %s))")
        params.extend([start, end, start, end])
    if filters.written_by:
        clauses.append("(f.day IS NULL OR f.day <= %s OR EXISTS (SELECT 1 FROM recall_life w"
                       " WHERE w.bank_id = f.bank_id AND w.id = f.fact_id"
                       " AND w.retained_on <= %s))")
        params.extend([filters.written_by.toordinal(), filters.written_by.isoformat()])
    if filters.entity_keys:
        clauses.append(LINKED_TO)
        params.extend([bank_id, list(filters.entity_keys)])
    return "".join(f" AND {c}" for c in clauses), params


def read_places(positions: Sequence[int], weights: Sequence[str]) -> list[tuple[int, int]]:
    """A term's places in a row, from its tsvector entry, as `bm25.score` reads them:
    (column, place), column 1 for a place of weight A (a name), else 0."""
    return [(1 if weight == "A" else 0, place)
            for place, weight in zip(positions, weights, strict=True)]
