"""The facts out, for people who leave: every typed fact (not prose) as JSON Lines or as
a Mem0 export, with what memfold knows about it.

One JSONL line a fact: `id`, `kind`, `entities`, `date`, `status`, `supersedes`,
`superseded_by`, `source` (who retained it; `markdown` when a person wrote it),
`confidence`, `text`, and `citation` (`path#Lline`, where it is written now).  Importing
the file again (`memfold import`) gives back every field but `citation`.  The Mem0 form is
`{"results": [...]}` of memories (`id`, `memory`, `hash`, `created_at`, `updated_at`,
`user_id`) with the rest in each memory's `metadata`.  Likely secrets are shown as
`[REDACTED:<kind>]` unless asked for.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from datetime import date
from typing import Any

from memfold.errors import BadInput
from memfold.index.base import Candidate, Filters, IndexBackend
from memfold.recall.hits import describe
from memfold.values import KINDS, TEXT, Hit

EXPORT_FORMATS = ("jsonl", "mem0")


def fact_hits(backend: IndexBackend, today: date, *, show_secrets: bool) -> list[Hit]:
    """Every typed fact once (the copy holding its id), oldest first, as of `today`."""
    rowids = [rowid for rowid, _ in backend.fact_texts()]
    found = backend.by_rowids(rowids, Filters(kinds=tuple(k for k in KINDS if k != TEXT)))
    copies = Counter(c.fact.id for c in found)
    first: dict[str, Candidate] = {}
    for candidate in sorted(found, key=lambda c: c.rowid):
        if candidate.fact.id not in first:  # an id on two bullets: the copy holding it
            first[candidate.fact.id] = (candidate if copies[candidate.fact.id] == 1
                                        else backend.by_id(candidate.fact.id)[0])
    hits = [describe(c, today) for c in first.values()]
    hits = hits if show_secrets else [h.redacted() for h in hits]
    return sorted(hits, key=lambda h: (h.fact.day or date.min, h.fact.path, h.fact.line))


def fact_row(hit: Hit) -> dict[str, Any]:
    f = hit.fact
    return {"id": f.id, "kind": f.kind, "entities": list(f.entities),
            "date": f.day.isoformat() if f.day else None, "status": hit.status,
            "supersedes": list(hit.supersedes), "superseded_by": hit.superseded_by,
            "source": hit.origin or "markdown", "confidence": round(hit.confidence, 3),
            "text": f.content, "citation": f.source}


def mem0_memory(row: dict[str, Any]) -> dict[str, Any]:
    stamp = f"{row['date']}T00:00:00Z" if row["date"] else None
    meta = {key: row[key] for key in ("kind", "entities", "status", "supersedes",
                                      "superseded_by", "source", "confidence", "citation")}
    return {"id": row["id"], "memory": row["text"],
            "hash": hashlib.md5(row["text"].encode("utf-8"), usedforsecurity=False).hexdigest(),
            "metadata": meta, "created_at": stamp, "updated_at": stamp,
            "user_id": row["entities"][0] if row["entities"] else None}


def export_facts(backend: IndexBackend, today: date, *, format: str = "jsonl",  # noqa: A002
                 show_secrets: bool = False) -> str:
    """The workspace's facts as text in `format` (jsonl or mem0)."""
    rows = [fact_row(hit) for hit in fact_hits(backend, today, show_secrets=show_secrets)]
    if format == "jsonl":
        return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    if format == "mem0":
        return json.dumps({"results": [mem0_memory(row) for row in rows]},
                          ensure_ascii=False, indent=1) + "\n"
    raise BadInput(f"unknown export format {format!r}; expected one of: "
                   + ", ".join(EXPORT_FORMATS) + " (or a folder, from a server bank)")
