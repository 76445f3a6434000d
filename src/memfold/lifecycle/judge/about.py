"""What a fact is about, read with a small heuristic reader, and whether a supersede a rule
found changes that thing.

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
"-ed", a verb of change or of ending).

`settle` lets a rule's supersede stand by itself only when the thing it says changed is
among what both facts are about; else the pair is offered (a conflict, left active) when
that thing is at least named in both, or weighed as no change.  Amounts supersede only an
amount of the same thing stated as a standing value (a rent, a salary, a rate), never one
of a one-off event (a bill, a price paid, a reading at a service).  A value "changed to"
that contains the value it replaces is no change.  Only the judge's English readings are
weighed: a language read by its lexicon table keeps its rules.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from memfold.journal.events import rule_of
from memfold.lifecycle.judge import evidence
from memfold.lifecycle.judge import words as w
from memfold.lifecycle.judge.base import Verdict
from memfold.lifecycle.judge.readers import lexicon_of
from memfold.lifecycle.judge.reading import Reading, Stems
from memfold.lifecycle.judge.slots import SINGLE_VALUED
from memfold.values import Fact

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


# -- the supersede a rule found -------------------------------------------------------------

_QUOTED = re.compile(r"'([^']+)'|\"([^\"]+)\"")


def _quoted(reason: str) -> list[str]:
    """The values a reason quotes, in order ('Halifax', "Anaïs's brother")."""
    return [a or b for a, b in _QUOTED.findall(reason)]
_VALUE = re.compile(r"^(?P<label>[^:]+): (?P<old>.+) became (?P<new>.+)$")
# an amount of a one-off event: a bill, a price paid, a charge, a reading at a service
_EVENT = re.compile(r"\b(?:bills?|invoices?|cost|charged|charges?|paid|spent|bought|sold|"
                    r"servic\w+|repairs?|quoted?|came\s+to|"
                    r"fines?|tickets?|deposit|sales|revenue|turnover|takings|"
                    r"(?:in|for|during)\s+(?:19|20)\d\d)\b", re.IGNORECASE)
# an amount that stands: a rent, a salary, a rate for a period
_STANDING = re.compile(rf"\b(?:rent|salary|wages?|earns?|rates?|mortgage|allowance|"
                       rf"{evidence.PERIODS})\b", re.IGNORECASE)
_SEASONS = frozenset("spring summer autumn fall winter".split())
# the labels that name a slot or the kind of its values, not a thing both facts are about
_SLOT_LABELS = frozenset(w.stem(x) for x in (
    *SINGLE_VALUED, *w.UNIT_CLASS, *w.UNIT_CLASS.values(), *w.FAMILY_NAMES, *w.KINDS,
    *"money distance weight duration minutes hours miles".split()))


@dataclass(frozen=True)
class Aside:
    """Why a found supersede is not made by itself: `why` (read after the rule's reason,
    ", but the ...") and whether the pair is offered for a person's look (`offer`)."""

    why: str
    offer: bool


def _said(text: str) -> Stems:
    return frozenset(_stem(t) for t in _TOKEN.findall(text.replace("\u2019", "'"))
                     if _content(t))


def _thing(tn: str, to: str, thing: Stems, what: str) -> Aside | None:
    """The thing a rule says changed must be what both facts are about."""
    a, b = about(tn), about(to)
    if thing & a.heads & b.heads:
        return None
    offer = bool(thing & a.named & b.named)
    return Aside(f"{what} is not what both facts are about", offer)


def _opinion(n: Reading, o: Reading, tn: str, to: str, reason: str) -> Aside | None:
    m = re.match(r"""^the opinion on (?:'([^']+)'|"([^"]+)") reversed$""", reason)
    if m is None:
        return None
    on = m.group(1) or m.group(2)
    if on.endswith("'s"):  # "warmed up to Antek's PhD friends": a view of his friends
        return Aside("opinion is on what the one named has, not on them", False)
    came = _CAME_ROUND.search(tn)  # "I've come around on e-bikes; the customers grin"
    if came and not _said(on) & _said(came.group(1)):
        return Aside("change of mind is about another thing", False)
    return _thing(tn, to, _said(on), "thing the opinion is on")


