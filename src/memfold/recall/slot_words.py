"""Word knowledge for the slot a question asks (`asked_slot`): how one gets to work, and
where one works.

- "How does Rasmus get to work?" asks his commute, not his job: the ways of getting there
  (bus, train, bike, a lift ...) name the slot, so a fact told without the word "work" ("is
  back to taking the bus") is on it.
- A question of work reads where someone works as the judge's offers do
  (`judge.offers.WORK_FOR`, `joined`): what one does for or at an organisation named, taken
  on by one, or "is at" one by name ("is at @Copperleaf now", not "is at the beach").
- A change verb the judge reads that the text writes only as a noun ("covered a shift at the
  Swansea branch") says no new value.
"""

from __future__ import annotations

import re

from memfold.names import find_words
from memfold.values import Fact

# a question of how one gets to work asks the commute, not the job: the ways of getting there
COMMUTE_ASKED = re.compile(r"\b(?:get|gets|getting|go|goes|travel|travels)\s+(?:in\s+)?(?:to|into)"
                           r"\s+(?:work|the\s+office|school|college|uni)\b|\bcommut", re.IGNORECASE)
COMMUTE_PLACES = frozenset("work office school college uni travel commute commutes".split())
COMMUTE_WAYS = ("commute", "commutes", "bus", "train", "tram", "metro", "subway", "tube",
                "bike", "bicycle", "cycle", "cycles", "cycling", "scooter", "car", "drive",
                "drives", "walk", "walks", "ride", "rides", "ferry", "carpool", "lift")
# an article or a possessive before a word: it is a noun there ("covered a shift")
NOUN_BEFORE = frozenset("a an the his her their my our its this that".split())
# "is at" an organisation by name: "Pilar is at @Copperleaf now" (not "at the beach")
AT_ORG = re.compile(r"\b(?:is|are|'s)\s+(?:now\s+)?at\s+@?(?-i:[A-Z])")


def works_at(fact: Fact) -> bool:
    """Whether the fact says where its subject works the way the judge's offers read it: what
    it does for or at an organisation named ("teaches maths at Fairholme Secondary"), taken
    on by one ("signed with Tidewater"), or "is at" one by name ("is at @Copperleaf now")."""
    from memfold.lifecycle.judge import offers
    from memfold.lifecycle.judge.readers import read

    if offers.WORK_FOR.search(fact.content) or offers.joined(fact.content):
        return True
    return read(fact).relation == "at" and bool(AT_ORG.search(fact.content))


def as_noun(verb: str, content: str) -> bool:
    """Whether the text writes a change verb the judge read only as a noun, after an article
    or a possessive: "covered a shift at the Swansea branch" changed nothing."""
    from memfold.lifecycle.judge import words as w

    words = [t.casefold() for t in find_words(content)]
    at = [n for n, t in enumerate(words) if w.stem(t) == verb]
    return bool(at) and all(n > 0 and words[n - 1] in NOUN_BEFORE for n in at)
