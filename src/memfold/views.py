"""Views for people: what a workspace held, how it changed and why, as plain values.

The web view (`memfold ui`) draws these; any other adapter may too.  Each view reads the
index and the journal as of `today` and changes nothing:

    timeline      typed facts per day, by kind, with the day's Retain bullets
    opinions      each opinion's confidence events over time, with the evidence for and
                  against at each step
    lifecycle     superseded, merged, expired and archived facts, and those about to fade
                  (active today, archived or expired within `horizon` days)
    chains        supersede and merge edges around some facts, each with its reason and judge
    entities      the entity names facts mention, with how many facts mention each
    source        a workspace file's lines, for a citation to open at its line
    journal_check whether journal.jsonl's hash chain holds

Fact text comes back with likely secrets redacted (`[REDACTED:<kind>]`), as recall shows it;
hidden characters are left for the adapter to reveal (`memfold.scan.hidden.reveal`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from memfold.errors import BadInput
from memfold.index.base import Candidate, FactSearch, Filters
from memfold.journal.fold import ACTIVE, ARCHIVED, EXPIRED, MERGED, SUPERSEDED, status_of
from memfold.lifecycle.ledger import Ledger
from memfold.names import entity_key
from memfold.recall.search import describe
from memfold.scan.secrets import find_secrets
from memfold.times.parse import TimeSpecError, parse_spec
from memfold.values import KIND_LETTERS, Hit, Interval

TYPED_KINDS = tuple(KIND_LETTERS.values())  # world, experience, opinion, observation
SCAN_LIMIT = 200_000  # facts a view reads at most (a workspace of ten years of daily logs)
FADE_HORIZON_DAYS = 14
CHAIN_LIMIT = 500  # facts a supersede graph follows at most


@dataclass(frozen=True)
class TimelineDay:
    """The typed facts written on one day: counts by kind, and the bullets in file order."""

    day: date
    counts: dict[str, int]
    facts: tuple[Hit, ...]

    @property
    def total(self) -> int:
        return sum(self.counts.values())


@dataclass(frozen=True)
class Timeline:
    """Days with typed facts, oldest first, within `window`."""

    window: Interval
    days: tuple[TimelineDay, ...]


@dataclass(frozen=True)
class ConfidenceStep:
    """One `confidence` journal event: the opinion's confidence moved from `before` to
    `after` on `on`, counting the facts in `support` and `contradict`."""

    seq: int
    on: str
    before: float | None
    after: float | None
    support: tuple[Hit, ...]
    contradict: tuple[Hit, ...]


@dataclass(frozen=True)
class OpinionHistory:
    """An opinion, the confidence it was written with, and every confidence event since."""

    opinion: Hit
    written: float | None
    steps: tuple[ConfidenceStep, ...]


@dataclass(frozen=True)
class Fading:
    """An active fact that will be `becomes` (archived or expired) on `on`."""

    hit: Hit
    on: date
    becomes: str


@dataclass(frozen=True)
class LifecycleLists:
    """Facts recall leaves out or ranks down, by status, and those about to join them."""

    superseded: tuple[Hit, ...] = ()
    merged: tuple[Hit, ...] = ()
    expired: tuple[Hit, ...] = ()
    archived: tuple[Hit, ...] = ()
    fading: tuple[Fading, ...] = ()
    horizon: int = FADE_HORIZON_DAYS


@dataclass(frozen=True)
class Edge:
    """`old` superseded by (or merged into) `new`, as the journal recorded it."""

    old: str
    new: str
    event: str  # supersede | merge
    reason: str
    judge: str
    on: str


@dataclass(frozen=True)
class Chains:
    """Facts linked by supersede or merge edges, and the edges."""

    facts: tuple[Hit, ...]
    edges: tuple[Edge, ...]


@dataclass(frozen=True)
class SourceFile:
    """A workspace file's lines (likely secrets redacted, line numbers kept)."""

    path: str
    lines: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class JournalCheck:
    events: int
    problem: str | None