_CAME_ROUND = re.compile(r"\b(?:come|came|coming|warmed|warming)\s+(?:a?round|up)\s+(?:on|to)\s+"
                         r"((?:[\w'-]+\s*){1,3})", re.IGNORECASE)


def _ended(n: Reading, o: Reading, tn: str, to: str, reason: str) -> Aside | None:
    """What ended must be what the newer fact speaks of, not a word said only in an aside
    of it ("her flights from Dunedin were cancelled"); said in the passive, what ended is
    the subject ("Project Huon is sold as Huon Hazy" sells no Huon Hazy); an activity
    ended is the same doer's ("the port stopped charging" / "the removalists charged")."""
    found = _quoted(reason)
    if not found:
        return None
    thing, a, b = _said(found[0]), about(tn), about(to)
    if thing and _doer_only(thing, tn):
        return Aside("thing said to end is who ended something else", False)
    if thing and all(re.search(rf"\b{re.escape(x)}\w*'s\b", to, re.IGNORECASE) for x in thing) \
            and not thing & b.heads:  # "The shop's rent" / "sold the guitar shop"
        return Aside("thing said to end only owns what the older fact is about", True)
    if _ACCIDENT.search(tn):  # "Dropped the Galaxy A55 and cracked the screen"
        return Aside("newer fact tells an accident, not an end", False)
    if thing and all(x.endswith("li") or x.endswith("ly") for x in thing):
        return Aside("thing said to end is a manner, not a thing", False)  # "retired fully"
    if _SOLD_SOME.search(tn) or _one_of_many(thing, tn, to):  # "I sold six bowls", "Dad
        return Aside("newer fact tells sales, not an end", False)  # sold a carriage clock"
    if _COUNTED.match(tn):  # "Two residents left": those two, not the kind
        return Aside("thing said to end is some of a kind, not the kind", False)
    if _DOWN_TO.search(tn):  # "the range dropped to about 260 km": a new amount
        return Aside("newer fact tells a new amount, not an end", False)
    if n.parted and not (o.relation == "relationship" or o.words & _BONDS):
        return Aside("parting ends a bond, not all else of the one named", False)  # "Inés
        # and Mateo broke up" / "Inés plays violin"
    if thing & a.asides and not thing & a.named:
        return Aside("thing said to end is not what the newer fact is about",
                     bool(thing & a.named & b.heads))
    if _PASSIVE_END.search(tn) and a.subjects and not thing <= a.subjects:
        return Aside("thing said to end is not what ended", False)
    for verb in sorted(thing & a.verbs):
        mine, theirs = {d for v, d in a.acts if v == verb}, {d for v, d in b.acts if v == verb}
        if theirs and not mine & theirs:
            return Aside("activity said to end is another doer's", False)
    return None


def _doer_only(thing: Stems, text: str) -> bool:
    """Whether what a rule says ended is only the doer of an end that names what it ended:
    "Anaïs moved out of the flat" ended the flat, not Anaïs ("Obi and Tessa broke up", "the
    café closed", "Jess moved out and Amara lives alone" name nothing beside the doer)."""
    if _PASSIVE_END.search(text):
        return False
    for clause in _PARTS.split(text):
        a = about(clause)
        tokens = _TOKEN.findall(clause.replace("\u2019", "'"))
        at = next((i for i, x in enumerate(tokens) if _stem(x) in a.verbs), len(tokens))
        if thing <= {_stem(x) for x in tokens[:at]} and a.verbs:  # the doer, before its verb
            after = [x.lower() if x[:1].islower() else "Name" for x in tokens[at + 1:at + 4]
                     if x.lower() not in ("up", "off", "down")]
            if after[:1] in (["out"], ["away"]):  # "moved out of the flat", not "moved out"
                return after[1:2] in (["of"], ["from"])
            return bool(after) and (after[0] in _OBJECT_OPENS or after[0] == "Name")
    return False


_PARTS = re.compile(r"[;:,!?]|\s[-–—]\s|\.(?=\s|$)|"
                    r"\b(?:and|but|so|because|while|since|after|before|when|once|until|as)\b")
