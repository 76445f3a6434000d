"""Reflect: turn the stream of daily facts into pages a person can read and correct.

One run plans everything first, from the index and the journal, without writing:

- consolidation: near-duplicate active facts (same kind, same entities, the same names,
  numbers and negations, and word overlap at least CONSOLIDATE_AT — or, when the workspace
  has vectors, as close as a paraphrase: `recall.fusion.Calibration`) become one fact,
  written as a Retain bullet in a generated region of bank/<kind>.md that keeps the dates
  of its originals in its text (`dates_note`); the originals are journaled `merge`d into it
  (kept, not deleted) and the new fact records `derive`d-from them;
- opinions: each active opinion meets the evidence written since the window began (facts
  sharing an entity and enough words), each piece read by `judge.stance`: evidence that
  agrees supports it and evidence that opposes it contradicts it — its confidence moves by
  small bounded steps (below), journaled as `confidence` events — and a clear reversal
  supersedes it (a `supersede` event, judge "reflect"); bank/opinions.md lists every active
  opinion with its confidence, when it last moved and its evidence;
- entity pages: bank/entities/<Slug>.md gets a generated summary of the entity's active
  facts by kind, newest first, each line citing its source and the hash of the text cited;
- lifecycle sweep: facts whose validity ended, or whose decay crossed the archive threshold,
  within the window are journaled (`expire`, `archive` with reason "decay");
- core memory: proposals for memory.md (important or often-used facts) in the report only.

Confidence steps (documented in docs/format.md):
    supporting evidence       c' = c + 0.10 * (1 - c)
    contradicting evidence    c' = c - 0.15 * c
each piece of evidence counted once, c kept within [0.05, 0.99]; so one contradiction moves
0.9 to 0.765, and only repeated contradiction (four times) takes it below 0.5.  Evidence
that reverses the opinion does not move its confidence: it supersedes it.

Then, under the workspace lock, it appends the events and rewrites only generated regions
(`workspace.format.regions`: the markers, and the lines written between them); everything
else on a page is kept byte for byte, daily logs are never touched, and each page's previous
bytes are kept so `memfold reflect --undo` restores the last run; the lifecycle fields its
events change are recorded as they were before it, and `--undo` journals them back (`reset`
events). The pages are written as one set (`files.replace_set`): a run killed while writing
them leaves every page old, or, once the next memfold command has finished it, every page
new.
Planning is deterministic: a second run on unchanged input changes nothing.
"""

from __future__ import annotations

import base64
import difflib
import hashlib
import json
import math
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from memfold.errors import MemfoldError
from memfold.index.base import Candidate, Filters, IndexBackend
from memfold.journal.events import Archive, Confidence, Derive, Expire, Merge, Record, Unknown
from memfold.journal.fold import (
    ACTIVE,
    ARCHIVE_THRESHOLD,
    ARCHIVED,
    EXPIRED,
    LifeState,
    half_life_days,
    status_of,
)
from memfold.lifecycle.judge import AGREES, REVERSES
from memfold.lifecycle.ledger import Ledger, content_sha, supersede_record
from memfold.names import entity_key
from memfold.recall.ranking import confidence_of
from memfold.reflect.text import (  # noqa: F401 - page_slug, dates_note and _specifics are read as reflect.X
    WINDOWS_RESERVED,
    _core,
    _inside,
    _overlap,
    _specifics,
    _words,
    dates_note,
    opinion_stance,
    page_slug,
    with_dates,
)
from memfold.reflect.undo import manifest, touched_states, undo_records
from memfold.values import Fact, Interval
from memfold.workspace.files import (
    Staged,
    commit_set,
    discard_set,
    finish_set,
    replace_atomically,
    stage_set,
)
from memfold.workspace.format import (
    FACTS,
    SUMMARY,
    add_to_region,
    bullet_line,
    decode,
    evidence_line,
    opinion_line,
    replace_region,
    summary_line,
)
from memfold.workspace.layout import REFLECT_INTENT, Workspace

