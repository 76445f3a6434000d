"""An import run: a source's `Batch` into the workspace through the facade's own verbs.

Facts go through `retain` (checked as bullets, screened for secrets, journaled with their
`source`, judged) grouped by day and source, under block ids that make a second import
find them; a record that names its status (memfold's own export) has it set afterwards
(`supersede`, `restore`).  Chat exports go through `capture`.  Notes are written whole,
atomically, as bank pages (`notes.py`), then indexed.  Idempotent: what is there already is
skipped.  A dry run writes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from itertools import groupby
from typing import TYPE_CHECKING, Any, Protocol

from memfold.capture.formats import Unreadable
from memfold.errors import MemfoldError
from memfold.importing.sources import Batch, FactRecord, block_id, record_id
from memfold.recall.ranking import DEFAULT_CONFIDENCE
from memfold.scan.secrets import find_secrets
from memfold.values import KIND_LETTERS

if TYPE_CHECKING:
    from memfold.capture import CaptureResult
    from memfold.index.base import IndexBackend
    from memfold.values import Hit, RetainResult, SyncReport
    from memfold.workspace.layout import Workspace


class Target(Protocol):
    """What an import writes through: `memfold.Memory` is one."""

    workspace: Workspace

    @property
    def index_backend(self) -> IndexBackend: ...

    def now(self, now: Any = None) -> datetime: ...

    def retain(self, bullets: str | Sequence[str], *, date: date | str | None = None,
               source: str | None = None) -> RetainResult: ...

    def capture(self, data: bytes | str, *, format: str | None = None, name: str = "-",
                dry_run: bool = False, judge: bool = True,
                source: str | None = None) -> CaptureResult: ...

    def get(self, fact_id: str, *, use: bool = True) -> Hit: ...

    def supersede(self, old_id: str, new_id: str, *, reason: str = ...) -> bool: ...

    def restore(self, fact_id: str, *, reason: str = ...) -> None: ...

    def refresh(self) -> SyncReport: ...


@dataclass(frozen=True)
class ImportResult:
    """What an import added (or, with `dry_run`, would add)."""

    format: str
    dry_run: bool
    read: int  # facts, notes or conversations read
    facts: int  # facts retained (from fact stores and chats)
    pages: int  # notes written as bank pages
    updated: int  # bank pages brought up to the vault's newer note
    entities: int  # entity pages made
    turns: int  # chat turns written
    skipped: int  # imported before
    files: tuple[str, ...]
    secrets: tuple[tuple[str, str], ...]  # (where, kind) of each fact or message kept out
    problems: tuple[Unreadable, ...]  # could not be read or written
    left_out: tuple[Unreadable, ...]  # by design: links not followed, pages edited here

    def to_dict(self) -> dict[str, Any]:
        def rows(items: tuple[Unreadable, ...]) -> list[dict[str, str]]:
            return [{"where": p.where, "reason": p.reason} for p in items]

        return {"format": self.format, "dry_run": self.dry_run, "read": self.read,
                "facts": self.facts, "pages": self.pages, "updated": self.updated,
                "entities": self.entities, "turns": self.turns, "skipped": self.skipped,
                "files": list(self.files),
                "secrets_refused": [{"where": w, "kind": k} for w, k in self.secrets],
                "problems": rows(self.problems), "left_out": rows(self.left_out)}


@dataclass
class Tally:
    """An import's counts as it goes (made into the frozen `ImportResult` at the end)."""

    format: str
    dry_run: bool = False
    read: int = 0
    facts: int = 0
    pages: int = 0
    updated: int = 0
    entities: int = 0
    turns: int = 0
    skipped: int = 0
    files: list[str] = field(default_factory=list)
    secrets: list[tuple[str, str]] = field(default_factory=list)
    problems: list[Unreadable] = field(default_factory=list)
    left_out: list[Unreadable] = field(default_factory=list)

    def result(self) -> ImportResult:
        return ImportResult(
            format=self.format, dry_run=self.dry_run, read=self.read, facts=self.facts,
            pages=self.pages, updated=self.updated, entities=self.entities, turns=self.turns,
            skipped=self.skipped, files=tuple(sorted(set(self.files))),
            secrets=tuple(self.secrets), problems=tuple(self.problems),
            left_out=tuple(self.left_out))