# what opens a direct object, or the place left ("out of the flat", "from Hobart")
_OBJECT_OPENS = frozenset("a an the my our your his her their its from of".split())
_DOWN_TO = re.compile(r"\b(?:dropped|fell|went\s+down|came\s+down|cut|reduced|lowered|shrank)"
                      r"\s+to\s+(?:about\s+|around\s+|just\s+)?[$€£]?\d", re.IGNORECASE)
_BONDS = frozenset(w.stem(x) for x in (*w.RELATIONSHIP, "friend", "friends", "friendship"))
def _one_of_many(thing: Stems, tn: str, to: str) -> bool:
    """Whether the newer fact sold one of a kind ("sold a French carriage clock") that the
    older names as many ("restores antique clocks")."""
    sold = re.search(r"\bsold\s+(?:a|an|one)\s+((?:[\w-]+\s+){0,3}?)([\w-]+)\b", tn, re.IGNORECASE)
    return sold is not None and _stem(sold.group(2)) in thing \
        and re.search(rf"\b{re.escape(sold.group(2))}s\b", to, re.IGNORECASE) is not None


_COUNTED = re.compile(r"\s*(?:\d+|two|three|four|five|six|seven|eight|nine|ten|a\s+few|several|"
                      r"some|many)\s+\w+", re.IGNORECASE)
_SOLD_SOME = re.compile(r"\bsold\s+(?:\d+|a\s+few|some|several|two|three|four|five|six|seven|"
                        r"eight|nine|ten|a\s+dozen|dozens)\b", re.IGNORECASE)
_ACCIDENT = re.compile(r"\bdropped\b[^.;]*?\b(?:crack|smash|shatter|broke|dent|scratch)",
                       re.IGNORECASE)
_PASSIVE_END = re.compile(r"\b(?:is|are|was|were|been|being|be)\s+(?:\w+ly\s+|now\s+|just\s+)?"
                          r"(?:sold|cancell?ed|closed|dropped|scrapped|shut|"
                          r"decommissioned|discontinued|abandoned)\b",
                          re.IGNORECASE)


def _changes(n: Reading, o: Reading, tn: str, to: str, reason: str) -> Aside | None:
    found = _quoted(reason)
    if len(found) == 2 and _said(found[0]) <= _said(found[1]) \
            and re.search(r"\b(?:is|are|was|were)\b", found[1]):  # "'Cygnet was best decision'"
        return Aside("value it changed to is a clause that holds the older value", False)
    thing = _said(found[0]) if found else frozenset()
    a = about(tn)
    if found and (found[0].endswith("'s") and _FROM.search(tn)
                  or thing & a.asides and not thing & a.named and _PASSED.search(tn)):
        # "Switched Projekt Ślęża's base": the base changed; "around Quin": a place passed
        return Aside("thing said to change is not what the newer fact is about", False)
    if len(thing) == 1 and (mine := _modifiers(tn, *thing)) \
            and (theirs := _modifiers(to, *thing)) and not mine & theirs:
        return Aside("thing changed is another of its kind", True)  # "household account" /
    # "an Easy Equities account"; "moving Tidemark's clusters to Hetzner" changes no team
    if _STILL.search(tn):  # "Moved my MTN fibre to the Osu apartment; still GHS 420"
        return Aside("newer fact says the thing goes on", True)
    left = frozenset().union(*(c.old for c in n.changes))  # "off Deel", "from AWS"
    if left and not left & o.words:
        return Aside("value the newer fact says was left is not the older fact's", True)
    owned = found[0].split("'s ", 1)[1:] if found else []
    if owned and not _said(owned[0]) & _said(to):
        return Aside("thing said to change is not one the older fact names", False)
    return None


_STILL = re.compile(r"\bstill\b", re.IGNORECASE)
_FROM = re.compile(r"\bfrom\s", re.IGNORECASE)  # "Ślęża's base from oat to pea": the base
_PASSED = re.compile(r"\b(?:around|round|through|past|via|across|along|outside)\s", re.IGNORECASE)