CONSOLIDATE_AT = 0.6  # Jaccard overlap of content words for near-duplicates
EVIDENCE_AT = 0.3  # word overlap for a fact to count as evidence about an opinion
PER_KIND = 25  # facts per kind on an entity page
SUPPORT_STEP, CONTRADICT_STEP = 0.10, 0.15
KIND_PAGES = {"world": "bank/world.md", "experience": "bank/experience.md",
              "opinion": "bank/opinions.md", "observation": "bank/world.md"}
KIND_TITLES = (("world", "World"), ("experience", "Experience"), ("opinion", "Opinions"),
               ("observation", "Observations"))
Similar = Callable[[int, Sequence[int]], set[int]]  # rowid, rowids -> those paraphrasing it


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


NOT_SENT = "(not sent)"  # the kind of a ReflectPlan.from_dict's placeholder records


# -- planning ---------------------------------------------------------------------------


class Planner:
    """Plans one reflect run against a fresh index (the caller holds the write lock)."""

    def __init__(self, workspace: Workspace, backend: IndexBackend, *, since: date,
                 today: date, is_secret: Any = None, similar: Similar | None = None) -> None:
        self.workspace = workspace
        self.backend = backend
        self.similar = similar  # cosine between facts' vectors, when the workspace has them
        self.plan = ReflectPlan(since=since, today=today)
        self.is_secret = is_secret or (lambda text: False)
        self.replaced: set[str] = set()  # merged or superseded by this run
        self.merged_into: dict[str, str] = {}  # original id -> the fact it was merged into
        self.synthetic: list[Candidate] = []  # consolidated facts this run will write
        self.simulated: dict[str, tuple[float, list[str], list[str]]] = {}

    def run(self) -> ReflectPlan:
        recent = self._recent()
        self._consolidate(recent)
        self._opinions(recent)
        self._entity_pages(recent)
        self._sweep()
        self._proposals()
        return self.plan

    # facts --------------------------------------------------------------------------

    def _recent(self) -> list[Candidate]:
        window = Filters(kinds=tuple(KIND_PAGES),
                         window=Interval(self.plan.since, self.plan.today))
        return [c for c in self.backend.recent(window, 100_000) if self._active(c)]

    def _active(self, c: Candidate) -> bool:
        return (c.fact.kind != "text" and c.fact.id not in self.replaced
                and status_of(c.fact, c.life, self.plan.today)[0] in (ACTIVE, ARCHIVED))

    def _linked(self, keys: Sequence[str]) -> list[Candidate]:
        found = self.backend.linked(list(keys), Filters(kinds=tuple(KIND_PAGES)), 100_000)
        wanted = set(keys)
        return [c for c in found if self._active(c)] + [
            c for c in self.synthetic if wanted & set(c.links)]

    def _of_kind(self, kind: str) -> list[Candidate]:
        found = self.backend.recent(Filters(kinds=(kind,)), 100_000)
        return [c for c in found if self._active(c)] + [
            c for c in self.synthetic if c.fact.kind == kind]

    # consolidation ------------------------------------------------------------------

    def _consolidate(self, recent: list[Candidate]) -> None:
        groups: list[list[Candidate]] = []
        grouped: set[str] = set()
        for new in recent:
            if new.fact.id in grouped or not new.fact.entities:
                continue
            keys = {entity_key(e) for e in new.fact.entities}
            words, specifics = _words(_core(new)), _specifics(_core(new))
            alike = [c for c in self._linked(sorted(keys))
                     if c.fact.kind == new.fact.kind and c.fact.id not in grouped
                     and c.fact.id != new.fact.id
                     and {entity_key(e) for e in c.fact.entities} == keys
                     and _specifics(_core(c)) == specifics]
            peers = [c for c in alike if _overlap(words, _words(_core(c))) >= CONSOLIDATE_AT]
            peers += self._paraphrases(new, [c for c in alike if c not in peers])
            group = sorted({c.fact.id: c for c in [new, *peers]}.values(), key=_oldest_first)
            if len(group) >= 2 and not any(self.is_secret(c.fact.content) for c in group):
                groups.append(group)
                grouped.update(c.fact.id for c in group)
        for group in groups:
            self._merge(group)

    def _paraphrases(self, new: Candidate, others: list[Candidate]) -> list[Candidate]:
        """The facts among `others` saying what `new` says in other words."""
        if self.similar is None or not new.rowid or not others:
            return []
        same = self.similar(new.rowid, [c.rowid for c in others if c.rowid])
        return [c for c in others if c.rowid in same]

    def _merge(self, group: list[Candidate]) -> None:
        ids = sorted(c.fact.id for c in group)
        new_id = "m" + base64.b32encode(hashlib.sha256(" ".join(ids).encode()).digest()[:5]) \
            .decode().lower()[:7]
        best = max(group, key=lambda c: (len(_core(c)), c.fact.day or date.min))
        kind, content = best.fact.kind, _core(best)
        days = self._days(group)
        if days and best.fact.valid is None:  # a range it states is its date already
            content = with_dates(content, kind, days)
        entities: list[str] = []
        for c in group:
            entities += [e for e in c.fact.entities
                         if entity_key(e) not in {entity_key(x) for x in entities}]
        confidence = max(_confidence(c) for c in group)
        importance = max((c.fact.importance for c in group if c.fact.importance), default=None)
        line = bullet_line(kind, content, entities, confidence, importance, new_id)
        page = KIND_PAGES[kind]
        number = self._add_fact_line(page, line)
        fact = Fact(id=new_id, kind=kind, content=content, path=page, line=number,
                    end_line=number, entities=tuple(entities), confidence=confidence,
                    importance=importance, explicit_id=True)
        self.synthetic.append(Candidate(fact=fact, bm25=None, sha256="",
                                        links=tuple(entity_key(e) for e in entities)))
        for c in group:
            self.replaced.add(c.fact.id)
            self.merged_into[c.fact.id] = new_id
            self.plan.records.append(Merge(
                id=c.fact.id, into=new_id,
                reason=f"near-duplicate, consolidated into ^{new_id}",
                on=self.plan.today.isoformat(), sha=content_sha(c.fact.content)))
        self.plan.records.append(Derive(id=new_id, from_=tuple(ids)))
        self.plan.merges.append((new_id, ids))

    def _days(self, group: Iterable[Candidate], seen: set[str] | None = None) -> set[date]:
        """The days of the daily facts behind `group`, following facts an earlier run
        consolidated back to their originals."""
        seen = set() if seen is None else seen
        days: set[date] = set()
        for c in group:
            if c.fact.day is not None:
                days.add(c.fact.day)
            elif c.life is not None and c.life.derived_from and c.fact.id not in seen:
                seen.add(c.fact.id)
                days |= self._days(self.backend.by_ids(c.life.derived_from), seen)
        return days

    def _add_fact_line(self, page: str, line: str) -> int:
        """Stage a consolidated bullet in the page's facts region; its line number."""
        text, number = add_to_region(self._page_text(page), FACTS, line, heading="## Retain")
        self._stage(page, text)
        return number

    # opinions -----------------------------------------------------------------------

    def _opinions(self, recent: list[Candidate]) -> None:
        for opinion in self._of_kind("opinion"):
            self._weigh(opinion, recent)
        self._opinion_page()

    def _weigh(self, opinion: Candidate, recent: list[Candidate]) -> None:
        """Move the opinion's confidence with the evidence it has not counted yet, as
        `judge.stance` reads it: agreeing evidence supports it, opposing evidence contradicts
        it, and a clear reversal supersedes it (opposite evidence is never support)."""
        c = before = _confidence(opinion)
        support: list[str] = []
        contradict: list[str] = []
        for ev in self._evidence(opinion, recent):
            view = opinion_stance(opinion.fact, ev.fact)
            if view == REVERSES:
                self._reverse(opinion, ev)
                return
            if view == AGREES:
                support.append(ev.fact.id)
                c += SUPPORT_STEP * (1 - c)
            else:
                contradict.append(ev.fact.id)
                c -= CONTRADICT_STEP * c
        c = round(min(0.99, max(0.05, c)), 3)
        if support or contradict:
            self.plan.records.append(Confidence(
                id=opinion.fact.id, c=c, from_=round(before, 3),
                support=tuple(support), contradict=tuple(contradict),
                on=self.plan.today.isoformat(), sha=content_sha(opinion.fact.content)))
            self.plan.confidence.append((opinion.fact.id, round(before, 3), c))
            self.simulated[opinion.fact.id] = (c, support, contradict)

    def _evidence(self, opinion: Candidate, recent: list[Candidate]) -> list[Candidate]:
        """Newer facts about the opinion's entity and topic it has not counted, oldest
        first; an opinion's own originals are not evidence for it."""
        life = opinion.life or LifeState(opinion.fact.id)
        counted = set(life.support) | set(life.contradict) | set(life.derived_from)
        keys = {entity_key(e) for e in opinion.fact.entities}
        words = _words(_core(opinion))
        found = [ev for ev in recent
                 if ev.fact.id != opinion.fact.id and ev.fact.id not in counted
                 and self.merged_into.get(ev.fact.id) != opinion.fact.id
                 and _older_than(opinion.fact, ev.fact)
                 and keys & {entity_key(e) for e in ev.fact.entities}
                 and _overlap(words, _words(_core(ev))) >= EVIDENCE_AT]
        return sorted(found, key=_oldest_first)

    def _reverse(self, opinion: Candidate, ev: Candidate) -> None:
        """A later fact reverses the opinion: it is superseded, like a judge's verdict."""
        self.replaced.add(opinion.fact.id)
        self.plan.records.append(supersede_record(
            opinion.fact, ev.fact, judge="reflect",
            reason=f"^{ev.fact.id} reverses this opinion (a clear change of mind)"))
        self.plan.superseded.append((opinion.fact.id, ev.fact.id))

    def _opinion_page(self) -> None:
        page = KIND_PAGES["opinion"]
        opinions = sorted((c for c in self._of_kind("opinion")
                           if not self.is_secret(c.fact.content)), key=_newest_first)
        body = ["## Opinions (generated)"] if opinions else []
        for op in opinions:
            life = op.life or LifeState(op.fact.id)
            c, support, contradict = self.simulated.get(op.fact.id, (_confidence(op), [], []))
            support, contradict = life.support + support, life.contradict + contradict
            moved = (self.plan.today.isoformat() if op.fact.id in self.simulated
                     else life.confidence_on or (op.fact.day.isoformat() if op.fact.day else "-"))
            body.append(opinion_line(op.fact, page, c, moved, content_sha(op.fact.content)))
            if support or contradict:
                body.append(evidence_line(support, contradict))
        self._stage(page, replace_region(self._page_text(page), SUMMARY, body))

    # entity pages -------------------------------------------------------------------

    def _entity_pages(self, recent: list[Candidate]) -> None:
        keys = {entity_key(e) for c in recent for e in c.fact.entities}
        keys |= self._stale_entities()
        for key in sorted(k for k in keys if k):
            self._entity_page(key)

    def _stale_entities(self) -> set[str]:
        stale_pages = {page for page, _line, _src, _sl, sha, content
                       in self.backend.citations() if content is None
                       or content_sha(content) != sha}
        keys: set[str] = set()
        for page in stale_pages:
            if page.startswith("bank/entities/"):
                keys.add(entity_key(page.rsplit("/", 1)[-1].removesuffix(".md")))
        return keys

    def _entity_page(self, key: str) -> None:
        info = self.backend.entity(key)
        if info is None:
            return
        page = info.page or f"bank/entities/{page_slug(info.name)}.md"
        if not _inside(self.workspace.root / "bank" / "entities", page.removeprefix(
                "bank/entities/")):
            return  # a name that would leave bank/entities never becomes a path
        facts = [c for c in self._linked([key]) if c.fact.path != page
                 and not self.is_secret(c.fact.content)]
        body = ["## Summary (generated)"]
        for kind, title in KIND_TITLES:
            of_kind = sorted((c for c in facts if c.fact.kind == kind), key=_newest_first)
            if of_kind:
                body += ["", f"### {title}"]
                body += [summary_line(c.fact, page, self._confidence_now(c),
                                      content_sha(c.fact.content)) for c in of_kind[:PER_KIND]]
        before = self._page_text(page)
        text = before or f"# {info.name}\n"
        self._stage(page, replace_region(text, SUMMARY, body))

    def _confidence_now(self, c: Candidate) -> float:
        simulated = self.simulated.get(c.fact.id)
        return simulated[0] if simulated else _confidence(c)

    # sweep and proposals ------------------------------------------------------------

    def _sweep(self) -> None:
        plan = self.plan
        oldest = plan.since - timedelta(days=int(half_life_days(10) * 2) + 1)
        pool = self.backend.recent(Filters(kinds=tuple(KIND_PAGES),
                                           window=Interval(oldest, plan.today)), 1_000_000)
        for c in pool:
            if c.fact.id in self.replaced or (c.life and c.life.status):
                continue
            status, _ = status_of(c.fact, c.life, plan.today)
            if status == EXPIRED and c.fact.valid and c.fact.valid.end and \
                    plan.since <= c.fact.valid.end + timedelta(days=1) <= plan.today:
                plan.records.append(Expire(id=c.fact.id,
                                           reason=f"valid until {c.fact.valid.end}",
                                           sha=content_sha(c.fact.content)))
                plan.swept.append((c.fact.id, EXPIRED))
            elif status == ARCHIVED and plan.since <= _archived_on(c) <= plan.today:
                plan.records.append(Archive(id=c.fact.id, reason="decay",
                                            sha=content_sha(c.fact.content)))
                plan.swept.append((c.fact.id, ARCHIVED))

    def _proposals(self) -> None:
        core = self._page_text("memory.md").casefold()
        for c in self.backend.recent(Filters(kinds=("world", "opinion")), 100_000):
            if not self._active(c) or self.is_secret(c.fact.content):
                continue
            important = (c.fact.importance or 0) >= 8 or (c.life is not None
                                                          and c.life.uses >= 3)
            if important and c.fact.content.casefold() not in core:
                self.plan.proposals.append(
                    f"add to memory.md: {c.fact.content} ({c.fact.source})")

    # pages --------------------------------------------------------------------------

    def _page_text(self, page: str) -> str:
        staged = next((p for p in self.plan.pages if p.path == page), None)
        if staged is not None:
            return decode(staged.after)[0]
        try:
            return decode((self.workspace.root / page).read_bytes())[0]
        except FileNotFoundError:
            return ""

    def _stage(self, page: str, text: str) -> None:
        original = self._original(page)
        after = text.encode()
        self.plan.pages = [p for p in self.plan.pages if p.path != page]
        if after != original:
            self.plan.pages.append(PageChange(page, original, after))

    def _original(self, page: str) -> bytes | None:
        try:
            return (self.workspace.root / page).read_bytes()
        except FileNotFoundError:
            return None