class Views:
    """The views over one open workspace (`Memory.views`): each syncs what changed on disk
    first, then reads as of `now` (default: the handle's clock)."""

    def __init__(self, ledger: Ledger, *, refresh: Callable[[], object],
                 clock: Callable[[datetime | str | None], datetime]) -> None:
        self.ledger = ledger
        self.backend = ledger.backend
        self._refresh = refresh
        self._clock = clock

    def _today(self, now: datetime | str | None) -> date:
        self._refresh()
        return self._clock(now).date()

    def _all(self, filters: Filters | None = None) -> list[Candidate]:
        return self.backend.recent(filters or Filters(), SCAN_LIMIT)

    # -- timeline ---------------------------------------------------------------------

    def timeline(self, *, since: str | date = "30d", until: str | date | None = None,
                 now: datetime | str | None = None) -> Timeline:
        """Typed facts per day written between `since` and `until` (specs as recall takes
        them: "30d", "2025-11", "last week"), by kind."""
        today = self._today(now)
        window = _window(since, until, today)
        found = [c for c in self._all(Filters(kinds=TYPED_KINDS, window=window))
                 if c.fact.day and _within(c.fact.day, window)]
        by_day: dict[date, list[Candidate]] = {}
        for c in found:
            by_day.setdefault(c.fact.day or today, []).append(c)
        days = []
        for day in sorted(by_day):
            group = sorted(by_day[day], key=lambda c: (c.fact.path, c.fact.line))
            counts = Counter(c.fact.kind for c in group)
            days.append(TimelineDay(day, {k: counts[k] for k in TYPED_KINDS if counts[k]},
                                    tuple(describe(c, today).redacted() for c in group)))
        return Timeline(window, tuple(days))

    # -- opinions ---------------------------------------------------------------------

    def opinions(self, *, entity: str | None = None,
                 now: datetime | str | None = None) -> list[OpinionHistory]:
        """Every opinion (about `entity`, if given), newest first, with its confidence
        events oldest first and the evidence each one counted."""
        today = self._today(now)
        keys: tuple[str, ...] = ((entity_key(entity.strip().lstrip("@")),)
                                 if entity and entity.strip() else ())
        if keys:
            keys = tuple(self.backend.resolve_names(list(keys)).values()) or keys
        found = self._all(Filters(kinds=("opinion",), entity_keys=keys))
        return [self._history(c, today) for c in found]

    def _history(self, c: Candidate, today: date) -> OpinionHistory:
        events = [e for e in self.backend.events_for(c.fact.id)
                  if e.event == "confidence" and e.id == c.fact.id]
        cited = {str(i) for e in events for k in ("support", "contradict")
                 for i in e.data.get(k, [])}
        known = {x.fact.id: describe(x, today).redacted()
                 for x in self.backend.by_ids(sorted(cited))}
        steps = tuple(ConfidenceStep(
            seq=e.seq, on=str(e.data.get("on") or e.ts[:10]),
            before=_number(e.data.get("from")), after=_number(e.data.get("c")),
            support=_hits(known, e.data.get("support", [])),
            contradict=_hits(known, e.data.get("contradict", []))) for e in events)
        return OpinionHistory(describe(c, today).redacted(), c.fact.confidence, steps)

    # -- lifecycle --------------------------------------------------------------------

    def lifecycle(self, *, horizon: int = FADE_HORIZON_DAYS,
                  now: datetime | str | None = None) -> LifecycleLists:
        """Superseded, merged, expired and archived facts (newest first), and the active
        facts that will be archived or expire within `horizon` days, soonest first."""
        if horizon < 0:
            raise BadInput(f"the horizon must be 0 days or more, not {horizon}")
        today = self._today(now)
        lists: dict[str, list[Hit]] = {SUPERSEDED: [], MERGED: [], EXPIRED: [], ARCHIVED: []}
        fading: list[Fading] = []
        for c in self._all():
            hit = describe(c, today)
            if hit.status in lists:
                lists[hit.status].append(hit.redacted())
            elif hit.status == ACTIVE and c.fact.kind != "text":
                soon = _fades(c, today, horizon)
                if soon:
                    fading.append(Fading(hit.redacted(), *soon))
        fading.sort(key=lambda f: (f.on, f.hit.fact.path, f.hit.fact.line))
        return LifecycleLists(superseded=tuple(lists[SUPERSEDED]), merged=tuple(lists[MERGED]),
                              expired=tuple(lists[EXPIRED]), archived=tuple(lists[ARCHIVED]),
                              fading=tuple(fading), horizon=horizon)

    # -- supersede chains --------------------------------------------------------------

    def chains(self, ids: Iterable[str], *, now: datetime | str | None = None) -> Chains:
        """The supersede and merge edges reachable from `ids` (both ways), each with the
        reason and judge of the journal event that made it, and the facts they link."""
        today = self._today(now)
        seen: list[str] = []
        frontier = list(dict.fromkeys(ids))
        edges: list[Edge] = []
        while frontier and len(seen) < CHAIN_LIMIT:
            fact_id = frontier.pop(0)
            if fact_id in seen:
                continue
            seen.append(fact_id)
            life = self.backend.life([fact_id]).get(fact_id)
            if life is None:
                continue
            frontier.extend(life.supersedes)
            if life.superseded_by and life.status in (SUPERSEDED, MERGED):
                frontier.append(life.superseded_by)
                edges.append(self._edge(fact_id, life.superseded_by))
        found = {c.fact.id: describe(c, today).redacted() for c in self.backend.by_ids(seen)}
        linked = {e.old for e in edges} | {e.new for e in edges}
        return Chains(tuple(found[i] for i in seen if i in found and i in linked),
                      tuple(edges))

    def _edge(self, old: str, new: str) -> Edge:
        """The latest journal event that made `old` point at `new`."""
        made = [e for e in self.backend.events_for(old) if e.id == old and (
            (e.event == "supersede" and e.data.get("by") == new)
            or (e.event == "merge" and e.data.get("into") == new))]
        if not made:  # put back by `reflect --undo`'s reset: no event of its own
            return Edge(old, new, "supersede", "", "", "")
        last = made[-1]
        return Edge(old, new, last.event, str(last.data.get("reason", "")),
                    str(last.data.get("judge", "reflect" if last.event == "merge" else "")),
                    str(last.data.get("on") or last.ts[:10]))

    # -- entities, files, the journal -----------------------------------------------------

    def entities(self) -> list[tuple[str, int]]:
        """The entity names facts mention (the first spelling seen of each), with how many
        typed facts mention each, most mentioned first."""
        self._refresh()
        return entity_counts(self.backend)

    def source(self, path: str) -> SourceFile:
        """The lines of a Markdown file memfold reads (memory.md, memory/, bank/), likely
        secrets redacted with the line numbers kept; any other path is refused."""
        rel = path.strip().lstrip("/")
        workspace = self.ledger.workspace
        if not rel or ".." in rel.split("/") or "\\" in rel or not workspace.is_tracked(rel):
            raise BadInput(f"{path!r} is not a file memfold reads (memory.md, memory/*.md, "
                           "bank/*.md)")
        target = workspace.abspath(rel)
        if target.is_symlink() or not target.is_file():
            raise BadInput(f"{rel} does not exist in the workspace")
        text = _redact_lines(target.read_bytes().decode("utf-8", "replace"))
        lines = text.split("\n")  # as the parser numbers them
        return SourceFile(rel, tuple(lines[:-1] if lines[-1] == "" else lines))

    def journal_check(self) -> JournalCheck:
        """Whether journal.jsonl's hash chain holds, and the first line that breaks it."""
        events, problem = self.ledger.journal.verify()
        return JournalCheck(events, problem)


