"""What `memfold reflect --undo` needs to take a run back exactly.

Before a run journals its decisions, reflect writes a manifest (`.memory/reflect-last.json`):
each page's bytes before the run, the journal events it appended, and — for every fact those
events touch — the lifecycle fields they can change, as they were before the run (`prior`)
and as the run left them (`after`).  Undo journals one `reset` event per fact that puts
`prior` back (`journal.fold.apply_event` folds it), so a fact decay had archived before the run
is archived again, not revived: a reset never touches last_used, uses, rev or note.  A field
that changed again after the run (a supersede by hand, say) keeps that later value.
"""

from __future__ import annotations

import base64
import copy
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from typing import Any, Protocol

from memfold.index.base import FactReader
from memfold.journal.events import (
    Archive,
    Confidence,
    Derive,
    Merge,
    Record,
    Reset,
    Restore,
    Supersede,
)
from memfold.journal.fold import LifeState, replay
from memfold.journal.log import Event, parse

# The fields a run's events (merge, derive, confidence, supersede, archive, expire) can set.
UNDONE_FIELDS = ("status", "reason", "superseded_by", "superseded_on", "supersedes",
                 "derived_from", "confidence", "support", "contradict", "confidence_on",
                 "content_sha")


class Page(Protocol):
    """A page a run rewrites (reflect's PageChange): its bytes before and after."""

    @property
    def path(self) -> str: ...
    @property
    def before(self) -> bytes | None: ...
    @property
    def after(self) -> bytes: ...


class Run(Protocol):
    """What the manifest needs of a run (reflect's ReflectPlan)."""

    @property
    def today(self) -> date: ...
    @property
    def pages(self) -> Sequence[Page]: ...


def touched_states(records: Iterable[Record],
                   backend: FactReader) -> dict[str, LifeState]:
    """The lifecycle state, as the index has it now, of every fact these event records
    touch (a supersede touches the newer fact's list too)."""
    ids: set[str] = set()
    for record in records:
        ids.add(record.id)
        if isinstance(record, Supersede):
            ids.add(record.by)
    found = backend.life(sorted(ids))
    return {i: found.get(i) or LifeState(i) for i in sorted(ids)}


def _fields(state: LifeState) -> dict[str, Any]:
    return {name: copy.deepcopy(getattr(state, name)) for name in UNDONE_FIELDS}


def manifest(plan: Run, events: Sequence[Event],
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


def undo_records(saved: dict[str, Any], states: Mapping[str, LifeState]) -> list[Record]:
    """Journal records that put back the lifecycle state from before the saved run; `states`
    is the current state of the facts it touched."""
    if "prior" not in saved:
        return _restore_records(saved, states)
    undoes: dict[str, list[int]] = {}
    for event in _saved_events(saved):
        undoes.setdefault(event.id, []).append(event.seq)
        if isinstance(event.record, Supersede):
            undoes.setdefault(event.record.by, []).append(event.seq)
    after = saved.get("after") or {}
    records: list[Record] = []
    for fact_id, before in saved["prior"].items():
        now = _fields(states.get(fact_id) or LifeState(fact_id))
        left = after.get(fact_id)  # what the run left; a field changed since keeps its value
        reset = {k: v for k, v in before.items() if now.get(k) != v
                 and (left is None or now.get(k) == left.get(k))}
        if reset:
            records.append(Reset(id=fact_id, state=reset, reason="reflect --undo",
                                 undoes=tuple(undoes.get(fact_id, []))))
    return records


def _saved_events(saved: Mapping[str, Any]) -> list[Event]:
    """The journal events a manifest saved (`Event.to_dict` of each)."""
    return [parse(e) for e in saved.get("events", [])]


def _restore_records(saved: dict[str, Any],
                     states: Mapping[str, LifeState]) -> list[Record]:
    """For a manifest written before `prior` was recorded: restore what the run merged or
    archived and put confidence back (the old, inexact undo)."""
    records: list[Record] = []
    for event in _saved_events(saved):
        record, fact_id = event.record, event.id
        if isinstance(record, Merge | Archive) and fact_id in states:
            records.append(Restore(id=fact_id, reason="reflect --undo"))
        elif isinstance(record, Confidence):
            records.append(Confidence(id=fact_id, c=record.from_, reason="reflect --undo",
                                      on=None))
        elif isinstance(record, Derive):
            records.append(Derive(id=fact_id, from_=()))
    return records


__all__ = ["UNDONE_FIELDS", "Page", "Run", "manifest", "touched_states", "undo_records"]
