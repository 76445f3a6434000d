"""Who a query names by their role: "my brother", "Mum", "my Spanish tutor".

People ask about those close to them by what they are to them ("who is my brother engaged
to?") and wrote the facts by name ("Nico proposed to Beatriz").  The memory itself says who
the role is: a fact that gives the name beside the role ("My brother Nico is a chef", "My
mum, Carmen, lives in Swindon", "with a tutor, Graciela") and is linked to that entity.  A
role word found so stands for the entity, as its name would: the entity's facts are found
by their links and weigh as named (`ranking`, entity and subject), and the role word is no
longer searched as a word (the fact that says it would otherwise outrank what is asked, as
a name would count twice).  One search of the role's words, only for a query that has a
role word: after a possessive ("my", "our"), or a capitalised word that names no entity
("Mum's hip").  A role of someone the question names ("Gideon's mother") is read the same
way from the facts that give a name beside it ("Gideon's mother Ruth lives in Kenora"), and
the person so named stands for the owner and the role (`owned_roles`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from memfold.index.base import Filters, RecallIndex, Terms
from memfold.names import STOP_WORDS, entity_key, find_words
from memfold.recall.query import QueryPlan

POSSESSIVE = frozenset({"my", "our"})
_NAME = r"[A-Z][\w-]*"  # a name beside a role: one capitalised word
SEARCHED = 20  # the facts read for the role's name
# the words of a question that asks what someone is — what they do, where they live, how
# old they are ("what does my brother do for a living?", "where does my son live?"): the
# fact that says who the role is most often says that too (`QueryPlan.role_told`)
WHAT_THEY_ARE = frozenset("""do does doing did work works working job jobs living live lives
    lived old age aged who what where""".split())
MIN_ROLE = 3  # letters


def role_words(plan: QueryPlan, named: list[str]) -> list[str]:
    """The query's words that may be a role: a word after "my" or "our" (or one word
    further: "my Spanish tutor"), and a capitalised word no entity is called."""
    words = find_words(plan.text)
    lowered = [w.casefold() for w in words]
    found = [lowered[i + n] for i, w in enumerate(lowered) if w in POSSESSIVE
             for n in (1, 2) if i + n < len(lowered)]
    found += [w.casefold() for i, w in enumerate(words) if i and w[:1].isupper()
              and entity_key(w) not in named and w.isalpha()]
    return [w for w in dict.fromkeys(found) if w in plan.terms and len(w) >= MIN_ROLE
            and w not in STOP_WORDS and entity_key(w) not in named]


def _told(role: str) -> re.Pattern[str]:
    """A role beside a name in a fact: "my brother Nico", "My mum, Carmen", "a tutor,
    Graciela", "Nico, my brother", "Graciela is my tutor".  After "a" or "the" the name is
    set off by a comma: "a realtor Sofia recommended" names who recommended one, not the
    realtor; and a role the fact gives as someone else's ("her husband Tom") is not the
    user's."""
    role = re.escape(role)
    return re.compile(rf"(?i:\b(?:my|our)\s+(?:\w+\s+)?{role}),?\s+(?P<after>{_NAME})"
                      rf"|(?i:\b(?:a|an|the)\s+(?:\w+\s+)?{role}),\s+(?P<set>{_NAME})"
                      rf"|(?P<before>{_NAME}),?\s+"
                      rf"(?i:(?:is\s+)?(?:my|our)\s+(?:\w+\s+)?{role})\b")


def roles(backend: RecallIndex, plan: QueryPlan, named: list[str],
          filters: Filters) -> tuple[dict[str, str], frozenset[str]]:
    """Each role word of the query the memory names (role -> entity key): the entity most
    often named beside it in the facts that hold it, when they are linked to it; and the
    ids of the facts that tell it so (`QueryPlan.role_told`)."""
    found: dict[str, str] = {}
    told: set[str] = set()
    for role in role_words(plan, named):
        pattern = _told(role)
        votes: Counter[str] = Counter()
        telling: dict[str, set[str]] = {}
        for c in backend.lexical(Terms(words=(role,)), filters, SEARCHED):
            for m in pattern.finditer(c.fact.content):
                key = entity_key(m.group("after") or m.group("set") or m.group("before"))
                if key in c.links:
                    votes[key] += 1
                    telling.setdefault(key, set()).add(c.fact.id)
        ranked = votes.most_common(2)
        if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]):
            found[role] = ranked[0][0]
            told |= telling[ranked[0][0]]
    return found, frozenset(told)


