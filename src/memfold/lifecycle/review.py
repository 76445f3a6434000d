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

An item's `rule` says which of the judge's rules spoke, read from its reason
(`events.rule_of`), or the judge's own name for a judge whose reasons are free text.  The
index folds the items and their states into a table of their own (index/sqlite/review.py),
so the queue is read a page at a time.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol

from memfold.errors import BadInput, UnknownId
from memfold.index.base import Candidate, ReviewPage, ReviewQuery, ReviewRow
from memfold.journal.events import RULES, Dismiss, Record, Restore, content_sha
from memfold.journal.fold import LifeState
from memfold.journal.log import Event
from memfold.lifecycle.ledger import Decide, supersede_record
from memfold.names import entity_key
from memfold.times.parse import TimeSpecError, parse_spec

CONFLICT = "conflict"
REVIEW_LIMIT = 50  # items `memfold review` lists unless told
OPEN, APPLIED = "open", "applied"  # waiting for a word: a conflict; a supersede in force
WAITING = (OPEN, APPLIED)  # settled: accepted, dismissed, restored or replaced
# The rules a review item can name (the rule judge's, journal.events.RULES, less the bullet's
# own `explicit`) and the judges that name their own items; a judge whose name is its model
# (openai:MODEL) or a plugin's is known once one of its items is in the queue.
KNOWN_RULES = tuple(rule for rule, _ in RULES if rule != "explicit")
KNOWN_JUDGES = ("rules", "reflect")


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

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ReviewFact:
        return cls(id=d["id"], content=d["content"], source=d["source"], day=d["day"],
                   status=d["status"])


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

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Settlement:
        return cls(state=d["state"], seq=d["seq"], ts=d["ts"], by=d["by"], reason=d["reason"])

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

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ReviewItem:
        """The item `to_dict` gave (a server's answer, memfold.client.remote)."""
        return cls(id=d["id"], kind=d["kind"], state=d["state"],
                   older=ReviewFact.from_dict(d["older"]), newer=ReviewFact.from_dict(d["newer"]),
                   judge=d["judge"], rule=d["rule"], reason=d["reason"], ts=d["ts"],
                   settled=Settlement.from_dict(d["settled"]) if d.get("settled") else None)


@dataclass(frozen=True, kw_only=True)
class ReviewQueue:
    """The items that matched, newest first, up to the limit asked for (`total` counts all)."""

    items: tuple[ReviewItem, ...]
    total: int

    def to_dict(self) -> dict[str, Any]:
        return {"total": self.total, "items": [item.to_dict() for item in self.items]}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ReviewQueue:
        return cls(items=tuple(ReviewItem.from_dict(item) for item in d["items"]),
                   total=d["total"])


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

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ReviewOutcome:
        return cls(action=d["action"], dry_run=d["dry_run"],
                   settled=tuple(ReviewItem.from_dict(item) for item in d["settled"]),
                   unchanged=tuple(ReviewItem.from_dict(item) for item in d["unchanged"]))


@dataclass(frozen=True, kw_only=True)
class Selection:
    """Which items: raised since a day, by a rule (or a judge's name), about an entity."""

    since: date | None = None
    rule: str | None = None
    entity_keys: tuple[str, ...] = ()
    settled: bool = False  # also those already settled

    @classmethod
    def of(cls, *, since: str | None, entity: str | Sequence[str], rule: str | None,
           settled: bool, today: date) -> Selection:
        """A selection as a caller words it: `since` a time spec ("30d", "2026-01"), read
        as of `today`; `entity` names (with or without @); BadInput for a spec not read."""
        start = None
        if since is not None:
            try:
                start = parse_spec(since, today=today).start
            except TimeSpecError as exc:
                raise BadInput(str(exc)) from None
        names = [entity] if isinstance(entity, str) else list(entity)
        keys = tuple(entity_key(name.strip().lstrip("@")) for name in names if name.strip())
        return cls(since=start, rule=rule.strip() if rule else None, entity_keys=keys,
                   settled=settled)


