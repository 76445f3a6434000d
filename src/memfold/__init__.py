"""memfold: offline-first long-term memory for AI agents.

Markdown files are the source of truth; a derived SQLite index, rebuildable from them, makes
recall fast and cited.  The public API is `Memory` plus the value and error types below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import BadInput, MemfoldError, StaleRevision, UnknownId, WorkspaceError

if TYPE_CHECKING:
    from .memory import Memory
    from .model import Fact, Interval, ParseWarning, RetainResult, StatusReport, SyncReport

__version__ = "0.1.0"

_LAZY = {"Memory": "memory", "Fact": "model", "Interval": "model", "ParseWarning": "model",
         "RetainResult": "model", "StatusReport": "model", "SyncReport": "model"}


def __getattr__(name: str) -> Any:
    """Load the facade on first use, so `memfold --help` does not import everything."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'memfold' has no attribute {name!r}")

__all__ = [
    "BadInput",
    "Fact",
    "Interval",
    "Memory",
    "MemfoldError",
    "ParseWarning",
    "RetainResult",
    "StaleRevision",
    "StatusReport",
    "SyncReport",
    "UnknownId",
    "WorkspaceError",
    "__version__",
]
