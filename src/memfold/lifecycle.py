"""The lifecycle of a fact: pure functions of (fact, journal state, now).

    status     active | superseded | expired | archived
    superseded a journal event said a newer fact replaces it (pointers both ways)
    expired    its validity range (a stated range or `until=`) ended before today
    archived   its decay score fell under ARCHIVE_THRESHOLD, or a journal event archived it
    decay      0.5 ** (days since last use / half-life); last use = the fact's date or its
               latest `use` event; half-life = 30 days * 2 ** ((importance - 5) / 2.5), so a
               fact of importance 5 unused for 60 days decays to 0.25 (archived), and one of
               importance 10 keeps a 120-day half-life.  memory.md and bank pages do not
               decay by time alone (they carry no date).
    weight     active 0.8 + 0.2 * decay; archived 0.3 times that; superseded or expired 0.2 —
               what recall multiplies relevance and confidence by.

Only decisions live in the journal (supersede, archive, restore, notes, uses, confidence
changes); expiry and decay follow from dates and `now`, so they need no event and can never
drift from the files.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Protocol

from .journal import Event
from .model import Fact

ACTIVE, SUPERSEDED, EXPIRED, ARCHIVED = "active", "superseded", "expired", "archived"
MERGED = "merged"  # consolidated into another fact by reflect; treated like superseded
STATUSES = (ACTIVE, SUPERSEDED, EXPIRED, ARCHIVED, MERGED)
REPLACED = (SUPERSEDED, MERGED)
ARCHIVE_THRESHOLD = 0.3
BASE_HALF_LIFE_DAYS = 30.0
STATE_KINDS = frozenset({"world", "opinion", "observation"})  # B facts are history


@dataclass
class LifeState:
    """What the journal says about one fact id (built by replaying events in order)."""

    id: str
    status: str | None = None
    reason: str | None = None
    superseded_by: str | None = None
    superseded_on: str | None = None
    supersedes: list[str] = field(default_factory=list)
    derived_from: list[str] = field(default_factory=list)
    confidence: float | None = None
    rev: int = 0
    note: str | None = None
    last_used: str | None = None
    uses: int = 0
    content_sha: str | None = None
    support: list[str] = field(default_factory=list)  # evidence counted for an opinion
    contradict: list[str] = field(default_factory=list)
    confidence_on: str | None = None  # when the confidence last moved
    origin: str | None = None  # who retained it (the `by` of its retain event)


def apply_event(states: dict[str, LifeState], event: Event) -> None:
    """Fold one journal event into the states it touches."""
    data = event.data
    if event.event == "retain":  # one event for the bullets of one retain call
        ids = [str(i) for i in data.get("ids", [event.id])]
        shas = data.get("shas") or [None] * len(ids)
        for fact_id, sha in zip(ids, shas, strict=False):
            retained = states.setdefault(fact_id, LifeState(fact_id))
            retained.origin = str(data.get("by", ""))
            if isinstance(sha, str):
                retained.content_sha = sha  # so a later edit of its text raises the revision
        return
    state = states.setdefault(event.id, LifeState(event.id))
    if isinstance(data.get("sha"), str):
        state.content_sha = data["sha"]
    kind = event.event
    if kind == "supersede":
        by = str(data.get("by", ""))
        state.status, state.reason = SUPERSEDED, str(data.get("reason", ""))
        state.superseded_by, state.superseded_on = by, data.get("on") or event.ts[:10]
        newer = states.setdefault(by, LifeState(by))
        if event.id not in newer.supersedes:
            newer.supersedes.append(event.id)
    elif kind == "restore":
        if state.superseded_by and state.superseded_by in states:
            later = states[state.superseded_by].supersedes
            if event.id in later:
                later.remove(event.id)
        state.status, state.reason = None, str(data.get("reason", ""))
        state.superseded_by = state.superseded_on = None
        state.last_used = event.ts
    elif kind == "expire":
        state.status, state.reason = EXPIRED, str(data.get("reason", ""))
    elif kind == "merge":
        into = str(data.get("into", ""))
        state.status, state.reason = MERGED, str(data.get("reason", ""))
        state.superseded_by, state.superseded_on = into, data.get("on") or event.ts[:10]
    elif kind == "archive":
        state.status, state.reason = ARCHIVED, str(data.get("reason", ""))
    elif kind in ("note", "revise"):
        state.rev = int(data.get("rev", state.rev + 1))
        if kind == "note":
            state.note = str(data.get("note", ""))
    elif kind == "use":
        state.last_used, state.uses = event.ts, state.uses + 1
        if state.status == ARCHIVED and state.reason == "decay":
            state.status = state.reason = None  # a use revives what only time archived
    elif kind == "confidence":
        value = data.get("c")
        state.confidence = float(value) if isinstance(value, int | float) else None
        state.support += [str(x) for x in data.get("support", []) if x not in state.support]
        state.contradict += [str(x) for x in data.get("contradict", [])
                             if x not in state.contradict]
        state.confidence_on = data.get("on") or event.ts[:10]
    elif kind == "derive":
        state.derived_from = [str(x) for x in data.get("from", [])]


def replay(events: Iterable[Event],
           states: dict[str, LifeState] | None = None) -> dict[str, LifeState]:
    states = {} if states is None else states
    for event in events:
        apply_event(states, event)
    return states


def half_life_days(importance: int | None) -> float:
    return BASE_HALF_LIFE_DAYS * 2 ** (((importance or 5) - 5) / 2.5)


def decay_score(fact: Fact, life: LifeState | None, today: date) -> float:
    """1.0 when just written or used, halving every half-life since."""
    if fact.day is None:
        return 1.0
    since = fact.day
    if life and life.last_used:
        with contextlib.suppress(ValueError):
            since = max(since, datetime.fromisoformat(life.last_used).date())
    age = max(0, (today - since).days)
    return float(0.5 ** (age / half_life_days(fact.importance)))


def status_of(fact: Fact, life: LifeState | None, today: date) -> tuple[str, float]:
    """(status, decay) of a fact as of `today`."""
    decay = decay_score(fact, life, today)
    if life and life.status in (SUPERSEDED, ARCHIVED, MERGED):
        return life.status, decay
    if fact.valid and fact.valid.end and fact.valid.end < today:
        return EXPIRED, decay
    if decay < ARCHIVE_THRESHOLD and not (life and life.status == ACTIVE):
        return ARCHIVED, decay
    return ACTIVE, decay


def lifecycle_weight(status: str, decay: float) -> float:
    fresh = 0.8 + 0.2 * decay
    if status == ACTIVE:
        return fresh
    if status == ARCHIVED:
        return 0.3 * fresh
    return 0.2


# -- contradiction judges -------------------------------------------------------------


class Judge(Protocol):
    """Decides which older facts a new fact contradicts; returns (old id, reason) pairs."""

    name: str

    def contradictions(self, new: Fact, older: Sequence[Fact]) -> list[tuple[str, str]]: ...


_END = r"(?=[,;()]|\.\s|\.?$)"  # a value runs to the end of its clause; "Bun.js" stays whole
_CHANGE = [
    re.compile(r"\b(?:switched|moved|migrated|changed|upgraded|transitioned|went)\b"
               r"(?:\s+\w+){0,3}?\s+from\s+(?P<old>.+?)\s+(?:over\s+)?to\s+(?P<new>.+?)" + _END,
               re.IGNORECASE),
    re.compile(r"\breplaced\s+(?P<old>.+?)\s+with\s+(?P<new>.+?)" + _END, re.IGNORECASE),
    re.compile(r"\b(?P<old>[\w.+#-]+(?:\s+[\w.+#-]+)?)\s+(?:was|is|has\s+been|got)\s+replaced"
               r"\s+by\s+(?P<new>.+?)" + _END, re.IGNORECASE),
    re.compile(r"\bno\s+longer\s+(?:uses?|using|lives?\s+in|works?\s+(?:at|for)|runs?\s+on"
               r"|in|at|on|with)\s+(?P<old>.+?)" + _END, re.IGNORECASE),
    re.compile(r"\bstopped\s+using\s+(?P<old>.+?)" + _END, re.IGNORECASE),
    re.compile(r"\b(?:dropped|abandoned|ditched|gave\s+up\s+on)\s+(?P<old>.+?)" + _END,
               re.IGNORECASE),
]
_ARTICLES = re.compile(r"^(?:the|a|an|our|my|his|her|their|its)\s+", re.IGNORECASE)
_SLOT_VERBS = {
    "lives in": "location", "live in": "location", "is living in": "location",
    "resides in": "location", "is based in": "location", "based in": "location",
    "moved to": "location", "relocated to": "location",
    "works at": "employer", "works for": "employer", "is working at": "employer",
    "is employed at": "employer", "is employed by": "employer", "joined": "employer",
    "reports to": "manager", "is married to": "spouse", "studies at": "school",
}
_VERB_SLOT = re.compile(
    r"^(?:(?:currently|now|still|recently)\s+)?(?P<verb>"
    + "|".join(sorted((re.escape(v) for v in _SLOT_VERBS), key=len, reverse=True))
    + r")\s+(?P<value>.+)$", re.IGNORECASE)
_ATTR_SLOT = re.compile(
    r"^(?:(?:his|her|their|its|our|my|the)\s+)?(?P<attr>[a-z][\w-]*(?:\s+[\w-]+){0,3}?)"
    r"\s+(?:is|are|=)\s+(?:now\s+)?(?P<value>.+)$", re.IGNORECASE)
_WORD = re.compile(r"\w+")
_CLAUSE_END = re.compile(r"[;,(]|\s[-–—]\s|\s(?:because|since|for|which|so|but|and)\s",
                         re.IGNORECASE)


def _words(text: str) -> list[str]:
    return [w.casefold() for w in _WORD.findall(text)]


def _mentions_phrase(text: str, phrase: str) -> bool:
    words = _words(_ARTICLES.sub("", phrase.strip()))
    return bool(words) and re.search(r"\b" + r"\W+".join(map(re.escape, words)) + r"\b",
                                     text.casefold()) is not None


def slot_of(fact: Fact) -> tuple[str, str] | None:
    """(attribute, value) for single-valued statements: "Lives in Vienna" -> (location,
    vienna); "The main database is PostgreSQL" -> (main database, postgresql)."""
    content = re.sub(r"^@[\w.-]+\s+", "", fact.content.strip()).rstrip(" .!")
    content = re.sub(r"\s*\([^)]*\)$", "", content).rstrip(" .!")
    if m := _VERB_SLOT.match(content):
        return _SLOT_VERBS[" ".join(m.group("verb").lower().split())], _value(m.group("value"))
    if m := _ATTR_SLOT.match(content):
        return " ".join(_words(m.group("attr"))), _value(m.group("value"))
    return None


def _value(text: str) -> str:
    """The value a statement gives, up to the end of its first clause: "PostgreSQL; we
    tuned it" and "PostgreSQL, since 2023" both give "postgresql"."""
    return " ".join(_words(_CLAUSE_END.split(text, maxsplit=1)[0]))