class ReviewSource(Protocol):
    """What settling reads: the review items, the events that settled them, the facts
    (a workspace's index, or a bank's rows in PostgreSQL: memfold.server.pgindex)."""

    def review_rows(self, query: ReviewQuery) -> ReviewPage: ...

    def events_at(self, seqs: Sequence[int]) -> list[Event]: ...

    def by_id(self, fact_id: str) -> list[Candidate]: ...

    def by_ids(self, ids: Sequence[str]) -> list[Candidate]: ...

    def life(self, ids: Iterable[str]) -> dict[str, LifeState]: ...


class Reviewer(Protocol):
    """What settles: a `Ledger`, or the ledger's decisions over a bank's rows
    (memfold.server.pgledger)."""

    @property
    def backend(self) -> ReviewSource: ...

    def transact(self, decide: Decide, *, ts: str) -> list[Event]: ...

    def chain(self, fact_id: str) -> list[str]: ...


# -- reading the queue -------------------------------------------------------------------


def queue(backend: ReviewSource, selection: Selection, *, limit: int | None) -> ReviewQueue:
    """The items the selection names, newest first (only those waiting for a word unless
    `selection.settled`), up to `limit`."""
    rows, total = backend.review_rows(_query(selection, limit=limit))
    return ReviewQueue(items=tuple(_items(backend, rows)), total=total)


def _query(selection: Selection, *, limit: int | None) -> ReviewQuery:
    return ReviewQuery(states=() if selection.settled else WAITING,
                       since=selection.since.isoformat() if selection.since else None,
                       rule=selection.rule, entity_keys=selection.entity_keys, limit=limit)


def _items(backend: ReviewSource, rows: Sequence[ReviewRow]) -> list[ReviewItem]:
    """The rows as items: both facts as the index holds them now, and who settled each."""
    settling = {e.seq: e for e in backend.events_at([r.settled for r in rows if r.settled])}
    found = {c.fact.id: c for c in backend.by_ids(sorted({r.old for r in rows}
                                                           | {r.new for r in rows}))}

    def side(fact_id: str) -> ReviewFact:
        held = found.get(fact_id)
        if held is None:
            return ReviewFact(id=fact_id, content=None, source=None, day=None, status=None)
        fact = held.fact
        return ReviewFact(id=fact_id, content=fact.content, source=fact.source,
                          day=fact.day.isoformat() if fact.day else None,
                          status=(held.life and held.life.status) or "active")

    def settled(row: ReviewRow) -> Settlement | None:
        event = settling.get(row.settled) if row.settled else None
        if event is None:
            return None
        return Settlement(state=row.state, seq=event.seq, ts=event.ts, by=event.record.source,
                          reason=str(getattr(event.record, "reason", "") or ""))

    return [ReviewItem(id=r.seq, kind=r.kind, state=r.state, older=side(r.old),
                       newer=side(r.new), judge=r.judge, rule=r.rule, reason=r.reason,
                       ts=r.ts, settled=settled(r)) for r in rows]


# -- settling ----------------------------------------------------------------------------


def settle(ledger: Reviewer, action: str, target: str | None, selection: Selection, *,
           reason: str | None, dry_run: bool, ts: str) -> ReviewOutcome:
    """Accept or reject one item (`target`: its number, or its older fact's id) or, with
    no target, reject every waiting item the selection names (which must name a rule).
    The caller has replayed the journal (`Memory.refresh`); a write decides again under
    the lock (`Ledger.transact`)."""
    if target is None and (action != "reject" or selection.rule is None):
        raise BadInput(f"review {action} needs an ID" + (
            " or --rule RULE" if action == "reject" else ""))
    if target is not None and (selection.rule is not None or selection.entity_keys):
        raise BadInput("give an ID or --rule/--entity, not both")
    backend = ledger.backend
    if target is None and selection.rule is not None:
        _known_rule(backend, selection.rule)
    if dry_run:  # against the index as the caller's refresh left it
        chosen, unchanged = _choose(backend, target, selection, action)
        return ReviewOutcome(action=action, settled=tuple(_items(backend, chosen)),
                             unchanged=tuple(_items(backend, unchanged)), dry_run=True)
    picked: list[ReviewRow] = []
    left: list[ReviewRow] = []

    def decide() -> list[Record]:
        chosen, unchanged = _choose(backend, target, selection, action)
        picked[:], left[:] = chosen, unchanged
        return [_record(ledger, row, action, reason) for row in chosen]
    ledger.transact(decide, ts=ts)
    now, _ = backend.review_rows(ReviewQuery(seqs=tuple(r.seq for r in picked)))
    return ReviewOutcome(action=action, settled=tuple(_items(backend, now)),
                         unchanged=tuple(_items(backend, left)))