def _window(since: str | date | None, until: str | date | None, today: date) -> Interval:
    try:
        start = _day(since, today, end=False) if since else None
        end = _day(until, today, end=True) if until else None
    except TimeSpecError as exc:
        raise BadInput(str(exc)) from None
    if start and end and start > end:
        raise BadInput(f"--since {since} is after --until {until}")
    return Interval(start, end)


def _day(value: str | date, today: date, *, end: bool) -> date | None:
    if isinstance(value, date):
        return value
    spec = parse_spec(value, today=today)
    return spec.end if end else spec.start


def _within(day: date, window: Interval) -> bool:
    return (window.start is None or day >= window.start) and (
        window.end is None or day <= window.end)


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) \
        else None


def _hits(known: dict[str, Hit], ids: Sequence[Any]) -> tuple[Hit, ...]:
    return tuple(known[str(i)] for i in ids if str(i) in known)


def _fades(c: Candidate, today: date, horizon: int) -> tuple[date, str] | None:
    """(the first day the fact is no longer active, what it becomes), within `horizon`."""
    last = today + timedelta(days=horizon)
    status, _ = status_of(c.fact, c.life, last)
    if status == ACTIVE:
        return None
    low, high = 1, horizon  # status_of is active at today + 0 and not at today + high
    while low < high:
        mid = (low + high) // 2
        if status_of(c.fact, c.life, today + timedelta(days=mid))[0] == ACTIVE:
            low = mid + 1
        else:
            high = mid
    day = today + timedelta(days=low)
    return day, status_of(c.fact, c.life, day)[0]


def _redact_lines(text: str) -> str:
    """`text` with each likely secret shown as `[REDACTED:<kind>]`, keeping the newlines a
    secret spans (a private key block), so every other line keeps its number."""
    parts: list[str] = []
    at = 0
    for m in find_secrets(text):
        parts.append(text[at:m.start])
        parts.append(f"[REDACTED:{m.kind}]" + "\n" * text.count("\n", m.start, m.end))
        at = m.end
    parts.append(text[at:])
    return "".join(parts)


def entity_counts(backend: FactSearch) -> list[tuple[str, int]]:
    """`Views.entities` over any index that lists facts newest first (the server's too)."""
    counts: Counter[str] = Counter()
    names: dict[str, str] = {}
    for c in backend.recent(Filters(kinds=TYPED_KINDS), SCAN_LIMIT):
        for name in dict.fromkeys(c.fact.entities):
            key = entity_key(name)
            names.setdefault(key, name)
            counts[key] += 1
    return [(names[k], n) for k, n in sorted(counts.items(), key=lambda x: (-x[1], x[0]))]
