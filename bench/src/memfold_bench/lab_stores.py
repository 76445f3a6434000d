"""The lab's two record stores: one JSON file and one SQLite database, same contract.

A record is `id, text, parent, rev, note, sha`: the first three come from the source bundle
(`sources.json`, a list of `{id, text, parent}`), `rev` and `note` belong to the store, and
`sha` is the SHA-256 of the bundle the record was built from.  Both stores answer the same
five questions — a record by id, the ids whose text contains a string (case-sensitive, a
plain scan in both), the children of a parent, whether a record still matches its source
(`fresh`), and a compare-and-set note update — and both can be rebuilt from the source,
backed up and restored.

`JsonStore` keeps every record in one file.  Readers parse the whole file on every call and
take no lock: the file is only ever replaced whole (memfold's `replace_atomically`: a unique
temporary file in the same directory, fsync, `os.replace`, fsync of the directory), so a reader
sees one version or the next.  Writers take `WriteLock`, an flock on a separate `.lock` file
whose inode never changes, and do their compare-and-set under it.  Any writer that skips the
lock can lose an update; the protocol only holds between writers that share it.

`SqliteStore` keeps one table with an index on `parent`, opened in autocommit mode
(`isolation_level=None`) with a busy timeout.  Its compare-and-set is a single conditional
`UPDATE ... WHERE id = ? AND rev = ?`: SQLite runs one writer at a time, and the row counts
tell the winner from the loser.  A rebuild reads and rewrites inside `BEGIN IMMEDIATE`.

Rebuild (both stores) reads the bundle's bytes once, hashes and parses those same bytes, keeps
every note, and raises a record's revision by one when the bundle it came from has changed.
Rebuilds are meant to run while no other writer is active; the lab does not race them.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Sequence
from contextlib import closing
from pathlib import Path
from typing import Protocol, TypedDict, cast

from memfold.workspace.files import WriteLock, replace_atomically

SOURCE_NAME = "sources.json"
JSON_NAME = "memory.json"
SQLITE_NAME = "memory.sqlite"
BUSY_TIMEOUT_S = 10.0
STALE_MESSAGE = "source changed; rebuild required"


class SourceRow(TypedDict):
    id: int
    text: str
    parent: int | None


class Record(TypedDict):
    id: int
    text: str
    parent: int | None
    rev: int
    note: str
    sha: str


class StaleSource(Exception):
    """A record was built from a source bundle that has since changed."""

    def __init__(self) -> None:
        super().__init__(STALE_MESSAGE)


class Store(Protocol):
    name: str
    source: Path

    def all(self) -> list[Record]: ...
    def get(self, key: int) -> Record: ...
    def search(self, term: str) -> list[int]: ...
    def children(self, parent: int) -> list[int]: ...
    def cas(self, key: int, rev: int, note: str) -> bool: ...
    def rebuild(self) -> None: ...
    def backup(self, target: Path) -> None: ...
    def restore(self, backup: Path) -> None: ...
    def close(self) -> None: ...


# -- the source bundle ----------------------------------------------------------------------


def write_source(path: Path, rows: Sequence[SourceRow]) -> None:
    replace_atomically(path, json.dumps(list(rows), ensure_ascii=False).encode())


def source_sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def rebuilt(previous: Iterable[Record], source: Path) -> list[Record]:
    """The records of the bundle as it is now, with the notes and revisions carried over."""
    data = source.read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    prior = {r["id"]: r for r in previous}
    records = []
    for row in cast(list[SourceRow], json.loads(data)):
        old = prior.get(row["id"])
        rev = 0 if old is None else old["rev"] + int(old["sha"] != sha)
        records.append(Record(id=row["id"], text=row["text"], parent=row["parent"], rev=rev,
                              note="" if old is None else old["note"], sha=sha))
    check_parents(records)
    return records


def check_parents(records: Sequence[Record]) -> None:
    """The file store has no foreign key: a parent that is not a record is refused here."""
    ids = {r["id"] for r in records}
    for r in records:
        if r["parent"] is not None and r["parent"] not in ids:
            raise ValueError(f"record {r['id']} names parent {r['parent']}, not in the source")


def fresh(store: Store, key: int) -> Record:
    """The record, if the bundle it was built from is still the bundle on disk."""
    record = store.get(key)
    if record["sha"] != source_sha(store.source):
        raise StaleSource()
    return record


def open_store(kind: str, lab: Path) -> Store:
    """A store over the lab directory's files (what the racing writer processes open)."""
    source = lab / SOURCE_NAME
    if kind == "json":
        return JsonStore(lab / JSON_NAME, source)
    if kind == "sqlite":
        return SqliteStore(lab / SQLITE_NAME, source)
    raise ValueError(f"unknown store {kind!r}: json or sqlite")


