"""memfold: offline-first long-term memory for AI agents.

Markdown files are the source of truth; a derived SQLite index, rebuildable from them, makes
recall fast and cited.  The public API is `Memory` plus the value and error types below;
`memfold.connect(server, token=..., bank=...)` opens a bank of a memfold server instead
(a `RemoteMemory`, memfold.client.remote); both are a `MemoryAPI` (memfold.api), the verbs
they share.  The package is typed (py.typed).
"""

from __future__ import annotations

from memfold.errors import (
    AccessDenied,
    BadInput,
    EmbedUnavailable,
    IncompleteSet,
    IndexDamaged,
    IndexError_,
    MemfoldError,
    SourceChanged,
    StaleRevision,
    StorageError,
    Unavailable,
    UnknownBank,
    UnknownId,
    WorkspaceError,
)

# `typing` is not imported at run time: `memfold recall` answered by the warm process
# (memfold.cli.launch) imports this package and nothing heavier.  Type checkers read this name
# as true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from memfold.api import MemoryAPI
    from memfold.capture import CaptureResult, Unreadable, Withheld
    from memfold.client.remote import RemoteMemory, connect
    from memfold.documents import FileEntry, Files, FileWrite
    from memfold.forget import PurgePlace, PurgePlan
    from memfold.importing.run import ImportResult
    from memfold.journal.events import Record
    from memfold.journal.log import Event
    from memfold.lifecycle.review import (
        ReviewFact,
        ReviewItem,
        ReviewOutcome,
        ReviewQueue,
        Settlement,
    )
    from memfold.memory import Memory
    from memfold.recall.search import Trace
    from memfold.reflect.plan import PageChange, ReflectPlan
    from memfold.session.context import ContextLine, ContextSection, SessionContext
    from memfold.session.core import Block, CoreEdit, CoreMemory
    from memfold.values import (
        AboutResult,
        Fact,
        Freshness,
        Hit,
        Interval,
        Judgement,
        ParseWarning,
        RecallResult,
        RetainResult,
        StatusReport,
        SyncReport,
    )
    from memfold.views import (
        Chains,
        ConfidenceStep,
        Edge,
        Fading,
        JournalCheck,
        LifecycleLists,
        OpinionHistory,
        SourceFile,
        Timeline,
        TimelineDay,
        Views,
    )

__version__ = "0.1.0"  # the one place the version is written (pyproject reads it from here)

# Every name below is loaded on first use, from the module that defines it: `Memory`, the
# `MemoryAPI` it shares with a server's bank (`connect`, `RemoteMemory`), and every type their
# methods return, with the types those hold (tests/test_public_api.py derives the list from
# the methods' return annotations and fails on a type missing here).
_PUBLIC = {
    "memory": ("Memory",),
    "api": ("MemoryAPI",),
    "client.remote": ("RemoteMemory", "connect"),
    "values": ("AboutResult", "Fact", "Freshness", "Hit", "Interval", "Judgement",
               "ParseWarning", "RecallResult", "RetainResult", "StatusReport", "SyncReport"),
    "lifecycle.review": ("ReviewFact", "ReviewItem", "ReviewOutcome", "ReviewQueue",
                         "Settlement"),
    "capture": ("CaptureResult", "Unreadable", "Withheld"),
    "documents": ("FileEntry", "FileWrite", "Files"),
    "forget": ("PurgePlace", "PurgePlan"),
    "importing.run": ("ImportResult",),
    "journal.events": ("Record",),
    "journal.log": ("Event",),
    "recall.search": ("Trace",),
    "reflect.plan": ("PageChange", "ReflectPlan"),
    "session.context": ("ContextLine", "ContextSection", "SessionContext"),
    "session.core": ("Block", "CoreEdit", "CoreMemory"),
    "views": ("Chains", "ConfidenceStep", "Edge", "Fading", "JournalCheck", "LifecycleLists",
              "OpinionHistory", "SourceFile", "Timeline", "TimelineDay", "Views"),
}
_LAZY = {name: module for module, names in _PUBLIC.items() for name in names}


def __getattr__(name: str) -> Any:
    """Load the facade on first use, so `memfold --help` does not import everything."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'memfold' has no attribute {name!r}")


__all__ = [
    "AboutResult",
    "AccessDenied",
    "BadInput",
    "Block",
    "CaptureResult",
    "Chains",
    "ConfidenceStep",
    "ContextLine",
    "ContextSection",
    "CoreEdit",
    "CoreMemory",
    "Edge",
    "EmbedUnavailable",
    "Event",
    "Fact",
    "Fading",
    "FileEntry",
    "FileWrite",
    "Files",
    "Freshness",
    "Hit",
    "ImportResult",
    "IncompleteSet",
    "IndexDamaged",
    "IndexError_",
    "Interval",
    "JournalCheck",
    "Judgement",
    "LifecycleLists",
    "MemfoldError",
    "Memory",
    "MemoryAPI",
    "OpinionHistory",
    "PageChange",
    "ParseWarning",
    "PurgePlace",
    "PurgePlan",
    "RecallResult",
    "Record",
    "ReflectPlan",
    "RemoteMemory",
    "RetainResult",
    "ReviewFact",
    "ReviewItem",
    "ReviewOutcome",
    "ReviewQueue",
    "SessionContext",
    "Settlement",
    "SourceChanged",
    "SourceFile",
    "StaleRevision",
    "StatusReport",
    "StorageError",
    "SyncReport",
    "Timeline",
    "TimelineDay",
    "Trace",
    "Unavailable",
    "UnknownBank",
    "UnknownId",
    "Unreadable",
    "Views",
    "Withheld",
    "WorkspaceError",
    "__version__",
    "connect",
]
