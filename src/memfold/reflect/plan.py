"""Reflect: turn the stream of daily facts into pages a person can read and correct.

One run plans everything first, from the index and the journal, without writing (`Planner`,
a coordinator: each job is a module of memfold.reflect working on one `draft.Draft`):

- consolidation (`consolidate`): near-duplicate active facts (same kind, same entities, the
  same names, numbers and negations, and word overlap at least CONSOLIDATE_AT — or, when the
  workspace has vectors, as close as a paraphrase: `recall.fusion.Calibration`) become one
  fact, written as a Retain bullet in a generated region of bank/<kind>.md that keeps the
  dates of its originals in its text (`dates_note`); the originals are journaled `merge`d
  into it (kept, not deleted) and the new fact records `derive`d-from them;
- opinions (`opinions`): each active opinion meets the evidence written since the window
  began (facts sharing an entity and enough words), each piece read by `judge.stance`:
  evidence that agrees supports it and evidence that opposes it contradicts it — its
  confidence moves by small bounded steps (`opinions`' docstring, docs/format.md), journaled
  as `confidence` events — and a clear reversal supersedes it (a `supersede` event, judge
  "reflect"); bank/opinions.md lists every active opinion with its confidence, when it last
  moved and its evidence;
- entity pages (`pages`): bank/entities/<Slug>.md gets a generated summary of the entity's
  active facts by kind, newest first, each line citing its source and the hash of the text
  cited;
- lifecycle sweep (`sweep`): facts whose validity ended, or whose decay crossed the archive
  threshold, within the window are journaled (`expire`, `archive` with reason "decay");
- core memory (`sweep`): proposals for memory.md (important or often-used facts) in the
  report only.

Then, under the workspace lock, it appends the events and rewrites only generated regions
(`workspace.format.regions`: the markers, and the lines written between them); everything
else on a page is kept byte for byte, daily logs are never touched, and each page's previous
bytes are kept so `memfold reflect --undo` restores the last run; the lifecycle fields its
events change are recorded as they were before it, and `--undo` journals them back (`reset`
events). The pages are written as one set (`write`, `files.stage_set`): a run killed while
writing them leaves every page old, or, once the next memfold command has finished it, every
page new.
Planning is deterministic: a second run on unchanged input changes nothing.  It reads the
bank through two seams only — its index (`draft.ReflectIndex`) and its pages (`draft.Pages`) — so
`plan` plans over a workspace or over a memfold server's rows of a bank alike.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import Any

from memfold.errors import BadInput, MemfoldError
from memfold.journal.fold import LifeState
from memfold.journal.log import Event
from memfold.lifecycle.ledger import Ledger
from memfold.recall.options import spec
from memfold.reflect.consolidate import consolidate
from memfold.reflect.draft import (
    NOT_SENT,
    DiskPages,
    Draft,
    PageChange,
    Pages,
    ReflectIndex,
    ReflectPlan,
    Similar,
    StoredPages,
)
from memfold.reflect.opinions import weigh_opinions
from memfold.reflect.pages import entity_pages
from memfold.reflect.sweep import propose_core, sweep
from memfold.reflect.text import (  # noqa: F401 - read as reflect.X (tests, docs)
    WINDOWS_RESERVED,
    _specifics,
    dates_note,
    page_slug,
    with_dates,
)
from memfold.reflect.undo import manifest, touched_states, undo_records
from memfold.reflect.write import PAGES_INTENT, finish_pages, stage_pages
from memfold.scan.secrets import find_secrets
from memfold.times.parse import TimeSpecError
from memfold.workspace.files import commit_set, discard_set, remove, replace_atomically
from memfold.workspace.layout import Workspace


class Planner:
    """Plans one reflect run against a fresh index (the caller holds the write lock): each
    job in turn reads and adds to one `Draft` — consolidation (memfold.reflect.consolidate),
    opinions (.opinions), entity pages (.pages), the lifecycle sweep and core-memory proposals
    (.sweep) — so a later job sees what an earlier one decided."""

    def __init__(self, pages: Pages, backend: ReflectIndex, *, since: date,
                 today: date, is_secret: Any = None, similar: Similar | None = None) -> None:
        self.draft = Draft(pages, backend, since=since, today=today, is_secret=is_secret,
                           similar=similar)

    def run(self) -> ReflectPlan:
        draft = self.draft
        recent = draft.recent()
        consolidate(draft, recent)
        weigh_opinions(draft, recent)
        entity_pages(draft, recent)
        sweep(draft)
        propose_core(draft)
        return draft.plan


def window_start(since: str | date, today: date) -> date:
    """The first day of a run's window (`--since`: "7d", a date, ...); BadInput when
    `since` says no time."""
    try:
        start = spec(since, today).start
    except TimeSpecError as exc:
        raise BadInput(str(exc)) from None
    return start or today


def holds_secret(text: str) -> bool:
    """Whether a fact's text holds a secret (kept off the pages a run writes)."""
    return bool(find_secrets(text))


def plan(pages: Pages, backend: ReflectIndex, *, since: date, today: date,
         similar: Similar | None = None) -> ReflectPlan:
    """Plan a run over the index `backend` and the pages `pages` reads, writing nothing
    (the caller keeps both still while it plans): what a dry run answers, and what a run
    journals and writes."""
    return Planner(pages, backend, since=since, today=today, is_secret=holds_secret,
                   similar=similar).run()


