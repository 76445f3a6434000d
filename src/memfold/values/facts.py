"""Facts and what the parser makes of a Markdown file: frozen, plain data.

A `Fact` is one indexed unit read from the Markdown: a typed Retain bullet (kind world,
experience, opinion or observation) or a piece of text (kind "text": a narrative paragraph,
or a line under a Retain heading that did not parse).  Its `path` and `line` always point at
the file as it was when it was parsed, so a citation is `path#Lline`.  Beside it: the
validity `Interval`, `ParseWarning`, a file's `ParsedDoc` and `Citation`s, the `FileStamp`
the index keeps, and a fact's and a warning's JSON (`fact_dict`, `warning_dict`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any, NamedTuple

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

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ParseWarning:
        """A warning from `warning_dict`."""
        return cls(str(d["path"]), int(d["line"]), str(d["message"]))


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

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Fact:
        """A fact from `fact_dict` (retain's JSON).  The JSON does not carry `end_line` or
        `explicit_id`: the fact is taken as one line long, its id as generated."""
        path, line = citation(d["source"])
        return cls(id=d["id"], kind=d["kind"], content=d["content"], path=path, line=line,
                   end_line=line, entities=tuple(d["entities"]), params=dict(d["params"]),
                   confidence=d["confidence"], importance=d["importance"],
                   valid=interval_of(d["valid_from"], d["valid_until"]), day=day_of(d["date"]))


def made_fact(id: str, kind: str, content: str, path: str, line: int, end_line: int,  # noqa: A002
              entities: tuple[str, ...], params: dict[str, str], confidence: float | None,
              importance: int | None, valid: Interval | None, day: date | None,
              explicit_id: bool) -> Fact:
    """`Fact(...)` with every field given in order, for the parser, which makes one per
    bullet, chunk and sentence of a rebuild: a frozen dataclass's own `__init__` sets each
    field through `object.__setattr__` (3.2–3.5 µs for a Fact), this fills its `__dict__` at
    once (0.8–1.2 µs).  The same object: tests/workspace/test_format.py holds the two equal."""
    fact = object.__new__(Fact)
    d = fact.__dict__
    d["id"] = id
    d["kind"] = kind
    d["content"] = content
    d["path"] = path
    d["line"] = line
    d["end_line"] = end_line
    d["entities"] = entities
    d["params"] = params
    d["confidence"] = confidence
    d["importance"] = importance
    d["valid"] = valid
    d["day"] = day
    d["explicit_id"] = explicit_id
    return fact


@dataclass(frozen=True)
class ParsedDoc:
    """Everything memfold takes from one Markdown file."""

    path: str
    role: str  # core | daily | bank | entity | note
    day: date | None
    facts: tuple[Fact, ...]
    warnings: tuple[ParseWarning, ...]
    aliases: tuple[str, ...] = ()  # entity pages: the names this page answers to
    citations: tuple[Citation, ...] = ()  # lines of generated summaries, and what they cite


@dataclass(frozen=True)
class Citation:
    """A generated summary line (`line`) citing `source#Lsource_line`, made from text whose
    short hash was `sha`: when the cited fact changes or vanishes, the page is stale."""

    line: int
    source: str
    source_line: int
    sha: str


class FileStamp(NamedTuple):
    """What the index remembers about a file to tell cheaply whether it changed (a named
    tuple: a sync builds one per file, ten thousand at a time)."""

    size: int
    mtime_ns: int
    sha256: str
    checked_ns: int = 0  # when the file was last read; a stamp near it may hide an edit


def warning_dict(w: ParseWarning) -> dict[str, Any]:
    return {"path": w.path, "line": w.line, "message": w.message}


def warnings_of(items: Any) -> tuple[ParseWarning, ...]:
    """The warnings of a list of `warning_dict`s."""
    return tuple(ParseWarning.from_dict(w) for w in items)


def citation(source: str) -> tuple[str, int]:
    """`memory/2025-11-27.md#L12` -> ("memory/2025-11-27.md", 12)."""
    path, _, line = str(source).rpartition("#L")
    return path, int(line)


def stated_confidence(value: str | None) -> float | None:
    """The confidence a bullet's `c=` param states, as the parser reads it."""
    try:
        c = float(value) if value is not None else -1.0
    except ValueError:
        return None
    return c if 0.0 <= c <= 1.0 else None


def day_of(text: str | None) -> date | None:
    return date.fromisoformat(text) if text else None


def interval_of(start: str | None, end: str | None) -> Interval | None:
    """The interval of a JSON object's two ends; None when neither is given."""
    if start is None and end is None:
        return None
    return Interval(day_of(start), day_of(end))


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
