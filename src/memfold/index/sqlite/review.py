"""The review table of the SQLite index: each supersede or conflict the judge journaled, with
its state, folded from the journal as `lifecycle` is (`fold`, inside `apply_events`'s
transaction), and read a page at a time (`rows`: the page stops at its limit; only the
count reads every matching item, from an index), so listing the queue replays nothing.

An item is raised by a `conflict` event (state `open`) or by a `supersede` the judge made —
not a `manual` or `explicit` one — (state `applied`); later events about its older fact settle
it: a supersede by the newer fact (`accepted`) or by another (`replaced`), a `dismiss` of the
pair (`dismissed`), a `restore` (`restored`), a `merge` (`replaced`).  `settled` keeps the seq
of the event that did; the first such event wins.  A `reset` (`reflect --undo`) takes its
events back: what they settled waits again, what they raised is restored.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from memfold.index.base import ReviewPage, ReviewQuery, ReviewRow
from memfold.index.sqlite.rows import marks
from memfold.index.sqlite.schema import DATA_SCHEMA
from memfold.journal.events import Conflict, Dismiss, Merge, Reset, Restore, Supersede, rule_of
from memfold.journal.log import Event

NOT_THE_JUDGES = ("manual", "explicit")  # supersedes a person made or wrote
_COLUMNS = "seq, kind, old, new, judge, rule, reason, ts, state, settled"
_SETTLE = ("UPDATE review SET state = ?, settled = ? WHERE old = ? AND kind = ?"
           " AND state = ? AND seq < ?")


def fold(db: sqlite3.Connection, events: Sequence[Event]) -> None:
    """Raise and settle review items for these events, in journal order."""
    for event in events:
        record, seq = event.record, event.seq
        if isinstance(record, Conflict | Supersede):
            if isinstance(record, Supersede):  # settles the open conflicts about the fact
                db.execute("UPDATE review SET settled = ?, state = CASE WHEN new = ? THEN"
                           " 'accepted' ELSE 'replaced' END WHERE old = ? AND"
                           " kind = 'conflict' AND state = 'open' AND seq < ?",
                           (seq, record.by, record.id, seq))
            if isinstance(record, Conflict) or record.judge not in NOT_THE_JUDGES:
                kind, state = ("conflict", "open") if isinstance(record, Conflict) \
                    else ("supersede", "applied")
                db.execute("INSERT OR REPLACE INTO review VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           (seq, kind, record.id, record.by, record.judge,
                            rule_of(record.judge, record.reason).casefold(), record.reason,
                            event.ts, state, None))
        elif isinstance(record, Dismiss):
            db.execute(_SETTLE + " AND new = ?", ("dismissed", seq, record.id, "conflict",
                                                  "open", seq, record.by))
        elif isinstance(record, Restore):
            db.execute(_SETTLE, ("restored", seq, record.id, "supersede", "applied", seq))
        elif isinstance(record, Merge):
            db.execute("UPDATE review SET state = 'replaced', settled = ? WHERE old = ?"
                       " AND state IN ('open', 'applied') AND seq < ?",
                       (seq, record.id, seq))
        elif isinstance(record, Reset) and record.undoes:  # `reflect --undo`
            _undo(db, seq, record.undoes)


def _undo(db: sqlite3.Connection, seq: int, undone: Sequence[int]) -> None:
    """Events taken back: an item they settled waits again; one they raised (a supersede
    reflect made) is restored."""
    db.execute("UPDATE review SET settled = NULL, state = CASE kind WHEN 'conflict' THEN"  # noqa: S608
               f" 'open' ELSE 'applied' END WHERE settled IN ({marks(undone)})", undone)
    db.execute("UPDATE review SET state = 'restored', settled = ? WHERE"  # noqa: S608
               f" seq IN ({marks(undone)}) AND state IN ('open', 'applied')", (seq, *undone))


def rows(db: sqlite3.Connection, query: ReviewQuery) -> ReviewPage:
    """The items the query names, newest first, up to its limit, and how many in all.
    An entity's items are found once (`_linked`), and the count and the page read them."""
    where, params = _where(query, _linked(db, query.entity_keys))
    total = db.execute(f"SELECT COUNT(*) FROM review WHERE {where}", params).fetchone()[0]  # noqa: S608
    limit = " LIMIT ?" if query.limit is not None else ""
    # the page walks the table newest first and stops at the limit (`+state`: not by the
    # state index, which would fetch and sort every waiting item); the count reads the index
    walk = where.replace("state IN", "+state IN")
    found = db.execute(f"SELECT {_COLUMNS} FROM review WHERE {walk}"  # noqa: S608
                       f" ORDER BY seq DESC{limit}",
                       [*params, *([query.limit] if query.limit is not None else [])])
    return ReviewPage([ReviewRow(*row) for row in found], int(total))


