"""memfold: offline-first long-term memory for AI agents.

Markdown files are the source of truth; a derived SQLite index, rebuildable from them, makes
recall fast and cited.  The public API is `Memory` plus the value and error types below;
`memfold.connect(server, token=..., bank=...)` opens a bank of a memfold server instead, with
the same methods (memfold.client.remote).
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

    from memfold.client.remote import connect as connect
    from memfold.lifecycle.review import (
        ReviewFact,
        ReviewItem,
        ReviewOutcome,
        ReviewQueue,
        Settlement,
    )
    from memfold.memory import Memory
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

__version__ = "0.1.0"

# The value types a caller of `Memory` gets back (tests/test_public_api.py keeps this complete).
_MODEL_TYPES = ("AboutResult", "Fact", "Freshness", "Hit", "Interval", "Judgement", "ParseWarning",
                "RecallResult", "RetainResult", "StatusReport", "SyncReport")
# `connect` (memfold.client.remote) is reached as memfold.connect; __all__ keeps to Memory,
# its value types and errors, which `from memfold import *` gives.
# What `Memory.review`, `accept` and `reject` give back (memfold.lifecycle.review).
_REVIEW_TYPES = ("ReviewFact", "ReviewItem", "ReviewOutcome", "ReviewQueue", "Settlement")
_LAZY = {"Memory": "memory", "connect": "client.remote",
         **{name: "values" for name in _MODEL_TYPES},
         **{name: "lifecycle.review" for name in _REVIEW_TYPES}}


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
    "EmbedUnavailable",
    "Fact",
    "Freshness",
    "Hit",
    "IncompleteSet",
    "IndexDamaged",
    "IndexError_",
    "Interval",
    "Judgement",
    "MemfoldError",
    "Memory",
    "ParseWarning",
    "RecallResult",
    "RetainResult",
    "ReviewFact",
    "ReviewItem",
    "ReviewOutcome",
    "ReviewQueue",
    "Settlement",
    "SourceChanged",
    "StaleRevision",
    "StatusReport",
    "StorageError",
    "SyncReport",
    "Unavailable",
    "UnknownBank",
    "UnknownId",
    "WorkspaceError",
    "__version__",
]
