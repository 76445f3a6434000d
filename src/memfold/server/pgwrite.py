"""A write answered from PostgreSQL itself (`memfold serve --recall-from postgres`): the
transaction every such write runs in, and the journal lines it appends.

`writing` opens one transaction on the caller's bank: it finds the bank (UnknownBank before
anything else is checked, as a copy's write finds it), takes the bank's advisory lock and its
`banks` row, as every write does (memfold.server.banks), and refuses with `NeedsCopy` a bank
whose recall rows were never derived (written before schema 0005 and not since).  The verb
then reads only the rows it needs and stores what it writes through `BankWrite` as bank
version head + 1; when it stored anything, `head` moves to that version before the commit,
and the answer goes out after it.  One request is one transaction and one version, as
through a copy: a verb that fails stores nothing.

Journal lines are chained on the bank's last line (its seq and hash) exactly as
`Journal.append` chains them, each record signed with who writes unless it names its own
(`Ledger.append`), so the lines are the ones a copy's write would have sent.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memfold import config
from memfold.errors import UnknownBank
from memfold.journal.events import Record, Retain, Unknown
from memfold.journal.log import GENESIS, Event, chain_hash
from memfold.server.admin import Caller
from memfold.server.db import LOCK_SPACE, NeedsCopy, tenant_tx
from memfold.server.rows import store
from memfold.workspace.layout import BANK_TEMPLATES, CORE_TEMPLATE, Workspace

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

_BANK = "SELECT bank_id FROM banks WHERE name = %s"
_LOCKED = ("SELECT b.head, s.bank_id IS NOT NULL FROM banks b LEFT JOIN recall_stats s"
           " ON s.bank_id = b.bank_id WHERE b.bank_id = %s FOR UPDATE OF b")
_TAIL = "SELECT seq, line FROM events WHERE bank_id = %s ORDER BY seq DESC LIMIT 1"


class BankWrite:
    """One write's transaction on one bank, its lock held: what it stores is version
    `version`."""

    def __init__(self, conn: psycopg.Connection[Any], caller: Caller, bank_id: int,
                 head: int) -> None:
        self.conn = conn
        self.caller = caller
        self.bank_id = bank_id
        self.head = head
        self.version = head + 1
        self.wrote = False

    def store(self, *, files: Mapping[str, bytes | None], lines: Sequence[tuple[int, str]],
              appended: Mapping[str, int] | None = None) -> None:
        """Store files and journal lines as this version (`rows.store`: their facts and
        recall rows, `recall_life` folded), as a copy's write sends them."""
        with self.conn.cursor() as cur:
            store(cur, self.caller.tenant, self.bank_id, self.version, files=files,
                  lines=lines, appended=appended)
        self.wrote = True

    def journal(self, records: Sequence[Record], *, ts: str, source: str | None = None,
                files: Mapping[str, bytes | None] | None = None) -> list[Event]:
        """Append these records to the bank's journal as lines of this version, each signed
        with `source` (the caller's name by default) unless it names its own, with the
        `files` they record (a core edit's memory.md, a reflect run's pages); the events."""
        if not records and not files:
            return []
        seq, prev = self.tail()
        events = chained(signed(records, source or self.caller.name), ts, seq, prev)
        self.store(files=files or {}, lines=[(e.seq, e.line()) for e in events])
        return events

    def founding(self) -> dict[str, bytes]:
        """The skeleton a bank's first write sends with what it writes (none after it)."""
        return skeleton() if self.head == 0 else {}

    def tail(self) -> tuple[int, str]:
        """The journal's last seq and hash (0 and the genesis hash when it is empty)."""
        row = self.conn.execute(_TAIL, [self.bank_id]).fetchone()
        if row is None:
            return 0, GENESIS
        return int(row[0]), str(json.loads(row[1])["hash"])


@contextmanager
def writing(pool: ConnectionPool, caller: Caller, bank: str,
            before: Callable[[], object] | None = None) -> Iterator[BankWrite]:
    """The write's transaction on the caller's bank, its lock held (module doc).  `before`
    runs once the bank is found and before its lock is taken (a retain checks its bullets
    there); `head` moves when the write stored anything."""
    with tenant_tx(pool, caller.tenant) as conn:
        row = conn.execute(_BANK, [bank]).fetchone()
        if row is None:
            raise UnknownBank(f"no bank {bank!r}")
        bank_id = int(row[0])
        if before is not None:
            before()
        conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_SPACE, bank_id])
        locked = conn.execute(_LOCKED, [bank_id]).fetchone()
        if locked is None:
            raise UnknownBank("the bank was deleted")
        head, derived = int(locked[0]), bool(locked[1])
        if head and not derived:  # written before its recall rows existed (schema 0005)
            raise NeedsCopy
        write = BankWrite(conn, caller, bank_id, head)
        yield write
        if write.wrote:
            conn.execute("UPDATE banks SET head = %s WHERE bank_id = %s",
                         [write.version, bank_id])


def skeleton() -> dict[str, bytes]:
    """The files `Memory.init` makes that a bank holds, sent with a bank's first write (as
    a copy sends them)."""
    made = {"memory.md": CORE_TEMPLATE, **{f"bank/{n}": t for n, t in BANK_TEMPLATES.items()}}
    return {path: text.encode() for path, text in made.items() if Workspace.is_tracked(path)}


def stamp(now: Any = None) -> str:
    """The time a journal record is stamped with (`Memory._ts`)."""
    return clock(now)().isoformat(timespec="seconds")


def clock(now: Any = None) -> Callable[[], datetime]:
    def current() -> datetime:
        return config.resolve_now(now)
    return current


def signed(records: Sequence[Record], source: str) -> list[Record]:
    """Each record signed with who writes, unless it names its own (`Ledger.append`)."""
    return [r if r.source or isinstance(r, Retain | Unknown)
            else dataclasses.replace(r, source=source) for r in records]


def chained(records: Sequence[Record], ts: str, seq: int, prev: str) -> list[Event]:
    """The journal events of these records after the line (`seq`, hash `prev`), chained as
    `Journal.append` chains them."""
    events: list[Event] = []
    for record in records:
        seq += 1
        digest = chain_hash(prev, {"seq": seq, "ts": ts, **record.to_dict()})
        events.append(Event(seq=seq, ts=ts, record=record, hash=digest, prev=prev))
        prev = digest
    return events
