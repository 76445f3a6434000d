"""What each agent tool returns, as JSON Schema: the MCP `outputSchema` of every tool.

A client that reads `structuredContent` can rely on these keys; the MCP SDK's client checks
every successful result against its tool's schema.  The schemas name the keys a caller acts
on and their types, and allow more (`additionalProperties` is left open): memfold adds keys
to its results over time and never renames or reshapes one.  The compact and the full form
of a read tool (`full: true`) share the keys listed as required here.
"""

from __future__ import annotations

from typing import Any

__all__ = ["output_schema"]


def _obj(properties: dict[str, Any], *required: str) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required)}


def _list(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


_STR: dict[str, Any] = {"type": "string"}
_INT: dict[str, Any] = {"type": "integer"}
_BOOL: dict[str, Any] = {"type": "boolean"}
_NUM: dict[str, Any] = {"type": "number"}
_STRS = _list(_STR)
_MAYBE_STR: dict[str, Any] = {"type": ["string", "null"]}

# one recalled fact, compact or full: what both forms carry
_HIT = _obj({"id": _STR, "kind": _STR, "content": _STR, "source": _STR, "status": _STR,
             "why": _STR, "rev": _INT, "entities": _STRS, "date": _MAYBE_STR,
             "timestamp": _MAYBE_STR, "valid_from": _MAYBE_STR,
             "confidence": {"type": ["number", "null"]}, "superseded_by": _MAYBE_STR,
             "possibly_outdated_by": _STRS, "valid_until": _MAYBE_STR, "note": _MAYBE_STR,
             "weak": _BOOL},
            "id", "kind", "content", "source", "status")
_RESULTS = _list(_HIT)
_WINDOW = {"type": ["object", "null"], "properties": {"start": _MAYBE_STR, "end": _MAYBE_STR}}
_CORE_EDIT = _obj({"block": _STR, "op": _STR, "text": _MAYBE_STR, "previous": _MAYBE_STR,
                   "chars": _INT, "limit": _INT, "free": _INT, "seq": _INT,
                   "history_id": _STR},
                  "block", "op", "text", "seq")
_RETAINED = _obj({"id": _STR, "kind": _STR, "content": _STR, "entities": _STRS,
                  "date": _MAYBE_STR, "source": _STR}, "id", "kind", "content", "source")
_SIDE = _obj({"id": _STR, "content": _MAYBE_STR, "source": _MAYBE_STR, "day": _MAYBE_STR,
              "status": _MAYBE_STR}, "id", "content", "source", "status")
_ITEM = _obj({"id": _INT, "kind": {"enum": ["conflict", "supersede"]}, "state": _STR,
              "older": _SIDE, "newer": _SIDE, "judge": _STR, "rule": _STR, "reason": _STR,
              "ts": _STR,
              "settled": {"type": ["object", "null"],
                          "properties": {"state": _STR, "seq": _INT, "ts": _STR,
                                         "by": _MAYBE_STR, "reason": _STR}}},
             "id", "kind", "state", "older", "newer", "judge", "rule", "reason", "ts",
             "settled")
_OUTCOME = _obj({"action": _STR, "dry_run": _BOOL, "settled": _list(_ITEM),
                 "unchanged": _list(_ITEM)}, "action", "dry_run", "settled", "unchanged")
_CHANGES = {"added": _STRS, "changed": _STRS, "removed": _STRS, "warnings": _list({})}

_SCHEMAS: dict[str, dict[str, Any]] = {
    "recall": _obj({"results": _RESULTS, "omitted_for_budget": _INT,
                    "hidden_by_lifecycle": {"type": "object",
                                            "additionalProperties": _INT},
                    "window": _WINDOW, "notes": _STRS, "answered": _BOOL},
                   "results", "omitted_for_budget", "hidden_by_lifecycle"),
    "about": _obj({"entity": _STR, "found": _BOOL, "page": _MAYBE_STR, "aliases": _STRS,
                   "results": _RESULTS},
                  "entity", "found", "page", "aliases", "results"),
    "show": _obj({**_HIT["properties"], "path": _STR, "line": _INT, "sha256": _STR,
                  "params": {"type": "object"}, "reason": _MAYBE_STR,
                  "derived_from": _STRS},
                 "id", "kind", "content", "source", "status", "rev", "path", "line"),
    "retain": _obj({"path": _STR, "ids": _STRS, "facts": _list(_RETAINED), "indexed": _BOOL,
                    "warnings": _list({}), "superseded": _list({"type": "object"}),
                    "conflicts": _list({"type": "object"})},
                   "path", "ids", "facts", "superseded", "conflicts"),
    "use": _obj({"used": _STRS}, "used"),
    "note": _obj({"id": _STR, "result": {"enum": ["applied"]}, "rev": _INT},
                 "id", "result", "rev"),
    "supersede": _obj({"old": _STR, "new": _STR, "changed": _BOOL}, "old", "new", "changed"),
    "forget": _obj({"id": _STR, "result": {"enum": ["archived", "purged"]}, "files": _STRS},
                   "id", "result", "files"),
    "restore": _obj({"id": _STR, "result": {"enum": ["restored"]}}, "id", "result"),
    "review": _obj({"total": _INT, "items": _list(_ITEM)}, "total", "items"),
    "review_accept": _OUTCOME,
    "review_reject": _OUTCOME,
    "history": _obj({"id": _STR,
                     "events": _list(_obj({"seq": _INT, "ts": _STR, "event": _STR,
                                           "id": _STR, "by": _STR},
                                          "seq", "ts", "event", "id"))},
                    "id", "events"),
    "trace": _obj({"id": _STR, "fact": _HIT, "supersedes": _RESULTS,
                   "superseded_by": _RESULTS, "derived_from": _RESULTS},
                  "id", "fact", "supersedes", "superseded_by", "derived_from"),
    "status": _obj({"workspace": _STR, "index": _STR, "files": _INT, "facts": _INT,
                    "facts_by_kind": {"type": "object", "additionalProperties": _INT},
                    "entities": _INT, "warnings": _INT, "last_sync": _MAYBE_STR,
                    "freshness": {"type": "object"}, "stale_pages": _list({}),
                    "link_warnings": _list({}), "secrets": _list({})},
                   "workspace", "files", "facts", "facts_by_kind", "warnings"),
    "entities": _obj({"entities": _list(_obj({"name": _STR, "facts": _INT}, "name", "facts")),
                      "omitted": _INT},
                     "entities", "omitted"),
    "index": _obj({"full": _BOOL, "scanned": _INT, **_CHANGES, "seconds": _NUM},
                  "full", "scanned", "added", "changed", "removed"),
    "reflect": _obj({"since": _STR, "as_of": _STR, "dry_run": _BOOL, "pages": _STRS,
                     "events": _INT, "diff": _MAYBE_STR},
                    "dry_run", "pages", "events"),
    "core_view": _obj({"path": _STR,
                       "blocks": _list(_obj({"name": _STR, "limit": _INT, "chars": _INT,
                                             "free": _INT, "text": _STR, "source": _STR},
                                            "name", "limit", "chars", "text")),
                       "warnings": _list({})},
                      "path", "blocks"),
    "core_append": _CORE_EDIT,
    "core_replace": _CORE_EDIT,
    "core_insert": _CORE_EDIT,
    "core_undo": _CORE_EDIT,
    "context": _obj({"as_of": _STR, "budget": _INT, "tokens": _INT, "text": _STR,
                     "sections": _list({"type": "object"})},
                    "as_of", "budget", "tokens", "text"),
}


def output_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of what tool `name` returns (KeyError for a name memfold lacks)."""
    return _SCHEMAS[name]
