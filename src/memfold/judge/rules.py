"""The default judge: offline, deterministic rules over the text of two facts."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..lifecycle import STATE_KINDS
from ..model import Fact
from .base import Verdict

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

    def weigh(self, new: Fact, older: Sequence[Fact]) -> list[Verdict]:
        found: list[Verdict] = []
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
                found.append(Verdict(old.id, True,
                                     f"the newer fact says it moved away from {left.strip()!r}"))
            elif slot and shared and (other := slot_of(old)) and other[0] == slot[0] \
                    and other[1] != slot[1]:
                found.append(Verdict(old.id, True, f"{slot[0]}: {other[1]!r} became {slot[1]!r}"))
        return found


AGREES, OPPOSES, REVERSES = "agrees", "opposes", "reverses"
_NEGATION = re.compile(r"\b(?:not|no|never|n't|dislikes?|hates?|avoids?)\b", re.IGNORECASE)


def stance(opinion: Fact, evidence: Fact) -> str:
    """How a newer fact about the same topic bears on an opinion: it agrees with it,
    opposes it (the opinion's confidence should fall), or reverses it (a clear change of
    mind: the opinion is superseded).  The caller has already checked the two share an
    entity and a topic."""
    if change_phrase(evidence.content):
        return REVERSES
    if bool(_NEGATION.search(opinion.content)) != bool(_NEGATION.search(evidence.content)):
        return OPPOSES
    return AGREES
