"""What a language gives the table reader (judge.reading_table): one `Lexicon` of word lists
and patterns.  A language the judge reads by table is one module that builds a Lexicon
(judge.words_vi for Vietnamese); the reader and the rules (judge.rules) are shared.

Every pattern runs over the fact's *folded* text — lower case, tone marks and other
diacritics dropped, đ as d — so a fact typed without diacritics reads the same.  The
patterns name their groups: `old` (the value left), `new` (the value taken), `obj` (what
changed), `val` (a slot's value), `what` (what ended).  Pure data, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

Pattern = re.Pattern[str]


@dataclass(frozen=True, eq=False)
class Lexicon:
    """One language's words and patterns for the table reader.  One instance a language,
    so it is hashed by identity: the reader's cache keys on it for every fact it reads."""

    name: str
    stop: frozenset[str]  # function words: never a topic, a value or a subject's name
    concepts: tuple[tuple[Pattern, str], ...]  # phrase -> the English stem rules compare
    fronted: Pattern  # a time phrase before the clause ("Từ tháng 3, ...")
    clause_split: Pattern
    markers: frozenset[str]  # words that end a clause's subject (the first verb-like word)
    changes: tuple[tuple[Pattern, str], ...]  # (pattern, verb): chuyển từ X sang Y, thay X bằng Y
    relations: tuple[tuple[Pattern, str], ...]  # (pattern with `val`, relation) over a clause
    copula: Pattern  # "<subj> là <val>"
    attr_relations: tuple[tuple[Pattern, str], ...]  # a copula's subject naming a relation
    where: Pattern  # "<subj> ở <val>": where something is, when no other slot is stated
    classes: tuple[tuple[Pattern, str], ...]  # what "X là VAL" says when X is the entity
    ends: tuple[Pattern, ...]  # phrases of ending, the `what` that ended after them
    parted: Pattern  # a relationship ended
    clip: Pattern  # where a value's trailing details start
    guards: tuple[tuple[str, Pattern], ...]  # (guard, pattern), in order
    kin: Pattern  # "<kin> của <who> ...": someone else's news when `who` is the entity
    this_week: Pattern  # a presence made temporary, unless the fact states a change
    additive: Pattern
    not_additive: Pattern  # the same words saying something else ("không còn ... nữa")
    now: Pattern  # says it holds now, or that it changed
    reversal: Pattern  # a change of mind or of habit
    changed_mind: Pattern
    positive: Pattern
    negative: Pattern
    reported: Pattern  # "<who> nói rằng ...": someone's saying; `who` is checked


def compile_all(*patterns: str) -> tuple[Pattern, ...]:
    return tuple(re.compile(p) for p in patterns)
