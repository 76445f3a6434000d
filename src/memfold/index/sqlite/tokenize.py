"""The SQLite index's tokenizer as a function: the terms FTS5 makes of a fact's two columns
(body and names), each with its column and place, and of a search's words and phrases.

An index kept elsewhere (the memory server's PostgreSQL rows, `memfold.server.recall_rows`)
holds the very terms this index holds, so the same BM25 over them ranks as SQLite does.  The
terms are not re-implemented: each thread keeps a small in-memory FTS5 table with the index's
own tokenizer (`porter unicode61 remove_diacritics 2`, schema.DATA_SCHEMA), the texts are
put in it and read back through `fts5vocab` (term, column, offset).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence

from memfold.index.sqlite.schema import DATA_SCHEMA

TOKENIZE = "porter unicode61 remove_diacritics 2"
assert f"tokenize = '{TOKENIZE}'" in DATA_SCHEMA  # noqa: S101 - one tokenizer, not two
COLUMNS = ("body", "names")

_local = threading.local()

Terms = list[tuple[int, int, str]]  # (column: 0 body, 1 names; offset in it; term)


def _table() -> sqlite3.Connection:
    db: sqlite3.Connection | None = getattr(_local, "db", None)
    if db is None:
        db = sqlite3.connect(":memory:", check_same_thread=True)
        db.execute(f"CREATE VIRTUAL TABLE t USING fts5(body, names, tokenize = '{TOKENIZE}')")
        db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")
        _local.db = db
    return db


def terms(rows: Sequence[tuple[str, str]]) -> list[Terms]:
    """The terms of each (body, names) pair, in column then offset order."""
    if not rows:
        return []
    db = _table()
    found: list[Terms] = [[] for _ in rows]
    with db:
        db.executemany("INSERT INTO t (rowid, body, names) VALUES (?, ?, ?)",
                       [(n + 1, body.replace("\x00", " "), names.replace("\x00", " "))
                        for n, (body, names) in enumerate(rows)])
        try:
            for doc, col, offset, term in db.execute(
                    "SELECT doc, col, offset, term FROM v ORDER BY doc, col, offset"):
                found[doc - 1].append((COLUMNS.index(col), offset, term))
        finally:
            db.execute("DELETE FROM t")
    return found


def words(texts: Sequence[str]) -> list[list[str]]:
    """The terms of each text, in order, as a search's quoted string is read."""
    return [[term for _, _, term in found] for found in terms([(t, "") for t in texts])]
