"""The rows a bank version writes to PostgreSQL: its files, its journal lines and the facts
its Markdown carries (for SQL readers); and `check`, which finds rows that no longer agree
with the files they were derived from (a hand-edited table) and, asked to, derives them again.

A bank's truth is its files' content and its journal; a file's `sha256` and the `facts` rows
are derived from the content, so they can always be derived again."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

from memfold.server import recall_rows, vectors
from memfold.workspace.format import parse_document

if TYPE_CHECKING:
    import psycopg

_INSERT_FACT = ("INSERT INTO facts (tenant_id, bank_id, path, line, end_line, fact_id, kind, "
                "day, entities, params, content, raw) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)")


def store(cur: psycopg.Cursor[Any], tenant: str, bank_id: int, version: int, *,
          files: Mapping[str, bytes | None], lines: Sequence[tuple[int, str]],
          appended: Mapping[str, int] | None = None) -> None:
    """Store bank version `version`: `files` (None: deleted), journal `lines` as (seq, line),
    and the facts of every file given — of a file in `appended` (path -> its last line as
    sent before), only the facts that reach that line.  A version that purges also deletes
    the vectors of the texts it removed (memfold.server.vectors.drop_purged)."""
    kept = appended or {}
    row = (tenant, bank_id)
    purging = vectors.purges(lines)
    before = vectors.rows_of(cur, bank_id, list(files)) if purging else []
    cur.executemany(
        "INSERT INTO files (tenant_id, bank_id, path, content, sha256, version) "
        "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (bank_id, path) DO UPDATE SET "
        "content = excluded.content, sha256 = excluded.sha256, version = excluded.version",
        [(*row, path, data, None if data is None else hashlib.sha256(data).hexdigest(),
          version) for path, data in files.items()])
    cur.executemany(
        "INSERT INTO events (tenant_id, bank_id, seq, line, record, version) "
        "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (bank_id, seq) DO UPDATE SET "
        "line = excluded.line, record = excluded.record, version = excluded.version "
        "WHERE events.line <> excluded.line",
        [(*row, seq, line, line, version) for seq, line in lines])
    cur.executemany("DELETE FROM facts WHERE bank_id = %s AND path = %s AND end_line >= %s",
                    [(bank_id, path, kept.get(path, 0)) for path in files])
    cur.executemany(
        _INSERT_FACT,
        [(*row, *fact) for path, data in files.items() if data is not None
         for fact in fact_rows(path, data) if fact[2] >= kept.get(path, 0)])
    recall_rows.store_recall(cur, tenant, bank_id, files=files, lines=lines, appended=kept)
    if purging:  # the vectors of the texts it removed go in the same transaction
        vectors.drop_purged(cur, bank_id, before)


FactRow = tuple[str, int, int, str, str, "date | None", list[str], str, str, str]


def fact_rows(path: str, data: bytes) -> Iterator[FactRow]:
    """The `facts` columns for each fact of one file (after tenant and bank)."""
    doc = parse_document(path, data)
    lines = data.decode("utf-8", "replace").splitlines()
    for fact in doc.facts:
        raw = "\n".join(lines[fact.line - 1:fact.end_line])
        yield (path, fact.line, fact.end_line, fact.id, fact.kind, fact.day,
               list(fact.entities), json.dumps(dict(fact.params)), fact.content, raw)


def check(cur: psycopg.Cursor[Any], tenant: str, bank_id: int, *,
          repair: bool) -> dict[str, list[str]]:
    """The bank's derived rows that disagree with its files: `hashes` (files whose sha256 is
    not their content's) and `facts` (files whose facts rows are not what their content
    gives: missing, extra or changed), each a list of paths, `recall` (where the recall
    statistics disagree with the recall rows: `recall_rows.statistics_problems`) and
    `events` (the `event_facts` rows that disagree with the journal: `event_problems`).
    With `repair`, those rows are derived again from the content (the caller holds the
    bank's write lock); the recall rows, all of them."""
    rows = cur.execute("SELECT path, content, sha256 FROM files WHERE bank_id = %s "
                       "AND content IS NOT NULL", [bank_id]).fetchall()
    files = {str(path): bytes(content) for path, content, _ in rows}
    stored_sha = {str(path): sha for path, _, sha in rows}
    stored: dict[str, set[tuple[Any, ...]]] = {}
    for row in cur.execute("SELECT path, line, end_line, fact_id, kind, day, entities, "
                           "params::text, content, raw FROM facts WHERE bank_id = %s",
                           [bank_id]).fetchall():
        stored.setdefault(str(row[0]), set()).add(_comparable(row))
    hashes = sorted(p for p, data in files.items()
                    if stored_sha.get(p) != hashlib.sha256(data).hexdigest())
    derived = {p: {_comparable(r) for r in fact_rows(p, data)} for p, data in files.items()}
    facts = sorted(p for p in set(derived) | set(stored)
                   if derived.get(p, set()) != stored.get(p, set()))
    recall = recall_rows.statistics_problems(cur, bank_id)
    events = event_problems(cur, tenant, bank_id, repair=repair)
    if repair:
        cur.executemany("UPDATE files SET sha256 = %s WHERE bank_id = %s AND path = %s",
                        [(hashlib.sha256(files[p]).hexdigest(), bank_id, p) for p in hashes])
        cur.executemany("DELETE FROM facts WHERE bank_id = %s AND path = %s",
                        [(bank_id, p) for p in facts])
        cur.executemany(
            _INSERT_FACT,
            [(tenant, bank_id, *row) for p in facts if p in files
             for row in fact_rows(p, files[p])])
        if recall:
            recall_rows.rebuild(cur, tenant, bank_id)
        elif hashes:  # a new version of the statistics row: what replicas keep of the
            # bank's version (a fact's file hash among it) is read again (pgcache)
            cur.execute("UPDATE recall_stats SET rows = rows WHERE bank_id = %s", [bank_id])
    return {"hashes": hashes, "facts": facts, "recall": recall, "events": events}


# the (fact id, seq) rows the journal gives the bank's `event_facts` (schema 0008: the
# function its trigger keeps them with), and the rows it holds
_EVENT_FACTS_DERIVED = ("SELECT f, e.seq FROM events e CROSS JOIN LATERAL"
                        " memfold_event_facts(e.record) f WHERE e.bank_id = %s")
_EVENT_FACTS_STORED = "SELECT fact_id, seq FROM event_facts WHERE bank_id = %s"


def event_problems(cur: psycopg.Cursor[Any], tenant: str, bank_id: int, *,
                   repair: bool) -> list[str]:
    """The bank's `event_facts` rows that disagree with its journal (a hand-edited table):
    each as "missing FACT@SEQ" (an event about the fact without its row) or "extra
    FACT@SEQ" (a row no event gives), in seq order.  With `repair`, the extra rows are
    deleted and the missing inserted (the caller holds the bank's write lock)."""
    derived = {(str(f), int(s)) for f, s in cur.execute(_EVENT_FACTS_DERIVED, [bank_id])}
    stored = {(str(f), int(s)) for f, s in cur.execute(_EVENT_FACTS_STORED, [bank_id])}
    missing, extra = derived - stored, stored - derived
    if repair:
        cur.executemany("DELETE FROM event_facts WHERE bank_id = %s AND fact_id = %s"
                        " AND seq = %s", [(bank_id, f, s) for f, s in extra])
        cur.executemany("INSERT INTO event_facts (tenant_id, bank_id, fact_id, seq)"
                        " VALUES (%s, %s, %s, %s)",
                        [(tenant, bank_id, f, s) for f, s in missing])
    return [f"{what} {f}@{s}" for (s, f), what in sorted(
        [((s, f), "missing") for f, s in missing] + [((s, f), "extra") for f, s in extra])]


def _comparable(row: Sequence[Any]) -> tuple[Any, ...]:
    """A facts row as a value to compare: entities as a tuple, params as parsed JSON."""
    path, line, end_line, fact_id, kind, day, entities, params, content, raw = row
    return (str(path), line, end_line, fact_id, kind, day, tuple(entities),
            json.dumps(json.loads(params), sort_keys=True), content, raw)
