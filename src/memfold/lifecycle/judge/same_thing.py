"""Whether a supersede a rule found changes the same thing in both facts (`settle`).

`settle` lets a rule's supersede stand by itself only when the thing it says changed is
among what both facts are about (judge.about reads that); else the pair is offered (a
conflict, left active) when that thing is at least named in both, or weighed as no change.
Values and amounts are weighed by judge.same_value.  What ended is not the doer of an end
that names its object, an owner, an accident, sales of some, a fall to a new amount, some of
a kind leaving, nor a parting's other states; a move is not a return from a trip, "instead
of" without a change, nor a repair under warranty; a change needs the older fact to hold
what it left; a view and a state, two periods' records, a fact dated before the older one
and one telling what is ahead are offered.  Nor is a record of one period replaced, nor one
observation by another (each tells of its own time); a repair is no change unless the older
fact says the thing was broken, and what ends is the thing a word qualifies ("my bus pass"),
not the word ("on the bus").  Only the judge's English readings are weighed: a language
read by its lexicon table keeps its rules.
"""

from __future__ import annotations

import re

from memfold.journal.events import rule_of
from memfold.lifecycle.judge import evidence
from memfold.lifecycle.judge import words as w
from memfold.lifecycle.judge.about import (
    _ADVERBS,
    _AUX,
    _CONJUNCTIONS,
    _PREPOSITIONS,
    _PRONOUNS,
    _RELATIVE,
    _TOKEN,
    _VERBS,
    _content,
    _stem,
    about,
)
from memfold.lifecycle.judge.base import Verdict
from memfold.lifecycle.judge.pieces import others_apart
from memfold.lifecycle.judge.readers import lexicon_of
from memfold.lifecycle.judge.reading import Reading, Stems
from memfold.lifecycle.judge.same_value import (
    _FIRST_PERSON,
    _JUDGED,
    _OWNER,
    Aside,
    _modifiers,
    _quoted,
    _said,
    _value,
    _written,
)
from memfold.values import Fact


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


def _two_views(new: Fact, old: Fact, o: Reading, reason: str) -> Aside | None:
    """An opinion reversed only of the same entity ("Priya's the best dispatcher" @Priya /
    "Marco's a decent dispatcher after all" @Marco), and turned to an antonym only from a
    stated liking ("likes working late at night" / "prefers mornings now"; not "CPAP is
    working, less foggy in the morning" / "don't like nights anymore")."""
    if others_apart(new, old):
        return Aside("opinions are of two entities", True)
    if reason.startswith("the opinion turned") and not o.polarity:
        return Aside("older fact states no liking to turn from", True)
    return None


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
    if thing and thing <= {_stem(x) for x in _OWNER.findall(tn)} \
            and not _DWELLING_OWNED.search(tn):  # "Sold Dad's Honda Jazz", not "her sister's place"
        return Aside("thing said to end only owns what ended", False)
    if any((mine := _modifiers(tn, x, named=True)) and (theirs := _modifiers(to, x, named=True))
           and not mine & theirs for x in thing):  # "Ruahine Street" / "at Tōtara Street"
        return Aside("thing said to end is another of its kind", False)
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
    if _AWAY.search(tn):  # "left on a three-week research cruise", "ended for the term"
        return Aside("newer fact tells a time away, not an end", True)
    if any(thing <= c.old for c in o.changes):  # "replaced the Corolla with a Skoda" / "Sold
        return Aside("older fact already tells it left that", False)  # the old Corolla"
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
        doers, others = {d for v, d in a.acts if v == verb}, {d for v, d in b.acts if v == verb}
        if others and not doers & others:
            return Aside("activity said to end is another doer's", False)
    # "cancelled my bus pass" / "podcasts on the bus": what ended is the pass, unless the
    # older fact too names the bus only to qualify something ("drives a bus route")
    held = _qualified(tn, found[0], a.heads - a.verbs)
    if held and held not in _said(to) and held not in _TIES \
            and not _qualified(to, found[0].split()[-1]):
        return Aside(f"thing said to end only qualifies what ended ({held!r})", False)
    return None


_NOT_NOUNS = _PREPOSITIONS | _CONJUNCTIONS | _ADVERBS | _AUX | _PRONOUNS | _RELATIVE | frozenset(
    "anymore again too either ago today tonight yesterday tomorrow altogether instead anyway "
    "alone".split())
# what one holds with a thing, so that ending it ends one's tie to that thing: "cancelled my
# Atlas Fitness membership" ends going to Atlas Fitness, "gave up the Leith flat" living there
_TIES = frozenset(_stem(x) for x in (
    "membership subscription contract lease tenancy account plan policy job role position "
    "flat house apartment home place room office studio cottage condo "
    "cluster server servers instance instances deployment setup installation search "
    "hunt".split()))


