"""The lifecycle of a fact: pure functions of (fact, journal state, now).

    status     active | superseded | expired | archived
    superseded a journal event said a newer fact replaces it (pointers both ways); as of a
               day before the supersede's date (the newer fact's, else the day it was
               journaled) it is not yet
    expired    its validity range (a stated range or `until=`) ended before today
    archived   its decay score fell under ARCHIVE_THRESHOLD, or a journal event archived it;
               time alone never archives the current truth: a world fact or an opinion that
               states a value in the present ("Acme's database is MySQL", "lives in Berlin",
               "enjoys peanut butter cookies", "now takes amlodipine") stays active until
               something supersedes it or its range ends, while experiences, observations,
               passing states ("investigating Bun.js", "waiting on review") and what is
               told in the past or as a plan fade
    decay      0.5 ** (days since last use / half-life); last use = the fact's date or its
               latest `use` event; half-life = 30 days * 2 ** ((importance - 5) / 2.5), so a
               fact of importance 5 unused for 60 days decays to 0.25 (archived), and one of
               importance 10 keeps a 120-day half-life — except an activity or passing
               state ("investigating Bun.js"), which keeps the 30-day half-life whatever
               its importance.  memory.md and bank pages do not decay by time alone (they
               carry no date).
    weight     active 0.8 + 0.2 * decay; archived 0.3 times that; superseded or expired 0.2 —
               what recall multiplies relevance and confidence by.

Only decisions live in the journal (supersede, archive, restore, notes, uses, confidence
changes); expiry and decay follow from dates and `now`, so they need no event and can never
drift from the files.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime

from memfold.journal.events import (
    Archive,
    Confidence,
    Derive,
    Expire,
    Merge,
    Note,
    Record,
    Reset,
    Restore,
    Retain,
    Revise,
    Supersede,
    Use,
)
from memfold.journal.log import Event
from memfold.language import looks_vietnamese
from memfold.values import Fact

ACTIVE, SUPERSEDED, EXPIRED, ARCHIVED = "active", "superseded", "expired", "archived"
MERGED = "merged"  # consolidated into another fact by reflect; treated like superseded
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
    retained_on: str | None = None  # the day it was first retained (its retain event's)


def apply_event(states: dict[str, LifeState], event: Event) -> None:
    """Fold one journal event into the states it touches."""
    record = event.record
    if isinstance(record, Retain):  # one event for the bullets of one retain call
        for fact_id, sha in zip(record.ids, record.shas or [None] * len(record.ids),
                                strict=False):
            retained = states.setdefault(fact_id, LifeState(fact_id))
            retained.origin = record.by
            retained.retained_on = retained.retained_on or event.ts[:10]
            if sha is not None:
                retained.content_sha = sha  # so a later edit of its text raises the revision
        return
    state = states.setdefault(record.id, LifeState(record.id))
    sha = getattr(record, "sha", None)
    if sha is None:  # no `sha` field: a kind this memfold doesn't know may still carry one
        sha = record.extra.get("sha")
    if isinstance(sha, str):
        state.content_sha = sha
    _apply(states, state, record, event.ts)


def _apply(states: dict[str, LifeState], state: LifeState, record: Record, ts: str) -> None:
    match record:
        case Supersede(by=by):
            state.status, state.reason = SUPERSEDED, record.reason
            state.superseded_by, state.superseded_on = by, record.on or ts[:10]
            newer = states.setdefault(by, LifeState(by))
            if record.id not in newer.supersedes:
                newer.supersedes.append(record.id)
        case Restore():
            if state.superseded_by and state.superseded_by in states:
                later = states[state.superseded_by].supersedes
                if record.id in later:
                    later.remove(record.id)
            state.status, state.reason = None, record.reason
            state.superseded_by = state.superseded_on = None
            state.last_used = ts
        case Expire():
            state.status, state.reason = EXPIRED, record.reason
        case Archive():
            state.status, state.reason = ARCHIVED, record.reason
        case Merge():
            state.status, state.reason = MERGED, record.reason
            state.superseded_by, state.superseded_on = record.into, record.on or ts[:10]
        case Note() | Revise():
            state.rev = record.rev
            if isinstance(record, Note):
                state.note = record.note
        case Use():
            state.last_used, state.uses = ts, state.uses + 1
            if state.status == ARCHIVED and state.reason == "decay":
                state.status = state.reason = None  # a use revives what only time archived
        case Confidence():
            state.confidence = None if record.c is None else float(record.c)
            state.support += [x for x in record.support or () if x not in state.support]
            state.contradict += [x for x in record.contradict or ()
                                 if x not in state.contradict]
            state.confidence_on = record.on or ts[:10]
        case Derive():
            state.derived_from = list(record.from_)
        case Reset():  # `reflect --undo`: fields put back as they were before the run
            for name, value in record.state.items():
                if name != "id" and name in LifeState.__dataclass_fields__:
                    setattr(state, name, [str(x) for x in value] if isinstance(value, list)
                            else value)


def replay(events: Iterable[Event],
           states: dict[str, LifeState] | None = None) -> dict[str, LifeState]:
    states = {} if states is None else states
    for event in events:
        apply_event(states, event)
    return states


def passing(fact: Fact) -> bool:
    """An activity or a state that passes ("investigating Bun.js", "waiting on review")."""
    return _passes(fact.content)


@functools.lru_cache(maxsize=1 << 16)  # every decay score asks it, for the same texts
def _passes(content: str) -> bool:
    return _says(content, _PASSING, _VI_PASSING)


def _says(content: str, english: re.Pattern[str], vietnamese: re.Pattern[str]) -> bool:
    """Whether `content` says it: in English, or, a Vietnamese text, in Vietnamese (whose
    words typed without diacritics are English words too: "gio", "den", "thu")."""
    return bool(english.search(content)) or (
        looks_vietnamese(content) and bool(vietnamese.search(content)))


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
    # importance says how much a fact matters while it holds; an activity lasts as long as
    # it lasts, so it decays at the base rate however important it was
    importance = None if passing(fact) else fact.importance
    return float(0.5 ** (age / half_life_days(importance)))


# a present-tense statement of a value, or a change told in the past that says what holds
# now ("switched to Postgres", "now takes amlodipine", "became my line manager", "joined the
# running club") ...
_HOLDS = re.compile(
    r"\b(?:is|are|'s|'re|has\s+been|have\s+been|remains?|lives?|works?|uses?|runs?|reports?"
    r"|prefers?|likes?|loves?|dislikes?|hates?|owns?|speaks?|has|have|goes\s+by|based|hosted"
    r"|called|named|leads?|manages?|rents?|drives?|stores?|keeps?)\b(?!\s+\w+ing\b)"
    r"|\b(?:switched|migrated|moved|relocated|changed|upgraded|converted|transitioned)\b"
    r"[^.;]*\b(?:to|onto|into)\b"
    r"|\b(?:now|became|has\s+become|have\s+become|joined)\b", re.IGNORECASE)
# ... unless it is an activity or a state that passes
_TENTATIVE = (r"investigating|evaluating|exploring|trying|testing|considering|looking\s+into"
              r"|planning|thinking\s+about")
_PASSING = re.compile(
    rf"\b(?:{_TENTATIVE}|waiting|visiting|debugging|working\s+on|today|tomorrow"
    r"|tonight|this\s+(?:week|weekend|month)|until|for\s+now|currently\s+in)\b",
    re.IGNORECASE)
_TENTATIVE_RE = re.compile(rf"\b(?:{_TENTATIVE})\b", re.IGNORECASE)
# ... and a statement told in the present needs no verb from that list ("enjoys peanut
# butter cookies", "shoots with a Fujifilm", "Anh Minh sống ở Hà Nội"): what is not told in
# the past, as an ongoing activity or as a plan is taken to hold
_PAST = re.compile(
    r"\b(?!(?:based|called|named|married|engaged|retired|interested|located|used|allowed"
    r"|supposed|allergic|related|dedicated|qualified|certified|licensed|skilled|advanced"
    r"|experienced|educated|talented|tired|scared|excited|worried|pleased|bored|need|seed"
    r"|speed|feed|breed|bed|red|shed|weed|hundred|sacred|indeed)\b)[a-z]{2,}ed\b"
    r"|\b(?:was|were|went|got|took|made|said|sold|ran|came|left|quit|bought|gave|saw|met|won"
    r"|lost|had|did|didn't|told|began|became|found|brought|caught|built|wrote|drove|flew|ate"
    r"|drank|spent|sent|paid|meant|thought|felt|heard|kept\s+(?:his|her|their|my|our)|used\s+to"
    r"|would|will|going\s+to|plans?\s+to|someday|đã|từng|sẽ)\b"
    r"|\b(?:is|are|am|'s|'re)\s+(?:\w+ly\s+)?(?!\w*thing\b)\w+ing\b",
    re.IGNORECASE)
# the same in Vietnamese, with or without diacritics: a change told with "đã" that says what
# holds now ("đã chuyển … sang MySQL", "đã trở thành", "giờ là"), an activity or a plan
# that passes ("đang tìm hiểu Bun.js", "dự định", "tuần này")
_VI_HOLDS = re.compile(
    r"(?<!\w)(?:(?:chuyển|chuyen|đổi|doi|thay|nâng\s+cấp|nang\s+cap)(?!\w)[^.;]*?(?<!\w)"
    r"(?:sang|thành|thanh|bằng|bang|lên|len|đến|den|về|ve)(?!\w)"
    r"|trở\s+thành|tro\s+thanh|được\s+thăng|duoc\s+thang|giờ|gio|bây\s+giờ|bay\s+gio"
    r"|hiện\s+(?:nay|tại|giờ|là|đang|sống|làm)|hien\s+(?:nay|tai|gio|la|dang|song|lam)"
    r"|đã\s+(?:cưới|kết\s+hôn|là)|da\s+(?:cuoi|ket\s+hon|la))(?!\w)",
    re.IGNORECASE)
_VI_TENTATIVE = (r"đang\s+(?:tìm\s+hiểu|thử|thu\s+nghiem|thử\s+nghiệm|cân\s+nhắc|tính"
                 r"|xem\s+xét|đánh\s+giá|nghiên\s+cứu)|dang\s+(?:tim\s+hieu|thu|can\s+nhac"
                 r"|tinh|xem\s+xet|danh\s+gia|nghien\s+cuu)|dự\s+định|du\s+dinh|định"
                 r"|có\s+thể|co\s+the|đang\s+lên\s+kế\s+hoạch")
_VI_TENTATIVE_RE = re.compile(rf"(?<!\w)(?:{_VI_TENTATIVE})(?!\w)", re.IGNORECASE)
_VI_PASSING = re.compile(
    rf"(?<!\w)(?:{_VI_TENTATIVE}|đang\s+chờ|dang\s+cho|đang\s+sửa|đang\s+ở|hôm\s+nay"
    r"|ngày\s+mai|tối\s+nay|tuần\s+này|tháng\s+này|tạm\s+thời|tam\s+thoi|hom\s+nay"
    r"|ngay\s+mai|tuan\s+nay|dang\s+o)(?!\w)", re.IGNORECASE)


def tentative(fact: Fact) -> bool:
    """An exploration or a plan ("investigating Bun.js"): no value a later fact replaces."""
    return _says(fact.content, _TENTATIVE_RE, _VI_TENTATIVE_RE)


def holds_value(fact: Fact) -> bool:
    """Whether a fact states a lasting value (what decay must not archive while it is
    current): a world fact or an opinion in the present tense ("lives in", "enjoys"), not
    an activity, a plan or something told in the past."""
    return fact.kind in ("world", "opinion") and not passing(fact) and (
        _says(fact.content, _HOLDS, _VI_HOLDS) or not _PAST.search(fact.content))


def status_of(fact: Fact, life: LifeState | None, today: date) -> tuple[str, float]:
    """(status, decay) of a fact as of `today`."""
    decay = decay_score(fact, life, today)
    if life and life.status in (SUPERSEDED, ARCHIVED, MERGED) and not _replaced_later(life, today):
        return life.status, decay
    if fact.valid and fact.valid.end and fact.valid.end < today:
        return EXPIRED, decay
    if decay < ARCHIVE_THRESHOLD and not (life and (life.status == ACTIVE or life.supersedes)) \
            and not holds_value(fact):  # what replaced another fact holds its slot's value
        return ARCHIVED, decay
    return ACTIVE, decay


def _replaced_later(life: LifeState, today: date) -> bool:
    """Superseded or merged after `today` (the newer fact's date, else the day it was
    journaled): as of today it was not replaced yet."""
    on = life.superseded_on
    return life.status in REPLACED and on is not None and on[:10] > today.isoformat()


def lifecycle_weight(status: str, decay: float) -> float:
    fresh = 0.8 + 0.2 * decay
    if status == ACTIVE:
        return fresh
    if status == ARCHIVED:
        return 0.3 * fresh
    return 0.2
