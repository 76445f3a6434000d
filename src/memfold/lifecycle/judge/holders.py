"""Who holds a thing or a role, and who has it now.

Taken over: "@Pilar runs the morning shift" and then "@Tolu
has taken over the morning shift at Zephyr bakery".  The thing held is what both facts are
about, though each names another person as its grammatical subject (judge.subjects lets such
a pair be weighed; judge.unread offers it).

Handed to another person: "Patrice Gagnon is our new signal supervisor" retires
"Desmond Achterberg is the signal supervisor for our territory".

The rule judge weighs a fact against the older facts about the same subject; a role's new
holder is another person than the old one, so neither is the other's subject and no rule
of judge.rules sees the pair.  `handed_over` reads it directly: the newer fact names a
person as the *new* holder of a role ("X is our new R", "X is the new R of Acme"), the
older one names another person as its holder ("Y is the R", "Y is our R"), with the same
role words, the same scope (the names after the role: "of Acme", "for the Brandon crew")
and the same other entities.  The verdict reads as a slot's value that changed
("signal supervisor: 'Desmond Achterberg' became 'Patrice Gagnon'").  Pure functions of
the two facts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memfold.journal.fold import STATE_KINDS
from memfold.lifecycle.judge import words as w
from memfold.lifecycle.judge.base import Verdict
from memfold.names import entity_key
from memfold.values import Fact

# who takes a thing over: "@Tolu has taken over the morning shift at Zephyr bakery", "Tomasz
# took over the data platform team from Priyam" (the thing ends before a place, a time, a giver)
TAKEN_OVER = re.compile(r"^(?P<who>.*?)\b(?:took|takes|taken|taking)\s+over\s+(?:the\s+|its\s+"
                        r"|their\s+|his\s+|her\s+)?(?P<what>[^.,;]+?)(?=\s+(?:from|at|in|on|for"
                        r"|since|after|when|last|this|while|as)\b|\s*[.,;]|\s*$)",
                        re.IGNORECASE)
# someone holds a thing: "@Pilar runs the morning shift", "is managed by @Priyam"
HOLDS = re.compile(r"\b(?:runs|leads|manages|heads|chairs|coordinates|oversees|owns|handles"
                   r"|conducts|coaches|hosts|teaches|looks\s+after|is\s+in\s+charge\s+of"
                   r"|(?:is|are)\s+(?:run|led|managed|headed|chaired|coordinated|overseen|owned"
                   r"|handled|conducted|coached|hosted|taught)\s+by)\b", re.IGNORECASE)


def taken_over(new_text: str, old_text: str) -> bool:
    """The newer text says someone took a thing over and the older says someone holds one
    (whether the same thing is for the caller: `unread.taken_over_offer`)."""
    return TAKEN_OVER.search(new_text) is not None and HOLDS.search(old_text) is not None


_NAME = r"(?-i:[A-Z])[\w'’-]*(?:\s+(?-i:[A-Z])[\w'’-]*){0,2}"
_WORD = r"(?:(?-i:[a-z])[\w-]*|(?-i:[A-Z]{2,5})\b)"  # "signal", "CTO"; not a name
_CUT = r"(?!(?:for|of|at|in|on|and|with|from|to|since|now)\b)"
_ROLE = rf"(?P<role>{_WORD}(?:\s+{_CUT}{_WORD}){{0,2}})"
_TAIL = r"(?P<rest>(?:\s+(?:for|of|at|in|on)\b[^.;]*)?)(?:\s+now)?\s*(?:[.;]|$|,?\s+and\b)"
_NEW_HOLDER = re.compile(rf"^(?P<who>{_NAME})\s+(?:is|has\s+become|became)\s+(?:now\s+)?"
                         rf"(?:our|the|my|their)\s+new\s+{_ROLE}{_TAIL}", re.IGNORECASE)
_HOLDER = re.compile(rf"^(?P<who>{_NAME})\s+is\s+(?:still\s+)?(?:our|the|my|their)\s+{_ROLE}"
                     rf"{_TAIL}", re.IGNORECASE)
# the new holder with the one replaced: "Sofia Eklund has replaced Mateusz as third engineer"
_REPLACED_AS = re.compile(rf"^(?P<who>{_NAME})\s+(?:has\s+)?(?:replaced|succeeded|took\s+over\s+"
                          rf"from)\s+(?P<was>{_NAME})\s+as\s+(?:(?:our|the|my|their)\s+)?"
                          rf"(?:new\s+)?{_ROLE}{_TAIL}", re.IGNORECASE)


def _role(text: str, *forms: re.Pattern[str]) -> tuple[str, str, frozenset[str], str] | None:
    """(holder, role, scope names, the holder replaced if named) a sentence states, or None."""
    m = next((m for form in forms if (m := form.match(text.strip()))), None)
    if m is None:
        return None
    role = frozenset(w.stem(t) for t in w.tokens(m.group("role")))
    if not role or role & w.STOP or not any(t in w.ROLES or w.stem(t) in ROLE_STEMS
                                            for t in w.tokens(m.group("role"))[-1:]):
        return None
    scope = frozenset(w.stem(t.lower()) for t in re.findall(r"\b(?-i:[A-Z])[\w'’-]*",
                                                            m.group("rest")))
    return m.group("who"), " ".join(sorted(role)), scope, m.groupdict().get("was") or ""


ROLE_STEMS = frozenset(w.stem(x) for x in (*w.ROLES, "supervisor", "foreman", "superintendent",
                                            "chair", "captain", "skip", "minister", "pastor",
                                            "vicar", "rabbi", "imam", "conductor", "mayor",
                                            "landlord", "gp", "dean", "treasurer",
                                            "secretary"))


def handed_over(new: Fact, older: Sequence[Fact]) -> list[Verdict]:
    """The verdicts on older facts whose role the newer fact hands to another person."""
    said = _role(new.content, _NEW_HOLDER, _REPLACED_AS) if new.kind in STATE_KINDS else None
    if said is None:
        return []
    who, role, scope, was = said
    mine = {entity_key(e) for e in new.entities} - _keys(who) - (_keys(was) if was else set())
    found: list[Verdict] = []
    for old in older:
        held = _role(old.content, _HOLDER) if old.kind in STATE_KINDS else None
        if held is None or old.id == new.id:
            continue
        before, their_role, their_scope, _ = held
        theirs = {entity_key(e) for e in old.entities} - _keys(before)
        if their_role == role and their_scope == scope and theirs == mine \
                and not set(w.tokens(before)) & set(w.tokens(who)) \
                and (not was or set(w.tokens(was)) <= set(w.tokens(before))):
            title = (_NEW_HOLDER.match(new.content.strip())
                     or _REPLACED_AS.match(new.content.strip()))
            found.append(Verdict(old.id, True, f"{title and title.group('role')}: {before!r} "
                                               f"became {who!r}"))
    return found


def _keys(name: str) -> set[str]:
    """The entity keys a person's name may be filed under: the whole name, the first."""
    return {entity_key(name), entity_key(name.split()[0])}


__all__ = ["ROLE_STEMS", "handed_over"]
