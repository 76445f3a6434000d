"""Older facts the judge weighs a new one against across entities: a change is often written
under another entity than the fact it changes.  "B @me: Walked Nadia to her first day of
Year 6" changes "W @Nadia: Nadia is in Year 5", and "B @PureFit: PureFit raised its monthly
fee to £42" changes "W @me: My PureFit gym membership costs £35" — the two share no entity
tag, but one names the other's entity in its text.

Two ways round, each bounded (`NAMED_CANDIDATES`, newest first) so a retain stays fast:

- `named_in_text`: the entities the new fact's text names (its runs of one to three words,
  read as recall reads a query's names, `names.name_keys`, resolved against the
  index's entities and the aliases on entity pages), and the older facts linked to them;
- `naming_older`: the older facts whose text names one of the new fact's entities (by its
  name or an alias, as `names.text_names` reads it, as recall does) without being linked to it.

The judge reads each pair with the named entity among the naming fact's entities
(`with_entities`), so its subject rules decide as usual whose slot it is: "Walked Nadia to her
first day" is about me, but it names Nadia's school year.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence
from datetime import date

from memfold.index.base import Candidate, Filters, Terms
from memfold.journal.events import rule_of
from memfold.lifecycle.bulk import CandidateSource
from memfold.lifecycle.judge.base import Judge, Verdict
from memfold.names import STOP_WORDS, entity_key, find_words, name_keys, text_names
from memfold.values import Fact

# older facts weighed per new fact and per way round (newest first): a retain reads at most
# this many more candidates than before
NAMED_CANDIDATES = 12
SEARCHED = 60  # full-text matches read to find the facts that name an entity
MAX_NAME_KEYS = 192  # entity keys read from a fact's words, as recall reads a query's
# the rules whose word stands across entities from an experience: one slot, two values
TRUSTED = ("value", "moved", "renamed")
ACROSS = ", but the two were written under different entities"


def named_in_text(backend: CandidateSource, new: Fact, own: Collection[str]) -> list[str]:
    """The keys of the known entities the new fact's text names, other than its own (`own`:
    the keys of its entities, their canonical names and aliases)."""
    words = find_words(new.content)
    keys = [k for k in name_keys(words, most=MAX_NAME_KEYS)
            if k not in own and k not in STOP_WORDS]
    if not keys:
        return []
    resolved = backend.resolve_names(keys)
    return list(dict.fromkeys(e for k in keys if (e := resolved.get(k)) and e not in own))


def linked_older(backend: CandidateSource, keys: Sequence[str], filters: Filters,
                 older: Collection[str]) -> list[Candidate]:
    """The newest older facts linked to these entities (under every name), but those in
    `older` (already weighed)."""
    every = list(dict.fromkeys([*keys, *backend.alias_keys(keys)]))
    pool = backend.linked(every, filters, NAMED_CANDIDATES + len(older))
    return [c for c in pool if c.fact.id not in older][:NAMED_CANDIDATES]


def naming_older(backend: CandidateSource, keys: Collection[str], filters: Filters,
                 older: Collection[str]) -> list[Candidate]:
    """The newest facts whose text names one of these entity keys (the caller gives every
    name: entities and their aliases) without a link to it, but those in `older`."""
    every = sorted(k for k in keys if k not in STOP_WORDS)
    if not every:
        return []
    phrases = tuple(k.replace("-", " ").replace("_", " ") for k in every)
    pool = backend.lexical(Terms(phrases=phrases), filters, SEARCHED)
    found = [c for c in pool if c.fact.id not in older and not set(c.links) & set(every)
             and text_names(c.fact.content, every)]
    found.sort(key=lambda c: (c.fact.day or date.min, c.fact.path, c.fact.line), reverse=True)
    return found[:NAMED_CANDIDATES]


def with_entities(fact: Fact, keys: Sequence[str], *, first: bool = False) -> Fact:
    """The fact as the judge reads it when its text names these entities: they are among
    its entities — after its own, so what it is about is read as before, or `first`, so a
    fact whose grammatical subject names no entity ("Walked Nadia to her first day of Year
    6") is read as about them."""
    have = {entity_key(e) for e in fact.entities}
    more = tuple(k for k in keys if k not in have)
    if not more:
        return fact
    return dataclasses.replace(fact, entities=more + fact.entities if first
                               else fact.entities + more)


def weigh_across(judge: Judge, new: Fact, older: Sequence[Fact], named: Sequence[str], *,
                 new_names: bool) -> list[Verdict]:
    """The judge's word on a new fact and older facts that share no entity with it: the new
    fact's text names the entities `named` (`new_names`), or each older fact's text names
    them (the new fact's own).  The pair is read first with the named entity beside the
    naming fact's own, and the judge's subject rules decide as usual whose slot it is; a
    supersede stands, but when the naming fact is an experience (history that mentions the
    entity: "Went to Keiko's winter concert in Sapporo") only a rule that reads one slot
    with two values (`TRUSTED`) supersedes, and any other is offered as a conflict.  An
    older fact the judge said nothing of is read again with the named entity as the naming
    fact's subject; what the judge then says is only offered, as a conflict ("Walked Nadia
    to her first day of Year 6" after "Nadia is in Year 5": I walked, Nadia's year)."""
    def read(first: bool) -> tuple[Fact, list[Fact]]:
        if new_names:
            return with_entities(new, named, first=first), list(older)
        return new, [with_entities(o, _named_by(o, named), first=first) for o in older]

    doubtful = new_names and new.kind == "experience"
    verdicts = [_offered(v) if v.supersedes and doubtful
                and rule_of(judge.name, v.reason) not in TRUSTED else v
                for v in judge.weigh(*read(False))]
    said = {v.id for v in verdicts}
    reader, again = read(True)
    if rest := [o for o in again if o.id not in said]:
        verdicts += [_offered(v) for v in judge.weigh(reader, rest)]
    return verdicts


def _named_by(fact: Fact, keys: Sequence[str]) -> list[str]:
    """The keys among `keys` that the fact's text names: "Lucia left Globex" names Globex, not
    Yuki, whose fact ("Yuki left Initech and joined Globex") found it — with Yuki among its
    entities it would read as about Yuki.  A fact that names one only by an alias keeps them
    all."""
    return [k for k in keys if text_names(fact.content, [k])] or list(keys)


def _offered(verdict: Verdict) -> Verdict:
    return Verdict(verdict.id, False, verdict.reason.split(ACROSS)[0] + ACROSS)