# -- running ------------------------------------------------------------------------

UNDO_FILE = "reflect-last.json"  # under .memory/: the previous bytes of the last run


def run(workspace: Workspace, ledger: Ledger, *, since: date, today: date, ts: str,
        dry_run: bool, is_secret: Any = None, similar: Similar | None = None) -> ReflectPlan:
    """Plan under the write lock; unless `dry_run`, journal the events and write the pages
    (each compare-and-set against the bytes it was planned from)."""
    with workspace.write_lock.held():
        finish_pages(workspace, locked=True)
        ledger.replay()
        plan = Planner(DiskPages(workspace.root), ledger.backend, since=since, today=today,
                       is_secret=is_secret, similar=similar).run()
        if dry_run:
            return plan
        if not (plan.records or plan.pages):
            return plan  # nothing to do: the last run stays the one `--undo` takes back
        # every page staged first (a full disk stops the run before anything is journaled);
        # then the undo manifest, so a run that fails halfway can still be taken back
        staged = stage_pages(workspace, plan.pages)
        try:
            _journal(workspace, ledger, plan, ts)
        except BaseException:
            discard_set(workspace.root, staged)
            raise
        commit_set(workspace.root, workspace.root / PAGES_INTENT, staged)
    return plan


def _journal(workspace: Workspace, ledger: Ledger, plan: ReflectPlan, ts: str) -> None:
    undo_path = workspace.cache_dir / UNDO_FILE
    workspace.cache_dir.mkdir(exist_ok=True)
    prior = touched_states(plan.records, ledger.backend)
    replace_atomically(undo_path, manifest_bytes(plan, [], prior))
    events = ledger.append(plan.records, ts=ts, locked=True)
    replace_atomically(undo_path, manifest_bytes(plan, events, prior))
    ledger.replay()


def undo(workspace: Workspace, ledger: Ledger, *, ts: str) -> list[str]:
    """Restore the pages of the last run and take back its decisions; returns the pages.

    Refuses, writing nothing, when a page changed since that run (an edit would be lost).
    """
    undo_path = workspace.cache_dir / UNDO_FILE
    with workspace.write_lock.held():
        finish_pages(workspace, locked=True)
        try:
            data: bytes | None = undo_path.read_bytes()
        except FileNotFoundError:
            data = None
        saved = saved_run(data)
        for rel, before in pages_back(saved, DiskPages(workspace.root).read):
            if before is None:
                remove(workspace.root / rel)
            else:
                replace_atomically(workspace.root / rel, before)
        ledger.replay()
        ledger.append(undo_records(saved, ledger.backend.life(undone_ids(saved))), ts=ts,
                      locked=True)
        ledger.replay()
        undo_path.unlink()
    return undone_pages(saved)


# -- what an undo reads of the last run (its manifest, `reflect.undo.manifest`) ---------------


def saved_run(data: bytes | None) -> dict[str, Any]:
    """The last run's manifest from its bytes (MemfoldError when there is none)."""
    if data is None:
        raise MemfoldError("nothing to undo: no reflect run recorded since the index was "
                           "created")
    return dict(json.loads(data))


def pages_back(saved: dict[str, Any],
               read: Callable[[str], bytes | None]) -> list[tuple[str, bytes | None]]:
    """The pages an undo writes back, as (path, bytes before the run; None: remove it),
    each checked against the bytes the run left (`read` gives them now): MemfoldError,
    nothing undone, when one changed since (an edit would be lost).  A page the run never
    wrote (it stopped halfway) is left as it is."""
    written = []
    for entry in saved["pages"]:
        current = read(entry["path"])
        before = None if entry["before"] is None else base64.b64decode(entry["before"])
        if current == before:
            continue  # a run that stopped halfway never wrote this page
        if current is None or hashlib.sha256(current).hexdigest() != entry["after_sha"]:
            raise MemfoldError(f"{entry['path']} changed since the last reflect; undo "
                               "would lose that edit, so nothing was undone")
        written.append((str(entry["path"]), before))
    return written


def undone_ids(saved: dict[str, Any]) -> list[str]:
    """The facts whose lifecycle state the undo puts back."""
    return list(saved.get("prior") or {}) or [str(e.get("id")) for e in saved["events"]]


def undone_pages(saved: dict[str, Any]) -> list[str]:
    """The pages the run wrote (what `undo` answers)."""
    return [entry["path"] for entry in saved["pages"]]


def manifest_bytes(plan: ReflectPlan, events: Sequence[Event],
                   prior: Mapping[str, LifeState]) -> bytes:
    """The manifest of a run as `undo` reads it back."""
    return json.dumps(manifest(plan, events, prior)).encode()


__all__ = ["NOT_SENT", "PAGES_INTENT", "UNDO_FILE", "DiskPages", "PageChange", "Pages",
           "Planner", "ReflectPlan", "StoredPages", "dates_note", "finish_pages",
           "holds_secret", "manifest_bytes", "page_slug", "pages_back", "plan", "run",
           "saved_run", "touched_states", "undo", "undo_records", "undone_ids",
           "undone_pages", "window_start", "with_dates"]
