"""The review items a recall from PostgreSQL reads: the open conflicts the judge journaled
about some facts (memfold.recall.offered), read from the bank's `events` in the recall's own
snapshot, with the meaning the local index gives them.

The local index folds every journal event into its review table (index.sqlite.review); an
item about a fact is raised and settled only by events about that fact — its conflicts and
supersedes, a dismiss, a restore, a merge — and by a `reflect --undo` reset naming their
seqs.  So the items about some facts are those events and the bank's resets, read in one
statement and folded by the local index's own code (`review.open_items`: `review.fold`,
then `review.rows`, in a table in memory): an item is open here exactly when `memfold
review` lists it open.

The events about the facts are found through `event_facts` (schema 0008: bank, fact id, seq,
kept by a trigger on `events`), one index range per fact, and kept when the event's own `id`
is that fact.  Read from `events` by `record ->> 'id'`, PostgreSQL would test every
review-kind event of the bank: under the tables' row-level security it uses an index
condition only when its operators are leakproof, and `->>` is not.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from memfold.index.base import ReviewPage, ReviewQuery, ReviewRow
from memfold.index.sqlite import review
from memfold.journal.log import Event

if TYPE_CHECKING:
    import psycopg

# the events that raise or settle an item about their fact (their own `id`: found through
# `event_facts`, one index range per fact, then each event by its key — `OFFSET 0` keeps
# the planner from reading the bank's review-kind events whole to join them, which it
# would, misjudging how many there are), and the resets (their seqs); the kinds written as
# literals, as the partial index `events_reviewed` (schema 0007) names them
ABOUT = "'conflict', 'supersede', 'dismiss', 'restore', 'merge'"
EVENTS = f"""
SELECT e.seq, e.record FROM event_facts x CROSS JOIN LATERAL (
    SELECT seq, record FROM events WHERE bank_id = x.bank_id AND seq = x.seq OFFSET 0) e
    WHERE x.bank_id = %s AND x.fact_id = ANY(%s)
    AND e.record ->> 'event' IN ({ABOUT}) AND e.record ->> 'id' = x.fact_id
UNION ALL
SELECT seq, record FROM events WHERE bank_id = %s AND record ->> 'event' = 'reset'
ORDER BY seq
"""  # noqa: S608 - constants only
# whether a bank holds any conflict: without one no item is open (read with its head)
ANY_CONFLICT = ("EXISTS (SELECT 1 FROM events WHERE bank_id = %s"
                " AND record ->> 'event' = 'conflict')")


def open_items(conn: psycopg.Connection[Any], bank_id: int, olds: Sequence[str],
               limit: int) -> dict[str, tuple[ReviewRow, ...]]:
    """For each of these older facts, its open review items, newest first, at most `limit`
    (as `review_rows(ReviewQuery(states=("open",), old=..., limit=...))` answers locally);
    one statement for them all."""
    wanted = sorted({i for i in olds if "\x00" not in i})
    if not wanted:
        return {i: () for i in olds}
    events = [_event(record) for _, record in conn.execute(EVENTS, [bank_id, wanted,
                                                                    bank_id])]
    if not events:
        return {i: () for i in olds}
    return review.open_items(events, olds, limit)


def _event(record: Any) -> Event:
    return Event.from_dict(record if isinstance(record, dict) else json.loads(record))


# every event that raises or settles an item, and the resets: a bank's whole review table
ALL_EVENTS = f"""
SELECT seq, record FROM events WHERE bank_id = %s
    AND record ->> 'event' IN ({ABOUT}, 'reset') ORDER BY seq
"""  # noqa: S608 - constants only
# the facts linked to some entities (as the index's fact_entities names them)
LINKED = ("SELECT DISTINCT f.fact_id FROM recall_links k JOIN recall_facts f"
          " ON f.bank_id = k.bank_id AND f.rowid = k.fact WHERE k.bank_id = %s"
          " AND k.key = ANY(%s)")
AT = "SELECT seq, record FROM events WHERE bank_id = %s AND seq = ANY(%s) ORDER BY seq"


def review_rows(conn: psycopg.Connection[Any], bank_id: int, query: ReviewQuery) -> ReviewPage:
    """The review items a query names, newest first, as the local index's review table
    answers it: the bank's review-kind events and resets folded by the index's own code
    (`review.items`), the entity filter read from the bank's links.  Read whole for each
    query: settling an item by hand (review accept and reject) is rare beside recall."""
    events = [_event(record) for _, record in conn.execute(ALL_EVENTS, [bank_id])]
    if not query.entity_keys:
        return review.items(events, query)
    linked = {str(r[0]) for r in conn.execute(LINKED, [bank_id, list(query.entity_keys)])}
    found = review.items(events, replace(query, entity_keys=(), limit=None)).rows
    chosen = [r for r in found if r.old in linked or r.new in linked]
    shown = chosen if query.limit is None else chosen[:query.limit]
    return ReviewPage(shown, len(chosen))


def events_at(conn: psycopg.Connection[Any], bank_id: int, seqs: Sequence[int]) -> list[Event]:
    """The bank's journal events with these seqs."""
    if not seqs:
        return []
    return [_event(record) for _, record in conn.execute(AT, [bank_id, sorted(set(seqs))])]