@dataclass(frozen=True)
class Options:
    dry_run: bool = False
    judge: bool = True  # chats: weigh the captured facts against older ones
    source: str | None = None  # who imports, when a record does not say (else import:<format>)


def bullet_line(record: FactRecord, fact_id: str) -> str:
    """The Retain bullet for a record: its confidence only when not its kind's default."""
    params = ("" if record.confidence is None
              or record.confidence == DEFAULT_CONFIDENCE[KIND_LETTERS[record.kind]]
              else f"(c={record.confidence:g})")
    names = "".join(f" @{name}" for name in record.entities)
    return f"{record.kind}{params}{names}: {record.text} ^{fact_id}"


def import_facts(target: Target, batch: Batch, result: Tally, options: Options) -> None:
    """Retain the batch's new facts, a day and source at a time, then set the statuses the
    records name."""
    default = options.source or f"import:{batch.format}"

    today = target.now().date()

    def day_and_origin(item: tuple[FactRecord, str]) -> tuple[date, str]:
        return item[0].day or today, item[0].source or default

    added: list[FactRecord] = []
    chosen = sorted(_new_facts(target, batch.facts, result), key=day_and_origin)
    for (day, origin), group in groupby(chosen, key=day_and_origin):
        items = list(group)
        if options.dry_run:
            result.facts += len(items)
            continue
        try:
            done = target.retain([line for _, line in items], date=day, source=origin)
        except MemfoldError as exc:
            result.problems.extend(Unreadable(r.where, str(exc)) for r, _ in items)
            continue
        result.facts += len(done.facts)
        result.files.append(done.path)
        added.extend(record for record, _ in items)
    if not options.dry_run:
        _set_statuses(target, added, result)


def _new_facts(target: Target, records: Sequence[FactRecord],
               result: Tally) -> list[tuple[FactRecord, str]]:
    """The records not imported before, each with its bullet; the rest counted or listed."""
    from memfold.retain import validate_bullet  # the strict check retain makes

    latest = target.now().date() + timedelta(days=1)
    seen: set[str] = set()
    chosen: list[tuple[FactRecord, str]] = []
    for record in records:
        fact_id = record_id(record)
        if fact_id in seen or target.index_backend.locate(fact_id):
            result.skipped += 1
            continue
        seen.add(fact_id)
        found = find_secrets(record.text)
        if found:
            result.secrets.append((record.where, found[0].kind))
            continue
        line = bullet_line(record, fact_id)
        try:
            if record.day and record.day > latest:
                raise MemfoldError(f"dated {record.day.isoformat()}, after today")
            validate_bullet(line, "the fact")
        except MemfoldError as exc:
            result.problems.append(Unreadable(record.where, str(exc)))
            continue
        chosen.append((record, line))
    return chosen


def _set_statuses(target: Target, added: Sequence[FactRecord], result: Tally) -> None:
    """Give each added record the status it names: superseded by the fact it names, or
    active again when the judge retired it on the way in or its age archived it."""
    for record in added:
        if record.status not in ("superseded", "active"):
            continue
        fact_id = record_id(record)
        hit = target.get(fact_id, use=False)
        try:
            if record.status == "superseded" and record.superseded_by:
                newer = block_id(record.superseded_by)
                if hit.superseded_by != newer:
                    target.supersede(fact_id, newer, reason="imported: superseded in the source")
            elif record.status == "active" and hit.status in ("superseded", "archived"):
                target.restore(fact_id, reason="imported: active in the source")
        except MemfoldError as exc:
            result.problems.append(Unreadable(record.where, f"status not set: {exc}"))


def import_chats(target: Target, batch: Batch, result: Tally, options: Options,
                 capture_format: str | None) -> None:
    """Capture each chat export of the batch with the capture engine."""
    for name, data in batch.chats:
        done = target.capture(data, format=capture_format, name=name,
                              dry_run=options.dry_run, judge=options.judge,
                              source=options.source)
        result.format = done.format
        result.read += done.conversations
        result.turns += done.turns
        result.facts += done.facts
        result.skipped += done.skipped
        result.files.extend(done.files)
        result.secrets.extend((f"{s.path}:{s.line}", s.kind) for s in done.secrets)
        prefix = f"{name}: " if len(batch.chats) > 1 else ""
        result.problems.extend(Unreadable(prefix + p.where, p.reason) for p in done.problems)

