"""A LangGraph store (`langgraph.store.base.BaseStore`) on a memfold workspace, so a LangGraph
agent's long-term memory is Markdown with a journal: `MemfoldStore(memory)`.

An item is a Retain bullet in the day's log, written through `Memory.retain` (secrets are
refused, the journal says who wrote it):

    - W @alice: [users/alice] food_pref: {"food": "pizza"} ^1f3a9c02d70

 - the namespace is in the text (`[users/alice]`, exact); its last label, the most specific
   (the user, the thread), is the bullet's entity when it is an entity name — only that one,
   so the judge weighs facts about one subject against each other (the item stays the key's
   current value for the store, whatever the judge says; recall shows what it decided);
 - the key follows it; the value is its JSON (one line, so any dict comes back as it was);
 - the key's block ids are stable: the hash of (namespace, key) and a version number — the
   first `put` writes version 0, each later `put` of the key writes the next version and
   supersedes the one before with a journaled reason (history: `memfold history ID`);
 - `delete` forgets (archives) the current version, journaled; the facts stay in the files;
 - `search` with a query is recall (its best 200 at most, then the prefix and the filter
   applied); without one, every item read from the daily logs (`Memory.files`: one look per
   item), newest first; filters compare value fields ($eq, $ne, $gt, $gte, $lt, $lte).

Namespace labels may not contain `/` or `]`, keys not `: ` or a line break (BadInput,
InvalidNamespaceError for a namespace LangGraph itself refuses).  The async methods run the
same calls on the event loop's thread (memfold's index connection belongs to its thread).
Needs `pip install 'memfold[langgraph]'`; imported only by who uses it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import operator
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

try:
    from langgraph.store.base import (
        BaseStore,
        GetOp,
        Item,
        ListNamespacesOp,
        Op,
        PutOp,
        Result,
        SearchItem,
        SearchOp,
    )
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError("memfold's LangGraph store needs LangGraph: "
                      "pip install 'memfold[langgraph]'") from exc

from memfold.errors import BadInput, UnknownId
from memfold.workspace.format import FactSyntaxError, parse_bullet, retain_lines, valid_slug

if TYPE_CHECKING:
    from memfold.memory import Memory
    from memfold.values import Hit

__all__ = ["MemfoldStore"]

SOURCE = "langgraph"
MAX_VERSIONS = 10_000
_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "$eq": operator.eq, "$ne": operator.ne, "$gt": operator.gt, "$gte": operator.ge,
    "$lt": operator.lt, "$lte": operator.le}


class MemfoldStore(BaseStore):
    """LangGraph's key-value store with search, kept in a memfold workspace."""

    supports_ttl = False

    def __init__(self, memory: Memory, *, source: str = SOURCE) -> None:
        self.memory = memory
        self.source = source

    # -- BaseStore -------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        return [self._one(op) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return self.batch(ops)

    def _one(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            return self._get(op.namespace, op.key)
        if isinstance(op, PutOp):
            self._put(op.namespace, op.key, None if op.value is None else dict(op.value))
            return None
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._namespaces(op)
        raise BadInput(f"unknown store operation: {type(op).__name__}")

    # -- items -----------------------------------------------------------------------------

    def _versions(self, namespace: tuple[str, ...], key: str) -> list[Hit]:
        """Every version of a key written so far, oldest first."""
        base = _base_id(namespace, key)
        found: list[Hit] = []
        for version in range(MAX_VERSIONS):
            try:
                found.append(self.memory.get(f"{base}{version}", use=False, show_secrets=True))
            except UnknownId:
                break
        return found

    def _get(self, namespace: tuple[str, ...], key: str) -> Item | None:
        versions = self._versions(namespace, key)
        if not versions or versions[-1].status == "archived":
            return None
        return self._item(versions[-1], versions[0])

    def _put(self, namespace: tuple[str, ...], key: str, value: dict[str, Any] | None) -> None:
        versions = self._versions(namespace, key)
        current = versions[-1] if versions else None
        if value is None:
            if current is not None and current.status != "archived":
                self.memory.forget(current.fact.id, source=self.source,
                                   reason="deleted through the LangGraph store")
            return
        new_id = f"{_base_id(namespace, key)}{len(versions)}"
        self.memory.retain(_bullet(namespace, key, value, new_id), source=self.source)
        if current is not None and current.status != "archived":
            self.memory.supersede(current.fact.id, new_id, source=self.source,
                                  reason=f"put again through the LangGraph store (key {key})")

    def _item(self, hit: Hit, first: Hit) -> Item:
        namespace, key, value = _parse(hit.fact.content) or ((), "", {})
        return Item(value=value, key=key, namespace=namespace, created_at=self._stamp(first),
                    updated_at=self._stamp(hit))

    def _stamp(self, hit: Hit) -> datetime:
        events = self.memory.history(hit.fact.id)
        if events:
            return datetime.fromisoformat(events[0].ts)
        day = hit.fact.day or self.memory.now().date()
        return datetime(day.year, day.month, day.day, tzinfo=UTC)

    # -- search and namespaces -------------------------------------------------------------

    def _current(self, hits: Sequence[Hit]) -> list[tuple[Hit, tuple[str, ...], str]]:
        """The hits that are a key's current version (not deleted, not put again since)."""
        found = []
        for hit in hits:
            parsed = _parse(hit.fact.content)
            if parsed is None or hit.status == "archived":
                continue
            namespace, key, _ = parsed
            latest = f"{_base_id(namespace, key)}{len(self._versions(namespace, key)) - 1}"
            if hit.fact.id == latest:
                found.append((hit, namespace, key))
        return found

    def _candidates(self, op: SearchOp) -> list[Hit]:
        wanted = op.limit + op.offset
        if not op.query:
            return self._every_item()
        return list(self.memory.recall(op.query, k=min(200, max(25, wanted * 4)),
                                       include_all=True, show_secrets=True).hits)

    def _every_item(self) -> list[Hit]:
        """Every store bullet in the daily logs, as the facts memfold holds."""
        files = self.memory.files
        found = []
        for entry in files.entries("memory", depth=8):
            text = "" if entry.directory else files.read(entry.path) or ""
            for line in retain_lines(text):
                try:
                    bullet = parse_bullet(line.text)
                except FactSyntaxError:
                    continue
                if bullet.block_id and _parse(bullet.content) is not None:
                    with contextlib.suppress(UnknownId):
                        found.append(self.memory.get(bullet.block_id, use=False,
                                                     show_secrets=True))
        return found

    def _search(self, op: SearchOp) -> list[SearchItem]:
        items = []
        for hit, namespace, key in self._current(self._candidates(op)):
            if namespace[:len(op.namespace_prefix)] != tuple(op.namespace_prefix):
                continue
            item = self._get(namespace, key)
            if item is None or not _matches(item.value, op.filter or {}):
                continue
            score = hit.score if op.query else None
            items.append(SearchItem(namespace, key, item.value, item.created_at,
                                    item.updated_at, score=score))
        if not op.query:
            items.sort(key=lambda i: i.updated_at, reverse=True)
        return items[op.offset:op.offset + op.limit]

    def _namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        found = sorted({ns for _, ns, _ in self._current(self._every_item())})
        for condition in op.match_conditions or ():
            found = [ns for ns in found if _condition(ns, condition.match_type,
                                                      tuple(condition.path))]
        if op.max_depth is not None:
            found = sorted({ns[:op.max_depth] for ns in found})
        return found[op.offset:op.offset + op.limit]


def _base_id(namespace: tuple[str, ...], key: str) -> str:
    """The stable start of a key's block ids (hex: valid block id characters)."""
    return hashlib.sha256(json.dumps([list(namespace), key]).encode()).hexdigest()[:10]


def _bullet(namespace: tuple[str, ...], key: str, value: dict[str, Any], block_id: str) -> str:
    if not isinstance(value, dict):
        raise BadInput(f"a store value is a dict, not {type(value).__name__}")
    for label in namespace:
        if "/" in label or "]" in label or not label.strip():
            raise BadInput(f"namespace label {label!r}: memfold's store takes labels without "
                           "'/' or ']'")
    if not key.strip() or ": " in key or "\n" in key or "\r" in key:
        raise BadInput(f"key {key!r}: memfold's store takes keys without ': ' or line breaks")
    head = f" @{namespace[-1]}" if namespace and valid_slug(namespace[-1]) else ""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return f"W{head}: [{'/'.join(namespace)}] {key}: {text} ^{block_id}"


def _parse(content: str) -> tuple[tuple[str, ...], str, dict[str, Any]] | None:
    """(namespace, key, value) of a store bullet's text, or None for any other fact."""
    if not content.startswith("[") or "] " not in content:
        return None
    path, rest = content[1:].split("] ", 1)
    key, sep, text = rest.partition(": ")
    try:
        value = json.loads(text) if sep else None
    except ValueError:
        return None
    if not isinstance(value, dict) or not path:
        return None
    return tuple(path.split("/")), key, value


def _matches(value: dict[str, Any], wanted: dict[str, Any]) -> bool:
    """Whether a value passes a search filter, as LangGraph's stores read one: a field equal
    to a value, or `{"$op": value}` ($gt, $gte, $lt, $lte compare numbers)."""
    for field, expected in wanted.items():
        actual = value.get(field)
        if isinstance(expected, dict) and expected and all(k in _OPS for k in expected):
            if not all(_compare(actual, op, v) for op, v in expected.items()):
                return False
        elif actual != expected:
            return False
    return True


def _compare(actual: Any, op: str, expected: Any) -> bool:
    if op in ("$eq", "$ne"):
        return _OPS[op](actual, expected)
    try:
        return _OPS[op](float(actual), float(expected))
    except (TypeError, ValueError):
        return False


def _condition(namespace: tuple[str, ...], kind: str, path: tuple[str, ...]) -> bool:
    if len(path) > len(namespace):
        return False
    part = namespace[:len(path)] if kind == "prefix" else namespace[len(namespace) - len(path):]
    return all(p in ("*", n) for p, n in zip(path, part, strict=True))