def _confidence(c: Candidate) -> float:
    if c.life is not None and c.life.confidence is not None:
        return c.life.confidence
    return confidence_of(c.fact.kind, c.fact.confidence)


def _archived_on(c: Candidate) -> date:
    """The day a fact's decay crossed the archive threshold."""
    base = c.fact.day or date.min
    days = half_life_days(c.fact.importance) * math.log2(1 / ARCHIVE_THRESHOLD)
    return base + timedelta(days=math.ceil(days))


def _older_than(a: Fact, b: Fact) -> bool:
    return (a.day or date.min, a.path, a.line) < (b.day or date.min, b.path, b.line)


def _oldest_first(c: Candidate) -> tuple[date, str, int]:
    return (c.fact.day or date.min, c.fact.path, c.fact.line)


def _newest_first(c: Candidate) -> tuple[int, str, int]:
    return (-(c.fact.day or date.min).toordinal(), c.fact.path, c.fact.line)


# -- running ------------------------------------------------------------------------

UNDO_FILE = "reflect-last.json"  # under .memory/: the previous bytes of the last run
PAGES_INTENT = REFLECT_INTENT  # a committed page set still being renamed


def run(workspace: Workspace, ledger: Ledger, *, since: date, today: date, ts: str,
        dry_run: bool, is_secret: Any = None, similar: Similar | None = None) -> ReflectPlan:
    """Plan under the write lock; unless `dry_run`, journal the events and write the pages
    (each compare-and-set against the bytes it was planned from)."""
    with workspace.write_lock.held():
        finish_pages(workspace, locked=True)
        ledger.replay()
        plan = Planner(workspace, ledger.backend, since=since, today=today,
                       is_secret=is_secret, similar=similar).run()
        if dry_run:
            return plan
        if not (plan.records or plan.pages):
            return plan  # nothing to do: the last run stays the one `--undo` takes back
        # every page staged first (a full disk stops the run before anything is journaled);
        # then the undo manifest, so a run that fails halfway can still be taken back
        staged = _stage_pages(workspace, plan.pages)
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
    replace_atomically(undo_path, json.dumps(manifest(plan, [], prior)).encode())
    events = ledger.append(plan.records, ts=ts, locked=True)
    replace_atomically(undo_path, json.dumps(manifest(plan, events, prior)).encode())
    ledger.replay()


