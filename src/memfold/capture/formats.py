"""Chat exports read into conversations: the values, tolerant loading, and the reader contract.

This module owns what a conversation is to memfold (`Conversation`, `Message`) and how each
export's shape maps onto it.  Pure functions of the bytes given: no I/O beyond what the caller
hands in, no clock (a format without times takes the day it is given).

A reader is any object with `name`, `description`, `detect(loaded) -> bool` and
`read(loaded, *, day) -> Export`.  The built-ins live in `readers`; another package adds a
format through the entry-point group `memfold.capture_formats` (`registry`), so a new chat
format is one module.  An importer can reuse the same readers.

Loading is tolerant: a JSON array whose tail is cut off still yields the elements before the
cut, and a JSON Lines file yields every line that parses; what does not parse becomes an
`Unreadable` with where it is and why, so the conversations that parse are captured and the
rest listed.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from typing import Any, Protocol

from memfold.errors import BadInput
from memfold.names import USER  # the person whose export it is: whom their facts are about

Json = Any
_WS = re.compile(r"\s+")


@dataclass(frozen=True)
class Message:
    """One turn: who spoke, what they said (verbatim), when, and its identity in the
    conversation (the export's message id, else its position and text)."""

    speaker: str
    text: str
    at: datetime | None
    key: str
    role: str = "user"  # user, assistant or other: extraction reads what people say


@dataclass(frozen=True)
class Conversation:
    key: str  # the export's conversation id, else derived from its first turn
    title: str
    format: str
    messages: tuple[Message, ...]


@dataclass(frozen=True)
class Unreadable:
    where: str  # "conversation 3", "line 17"
    reason: str


@dataclass(frozen=True)
class Export:
    format: str
    conversations: tuple[Conversation, ...]
    problems: tuple[Unreadable, ...] = ()


@dataclass(frozen=True)
class Loaded:
    """The input as the readers see it.  `shape`: "array" (a JSON list: `items` its elements
    that parsed), "object" (one JSON object: `items` is [it]), "lines" (JSON Lines: `items`
    the lines that parsed, `numbers` their line numbers) or "text" (not JSON)."""

    text: str
    shape: str
    items: tuple[Json, ...] = ()
    numbers: tuple[int, ...] = ()
    problems: tuple[Unreadable, ...] = field(default=())
    name: str = "-"


class Format(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    def detect(self, loaded: Loaded) -> bool: ...

    def read(self, loaded: Loaded, *, day: date) -> Export: ...


# -- loading -------------------------------------------------------------------------------


def load(data: bytes | str, *, name: str = "-") -> Loaded:
    """Parse what JSON there is: an array element by element, else lines, else text."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise BadInput(f"{name} is not UTF-8: byte 0x{data[exc.start]:02x} at offset "
                           f"{exc.start}") from None
    else:
        text = data.removeprefix("\ufeff")
    body = text.strip()
    if body.startswith("["):
        return _load_array(text, name)
    if body.startswith("{"):
        try:
            return Loaded(text, "object", (json.loads(body),), name=name)
        except ValueError:
            return _load_lines(text, name)
    return Loaded(text, "text", name=name)


def _load_array(text: str, name: str) -> Loaded:
    """The elements of a JSON array that parse, in order; a cut-off or broken element and
    everything after it become one problem (the rest cannot be told apart reliably)."""
    decoder = json.JSONDecoder()
    items: list[Json] = []
    pos = text.index("[") + 1
    while True:
        pos = _skip(text, pos)
        if pos < len(text) and text[pos] == "]":
            return Loaded(text, "array", tuple(items), name=name)
        try:
            value, pos = decoder.raw_decode(text, pos)
        except ValueError as exc:
            why = ("the file ends inside it (cut off)" if not text.rstrip().endswith("]")
                   else _why(exc))
            return _cut(text, items, name, f"element {len(items) + 1} and after: {why}")
        items.append(value)
        pos = _skip(text, pos)
        if pos < len(text) and text[pos] == ",":
            pos += 1
        elif pos >= len(text) or text[pos] != "]":
            return _cut(text, items, name, f"after element {len(items)}: the list is cut off")


def _cut(text: str, items: list[Json], name: str, reason: str) -> Loaded:
    where = f"conversation {len(items) + 1}"
    return Loaded(text, "array", tuple(items), problems=(Unreadable(where, reason),), name=name)


def _why(exc: ValueError) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} at line {exc.lineno}, column {exc.colno}"
    return str(exc)


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def _load_lines(text: str, name: str) -> Loaded:
    items, numbers, problems = [], [], []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            items.append(json.loads(line))
            numbers.append(number)
        except ValueError as exc:
            problems.append(Unreadable(f"line {number}", f"not JSON ({_why(exc)})"))
    if not items:
        return Loaded(text, "text", name=name)
    return Loaded(text, "lines", tuple(items), tuple(numbers), tuple(problems), name=name)


# -- shared helpers ------------------------------------------------------------------------


def digest(*parts: str, size: int = 10) -> str:
    return hashlib.sha256("\x00".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:size]


def when(value: object) -> datetime | None:
    """A timestamp as exports give it (epoch seconds or ISO 8601) in UTC; None if absent."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            return datetime.fromtimestamp(float(value), UTC)
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(value, str) and value.strip():
        try:
            parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return None
        return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)
    return None


def noon(day: date) -> datetime:
    return datetime.combine(day, time(12), UTC)


def block_text(content: object, *, kinds: Sequence[str] = ("text",)) -> str:
    """The text of a message's content: a string, or the `text` of its text blocks (tool
    calls, tool results and images are left out)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [str(b.get("text", "")) for b in content
                 if isinstance(b, dict) and b.get("type") in kinds and b.get("text")]
        parts += [b for b in content if isinstance(b, str)]
        return "\n\n".join(p for p in parts if p.strip())
    return ""


def speaker_of(role: str) -> tuple[str, str]:
    """(speaker, role) for a chat role: the user is `me`."""
    role = (role or "").strip().casefold()
    if role in ("user", "human"):
        return USER, "user"
    if role in ("assistant", "model", "ai", "bot"):
        return "assistant", "assistant"
    return role or "other", "other"


def derived_key(fmt: str, messages: Sequence[Message]) -> str:
    """A conversation's identity when the export gives none: its first turn, so the same
    conversation grown longer keeps it."""
    first = messages[0] if messages else None
    return digest(fmt, first.speaker if first else "", first.text if first else "")


def positional(fmt: str, raw: Iterable[tuple[str, str, str, datetime | None]]) -> list[Message]:
    """Messages without ids: each keyed by its position and text."""
    return [Message(speaker, text, at, f"{n}:{digest(text, size=8)}", role)
            for n, (speaker, role, text, at) in enumerate(raw)]


def conversation(fmt: str, title: str, key: str | None,
                 messages: Sequence[Message]) -> Conversation:
    kept = tuple(m for m in messages if m.text.strip())
    return Conversation(key or derived_key(fmt, kept), one_line(title), fmt, kept)


def one_line(text: str) -> str:
    return _WS.sub(" ", text).strip()
