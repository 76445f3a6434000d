"""Which row holds a block id that is on more than one bullet (`shadowed`: the others).

A bullet pasted with its `^blockid` gives one id to two facts.  The first holder keeps the id:
the copy in the file its retain was written to (the journal's `path`), else the one whose text
the journal last recorded (`content_sha`), else the oldest — a dated file before an undated
one, older dates first, then path and line.  Every later copy is listed in `shadowed`: it is
still a fact recall finds, but it takes none of the id's lifecycle (uses, notes, revisions,
supersedes), a lookup by id never returns it first, and an edit of it is no revision.

`settle` recomputes the table from the ids in `duplicate_ids` (a handful, usually none), after
every write that can change the answer: rows replaced or appended, journal events folded.
"""

from __future__ import annotations

import sqlite3
from typing import NamedTuple

from memfold.index.sqlite.rows import chunks, marks
from memfold.journal.events import content_sha


class Copy(NamedTuple):
    rowid: int
    id: str
    path: str
    line: int
    day: str | None
    content: str


def holder(copies: list[Copy], *, path: str | None, sha: str | None) -> int:
    """The row key of the copy that keeps the id (see the module docstring)."""
    return min(copies, key=lambda c: (c.path != path, content_sha(c.content) != sha,
                                      c.day is None, c.day or "", c.path, c.line)).rowid


def settle(db: sqlite3.Connection) -> None:
    """Recompute `shadowed` (the caller holds the write transaction)."""
    db.execute("DELETE FROM shadowed")
    ids = [row[0] for row in db.execute("SELECT id FROM duplicate_ids")]
    for chunk in chunks(ids, 500):
        copies: dict[str, list[Copy]] = {}
        for row in db.execute(
                "SELECT f.rowid, f.id, files.path, f.line, files.day, f.content FROM facts f"  # noqa: S608
                f" JOIN files ON files.id = f.file WHERE f.id IN ({marks(chunk)})", chunk):
            copies.setdefault(row[1], []).append(Copy(*row))
        shas = dict(db.execute(
            f"SELECT id, content_sha FROM lifecycle WHERE id IN ({marks(chunk)})",  # noqa: S608
            chunk))
        paths = _retained_in(db, chunk)
        db.executemany("INSERT INTO shadowed VALUES (?)", [
            (c.rowid,) for fact_id, found in copies.items()
            for keep in [holder(found, path=paths.get(fact_id), sha=shas.get(fact_id))]
            for c in found if c.rowid != keep])


def _retained_in(db: sqlite3.Connection, ids: list[str]) -> dict[str, str]:
    """The file each of these ids was first retained to, as the journal says."""
    found: dict[str, str] = {}
    for fact_id, path in db.execute(
            "SELECT j.value, json_extract(e.data, '$.path') FROM events e,"  # noqa: S608
            " json_each(e.data, '$.ids') j WHERE e.event = 'retain'"
            " AND json_extract(e.data, '$.path') IS NOT NULL"
            f" AND j.value IN ({marks(ids)}) ORDER BY e.seq", ids):
        found.setdefault(fact_id, path)
    return found
