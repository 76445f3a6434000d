"""Offers for a change said in a form no rule reads, on a slot the rules do recognise.

The rules supersede only what they read for sure.  When both facts give the same slot of the
same subject and the rules still cannot decide, the pair is offered — left active and named
in the retain's `conflicts` — rather than passed over in silence (`unread_offer`):

- one single-valued slot, two values, neither the other with more detail: "After twelve
  years in Dunedin, Bartholomew has made Motueka his home" after "lives in Dunedin" (the
  older value named in a fronted phrase, not beside the new one); a passive slot said again
  with another doer, "Since April, the library has been run by volunteers" after "is run by
  the county council" (`same_slot_offer`);
- a process the older fact says is going on and the newer one says is done, the same verb:
  "is recovering from knee surgery" / "is fully recovered" (`done_offer`);
- a phase or stage left for another: "is in the design phase" / "entered construction in
  March" (`phase_offer`).

Never for a guarded newer fact (a plan, a question, someone else's news, a restatement), an
addition, an experience or an opinion; the caller has checked the subject is the same.
Nothing is retired this way.
"""

from __future__ import annotations

import re

from memfold.lifecycle.judge import words as w
from memfold.lifecycle.judge.offers import FINAL, HOLDS_NOW, gerunds
from memfold.lifecycle.judge.reading import Reading
from memfold.lifecycle.judge.slots import SINGLE_VALUED

OTHER_VALUE = "the newer fact gives another value for it"
_PLACE_PARTS = frozenset(w.stem(x) for x in w.PLACE_PARTS)
_GENERIC = w.GENERIC_STEMS


def _plain(r: Reading, again: bool = False) -> bool:
    """A state the entity is said to be in, nothing that guards it (nor "again", unless
    `again` allows it: "is fully recovered and running again")."""
    return not (r.guard or r.additive or (r.again and not again) or r.kept) and r.kind not in (
        "experience", "opinion")


def _values_differ(n: Reading, o: Reading) -> bool:
    """Two values, neither holding the other ("Luthagen, Uppsala" adds detail to "Uppsala")."""
    new, old = n.value - _GENERIC, o.value - _GENERIC
    return bool(new) and bool(old) and not new & old


def same_slot_offer(n: Reading, o: Reading) -> str | None:
    """Both facts give one single-valued slot of the subject, or one passive slot ("is run
    by"), with values that share nothing, and no rule decided: offered."""
    if not (_plain(n) and _plain(o)) or not _values_differ(n, o) or n.attr != o.attr:
        return None
    if n.relation == "location" and n.value & _PLACE_PARTS:
        return None  # "an apartment in Tennoji ward": where in the city
    if o.value <= n.words and not (n.changes or n.now) and not _left_before(n, o):
        return None  # "Sigrid's house is in Luthagen, Uppsala": the same place, more precisely
    if n.relation and n.relation == o.relation and n.relation in SINGLE_VALUED:
        return f"same slot: {n.relation}; {OTHER_VALUE}"
    if n.verb and n.verb == o.verb and not (n.relation or o.relation):
        return f"same slot: {n.verb} by; {OTHER_VALUE}"
    return None


# a time or a place the sentence opens with: "After twelve years in Dunedin, ..."
_FRONTED = re.compile(r"^(?:after|following|since|from|having|when)\b[^,;]*,", re.IGNORECASE)


def _left_before(n: Reading, o: Reading) -> bool:
    """The older value is named only in a phrase the newer fact opens with ("After twelve
    years in Dunedin, Bartholomew has made Motueka his home"): the time spent there, before."""
    front = _FRONTED.match(n.text)
    return front is not None and o.value <= {w.stem(t) for t in w.tokens(front.group())} \
        and not o.value & {w.stem(t) for t in w.tokens(n.text[front.end():])}


# a process said to be going on: "is recovering from", "are still negotiating"
_GOING_ON = re.compile(r"\b(?:is|are|am)\s+(?:still\s+|slowly\s+)?(?P<verb>[a-z]{3,}ing)\b",
                       re.IGNORECASE)


def done_offer(n: Reading, o: Reading) -> str | None:
    """The older fact says a process is going on whose end is a final state ("is recovering
    from knee surgery") and the newer one says it reached it, the same verb not as an "-ing"
    word ("is fully recovered and running again"): offered."""
    if not (_plain(n, again=True) and _plain(o)):
        return None
    for m in _GOING_ON.finditer(o.text):
        stem = w.stem(m.group("verb").lower())
        if stem in FINAL and stem in n.words - gerunds(n.text):
            return f"status: {m.group('verb')!r} done; {HOLDS_NOW}"
    return None


# in a phase or stage: "is in the design phase", "at the planning stage"
_PHASE = re.compile(r"\b(?:in|at)\s+(?:the|its|their)\s+(?P<what>(?:[\w-]+\s+){1,2}?)(?:phase"
                    r"|stage)\b", re.IGNORECASE)
# a phase entered: "entered construction", "moved into the testing phase", "reached the
# fit-out stage"
_ENTERED = re.compile(r"\b(?:entered|enters|moved\s+(?:in)?to|went\s+into|progressed\s+to"
                      r"|reached|is\s+now\s+in)\s+(?:the\s+|its\s+)?(?P<what>[\w-]+)",
                      re.IGNORECASE)


def phase_offer(n: Reading, o: Reading) -> str | None:
    """The older fact in one phase or stage and the newer one entering another: offered."""
    if not (_plain(n) and _plain(o)) or not (was := _PHASE.search(o.text)):
        return None
    left = {w.stem(x) for x in w.tokens(was.group("what").lower())}
    for m in _ENTERED.finditer(n.text):
        if w.stem(m.group("what").lower()) not in left | _GENERIC:
            return f"status: {was.group().strip()!r} and now {m.group()!r}; {HOLDS_NOW}"
    return None


def unread_offer(n: Reading, o: Reading) -> str | None:
    """Why a pair the rules could not decide is offered as a change of its slot, or None."""
    return same_slot_offer(n, o) or done_offer(n, o) or phase_offer(n, o)


__all__ = ["done_offer", "phase_offer", "same_slot_offer", "unread_offer"]