def _linked(db: sqlite3.Connection, keys: Sequence[str]) -> list[int] | None:
    """The seqs of the items whose older or newer fact links to one of these entities, from
    the entities' links (None for no entity).  Asked once a call: as a clause of both the
    count and the page, the walk from a common entity's links (8,260 of them at 100,000
    facts) ran twice, 155 ms of a 160 ms `review --entity` (docs/benchmarks.md)."""
    if not keys:
        return None
    linked = ("SELECT r.seq FROM fact_entities e JOIN facts f ON f.rowid = e.fact"  # noqa: S608
              f" JOIN review r ON r.{{side}} = f.id WHERE e.key IN ({marks(keys)})")
    found = db.execute(f"{linked.format(side='old')} UNION {linked.format(side='new')}",
                       [*keys, *keys])
    return [int(row[0]) for row in found]


def _where(query: ReviewQuery, linked: list[int] | None = None) -> tuple[str, list[object]]:
    clauses, params = ["1"], []  # type: tuple[list[str], list[object]]
    if query.states:
        clauses.append(f"state IN ({marks(query.states)})")
        params += query.states
    if query.since is not None:
        clauses.append("ts >= ?")
        params.append(query.since)
    if query.rule is not None:
        clauses.append("(rule = ? OR judge = ?)")
        params += [query.rule.casefold(), query.rule]
    if query.seqs is not None:
        clauses.append(f"seq IN ({marks(query.seqs)})")
        params += query.seqs
    if query.old is not None:
        clauses.append("old = ?")
        params.append(query.old)
    if linked is not None:  # the entity's items (`_linked`), as one JSON array
        clauses.append("seq IN (SELECT value FROM json_each(?))")
        params.append(json.dumps(linked))
    return " AND ".join(clauses), params


# the review table's definition, as the index's schema gives it
_TABLE = next(s for s in DATA_SCHEMA.split(";") if s.strip().startswith("CREATE TABLE review "))


def open_items(events: Sequence[Event], olds: Sequence[str],
               limit: int) -> dict[str, tuple[ReviewRow, ...]]:
    """For each of these older facts, its open review items, newest first, at most `limit`,
    from `events` alone — every event about them and every reset — folded as the index
    folds the journal, in a table in memory (for an index that keeps no review table: the
    server's recall from PostgreSQL, memfold.server.pgreview)."""
    db = sqlite3.connect(":memory:")
    try:
        db.execute(_TABLE)
        fold(db, events)
        return {i: tuple(rows(db, ReviewQuery(states=("open",), old=i, limit=limit)).rows)
                for i in olds}
    finally:
        db.close()


def items(events: Sequence[Event], query: ReviewQuery) -> ReviewPage:
    """The items a query names (`rows`; not `entity_keys`, which needs the index's links),
    from `events` alone — every review-kind event and reset of a journal — folded as the
    index folds the journal, in a table in memory (memfold.server.pgreview)."""
    db = sqlite3.connect(":memory:")
    try:
        db.execute(_TABLE)
        fold(db, events)
        return rows(db, query)
    finally:
        db.close()