def _modifiers(text: str, head: str) -> Stems:
    """The words that qualify a noun where a text names it ("our household account":
    household; "an Easy Equities account": easy, equiti)."""
    tokens = _TOKEN.findall(text.replace("\u2019", "'"))
    found: set[str] = set()
    for i, token in enumerate(tokens):
        if _stem(token) == head:
            for before in reversed(tokens[:i]):
                if not _content(before) or before.lower() in _PREPOSITIONS | _AUX:
                    break
                found.add(_stem(before))
    return frozenset(found) - _RECURRING


# words that say how often or which one, not what kind: "its monthly membership fee"
_RECURRING = frozenset(w.stem(x) for x in (
    "monthly weekly yearly annual daily nightly new old current usual regular own standard "
    "normal basic full".split()))


def _moved(n: Reading, o: Reading, tn: str, to: str, reason: str) -> Aside | None:
    """A move away is said by a change: not by "instead of" alone, which tells a choice made
    each time ("take the ferry on weekends instead of driving") unless a change is said
    beside it ("now", "switched"), nor by a return, which ends a trip ("a return from
    Halifax", "got back from Oslo")."""
    verbs = {c.verb for c in n.changes if c.old}
    if verbs and verbs <= {"return"} and not _RETURNED.search(tn):  # "$1,300 return from"
        return Aside("return from a place ends a trip, not where one lives", False)
    if _CHOICE.search(tn) and not _CHANGE_SAID.search(_CHOICE.sub(" ", tn)):
        return Aside("newer fact tells a choice, not a change", True)
    if _REPLACED_BARE.search(tn):  # "Google replaced the Pixel under warranty": a repair
        return Aside("replacement is of one unit by the same", False)
    return None


_REPLACED_BARE = re.compile(r"\breplaced\b(?![^.;]*\b(?:with|by)\b)(?=[^.;]*\b(?:under\s+warranty|"
                            r"for\s+free|at\s+no\s+cost|free\s+of\s+charge)\b)", re.IGNORECASE)
_RETURNED = re.compile(r"\breturn(?:ed|ing|s)\b", re.IGNORECASE)
_CHOICE = re.compile(r"\b(?:instead\s+of|rather\s+than|in\s+place\s+of)\b", re.IGNORECASE)
_CHANGE_SAID = re.compile(r"\b(?:now|these\s+days|ha(?:s|ve)\s+been\s+\w+ing|nowadays|any\s*more|"
                          r"no\s+longer|switched|"
                          r"started|starting|began|begun|since|from\s+now\s+on|replaced|"
                          r"changed|moved|from\s+(?:this|next|now|(?:jan|feb|mar|apr|may|jun|"
                          r"jul|aug|sep|oct|nov|dec)\w*))\b", re.IGNORECASE)


def _value(n: Reading, o: Reading, tn: str, to: str, reason: str) -> Aside | None:
    m = _VALUE.match(reason)
    if m is None:
        return None
    if _money_or_reading(n, o, m.group("old"), m.group("new")):
        return _amounts(n, o, tn, to)
    said = _Said(n, o, tn, to, m.group("label"), m.group("old"), m.group("new"))
    return next((aside for check in _VALUE_CHECKS if (aside := check(said)) is not None), None)


@dataclass(frozen=True)
class _Said:
    """A value a rule says changed, with the two facts: what each check reads."""

    n: Reading
    o: Reading
    tn: str
    to: str
    label: str
    old: str
    new: str


def _in_aside(s: _Said) -> Aside | None:
    if _aside(s.old, s.to) or _aside(s.new, s.tn):
        return Aside("value is said only in an aside", False)
    return None


def _befell(s: _Said) -> Aside | None:
    if _HAPPENED.search(s.tn) or _HAPPENED.search(s.to):  # "Anaïs was offered a job"
        return Aside("newer fact tells what happened to it, not what it is", False)
    return None


def _periods(s: _Said) -> Aside | None:
    if w.YEAR.match(s.old.strip("'")) and w.YEAR.match(s.new.strip("'")):
        return Aside("values are two years: of two periods, not a change", False)
    return None


def _judged(s: _Said) -> Aside | None:
    if _JUDGED.search(s.old) or _JUDGED.search(s.new):  # "the best manager I've had"
        return Aside("value is a judgement, not what it is", False)
    return None


