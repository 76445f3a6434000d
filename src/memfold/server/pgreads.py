"""The read verbs besides recall that a replica answers from PostgreSQL in the request's own
snapshot (`memfold serve --recall-from postgres`), with the answers a copy of the bank gives:

- a fact's history: the journal lines about it, read from `events` (their records as
  written), found through `event_facts` (schema 0008), which holds each event's facts as the
  local index matches them (`index.sqlite.state.events_for`: the fact's own events, a
  supersede `by` it, a retain that wrote it), oldest first;
- core memory: `memory.md` read from `files` and parsed by core memory's own code;
- the files the session context reads besides the index (`BankFiles`: a day's log and the
  top-level bank pages, for their open tasks).
A bank never written holds no file yet, and its copy is the skeleton `memfold init` makes,
so such a bank's files are read from that skeleton (`SKELETON`).

`about` needs nothing here: it runs recall's own `about` on the bank's recall rows
(`PgRecallIndex`, memfold.server.pgrecall).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from memfold.journal.log import Event
from memfold.session.core import CoreMemory, core_of
from memfold.workspace.layout import BANK_TEMPLATES, CORE_TEMPLATE

if TYPE_CHECKING:
    import psycopg

CORE_PATH = "memory.md"
SKELETON = {CORE_PATH: CORE_TEMPLATE.encode("utf-8"),
            **{f"bank/{name}": text.encode("utf-8") for name, text in BANK_TEMPLATES.items()}}
# the events about a fact: its rows in `event_facts` (schema 0008, kept by a trigger on
# `events`: the event's own id, a supersede's `by`, a retain's `ids`), one index range
HISTORY = ("SELECT e.record FROM event_facts x JOIN events e ON e.bank_id = x.bank_id"
           " AND e.seq = x.seq WHERE x.bank_id = %s AND x.fact_id = %s ORDER BY x.seq")
CORE = "SELECT content FROM files WHERE bank_id = %s AND path = %s AND content IS NOT NULL"
# the top-level bank pages (bank/NAME.md, none below a folder of bank/)
TOP_PAGES = ("SELECT path FROM files WHERE bank_id = %s AND content IS NOT NULL"
             " AND path LIKE 'bank/%%.md' AND position('/' in substr(path, 6)) = 0")


def history(conn: psycopg.Connection[Any], bank_id: int, fact_id: str) -> list[Event]:
    """The journal events about `fact_id`, oldest first."""
    if "\x00" in fact_id:
        return []
    return [Event.from_dict(record if isinstance(record, dict) else json.loads(record))
            for (record,) in conn.execute(HISTORY, [bank_id, fact_id])]


def core(conn: psycopg.Connection[Any], bank_id: int, head: int) -> CoreMemory:
    """The bank's core memory: its memory.md as the bank holds it at `head`."""
    return core_of(BankFiles(conn, bank_id, head).read(CORE_PATH))


class BankFiles:
    """A bank's files as the session context reads them (`session.context.Files`)."""

    def __init__(self, conn: psycopg.Connection[Any], bank_id: int, head: int) -> None:
        self.conn = conn
        self.bank_id = bank_id
        self.blank = head == 0  # never written: its copy holds the skeleton

    def top_pages(self) -> list[str]:
        if self.blank:
            return sorted(p for p in SKELETON if p.count("/") == 1)
        return sorted(str(row[0]) for row in self.conn.execute(TOP_PAGES, [self.bank_id]))

    def read(self, rel: str) -> bytes | None:
        if self.blank:
            return SKELETON.get(rel)
        row = self.conn.execute(CORE, [self.bank_id, rel]).fetchone()
        return None if row is None else bytes(row[0])
