"""One reflect run as it is being planned: the plan it builds (`ReflectPlan`, the value
`Memory.reflect` returns), and the `Draft` every job of the run reads and adds to.

A job (consolidate, opinions, pages, sweep) sees the index as the run so far leaves it: a fact
an earlier job merged or superseded is gone from `Draft.recent`, `linked` and `of_kind`, the
consolidated facts the run will write are among them, and an opinion's confidence is the one
the run has moved it to.  Pages are read as the run has staged them, else from where the
bank keeps them (`Pages`: a workspace's disk, `DiskPages`, or a memfold server's rows of the
bank).  Nothing here writes.
"""

from __future__ import annotations

import difflib
import os
import posixpath
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Protocol

from memfold.index.base import Candidate, Citation, Filters, RecallIndex
from memfold.journal.events import Record, Unknown
from memfold.journal.fold import ACTIVE, ARCHIVED, status_of
from memfold.recall.ranking import confidence_of
from memfold.values import Interval
from memfold.workspace.format import decode

KIND_PAGES = {"world": "bank/world.md", "experience": "bank/experience.md",
              "opinion": "bank/opinions.md", "observation": "bank/world.md"}
Similar = Callable[[int, Sequence[int]], set[int]]  # rowid, rowids -> those paraphrasing it
NOT_SENT = "(not sent)"  # the kind of a ReflectPlan.from_dict's placeholder records
ASKED_KEPT = 256  # the index's answers a run keeps (Draft._asked)


class ReflectIndex(RecallIndex, Protocol):
    """What a run reads of the index: facts, links, entities, lifecycle states, and the
    citations of the generated pages (an entity page citing text that changed is stale)."""

    def citations(self) -> list[Citation]: ...


class Pages(Protocol):
    """Where a run reads the pages it plans from, and where a page may be written."""

    def read(self, path: str) -> bytes | None:
        """The page's bytes now (None: no such page)."""
        ...

    def inside(self, folder: str, path: str) -> bool:
        """Whether `path` (relative to the bank) stays inside `folder` once resolved."""
        ...


@dataclass(frozen=True)
class DiskPages:
    """A workspace's pages on disk (symbolic links resolved as the disk resolves them)."""

    root: Path

    def read(self, path: str) -> bytes | None:
        try:
            return (self.root / path).read_bytes()
        except FileNotFoundError:
            return None

    def inside(self, folder: str, path: str) -> bool:
        real = os.path.realpath(self.root / folder)
        return os.path.realpath(self.root / path).startswith(real + os.sep)


@dataclass(frozen=True)
class StoredPages:
    """Pages kept as bytes by path (a memfold server's `files` rows), no links to follow."""

    read: Callable[[str], bytes | None]

    def inside(self, folder: str, path: str) -> bool:
        return posixpath.normpath(path).startswith(posixpath.normpath(folder) + "/")


@dataclass(frozen=True)
class PageChange:
    path: str
    before: bytes | None
    after: bytes


