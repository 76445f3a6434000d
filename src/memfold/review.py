"""The review queue: the judge's decisions that a person or an agent settles.

Every time the judge weighs a new fact against an older one it journals its word: a
`supersede` (the older fact replaced, automatically) or a `conflict` (the older fact left
active beside the newer one).  Each such event is a review item, named by its journal `seq`
(stable: the journal is append-only, so a rebuilt index names it the same).  An item's state
follows from the events journaled about its older fact after it:

    conflict   open       until a supersede of the older fact by the newer (accepted), a
                          dismiss of the pair (dismissed), or another supersede or merge of
                          the older fact (replaced)
    supersede  applied    until a restore of the older fact (restored) or a merge (replaced)

`accept` makes an open conflict's supersede (judge "manual"); `reject` dismisses an open
conflict or restores the older fact of an applied supersede.  Both decide under the write
lock, against the journal as it then is, so an item is never settled twice.  Supersedes made
by hand (`manual`) or written in a bullet (`explicit`) are not the judge's and are not listed.

An item's `rule` says which of the judge's rules spoke, read from its reason (`RULES`), or the
judge's own name for a judge whose reasons are free text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from .errors import BadInput, UnknownId
from .events import Conflict, Dismiss, Merge, Record, Restore, Supersede
from .index.base import IndexBackend
from .journal import Event
from .ledger import Ledger, content_sha, supersede_record

CONFLICT, SUPERSEDE = "conflict", "supersede"
OPEN, APPLIED = "open", "applied"  # waiting for a word: a conflict; a supersede in force
ACCEPTED, DISMISSED, RESTORED, REPLACED = "accepted", "dismissed", "restored", "replaced"
STATES = (OPEN, APPLIED, ACCEPTED, DISMISSED, RESTORED, REPLACED)
NOT_THE_JUDGES = ("manual", "explicit")  # supersedes a person made or wrote
_SETTLING = ("supersede", "dismiss", "restore", "merge")
# (rule, what its reasons look like) — the rule judge's reason forms (judge/rules.py)
RULES = (
    ("explicit", re.compile(r"^explicit supersedes")),
    ("moved", re.compile(r"\bmoved away from\b")),
    ("renamed", re.compile(r"\brenamed\b")),
    ("ended", re.compile(r"\bended$|relationship ended")),
    ("opinion", re.compile(r"^the opinion\b")),
    ("status", re.compile(r"^status: ")),
    ("topic", re.compile(r"^same topic: ")),
    ("changes", re.compile(r"^the newer fact changes\b")),
    ("value", re.compile(r"^[^:]+: .+ became ")),
)


@dataclass(frozen=True, kw_only=True)
class ReviewFact:
    """One side of a review item: the fact as the index holds it now (`content` None when
    no file holds it any more)."""

    id: str
    content: str | None
    source: str | None  # path:line
    day: str | None
    status: str | None  # what the journal says of it now: active, superseded, merged, ...

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "content": self.content, "source": self.source,
                "day": self.day, "status": self.status}


@dataclass(frozen=True, kw_only=True)
class Settlement:
    """How an item was settled: the journal event that did it (`seq`), who wrote it (`by`,
    None when unsigned), when and why."""

    state: str  # accepted | dismissed | restored | replaced
    seq: int
    ts: str
    by: str | None
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"state": self.state, "seq": self.seq, "ts": self.ts, "by": self.by,
                "reason": self.reason}

    def describe(self) -> str:
        """"accepted by cli on 2026-01-05T09:00:00+00:00" (one line)."""
        return f"{self.state} by {self.by or 'an unsigned writer'} on {self.ts}"


@dataclass(frozen=True, kw_only=True)
class ReviewItem:
    """One decision of the judge, as it stands now."""

    id: int  # the journal seq of the judge's event
    kind: str  # conflict | supersede
    state: str  # open | applied | accepted | dismissed | restored | replaced
    older: ReviewFact
    newer: ReviewFact
    judge: str
    rule: str
    reason: str
    ts: str  # when the judge spoke
    settled: Settlement | None = None

    @property
    def waiting(self) -> bool:
        """Whether a word can still change it (an open conflict, an applied supersede)."""
        return self.state in (OPEN, APPLIED)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "state": self.state,
                "older": self.older.to_dict(), "newer": self.newer.to_dict(),
                "judge": self.judge, "rule": self.rule, "reason": self.reason, "ts": self.ts,
                "settled": self.settled.to_dict() if self.settled else None}


@dataclass(frozen=True, kw_only=True)
class ReviewQueue:
    """The items that matched, newest first, up to the limit asked for (`total` counts all)."""

    items: tuple[ReviewItem, ...]
    total: int

    def to_dict(self) -> dict[str, Any]:
        return {"total": self.total, "items": [item.to_dict() for item in self.items]}


@dataclass(frozen=True, kw_only=True)
class ReviewOutcome:
    """What an accept or a reject did: the items it settled (as they stand after it, or as
    they stand now with `dry_run`), and those it found already settled (left unchanged)."""

    action: str  # accept | reject
    settled: tuple[ReviewItem, ...]
    unchanged: tuple[ReviewItem, ...]
    dry_run: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "dry_run": self.dry_run,
                "settled": [item.to_dict() for item in self.settled],
                "unchanged": [item.to_dict() for item in self.unchanged]}


@dataclass(frozen=True, kw_only=True)
class Selection:
    """Which items: raised since a day, by a rule (or a judge's name), about an entity."""

    since: date | None = None
    rule: str | None = None
    entity_keys: tuple[str, ...] = ()
    settled: bool = False  # also those already settled


def rule_of(judge: str, reason: str) -> str:
    """The rule behind a reason of the rule judge (`RULES`), else the judge's name."""
    if judge == "explicit":
        return judge
    said = reason.split(", but the ")[0]
    return next((rule for rule, form in RULES if form.search(said)), judge)


# -- reading the queue -------------------------------------------------------------------


def queue(backend: IndexBackend, selection: Selection, *, limit: int | None) -> ReviewQueue:
    """The items the selection names, newest first (only those waiting for a word unless
    `selection.settled`)."""
    raised = _raised(backend, selection)
    found = [item for item in _standing(backend, raised)
             if selection.settled or item.waiting]
    page = found[:limit] if limit is not None else found
    return ReviewQueue(items=tuple(_with_facts(backend, page)), total=len(found))


def _raised(backend: IndexBackend, selection: Selection) -> list[Event]:
    since = selection.since.isoformat() if selection.since else None
    raised = [e for e in backend.events_of_kinds((CONFLICT, SUPERSEDE), since=since)
              if isinstance(e.record, Conflict)
              or (isinstance(e.record, Supersede) and e.record.judge not in NOT_THE_JUDGES)]
    if selection.rule is not None:
        wanted = selection.rule.casefold()
        raised = [e for e in raised if wanted in (_judge(e.record).casefold(),
                                                  rule_of(_judge(e.record), _reason(e)))]
    if selection.entity_keys:
        linked = backend.linked_ids(selection.entity_keys)
        raised = [e for e in raised if e.id in linked or _newer(e.record) in linked]
    return raised


def _standing(backend: IndexBackend, raised: Sequence[Event]) -> list[ReviewItem]:
    """Each raised event as an item in its state now (facts filled in later)."""
    after: dict[str, list[Event]] = {}
    for event in reversed(backend.events_of_kinds(_SETTLING, ids=sorted({e.id for e in raised}))):
        after.setdefault(event.id, []).append(event)  # oldest first
    items = []
    for event in raised:
        kind = CONFLICT if isinstance(event.record, Conflict) else SUPERSEDE
        settled = _settlement(event, [e for e in after.get(event.id, ()) if e.seq > event.seq])
        items.append(ReviewItem(
            id=event.seq, kind=kind, state=settled.state if settled else
            (OPEN if kind == CONFLICT else APPLIED),
            older=ReviewFact(id=event.id, content=None, source=None, day=None, status=None),
            newer=ReviewFact(id=_newer(event.record), content=None, source=None, day=None,
                             status=None),
            judge=_judge(event.record), rule=rule_of(_judge(event.record), _reason(event)),
            reason=_reason(event), ts=event.ts, settled=settled))
    return items


def _settlement(raised: Event, later: Sequence[Event]) -> Settlement | None:
    """The first later event about the older fact that settles the item, if any."""
    newer = _newer(raised.record)
    for event in later:
        record = event.record
        if isinstance(raised.record, Conflict):
            if isinstance(record, Supersede) and record.by == newer:
                return _settled(ACCEPTED, event)
            if isinstance(record, Dismiss) and record.by == newer:
                return _settled(DISMISSED, event)
            if isinstance(record, Supersede | Merge):
                return _settled(REPLACED, event)
        elif isinstance(record, Restore):
            return _settled(RESTORED, event)
        elif isinstance(record, Merge):
            return _settled(REPLACED, event)
    return None


def _settled(state: str, event: Event) -> Settlement:
    return Settlement(state=state, seq=event.seq, ts=event.ts, by=event.record.source,
                      reason=str(getattr(event.record, "reason", "") or ""))


def _with_facts(backend: IndexBackend, items: Sequence[ReviewItem]) -> list[ReviewItem]:
    ids = sorted({i.older.id for i in items} | {i.newer.id for i in items})
    found = {c.fact.id: c for c in backend.by_ids(ids)} if ids else {}
    life = backend.life(ids) if ids else {}

    def side(fact_id: str) -> ReviewFact:
        hit = found.get(fact_id)
        if hit is None:
            return ReviewFact(id=fact_id, content=None, source=None, day=None, status=None)
        state = life.get(fact_id)
        return ReviewFact(id=fact_id, content=hit.fact.content, source=hit.fact.source,
                          day=hit.fact.day.isoformat() if hit.fact.day else None,
                          status=(state.status if state and state.status else "active"))

    return [replace(i, older=side(i.older.id), newer=side(i.newer.id)) for i in items]


def _newer(record: Record) -> str:
    return str(getattr(record, "by", ""))


def _judge(record: Record) -> str:
    return str(getattr(record, "judge", ""))


def _reason(event: Event) -> str:
    return str(getattr(event.record, "reason", ""))


# -- settling ----------------------------------------------------------------------------


def settle(ledger: Ledger, action: str, target: str | None, selection: Selection, *,
           reason: str | None, dry_run: bool, ts: str) -> ReviewOutcome:
    """Accept or reject one item (`target`: its number, or its older fact's id) or, with
    no target, reject every waiting item the selection names (which must name a rule)."""
    if target is None and (action != "reject" or selection.rule is None):
        raise BadInput(f"review {action} needs an ID" + (
            " or --rule RULE" if action == "reject" else ""))
    if target is not None and (selection.rule is not None or selection.entity_keys):
        raise BadInput("give an ID or --rule/--entity, not both")
    if dry_run:
        ledger.replay()
        chosen, unchanged = _choose(ledger.backend, target, selection)
        return ReviewOutcome(action=action, settled=tuple(_with_facts(ledger.backend, chosen)),
                             unchanged=tuple(_with_facts(ledger.backend, unchanged)),
                             dry_run=True)
    picked: list[ReviewItem] = []
    left: list[ReviewItem] = []

    def decide() -> list[Record]:
        chosen, unchanged = _choose(ledger.backend, target, selection, action=action)
        picked[:], left[:] = chosen, unchanged
        return [_record(ledger, item, action, reason) for item in chosen]
    written = ledger.transact(decide, ts=ts)
    after = {i.id: i for i in _standing(ledger.backend, _by_seq(ledger.backend, picked))}
    settled = [after.get(i.id, i) for i in picked] if written else []
    return ReviewOutcome(action=action, settled=tuple(_with_facts(ledger.backend, settled)),
                         unchanged=tuple(_with_facts(ledger.backend, left)))


def _by_seq(backend: IndexBackend, items: Sequence[ReviewItem]) -> list[Event]:
    seqs = {i.id for i in items}
    return [e for e in backend.events_of_kinds((CONFLICT, SUPERSEDE)) if e.seq in seqs]


def _choose(backend: IndexBackend, target: str | None, selection: Selection, *,
            action: str = "reject") -> tuple[list[ReviewItem], list[ReviewItem]]:
    """(items this call settles, items named that are already settled)."""
    if target is None:
        waiting = [i for i in _standing(backend, _raised(backend, selection)) if i.waiting]
        return waiting, []
    item = _find(_standing(backend, _raised(backend, Selection())), target)
    if action == "accept" and item.state == APPLIED:
        return [], [item]  # the judge's supersede already holds
    return ([item], []) if item.waiting else ([], [item])


def _find(items: Sequence[ReviewItem], target: str) -> ReviewItem:
    """The item a target names: its number, or the id of its older fact (the newest item
    about it waiting for a word, else the newest item about it)."""
    text = target.strip().lstrip("^#")
    if text.isdigit():
        found = [i for i in items if i.id == int(text)]
        if found:
            return found[0]
        raise UnknownId(f"no review item {text}; `memfold review` lists them")
    about = [i for i in items if i.older.id == text]
    waiting = [i for i in about if i.waiting]
    if len(waiting) > 1:
        raise BadInput(f"{len(waiting)} review items are about {text}: "
                       + ", ".join(str(i.id) for i in waiting) + "; give one number")
    if waiting or about:
        return (waiting or about)[0]
    raise UnknownId(f"no review item about {text!r}; `memfold review` lists them")


def _record(ledger: Ledger, item: ReviewItem, action: str, reason: str | None) -> Record:
    """The journal event that settles an item: a supersede (accept), a dismiss or a
    restore (reject)."""
    old = ledger.backend.by_id(item.older.id)
    sha = content_sha(old[0].fact.content) if old else None
    if action == "reject" and item.kind == CONFLICT:
        return Dismiss(id=item.older.id, by=item.newer.id, sha=sha,
                       reason=reason or f"dismissed in review: {item.reason}")
    if action == "reject":
        return Restore(id=item.older.id, sha=sha,
                       reason=reason or f"restored in review: {item.reason}")
    new = ledger.backend.by_id(item.newer.id)
    if not old or not new:
        gone = item.older.id if not old else item.newer.id
        raise BadInput(f"no file holds {gone} any more: review item {item.id} cannot be "
                       "accepted")
    if item.older.id in ledger.chain(item.newer.id):
        raise BadInput(f"{item.newer.id} is already superseded (directly or in a chain) by "
                       f"{item.older.id}; accepting would make a cycle")
    return supersede_record(old[0].fact, new[0].fact, judge="manual",
                            reason=reason or f"accepted in review: {item.reason}")


__all__ = ["RULES", "STATES", "ReviewFact", "ReviewItem", "ReviewOutcome", "ReviewQueue",
           "Selection", "Settlement", "queue", "rule_of", "settle"]