# -- one JSON file ---------------------------------------------------------------------------


class JsonStore:
    name = "json"

    def __init__(self, path: Path, source: Path) -> None:
        self.path = path
        self.source = source
        self.lock = WriteLock(path.with_name(path.name + ".lock"))

    def all(self) -> list[Record]:
        if not self.path.exists():
            return []
        return cast(list[Record], json.loads(self.path.read_bytes()))

    def get(self, key: int) -> Record:
        for record in self.all():
            if record["id"] == key:
                return record
        raise KeyError(key)

    def search(self, term: str) -> list[int]:
        return sorted(r["id"] for r in self.all() if term in r["text"])

    def children(self, parent: int) -> list[int]:
        return sorted(r["id"] for r in self.all() if r["parent"] == parent)

    def _write(self, records: Sequence[Record]) -> None:
        replace_atomically(self.path, json.dumps(list(records), ensure_ascii=False).encode())

    def cas(self, key: int, rev: int, note: str) -> bool:
        with self.lock.held():
            records = self.all()
            record = next(r for r in records if r["id"] == key)
            if record["rev"] != rev:
                return False
            record["rev"], record["note"] = rev + 1, note
            self._write(records)
            return True

    def rebuild(self) -> None:
        with self.lock.held():
            self._write(rebuilt(self.all(), self.source))

    def backup(self, target: Path) -> None:
        with self.lock.held():
            replace_atomically(target, self.path.read_bytes())

    def restore(self, backup: Path) -> None:
        with self.lock.held():
            replace_atomically(self.path, backup.read_bytes())

    def close(self) -> None:
        """Nothing stays open between calls."""


# -- one SQLite database ---------------------------------------------------------------------

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS records ("
    " id INTEGER PRIMARY KEY, text TEXT NOT NULL,"
    " parent INTEGER REFERENCES records(id) DEFERRABLE INITIALLY DEFERRED,"
    " rev INTEGER NOT NULL CHECK (rev >= 0), note TEXT NOT NULL, sha TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS records_by_parent ON records(parent)",
)
COLUMNS = "id, text, parent, rev, note, sha"


def connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA synchronous = FULL")
    return db


class SqliteStore:
    name = "sqlite"

    def __init__(self, path: Path, source: Path) -> None:
        self.path = path
        self.source = source
        self.db = connect(path)
        for statement in SCHEMA:
            self.db.execute(statement)

    def _records(self, where: str = "", params: tuple[object, ...] = ()) -> list[Record]:
        rows = self.db.execute(f"SELECT {COLUMNS} FROM records {where} ORDER BY id", params)  # noqa: S608
        return [Record(id=r[0], text=r[1], parent=r[2], rev=r[3], note=r[4], sha=r[5])
                for r in rows]

    def _ids(self, where: str, params: tuple[object, ...]) -> list[int]:
        rows = self.db.execute(f"SELECT id FROM records WHERE {where} ORDER BY id", params)  # noqa: S608
        return [int(r[0]) for r in rows]

    def all(self) -> list[Record]:
        return self._records()

    def get(self, key: int) -> Record:
        found = self._records("WHERE id = ?", (key,))
        if not found:
            raise KeyError(key)
        return found[0]

    def search(self, term: str) -> list[int]:
        return self._ids("instr(text, ?) > 0", (term,))  # instr is case-sensitive

    def children(self, parent: int) -> list[int]:
        return self._ids("parent = ?", (parent,))

    def cas(self, key: int, rev: int, note: str) -> bool:
        changed = self.db.execute("UPDATE records SET note = ?, rev = rev + 1"
                                  " WHERE id = ? AND rev = ?", (note, key, rev))
        return changed.rowcount == 1

    def rebuild(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            records = rebuilt(self.all(), self.source)
            self.db.execute("DELETE FROM records")
            self.db.executemany(
                f"INSERT INTO records ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",  # noqa: S608
                [(r["id"], r["text"], r["parent"], r["rev"], r["note"], r["sha"])
                 for r in records])
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise

    def backup(self, target: Path) -> None:
        with closing(sqlite3.connect(target)) as copy:
            self.db.backup(copy)

    def restore(self, backup: Path) -> None:
        with closing(sqlite3.connect(backup)) as copy:
            copy.backup(self.db)

    def close(self) -> None:
        self.db.close()