@dataclass
class ReflectPlan:
    since: date
    today: date
    records: list[Record] = field(default_factory=list)  # the journal events it decided
    pages: list[PageChange] = field(default_factory=list)
    merges: list[tuple[str, list[str]]] = field(default_factory=list)
    confidence: list[tuple[str, float, float]] = field(default_factory=list)
    swept: list[tuple[str, str]] = field(default_factory=list)
    superseded: list[tuple[str, str]] = field(default_factory=list)  # (opinion, reversed by)
    proposals: list[str] = field(default_factory=list)
    # a plan read back from its JSON (from_dict): the diff as sent, not rebuilt from pages
    sent_diff: str | None = None

    @property
    def events(self) -> list[dict[str, Any]]:
        """The journal events it decided, as JSON objects (`event`, `id`, …)."""
        return [record.to_dict() for record in self.records]

    def diff(self) -> str:
        if self.sent_diff is not None:
            return self.sent_diff
        out: list[str] = []
        for page in self.pages:
            before = decode(page.before)[0] if page.before is not None else ""
            out.extend(difflib.unified_diff(
                before.splitlines(keepends=True), decode(page.after)[0].splitlines(keepends=True),
                fromfile=f"a/{page.path}" if page.before is not None else "/dev/null",
                tofile=f"b/{page.path}"))
        return "".join(out)

    def to_dict(self, *, dry_run: bool) -> dict[str, Any]:
        return {
            "since": self.since.isoformat(), "as_of": self.today.isoformat(),
            "dry_run": dry_run, "pages": [p.path for p in self.pages],
            "events": len(self.records),
            "merged": [{"into": new, "from": old} for new, old in self.merges],
            "confidence": [{"id": i, "from": a, "to": b} for i, a, b in self.confidence],
            "swept": [{"id": i, "status": s} for i, s in self.swept],
            "superseded": [{"id": i, "by": by} for i, by in self.superseded],
            "core_proposals": self.proposals,
            "diff": self.diff() if dry_run else None,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ReflectPlan:
        """A plan from `to_dict`, as a memfold server sends it.  The JSON names the pages
        (not their bytes) and counts the journal events (not what they were): its pages
        come back without content, each event as an `Unknown` record named NOT_SENT, and
        `diff()` is the diff it carried (empty for a run that was not a dry run)."""
        return cls(
            since=date.fromisoformat(d["since"]), today=date.fromisoformat(d["as_of"]),
            records=[Unknown(id="", name=NOT_SENT) for _ in range(int(d["events"]))],
            pages=[PageChange(path, None, b"") for path in d["pages"]],
            merges=[(m["into"], list(m["from"])) for m in d["merged"]],
            confidence=[(c["id"], c["from"], c["to"]) for c in d["confidence"]],
            swept=[(s["id"], s["status"]) for s in d["swept"]],
            superseded=[(s["id"], s["by"]) for s in d["superseded"]],
            proposals=list(d["core_proposals"]), sent_diff=d["diff"] or "")


class Draft:
    """One run's working state against a fresh index (the caller holds the write lock)."""

    def __init__(self, pages: Pages, backend: ReflectIndex, *, since: date,
                 today: date, is_secret: Any = None, similar: Similar | None = None) -> None:
        self.pages = pages
        self.backend = backend
        self.similar = similar  # cosine between facts' vectors, when the workspace has them
        self.plan = ReflectPlan(since=since, today=today)
        self.is_secret = is_secret or (lambda text: False)
        self.replaced: set[str] = set()  # merged or superseded by this run
        self.merged_into: dict[str, str] = {}  # original id -> the fact it was merged into
        self.synthetic: list[Candidate] = []  # consolidated facts this run will write
        # opinion id -> (confidence, support, contradict) as this run moved them
        self.simulated: dict[str, tuple[float, list[str], list[str]]] = {}
        self._answers: dict[tuple[str, ...], list[Candidate]] = {}  # oldest asked first

    # facts --------------------------------------------------------------------------

    def recent(self) -> list[Candidate]:
        """The active facts of the window."""
        window = Filters(kinds=tuple(KIND_PAGES),
                         window=Interval(self.plan.since, self.plan.today))
        return [c for c in self.backend.recent(window, 100_000) if self.active(c)]

    def active(self, c: Candidate) -> bool:
        return (c.fact.kind != "text" and c.fact.id not in self.replaced
                and status_of(c.fact, c.life, self.plan.today)[0] in (ACTIVE, ARCHIVED))

    def linked(self, keys: Sequence[str]) -> list[Candidate]:
        """The active facts naming any of the entity `keys`, consolidated ones included."""
        found = self._asked(("linked", *keys), lambda: self.backend.linked(
            list(keys), Filters(kinds=tuple(KIND_PAGES)), 100_000))
        wanted = set(keys)
        return [c for c in found if self.active(c)] + [
            c for c in self.synthetic if wanted & set(c.links)]

    def of_kind(self, kind: str) -> list[Candidate]:
        found = self._asked(("of_kind", kind), lambda: self.backend.recent(
            Filters(kinds=(kind,)), 100_000))
        return [c for c in found if self.active(c)] + [
            c for c in self.synthetic if c.fact.kind == kind]

    def _asked(self, question: tuple[str, ...],
               ask: Callable[[], list[Candidate]]) -> list[Candidate]:
        """The index's answer to `question`, asked once a run: nothing is written while a
        run plans, so the answer cannot change (what the run decided is applied on top:
        `active`, `synthetic`).  Consolidation asks for the same entities' facts once per
        fact naming them; the ASKED_KEPT most recent answers are kept."""
        found = self._answers.pop(question, None)
        if found is None:
            found = ask()
        self._answers[question] = found
        while len(self._answers) > ASKED_KEPT:
            self._answers.pop(next(iter(self._answers)))
        return found

    def confidence_now(self, c: Candidate) -> float:
        simulated = self.simulated.get(c.fact.id)
        return simulated[0] if simulated else confidence(c)

    # pages --------------------------------------------------------------------------

    def page_text(self, page: str) -> str:
        """The page as this run has staged it, else as the bank holds it ("" when missing)."""
        staged = next((p for p in self.plan.pages if p.path == page), None)
        if staged is not None:
            return decode(staged.after)[0]
        held = self.pages.read(page)
        return "" if held is None else decode(held)[0]

    def stage(self, page: str, text: str) -> None:
        """Plan `page` to become `text` (no change planned when that is what it holds)."""
        original = self.pages.read(page)
        after = text.encode()
        self.plan.pages = [p for p in self.plan.pages if p.path != page]
        if after != original:
            self.plan.pages.append(PageChange(page, original, after))


def confidence(c: Candidate) -> float:
    """A fact's confidence as the journal last set it, else as its bullet states it."""
    if c.life is not None and c.life.confidence is not None:
        return c.life.confidence
    return confidence_of(c.fact.kind, c.fact.confidence)


def oldest_first(c: Candidate) -> tuple[date, str, int]:
    return (c.fact.day or date.min, c.fact.path, c.fact.line)


def newest_first(c: Candidate) -> tuple[int, str, int]:
    return (-(c.fact.day or date.min).toordinal(), c.fact.path, c.fact.line)
