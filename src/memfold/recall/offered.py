"""Changes the judge offered and left active: the conflicts it journaled, for recall.

When the judge weighs a new fact against an older one about the same subject and slot but
will not retire the older one by itself ("Seraphina's piano teacher is Ms Achterberg" after
"... is Mr Lindqvist", "let her sailing club membership lapse" after "is a member of the
sailing club"), it journals a *conflict* and both stay active until a person or an agent
settles it (`memfold review`).  Recall's own second look (`currency.outdated`) weighs only
facts that share a linked entity, with the judge's rules alone, so it misses what the ledger
found across entities, by meaning, or on a shared topic.

`newer_first` reads the open conflicts journaled about the best results that are on the
question's slot (`asked_slot.on_slot`) and, for each whose newer fact is among the results,
lets the newer rank first — scoring at least what the older scores, placed above it — and
marks the older *possibly outdated by* it, when the conflict is on the slot the question
asks (`asks_it`: the slot the judge's reason names, the newer fact on it, or the topic the
judge found the two share, less its names).  Never for a question about
a time or about what held before (no slot), nor when the judge's reason or its reading of
the newer fact names a guard (a plan, a suggestion, a question, someone else's news, a
restatement ...): those were offered only to be dismissed.  Such an offer — a plan, a
suggestion, a question, an offer turned down, someone else's news — that matches the
question about as well as the older fact ranks below it: the state answers first ("Skua's
logs are shipped to Loki" above "Anselma thinks Skua's logs should be shipped to Splunk").

Where the learned order ranked the best (`recall.learned`), the marks are given and nothing
is moved (`lift=False`): the model already weighs what the judge says outdated, and on
personal years the lift put news the judge had offered ("The Pixel's screen was replaced")
above the answer more often than it put a change there (docs/benchmarks.md, "Hybrid's
cosine, and conflicts weighed by the learned order").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace as evolve
from datetime import date
from typing import Protocol, runtime_checkable

from memfold.index.base import ReviewPage, ReviewQuery, ReviewRow
from memfold.journal.events import rule_of
from memfold.journal.fold import ACTIVE, ARCHIVED, STATE_KINDS
from memfold.names import entity_key, find_words
from memfold.recall import ranking
from memfold.recall.asked_slot import (
    SHOWN,
    Slot,
    lemma_stems,
    on_slot,
    says_new,
    subjects,
)
from memfold.recall.currency import GUARDED, NUMBER, TOPIC
from memfold.recall.ranking import Scored, view_kept
from memfold.values import TEXT

# the judge's rules that read one slot with two values (`journal.events.RULES`): a conflict
# by any other ("the newer fact says it closed", "the older fact says no ...") is weighed
# by `currency.outdated` as before
ONE_SLOT = frozenset({"value", "moved", "renamed", "status", "ended", "opinion", "meaning",
                      "changes"})
OPEN = ("open",)
PER_FACT = 5  # of the conflicts journaled about one fact, the newest this many are read
# the judge's guards that say the newer fact changed nothing (not "temporary", which holds
# for its time, nor "restated", which says the same value, nor "negated", which the judge
# also reads in an end: "called off the engagement")
NOT_A_CHANGE = frozenset({"plan", "suggestion", "question", "discussion", "pitch", "third-party"})
NEAR = 0.9  # an offer matching at most 1/NEAR of the state's match ranks below the state

# older fact id -> (newer fact id, the judge's reason) of each open conflict about it
Offered = dict[str, list[tuple[str, str]]]
Reader = Callable[[Sequence[str]], Offered]


@runtime_checkable
class ConflictReader(Protocol):
    """An index that holds the review queue (the SQLite index does; one that does not
    leaves the conflicts to `currency.outdated`)."""

    def review_rows(self, query: ReviewQuery) -> ReviewPage: ...


@runtime_checkable
class BatchedConflictReader(Protocol):
    """An index that reads the open review items about many facts at once (the PostgreSQL
    one: one statement for them all), each fact's as `review_rows` would list them (open,
    about that older fact, newest first, at most `limit`)."""

    def open_reviews(self, olds: Sequence[str],
                     limit: int) -> Mapping[str, Sequence[ReviewRow]]: ...


def reader(backend: object) -> Reader:
    """How recall reads the open conflicts about some facts from `backend`."""
    def read(ids: Sequence[str]) -> Offered:
        if isinstance(backend, BatchedConflictReader):
            found = backend.open_reviews(ids, PER_FACT)
            pages: Iterable[tuple[str, Sequence[ReviewRow]]] = (
                (i, found.get(i, ())) for i in ids)
        elif isinstance(backend, ConflictReader):
            pages = ((i, backend.review_rows(ReviewQuery(states=OPEN, old=i,
                                                         limit=PER_FACT))[0]) for i in ids)
        else:
            return {}
        out: Offered = {}
        for fact_id, rows in pages:
            for row in rows:
                if row.kind == "conflict":
                    out.setdefault(fact_id, []).append((row.new, row.reason))
        return out
    return read


def asks_it(new: Scored, reason: str, slot: Slot) -> bool:
    """Whether a conflict's newer fact answers the slot the question asks: the slot the
    judge's value rule names holds a word of it; or, for another rule that reads one slot
    (`ONE_SLOT`), the newer fact is on it; or the topic the judge found the two share holds
    a word of it and the newer fact states something (a state, or a change: "sends us a
    photo of Biscuit after every walk" shares "walk" with who walks him, and changes
    nothing).  A fact faded by decay answers only with a change it states."""
    if new.status == ARCHIVED and not says_new(new.fact, slot):
        return False
    rule = rule_of("rules", reason)
    shared = reason[len(TOPIC):] if rule == "topic" and reason.startswith(TOPIC) else \
        reason[len(NUMBER):] if reason.startswith(NUMBER) else None
    if shared is not None:  # the topic, not what the judge says beside it ("; the newer
        # fact says it holds now", whose words are no topic)
        return _asked(shared.split(";")[0], slot) and (new.fact.kind in STATE_KINDS
                                         or says_new(new.fact, slot))
    if rule == "value":  # "kids swimming lessons: 'mornings' became 'afternoons'"
        said = reason.split(":")[0]
        return _asked(said, slot) or (slot.place and said == "location")
    return rule in ONE_SLOT and on_slot(new.fact, slot)


def _asked(words: str, slot: Slot) -> bool:
    """Whether the words the judge names a conflict's slot or topic by hold a word of the
    question's slot, not counting names ("same topic: Leeds House" is no home)."""
    return bool(lemma_stems(" ".join(w for w in find_words(words) if not w[:1].isupper()))
                & slot.stems)


