"""The core memory edits answered from PostgreSQL itself (`memfold serve --recall-from
postgres`): `core_append`, `core_replace`, `core_insert` and `core_undo` (the REST verbs and
MCP tools) edit memory.md with no copy of the bank.

Each runs in the write's transaction (memfold.server.pgwrite, the bank's lock held), reads
memory.md's row (the skeleton `memfold init` makes when the bank was never written, as a
copy holds it), decides the edit with local memfold's own code (`session.core.edited` over
the planners `appending`, `replacing`, `inserting`, `undoing`: the same checks, the same
refusals, the same bytes) and stores the file and its `core` journal line as one bank
version (`BankWrite.journal`: chained on the bank's last line, signed with who writes), as a
copy's edit sends them.  An undo reads the bank's `core` events, the only ones it weighs.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from memfold.journal.log import Event, parse
from memfold.screening import refuses_undecodable
from memfold.server import pgledger
from memfold.server.pgwrite import BankWrite, skeleton, stamp
from memfold.session import core as core_memory

if TYPE_CHECKING:
    from memfold.session.core import CoreEdit, Planner

# the verbs (REST) and tools (MCP) written this way
ANSWERED = frozenset({"core_append", "core_replace", "core_insert", "core_undo"})
_FILE = "SELECT content FROM files WHERE bank_id = %s AND path = %s"
_CORE_EVENTS = ("SELECT line FROM events WHERE bank_id = %s AND record->>'event' = 'core'"
                " ORDER BY seq")


class CoreWrites(pgledger.LedgerWrites):
    """`Memory.core_append`, `core_replace`, `core_insert` and `core_undo` for one bank,
    written to PostgreSQL: the same arguments, answers and errors."""

    @refuses_undecodable
    def core_append(self, block: str, text: str, *, now: Any = None,
                    source: str | None = None) -> CoreEdit:
        write = self.transaction()  # (the bank found first, as a copy's edit finds it)
        return _edit(write, "append", core_memory.appending(block, text), now, source)

    @refuses_undecodable
    def core_replace(self, block: str, old: str, new: str, *, now: Any = None,
                     source: str | None = None) -> CoreEdit:
        write = self.transaction()
        return _edit(write, "replace", core_memory.replacing(block, old, new), now, source)

    @refuses_undecodable
    def core_insert(self, block: str, line: int, text: str, *, now: Any = None,
                    source: str | None = None) -> CoreEdit:
        write = self.transaction()
        return _edit(write, "insert", core_memory.inserting(block, line, text), now, source)

    @refuses_undecodable
    def core_undo(self, *, now: Any = None, source: str | None = None) -> CoreEdit:
        write = self.transaction()
        return _edit(write, "undo", core_memory.undoing(lambda: _core_events(write)), now,
                     source)


def _edit(write: BankWrite, op: str, plan: Planner, now: Any,
          source: str | None) -> CoreEdit:
    """Decide the edit on memory.md's row and store the file and its journal line."""
    path = core_memory.CORE_PATH
    made = skeleton() if write.head == 0 else {}
    data = made[path] if path in made else _file(write, path)
    new, chosen, record = core_memory.edited(data, op, plan)
    events = write.journal([record], ts=stamp(now), source=source,
                           files={**made, path: new})
    return core_memory.outcome(op, chosen, events[0].seq)


def _file(write: BankWrite, path: str) -> bytes | None:
    row = write.conn.execute(_FILE, [write.bank_id, path]).fetchone()
    return None if row is None or row[0] is None else bytes(row[0])


def _core_events(write: BankWrite) -> list[Event]:
    return [parse(json.loads(r[0])) for r in write.conn.execute(_CORE_EVENTS, [write.bank_id])]
