"""The derived index: parsed facts, entities and lifecycle state, kept for fast recall.

`base.IndexBackend` is the interface every caller uses; `open_index` makes the one backend
there is today (SQLite, the `index.sqlite` package).  Only this package runs
SQL or imports a database driver.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from memfold.index.base import IndexBackend


def open_index(path: Path) -> IndexBackend:
    """Open (creating, checking or repairing) the index at `path`."""
    from memfold.index.sqlite.backend import SqliteIndex

    return SqliteIndex(path)
