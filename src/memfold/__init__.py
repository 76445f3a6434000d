"""memfold: offline-first long-term memory for AI agents.

Markdown files are the source of truth; a derived SQLite index, rebuildable from them, makes
recall fast and cited.  The public API is `Memory` plus the value and error types below.
"""

from .errors import BadInput, MemfoldError, StaleRevision, UnknownId, WorkspaceError
from .memory import Memory
from .model import Fact, Interval, ParseWarning, RetainResult, StatusReport, SyncReport

__version__ = "0.1.0"

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
