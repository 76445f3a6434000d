"""Capture: conversations from chat exports into the day logs, offline (`Memory.capture`).

The package owns the path from an export's bytes to Markdown: `formats` (what a
conversation is, loading, detection and the plugin registry), `readers` (the built-in
formats), `extract` (facts from what people say, by rules) and `write` (the day files, turn
identity, the write under the lock).  `run` ties them together for the facade; the facade
indexes what was written and lets the judge weigh the new facts.

Invariants: capturing the same export twice adds nothing; a grown conversation adds only its
new turns; a dry run writes nothing; what could not be read is listed, never half-written.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

from memfold.capture.formats import Export, Unreadable
from memfold.capture.registry import read_export
from memfold.capture.write import Withheld, captured_keys, new_turns, preview_days, write_days
from memfold.lifecycle.ledger import Ledger

__all__ = ["CaptureResult", "Unreadable", "Withheld", "read_export",
           "run"]


@dataclass(frozen=True)
class CaptureResult:
    """What a capture wrote (or, with `dry_run`, would write)."""

    format: str
    conversations: int  # conversations read
    turns: int  # turns written
    facts: int  # Retain bullets written
    skipped: int  # turns captured before
    secrets: tuple[Withheld, ...]  # messages kept out
    problems: tuple[Unreadable, ...]  # what could not be read
    files: tuple[str, ...]
    dry_run: bool = False
    preview: tuple[tuple[str, str], ...] = ()  # (path, text appended), dry runs only

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": self.format, "dry_run": self.dry_run,
            "conversations": self.conversations, "turns": self.turns, "facts": self.facts,
            "skipped": self.skipped, "files": list(self.files),
            "secrets_refused": [{"path": w.path, "line": w.line, "conversation": w.conversation,
                                 "kind": w.kind} for w in self.secrets],
            "problems": [{"where": p.where, "reason": p.reason} for p in self.problems]}
        if self.dry_run:
            out["preview"] = [{"path": p, "text": t} for p, t in self.preview]
        return out


def run(ledger: Ledger, export: Export, *, day: date, extracting: bool = True,
        dry_run: bool = False, origin: str, ts: str, notify: Callable[[str], None],
        progress: Callable[[int, int], None] | None = None) -> CaptureResult:
    """Write an export's new turns (and their facts) into the day logs; the caller indexes
    `CaptureResult.files`.  `progress(done, total)` is told of each day written."""
    days, skipped = new_turns(export.conversations, captured_keys(ledger.workspace),
                              fallback=day)
    if dry_run:
        writes = preview_days(ledger.workspace, days, extracting=extracting)
    else:
        writes = write_days(ledger, days, extracting=extracting, origin=origin, ts=ts,
                            notify=notify, progress=progress)
    return CaptureResult(
        format=export.format, conversations=len(export.conversations),
        turns=sum(w.turns for w in writes), facts=sum(len(w.bullets) for w in writes),
        skipped=skipped, secrets=tuple(s for w in writes for s in w.withheld),
        problems=export.problems, files=tuple(w.path for w in writes), dry_run=dry_run,
        preview=tuple((w.path, w.text) for w in writes) if dry_run else ())
