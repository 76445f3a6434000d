"""The SQLite index: `.memory/index.sqlite`, derived from the Markdown and always rebuildable.

All of memfold's SQL for the embedded index lives here, behind the `IndexBackend` interface.

Invariants:
- Every row belongs to exactly one file row (`path`); replacing a file replaces all its rows,
  so an incremental sync and a full rebuild of the same files hold the same rows.
- WAL mode with `synchronous=NORMAL`: the index is derived data, so a lost last transaction
  after a power cut only means a file is synced again.  Writers take `BEGIN IMMEDIATE` with a
  30 s busy timeout, so two writers queue instead of failing halfway.
- A schema change bumps `SCHEMA_VERSION`; an index of another version is dropped and rebuilt
  from the files, never migrated in place.  A damaged index file is moved aside and rebuilt.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

from ..errors import IndexDamaged, IndexError_
from ..events import Retain, Supersede
from ..journal import GENESIS, Event
from ..lifecycle import LifeState, replay
from ..model import TEXT, Fact, FileStamp, Interval, ParseWarning
from ..names import entity_key, fold_for_index
from ..timeparse import parse_iso_day
from .base import (
    Candidate,
    DanglingPointer,
    DocChange,
    DuplicateId,
    EntityInfo,
    Filters,
    IndexCounts,
    LinkProblems,
    OrphanState,
)

SCHEMA_VERSION = 6
CHECK_ON_OPEN_BYTES = 8 << 20  # every page of an index up to this size is checked on open
DAMAGE = ("malformed", "corrupt", "not a database", "disk image")  # SQLite's words for it
BUSY_TIMEOUT_S = 30.0

DATA_SCHEMA = """
CREATE TABLE files (
    path TEXT PRIMARY KEY, role TEXT NOT NULL, day TEXT,
    size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, checked_ns INTEGER NOT NULL,
    sha256 TEXT NOT NULL
);
CREATE TABLE facts (
    rowid INTEGER PRIMARY KEY, id TEXT NOT NULL, path TEXT NOT NULL,
    line INTEGER NOT NULL, end_line INTEGER NOT NULL, kind TEXT NOT NULL,
    content TEXT NOT NULL, entities TEXT NOT NULL, params TEXT,
    confidence REAL, importance INTEGER, valid_from TEXT, valid_until TEXT,
    day TEXT, explicit INTEGER NOT NULL
);
CREATE TABLE fact_entities (fact INTEGER NOT NULL, key TEXT NOT NULL, name TEXT NOT NULL,
                            day TEXT);
CREATE TABLE aliases (path TEXT NOT NULL, entity TEXT NOT NULL, key TEXT NOT NULL,
                      name TEXT NOT NULL);
