"""The index interface: what every backend (SQLite now, PostgreSQL later) provides.

The index is derived data.  It holds nothing that the Markdown files (and, later, the
journal) do not, so any backend can be dropped and rebuilt.  Backends see parsed documents
only — never Markdown — and the sync logic above them is shared, so a new backend fits beside
SQLite without touching the parser or the CLI.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..model import FileStamp, ParsedDoc, ParseWarning

DocChange = tuple[ParsedDoc, FileStamp]
Progress = Callable[[int], None]


@dataclass(frozen=True)
class IndexCounts:
    files: int
    facts_by_kind: dict[str, int]
    entities: int
    chunks: int
    warnings: int


class IndexBackend(Protocol):
    """A store of parsed documents that can answer questions about them."""

    location: str

    def stamps(self) -> dict[str, FileStamp]:
        """The stamp of every file the index holds, by workspace-relative path."""
        ...

    def apply(
        self,
        changes: Sequence[DocChange],
        removed: Sequence[str],
        restamped: Sequence[tuple[str, FileStamp]],
        *,
        full: bool,
        synced_at: str,
    ) -> None:
        """In one transaction: replace the rows of changed files, drop removed files, and
        record new stamps for files whose content did not change.  `full` starts from empty."""
        ...

    def counts(self) -> IndexCounts: ...

    def warnings(self) -> list[ParseWarning]: ...

    def locate(self, fact_id: str) -> list[str]:
        """Citations of every row with this id."""
        ...

    def meta(self, key: str) -> str | None: ...

    def dump(self) -> list[tuple[object, ...]]:
        """Every indexed row in a canonical order: two indexes of the same files compare equal."""
        ...

    def close(self) -> None: ...
