"""Bank notices: a purge or a deleted bank reaches every replica at once.

The database sends `NOTIFY memfold_bank, '<bank_id>'` in the very transaction that deletes a
bank (or its tenant) or stores a purge's journal line (migration 0004), so a notice goes out
only when that transaction commits, and it carries the bank id alone, never text.

Each replica process (each of `memfold serve --workers N`) keeps one connection of its own,
outside the pool, that LISTENs on a background thread.  On a notice the replica drops the
bank's copies on its disk (`Replica.drop`): its open workspace is closed and removed —
Markdown, journal, the SQLite index and its WAL — and so is every copy of the bank an earlier
process left in the cache; a purged bank's next request builds the copy again from
PostgreSQL, a deleted bank's finds no bank.

When the listening connection drops, the thread reconnects with a growing pause (at most
`PAUSE_MAX` seconds).  Meanwhile each request's head check still catches up with what was
written; once listening again, the replica asks the database about every bank it holds (still
there? purged since it stopped listening?) and drops what it missed.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

CHANNEL = "memfold_bank"
APPLICATION = "memfold-listen"  # the listening connection's application_name
POLL = 0.25  # seconds between checks for a stop while no notice comes
PAUSE_MAX = 5.0  # the longest pause before reconnecting

log = logging.getLogger(__name__)


class Listener:
    """A thread that LISTENs on `CHANNEL` and calls `heard(bank_id)` for each notice,
    `lost()` when a listening connection drops and `resumed()` each time it listens again
    (and first: banks opened before that)."""

    def __init__(self, pool: ConnectionPool, heard: Callable[[int], None],
                 resumed: Callable[[], None], lost: Callable[[], None]) -> None:
        conninfo = pool.conninfo
        self._conninfo: Callable[[], str] = conninfo if callable(conninfo) else (
            lambda: conninfo)
        self._heard = heard
        self._resumed = resumed
        self._lost = lost
        self._stop = threading.Event()
        self.listening = threading.Event()  # set while a connection listens
        self.backend_pid: int | None = None  # the listening connection's server process
        self.connections = 0  # how many times it connected and listened
        self._thread = threading.Thread(target=self._run, name="memfold-listen", daemon=True)

    def start(self) -> Listener:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)

    def _run(self) -> None:
        pause = 0.1
        while not self._stop.is_set():
            try:
                self._listen()
                pause = 0.1
            except Exception as exc:  # a lost connection, or a drop that failed
                if self.listening.is_set():
                    self.listening.clear()
                    self._lost()
                log.warning("memfold: not listening for bank notices (%s); retrying in %.1fs",
                            " ".join(str(exc).split())[:200], pause)
                self._stop.wait(pause)
                pause = min(PAUSE_MAX, pause * 2)

    def _listen(self) -> None:
        import psycopg  # the server extra

        with psycopg.connect(self._conninfo(), autocommit=True, connect_timeout=10,
                             application_name=APPLICATION) as conn:
            conn.execute(f"LISTEN {CHANNEL}")
            self.backend_pid = conn.info.backend_pid
            self.connections += 1
            self._resumed()  # what was missed before this connection listened
            self.listening.set()
            while not self._stop.is_set():
                for notice in conn.notifies(timeout=POLL):
                    bank = _bank_id(notice.payload)
                    if bank is not None:
                        self._heard(bank)
        self.listening.clear()


def _bank_id(payload: str) -> int | None:
    try:
        return int(payload)
    except ValueError:
        return None


_MISSED = ("SELECT b.bank_id, EXISTS (SELECT 1 FROM events e WHERE e.bank_id = b.bank_id "
           "AND e.version > %s AND e.record ->> 'event' = 'purge') FROM banks b "
           "WHERE b.bank_id = %s")


def missed(pool: ConnectionPool, tenant: str, bank_id: int, since: int) -> bool:
    """Whether the bank was deleted, or purged after version `since`, as far as the database
    says now."""
    from memfold.server.db import tenant_tx, with_retries

    def ask() -> Any:
        with tenant_tx(pool, tenant) as conn:
            return conn.execute(_MISSED, [since, bank_id]).fetchone()

    row = with_retries(ask)
    return row is None or bool(row[1])
