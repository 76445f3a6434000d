"""What a fact is about, read with a small heuristic reader.

A rule may find a change through any word two facts share; on a year of one person's memory
many such words are not what either fact is about: a place inside "her flights from Dunedin
were cancelled", a noun that only qualifies another ("kayak trips"), an evaluative word
("the best car"), a possessor ("the RAV4's lane-keeping beeps" are about the beeps).  The
reader finds, clause by clause, the head nouns of the main clause's subject and objects (an
object may follow its verb through a preposition: "lives in Dunedin") and the main verbs
(`heads`), and beside them the words that qualify those heads — compound modifiers and
possessors (`named`).  Left out: nouns in a phrase that qualifies a noun ("bill in
Cygnet", "flights from Dunedin"), relative clauses ("a black cat who is nine", "the best car
I've owned"), appositions after a comma, evaluative words.  No parser model ships here: a
word is taken for a verb by its form and place (after a subject pronoun or an auxiliary,
"-ed", a verb of change or of ending).  judge.same_value and judge.same_thing read a
supersede a rule found with it.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import lru_cache

from memfold.lifecycle.judge import words as w
from memfold.lifecycle.judge.reading import Stems

_EMPTY: Stems = frozenset()


@dataclass(frozen=True)
class About:
    """What a fact is about: `heads` (the head nouns of its main clauses' subjects and
    objects, and their verbs) and `named` (those, with the words qualifying them)."""

    heads: Stems
    named: Stems
    acts: frozenset[tuple[str, str]]  # each main verb with its subject's head ("" for
    # "I", "we" or none said)
    hidden: Stems  # words said only in an aside: a relative clause, an apposition, a
    # phrase qualifying a noun ("who is nine", "from Dunedin")
    verbs: Stems  # the main verbs, among `heads`
    asides: Stems  # every word said in an aside, the head of a qualifying phrase too
    subjects: Stems  # the words of the main clauses' subjects


_PREPOSITIONS = frozenset(
    "at in on of for from by with without near into onto over under past along across behind "
    "outside inside through to as about after before during since until via per than like "
    "between among around toward towards against".split())
_PARTICLES = frozenset("up down out off back round around over away in on".split())
_AUX = frozenset(
    "is are was were am be been being 's 're 'm has have had 've do does did don't doesn't "
    "didn't can can't cannot could couldn't would wouldn't will won't should shouldn't must "
    "may might 'd 'll isn't aren't wasn't weren't hasn't haven't hadn't".split())
_PRONOUNS = frozenset("i we he she they you it i've we've they've you've i'm we're they're "
                      "he's she's it's i'd we'd i'll we'll".split())
_ADVERBS = frozenset("now just also still never always finally already really only even instead "
                     "not n't no longer any more recently since then officially".split())
_CONJUNCTIONS = frozenset("and or but so yet because while although though when where "
                          "whereas once since after before until".split())
_RELATIVE = frozenset("who whom whose which that".split())
# words that judge a thing rather than name it: "the best car", "my favourite cider"
_EVALUATIVE = frozenset(w.stem(x) for x in (
    "best worst favourite favorite great good bad better worse nice lovely terrible awful "
    "amazing excellent perfect ideal top greatest finest poor brilliant wonderful horrible "
    "decent fine proper real biggest smallest first last").split())
_VERBS = frozenset(w.stem(v) for v in (*w.CHANGE_VERBS, *w.END_VERBS, *(
    "live work drive own rent earn pay cost charge buy bought sell sold go come join start "
    "stop ride cycle walk run swim paddle climb boulder teach study play love like hate "
    "prefer enjoy feel felt track heat insure serve host make brew bake cook write read "
    "use keep hold lead manage take give get got find found tell say think know want need "
    "plan try visit stay spend spent win won lose lost send sent hand eat drink smoke "
    "read watch listen build").split()))
_CLAUSE = re.compile(r"\s*(?:[;:!?]|(?<![A-Z][a-z])(?<!\b[A-Z])\.(?=\s|$)|\s[-–—]\s)\s*")
_TOKEN = re.compile(r"[\w$£€][\w'’.,$£€-]*[\w]|[\w$£€]|,")


def _verbish(token: str, before: str) -> bool:
    """Whether a word is taken for a verb: by its form, or by its place right after a
    subject pronoun or an auxiliary."""
    low = token.lower()
    if token[:1].isupper() and before:  # a capitalised word inside a clause is a name
        return False
    if low in _AUX:
        return True
    if before in _DETERMINERS:  # "our rent", "the cycle": a noun
        return False
    if before in _BE:  # "is fixed", "is moving" — but "is vegan" says what it is
        return low.endswith(("ed", "ing", "en")) or w.stem(low) in _VERBS
    if before in _PRONOUNS or before in _AUX or before == "to":
        return low[:1].isalpha() and low not in w.STOP - _LIGHT_VERBS | _EVALUATIVE | _NUMBER_WORDS
    return (low.endswith("ed") and len(low) > 4) or w.stem(low) in _VERBS


_BE = frozenset("is are was were am be been being 's 're 'm isn't aren't wasn't weren't "
                "it's he's she's i'm we're they're".split())
_DETERMINERS = frozenset("a an the my our your his her their its this that these those "
                         "every each some any no".split())
_LIGHT_VERBS = frozenset("go goes went get gets got make makes made take takes keep keeps "
                         "use uses used say says said".split())


@lru_cache(maxsize=8192)
def about(text: str) -> About:
    """What a fact's text is about (see the module docstring)."""
    heads: set[str] = set()
    named: set[str] = set()
    hidden: set[str] = set()
    acts: set[tuple[str, str]] = set()
    verbs: set[str] = set()
    asides: set[str] = set()
    subjects: set[str] = set()
    for clause in _CLAUSE.split(text.replace("\u2019", "'")):
        _Clause(heads, named, hidden, acts, verbs, asides, subjects).read(_TOKEN.findall(clause))
    return About(frozenset(heads), frozenset(heads | named), frozenset(acts),
                 frozenset(hidden - heads - named), frozenset(verbs),
                 frozenset(asides | hidden), frozenset(subjects))