def _measures(s: _Said) -> Aside | None:
    """Two amounts measured in other units are not one slot's ("3 kyu" / "$75 an hour"):
    each value one amount, in units of which at least one is known by name, unlike."""
    def units(value: str, r: Reading) -> list[frozenset[str]]:
        said = set(w.tokens(value.strip("'\"")))
        return [u for v, u in r.numbers if v in said]
    old, new = units(s.old, s.o), units(s.new, s.n)
    if len(old) == 1 == len(new) and (old[0] | new[0]) & _MEASURED and not old[0] & new[0]:
        return Aside("values are measured in other units", False)
    return None


def _still_named(s: _Said) -> Aside | None:
    """A newer value that still names the older one ("two clients now: Tidemark and
    Quillfeather" after "joined Tidemark's rotation") adds to it, replacing nothing."""
    def named(value: str) -> set[str]:
        return {re.sub(r"'s$", "", x) for x in _TOKEN.findall(value)
                if (x[:1].isupper() or x[:1].isdigit()) and x.lower() not in w.STOP | _AUX
                and _stem(x) not in _TITLE_WORDS}  # "VP Engineering" is a role, no name
    if named(s.old) and named(s.old) < named(s.new):  # more names: added to, not replaced
        return Aside("newer value still names the older one", True)
    return None


def _slot(s: _Said) -> Aside | None:
    """The attribute's words written in small letters: one must be what each fact is about
    (a head of each), not a word only in an aside or a modifier ("Council rates on the
    house" / "the house is heated by"; "The shop van is" / "The shop is open"); a slot read
    from the values' kind ("phone: 'Pixel' became 'iPhone'") or a name is no such word."""
    units = frozenset().union(*(u for _, u in (*s.n.numbers, *s.o.numbers)))
    said = _said(s.tn)  # the label's words as the newer fact writes them ("on-call")
    small = {x for t in _TOKEN.findall(s.label) if t.islower() and (x := _stem(t)) in said}
    slot = small - _SLOT_LABELS - units - _ADVERBS_STEMS
    shared = slot & _said(s.to)
    if slot and not small & _said(s.to):  # "Halloween party at Théo's in Truro": no party
        return Aside("thing valued is not one the older fact names", False)
    if _named_only(s.label, s.tn, s.to, s.n.about | s.o.about) and not _kin(s.old, s.new):
        # a name alone is no slot: "Anaïs is vegetarian" / "Anaïs is a sound technician"
        return Aside("values tell of the one named in other ways", True)
    owned = s.label.split("'s ", 1)[1:]  # "shop's liability insurance": the insurance
    if owned and not _said(owned[0]) & _said(s.to):
        return Aside("thing valued is not one the older fact names", False)
    if not shared or shared & about(s.tn).named & about(s.to).named:
        return None
    return Aside("thing valued is not what both facts are about", False)


_THING_LABELS = frozenset(w.stem(x) for x in (*w.FAMILY_NAMES, *w.KINDS))
_TITLE_WORDS = frozenset(w.stem(x) for x in (
    *w.ROLES, *"vp svp evp head chief senior junior principal staff associate assistant deputy "
    "engineering marketing sales finance operations product design research people".split()))
_MEASURED = frozenset({"money", "percent", *w.UNIT_CLASS.values()})  # classes known by name
def _condition(s: _Said) -> Aside | None:
    """A value that names a thing ("iPhone 15") is not replaced by a condition said in
    small words ("the phone itself is fine")."""
    def named(value: str) -> bool:
        return any(not x.islower() for x in _TOKEN.findall(value))  # "iPhone", "15"
    if named(s.old) and not named(s.new) and len(_TOKEN.findall(s.new)) == 1 \
            and _stem(s.label) in _THING_LABELS:  # not "relationship: 'Lena' became 'married'"
        return Aside("newer value is a condition, not what the thing is", True)
    return None


_VALUE_CHECKS = (_in_aside, _befell, _periods, _judged, _measures, _still_named, _condition,
                 _slot)


