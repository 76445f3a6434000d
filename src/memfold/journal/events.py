"""The journal's event kinds: one frozen dataclass per kind, and their JSON.

A journal line is `{"seq", "ts", "event", "id", ...keys of its kind..., "prev", "hash"}`
(journal.log owns the line and its chain); this module owns the part from `event` on — the
record of one decision.  Each kind lists its keys as fields, in the order memfold writes them,
so `to_dict` gives back the dict a line was read from, key for key, and the chain hash over it
is the hash already in the file.

Some keys are optional (`optional()`): None means the key is absent, and it stays absent when
written — a `restore` journaled by `reflect --undo` carries no `sha`, say.  Keys a kind does
not know (written by a newer memfold) are kept in `extra` and written back after the known
ones.  A line whose kind is unknown, or whose keys do not fit its kind (a missing key, a
wrong type), is read as `Unknown`, which keeps its dict as it was: no line is ever lost, and
the lifecycle fold ignores it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

_OMIT = "memfold.omit"  # field metadata: None means the key is absent
_KEY = "memfold.key"  # field metadata: the JSON key, when it is not the field's name


def optional(*, key: str | None = None) -> Any:
    """A key that may be absent: None leaves it out of the JSON."""
    return field(default=None, metadata={_OMIT: True, **({_KEY: key} if key else {})})


def renamed(key: str) -> Any:
    """A required key whose JSON name is not a Python name (`from`)."""
    return field(metadata={_KEY: key})


def content_sha(text: str) -> str:
    """The short hash (`sha`, `shas`) that ties an event to the fact text it was made about."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


