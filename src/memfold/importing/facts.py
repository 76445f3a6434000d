"""The fact stores: a generic JSON Lines file of facts and a Mem0 export, read into
`FactRecord`s (each then retained through `Memory.retain` on its date).

Generic JSONL, one fact a line: `text` and `date` (YYYY-MM-DD or an ISO time; null for an
undated fact, dated the day it is imported), optional `kind` (W/B/O/S or
world/experience/opinion/observation; default W), `entities` (a list or one name),
`confidence` (0..1), `id`, `source`, and the lifecycle of memfold's own export (`status`,
`supersedes`, `superseded_by`).  Mem0: its memories (`id`, `memory`,
`created_at`, `updated_at`, `user_id`, `metadata`) as `get_all` returns them — a list,
or `{"results": [...]}` / `{"memories": [...]}` — or a memory a line.  A line or memory that
does not parse is a problem naming where it is and why; the rest are read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from memfold.capture.formats import Loaded, Unreadable
from memfold.importing.sources import Batch, FactRecord, Source
from memfold.values import KIND_LETTERS, LETTER_OF_KIND
from memfold.workspace.format import entity_slug

_DAY = re.compile(r"(\d{4}-\d{2}-\d{2})")


class BadRecord(ValueError):
    """A record that cannot be read; the message says why, in one line."""


def entity_name(raw: object) -> str:
    """A name as memfold's `@Entity` syntax takes it: letters, digits, `-`, `_`, `.`
    (other characters, spaces included, become `-`; spellings that differ only there are
    one entity anyway)."""
    return entity_slug(str(raw))


def _day(value: object, what: str) -> date | None:
    if value is None:
        return None
    m = _DAY.match(value.strip()) if isinstance(value, str) else None
    if not m:
        raise BadRecord(f"{what} must be a date (YYYY-MM-DD or an ISO time), not {value!r}")
    try:
        return date.fromisoformat(m.group(1))
    except ValueError:
        raise BadRecord(f"{what} {value!r} is not a calendar date") from None


def _kind(value: object) -> str:
    if value is None:
        return "W"
    text = str(value).strip()
    if text.upper() in KIND_LETTERS:
        return text.upper()
    if text.lower() in LETTER_OF_KIND:
        return LETTER_OF_KIND[text.lower()]
    raise BadRecord(f"kind {value!r} is none of W, B, O, S (world, experience, opinion, "
                    "observation)")


def _names(value: object) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else None
    if items is None and value is not None:
        raise BadRecord(f"entities must be a list of names, not {value!r}")
    found = (entity_name(item) for item in items or () if isinstance(item, str | int))
    return tuple(dict.fromkeys(name for name in found if name))


def _confidence(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise BadRecord(f"confidence must be a number from 0 to 1, not {value!r}")
    return float(value)


def _text(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise BadRecord(f"{what} must be non-empty text")
    return " ".join(value.split())


def _ids(value: object) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    return tuple(str(item) for item in items if isinstance(item, str) and item.strip())


def _optional(value: object) -> str | None:
    return str(value) if isinstance(value, str | int) and str(value).strip() else None


def fact_record(item: Mapping[str, Any], where: str) -> FactRecord:
    """A generic JSONL fact (raises BadRecord)."""
    if "date" not in item:
        raise BadRecord("date is missing (give null for an undated fact)")
    return FactRecord(
        text=_text(item.get("text"), "text"), day=_day(item.get("date"), "date"),
        kind=_kind(item.get("kind")), entities=_names(item.get("entities")),
        confidence=_confidence(item.get("confidence")), id=_optional(item.get("id")),
        source=_optional(item.get("source")), status=_optional(item.get("status")),
        supersedes=_ids(item.get("supersedes")),
        superseded_by=_optional(item.get("superseded_by")), where=where)


def mem0_record(item: Mapping[str, Any], where: str) -> FactRecord:
    """A Mem0 memory (raises BadRecord).  Dated by `created_at` (else `updated_at`);
    about its `user_id` (or `agent_id`) unless its metadata names the entities; the
    metadata memfold's own Mem0 export writes (kind, entities, confidence, source, status,
    supersedes, superseded_by) is read back."""
    found = item.get("metadata")
    meta: Mapping[str, Any] = found if isinstance(found, dict) else {}
    stamp = item.get("created_at") or item.get("updated_at")
    owner = item.get("user_id") or item.get("agent_id")
    entities = meta.get("entities", [owner] if owner else None)
    return FactRecord(
        text=_text(item.get("memory"), "memory"), day=_day(stamp, "created_at"),
        kind=_kind(meta.get("kind")), entities=_names(entities),
        confidence=_confidence(meta.get("confidence")), id=_optional(item.get("id")),
        source=_optional(meta.get("source")), status=_optional(meta.get("status")),
        supersedes=_ids(meta.get("supersedes")),
        superseded_by=_optional(meta.get("superseded_by")), where=where)


def _items(loaded: Loaded) -> list[tuple[str, Any]]:
    """The records of a loaded file with where each is: line N, or element N."""
    if loaded.shape == "lines":
        return [(f"line {n}", item) for n, item in zip(loaded.numbers, loaded.items,
                                                         strict=True)]
    if loaded.shape == "object":
        body = loaded.items[0] if loaded.items else None
        for key in ("results", "memories"):
            if isinstance(body, dict) and isinstance(body.get(key), list):
                return [(f"memory {n}", item) for n, item in enumerate(body[key], 1)]
        return [("line 1", body)]
    return [(f"element {n}", item) for n, item in enumerate(loaded.items, 1)]


def _read(loaded: Loaded, name: str, make: Any) -> Batch:
    records: list[FactRecord] = []
    problems = list(loaded.problems)
    for where, item in _items(loaded):
        try:
            if not isinstance(item, dict):
                raise BadRecord("not a JSON object")
            records.append(make(item, where))
        except BadRecord as exc:
            problems.append(Unreadable(where, str(exc)))
    return Batch(name, facts=tuple(records), problems=tuple(problems))


def _first(loaded: Loaded) -> Any:
    items = _items(loaded) if loaded.shape != "text" else []
    return next((item for _, item in items if isinstance(item, dict)), None)


def _has(item: Any, keys: Sequence[str]) -> bool:
    return isinstance(item, dict) and all(key in item for key in keys)


class FactsJSONL:
    """A generic JSON Lines file of facts (also a JSON list of them)."""

    name = "jsonl"
    description = 'JSON Lines of facts: {"text", "date", "kind"?, "entities"?, "confidence"?}'

    def detect(self, source: Source) -> bool:
        return not source.path.is_dir() and _has(_first(source.loaded), ("text", "date"))

    def read(self, source: Source) -> Batch:
        return _read(source.loaded, self.name, fact_record)


class Mem0:
    """A Mem0 export: memories with `memory`, `created_at`, `updated_at`."""

    name = "mem0"
    description = 'a Mem0 export: {"results": [{"id", "memory", "created_at", ...}]}'

    def detect(self, source: Source) -> bool:
        return not source.path.is_dir() and _has(_first(source.loaded), ("memory",))

    def read(self, source: Source) -> Batch:
        return _read(source.loaded, self.name, mem0_record)