def _stage_pages(workspace: Workspace, pages: Sequence[PageChange]) -> Staged:
    """Stage the run's pages as one set (`files.stage_set`): each compare-and-set against
    the bytes it was planned from, all checked before any is written."""
    for page in pages:
        path = workspace.root / page.path
        workspace.require_real_dir(path.parent)
        try:
            current: bytes | None = path.read_bytes()
        except FileNotFoundError:
            current = None
        if current != page.before:
            raise MemfoldError(f"{page.path} changed while reflect was writing; run "
                               "`memfold reflect` again (what it decided is already journaled)")
        path.parent.mkdir(parents=True, exist_ok=True)
    return stage_set(workspace.root, [(p.path, p.before, p.after) for p in pages])


def finish_pages(workspace: Workspace, *, locked: bool = False) -> list[str]:
    """Finish writing the page set of a reflect run that was killed or failed after it
    committed (`PAGES_INTENT` left behind); returns the pages written now."""
    intent = workspace.root / PAGES_INTENT
    if not os.path.lexists(intent):
        return []
    if locked:
        return finish_set(workspace.root, intent)
    with workspace.write_lock.held():
        return finish_set(workspace.root, intent)


def undo(workspace: Workspace, ledger: Ledger, *, ts: str) -> list[str]:
    """Restore the pages of the last run and take back its decisions; returns the pages.

    Refuses, writing nothing, when a page changed since that run (an edit would be lost).
    """
    undo_path = workspace.cache_dir / UNDO_FILE
    with workspace.write_lock.held():
        finish_pages(workspace, locked=True)
        try:
            saved = json.loads(undo_path.read_bytes())
        except FileNotFoundError:
            raise MemfoldError("nothing to undo: no reflect run recorded since the "
                               "index was created") from None
        written = []
        for entry in saved["pages"]:
            path = workspace.root / entry["path"]
            current = path.read_bytes() if path.exists() else None
            before = None if entry["before"] is None else base64.b64decode(entry["before"])
            if current == before:
                continue  # a run that stopped halfway never wrote this page
            if current is None or hashlib.sha256(current).hexdigest() != entry["after_sha"]:
                raise MemfoldError(f"{entry['path']} changed since the last reflect; undo "
                                   "would lose that edit, so nothing was undone")
            written.append((path, before))
        for path, before in written:
            if before is None:
                path.unlink()
            else:
                replace_atomically(path, before)
        ledger.replay()
        ids = list(saved.get("prior") or {}) or [str(e.get("id")) for e in saved["events"]]
        ledger.append(undo_records(saved, ledger.backend.life(ids)), ts=ts, locked=True)
        ledger.replay()
        undo_path.unlink()
    return [entry["path"] for entry in saved["pages"]]


__all__ = ["Planner", "ReflectPlan", "dates_note", "finish_pages", "page_slug", "run", "undo",
           "with_dates"]
