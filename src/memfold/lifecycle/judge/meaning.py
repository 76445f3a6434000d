"""The slot two facts share, found by meaning: a change said in other words is offered.

The rule judge relates two facts by their words.  A change written in other words —
"Home for Ingrid is Reykjavik now" after "Ingrid has a house in Bergen where she lives",
"Mina's paycheck comes from Orion Labs these days" after "Mina works for Hartwell Bank" —
shares no slot word with the fact it changes, and the rules say nothing.  Where the embed
extra is installed, `MeaningJudge` asks an embedding model (the one semantic recall uses)
which older fact the newer one speaks of, and offers that fact as a conflict: left active,
journaled, reported by retain and `memfold review`.  It never supersedes: only the rules do.

For a new fact that states something (a world, opinion or observation fact that the rules
read as a change, a value said to hold now or an end — not a value stated without a word of
change, most often the older one told more precisely), is not guarded (a plan, a question,
someone's report, an addition, a restatement) and made the rules supersede nothing:

1. the older facts the rules could weigh (the same subject, state facts, not explorations,
   not hearsay, not the same words again) are compared with it by the model, each with the
   names of its entities taken out ("has a house in Bergen where she lives");
2. the most alike is the slot it speaks of; when the rules already had their word on that
   one, nothing more is offered;
3. otherwise it is offered when the two are alike enough (`PAIR_MIN`) and the model places
   both, clearly (`SLOT_MIN`, `SLOT_MARGIN`), nearest the same of a few general slots of a
   memory (`SLOTS`: a home, an employer, a role, a diet, a preference, ...).

At most one fact is offered per new fact, so a person reviewing is never flooded.  The
model is given by the caller (`memfold.recall.embedding` decides when: MEMFOLD_JUDGE_EMBED),
so without it the judge is the rule judge, exactly.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Protocol

from memfold.journal.fold import STATE_KINDS, tentative
from memfold.lifecycle.judge.base import Judge, Verdict
from memfold.lifecycle.judge.pieces import said_again
from memfold.lifecycle.judge.readers import read
from memfold.lifecycle.judge.rules import HEARSAY
from memfold.lifecycle.judge.subjects import reported, same_subject
from memfold.names import entity_key
from memfold.values import Fact

MEANING = "same slot by meaning"  # the reason's opening: rule "meaning" in the journal
PAIR_MIN = 0.25  # cosine of the two facts, their names taken out
SLOT_MIN = 0.2  # cosine of a fact and the slot it is placed in
SLOT_MARGIN = 0.03  # over the next nearest slot
CACHED = 4096  # texts whose vectors are kept
# The slots a memory's facts hold, described in general words (not any fact's): a fact is
# placed in the one its meaning is nearest.
SLOTS = {
    "home": "lives in a city; home, house, flat, apartment, where they live, moved to a new "
            "place",
    "employer": "works for a company; employer, job at an organisation, joined a firm, "
                "paycheck",
    "role": "job title, role or position at work; promoted to a new role",
    "manager": "manager or boss; reports to someone; who leads or runs a team or project",
    "relationship": "relationship status: single, dating, engaged, married, divorced, partner",
    "diet": "diet: vegetarian, vegan, eats meat, keto, food they eat",
    "drink": "usual drink: coffee, tea, morning drink",
    "vehicle": "car or vehicle they drive; bike; commute",
    "opinion": "likes or dislikes something; opinion about a technology or an activity",
    "contact": "how to contact them: email, phone call, message, preferred channel",
    "name": "name: what it is called, renamed, goes by a new name",
    "platform": "software platform, tool or service it runs on, uses, hosted on, database, CI",
    "habit": "habit: smokes, drinks alcohol, exercise routine",
    "school": "school, class, year or grade",
    "health": "health condition, allergy, illness, doctor",
    "location": "headquarters or office location of an organisation",
    "family": "children, family members",
    "price": "price, cost, fee, plan",
    "schedule": "schedule: opening hours, days, times",
}


class Embeds(Protocol):
    """What the judge needs of an embedder (memfold.embed's Embedder has it)."""

    def embed(self, texts: Sequence[str]) -> Any: ...


def without_names(fact: Fact) -> str:
    """The fact's words without the names of its entities: what it says of them."""
    text = fact.content
    for name in fact.entities:
        parts = [re.escape(p) for p in re.split(r"[-_\s]+", name.lstrip("@")) if p]
        if parts:
            text = re.sub(r"(?<!\w)@?" + r"[-_\s]?".join(parts) + r"(?:'s|’s)?(?!\w)", " ",
                          text, flags=re.IGNORECASE)
    return " ".join(text.split()) or fact.content


class MeaningJudge:
    """`inner`'s verdicts, and at most one more: the older fact the new one speaks of by
    meaning, offered as a conflict (the module docstring)."""

    def __init__(self, inner: Judge, embedder: Embeds) -> None:
        self.inner = inner
        self.name = inner.name  # the judge that spoke last (a fallback judge may change)
        self.embedder = embedder
        self._vectors: OrderedDict[str, Any] = OrderedDict()
        self._slots: Any = None

    def weigh(self, new: Fact, older: Sequence[Fact]) -> list[Verdict]:
        verdicts = self.inner.weigh(new, older)
        self.name = self.inner.name
        if any(v.supersedes for v in verdicts) or not _states(new):
            return verdicts
        keys = {entity_key(e) for e in new.entities}
        weighed = [o for o in older if _comparable(new, o, keys)]
        if weighed and (offer := self._offer(new, weighed, {v.id for v in verdicts})):
            verdicts.append(offer)
        return verdicts

    def _offer(self, new: Fact, older: Sequence[Fact], said: set[str]) -> Verdict | None:
        import numpy as np  # the embed extra, present whenever an embedder is

        vectors = self._embed([without_names(f) for f in (new, *older)])
        alike = vectors[1:] @ vectors[0]
        best = min(range(len(older)), key=lambda i: (-float(alike[i]), older[i].id))
        old, score = older[best], float(alike[best])
        if old.id in said or score < PAIR_MIN:
            return None
        slots = self._slot_vectors() @ np.stack([vectors[0], vectors[1 + best]]).T
        mine, theirs = _placed(slots[:, 0]), _placed(slots[:, 1])
        if mine is None or mine != theirs:
            return None
        return Verdict(old.id, False, f"{MEANING}: {mine} (alike {score:.2f})", offer=True)

    def _slot_vectors(self) -> Any:
        if self._slots is None:
            self._slots = self.embedder.embed(list(SLOTS.values()))
        return self._slots

    def _embed(self, texts: Sequence[str]) -> Any:
        import numpy as np

        missing = list(dict.fromkeys(t for t in texts if t not in self._vectors))
        if missing:
            for text, vector in zip(missing, self.embedder.embed(missing), strict=True):
                self._vectors[text] = vector
        for text in texts:
            self._vectors.move_to_end(text)
        rows = np.stack([self._vectors[t] for t in texts])
        while len(self._vectors) > CACHED:
            self._vectors.popitem(last=False)
        return rows


def _placed(scores: Any) -> str | None:
    """The slot a fact is clearly nearest, else None."""
    order = sorted(range(len(SLOTS)), key=lambda i: -float(scores[i]))
    first, second = float(scores[order[0]]), float(scores[order[1]])
    if first < SLOT_MIN or first - second < SLOT_MARGIN:
        return None
    return list(SLOTS)[order[0]]


def _states(new: Fact) -> bool:
    """The new fact states a value, unguarded: what could change an older fact."""
    if new.kind not in STATE_KINDS or tentative(new) or reported(new):
        return False
    n = read(new)
    # a value stated without a word of change ("lives in the Sandviken part of Bergen") is
    # most often the same value told more precisely: the model is not asked
    return not n.guard and not n.additive and bool(n.now or n.changes or n.ends)


def _comparable(new: Fact, old: Fact, keys: set[str]) -> bool:
    """An older fact the rules could weigh against the new one: a state of the same subject,
    neither an exploration, hearsay, nor the same words again."""
    theirs = {entity_key(e) for e in old.entities}
    if old.id == new.id or old.kind not in STATE_KINDS or tentative(old) \
            or said_again(new, old) or not (keys & theirs if keys else not theirs):
        return False
    return read(old).guard not in HEARSAY and same_subject(new, old, keys & theirs)