def _qualified(text: str, said: str, heads: Stems | None = None) -> str | None:
    """The noun that `said`, a common noun, only qualifies wherever the text names it: "the
    Poljud kayak club" gives club for kayak, "my bus pass" pass for bus; None where it is a
    head once, is a name or a verb, or is not written as one phrase.  With `heads`, only a
    noun among them (what the text is about) counts."""
    words = _TOKEN.findall(said)
    spaced = re.sub(r"\s+", " ", text.replace("\u2019", "'")).lower()
    if not words or " ".join(words).lower() not in spaced:
        return None  # "left Alan and runs his own design consultancy": two words apart
    last, found = _stem(words[-1]), set()
    if last in _VERBS or last in about(text).verbs or words[-1][:1].isupper():
        return None  # "only drinks rooibos now": a verb qualifies nothing; "the Moseley Road
        # pool closed": a name tells which pool, the place the older fact names
    tokens = [t for part in re.split(r"[,;:.!?()]", text.replace("\u2019", "'"))
              for t in (*_TOKEN.findall(part), ",")]
    for i, token in enumerate(tokens):
        if _stem(token) != last:
            continue
        after = tokens[i + 1:i + 4]
        while after and after[0][:1].isupper():  # "Eiger Trail hike": the name goes on
            after = after[1:]
        if not (after and after[0].isalpha() and after[0].islower() and _content(after[0])
                and after[0] not in _NOT_NOUNS and not after[0].endswith("ly")
                and (heads is None or _stem(after[0]) in heads)
                and after[1:2] not in (["up"], ["off"], ["out"], ["down"], ["away"])):
            return None  # "Mateo broke up", "stopped using Notion altogether"
        found.add(_stem(after[0]))
    return min(found) if len(found) == 1 else None


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
_AWAY = re.compile(r"\bleft\s+(?:on|for)\s+(?:a|an|the|his|her|their|my|our)\s+(?:[\w-]+\s+){0,3}?"
                   r"(?:trip|cruise|holiday|tour|vacation|visit|retreat|course|conference|voyage"
                   r"|expedition|deployment|placement|break)\b|\bfor\s+the\s+(?:term|summer|season"
                   r"|holidays|winter|break)\b|\bclosed\b[^.;]*\b(?:early|for\s+the\s+(?:day|"
                   r"afternoon|morning|evening|weekend))\b", re.IGNORECASE)


_DOWN_TO = re.compile(r"\b(?:dropped|fell|went\s+down|came\s+down|cut|reduced|lowered|shrank)"
                      r"\s+to\s+(?:about\s+|around\s+|just\s+)?[$€£]?\d", re.IGNORECASE)


_BONDS = frozenset(w.stem(x) for x in (*w.RELATIONSHIP, "friend", "friends", "friendship"))


def _one_of_many(thing: Stems, tn: str, to: str) -> bool:
    """Whether the newer fact sold one of a kind ("sold a French carriage clock") that the
    older names as many ("restores antique clocks")."""
    sold = re.search(r"\bsold\s+(?:a|an|one)\s+((?:[\w-]+\s+){0,3}[\w-]+)", tn, re.IGNORECASE)
    return sold is not None and any(
        _stem(word) in thing and re.search(rf"\b{re.escape(word)}e?s\b", to, re.IGNORECASE)
        for word in sold.group(1).split())


_COUNTED = re.compile(r"\s*(?:\d+|two|three|four|five|six|seven|eight|nine|ten|a\s+few|several|"
                      r"some|many)\s+\w+", re.IGNORECASE)


_DWELLING_OWNED = re.compile(r"'s\s+(?:place|flat|house|home|apartment|room|sofa)\b", re.IGNORECASE)
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
    if thing and not _written(tn, thing) & _written(to, thing):  # "a mobile home" / "phone"
        return Aside("thing said to change is not written alike in both facts", True)
    head = next(iter(thing)) if len(thing) == 1 else ""
    if head and (mine := _modifiers(tn, head)) and (theirs := _modifiers(to, head)) \
            and not mine & theirs:
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
    if _REPLACED_BARE.search(tn) or _PART_REPLACED.search(tn):  # "replaced under warranty",
        return Aside("replacement is a repair, not a change", False)  # "valve replaced on the"
    if _REGRET.search(tn):  # "starting to regret buying the Trafic instead of a Transit"
        return Aside("newer fact looks back on a choice", True)
    owned = _OWNED_SUBJECT.match(tn)  # "Dad's eye injections have moved from the hospital"
    if owned and not _said(owned.group(1)) & _said(to):
        return Aside("what moved is what the one named has", False)
    return None


_REPLACED_BARE = re.compile(r"\breplaced\b(?![^.;]*\b(?:with|by)\b)(?=[^.;]*\b(?:under\s+warranty|"
                            r"for\s+free|at\s+no\s+cost|free\s+of\s+charge)\b)", re.IGNORECASE)


_PART_REPLACED = re.compile(r"\breplaced\s+(?:on|in|at)\s+(?:the|my|our|his|her)\b", re.IGNORECASE)
# "Had the Piaggio's rear tyre replaced on Hvar": a repair, which changes only what was broken
_REPAIRED = re.compile(r"\b(?:had|got)\s+(?:[\w'’-]+\s+){1,5}?(?:replaced|fixed|repaired|"
                       r"serviced)\b(?![^.;]*\b(?:with|by)\b)", re.IGNORECASE)
