"""The read verbs besides recall that a replica answers from PostgreSQL in the request's own
snapshot (`memfold serve --recall-from postgres`), with the answers a copy of the bank gives:

- a fact's history: the journal lines about it, read from `events` (their records as
  written), matched as the local index matches them (`index.sqlite.state.events_for`: the
  fact's own events, a supersede `by` it, a retain that wrote it), oldest first;
- core memory: `memory.md` read from `files` and parsed by core memory's own code.  A bank
  never written holds no file yet, and its copy is the skeleton `memfold init` makes, so its
  core memory is read from that skeleton (`CORE_TEMPLATE`).

`about` needs nothing here: it runs recall's own `about` on the bank's recall rows
(`PgRecallIndex`, memfold.server.pgrecall).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from memfold.journal.log import Event
from memfold.session.core import CoreMemory, core_of
from memfold.workspace.layout import CORE_TEMPLATE

if TYPE_CHECKING:
    import psycopg

CORE_PATH = "memory.md"
HISTORY = (
    "SELECT record FROM events WHERE bank_id = %s AND (record ->> 'id' = %s"
    " OR (record ->> 'event' = 'supersede' AND record ->> 'by' = %s)"
    " OR (record ->> 'event' = 'retain' AND record -> 'ids' ? %s)) ORDER BY seq")
CORE = "SELECT content FROM files WHERE bank_id = %s AND path = %s AND content IS NOT NULL"


def history(conn: psycopg.Connection[Any], bank_id: int, fact_id: str) -> list[Event]:
    """The journal events about `fact_id`, oldest first."""
    if "\x00" in fact_id:
        return []
    return [Event.from_dict(record if isinstance(record, dict) else json.loads(record))
            for (record,) in conn.execute(HISTORY, [bank_id, fact_id, fact_id, fact_id])]


def core(conn: psycopg.Connection[Any], bank_id: int, head: int) -> CoreMemory:
    """The bank's core memory: its memory.md as the bank holds it at `head`."""
    row = conn.execute(CORE, [bank_id, CORE_PATH]).fetchone()
    if row is None:
        return core_of(CORE_TEMPLATE.encode("utf-8") if head == 0 else None)
    return core_of(bytes(row[0]))
