"""Whose fact it is, for the rule judge: the subject two facts share, and who only told it
("Omar was promoted, Hamid told us")."""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from functools import lru_cache

from memfold.lifecycle.judge.holders import taken_over
from memfold.lifecycle.judge.readers import read, read_parts
from memfold.names import entity_key
from memfold.values import Fact


def same_subject(new: Fact, old: Fact, shared: AbstractSet[str]) -> bool:
    """Whether the entities the two facts share include the subject of one of them: Sam's
    employer is not Priya's because both name @Globex; one who only told it ("Omar was
    promoted, Hamid told us") is not its subject."""
    if not shared:
        return True  # two facts that name no entity: their words decide
    (n_about, n_apart), (o_about, o_apart) = _whose(new), _whose(old)
    if taken_over(new.content, old.content) and n_about and o_about:
        return True  # "@Tolu took over the morning shift" / "@Pilar runs it": the thing held
    return bool((shared - n_apart - o_apart) & (n_about | o_about))


def _whose(fact: Fact) -> tuple[frozenset[str], frozenset[str]]:
    """The entities a fact is about, and those it names that are not its subject: who told
    it, and the entities it names in its content as values."""
    ends = fact.valid is not None and fact.valid.end is not None
    return _whose_in(fact.kind, fact.content, fact.entities, ends)


@lru_cache(maxsize=16384)  # asked of each older fact again on every retain about its entity
def _whose_in(kind: str, content: str, entities: tuple[str, ...],
              ends: bool) -> tuple[frozenset[str], frozenset[str]]:
    about = read_parts(kind, content, entities, ends).about
    return about, reporters(content) | (_mentioned_in(content, entities) - about)


def _mentioned(fact: Fact) -> frozenset[str]:
    """The entities a fact names inside its content, @mentioned or not: as values, unless
    they are its subject ("Ines's manager is Felix" says nothing of Felix's own manager)."""
    return _mentioned_in(fact.content, fact.entities)


@lru_cache(maxsize=4096)  # a retain weighs each new fact against up to a hundred older ones
def _mentioned_in(content: str, entities: tuple[str, ...]) -> frozenset[str]:
    return frozenset(entity_key(e) for e in entities if re.search(  # "Prof. Kang": @Prof-Kang
        r"(?<![\w-])@?" + r"\.?[-\s]".join(map(re.escape, e.split("-"))) + r"(?![\w-])",
        content, re.IGNORECASE))


def named_values(fact: Fact) -> frozenset[str]:
    """The entities a fact names in its content as values, not as its subject: Tessellate in
    "Priyanka works at @Tessellate"."""
    return frozenset(_mentioned(fact) - read(fact).about)


# "..., Hamid told us", "..., says Zainab", "according to Ines": who told it, not its subject
_REPORTER = re.compile(r"(?:,\s*@?(?P<b>[A-Z][\w-]*)\s+(?:told\s+(?:us|me|him|her|them)|said|says"
                       r"|mentioned)|,?\s*\b(?:says|said|according\s+to|per)\s+@?(?P<a>[A-Z][\w-]*))"
                       r"\s*[.!]?$")


def reported(new: Fact) -> str | None:
    """"Ingrid was promoted, Marek told us": someone's report, offered rather than taken."""
    return "reported" if reporters(new.content) - read(new).about else None


@lru_cache(maxsize=4096)
def reporters(content: str) -> frozenset[str]:
    """Who told a fact ("Hamid" in "Omar was promoted, Hamid told us"), as entity keys."""
    return frozenset(entity_key(m.group("a") or m.group("b"))
                     for m in _REPORTER.finditer(content))


def forget() -> None:
    """Empty the cache of whose fact each fact is."""
    _whose_in.cache_clear()
