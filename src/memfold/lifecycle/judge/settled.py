"""Changes the rules never weigh, offered for a person's look (a conflict, left active).

Two kinds of older fact never reach the rules: a plan or an exploration ("I'm thinking about
adopting a second cat", `journal.fold.tentative`), and a fact under another entity.  Some
of them a newer fact still changes, in a way a reader sees at once:

- a plan *settled*: the newer fact calls off, decides against, drops or pulls out of what the
  plan was about ("Decided against a second cat", "Pulled out of the Chiang Mai Marathon
  10K") — offered, as is a plan the newer fact says was done;
- a slot of one's own held by someone else now: both facts say who is "my manager", "our
  GP", "my family doctor" ("Dr. Chebet Kiprono ... is my manager" / "Ingrid Solberg ... is
  my manager") though each is tagged with its own person; or the newer fact says a slot of
  one's own has a new holder, of any name ("My new sous chef at Kelong is Hafiz", "My pickup
  is now a 2022 Hilux", "Wendell Marsh is my agent now") and the older fact who or what
  held it ("My sous chef at Kelong is Min-jun").

Both are offered, never made by themselves: a plan may be settled in part, and a second
"my manager" may be a second job.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memfold.lifecycle.judge import words as w
from memfold.lifecycle.judge.base import Verdict
from memfold.lifecycle.judge.moved_on import moved_on, rented_home
from memfold.lifecycle.judge.pieces import exploring, keys_of, plan_words
from memfold.lifecycle.judge.second_look import second_look
from memfold.values import Fact

_SETTLED = re.compile(
    r"\b(?:decided\s+against|decided\s+not\s+to|called\s+off|cancell?ed|pulled\s+out"
    r"|dropped|gave\s+up|scrapped|shelved|abandoned|changed\s+(?:my|our)\s+mind"
    r"|went\s+ahead|booked|signed\s+up|finally\s+did|did\s+it|ran\s+the|finished\s+the"
    r"|adopted|bought|enrolled|applied)\b", re.IGNORECASE)
_MINE = re.compile(r"\b(?:my|our)\s+((?:[a-z-]+\s+){0,2}?)(manager|boss|supervisor|gp|doctor"
                   r"|dentist|vet|landlord|landlady|accountant|lawyer|solicitor|mentor|tutor"
                   r"|coach|therapist|physio|childminder|nanny|cleaner|mechanic|barber"
                   r"|hairdresser|section\s+head|team\s+lead|line\s+manager|crew\s+chief)\b",
                   re.IGNORECASE)
# a slot of one's own, of any name: up to three lower-case words after "my" / "our", ending
# where the sentence goes on ("my family doctor is", "my sous chef at Kelong", "my agent.")
_SLOT = r"(?P<slot>(?-i:[a-z])[a-z-]+(?:\s+(?-i:[a-z])[a-z-]+){0,2}?)"
_GOES_ON = (r"(?=\s+(?:is|are|was|at|in|from|for|now|since|and|who|of|on|with|to)\b"
            r"|\s*[,.;:)]|\s*$)")
_HELD = re.compile(rf"\b(?:my|our)\s+{_SLOT}{_GOES_ON}", re.IGNORECASE)
# ... and said to have a new holder: "my new N", "my N is now", "is my N now"
_HELD_NOW = (re.compile(rf"\b(?:my|our)\s+new\s+{_SLOT}{_GOES_ON}", re.IGNORECASE),
             re.compile(rf"\b(?:my|our)\s+{_SLOT}\s+(?:is|are)\s+now\b", re.IGNORECASE),
             re.compile(rf"\b(?:is|are)\s+(?:now\s+)?(?:my|our)\s+{_SLOT}\s+now\b", re.IGNORECASE))
# what one has many of, or gains without losing the one before: no slot held by one
_MANY = frozenset(w.stem(x) for x in (
    "friend friends colleague colleagues coworker neighbour neighbor classmate client "
    "customer student pupil patient flatmate housemate roommate teammate cousin kid kids "
    "child children son daughter baby grandchild grandson granddaughter nephew niece brother "
    "sister sibling hobby project habit recipe favourite favorite routine thing things place "
    "idea plan goal book song".split()))


def _heads(text: str, forms: Sequence[re.Pattern[str]]) -> dict[str, str]:
    """The slots of one's own a text names in these forms, by the stem of their last word
    (the phrase as written beside it: "family doctor")."""
    found: dict[str, str] = {}
    for form in forms:
        for m in form.finditer(text):
            phrase = m.group("slot").lower()
            head = w.stem(phrase.split()[-1])
            if head not in _MANY and phrase.split()[-1] not in w.STOP:
                found.setdefault(head, phrase)
    return found


def offered(new: Fact, older: Sequence[Fact]) -> list[Verdict]:
    """The offers for the older facts the rules never weigh (see the module docstring); what
    the newer fact says is read once, not once per older fact."""
    if exploring(new):
        return []
    keys = keys_of(new.entities)
    settles = bool(_SETTLED.search(new.content))
    said = plan_words(new.content) if settles else frozenset()
    mine = set(slots_of_mine(new.content)) if new.kind == "world" else set()
    found = []
    for old in older:
        if old.id == new.id or not (settles or mine):
            continue
        shared = keys & keys_of(old.entities)
        why = (_plan_settled(said, old) if settles and shared else None) or (
            _slot_of_mine(mine, old) if mine and not shared else None)
        if why:
            found.append(Verdict(old.id, False, why, offer=True))
    return found


def _plan_settled(said: frozenset[str], old: Fact) -> str | None:
    """"I'm thinking about solar panels" / "I've decided against solar panels": settled."""
    if not exploring(old):
        return None
    shared = sorted(said & plan_words(old.content))
    return f"the plan on {' '.join(shared[:3])!r} may be settled" if shared else None


def slots_of_mine(text: str) -> tuple[str, ...]:
    """The slots of one's own a text says someone holds ("is my manager": manager) or holds
    now ("my new family doctor is": family doctor), for the ledger to find who held them
    before under another entity."""
    return tuple(dict.fromkeys([*(m.group(2).lower() for m in _MINE.finditer(text)),
                                *_heads(text, _HELD_NOW).values()]))


def _slot_of_mine(mine: set[str], old: Fact) -> str | None:
    """"X ... is my manager" / "Y ... is my manager", each under its own person (the rules
    weigh facts that share an entity)."""
    if exploring(old) or old.kind != "world":
        return None
    slot = sorted(mine & set(slots_of_mine(old.content)))
    return f"same slot: my {slot[0]}; the newer fact names another" if slot else None


def unweighed(new: Fact, older: Sequence[Fact], said: Sequence[Verdict]) -> list[Verdict]:
    """Offers for the older facts no rule had a word on (`said`: the verdicts made): a slot
    of one's own with a new holder, a person who moved or left a job, a rented home and
    where one lives now (judge.moved_on),
    another price of the same thing or an opinion that turned (judge.second_look)."""
    found = held_now(new, older, said)
    found += moved_on(new, older, [*said, *found])
    found += rented_home(new, older, [*said, *found])
    return found + second_look(new, older, [*said, *found])


def held_now(new: Fact, older: Sequence[Fact], said: Sequence[Verdict]) -> list[Verdict]:
    """Offers for the older facts no rule had a word on (`said`: the verdicts made) that say
    who or what held a slot of one's own the newer fact gives a new holder ("My new sous
    chef at Kelong is Hafiz" / "My sous chef at Kelong is Min-jun")."""
    if new.kind not in ("world", "opinion") or exploring(new) \
            or not (now := _heads(new.content, _HELD_NOW)):
        return []
    found, weighed = [], {v.id for v in said}
    for old in older:
        if old.id == new.id or old.id in weighed or old.kind != "world" or exploring(old):
            continue
        held = _heads(old.content, (_HELD,))
        if slot := sorted(set(now) & set(held)):
            found.append(Verdict(old.id, False, f"same slot: my {now[slot[0]]}; the newer "
                                                f"fact names a new one", offer=True))
    return found


__all__ = ["held_now", "offered", "slots_of_mine", "unweighed"]