CREATE TABLE warnings (path TEXT NOT NULL, line INTEGER NOT NULL, message TEXT NOT NULL);
CREATE VIRTUAL TABLE facts_fts USING fts5(
    body, names, tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TABLE lifecycle (
    id TEXT PRIMARY KEY, status TEXT, reason TEXT, superseded_by TEXT, superseded_on TEXT,
    supersedes TEXT, derived_from TEXT, confidence REAL, rev INTEGER NOT NULL DEFAULT 0,
    note TEXT, last_used TEXT, uses INTEGER NOT NULL DEFAULT 0, content_sha TEXT,
    support TEXT, contradict TEXT, confidence_on TEXT, origin TEXT
);
CREATE TABLE citations (path TEXT NOT NULL, line INTEGER NOT NULL, source TEXT NOT NULL,
                        source_line INTEGER NOT NULL, sha TEXT NOT NULL);
CREATE TABLE events (seq INTEGER PRIMARY KEY, ts TEXT NOT NULL, event TEXT NOT NULL,
                     id TEXT NOT NULL, data TEXT NOT NULL);
CREATE VIEW chunks AS SELECT * FROM facts WHERE kind = 'text';
CREATE VIEW entities AS
    SELECT key, MIN(name) AS name, COUNT(*) AS mentions FROM (
        SELECT key, name FROM fact_entities
        UNION ALL SELECT entity AS key, name FROM aliases WHERE key = entity
    ) GROUP BY key;
"""
DATA_INDEXES = """
CREATE INDEX facts_by_id ON facts(id);
CREATE INDEX facts_by_path ON facts(path, line);
CREATE INDEX links_by_fact ON fact_entities(fact);
CREATE INDEX links_by_key ON fact_entities(key, day);
CREATE INDEX facts_by_day ON facts(day);
CREATE INDEX facts_by_validity ON facts(valid_until);
CREATE INDEX aliases_by_key ON aliases(key);
CREATE INDEX aliases_by_path ON aliases(path);
CREATE INDEX warnings_by_path ON warnings(path);
CREATE INDEX events_by_id ON events(id);
CREATE INDEX citations_by_path ON citations(path);
"""
DATA_OBJECTS = (
    ("view", "entities"), ("view", "chunks"), ("table", "facts_fts"), ("table", "warnings"),
    ("table", "lifecycle"), ("table", "events"), ("table", "citations"),
    ("table", "aliases"), ("table", "fact_entities"), ("table", "facts"), ("table", "files"),
)


def damaged(exc: BaseException) -> bool:
    """Whether an error met while reading says the index file itself is damaged."""
    return isinstance(exc, IndexDamaged | UnicodeDecodeError) or (  # garbled text: damage
        isinstance(exc, sqlite3.DatabaseError) and any(word in str(exc) for word in DAMAGE))


class SqliteIndex:
    """The embedded index backend."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.location = str(path)
        self.notices: list[str] = []  # one line per repair made while opening
        self.db = self._open()

    # -- opening, versions and repair -------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA secure_delete = ON")
        db.execute("PRAGMA cache_size = -65536")  # 64 MiB: a rebuild's pages stay in memory
        return db

    def _open(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise IndexError_(f"cannot create {self.path.parent}: {exc.strerror}") from exc
        # Damage SQLite would not report: an empty file is a valid empty database, and a file
        # it cannot write is opened read-only, failing only at the first write.
        try:
            empty = self.path.stat().st_size == 0
            os.close(os.open(self.path, os.O_RDWR))
        except FileNotFoundError:
            pass
        except OSError as exc:
            self._move_aside(f"the file cannot be written: {exc.strerror}")
        else:
            if empty:
                self.notices.append(f"index {self.path.name} was empty (truncated?); "
                                    "rebuilt from the Markdown")
        db: sqlite3.Connection | None = None
        try:
            db = self._connect()
            self._ensure_schema(db)
            return db
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:  # garbled bytes: damage
            if "locked" in str(exc) or "busy" in str(exc):
                raise IndexError_(f"index {self.path} is locked by another process: {exc}") from exc
            if db is not None:
                db.close()
            self._move_aside(str(exc))
        try:
            db = self._connect()
            self._ensure_schema(db)
            return db
        except sqlite3.Error as exc:
            raise IndexError_(f"cannot create the index at {self.path}: {exc}") from exc

    def repair(self, reason: str) -> None:
        """Move a damaged index aside and start an empty one (the caller refills it)."""
        self.db.close()
        self._move_aside(reason)
        self.db = self._open()

    def _move_aside(self, reason: str) -> None:
        """A damaged index is kept once as `index.sqlite.damaged` and rebuilt from the files."""
        aside = self.path.with_name(self.path.name + ".damaged")
        try:
            os.replace(self.path, aside)
            for suffix in ("-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(str(self.path) + suffix)
        except OSError as exc:
            raise IndexError_(f"index {self.path} is damaged ({reason}) and cannot be moved "
                              f"aside: {exc.strerror}") from exc
        self.notices.append(f"index {self.path.name} was damaged ({reason}); "
                            f"moved to {aside.name} and rebuilt from the Markdown")

    def _ensure_schema(self, db: sqlite3.Connection) -> None:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version == SCHEMA_VERSION:
            # cheap checks that the layout is whole: every object of the schema is there, and
            # the full-text index can be searched (a lost segment fails even a probe)
            present = set(db.execute("SELECT type, name FROM sqlite_master"))
            missing = [name for kind, name in (*DATA_OBJECTS, ("table", "meta"))
                       if (kind, name) not in present]
            if missing:
                raise sqlite3.DatabaseError(f"missing {', '.join(missing)}")
            db.execute("SELECT 1 FROM files LIMIT 1").fetchone()
            db.execute("SELECT rowid FROM facts_fts WHERE facts_fts MATCH 'memfoldprobe'"
                       " LIMIT 1").fetchall()
            # a damaged page elsewhere shows only when a query reads it; up to 8 MiB (about
            # 15,000 facts) every page is checked on open, in about 3 ms a MiB
            if self.path.stat().st_size <= CHECK_ON_OPEN_BYTES:
                problem = db.execute("PRAGMA quick_check").fetchone()[0]
                if problem != "ok":
                    raise sqlite3.DatabaseError(" ".join(str(problem).split())[:200])
            return
        db.execute("BEGIN IMMEDIATE")
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version != SCHEMA_VERSION:
                if version != 0:
                    self.notices.append(f"index schema version {version} is not "
                                        f"{SCHEMA_VERSION}; rebuilt from the Markdown")
                self._drop_data(db)
                db.execute("DROP TABLE IF EXISTS meta")
                db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
                self._create_data(db)
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    @staticmethod
    def _drop_data(db: sqlite3.Connection) -> None:
        for kind, name in DATA_OBJECTS:
            db.execute(f"DROP {kind.upper()} IF EXISTS {name}")

    @staticmethod
    def _create_data(db: sqlite3.Connection, *, with_indexes: bool = True) -> None:
        for statement in DATA_SCHEMA.split(";"):
            if statement.strip():
                db.execute(statement)
        if with_indexes:
            SqliteIndex._create_indexes(db)

    @staticmethod
    def _create_indexes(db: sqlite3.Connection) -> None:
        for statement in DATA_INDEXES.split(";"):
            if statement.strip():
                db.execute(statement)

    @contextlib.contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise IndexError_(f"cannot write the index {self.path}: {exc}") from exc
        try:
            yield self.db
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise

    # -- writing ----------------------------------------------------------------------

    def stamps(self, paths: Sequence[str] | None = None) -> dict[str, FileStamp]:
        sql = "SELECT path, size, mtime_ns, sha256, checked_ns FROM files"
        if paths is not None:
            paths = list(paths)
            rows = self.db.execute(f"{sql} WHERE path IN ({_marks(paths)})", paths)  # noqa: S608
        else:
            rows = self.db.execute(sql)
        return {path: FileStamp(size, mtime, sha, checked) for path, size, mtime, sha, checked
                in rows}

    def apply(
        self,
        changes: Iterable[DocChange],
        removed: Sequence[str],
        restamped: Sequence[tuple[str, FileStamp]],
        *,
        full: bool,
        synced_at: str,
    ) -> list[str]:
        pending = iter(changes)
        first = next(pending, None)
        if first is None and not (full or removed or restamped):
            return []  # nothing changed: no write transaction, readers are never blocked
        new_ids: list[str] = []
        stream = pending if first is None else itertools.chain([first], pending)
        touched = full or bool(removed)
        with self._writing() as db:
            if full:
                self._drop_data(db)
                self._create_data(db, with_indexes=False)
                db.execute("DELETE FROM meta WHERE key LIKE 'journal_%'")
            for path in removed:
                self._delete_path(db, path)
            for batch in _batches(stream, 500):
                touched = True
                if not full:
                    new_ids.extend(self._unseen_ids(db, batch))
                    for doc, _ in batch:
                        self._delete_path(db, doc.path)
                self._insert(db, batch)
            if full:
                self._create_indexes(db)
            db.executemany(
                "UPDATE files SET size = ?, mtime_ns = ?, checked_ns = ? WHERE path = ?",
                [(s.size, s.mtime_ns, s.checked_ns, path) for path, s in restamped],
            )
            db.execute("INSERT OR REPLACE INTO meta VALUES ('last_sync', ?)", (synced_at,))
            if touched:  # derived data (vectors) compares this to know the facts moved
                db.execute("INSERT OR REPLACE INTO meta VALUES ('facts_token', ?)",
                           (os.urandom(8).hex(),))
        return new_ids

    @staticmethod
    def _unseen_ids(db: sqlite3.Connection, batch: Sequence[DocChange]) -> list[str]:
        """Typed facts in these documents whose id the index has never held."""
        ids = list(dict.fromkeys(f.id for doc, _ in batch for f in doc.facts if f.kind != TEXT))
        seen: set[str] = set()
        for chunk in _chunks(ids, 500):
            seen.update(r[0] for r in db.execute(
                f"SELECT id FROM facts WHERE id IN ({_marks(chunk)})", chunk))  # noqa: S608
        return [i for i in ids if i not in seen]

    @staticmethod
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

    @staticmethod
    def _insert(db: sqlite3.Connection, changes: Sequence[DocChange]) -> None:
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
        db.executemany("INSERT INTO files VALUES (?, ?, ?, ?, ?, ?, ?)", files)
        db.executemany("INSERT INTO facts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       facts)
        db.executemany("INSERT INTO facts_fts (rowid, body, names) VALUES (?, ?, ?)", fts)
        db.executemany("INSERT INTO fact_entities VALUES (?, ?, ?, ?)", links)
        db.executemany("INSERT INTO aliases VALUES (?, ?, ?, ?)", aliases)
        db.executemany("INSERT INTO warnings VALUES (?, ?, ?)", warnings)
        db.executemany("INSERT INTO citations VALUES (?, ?, ?, ?, ?)", citations)

    # -- reading ----------------------------------------------------------------------

    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def counts(self) -> IndexCounts:
        db = self.db
        by_kind = dict(db.execute("SELECT kind, COUNT(*) FROM facts WHERE kind != ? "
                                  "GROUP BY kind ORDER BY kind", (TEXT,)).fetchall())
        return IndexCounts(
            files=db.execute("SELECT COUNT(*) FROM files").fetchone()[0],
            facts_by_kind=by_kind,
            entities=db.execute("SELECT COUNT(*) FROM entities").fetchone()[0],
            chunks=db.execute("SELECT COUNT(*) FROM facts WHERE kind = ?", (TEXT,)).fetchone()[0],
            warnings=self.warning_count(),
        )

    def warning_count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM warnings").fetchone()[0])

    def locate(self, fact_id: str) -> list[str]:
        """Citations (`path#Lline`) of every row with this id, in path order."""
        rows = self.db.execute("SELECT path, line FROM facts WHERE id = ? ORDER BY path, line",
                               (fact_id,))
        return [f"{path}#L{line}" for path, line in rows]

    # -- search -----------------------------------------------------------------------

    def resolve_names(self, keys: Sequence[str]) -> dict[str, str]:
        wanted = json.dumps(list(dict.fromkeys(keys)))
        found: dict[str, str] = {}
        for key, entity in self.db.execute(
            "SELECT a.key, a.entity FROM aliases a WHERE a.key IN (SELECT value FROM json_each(?))"
            " UNION ALL SELECT k.value, k.value FROM json_each(?) k"
            " WHERE EXISTS (SELECT 1 FROM fact_entities WHERE key = k.value)",
            (wanted, wanted),
        ):
            found.setdefault(key, entity)
        return found

    def entity(self, key: str) -> EntityInfo | None:
        row = self.db.execute("SELECT key, name FROM entities WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        pages = self.db.execute("SELECT path, name FROM aliases WHERE entity = ? "
                                "ORDER BY path, rowid", (key,)).fetchall()
        page = pages[0][0] if pages else None
        names = tuple(dict.fromkeys(name for path, name in pages if path == page))
        return EntityInfo(key=key, name=names[0] if names else row[1], page=page,
                          aliases=names[1:])

    def lexical(self, fts: str, filters: Filters, limit: int) -> list[Candidate]:
        if filters == Filters():  # rank in the full-text index alone, then fetch the rows
            try:
                ranked = self.db.execute(
                    "SELECT rowid, bm25(facts_fts, 1.0, 0.5) FROM facts_fts WHERE facts_fts"
                    " MATCH ? ORDER BY 2 LIMIT ?", (fts, limit)).fetchall()
            except sqlite3.OperationalError as exc:
                raise IndexError_(f"search failed: {exc}") from exc
            scores = dict(ranked)
            found = self._candidates(f"SELECT {FACT_SELECT}, NULL FROM {FACT_FROM}"  # noqa: S608
                                     f" WHERE f.rowid IN ({_marks(ranked)})", list(scores))
            return sorted((replace(c, bm25=scores[c.rowid]) for c in found),
                          key=lambda c: (c.bm25, c.fact.path, c.fact.line))
        where, params = _where(filters)
        sql = (f"SELECT {FACT_SELECT}, bm25(facts_fts, 1.0, 0.5) FROM facts_fts"  # noqa: S608
               " JOIN facts f ON f.rowid = facts_fts.rowid JOIN files ON files.path = f.path"
               " LEFT JOIN lifecycle l ON l.id = f.id"
               f" WHERE facts_fts MATCH ? {where} ORDER BY {SCORE_COLUMN + 1}, f.day DESC,"
               " f.path, f.line LIMIT ?")
        return self._candidates(sql, [fts, *params, limit])

    def linked(self, keys: Sequence[str], filters: Filters, limit: int) -> list[Candidate]:
        if not keys:
            return []
        if filters == Filters():  # newest links first from the (key, day) index
            rowids = [r[0] for r in self.db.execute(
                f"SELECT fact FROM fact_entities WHERE key IN ({_marks(keys)})"  # noqa: S608
                " ORDER BY day DESC LIMIT ?", [*keys, limit])]  # NULL days sort last
            return self._candidates(f"SELECT {FACT_SELECT}, NULL FROM {FACT_FROM}"  # noqa: S608
                                    f" WHERE f.rowid IN ({_marks(rowids)}) {NEWEST}", rowids)
        where, params = _where(filters)
        sql = (f"SELECT {FACT_SELECT}, NULL FROM {FACT_FROM}"  # noqa: S608
               f" WHERE f.rowid IN (SELECT fact FROM fact_entities WHERE key IN ({_marks(keys)}))"
               f" {where} {NEWEST} LIMIT ?")
        return self._candidates(sql, [*keys, *params, limit])

    def recent(self, filters: Filters, limit: int) -> list[Candidate]:
        where, params = _where(filters)
        return self._candidates(f"SELECT {FACT_SELECT}, NULL FROM {FACT_FROM}"  # noqa: S608
                                f" WHERE 1 {where} {NEWEST} LIMIT ?", [*params, limit])

    def by_id(self, fact_id: str) -> list[Candidate]:
        if not _encodable(fact_id):
            return []  # undecodable bytes from a command line: no fact has such an id
        return self._candidates(f"SELECT {FACT_SELECT}, NULL FROM {FACT_FROM}"  # noqa: S608
                                " WHERE f.id = ? ORDER BY f.path, f.line", [fact_id])

    def by_ids(self, ids: Sequence[str]) -> list[Candidate]:
        """The first row of each id (path order), for ids that exist."""
        found: dict[str, Candidate] = {}
        for chunk in _chunks(list(dict.fromkeys(ids)), 500):
            for c in self._candidates(f"SELECT {FACT_SELECT}, NULL FROM {FACT_FROM}"  # noqa: S608
                                      f" WHERE f.id IN ({_marks(chunk)})"
                                      " ORDER BY f.path, f.line", chunk):
                found.setdefault(c.fact.id, c)
        return list(found.values())

    def by_rowids(self, rowids: Sequence[int], filters: Filters) -> list[Candidate]:
        """The facts with these row keys that pass `filters`, in no particular order."""
        where, params = _where(filters)
        out: list[Candidate] = []
        for chunk in _chunks(list(rowids), 500):
            out.extend(self._candidates(f"SELECT {FACT_SELECT}, NULL FROM {FACT_FROM}"  # noqa: S608
                                        f" WHERE f.rowid IN ({_marks(chunk)}) {where}",
                                        [*chunk, *params]))
        return out

    def neighbours(self, rowids: Sequence[int]) -> dict[int, tuple[int, ...]]:
        """For each fact, the facts just before and after it in its file (by line)."""
        out: dict[int, tuple[int, ...]] = {}
        for chunk in _chunks(list(rowids), 500):
            sql = NEIGHBOURS + f" WHERE c.rowid IN ({_marks(chunk)})"
            for rowid, before, after in self.db.execute(sql, chunk):
                out[rowid] = tuple(n for n in (before, after) if n is not None)
        return out

    def _candidates(self, sql: str, params: Sequence[object]) -> list[Candidate]:
        try:
            rows = self.db.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as exc:  # a damaged page read only now, or a bad query
            if damaged(exc):
                raise IndexDamaged(f"search failed: {exc}; `memfold index --full` rebuilds "
                                   "the index") from exc
            raise IndexError_(f"search failed: {exc}") from exc
        links: dict[int, list[str]] = {}
        for chunk in _chunks([row[0] for row in rows], 500):
            for fact, key in self.db.execute(
                f"SELECT fact, key FROM fact_entities WHERE fact IN ({_marks(chunk)})",  # noqa: S608
                chunk,
            ):
                links.setdefault(fact, []).append(key)
        return [Candidate(fact=_fact(row), bm25=row[SCORE_COLUMN],
                          links=tuple(links.get(row[0], ())), sha256=row[15], rowid=row[0],
                          life=_life(row[16:SCORE_COLUMN])) for row in rows]

    # -- lifecycle (replayed from the journal) ------------------------------------------

    def citations(self) -> list[tuple[str, int, str, int, str, str | None]]:
        """Every generated summary line: (page, line, source, source line, sha recorded,
        the cited fact's current content or None when nothing is there any more)."""
        return list(self.db.execute(
            "SELECT c.path, c.line, c.source, c.source_line, c.sha, f.content FROM citations c"
            " LEFT JOIN facts f ON f.path = c.source AND f.line = c.source_line"
            " AND f.kind != 'text' ORDER BY c.path, c.line"))

    def journal_position(self) -> tuple[int, str, int]:
        """(bytes of the journal replayed, hash of its last event, its seq), read in one
        statement so the three agree while another process replays."""
        meta = dict(self.db.execute("SELECT key, value FROM meta WHERE key IN "
                                    "('journal_offset', 'journal_hash', 'journal_seq')"))
        return (int(meta.get("journal_offset") or 0), meta.get("journal_hash") or GENESIS,
                int(meta.get("journal_seq") or 0))

    def apply_events(self, events: Sequence[Event], position: tuple[int, str, int], *,
                     reset: bool = False) -> None:
        """Fold journal events into the lifecycle table, in one transaction; events a
        concurrent process already applied (by seq) are skipped.  With `reset` the table
        is cleared first, in the same transaction, and every event is applied."""
        with self._writing() as db:
            if reset:
                db.execute("DELETE FROM lifecycle")
                db.execute("DELETE FROM events")
                db.execute("DELETE FROM meta WHERE key LIKE 'journal_%'")
            done = int(self.meta("journal_seq") or 0)
            fresh = [e for e in events if e.seq > done]
            touched = {e.id for e in fresh} | {e.record.by for e in fresh
                                                if isinstance(e.record, Supersede)}
            touched |= {i for e in fresh if isinstance(e.record, Retain) for i in e.record.ids}
            states = self.life(touched)
            # a restore edits the list of the fact that had superseded it: load that one too
            states.update(self.life({st.superseded_by for st in states.values()
                                     if st.superseded_by} - touched))
            replay(fresh, states)
            db.executemany(f"INSERT OR REPLACE INTO lifecycle VALUES ({_marks(LIFE_FIELDS)})",  # noqa: S608
                           [_life_row(st) for st in states.values()])
            db.executemany("INSERT OR REPLACE INTO events VALUES (?, ?, ?, ?, ?)",
                           [(e.seq, e.ts, e.event, e.id, json.dumps(e.data, ensure_ascii=False))
                            for e in fresh])
            if fresh or position[2] >= done:
                db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", [
                    ("journal_offset", str(position[0])), ("journal_hash", position[1]),
                    ("journal_seq", str(max(position[2], done)))])

    def link_problems(self) -> LinkProblems:
        """Three queries over the whole index; see LINK_QUERIES (status and index only)."""
        duplicates, dangling, orphans = (self.db.execute(sql).fetchall() for sql in LINK_QUERIES)
        places: dict[str, list[tuple[str, int]]] = {}
        for fact_id, path, line in duplicates:
            places.setdefault(fact_id, []).append((path, line))
        return LinkProblems(
            duplicates=tuple(DuplicateId(i, tuple(p)) for i, p in places.items()),
            dangling=tuple(DanglingPointer(*row) for row in dangling),
            orphans=tuple(OrphanState(i, seq, event, json.loads(data))
                          for i, seq, event, data in orphans))

    def life(self, ids: Iterable[str]) -> dict[str, LifeState]:
        states: dict[str, LifeState] = {}
        for chunk in _chunks(list(ids), 500):
            for row in self.db.execute(f"SELECT {', '.join(LIFE_FIELDS)} FROM lifecycle"  # noqa: S608
                                       f" WHERE id IN ({_marks(chunk)})", chunk):
                state = _life(row[1:], fact_id=row[0])
                if state is not None:
                    states[state.id] = state
        return states

    def events_for(self, fact_id: str) -> list[Event]:
        rows = self.db.execute("SELECT seq, ts, event, id, data FROM events WHERE id = ? OR"
                               " (event = 'supersede' AND json_extract(data, '$.by') = ?)"
                               " OR (event = 'retain' AND EXISTS (SELECT 1 FROM"
                               " json_each(data, '$.ids') WHERE value = ?)) ORDER BY seq",
                               (fact_id, fact_id, fact_id))
        return [Event.of(seq=seq, ts=ts, event=event, id=id_, data=json.loads(data))
                for seq, ts, event, id_, data in rows]

    def tracked_contents(self, paths: Sequence[str] | None) -> list[tuple[str, str, str, int]]:
        """(id, content, recorded content sha, rev) of facts the journal has a content hash
        for — in `paths`, or everywhere when None."""
        sql = ("SELECT f.id, f.content, l.content_sha, l.rev FROM facts f JOIN lifecycle l"
               " ON l.id = f.id WHERE l.content_sha IS NOT NULL AND f.explicit = 1")
        if paths is None:
            return list(self.db.execute(sql))
        found: list[tuple[str, str, str, int]] = []
        for chunk in _chunks(list(paths), 500):
            found.extend(self.db.execute(f"{sql} AND f.path IN ({_marks(chunk)})", chunk))  # noqa: S608
        return found

    def warnings(self) -> list[ParseWarning]:
        rows = self.db.execute("SELECT path, line, message FROM warnings ORDER BY path, line")
        return [ParseWarning(*row) for row in rows]

    def dump(self) -> list[tuple[object, ...]]:
        queries = (
            "SELECT 'file', path, role, day, size, sha256 FROM files ORDER BY path",
            "SELECT 'fact', id, path, line, end_line, kind, content, entities, params,"
            " confidence, importance, valid_from, valid_until, day, explicit FROM facts"
            " ORDER BY path, line, id",
            "SELECT 'link', f.path, f.line, f.id, l.key, l.name FROM fact_entities l"
            " JOIN facts f ON f.rowid = l.fact ORDER BY 2, 3, 4, 5",
            "SELECT 'fts', f.path, f.line, f.id, t.body, t.names FROM facts_fts t"
            " JOIN facts f ON f.rowid = t.rowid ORDER BY 2, 3, 4",
            "SELECT 'alias', path, entity, key, name FROM aliases ORDER BY 2, 3, 4, 5",
            "SELECT 'warning', path, line, message FROM warnings ORDER BY 2, 3, 4",
            f"SELECT 'life', {', '.join(LIFE_FIELDS)} FROM lifecycle ORDER BY id",  # noqa: S608
            "SELECT 'event', seq, ts, event, id, data FROM events ORDER BY seq",
            "SELECT 'cite', path, line, source, source_line, sha FROM citations ORDER BY 2, 3",
        )
        rows: list[tuple[object, ...]] = []
        for sql in queries:
            rows.extend(self.db.execute(sql).fetchall())
        return rows

    def scrub(self) -> None:
        """Leave no copy of deleted rows in the index file or its WAL (a purge): freed pages
        are zeroed (secure_delete), old full-text segments merged away, the file rebuilt
        (VACUUM) and the WAL checkpointed and truncated before and after."""
        self.db.execute("INSERT INTO facts_fts(facts_fts) VALUES ('optimize')")
        self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.db.execute("VACUUM")
        self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        self.db.close()


LIFE_FIELDS = ("id", "status", "reason", "superseded_by", "superseded_on", "supersedes",
               "derived_from", "confidence", "rev", "note", "last_used", "uses", "content_sha",
               "support", "contradict", "confidence_on", "origin")
# Links hand edits can break.  Duplicates group on the covering id index (text chunk ids are
# derived from path and text, so they never collide); the other two start from the few
# lifecycle rows with a pointer or a note and probe the id index for each (CROSS JOIN keeps
# lifecycle the outer loop, which the ORDER BY would otherwise turn around).
LINK_QUERIES = (
    "SELECT id, path, line FROM facts WHERE kind != 'text' AND id IN"
    " (SELECT id FROM facts GROUP BY id HAVING COUNT(*) > 1) ORDER BY id, path, line",
    "SELECT l.id, f.path, f.line, l.status, l.superseded_by FROM lifecycle l"
    " CROSS JOIN facts f ON f.id = l.id WHERE l.status IN ('superseded', 'merged')"
    " AND COALESCE(l.superseded_by, '') != ''"
    " AND NOT EXISTS (SELECT 1 FROM facts g WHERE g.id = l.superseded_by)"
    " ORDER BY f.path, f.line",
    # the latest note, and the latest supersede or merge, about an id no file holds (not
    # purged) — unless re-attached since: the same note on a fact that exists, or a fact that
    # exists superseded by hand by the same newer fact
    "WITH gone AS (SELECT id, note, status FROM lifecycle l"
    "  WHERE (COALESCE(l.note, '') != '' OR l.status IN ('superseded', 'merged'))"
    "  AND NOT EXISTS (SELECT 1 FROM facts f WHERE f.id = l.id)"
    "  AND NOT EXISTS (SELECT 1 FROM events p WHERE p.id = l.id AND p.event = 'purge')),"
    " last AS (SELECT id, (SELECT MAX(seq) FROM events x WHERE x.id = g.id"
    "  AND x.event = 'note') AS seq FROM gone g WHERE COALESCE(g.note, '') != ''"
    "  UNION ALL SELECT id, (SELECT MAX(seq) FROM events x WHERE x.id = g.id"
    "  AND x.event IN ('supersede', 'merge')) FROM gone g"
    "  WHERE g.status IN ('superseded', 'merged'))"
    " SELECT last.id, e.seq, e.event, e.data FROM last JOIN events e ON e.seq = last.seq"
    " WHERE NOT EXISTS (SELECT 1 FROM events r JOIN facts f ON f.id = r.id WHERE r.seq > e.seq"
    "  AND (e.event = 'note' AND r.event = 'note'"
    "   AND json_extract(r.data, '$.note') = json_extract(e.data, '$.note')"
    "  OR e.event != 'note' AND r.event = 'supersede'"
    "   AND json_extract(r.data, '$.judge') = 'manual' AND json_extract(r.data, '$.by') ="
    "   json_extract(e.data, CASE e.event WHEN 'merge' THEN '$.into' ELSE '$.by' END)))"
    " ORDER BY e.seq",
)
FACT_SELECT = (
    "f.rowid, f.id, f.kind, f.content, f.path, f.line, f.end_line, f.entities, f.params,"
    " f.confidence, f.importance, f.valid_from, f.valid_until, f.day, f.explicit, files.sha256, "
    + ", ".join(f"l.{name}" for name in LIFE_FIELDS[1:])
)
SCORE_COLUMN = 16 + len(LIFE_FIELDS) - 1  # the column after FACT_SELECT (bm25 or NULL)
FACT_FROM = ("facts f JOIN files ON files.path = f.path"
             " LEFT JOIN lifecycle l ON l.id = f.id")
NEIGHBOURS = ("SELECT c.rowid,"
              " (SELECT n.rowid FROM facts n WHERE n.path = c.path AND n.line < c.line"
              "  ORDER BY n.line DESC LIMIT 1),"
              " (SELECT n.rowid FROM facts n WHERE n.path = c.path AND n.line > c.line"
              "  ORDER BY n.line LIMIT 1) FROM facts c")
NEWEST = "ORDER BY f.day IS NULL, f.day DESC, f.path, f.line"


def _life(row: Sequence[Any], fact_id: str | None = None) -> LifeState | None:
    """A LifeState from lifecycle columns (after `id`); None when the fact has no row."""
    (status, reason, by, on, supersedes, derived, confidence, rev, note, used, uses,
     sha, support, contradict, confidence_on, origin) = row
    if rev is None and fact_id is None:
        return None
    return LifeState(
        id=fact_id or "", status=status, reason=reason, superseded_by=by, superseded_on=on,
        supersedes=json.loads(supersedes) if supersedes else [],
        derived_from=json.loads(derived) if derived else [], confidence=confidence,
        rev=int(rev or 0), note=note, last_used=used, uses=int(uses or 0), content_sha=sha,
        support=json.loads(support) if support else [],
        contradict=json.loads(contradict) if contradict else [], confidence_on=confidence_on,
        origin=origin)


def _life_row(st: LifeState) -> tuple[object, ...]:
    return (st.id, st.status, st.reason, st.superseded_by, st.superseded_on,
            json.dumps(st.supersedes) if st.supersedes else None,
            json.dumps(st.derived_from) if st.derived_from else None, st.confidence, st.rev,
            st.note, st.last_used, st.uses, st.content_sha,
            json.dumps(st.support) if st.support else None,
            json.dumps(st.contradict) if st.contradict else None, st.confidence_on, st.origin)


def _fact(row: Sequence[object]) -> Fact:
    start, end = _day(row[11]), _day(row[12])
    return Fact(
        id=str(row[1]), kind=str(row[2]), content=str(row[3]), path=str(row[4]),
        line=int(row[5]), end_line=int(row[6]),  # type: ignore[call-overload]
        entities=tuple(json.loads(str(row[7]))),
        params=json.loads(str(row[8])) if row[8] else {},
        confidence=row[9], importance=row[10],  # type: ignore[arg-type]
        valid=Interval(start, end) if start or end else None,
        day=_day(row[13]), explicit_id=bool(row[14]),
    )


def _day(value: object) -> date | None:
    return parse_iso_day(value) if isinstance(value, str) else None


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


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _marks(items: Sequence[object]) -> str:
    return ", ".join("?" * len(items))


def _chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _where(filters: Filters) -> tuple[str, list[object]]:
    """SQL conditions (placeholders only) for the filters, to append after a WHERE."""
    clauses: list[str] = []
    params: list[object] = []
    if filters.kinds:
        clauses.append(f"f.kind IN ({_marks(filters.kinds)})")
        params.extend(filters.kinds)
    if filters.window:
        # written within the window, or valid during it; both arms can use an index
        start = filters.window.start.isoformat() if filters.window.start else "0000-01-01"
        end = filters.window.end.isoformat() if filters.window.end else "9999-12-31"
        clauses.append("(f.day BETWEEN ? AND ? OR (f.valid_until >= ?"
                       " AND COALESCE(f.valid_from, f.day) <= ?))")
        params.extend([start, end, start, end])
    if filters.entity_keys:
        clauses.append("f.rowid IN (SELECT fact FROM fact_entities WHERE key IN "  # noqa: S608
                       f"({_marks(filters.entity_keys)}))")
        params.extend(filters.entity_keys)
    return "".join(f" AND {c}" for c in clauses), params
