"""Value types shared by the parser, the index and the facade: frozen, plain data.

A `Fact` is one indexed unit read from the Markdown: a typed Retain bullet (kind world,
experience, opinion or observation) or a piece of text (kind "text": a narrative paragraph,
or a line under a Retain heading that did not parse).  Its `path` and `line` always point at
the file as it was when it was parsed, so a citation is `path#Lline`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

KIND_LETTERS = {"W": "world", "B": "experience", "O": "opinion", "S": "observation"}
LETTER_OF_KIND = {kind: letter for letter, kind in KIND_LETTERS.items()}
TEXT = "text"
KINDS = (*KIND_LETTERS.values(), TEXT)


@dataclass(frozen=True)
class Interval:
    """A closed range of days during which a fact holds; either end may be open (None)."""

    start: date | None
    end: date | None

    def __str__(self) -> str:
        start = self.start.isoformat() if self.start else ""
        end = self.end.isoformat() if self.end else ""
        return f"{start}..{end}"


@dataclass(frozen=True)
class ParseWarning:
    """Something in a Markdown file that memfold read but could not take as written."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass(frozen=True)
class Fact:
    """One indexed unit: a Retain bullet, or a text chunk (kind "text")."""

    id: str
    kind: str
    content: str
    path: str
    line: int
    end_line: int
    entities: tuple[str, ...] = ()
    params: dict[str, str] = field(default_factory=dict)
    confidence: float | None = None
    importance: int | None = None
    valid: Interval | None = None
    day: date | None = None
    explicit_id: bool = False

    @property
    def source(self) -> str:
        """The citation: workspace-relative path and 1-based line, `memory/2025-11-27.md#L12`."""
        return f"{self.path}#L{self.line}"


@dataclass(frozen=True)
class ParsedDoc:
    """Everything memfold takes from one Markdown file."""

    path: str
    role: str  # core | daily | bank | entity | note
    day: date | None
    facts: tuple[Fact, ...]
    warnings: tuple[ParseWarning, ...]
    aliases: tuple[str, ...] = ()  # entity pages: the names this page answers to


@dataclass(frozen=True)
class FileStamp:
    """What the index remembers about a file to tell cheaply whether it changed."""

    size: int
    mtime_ns: int
    sha256: str
    checked_ns: int = 0  # when the file was last read; a stamp near it may hide an edit


@dataclass(frozen=True)
class SyncReport:
    """What one index sync did."""

    scanned: int
    added: tuple[str, ...]
    changed: tuple[str, ...]
    removed: tuple[str, ...]
    full: bool
    seconds: float
    warnings: tuple[ParseWarning, ...] = ()

    @property
    def touched(self) -> int:
        return len(self.added) + len(self.changed) + len(self.removed)

    def to_dict(self) -> dict[str, Any]:
        return {
            "full": self.full,
            "scanned": self.scanned,
            "added": list(self.added),
            "changed": list(self.changed),
            "removed": list(self.removed),
            "seconds": round(self.seconds, 4),
            "warnings": [warning_dict(w) for w in self.warnings],
        }


@dataclass(frozen=True)
class RetainResult:
    """The bullets one retain call appended, with their ids and exact lines."""

    path: str
    facts: tuple[Fact, ...]
    warnings: tuple[ParseWarning, ...] = ()
    indexed: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "ids": [f.id for f in self.facts],
            "facts": [fact_dict(f) for f in self.facts],
            "indexed": self.indexed,
            "warnings": [warning_dict(w) for w in self.warnings],
        }


@dataclass(frozen=True)
class Freshness:
    """How the files on disk differ from what the index last saw (stat only, no hashing)."""

    new: tuple[str, ...]
    modified: tuple[str, ...]
    deleted: tuple[str, ...]

    @property
    def stale(self) -> int:
        return len(self.new) + len(self.modified) + len(self.deleted)


@dataclass(frozen=True)
class StatusReport:
    """Counts and freshness of a workspace and its index."""

    workspace: str
    index_path: str
    files: int
    facts_by_kind: dict[str, int]
    entities: int
    chunks: int
    warnings: int
    freshness: Freshness
    last_sync: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "workspace": self.workspace,
            "index": self.index_path,
            "files": self.files,
            "facts": sum(self.facts_by_kind.values()),
            "facts_by_kind": self.facts_by_kind,
            "entities": self.entities,
            "chunks": self.chunks,
            "warnings": self.warnings,
            "last_sync": self.last_sync,
            "freshness": {
                "stale": self.freshness.stale,
                "new": list(self.freshness.new),
                "modified": list(self.freshness.modified),
                "deleted": list(self.freshness.deleted),
            },
        }


def warning_dict(w: ParseWarning) -> dict[str, Any]:
    return {"path": w.path, "line": w.line, "message": w.message}


def fact_dict(f: Fact) -> dict[str, Any]:
    return {
        "id": f.id,
        "kind": f.kind,
        "content": f.content,
        "entities": list(f.entities),
        "params": dict(f.params),
        "confidence": f.confidence,
        "importance": f.importance,
        "valid_from": f.valid.start.isoformat() if f.valid and f.valid.start else None,
        "valid_until": f.valid.end.isoformat() if f.valid and f.valid.end else None,
        "date": f.day.isoformat() if f.day else None,
        "source": f.source,
    }
