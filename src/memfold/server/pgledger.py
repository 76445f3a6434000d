"""The journal-only writes answered from PostgreSQL itself (`memfold serve --recall-from
postgres`): `use`, `supersede`, `restore`, `note`, `forget` without a purge (an archive) and
review `accept` and `reject` (the MCP tools and the REST verbs `review_accept` and
`review_reject`; a bulk reject by rule and its dry run too)
decide and journal with no copy of the bank.

Each decides as the local ledger decides (`lifecycle.ledger.Decisions`: the fact looked up,
a supersede's core-memory and cycle checks, the record written), over the bank's recall rows
(`PgRecallIndex`: every fact's row and its lifecycle state, as folded so far in this very
transaction; the review items folded from the bank's review-kind events by the local index's
own code, memfold.server.pgreview; review items settled by `lifecycle.review.settle`
itself), and journals through the write's transaction (`pgwrite.BankWrite.journal`):
the lines chained on the bank's last one, signed with who writes, `recall_life` folded, as
a copy's write would have sent them.  All the writes of one request (the REST verb `use`
takes several ids) are one transaction and one bank version, as through a copy.

A purge (`forget --purge`, its dry run too) is planned and stored by
memfold.server.pgpurge in the same transaction.  What this does not answer it sends to the
copy (`NeedsCopy`, before anything is written): a forget's dry run without a purge, which
no adapter sends.  A note whose revision or text no fact takes is refused here, in
`Memory.note`'s words (`memory.check_note`), with no copy built to say them.
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

from memfold import names
from memfold.journal.log import Event
from memfold.lifecycle.ledger import Decide, Decisions
from memfold.lifecycle.review import ReviewOutcome, Selection, settle
from memfold.memory import check_note
from memfold.screening import refuses_undecodable
from memfold.server import pgpurge
from memfold.server.db import NeedsCopy
from memfold.server.pgindex import PgRecallIndex
from memfold.server.pgwrite import BankWrite, clock, stamp, writing

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from psycopg_pool import ConnectionPool

    from memfold.forget import PurgePlan
    from memfold.server.admin import Caller

# the verbs (REST) and tools (MCP) written this way
ANSWERED = frozenset({"use", "supersede", "restore", "note", "forget", "review_accept",
                      "review_reject"})


class RowLedger(Decisions):
    """The ledger's decisions over one bank's rows, journaled in its write's transaction."""

    backend: PgRecallIndex

    def __init__(self, write: BankWrite, source: str | None) -> None:
        self.write = write
        self.source = source
        self.backend = PgRecallIndex(write.conn, write.bank_id)

    def transact(self, decide: Decide, *, ts: str,
                 undo: Callable[[], None] | None = None) -> list[Event]:
        """Decide (the bank's lock is held) and journal what was decided."""
        return self.write.journal(list(decide()), ts=ts, source=self.source)


class LedgerWrites:
    """`Memory.use`, `supersede`, `restore`, `note`, `forget`, `accept` and `reject` for
    one bank, written to PostgreSQL: the same arguments, answers and errors.  Every write
    of one request runs in one transaction, opened by the first (`transaction`) and
    committed when the request's work returns."""

    pool: ConnectionPool
    caller: Caller
    bank: str
    stack: ExitStack | None = None
    embeds = False  # whether the replica has a model (a purge then counts the vectors)
    _open: BankWrite | None = None

    def transaction(self, before: Callable[[], object] | None = None) -> BankWrite:
        """The request's write transaction, opened on first use (`pgwrite.writing`)."""
        if self._open is None:
            if self.stack is None:
                raise RuntimeError("a write from PostgreSQL runs inside `pgretain.answer`")
            self._open = self.stack.enter_context(
                writing(self.pool, self.caller, self.bank, before=before))
        elif before is not None:
            before()
        return self._open

    def _ledger(self, source: str | None) -> RowLedger:
        return RowLedger(self.transaction(), source)

    @refuses_undecodable
    def use(self, fact_id: str, *, now: Any = None, source: str | None = None) -> None:
        self._ledger(source).use(names.fact_id(fact_id), ts=stamp(now))

    @refuses_undecodable
    def supersede(self, old_id: str, new_id: str, *, reason: str = "superseded by hand",
                  now: Any = None, source: str | None = None) -> bool:
        return self._ledger(source).supersede(names.fact_id(old_id), names.fact_id(new_id),
                                              reason=reason, ts=stamp(now))

    @refuses_undecodable
    def restore(self, fact_id: str, *, reason: str = "restored by hand", now: Any = None,
                source: str | None = None) -> None:
        self._ledger(source).restore(names.fact_id(fact_id), reason=reason, ts=stamp(now))

    @refuses_undecodable
    def note(self, fact_id: str, text: str, *, rev: int, now: Any = None,
             source: str | None = None) -> int:
        check_note(text, rev)  # in `Memory.note`'s words, with no copy built to say them
        return self._ledger(source).note(names.fact_id(fact_id), text, rev, ts=stamp(now))

    def forget(self, fact_id: str, *, purge: bool = False, dry_run: bool = False,
               now: Any = None, source: str | None = None, reason: str = "") -> list[str]:
        if dry_run and not purge:
            raise NeedsCopy  # refused there, in `Memory.forget`'s words
        if purge:
            return list(self.purge(fact_id, dry_run=dry_run, now=now, source=source).files)
        self._ledger(source).archive(names.fact_id(fact_id),
                                     reason=reason or "forgotten by hand", ts=stamp(now))
        return []

    @refuses_undecodable
    def purge(self, fact_id: str, *, dry_run: bool = False, now: Any = None,
              source: str | None = None) -> PurgePlan:
        return pgpurge.purge(self.transaction(), names.fact_id(fact_id), dry_run=dry_run,
                             ts=stamp(now), source=source, vectors=self.embeds)

    @refuses_undecodable
    def accept(self, item: str | int, *, reason: str | None = None, now: Any = None,
               source: str | None = None) -> ReviewOutcome:
        return settle(self._ledger(source), "accept", str(item), Selection(), reason=reason,
                      dry_run=False, ts=stamp(now))

    @refuses_undecodable
    def reject(self, item: str | int | None = None, *, rule: str | None = None,
               since: str | None = None, entity: str | Sequence[str] = (),
               reason: str | None = None, dry_run: bool = False, now: Any = None,
               source: str | None = None) -> ReviewOutcome:
        chosen = Selection.of(since=since, entity=entity, rule=rule, settled=False,
                              today=clock(now)().date())
        return settle(self._ledger(source), "reject", None if item is None else str(item),
                      chosen, reason=reason, dry_run=dry_run, ts=stamp(now))