_BROKEN = re.compile(r"\b(?:broken|broke|cracked|damaged|leak\w*|faulty|dead|dying|worn|flat|"
                     r"stopped\s+working|not\s+working|needs?\s+(?:a\s+)?(?:new|replac\w+|repair))\b",
                     re.IGNORECASE)
_REGRET = re.compile(r"\b(?:regret\w*|wish\s+(?:I|we)\s+had|should(?:n't|\s+not)?\s+have)\b",
                     re.IGNORECASE)


_RETURNED = re.compile(r"\breturn(?:ed|ing|s)\b", re.IGNORECASE)
_CHOICE = re.compile(r"\b(?:instead\s+of|rather\s+than|in\s+place\s+of)\b", re.IGNORECASE)
_CHANGE_SAID = re.compile(r"\b(?:now|these\s+days|ha(?:s|ve)\s+been\s+\w+ing|nowadays|any\s*more|"
                          r"no\s+longer|switched|"
                          r"started|starting|began|begun|since|from\s+now\s+on|replaced|"
                          r"changed|moved|from\s+(?:this|next|now|(?:jan|feb|mar|apr|may|jun|"
                          r"jul|aug|sep|oct|nov|dec)\w*))\b", re.IGNORECASE)


_MONTHS = ("january|february|march|april|may|june|july|august|september|october|november"
           "|december|spring|summer|autumn|fall|winter")


# a record of one period: "The July power bill", "our winter electricity bill"
_DATED = re.compile(rf"\b(?:the|our|my|this|last)\s+((?:{_MONTHS}))\s+(?!\d)\w+", re.IGNORECASE)


def _dated(text: str) -> str:
    m = _DATED.search(text)
    return m.group(1).lower() if m else ""


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


def _status(n: Reading, o: Reading, tn: str, to: str, reason: str) -> Aside | None:
    """A status said of what someone has ("Anouk's Employment Pass was approved") is that
    thing's, not a status of theirs the older fact holds ("Anouk and I are engaged")."""
    owned = _OWNED_SUBJECT.match(tn)
    if owned and not _said(owned.group(1)) & _said(to):
        return Aside("status is of what the one named has", False)
    return None


_OWNED_SUBJECT = re.compile(r"\s*(?:the\s+)?[A-Z][\w-]*'s\s+((?:[\w-]+\s+){0,3}?[\w-]+)\s+"
                            r"(?:is|are|was|were|has|have|had|got)\b")


_BY_RULE = {"opinion": _opinion, "ended": _ended, "changes": _changes, "value": _value,
            "moved": _moved, "status": _status}


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
    if aside is None and _dated(to) and _dated(tn) and _dated(to) != _dated(tn):
        # "The July power bill was $268" / "The September power bill was $96"
        aside = Aside("facts are records of two periods", False)
    if aside is None and _dated(to) and not _dated(tn) and rule_of("rules", reason) != "status":
        # "The January power bill was $184 from Genesis" / "switched from Genesis to Octopus"
        aside = Aside("older fact is a record of one period", False)
    if aside is None and o.kind == n.kind == "observation" and rule_of("rules", reason) != "status":
        # "February brought 31 orders" / "March had 44 orders": each summary tells of its time
        aside = Aside("facts are two observations, each of its own time", True)
    if aside is None and (o.kind == "observation") != (n.kind == "observation") \
            and rule_of("rules", reason) != "status":
        # "Summer: new car, remortgage sorted" / "Car's a 2023 Kia Niro": a summary of a
        # time sums it up; it neither gives a slot's value nor is a state a change ends (a
        # status that moved on, "waiting on review" / "approved", still supersedes)
        aside = Aside("one fact is an observation of its own time", True)
    if aside is None and _STILL.search(tn) and rule_of("rules", reason) == "value":
        aside = Aside("newer fact says it still holds", True)  # "is still S$58 after"
    if aside is None and (_PART_REPLACED.search(tn) or _REPAIRED.search(tn)
                          and not _BROKEN.search(to)):  # "Clutch replaced on the van": a repair
        aside = Aside("replacement is a repair, not a change", False)
    if aside is None and _told_before(tn, old):  # "Nomvula and I married in April 2018"
        aside = Aside("newer fact tells of a time before the older fact", False)
    if aside is None and _AHEAD.search(tn):  # "are moving to São Paulo in the new year"
        aside = Aside("newer fact tells what is ahead", True)
    if aside is None and rule_of("rules", reason) == "value" and _other_person(n, tn, o, to):
        aside = Aside("two facts are about different subjects", True)
    if aside is None and rule_of("rules", reason) == "opinion":
        aside = _two_views(new, old, o, reason)
    if aside is None and (o.kind == "opinion") != (n.kind == "opinion") \
            and not _view_left(reason, to):
        # "The Snowbirds are the best thing about living in Moose Jaw" / "moved from Moose
        # Jaw": a view is not a state a change of state ends, nor a view a change of state
        aside = Aside("one fact is a view, the other a state", True)
    if aside is None:
        return made
    return Verdict(old.id, False, f"{reason}, but the {aside.why}", offer=True) \
        if aside.offer else None


__all__ = ["settle"]
