"""This server process's banks: a caller's bank found under row-level security, a bounded
number of bank workspaces kept open (memfold.server.banks), purge and delete notices acted
on, and each request run on its bank as a read or a write."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from memfold.errors import UnknownBank
from memfold.server import copies, notices, pgrecall, pgretain
from memfold.server.admin import Caller, Refused, check_bank
from memfold.server.banks import OPEN_BANKS, BankWorkspace
from memfold.server.db import NeedsCopy, tenant_tx, with_retries
from memfold.server.pgvectors import VectorCache

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

    from memfold.embed.base import Embedder
    from memfold.memory import Memory

_T = TypeVar("_T")


class Replica:
    """This server process's banks: finds a caller's bank (under row-level security) and
    answers from its rows in PostgreSQL (`recall_from` "postgres", the default) or keeps a
    bounded number of bank workspaces open below `cache` (for "copy", and for the requests
    the rows cannot answer yet).  With `embedder` (a
    function giving the model), banks recall in hybrid mode by default, their vectors kept in
    PostgreSQL (memfold.server.vectors); without, lexical."""

    def __init__(self, pool: ConnectionPool, cache: Path, *, keep: int = OPEN_BANKS,
                 embedder: Callable[[], Embedder] | None = None, listen: bool = True,
                 recall_from: str = "postgres") -> None:
        self.pool = pool
        # "postgres" (`memfold serve`'s default): answered from the bank's rows (pgrecall,
        # pgretain and the writers beside them), a copy made only for what still needs one;
        # "copy": every request answered from a copy of the bank below `cache`
        self.recall_from = recall_from
        self.embedder = embedder
        self.matrices = VectorCache()  # banks' vectors searched in memory (pgvectors)
        self.cache = cache
        self.keep = keep
        self._banks: dict[int, BankWorkspace] = {}  # one object per bank, while it exists
        self._open: OrderedDict[int, None] = OrderedDict()  # the most recently used last
        self._lock = threading.Lock()
        self._deaf: dict[int, int] = {}  # bank -> its head when notices stopped coming
        self.reclaimed = copies.reclaim(pool, cache)  # copies no restart can adopt
        self.listener = notices.Listener(pool, self.drop, self._resume, self._lose)
        if listen:
            self.listener.start()

    def drop(self, bank_id: int) -> None:
        """A notice: the bank was purged or deleted.  Remove this process's copy (its
        workspace closed first) and every copy no live process holds; a deleted bank's
        workspace goes too, a purged bank's is built again by its next request.  Its
        vectors held in memory go too (memfold.server.pgvectors)."""
        self.matrices.drop(bank_id)
        with self._lock:
            bank = self._banks.get(bank_id)
        if bank is not None:
            with bank.turns.exclusive():
                bank.discard()
                if copies.bank_state(self.pool, bank.tenant, bank_id) is None:
                    with self._lock:
                        self._banks.pop(bank_id, None)
                        self._open.pop(bank_id, None)
                    bank.slot.remove()
        copies.drop_unheld(self.cache, bank_id)

    def _lose(self) -> None:
        with self._lock:
            self._deaf = {b: max(bank.head, 0) for b, bank in self._banks.items()}

    def _resume(self) -> None:
        """Listening again: drop the banks deleted, or purged, while no notice could come,
        and every vector matrix (derived, and kept without the bank's tenant to ask with)."""
        self.matrices.clear()
        with self._lock:
            deaf, self._deaf = self._deaf, {}
            banks = [(b, bank.tenant) for b, bank in self._banks.items()]
        for bank_id, tenant in banks:
            if notices.missed(self.pool, tenant, bank_id, deaf.get(bank_id, 0)):
                self.drop(bank_id)

    def bank(self, caller: Caller, name: str) -> BankWorkspace:
        return self._found(caller, name)[0]

    def _found(self, caller: Caller, name: str) -> tuple[BankWorkspace, int]:
        """The caller's bank of that name, and its committed head as of now."""
        check_bank(name)  # 400 for a name no bank can have (a NUL would reach the database)
        def find() -> tuple[int, int] | None:
            with tenant_tx(self.pool, caller.tenant) as conn:
                row = conn.execute("SELECT bank_id, head FROM banks WHERE name = %s",
                                   [name]).fetchone()
            return None if row is None else (int(row[0]), int(row[1]))
        found_row = with_retries(find)
        if found_row is None:
            raise UnknownBank(f"no bank {name!r}")
        bank_id, head = found_row
        with self._lock:
            found = self._banks.get(bank_id)
            if found is None:
                found = BankWorkspace(self.pool, caller.tenant, bank_id, name,
                                      copies.claim(self.cache, bank_id), self.embedder)
                self._banks[bank_id] = found
            self._open[bank_id] = None
            self._open.move_to_end(bank_id)
            idle = [self._banks[b] for b in list(self._open)[:-self.keep]] if (
                len(self._open) > self.keep) else []
            for bank in idle:
                self._open.pop(bank.bank_id)
        for bank in idle:  # its workspace stays on disk; the next request reopens it
            with bank.turns.exclusive():
                bank.close()
        return found, head

    def run(self, caller: Caller, bank: str, scope: str, work: Callable[[Memory], _T], *,
            what: str) -> _T:
        """Run `work` (the verb or tool `what`) on the caller's bank as a read or, with scope
        "write", a write signed with the caller's name; Refused (403) when the token may
        not."""
        if not caller.may(scope, bank):
            raise Refused(403, f"forbidden: {what} needs the {scope} scope"
                          + (f" and bank {caller.bank!r}" if caller.bank else ""))
        if self.recall_from == "postgres" and (
                what in pgrecall.ANSWERED and scope == "read" or what in pgrecall.DERIVED):
            reading: Callable[[pgrecall.DatabaseBank], _T] = (
                work if what not in pgrecall.DERIVED  # type: ignore[assignment]
                else lambda found: work(pgrecall.Indexing(found)))  # type: ignore[arg-type]
            try:  # no copy of the bank: its rows in PostgreSQL (memfold.server.pgrecall)
                return pgrecall.answer(self.pool, caller, bank, reading,
                                       embedder=self.embedder, matrices=self.matrices)
            except NeedsCopy:
                pass
        if what in pgretain.ANSWERED and self.recall_from == "postgres" \
                and pgretain.answerable(self.embedder):
            try:  # written to PostgreSQL with no copy (memfold.server.pgretain)
                return pgretain.answer(self.pool, caller, bank, work,  # type: ignore[arg-type]
                                       embedder=self.embedder)
            except NeedsCopy:
                pass
        workspace, head = self._found(caller, bank)
        if scope == "read":
            return workspace.read(work, committed=head)
        return workspace.write(caller, work)

    def close(self) -> None:
        """Close every bank and leave each copy's manifest (a clean stop: the next process
        on this cache adopts the copies)."""
        self.listener.stop()
        with self._lock:
            banks = list(self._banks.values())
            self._banks.clear()
            self._open.clear()
        for bank in banks:
            with bank.turns.exclusive():
                bank.close()
                bank.leave()

    @contextmanager
    def serving(self) -> Iterator[Replica]:
        try:
            yield self
        finally:
            self.close()