# a noun that names an end or a change carries what ended in the phrase after it
# ("handed in my resignation at Derwent", "my notice at Halden Rail")
# and so does a noun of kind or amount ("her favourite kind of holiday", "a pair of boots")
_CARRIERS = tuple(sorted(w.stem(v) for v in (
    *w.END_VERBS, *w.CHANGE_VERBS,
    *"notice kind type sort style brand pair lot bit part member interest fan taste".split())))


@dataclass
class _Clause:
    """One walk over a clause.  `role` is what the next noun group is: "subject" (before
    the first verb), "object" (right after a verb, or after a verb and a preposition),
    "aside" (after a preposition that follows a noun, after a comma, inside a relative
    clause): an aside's words are only `hidden`."""

    heads: set[str]
    named: set[str]
    hidden: set[str]
    acts: set[tuple[str, str]]
    verbs: set[str]
    asides: set[str]
    subjects: set[str]
    doer: str = ""
    verb_seen: bool = False

    def read(self, tokens: list[str]) -> None:
        role, group, before, last_head = "subject", list[str](), "", ""
        relative = False
        fronted = bool(tokens) and (tokens[0].lower() in _CONJUNCTIONS | _PREPOSITIONS
                                    or tokens[0].lower().endswith("ing"))
        for i, token in enumerate(tokens):
            low = token.lower()
            if token == "," or low in _CONJUNCTIONS or (low == "that" and i > 0
                                                        and tokens[i - 1].lower() == "now"):
                last_head = self._close(group, "aside" if relative else role) or last_head
                relative = False
                # before the verb a comma ends a fronted phrase ("With the promotion, my
                # salary ...") or opens the subject's apposition; after it, an aside
                # a fronted clause ("After the sabbatical swap, ...") ends at its comma
                comma = low == ","
                role = "subject" if not comma or not self.verb_seen or fronted else "aside"
                if comma and tokens[i + 1:i + 2] and tokens[i + 1].lower() in ("no", "not"):
                    role = "object"  # "is on a keto diet now, no longer vegan": said of it
                self.verb_seen = self.verb_seen and comma and not fronted
                fronted = fronted and not comma
            elif relative:
                self.hidden.add(_stem(token))
            elif (low in _RELATIVE or low in _PRONOUNS) and any(map(_content, group)):
                last_head = self._close(group, role) or last_head
                relative = True  # "a black cat who is nine", "the best car I've owned"
                self.hidden.add(_stem(token))
            elif low in _PREPOSITIONS and not (low in _PARTICLES and before and not group
                                                 and role == "object"):
                had = any(map(_content, group))
                last_head = self._close(group, role) or last_head
                carried = had and last_head.startswith(_CARRIERS)
                role = "aside" if had and not carried or role == "aside" and not before \
                    else "object" if before or carried or role == "object" else "aside"
                before = ""
            elif low in _ADVERBS or (low in _PARTICLES and before and not group):
                continue
            elif (_verbish(token, before if not any(map(_content, group)) else "")
                  or i == 0 and low.endswith("ing")) and not (i == 0 and low in _PRONOUNS):
                last_head = self._close(group, role) or last_head
                if low not in _AUX and low[:1].isalpha():
                    self.heads.add(_stem(token))
                    self.verbs.add(_stem(token))
                    self.acts.add((_stem(token), self.doer))
                role, before = "object", low
                self.verb_seen = self.verb_seen or not (i == 0 and low.endswith("ing"))
            else:
                group.append(token)
                if low in _CONTRACTED:  # "it's", "I've": a subject and its verb
                    self._close(group, role)
                    self.verb_seen = True
                    role, before = "object", low
                else:
                    before = low if not any(map(_content, group)) else ""
        self._close(group, "aside" if relative else role)

    def _close(self, group: list[str], role: str) -> str:
        nouns = [t for t in group if _content(t)]
        group.clear()
        if not nouns:
            return ""
        name = list(itertools.takewhile(lambda t: t[:1].isupper(), reversed(nouns)))
        if role == "aside":  # a qualifier's own head may be a value ("a house in Bergen",
            # "with a 2021 Kia Niro": a name is its head whole)
            self.asides.update(map(_stem, [nouns[-1], *name]))
            self.hidden.update(map(_stem, nouns[: len(nouns) - max(1, len(name))]))
            return ""
        self.heads.add(_stem(nouns[-1]))
        self.named.update(map(_stem, nouns[:-1]))
        if _stem(nouns[-1]) in _KIND_NOUNS:  # "a Skoda Octavia estate" is the Octavia
            self.heads.update(_stem(t) for t in nouns[:-1] if t[:1].isupper())
        self.heads.update(map(_stem, name))  # "a 2013 Subaru Outback": one name, one head
        if role == "subject":
            self.doer = _stem(nouns[-1])
            self.subjects.update(map(_stem, nouns))
        return _stem(nouns[-1])


# nouns that say what kind of thing a name before them is ("Octavia estate", "Tasman
# kayak"): the name is the head's, not a qualifier ("the Huon Hazy recipe" is a recipe)
_KIND_NOUNS = frozenset(w.stem(x) for x in (
    *w.FAMILY_NAMES, *w.KINDS, *(x for kind in w.KINDS.values() for x in kind),
    *"car hybrid ute wagon sedan truck bike bicycle motorbike boat kayak canoe yacht phone "
     "laptop tablet watch dog cat horse house flat".split()))
_CONTRACTED = frozenset(x for x in _PRONOUNS if "'" in x)


def _content(token: str) -> bool:
    low = token.lower()
    base = re.sub(r"'s$", "", low)
    return bool(base) and base[:1].isalpha() and base not in w.STOP | _NUMBER_WORDS \
        and base not in _PRONOUNS and w.stem(base) not in _EVALUATIVE


_NUMBER_WORDS = frozenset("two three four five six seven eight nine ten eleven twelve twenty "
                          "hundred thousand million half dozen".split())


def _stem(token: str) -> str:
    return w.stem(re.sub(r"'s$", "", token.lower()))


__all__ = ["About", "about"]
