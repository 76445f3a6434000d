"""What an importer reads and what it hands back: the values of an import, and the reader
contract every importer (built-in or plugin) implements.

An importer is any object with `name`, `description`, `detect(source) -> bool` and
`read(source) -> Batch`.  It only reads: `Source` gives it the path and the bytes; the
`Batch` it returns holds facts (`FactRecord`, each retained through `Memory.retain`), notes
(`Note`, written as bank pages with their entities) and chat exports (captured by the
capture engine), with what it could not read as `Unreadable` problems.  Pure apart from
reading the source: no clock, no workspace.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import Protocol

from memfold.capture.formats import Loaded, Unreadable, load
from memfold.errors import BadInput

ID_SHAPE_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789"


@dataclass(frozen=True)
class Source:
    """The thing named on the command line: a file or a folder.  `data` and `loaded` read
    a file once, when an importer first asks."""

    path: Path
    name: str
    follow_links: bool = False

    @cached_property
    def data(self) -> bytes:
        if self.path.is_dir():
            return b""
        try:
            return self.path.read_bytes()
        except OSError as exc:
            raise BadInput(f"{self.name}: cannot read it ({exc.strerror or exc})") from None

    @cached_property
    def loaded(self) -> Loaded:
        """The file parsed as capture parses an export (JSON array, object, lines, text)."""
        return load(self.data, name=self.name)


@dataclass(frozen=True)
class FactRecord:
    """One fact to retain.  `id` is the source's own id (a memfold block id is kept, any
    other is turned into one: `block_id`); `source` who stated it (journaled as `by`);
    `status`, `supersedes` and `superseded_by` are set after retaining when given (an export
    of memfold's own), else the judge decides."""

    text: str
    day: date | None  # None: undated (dated the day it is imported)
    kind: str = "W"  # W, B, O or S
    entities: tuple[str, ...] = ()
    confidence: float | None = None
    id: str | None = None
    source: str | None = None
    status: str | None = None
    supersedes: tuple[str, ...] = ()
    superseded_by: str | None = None
    where: str = ""  # "line 3", for problems


@dataclass(frozen=True)
class Note:
    """A Markdown note of a vault: where it lies in the vault, its bytes, and the names it
    brings — its title and front-matter aliases, the `[[links]]` and `#tags` it holds."""

    rel: str
    data: bytes
    title: str
    aliases: tuple[str, ...] = ()
    links: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Batch:
    """What an importer read from a source."""

    format: str
    facts: tuple[FactRecord, ...] = ()
    notes: tuple[Note, ...] = ()
    chats: tuple[tuple[str, bytes], ...] = ()  # (name, bytes) of chat exports to capture
    problems: tuple[Unreadable, ...] = field(default=())
    left_out: tuple[Unreadable, ...] = ()  # not imported by design (a link not followed)
    root: Path | None = None  # the vault's folder, for notes


class Importer(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    def detect(self, source: Source) -> bool: ...

    def read(self, source: Source) -> Batch: ...


def block_id(raw: str) -> str:
    """A memfold block id for a source's id: kept when it has the shape (six or more of
    a-z0-9), else derived from it (the same id always gives the same block id)."""
    bare = raw.strip().lstrip("^")
    if len(bare) >= 6 and all(ch in ID_SHAPE_CHARS for ch in bare):
        return bare
    digest = hashlib.sha256(raw.encode("utf-8", "surrogatepass")).digest()
    return "i" + base64.b32encode(digest).decode("ascii").lower()[:11]


def record_id(record: FactRecord) -> str:
    """The block id a record is retained under: its own id's, else one derived from its
    day, kind and text, so importing the same record twice finds it the second time."""
    if record.id:
        return block_id(record.id)
    day = record.day.isoformat() if record.day else "undated"
    return block_id(f"{day}\0{record.kind}\0{' '.join(record.text.split())}")