def newer_first(shown: list[Scored], slot: Slot | None, read: Reader | None, k: int,
                today: date, lift: bool = True) -> tuple[list[Scored], set[str]]:
    """The newer fact of each open conflict about a best result on the asked slot ranks
    first and the older carries its id (module docstring); and the ids of those newer
    facts (a fact `recall.pulled` brought in is then kept).  `lift` False: the older only
    carries the ids, every score and place is kept, and no id is returned."""
    if slot is None or read is None:
        return shown, set()
    ordered = sorted(shown, key=ranking.order)
    olds = [s for s in ordered[: max(k, SHOWN)] if s.tier == 0 and s.status == ACTIVE
            and s.fact.kind in STATE_KINDS and s.fact.day is not None
            and (on_slot(s.fact, slot) or _named_state(s, slot))]
    if not olds:
        return shown, set()
    offered = read([s.fact.id for s in olds])
    if not offered:
        return shown, set()
    by_id = {s.fact.id: s for s in shown}
    score = {s.fact.id: s.score for s in shown}
    outdated: dict[str, list[str]] = {}
    below: set[str] = set()
    for old in olds:
        conflicts = offered.get(old.fact.id, ())
        for new in _newer(old, conflicts, by_id, slot, today):
            if lift:
                score[new.fact.id] = max(score[new.fact.id], score[old.fact.id])
            outdated.setdefault(old.fact.id, []).append(new.fact.id)
        if not lift:
            continue  # only marked: no offer is placed below the state
        for offer in _offers(old, conflicts, by_id, score, slot):
            score[offer.fact.id] = min(score[offer.fact.id], score[old.fact.id])
            below.add(offer.fact.id)
    lifted = {i for news in outdated.values() for i in news} if lift else set()
    if not outdated and not below:
        return shown, lifted
    return [evolve(s, score=score[s.fact.id],
                   outdated_by=tuple(dict.fromkeys([*s.outdated_by,
                                                    *outdated.get(s.fact.id, ())])),
                   replaced=s.replaced or (lift and s.fact.id in outdated) or s.fact.id in below)
            if s.fact.id in outdated or s.fact.id in lifted or s.fact.id in below else s
            for s in shown], lifted


