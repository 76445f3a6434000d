"""The members of a kind a question asks for: "which pets do we have", "what animals do we
keep at home".

The question names the kind ("what *animals*", `expansion.asked_kind`), and the memory tells
which of its entities are one: "Pepper is our three-year-old border collie", "Shelly is
Owen's tortoise" (`sets.kind_names`, read through the lexicon's kinds).  Those facts are the
answer, each member once — but found by the entity's links they weigh as every other fact
about it ("Pepper eats grain-free kibble"), and the one that tells what the entity is came
eighth.  Here they come first, in the order recall gave them, above the rest of their tier.

A question for the kind of a named entity ("what breed is Juniper") has no kind word: the
facts linked to it that tell what it is come first ("Juniper is our dog now; she's a blue
heeler mix", `what_they_are`), not the newest fact that only names her.

Only for a kind the question asks for: "who looked after the dog" asks for a person, and the
fact that Pepper is a collie answers nothing of it.  Not in semantic mode (`sets.with_groups`
reads no kinds there).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from memfold.index.base import Filters, RecallIndex
from memfold.names import entity_key
from memfold.recall.expansion import asked_kind
from memfold.recall.fusion import SEMANTIC
from memfold.recall.query import QueryPlan
from memfold.recall.ranking import Scored
from memfold.recall.sets import kind_words, told_of

# words that ask which kind of its kind a thing is: "what *breed* is our cat" asks for the
# fact that tells what the cat is ("Pickle is our four-year-old Maine Coon")
KIND_OF = frozenset({"breed", "kind", "type", "sort", "species", "variety", "make", "model"})


def telling(backend: RecallIndex, plan: QueryPlan, named: Sequence[str], filters: Filters,
            mode: str) -> frozenset[str]:
    """The ids of the facts that tell an entity is one of the kind the question asks for
    ("what animals", "which pets", "what kind of dog": `expansion.asked_kind`), when the
    question names that kind as a kind word (`sets.kind_words`) — or, for "what breed"
    (KIND_OF), of the kind word the question names beside it ("what breed is our *cat*").
    Read from the plan before `sets.with_groups` takes the kind word out of its terms."""
    if mode == SEMANTIC:
        return frozenset()
    word = asked_kind(plan.text, plan.terms)
    kinds = kind_words(plan, named)
    if word in KIND_OF:
        word = next((w for w in kinds if w != word), None)
        if word is None and named:  # "what breed is Juniper": what the memory says she is
            return what_they_are(backend, named, filters)
    if word is None or word not in kinds:
        return frozenset()
    return frozenset(fact_id for _, fact_id in told_of(backend, word, filters))


IS_ONE = r"(?:,?\s+(?:is|was)\s+(?:a|an|my|our|the)\b|,\s+(?:a|an)\b)"
READ = 50  # the facts linked to the entities read for what they are


def what_they_are(backend: RecallIndex, named: Sequence[str],
                  filters: Filters) -> frozenset[str]:
    """The ids of the facts linked to an entity the question names that tell what it is:
    its name, then "is a", "is our" or a comma and "a" ("Juniper is our dog now", "Pickles
    is my orange tabby", "Adopted Juniper, a cattle dog mix")."""
    found: set[str] = set()
    for c in backend.linked(list(named), filters, READ):
        names = "|".join(re.escape(n) for n in c.fact.entities
                         if entity_key(n) in named)
        if names and re.search(rf"\b(?:{names}){IS_ONE}", c.fact.content):
            found.add(c.fact.id)
    return frozenset(found)


def told_first(ordered: list[Scored], told: frozenset[str]) -> list[Scored]:
    """`ordered` with the facts in `told` first among their tier, each at the best score of
    that tier (the order of scores still falls down the list), in the order recall gave."""
    if not told:
        return ordered
    first = [s for s in ordered if s.fact.id in told]
    if not first:
        return ordered
    out: list[Scored] = []
    for tier in sorted({s.tier for s in ordered}):
        rows = [s for s in ordered if s.tier == tier]
        lifted = [s for s in rows if s.fact.id in told]
        if lifted:
            best = max(s.score for s in rows)
            lifted = [s if s.score >= best else replace(s, score=best) for s in lifted]
        out += lifted + [s for s in rows if s.fact.id not in told]
    return out