def _named_only(label: str, tn: str, to: str, keys: frozenset[str]) -> bool:
    """Whether a value's label is only a name (a person, a pet, a place), not a slot: each
    of its words is an entity the facts are about (`keys`) or is written capitalised inside
    a sentence ("Lucy Tan", "Aroha's horse Kōwhai"), not only at a sentence's start
    ("Cleaning at the clinic")."""
    words = _TOKEN.findall(label)
    folded = {_plain(k) for k in keys}
    return bool(words) and all(x.istitle() and (_plain(x) in folded or re.search(
        rf"(?<![.!?;:]\s)(?<=\w\s|,\s){re.escape(x)}\b", f" {tn} | {to}")) for x in words)


def _plain(word: str) -> str:
    """A name in small ASCII letters, its accents and other letters left out: "Anaïs" and
    the key "anais" alike, "Paweł" as "pawe" (an entity key written "pawel" starts so)."""
    return "".join(c for c in unicodedata.normalize("NFKD", word.casefold())
                   if c.isascii() and c.isalnum())[:4]


def _kin(old: str, new: str) -> bool:
    """Two values of one kind: a word in common, or two numbers."""
    a, b = _said(old.strip("'\"")), _said(new.strip("'\""))
    return bool(a & b) or (w.is_number(old.strip("'")) and w.is_number(new.strip("'")))


# be and a participle of giving or telling, with its object: "was offered a job", "was
# told the news", "were sent a letter"; also what befell a thing ("was stolen")
_HAPPENED = re.compile(r"\b(?:is|are|was|were|been|got|gets)\s+(?:(?:offered|given|told|asked|"
                       r"sent|shown|promised|handed|lent|invited)\s+(?:a|an|the|her|his|"
                       r"their|my|our)\b|(?:stolen|broken\s+into|vandali[sz]ed)\b)",
                       re.IGNORECASE)


_JUDGED = re.compile(r"\b(?:best|worst|favou?rite|finest|greatest)\b", re.IGNORECASE)
_PERIOD_STEMS = frozenset(w.stem(x) for x in (
    "hour day week fortnight month quarter year season term night session lesson visit "
    "tonne ton kilo kg litre liter gallon unit item head piece".split()))
_LIGHT_STEMS = frozenset(w.stem(x) for x in (*_LIGHT_VERBS, "have", "has", "had", "put"))
_ADVERBS_STEMS = frozenset(w.stem(x) for x in (*_ADVERBS, *_PARTICLES, "away", "ago"))


def _aside(value: str, text: str) -> bool:
    """Whether a value is said only in an aside of its fact ("a black cat who is nine",
    "winter tires on the Niro at the Kia dealer")."""
    said = frozenset(_stem(t) for t in _TOKEN.findall(value.strip("'"))
                     if t[:1].isalpha() and t.lower() not in w.STOP)
    return bool(said) and said <= about(text).hidden


def _money_or_reading(n: Reading, o: Reading, old: str, new: str) -> bool:
    old, new = old.strip("'"), new.strip("'")
    units = frozenset().union(*(u for v, u in (*n.numbers, *o.numbers) if v in (old, new)))
    return bool(units & {"money", "distance"}) and w.is_number(old) and w.is_number(new)