def _named_state(s: Scored, slot: Slot) -> bool:
    """Whether a question asked by a value only ("is Heronsgate on OpenSearch now?") may be
    answered by this state of an entity it names, whatever value it gives: an offer that
    names the value asked (a suggestion to move to OpenSearch) ranks below it."""
    return slot.by_value and bool(slot.named & {entity_key(e) for e in s.candidate.links})


def _offers(old: Scored, conflicts: Iterable[tuple[str, str]], by_id: Mapping[str, Scored],
            score: Mapping[str, float], slot: Slot) -> list[Scored]:
    """The newer facts of `old`'s conflicts that say no change happened to its value (a
    plan, a suggestion, a question, an offer turned down, someone else's news:
    `NOT_A_CHANGE`) and match the question about as well as it does (`NEAR`), with no
    word of its slot the state lacks: the state answers before them ("Skua's logs are
    shipped to Loki" above "Anselma thinks Skua's logs should be shipped to Splunk"),
    while a question that asks for the offer itself matches it better or by a word of
    its own ("where does Thao's husband teach?" and the husband's move)."""
    from memfold.lifecycle.judge.readers import read  # the judge's lexicons load late

    out = []
    for new_id, _ in conflicts:
        new = by_id.get(new_id)
        if new is None or new.tier != old.tier or read(new.fact).guard not in NOT_A_CHANGE \
                or score[new_id] <= score[old.fact.id]:
            continue
        if _named_state(old, slot) or (
                score[new_id] <= score[old.fact.id] / NEAR
                and lemma_stems(new.fact.content) & slot.stems <= lemma_stems(old.fact.content)):
            out.append(new)  # asked by the value the offer names: the state answers first
    return out


def _newer(old: Scored, conflicts: Iterable[tuple[str, str]], by_id: Mapping[str, Scored],
           slot: Slot, today: date) -> list[Scored]:
    """The newer facts of `old`'s conflicts that state its slot's current value."""
    from memfold.lifecycle.judge.readers import read  # the judge's lexicons load late

    out: list[Scored] = []
    if old.fact.day is None:
        return out
    for new_id, reason in conflicts:
        new = by_id.get(new_id)
        if new is None or GUARDED in reason or new.tier != 0 \
                or new.status not in (ACTIVE, ARCHIVED) or new.fact.kind == TEXT \
                or new.fact.day is None or not old.fact.day < new.fact.day <= today \
                or view_kept(old, new):
            continue
        if slot.named and slot.named.isdisjoint(subjects(
                new.fact, [entity_key(e) for e in new.candidate.links], slot.named)):
            continue  # "where does Wren live?": Idris's move is not Wren's
        if read(new.fact).guard is None and asks_it(new, reason, slot):
            out.append(new)
    return out