# "<Name>'s <role>" in a question: the role of someone the question names ("Gideon's mother")
OWNED = re.compile(r"(?P<owner>[\w-]+)['’]s\s+(?:(?P<first>\w+)\s+)?(?P<second>\w+)")


def _told_of(owner: str, role: str) -> re.Pattern[str]:
    """A role of `owner`'s beside a name in a fact: "Gideon's mother Ruth", "Ruth, Gideon's
    mother", "Ruth is Gideon's mother"."""
    owner, role = re.escape(owner), re.escape(role)
    of = rf"(?i:{owner}['’]s\s+(?:\w+\s+)?{role})"
    return re.compile(rf"{of},?\s+(?P<after>{_NAME})|(?P<before>{_NAME}),?\s+(?:is\s+)?{of}\b")


def owned_roles(backend: RecallIndex, plan: QueryPlan, named: list[str],
                filters: Filters) -> dict[tuple[str, str], str]:
    """Each role of a named entity the question asks about ("where is *Gideon's mother*
    staying?") that the memory names: (owner's word, role word) -> the entity most often
    named beside it in the facts that hold the role word, when the memory knows it as an
    entity ("W @Gideon: Gideon's mother Ruth lives in Kenora" is linked to Gideon)."""
    found: dict[tuple[str, str], str] = {}
    for m in OWNED.finditer(plan.text):
        owner = m.group("owner")
        if entity_key(owner) not in named:
            continue
        for role in (w.casefold() for w in (m.group("first"), m.group("second")) if w):
            if role not in plan.terms or role in STOP_WORDS or len(role) < MIN_ROLE:
                continue
            pattern = _told_of(owner, role)
            votes: Counter[str] = Counter()
            for c in backend.lexical(Terms(words=(role,)), filters, SEARCHED):
                for t in pattern.finditer(c.fact.content):
                    votes[entity_key(t.group("after") or t.group("before"))] += 1
            known = backend.resolve_names(list(votes)) if votes else {}
            votes = Counter({known[k]: n for k, n in votes.items()
                             if k in known and known[k] not in named})
            ranked = votes.most_common(2)
            if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]):
                found[(owner.casefold(), role)] = ranked[0][0]
                break
    return found


def with_roles(backend: RecallIndex, plan: QueryPlan, named: list[str],
               filters: Filters) -> tuple[QueryPlan, list[str]]:
    """The plan without the role words the memory names, and the entities named with the
    ones they stand for.  A named entity's role ("Gideon's mother", `owned_roles`) stands
    for the entity it names in place of the owner, whose name and the role word are no
    longer searched: the question is about the mother."""
    plan, named = _with_owned(backend, plan, named, filters)
    found, told = roles(backend, plan, named, filters)
    if not found:
        return plan, named
    terms = tuple(t for t in plan.terms if t not in found)
    asks_what = plan.window is None and all(t in WHAT_THEY_ARE or entity_key(t) in named
                                            for t in terms)
    return (replace(plan, terms=terms, role_told=told if asks_what else frozenset()),
            list(dict.fromkeys([*named, *found.values()])))


def _with_owned(backend: RecallIndex, plan: QueryPlan, named: list[str],
                filters: Filters) -> tuple[QueryPlan, list[str]]:
    owned = owned_roles(backend, plan, named, filters)
    if not owned:
        return plan, named
    gone = {w for pair in owned for w in pair}
    owners = {entity_key(owner) for owner, _ in owned}
    terms = tuple(t for t in plan.terms if t not in gone) or plan.terms
    return (replace(plan, terms=terms),
            list(dict.fromkeys([*(k for k in named if k not in owners), *owned.values()])))
