"""`MemoryAPI`: the verbs a local workspace (`memfold.Memory`) and a server's bank
(`memfold.connect(...)`, `memfold.client.remote.RemoteMemory`) both answer, with the same
arguments and result types — what the CLI, `memfold call` and `memfold mcp` are written
against.

mypy holds both to it (`mypy src`): each module assigns its class to `type[MemoryAPI]`, so a
method whose signature drifts from this one fails the type check.  What only a workspace on
this machine can do (capture, refresh, views, set_embedder) is on `Memory` alone.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from datetime import date, datetime
from types import TracebackType
from typing import TYPE_CHECKING, Protocol, Self

if TYPE_CHECKING:
    from memfold.forget import PurgePlan
    from memfold.index.base import Progress
    from memfold.journal.log import Event
    from memfold.lifecycle.review import ReviewOutcome, ReviewQueue
    from memfold.recall.search import Trace
    from memfold.reflect.plan import ReflectPlan
    from memfold.session.context import SessionContext
    from memfold.session.core import CoreEdit, CoreMemory
    from memfold.values import (
        AboutResult,
        Hit,
        ParseWarning,
        RecallResult,
        RetainResult,
        StatusReport,
        SyncReport,
    )

Moment = datetime | str | None  # `now=`: a time, an ISO string, or None for the clock's


class MemoryAPI(Protocol):
    """An open memory: a local workspace or a bank of a memfold server."""

    # -- the handle -------------------------------------------------------------------------

    def __enter__(self) -> Self: ...
    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None: ...
    def close(self) -> None: ...
    @property
    def notices(self) -> list[str]: ...
    def signed(self, source: str | None) -> contextlib.AbstractContextManager[None]: ...

    # -- retain and recall ------------------------------------------------------------------

    def retain(self, bullets: str | Sequence[str], *, date: date | str | None = None,
               now: Moment = None, source: str | None = None,
               allow_secret: bool = False, future: bool = False,
               idempotency_key: str | None = None) -> RetainResult: ...
    def recall(self, query: str, *, k: int = 25, since: str | date | None = None,
               until: str | date | None = None, kinds: Sequence[str] | str | None = None,
               entities: Sequence[str] = (), include_all: bool = False,
               budget: int | None = None, now: Moment = None, mode: str | None = None,
               show_secrets: bool = False, rerank: bool = False,
               strict: bool = False) -> RecallResult: ...
    def about(self, name: str, *, k: int = 50, include_all: bool = False, now: Moment = None,
              show_secrets: bool = False) -> AboutResult: ...
    def get(self, fact_id: str, *, strict: bool = False, use: bool = True, now: Moment = None,
            show_secrets: bool = False) -> Hit: ...

    # -- lifecycle --------------------------------------------------------------------------

    def use(self, fact_id: str, *, now: Moment = None, source: str | None = None) -> None: ...
    def note(self, fact_id: str, text: str, *, rev: int, now: Moment = None,
             source: str | None = None) -> int: ...
    def supersede(self, old_id: str, new_id: str, *, reason: str = "superseded by hand",
                  now: Moment = None, source: str | None = None) -> bool: ...
    def restore(self, fact_id: str, *, reason: str = "restored by hand", now: Moment = None,
                source: str | None = None) -> None: ...
    def forget(self, fact_id: str, *, purge: bool = False, dry_run: bool = False,
               now: Moment = None, source: str | None = None) -> list[str]: ...
    def purge(self, fact_id: str, *, dry_run: bool = False, now: Moment = None,
              source: str | None = None) -> PurgePlan: ...
    def history(self, fact_id: str) -> list[Event]: ...
    def trace(self, fact_id: str, *, now: Moment = None,
              show_secrets: bool = False) -> Trace: ...

    # -- the judge's decisions --------------------------------------------------------------

    def review(self, *, since: str | None = None, entity: str | Sequence[str] = (),
               rule: str | None = None, settled: bool = False, limit: int | None = 50,
               now: Moment = None) -> ReviewQueue: ...
    def accept(self, item: str | int, *, reason: str | None = None, now: Moment = None,
               source: str | None = None) -> ReviewOutcome: ...
    def reject(self, item: str | int | None = None, *, rule: str | None = None,
               since: str | None = None, entity: str | Sequence[str] = (),
               reason: str | None = None, dry_run: bool = False, now: Moment = None,
               source: str | None = None) -> ReviewOutcome: ...

    # -- reports and the index --------------------------------------------------------------

    def status(self) -> StatusReport: ...
    def entities(self) -> list[tuple[str, int]]: ...
    def warnings(self) -> list[ParseWarning]: ...
    def link_warnings(self) -> list[ParseWarning]: ...
    def stale_pages(self) -> list[dict[str, object]]: ...
    def index(self, *, full: bool = False, progress: Progress | None = None,
              judge: bool = True) -> SyncReport: ...

    # -- reflect ----------------------------------------------------------------------------

    def reflect(self, *, since: str | date = "7d", dry_run: bool = False,
                now: Moment = None) -> ReflectPlan: ...
    def reflect_undo(self, *, now: Moment = None) -> list[str]: ...

    # -- core memory and session context ----------------------------------------------------

    def core(self) -> CoreMemory: ...
    def core_append(self, block: str, text: str, *, now: Moment = None,
                    source: str | None = None) -> CoreEdit: ...
    def core_replace(self, block: str, old: str, new: str, *, now: Moment = None,
                     source: str | None = None) -> CoreEdit: ...
    def core_insert(self, block: str, line: int, text: str, *, now: Moment = None,
                    source: str | None = None) -> CoreEdit: ...
    def core_undo(self, *, now: Moment = None, source: str | None = None) -> CoreEdit: ...
    def context(self, *, budget: int | None = None, now: Moment = None,
                show_secrets: bool = False) -> SessionContext: ...
