"""The lifecycle state the SQLite index keeps, replayed from the journal: how far the journal
was replayed, each fact's state (`lifecycle`), the events by id (`events`), the review items
(`review`, folded by sqlite.review), the generated lines' citations, and the links hand
edits can break.

Functions of an open connection; `SqliteIndex` calls them (writes inside its transaction) and
turns the driver's errors into memfold errors.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence

from memfold.index.base import (
    Citation,
    DanglingPointer,
    DuplicateId,
    JournalPosition,
    LinkProblems,
    OrphanState,
    TrackedContent,
    Unjudged,
)
from memfold.index.sqlite import review
from memfold.index.sqlite.rows import (
    HOLDER_FIRST,
    LIFE_FIELDS,
    NOT_SHADOWED,
    chunks,
    life_of,
    life_row,
    marks,
)
from memfold.index.sqlite.search import meta
from memfold.journal.events import Retain, Supersede
from memfold.journal.fold import LifeState, replay
from memfold.journal.log import GENESIS, Event

# Links hand edits can break.  Duplicates come from `duplicate_ids`, which every write keeps
# (ids on more than one row: grouping the whole id index instead cost every `memfold index`
# 100 ms at 10,000 files); the other two start from the few lifecycle rows with a pointer or
# a note and probe the id index for each (CROSS JOIN keeps lifecycle the outer loop, which
# the ORDER BY would otherwise turn around).
LINK_QUERIES = (
    "SELECT f.id, files.path, f.line FROM facts f JOIN files ON files.id = f.file"  # noqa: S608
    " WHERE f.kind != 'text' AND f.id IN (SELECT id FROM duplicate_ids)"
    f" ORDER BY 1, {HOLDER_FIRST}, 2, 3",  # the holder first: `_duplicate` says so
    "SELECT l.id, files.path, f.line, l.status, l.superseded_by FROM lifecycle l"  # noqa: S608
    " CROSS JOIN facts f ON f.id = l.id JOIN files ON files.id = f.file"
    f" WHERE l.status IN ('superseded', 'merged') AND {NOT_SHADOWED}"
    " AND COALESCE(l.superseded_by, '') != ''"
    " AND NOT EXISTS (SELECT 1 FROM facts g WHERE g.id = l.superseded_by)"
    " ORDER BY files.path, f.line",
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


def journal_position(db: sqlite3.Connection) -> JournalPosition:
    """(bytes of the journal replayed, hash of its last event, its seq), read in one
    statement so the three agree while another process replays."""
    values = dict(db.execute("SELECT key, value FROM meta WHERE key IN "
                             "('journal_offset', 'journal_hash', 'journal_seq')"))
    return JournalPosition(int(values.get("journal_offset") or 0),
                           values.get("journal_hash") or GENESIS,
                           int(values.get("journal_seq") or 0))


def apply_events(db: sqlite3.Connection, events: Sequence[Event],
                 position: tuple[int, str, int], *, reset: bool) -> None:
    """Fold journal events into the lifecycle table (the caller holds the transaction);
    events a concurrent process already applied (by seq) are skipped.  With `reset` the
    table is cleared first and every event is applied."""
    if reset:
        db.execute("DELETE FROM lifecycle")
        db.execute("DELETE FROM events")
        db.execute("DELETE FROM review")
        db.execute("DELETE FROM meta WHERE key LIKE 'journal_%'")
    done = int(meta(db, "journal_seq") or 0)
    fresh = [e for e in events if e.seq > done]
    touched = {e.id for e in fresh} | {e.record.by for e in fresh
                                        if isinstance(e.record, Supersede)}
    touched |= {i for e in fresh if isinstance(e.record, Retain) for i in e.record.ids}
    states = life(db, touched)
    # a restore edits the list of the fact that had superseded it: load that one too
    states.update(life(db, {st.superseded_by for st in states.values()
                            if st.superseded_by} - touched))
    replay(fresh, states)
    db.executemany(f"INSERT OR REPLACE INTO lifecycle VALUES ({marks(LIFE_FIELDS)})",  # noqa: S608
                   [life_row(st) for st in states.values()])
    db.executemany("INSERT OR REPLACE INTO events VALUES (?, ?, ?, ?, ?)",
                   [(e.seq, e.ts, e.event, e.id, json.dumps(e.data, ensure_ascii=False))
                    for e in fresh])
    review.fold(db, fresh)
    if fresh or position[2] >= done:
        db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", [
            ("journal_offset", str(position[0])), ("journal_hash", position[1]),
            ("journal_seq", str(max(position[2], done)))])


def life(db: sqlite3.Connection, ids: Iterable[str]) -> dict[str, LifeState]:
    states: dict[str, LifeState] = {}
    for chunk in chunks(list(ids), 500):
        for row in db.execute(f"SELECT {', '.join(LIFE_FIELDS)} FROM lifecycle"  # noqa: S608
                              f" WHERE id IN ({marks(chunk)})", chunk):
            state = life_of(row[1:], fact_id=row[0])
            if state is not None:
                states[state.id] = state
    return states


def events_for(db: sqlite3.Connection, fact_id: str) -> list[Event]:
    rows = db.execute("SELECT seq, ts, event, id, data FROM events WHERE id = ? OR"
                      " (event = 'supersede' AND json_extract(data, '$.by') = ?)"
                      " OR (event = 'retain' AND EXISTS (SELECT 1 FROM"
                      " json_each(data, '$.ids') WHERE value = ?)) ORDER BY seq",
                      (fact_id, fact_id, fact_id))
    return [Event.of(seq=seq, ts=ts, event=event, id=id_, data=json.loads(data))
            for seq, ts, event, id_, data in rows]


def events_of_kinds(db: sqlite3.Connection, kinds: Sequence[str], *,
                    limit: int | None = None) -> list[Event]:
    """Events of these kinds, newest first (from the (event, seq) index)."""
    sql = (f"SELECT seq, ts, event, id, data FROM events WHERE event IN ({marks(kinds)})"  # noqa: S608
           " ORDER BY seq DESC" + (" LIMIT ?" if limit is not None else ""))
    found = db.execute(sql, [*kinds, *([limit] if limit is not None else [])])
    return [Event.of(seq=seq, ts=ts, event=event, id=id_, data=json.loads(data))
            for seq, ts, event, id_, data in found]


def retained_with_key(db: sqlite3.Connection, key: str) -> Event | None:
    row = db.execute("SELECT seq, ts, event, id, data FROM events WHERE event = 'retain'"
                     " AND json_extract(data, '$.idempotency_key') = ? ORDER BY seq LIMIT 1",
                     (key,)).fetchone()
    if row is None:
        return None
    seq, ts, event, id_, data = row
    return Event.of(seq=seq, ts=ts, event=event, id=id_, data=json.loads(data))


def events_at(db: sqlite3.Connection, seqs: Sequence[int]) -> list[Event]:
    found: list[tuple[int, str, str, str, str]] = []
    for chunk in chunks(list(seqs), 500):
        found += db.execute("SELECT seq, ts, event, id, data FROM events"  # noqa: S608
                            f" WHERE seq IN ({marks(chunk)})", chunk)
    return [Event.of(seq=seq, ts=ts, event=event, id=id_, data=json.loads(data))
            for seq, ts, event, id_, data in sorted(found)]


def unretained_in_order(db: sqlite3.Connection) -> list[Unjudged]:
    """(day ordinal or None, id) of every typed fact no retain event lists (its lifecycle
    row, if any, has no `retained_on`), in the order they were written: undated first,
    then by day, path and line."""
    return [Unjudged(*row) for row in db.execute(
        "SELECT f.day, f.id FROM facts f JOIN files ON files.id = f.file"
        " LEFT JOIN lifecycle l ON l.id = f.id WHERE f.kind != 'text'"
        " AND l.retained_on IS NULL ORDER BY f.day IS NOT NULL, f.day, files.path, f.line")]


def tracked_contents(db: sqlite3.Connection,
                     paths: Sequence[str] | None) -> list[TrackedContent]:
    """(id, content, recorded content sha, rev) of facts the journal has a content hash
    for — in `paths`, or everywhere when None."""
    sql = ("SELECT f.id, f.content, l.content_sha, l.rev FROM facts f JOIN lifecycle l"  # noqa: S608
           " ON l.id = f.id WHERE l.content_sha IS NOT NULL AND f.explicit = 1"
           f" AND {NOT_SHADOWED}")  # a later copy of a duplicated id is no revision of it
    if paths is None:
        return [TrackedContent(*row) for row in db.execute(sql)]
    found: list[TrackedContent] = []
    for chunk in chunks(list(paths), 500):
        rows = db.execute(f"{sql} AND f.file IN (SELECT id FROM files"  # noqa: S608
                          f" WHERE path IN ({marks(chunk)}))", chunk)
        found.extend(TrackedContent(*row) for row in rows)
    return found


def citations(db: sqlite3.Connection) -> list[Citation]:
    """Every generated summary line: (page, line, source, source line, sha recorded,
    the cited fact's current content or None when nothing is there any more)."""
    return [Citation(*row) for row in db.execute(
        "SELECT c.path, c.line, c.source, c.source_line, c.sha, f.content FROM citations c"
        " LEFT JOIN files s ON s.path = c.source"
        " LEFT JOIN facts f ON f.file = s.id AND f.line = c.source_line AND f.kind != 'text'"
        " ORDER BY c.path, c.line")]


def link_problems(db: sqlite3.Connection) -> LinkProblems:
    """Three queries over the whole index; see LINK_QUERIES (status and index only)."""
    duplicates, dangling, orphans = (db.execute(sql).fetchall() for sql in LINK_QUERIES)
    places: dict[str, list[tuple[str, int]]] = {}
    for fact_id, path, line in duplicates:
        places.setdefault(fact_id, []).append((path, line))
    return LinkProblems(
        duplicates=tuple(DuplicateId(i, tuple(p)) for i, p in places.items()),
        dangling=tuple(DanglingPointer(*row) for row in dangling),
        orphans=tuple(OrphanState(i, seq, event, json.loads(data))
                      for i, seq, event, data in orphans))