def _amounts(n: Reading, o: Reading, tn: str, to: str) -> Aside | None:
    """An amount supersedes only an amount of the same thing, stated as a standing value."""
    event_n = bool(_EVENT.search(tn)) and not _STANDING.search(tn)
    event_o = bool(_EVENT.search(to)) and not _STANDING.search(to)
    tn, to = _TAXED.sub(" ", tn), _TAXED.sub(" ", to)  # "a month before tax": no tax
    a, b = about(tn), about(to)
    units = frozenset().union(*(u for _, u in (*n.numbers, *o.numbers)))
    kinds = {k for k, _ in n.families} & {k for k, _ in o.families}
    if _BOUND.search(tn):  # "now that petrol is over $180": a bound, no value
        return Aside("amount is a bound, not a value", False)
    names_n, names_o = _names(tn), _names(to)
    names = names_n | names_o  # "SGI covered it" names SGI in "SGI registration" too
    if not _written(tn, _things(a, names, tn)) & _written(to, _things(b, names, to)) \
            - _written(tn + " " + to, units | _SLOT_LABELS | _PERIOD_STEMS):
        # "Insurance for the Crosstrek is $142 a month" / "Oil change on the Crosstrek: $89"
        return Aside("amount is of another thing",
                     not (event_n or event_o) or bool(kinds) and not event_o)
    if _kinds_apart(_things(a, names, tn) & _things(b, names, to), tn, to):
        # "House insurance ... 6,100 a year" / "Car insurance ... 5,200 a year"
        return Aside("amounts are of two kinds of the thing", True)
    if names_n & a.asides - names_o and names_o & b.asides - names_n and not n.now:
        # "the water bill in Kilimani" / "my water bill in Nakuru": two places' bills
        return Aside("amounts are of the same thing in other places", True)
    same = (a.heads - a.verbs) & (b.heads - b.verbs) - _SEASONS
    if not (event_n or event_o):
        return None
    # a one-off event's amount may tell a standing value changed ("bought ... with 48,000
    # km" after "drive a Forester with 210,000 km"): offered; two events never relate
    offer = not event_o and bool(same or kinds)
    return Aside("amount is a one-off event's, not a standing value", offer)


def _kinds_apart(things: Stems, tn: str, to: str) -> bool:
    """Whether every thing two facts share is qualified in each by words the other lacks
    ("the equipment loan payment" / "the SBA loan payment")."""
    def apart(x: str) -> bool:
        mine, theirs = _modifiers(tn, x), _modifiers(to, x)
        return bool(mine) and bool(theirs) and not (mine <= theirs or theirs <= mine)
    return bool(things) and all(map(apart, things))


_TAXED = re.compile(r"\b(?:before|after|pre|post)[- ]tax\b", re.IGNORECASE)


def _names(text: str) -> Stems:
    """The stems of the words a text writes capitalised inside a sentence, and of its
    acronyms: names."""
    text = text.replace("\u2019", "'")
    return frozenset(_stem(m.group()) for m in (*_INNER_NAME.finditer(text),
                                                 *_ACRONYM.finditer(text)))


def _written(text: str, stems: Stems) -> Stems:
    """The words of a text that `stems` holds, as written (inflections folded, synonyms
    not): an amount for "the Gajowa flat" is not one for "our home internet", though the
    judge's lexicon reads a flat as a home."""
    found = set()
    for x in _TOKEN.findall(text.replace("\u2019", "'")):
        if (s := _stem(x)) in stems:  # a wage, a salary, what one earns: one thing
            found.add(s if s in _PRICE_NOUNS else w.plain_stem(x.lower()))
    return frozenset(found)


_ACRONYM = re.compile(r"\b[A-Z]{2,5}\b")


def _things(a: About, names: Stems, text: str) -> Stems:
    """The nouns a fact is about that name a thing, not its owner or place: no name ("the
    CX-3 windscreen" is a windscreen), no light word, no verb but one that names a standing
    amount itself ("I rent", "earns"; "I pay $1,100 for Netflix" pays no salary)."""
    kept = _AMOUNT_VERBS - ({w.stem("earn")} if _PAYING.search(text) else set())
    priced = a.asides & _PRICE_NOUNS  # "I pay $1,450 a month in rent"
    owners = frozenset(_stem(m.group(1)) for m in _OWNER.finditer(text))  # "the van's belt"
    return (a.named | priced) - (a.verbs - a.subjects - kept) - names - owners - _LIGHT_STEMS


_OWNER = re.compile(r"\b([\w-]+)'s\b")


_AMOUNT_VERBS = frozenset(w.stem(x) for x in ("rent", "earn", "weigh"))
_PRICE_NOUNS = frozenset(w.stem(x) for x in (
    "rent salary wage fee price rate mortgage insurance premium allowance membership "
    "subscription tuition fare".split()))
_PAYING = re.compile(r"\b(?:pay|pays|paid|paying|spend|spends|spent)\b", re.IGNORECASE)