@dataclass(frozen=True, kw_only=True)
class Record:
    """What one journal line records, without its place in the chain (seq, ts, hashes)."""

    KIND: ClassVar[str] = ""
    id: str
    extra: Mapping[str, Any] = field(default_factory=dict)  # keys this memfold doesn't know
    # who made the change (an agent's or a server's name), when the writer said; written last
    source: str | None = optional()

    @property
    def kind(self) -> str:
        """The line's `event`."""
        return self.KIND

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of the line from `event` on, keys in the order memfold writes."""
        out: dict[str, Any] = {"event": self.kind, "id": self.id}
        for name, key, _, omit in _layout(type(self)):
            value = getattr(self, name)
            if not (omit and value is None):
                out[key] = list(value) if isinstance(value, tuple) else value
        out.update(self.extra)
        return out


@dataclass(frozen=True, kw_only=True)
class Retain(Record):
    """Who retained the bullets of one retain call (`by`), with each text's hash and the
    file they were written to (`path`: which copy holds an id pasted elsewhere later)."""

    KIND: ClassVar[str] = "retain"
    ids: tuple[str, ...]
    by: str
    shas: tuple[str, ...] | None = optional()
    path: str | None = optional()
    # the caller's idempotency key: a retain with the same key answers this one, storing nothing
    idempotency_key: str | None = optional()


@dataclass(frozen=True, kw_only=True)
class Supersede(Record):
    """`id` is replaced by the newer fact `by`; `judge` says who decided ("manual", …)."""

    KIND: ClassVar[str] = "supersede"
    by: str
    reason: str
    judge: str
    on: str | None  # the newer fact's date (null for an undated one)
    sha: str | None = optional()


@dataclass(frozen=True, kw_only=True)
class Conflict(Record):
    """The judge weighed `id` against the newer fact `by` and left it active: a change it
    would not make by itself, open in `memfold review` until accepted (a supersede of `id`
    by `by`) or dismissed."""

    KIND: ClassVar[str] = "conflict"
    by: str
    reason: str
    judge: str
    on: str | None  # the newer fact's date (null for an undated one)
    sha: str | None = optional()


# Which of the rule judge's rules a reason comes from (judge/rules.py words its reasons so):
# the review queue's `rule`.  A judge whose reasons are free text is its own rule.
RULES = (
    ("explicit", re.compile(r"^explicit supersedes")),
    ("moved", re.compile(r"\bmoved away from\b")),
    ("renamed", re.compile(r"\brenamed\b")),
    ("ended", re.compile(r"\bended$|relationship ended")),
    ("opinion", re.compile(r"^the opinion\b")),
    ("status", re.compile(r"^status: ")),
    ("topic", re.compile(r"^same topic: ")),
    ("meaning", re.compile(r"^same slot by meaning\b")),  # judge/meaning.py: the embedder's
    ("changes", re.compile(r"^the newer fact changes\b")),
    ("value", re.compile(r"^[^:]+: .+ became ")),
)


def rule_of(judge: str, reason: str) -> str:
    """The rule behind a supersede's or a conflict's reason (`RULES`), else the judge."""
    if judge in ("explicit", "manual"):
        return judge
    said = reason.split(", but the ")[0]
    return next((rule for rule, form in RULES if form.search(said)), judge)


@dataclass(frozen=True, kw_only=True)
class Dismiss(Record):
    """A person or an agent settled the conflict between `id` and the newer fact `by`: the
    older fact holds (`memfold review reject`)."""

    KIND: ClassVar[str] = "dismiss"
    by: str
    reason: str
    sha: str | None = optional()


@dataclass(frozen=True, kw_only=True)
class Restore(Record):
    KIND: ClassVar[str] = "restore"
    reason: str
    sha: str | None = optional()


@dataclass(frozen=True, kw_only=True)
class Expire(Record):
    KIND: ClassVar[str] = "expire"
    reason: str
    sha: str | None = optional()


@dataclass(frozen=True, kw_only=True)
class Merge(Record):
    """Reflect consolidated `id` into the fact `into`."""

    KIND: ClassVar[str] = "merge"
    into: str
    reason: str
    on: str | None
    sha: str | None = optional()


@dataclass(frozen=True, kw_only=True)
class Derive(Record):
    """The consolidated fact `id` was derived from these facts (empty: no longer)."""

    KIND: ClassVar[str] = "derive"
    from_: tuple[str, ...] = renamed("from")


@dataclass(frozen=True, kw_only=True)
class Archive(Record):
    KIND: ClassVar[str] = "archive"
    reason: str
    sha: str | None = optional()


@dataclass(frozen=True, kw_only=True)
class Note(Record):
    """A person's note; `rev` is the fact's revision it makes."""

    KIND: ClassVar[str] = "note"
    rev: int
    note: str
    sha: str | None = optional()


@dataclass(frozen=True, kw_only=True)
class Revise(Record):
    """The fact's text changed under the same id: its revision rises to `rev`."""

    KIND: ClassVar[str] = "revise"
    rev: int
    sha: str | None = optional()
    reason: str


@dataclass(frozen=True, kw_only=True)
class Use(Record):
    KIND: ClassVar[str] = "use"
    sha: str | None = optional()


@dataclass(frozen=True, kw_only=True)
class Confidence(Record):
    """An opinion's confidence moved to `c` (from `from_`) by the evidence counted."""

    KIND: ClassVar[str] = "confidence"
    c: float | None
    from_: float | None = optional(key="from")
    support: tuple[str, ...] | None = optional()
    contradict: tuple[str, ...] | None = optional()
    reason: str | None = optional()
    on: str | None  # when it moved (null: as of the line's ts)
    sha: str | None = optional()


@dataclass(frozen=True, kw_only=True)
class Reset(Record):
    """`reflect --undo`: lifecycle fields put back as they were (`state`), and the seqs of
    the run's events it takes back."""

    KIND: ClassVar[str] = "reset"
    state: Mapping[str, Any]
    reason: str
    undoes: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class Purge(Record):
    """`forget --purge` removed every copy of the fact; only a SHA-256 of its text stays."""

    KIND: ClassVar[str] = "purge"
    purged_sha256: str
    sha: str | None = optional()


