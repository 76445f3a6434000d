"""Surgical edits of a JSON configuration file that is not memfold's: add or take out one
member of a top-level object (`mcpServers.memfold`) by inserting or cutting its text, so every
other byte of the file stays as its owner wrote it.

`parse` refuses, with one line naming the problem, a file that is empty, is not JSON, or whose
root is not an object.  `add` inserts `"key": value` after the object's last member (or into
an empty object) in the file's own indentation; `remove` cuts exactly that text again, so an
install followed by an uninstall gives the file back byte for byte.  An object that `remove`
leaves empty goes too (as `add` would have created it), and a file left as `{}` is deleted by
the caller.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from memfold.errors import BadInput

_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\r\n]*")


@dataclass(frozen=True)
class Member:
    key: str
    start: int  # where the key's opening quote is
    value_start: int
    end: int  # just past the value


@dataclass(frozen=True)
class Span:
    """A JSON object in the text: its braces and its members."""

    start: int  # the `{`
    end: int  # just past the `}`
    members: tuple[Member, ...]

    def get(self, key: str) -> Member | None:
        return next((m for m in self.members if m.key == key), None)


def parse(text: str, where: str) -> dict[str, Any]:
    """The file's root object, or BadInput naming `where` and the problem."""
    if not text.strip():
        raise BadInput(f"{where}: the file is empty (not JSON); fix or remove it, then rerun")
    try:
        root = json.loads(text)
    except ValueError as exc:
        raise BadInput(f"{where}: not valid JSON ({exc}); fix it, then rerun") from None
    if not isinstance(root, dict):
        raise BadInput(f"{where}: the top level is not a JSON object")
    return root


def _skip(text: str, at: int) -> int:
    match = _SPACE.match(text, at)
    return match.end() if match else at


def locate(text: str, at: int = 0) -> Span:
    """The object that starts at `at` (after white space) with each member's position."""
    start = _skip(text, at)
    if text[start:start + 1] != "{":
        raise ValueError("not an object")
    members: list[Member] = []
    i = _skip(text, start + 1)
    while text[i] != "}":
        key, after = _DECODER.raw_decode(text, i)
        colon = _skip(text, after)
        value_start = _skip(text, colon + 1)
        _, end = _DECODER.raw_decode(text, value_start)
        members.append(Member(str(key), i, value_start, end))
        i = _skip(text, end)
        if text[i] == ",":
            i = _skip(text, i + 1)
    return Span(start, i + 1, tuple(members))


def _line_indent(text: str, at: int) -> str:
    """The white space that begins the line `at` is on."""
    line = text[text.rfind("\n", 0, at) + 1:at]
    return line if not line.strip() else line[:len(line) - len(line.lstrip(" \t"))]


def _unit(text: str) -> str:
    """The file's indentation step (two spaces when it has none to go by)."""
    steps = re.findall(r"\n([ \t]+)\S", text)
    return min(steps, key=len) if steps else "  "


def _render(key: str, value: Any, indent: str, unit: str) -> str:
    body = json.dumps(value, indent=unit, ensure_ascii=False)
    return f"{json.dumps(key)}: " + body.replace("\n", "\n" + indent)


def add(text: str, path: tuple[str, ...], value: Any) -> str:
    """`text` with `value` added under the object at `path` (its last name the new key),
    creating the objects on the way that are missing."""
    span = locate(text)
    for depth, name in enumerate(path[:-1]):
        member = span.get(name)
        if member is None:
            return _insert(text, span, name, _nest(path[depth + 1:], value))
        span = locate(text, member.value_start)
    return _insert(text, span, path[-1], value)


def _nest(path: tuple[str, ...], value: Any) -> Any:
    for name in reversed(path):
        value = {name: value}
    return value


def _insert(text: str, span: Span, key: str, value: Any) -> str:
    unit = _unit(text)
    if span.members:
        last = span.members[-1]
        indent = _line_indent(text, last.start)
        return text[:last.end] + ",\n" + indent + _render(key, value, indent, unit) \
            + text[last.end:]
    outer = _line_indent(text, span.start)
    indent = outer + unit
    inside = "\n" + indent + _render(key, value, indent, unit) + "\n" + outer
    return text[:span.start + 1] + inside + text[span.end - 1:]


def remove(text: str, path: tuple[str, ...]) -> str:
    """`text` without the member at `path`, and without each object on the way that this
    leaves empty (as `add` would have created them)."""
    text = _cut(text, span_at(text, path[:-1]), path[-1])
    if len(path) > 1 and not span_at(text, path[:-1]).members:
        return remove(text, path[:-1])
    return text


def span_at(text: str, path: tuple[str, ...]) -> Span:
    """The object at `path` (which must be there)."""
    span = locate(text)
    for name in path:
        member = span.get(name)
        assert member is not None, name
        span = locate(text, member.value_start)
    return span


def _cut(text: str, span: Span, key: str) -> str:
    index = next(i for i, m in enumerate(span.members) if m.key == key)
    member = span.members[index]
    if index > 0:  # from the end of the one before: the `,\n    "key": value` add wrote
        return text[:span.members[index - 1].end] + text[member.end:]
    if len(span.members) > 1:  # the first of several: up to the next key
        return text[:member.start] + text[span.members[1].start:]
    return text[:span.start + 1] + text[span.end - 1:]  # the only one: `{}` again