def change_phrase(content: str) -> str | None:
    """The old value a fact says was left behind ("switched from X to Y" -> X)."""
    for pattern in _CHANGE:
        if m := pattern.search(content):
            return m.group("old")
    return None


class RuleJudge:
    """The default, offline and deterministic judge.

    A newer fact supersedes an older *state* fact (world, opinion, observation — never an
    experience, which is history) when they share an entity (or the newer names none) and:
    - the newer one states a change away from something the older one states
      ("switched from PostgreSQL to MySQL", "replaced X with Y", "no longer uses X",
      "stopped using X"); or
    - both give a single-valued attribute of the same entity different values ("lives in
      Vienna" then "lives in Berlin"; "the main database is X" then "... is Y").
    """

    name = "rules"

    def contradictions(self, new: Fact, older: Sequence[Fact]) -> list[tuple[str, str]]:
        found: list[tuple[str, str]] = []
        left = change_phrase(new.content)
        slot = slot_of(new) if new.kind in STATE_KINDS and new.entities else None
        keys = {e.casefold() for e in new.entities}
        for old in older:
            if old.id == new.id or old.kind not in STATE_KINDS:
                continue
            shared = bool(keys & {e.casefold() for e in old.entities})
            if keys and not shared:
                continue
            if left and _mentions_phrase(old.content, left):
                found.append((old.id, f"the newer fact says it moved away from {left.strip()!r}"))
            elif slot and shared and (other := slot_of(old)) and other[0] == slot[0] \
                    and other[1] != slot[1]:
                found.append((old.id, f"{slot[0]}: {other[1]!r} became {slot[1]!r}"))
        return found