def _known_rule(backend: ReviewSource, rule: str) -> None:
    """BadInput naming the known rules for a rule no judge has used (a typo would otherwise
    read as a bulk reject matching nothing): a rule or judge of KNOWN_*, or the rule or judge
    of any item in the queue, settled or not."""
    if rule.casefold() in KNOWN_RULES + KNOWN_JUDGES:
        return
    if backend.review_rows(ReviewQuery(rule=rule, limit=1))[1]:
        return
    raise BadInput(f"no judge has used the rule {rule!r}: the rules are "
                   f"{', '.join(KNOWN_RULES)}, or a judge's name ({', '.join(KNOWN_JUDGES)}, "
                   "openai:MODEL)")


def _choose(backend: ReviewSource, target: str | None, selection: Selection,
            action: str) -> tuple[list[ReviewRow], list[ReviewRow]]:
    """(rows this call settles, rows named that it leaves as they are)."""
    if target is None:
        return backend.review_rows(_query(selection, limit=None))[0], []
    row = _find(backend, target)
    if row.state not in WAITING or (action == "accept" and row.state == APPLIED):
        return [], [row]  # settled already, or a supersede already in force
    return [row], []


def _find(backend: ReviewSource, target: str) -> ReviewRow:
    """The item a target names: its number, or the id of its older fact (the newest item
    about it waiting for a word, else the newest item about it)."""
    text = target.strip().lstrip("#^")  # "#412" or "^old1"
    if text.isdigit():
        found, _ = backend.review_rows(ReviewQuery(seqs=(int(text),)))
        if found:
            return found[0]
        raise UnknownId(f"no review item {text}; `memfold review` lists them")
    about, _ = backend.review_rows(ReviewQuery(old=text))
    waiting = [r for r in about if r.state in WAITING]
    if len(waiting) > 1:
        raise BadInput(f"{len(waiting)} review items are about {text}: "
                       + ", ".join(str(r.seq) for r in waiting) + "; give one number")
    if waiting or about:
        return (waiting or about)[0]
    raise UnknownId(f"no review item about {text!r}; `memfold review` lists them")


def _record(ledger: Reviewer, row: ReviewRow, action: str, reason: str | None) -> Record:
    """The journal event that settles an item: a supersede (accept), a dismiss or a
    restore (reject)."""
    old = ledger.backend.by_id(row.old)
    sha = content_sha(old[0].fact.content) if old else None
    if action == "reject" and row.kind == CONFLICT:
        return Dismiss(id=row.old, by=row.new, sha=sha,
                       reason=reason or f"dismissed in review: {row.reason}")
    if action == "reject":
        return Restore(id=row.old, sha=sha, reason=reason or f"restored in review: {row.reason}")
    new = ledger.backend.by_id(row.new)
    if not old or not new:
        gone = row.old if not old else row.new
        raise BadInput(f"no file holds {gone} any more: review item {row.seq} cannot be "
                       "accepted")
    if row.old in ledger.chain(row.new):
        raise BadInput(f"{row.new} is already superseded (directly or in a chain) by "
                       f"{row.old}; accepting would make a cycle")
    return supersede_record(old[0].fact, new[0].fact, judge="manual",
                            reason=reason or f"accepted in review: {row.reason}")


__all__ = ["ReviewFact", "ReviewItem", "ReviewOutcome", "ReviewQueue", "Selection",
           "Settlement", "queue", "settle"]