_INNER_NAME = re.compile(r"(?<=[\w,'$%)] )[A-Z][\w'-]*")
_BOUND = re.compile(r"\b(?:over|above|under|below|more\s+than|less\s+than|at\s+least|at\s+most"
                    r"|nearly|almost|upwards\s+of)\s+[$€£¥₹₪]?\d", re.IGNORECASE)


def _told_before(tn: str, old: Fact) -> bool:
    """Whether the newer fact dates what it tells to a year before the older fact's day."""
    years = [int(y) for y in _WHEN_YEAR.findall(tn)]  # "in April 2018", not "a 2020 Niro"
    return old.day is not None and bool(years) and max(years) < old.day.year


_WHEN_YEAR = re.compile(r"\b(?:in|during|back\s+in)\s+(?:[A-Z][a-z]+\s+)?((?:19|20)\d\d)\b")
_AHEAD = re.compile(r"\b(?:in\s+the\s+new\s+year|later\s+this\s+(?:year|month|spring|summer|autumn"
                    r"|fall|winter)|in\s+a\s+(?:few|couple\s+of)\s+(?:weeks|months)|soon)\b",
                    re.IGNORECASE)


def _view_left(reason: str, to: str) -> bool:
    """Whether a rule's reason reverses a view, or leaves what the older view is about
    ("would rather play the guitar" / "switched from guitar to drums")."""
    rule = rule_of("rules", reason)
    found = _quoted(reason)
    return rule == "opinion" or rule == "moved" and bool(found) and not _JUDGED.search(to) \
        and bool(_said(found[0]) & about(to).heads)  # not "the best kenkey in Kumasi"


def _other_person(n: Reading, tn: str, o: Reading, to: str) -> bool:
    """Whether one fact is said of oneself ("I work as a consultant") and the other of
    someone it names ("Chebet is a demanding manager"), though both tag @me."""
    mine_n, mine_o = bool(_FIRST_PERSON.match(tn)), bool(_FIRST_PERSON.match(to))
    theirs, text = (o.about, to) if mine_n else (n.about, tn)
    first = _TOKEN.findall(text)[:1]
    return mine_n != mine_o and "me" not in theirs and bool(first) and _stem(first[0]) in theirs


_FIRST_PERSON = re.compile(r"\s*(?:I|I'm|I've|I'd|I'll|We|We're|We've)\b")


_BY_RULE = {"opinion": _opinion, "ended": _ended, "changes": _changes, "value": _value,
            "moved": _moved}


def settle(new: Fact, old: Fact, n: Reading, o: Reading, reason: str) -> Verdict | None:
    """The verdict on a supersede a rule found (`reason`): evidence.settle's, unless that
    makes it by itself and the thing it says changed is not what both facts are about —
    then offered, or None (weighed as no change).  The facts are read as written: a
    Reading's text has its contractions expanded ("the RAV4's beeps": "the RAV4 is beeps")."""
    made = evidence.settle(old.id, n, o, reason)
    if made is None or not made.supersedes or lexicon_of(n.text) or lexicon_of(o.text):
        return made
    check = _BY_RULE.get(rule_of("rules", reason))
    tn, to = new.content, old.content
    aside = check(n, o, tn, to, reason) if check else None
    if aside is None and _told_before(tn, old):  # "Nomvula and I married in April 2018"
        aside = Aside("newer fact tells of a time before the older fact", False)
    if aside is None and _AHEAD.search(tn):  # "are moving to São Paulo in the new year"
        aside = Aside("newer fact tells what is ahead", True)
    if aside is None and rule_of("rules", reason) == "value" and _other_person(n, tn, o, to):
        aside = Aside("two facts are about different subjects", True)
    if aside is None and (o.kind == "opinion") != (n.kind == "opinion") \
            and not _view_left(reason, to):
        # "The Snowbirds are the best thing about living in Moose Jaw" / "moved from Moose
        # Jaw": a view is not a state a change of state ends, nor a view a change of state
        aside = Aside("one fact is a view, the other a state", True)
    if aside is None:
        return made
    return Verdict(old.id, False, f"{reason}, but the {aside.why}", offer=True) \
        if aside.offer else None


__all__ = ["About", "Aside", "about", "settle"]
