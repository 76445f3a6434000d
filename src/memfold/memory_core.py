"""The facade's core-memory and session-context verbs: memory.md's blocks and what an agent
sees at the start of a session.  Part of `Memory` (its base class), kept apart for size;
with the decorators every verb of the facade shares: `signs` (a write's `source=` signs its
journal records) and `repairs` (a read that meets a damaged index rebuilds it and answers).
"""

from __future__ import annotations

import contextlib
import functools
import inspect
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Concatenate, ParamSpec, Protocol, TypeVar

from memfold.screening import refuse_undecodable
from memfold.values import redacted

if TYPE_CHECKING:
    from memfold.index.base import IndexBackend
    from memfold.lifecycle.ledger import Ledger
    from memfold.session import context as _context
    from memfold.session import core as _core
    from memfold.values import SyncReport
    from memfold.workspace.layout import Workspace

_T = TypeVar("_T")
_P = ParamSpec("_P")


class Facade(Protocol):
    """What the verbs here use of `Memory`."""

    workspace: Workspace

    @property
    def ledger(self) -> Ledger: ...
    @property
    def index_backend(self) -> IndexBackend: ...
    def refresh(self) -> SyncReport: ...
    def now(self, now: datetime | str | None = None) -> datetime: ...
    def _ts(self, now: datetime | str | None = None) -> str: ...
    def signed(self, source: str | None) -> contextlib.AbstractContextManager[None]: ...
    def _repairing(self, read: Callable[[], _T]) -> _T: ...


_F = TypeVar("_F", bound=Facade)


def signs(method: Callable[Concatenate[_F, _P], _T]) -> Callable[Concatenate[_F, _P], _T]:
    """A write whose journal records are signed with its `source=` (see Memory.signed).
    Its text arguments are checked first: text that cannot be written as UTF-8 is refused
    (BadInput) before anything is stored."""

    params = list(inspect.signature(method).parameters)[1:]

    @functools.wraps(method)
    def run(self: _F, /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        for name, value in (*zip(params, args, strict=False), *kwargs.items()):
            refuse_undecodable(value, name)
        source = kwargs.get("source")
        with self.signed(source if isinstance(source, str) else None):
            return method(self, *args, **kwargs)

    return run


def repairs(method: Callable[Concatenate[_F, _P], _T]) -> Callable[Concatenate[_F, _P], _T]:
    """A read that meets a damaged index repairs it and answers (see Memory._repairing)."""

    @functools.wraps(method)
    def run(self: _F, /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        return self._repairing(lambda: method(self, *args, **kwargs))

    return run


class CoreVerbs:
    """core, core_append, core_replace, core_insert, core_undo and context."""

    def core(self: Facade) -> _core.CoreMemory:
        """The core blocks of memory.md, each with its text, limit (characters) and line."""
        from memfold.session import core as _core

        return _core.read_core(self.workspace)

    @signs
    @repairs
    def core_append(self: Facade, block: str, text: str, *,
                    now: datetime | str | None = None, source: str | None = None) -> _core.CoreEdit:
        """Add TEXT at the end of a core block (created if missing).  Past the block's
        limit it raises BadInput and writes nothing; every edit is journaled."""
        from memfold.session import core as _core

        return _core.append(self.workspace, self.ledger, block, text, ts=self._ts(now))

    @signs
    @repairs
    def core_replace(self: Facade, block: str, old: str, new: str, *,
                     now: datetime | str | None = None,
                     source: str | None = None) -> _core.CoreEdit:
        """Replace OLD, which must occur exactly once in the block, with NEW."""
        from memfold.session import core as _core

        return _core.replace(self.workspace, self.ledger, block, old, new, ts=self._ts(now))

    @signs
    @repairs
    def core_insert(self: Facade, block: str, line: int, text: str, *,
                    now: datetime | str | None = None, source: str | None = None) -> _core.CoreEdit:
        """Insert TEXT as line LINE of the block (1 = first, -1 = after the last)."""
        from memfold.session import core as _core

        return _core.insert(self.workspace, self.ledger, block, line, text, ts=self._ts(now))

    @signs
    @repairs
    def core_undo(self: Facade, *, now: datetime | str | None = None,
                  source: str | None = None) -> _core.CoreEdit:
        """Put back the block text from before the last core edit not yet undone."""
        from memfold.session import core as _core

        return _core.undo(self.workspace, self.ledger, ts=self._ts(now))

    @repairs
    def context(self: Facade, *, budget: int | None = None, now: datetime | str | None = None,
                show_secrets: bool = False) -> _context.SessionContext:
        """What an agent should see at the start of a session, within `budget` tokens:
        core blocks, today's and yesterday's Retain bullets, facts expiring soon and open
        items, each line citing its source; likely secrets redacted unless `show_secrets`."""
        from memfold.session import context as _context

        self.refresh()
        moment = self.now(now)
        limit = budget if budget is not None else _context.DEFAULT_BUDGET
        found = _context.build(core=CoreVerbs.core(self), workspace=self.workspace,
                               backend=self.index_backend, today=moment.date(), budget=limit,
                               as_of=moment.isoformat(timespec="seconds"))
        if show_secrets:
            return found
        return replace(found, sections=tuple(
            replace(s, lines=tuple(replace(line, text=redacted(line.text)) for line in s.lines))
            for s in found.sections))


