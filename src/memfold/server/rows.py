"""The rows a bank version writes to PostgreSQL: its files, its journal lines and the facts
its Markdown carries (for SQL readers)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

from memfold.workspace.format import parse_document

if TYPE_CHECKING:
    import psycopg


def store(cur: psycopg.Cursor[Any], tenant: str, bank_id: int, version: int, *,
          files: Mapping[str, bytes | None], lines: Sequence[tuple[int, str]],
          appended: Mapping[str, int] | None = None) -> None:
    """Store bank version `version`: `files` (None: deleted), journal `lines` as (seq, line),
    and the facts of every file given — of a file in `appended` (path -> its last line as
    sent before), only the facts that reach that line."""
    kept = appended or {}
    row = (tenant, bank_id)
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
        "INSERT INTO facts (tenant_id, bank_id, path, line, end_line, fact_id, kind, "
        "day, entities, params, content, raw) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
        [(*row, *fact) for path, data in files.items() if data is not None
         for fact in fact_rows(path, data) if fact[2] >= kept.get(path, 0)])


FactRow = tuple[str, int, int, str, str, "date | None", list[str], str, str, str]


def fact_rows(path: str, data: bytes) -> Iterator[FactRow]:
    """The `facts` columns for each fact of one file (after tenant and bank)."""
    doc = parse_document(path, data)
    lines = data.decode("utf-8", "replace").splitlines()
    for fact in doc.facts:
        raw = "\n".join(lines[fact.line - 1:fact.end_line])
        yield (path, fact.line, fact.end_line, fact.id, fact.kind, fact.day,
               list(fact.entities), json.dumps(dict(fact.params)), fact.content, raw)
