"""What `memfold reflect --undo` needs to take a run back exactly.

Before a run journals its decisions, reflect writes a manifest (`.memory/reflect-last.json`):
each page's bytes before the run, the journal events it appended, and — for every fact those
events touch — the lifecycle fields they can change, as they were before the run (`prior`)
and as the run left them (`after`).  Undo journals one `reset` event per fact that puts
`prior` back (`lifecycle.apply_event` folds it), so a fact decay had archived before the run
is archived again, not revived: a reset never touches last_used, uses, rev or note.  A field
that changed again after the run (a supersede by hand, say) keeps that later value.
"""

from __future__ import annotations

import base64
import copy
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .index.base import IndexBackend
from .journal import Event
from .lifecycle import LifeState, replay

if TYPE_CHECKING:
    from .reflect import ReflectPlan

# The fields a run's events (merge, derive, confidence, supersede, archive, expire) can set.
UNDONE_FIELDS = ("status", "reason", "superseded_by", "superseded_on", "supersedes",
                 "derived_from", "confidence", "support", "contradict", "confidence_on",
                 "content_sha")


def touched_states(records: Iterable[Mapping[str, Any]],
                   backend: IndexBackend) -> dict[str, LifeState]:
    """The lifecycle state, as the index has it now, of every fact these event records
    touch (a supersede touches the newer fact's list too)."""
    ids: set[str] = set()
    for record in records:
        ids.add(str(record["id"]))
        if record["event"] == "supersede":
            ids.add(str(record["by"]))
    found = backend.life(sorted(ids))
    return {i: found.get(i) or LifeState(i) for i in sorted(ids)}


def _fields(state: LifeState) -> dict[str, Any]:
    return {name: copy.deepcopy(getattr(state, name)) for name in UNDONE_FIELDS}


def manifest(plan: ReflectPlan, events: Sequence[Event],
             prior: Mapping[str, LifeState]) -> dict[str, Any]:
    """The undo manifest of a run: pages, events, and the touched facts' fields before the
    run and, once its events are journaled, after them."""
    after = replay(events, copy.deepcopy(dict(prior))) if events else None
    return {
        "as_of": plan.today.isoformat(),
        "pages": [{"path": p.path,
                   "before": None if p.before is None else base64.b64encode(p.before).decode(),
                   "after_sha": hashlib.sha256(p.after).hexdigest()} for p in plan.pages],
        "events": [e.to_dict() for e in events],
        "prior": {i: _fields(state) for i, state in prior.items()},
        "after": None if after is None else {i: _fields(after[i]) for i in prior},
    }


def undo_records(saved: dict[str, Any], states: Mapping[str, LifeState]) -> list[dict[str, Any]]:
    """Journal records that put back the lifecycle state from before the saved run; `states`
    is the current state of the facts it touched."""
    if "prior" not in saved:
        return _restore_records(saved, states)
    undoes: dict[str, list[int]] = {}
    for event in saved.get("events", []):
        undoes.setdefault(str(event.get("id")), []).append(event.get("seq"))
        if event.get("event") == "supersede":
            undoes.setdefault(str(event.get("by")), []).append(event.get("seq"))
    after = saved.get("after") or {}
    records = []
    for fact_id, before in saved["prior"].items():
        now = _fields(states.get(fact_id) or LifeState(fact_id))
        left = after.get(fact_id)  # what the run left; a field changed since keeps its value
        reset = {k: v for k, v in before.items() if now.get(k) != v
                 and (left is None or now.get(k) == left.get(k))}
        if reset:
            records.append({"event": "reset", "id": fact_id, "state": reset,
                            "reason": "reflect --undo", "undoes": undoes.get(fact_id, [])})
    return records


def _restore_records(saved: dict[str, Any],
                     states: Mapping[str, LifeState]) -> list[dict[str, Any]]:
    """For a manifest written before `prior` was recorded: restore what the run merged or
    archived and put confidence back (the old, inexact undo)."""
    records: list[dict[str, Any]] = []
    for event in saved.get("events", []):
        kind, fact_id = event.get("event"), str(event.get("id"))
        if kind in ("merge", "archive") and fact_id in states:
            records.append({"event": "restore", "id": fact_id, "reason": "reflect --undo"})
        elif kind == "confidence":
            records.append({"event": "confidence", "id": fact_id, "c": event.get("from"),
                            "reason": "reflect --undo", "on": None})
        elif kind == "derive":
            records.append({"event": "derive", "id": fact_id, "from": []})
    return records


__all__ = ["UNDONE_FIELDS", "manifest", "touched_states", "undo_records"]