@dataclass(frozen=True, kw_only=True)
class Core(Record):
    """An edit of a memory.md block (id `core:<Block>`); `undoes` the seq an undo reverts."""

    KIND: ClassVar[str] = "core"
    block: str
    op: str
    before: str | None  # null: the edit created the block
    text: str | None  # null: the edit removed the block
    after: str | None  # a short hash of `text`
    undoes: int | None = optional()


@dataclass(frozen=True, kw_only=True)
class Unknown(Record):
    """A line of a kind this memfold does not know, or that does not fit its kind: its
    keys are kept in `extra`, as read, and written back unchanged."""

    name: str

    @property
    def kind(self) -> str:
        return self.name

    def to_dict(self) -> dict[str, Any]:
        return {"event": self.name, "id": self.id, **self.extra}


KINDS: dict[str, type[Record]] = {cls.KIND: cls for cls in (
    Retain, Supersede, Conflict, Dismiss, Restore, Expire, Merge, Derive, Archive, Note, Revise,
    Use, Confidence, Reset, Purge, Core)}


def from_dict(obj: Mapping[str, Any]) -> Record:
    """The record of a line's JSON object (keys from `event` on); raises KeyError without an
    `event` or an `id`, like any unreadable line."""
    kind, ident = str(obj["event"]), str(obj["id"])
    rest = {k: v for k, v in obj.items() if k not in ("event", "id")}
    cls = KINDS.get(kind)
    typed = _typed(cls, ident, rest) if cls is not None and isinstance(obj["id"], str) \
        else None
    return typed if typed is not None else Unknown(id=ident, name=kind, extra=rest)


def _typed(cls: type[Record], ident: str, rest: dict[str, Any]) -> Record | None:
    values: dict[str, Any] = {}
    keys = set()
    for name, key, fits, omit in _layout(cls):
        keys.add(key)
        if key not in rest:
            if omit:
                continue
            return None
        value = rest[key]
        if (omit and value is None) or not fits(value):
            return None  # a null where the key is left out, or a wrong type
        values[name] = tuple(value) if isinstance(value, list) else value
    extra = {k: v for k, v in rest.items() if k not in keys}
    return cls(id=ident, extra=extra, **values)


Check = Callable[[Any], bool]
_Layout = tuple[tuple[str, str, Check, bool], ...]
_LAYOUTS: dict[type[Record], _Layout] = {}


def _layout(cls: type[Record]) -> _Layout:
    """(field name, JSON key, type check, optional) of a kind's keys after `event` and `id`,
    worked out once per kind."""
    found = _LAYOUTS.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls)
        keys = [f for f in dataclasses.fields(cls) if f.name not in ("id", "extra", "source")]
        keys += [f for f in dataclasses.fields(cls) if f.name == "source"]  # always last
        found = _LAYOUTS[cls] = tuple(
            (f.name, f.metadata.get(_KEY, f.name), _check(hints[f.name]),
             bool(f.metadata.get(_OMIT))) for f in keys)
    return found


def _check(hint: Any) -> Check:
    """Whether a JSON value has the type a field declares."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return lambda value: True
    if origin in (types.UnionType, typing.Union):
        checks = [_check(arg) for arg in args]
        return lambda value: any(check(value) for check in checks)
    if origin is tuple:
        item = _check(args[0])
        return lambda value: isinstance(value, list) and all(item(v) for v in value)
    if origin is Mapping:
        return lambda value: isinstance(value, dict)
    if hint is type(None):
        return lambda value: value is None
    if hint in (int, float):  # JSON has no bool-as-number; a float may be written as 1
        number = int | float if hint is float else int
        return lambda value: isinstance(value, number) and not isinstance(value, bool)
    return lambda value: isinstance(value, hint)


__all__ = ["KINDS", "RULES", "Archive", "Confidence", "Conflict", "Core", "Derive", "Dismiss",
           "Expire", "Merge", "Note", "Purge", "Record", "Reset", "Restore", "Retain", "Revise",
           "Supersede", "Unknown", "Use", "content_sha", "from_dict", "optional", "renamed",
           "rule_of"]
