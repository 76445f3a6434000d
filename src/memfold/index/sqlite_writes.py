"""Writing the SQLite index: the files' stamps, and replacing every row of a changed file
(`replace_rows`, run by `SqliteIndex.apply` inside one write transaction).

Every row belongs to exactly one file row (`path`); replacing a file replaces all its rows, so
an incremental sync and a full rebuild of the same files hold the same rows.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence

from ..model import TEXT, FileStamp
from ..names import entity_key, fold_for_index
from .base import DocChange
from .sqlite_rows import chunks, marks
from .sqlite_schema import create_data, create_indexes, drop_data


def stamps(db: sqlite3.Connection, paths: Sequence[str] | None = None) -> dict[str, FileStamp]:
    sql = "SELECT path, size, mtime_ns, sha256, checked_ns FROM files"
    if paths is not None:
        paths = list(paths)
        rows = db.execute(f"{sql} WHERE path IN ({marks(paths)})", paths)  # noqa: S608
    else:
        rows = db.execute(sql)
    return {path: FileStamp(size, mtime, sha, checked) for path, size, mtime, sha, checked
            in rows}


def replace_rows(db: sqlite3.Connection, stream: Iterable[DocChange], removed: Sequence[str],
                 restamped: Sequence[tuple[str, FileStamp]], *, full: bool,
                 synced_at: str) -> list[str]:
    """The body of `SqliteIndex.apply`, inside its write transaction: replace the rows of
    changed files, drop removed ones, restamp the rest; the ids of typed facts never held."""
    new_ids: list[str] = []
    touched = full or bool(removed)
    if full:
        drop_data(db)
        create_data(db, with_indexes=False)
        db.execute("DELETE FROM meta WHERE key LIKE 'journal_%'")
    for path in removed:
        _delete_path(db, path)
    for batch in _batches(stream, 500):
        touched = True
        if not full:
            new_ids.extend(_unseen_ids(db, batch))
            for doc, _ in batch:
                _delete_path(db, doc.path)
        _insert(db, batch)
    if full:
        create_indexes(db)
    db.executemany(
        "UPDATE files SET size = ?, mtime_ns = ?, checked_ns = ? WHERE path = ?",
        [(s.size, s.mtime_ns, s.checked_ns, path) for path, s in restamped],
    )
    db.execute("INSERT OR REPLACE INTO meta VALUES ('last_sync', ?)", (synced_at,))
    if touched:  # derived data (vectors) compares this to know the facts moved
        db.execute("INSERT OR REPLACE INTO meta VALUES ('facts_token', ?)",
                   (os.urandom(8).hex(),))
    return new_ids


def append_rows(db: sqlite3.Connection, tail: DocChange, *, held: str,
                synced_at: str) -> list[str] | None:
    """The body of `SqliteIndex.append`: the appended lines' rows added to a file whose rows
    the index holds as of sha256 `held`, its stamp moved on; None if it holds another."""
    doc, stamp = tail
    row = db.execute("SELECT sha256 FROM files WHERE path = ?", (doc.path,)).fetchone()
    if row is None or row[0] != held:
        return None
    new_ids = _unseen_ids(db, [tail])
    _insert(db, [tail], with_files=False)
    db.execute("UPDATE files SET size = ?, mtime_ns = ?, checked_ns = ?, sha256 = ? "
               "WHERE path = ?", (stamp.size, stamp.mtime_ns, stamp.checked_ns, stamp.sha256,
                                  doc.path))
    db.execute("INSERT OR REPLACE INTO meta VALUES ('last_sync', ?)", (synced_at,))
    db.execute("INSERT OR REPLACE INTO meta VALUES ('facts_token', ?)", (os.urandom(8).hex(),))
    return new_ids


def _unseen_ids(db: sqlite3.Connection, batch: Sequence[DocChange]) -> list[str]:
    """Typed facts in these documents whose id the index has never held."""
    ids = list(dict.fromkeys(f.id for doc, _ in batch for f in doc.facts if f.kind != TEXT))
    seen: set[str] = set()
    for chunk in chunks(ids, 500):
        seen.update(r[0] for r in db.execute(
            f"SELECT id FROM facts WHERE id IN ({marks(chunk)})", chunk))  # noqa: S608
    return [i for i in ids if i not in seen]


def _delete_path(db: sqlite3.Connection, path: str) -> None:
    db.execute("DELETE FROM facts_fts WHERE rowid IN (SELECT rowid FROM facts WHERE path = ?)",
               (path,))
    db.execute("DELETE FROM fact_entities WHERE fact IN "
               "(SELECT rowid FROM facts WHERE path = ?)", (path,))
    db.execute("DELETE FROM facts WHERE path = ?", (path,))
    db.execute("DELETE FROM aliases WHERE path = ?", (path,))
    db.execute("DELETE FROM warnings WHERE path = ?", (path,))
    db.execute("DELETE FROM citations WHERE path = ?", (path,))
    db.execute("DELETE FROM files WHERE path = ?", (path,))


def _insert(db: sqlite3.Connection, changes: Sequence[DocChange], *,
            with_files: bool = True) -> None:
    rowid = db.execute("SELECT COALESCE(MAX(rowid), 0) FROM facts").fetchone()[0]
    files: list[tuple[object, ...]] = []
    facts: list[tuple[object, ...]] = []
    fts: list[tuple[object, ...]] = []
    links: list[tuple[int, str, str, str | None]] = []
    aliases: list[tuple[object, ...]] = []
    warnings: list[tuple[object, ...]] = []
    citations: list[tuple[object, ...]] = []
    for doc, stamp in changes:
        day = doc.day.isoformat() if doc.day else None
        files.append((doc.path, doc.role, day, stamp.size, stamp.mtime_ns, stamp.checked_ns,
                      stamp.sha256))
        page_key = entity_key(doc.aliases[0]) if doc.aliases else None
        for name in doc.aliases:
            aliases.append((doc.path, page_key, entity_key(name), name))
        for w in doc.warnings:
            warnings.append((w.path, w.line, w.message))
        citations.extend((doc.path, c.line, c.source, c.source_line, c.sha)
                         for c in doc.citations)
        for f in doc.facts:
            rowid += 1
            names = list(f.entities)
            keys = {entity_key(n): n for n in names}
            if page_key and page_key not in keys:
                keys[page_key] = doc.aliases[0]
            facts.append((
                rowid, f.id, f.path, f.line, f.end_line, f.kind, f.content,
                _json_names(names),
                json.dumps(f.params, ensure_ascii=False) if f.params else None,
                f.confidence, f.importance,
                f.valid.start.isoformat() if f.valid and f.valid.start else None,
                f.valid.end.isoformat() if f.valid and f.valid.end else None,
                f.day.isoformat() if f.day else None, int(f.explicit_id),
            ))
            fts.append((rowid, fold_for_index(f.content),
                        fold_for_index(" ".join(keys.values()))))
            day = f.day.isoformat() if f.day else None
            links.extend((rowid, key, name, day) for key, name in keys.items())
    if with_files:
        db.executemany("INSERT INTO files VALUES (?, ?, ?, ?, ?, ?, ?)", files)
    db.executemany("INSERT INTO facts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   facts)
    db.executemany("INSERT INTO facts_fts (rowid, body, names) VALUES (?, ?, ?)", fts)
    db.executemany("INSERT INTO fact_entities VALUES (?, ?, ?, ?)", links)
    db.executemany("INSERT INTO aliases VALUES (?, ?, ?, ?)", aliases)
    db.executemany("INSERT INTO warnings VALUES (?, ?, ?)", warnings)
    db.executemany("INSERT INTO citations VALUES (?, ?, ?, ?, ?)", citations)


def _json_names(names: Sequence[str]) -> str:
    """A JSON list of entity names; names are slugs, so most need no escaping at all."""
    if any('"' in n or "\\" in n or not n.isprintable() for n in names):
        return json.dumps(list(names), ensure_ascii=False)
    return "[" + ",".join(f'"{n}"' for n in names) + "]"


def _batches(items: Iterable[DocChange], size: int) -> Iterator[list[DocChange]]:
    batch: list[DocChange] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
