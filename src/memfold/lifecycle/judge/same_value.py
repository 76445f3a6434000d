"""Whether a value or an amount a rule says changed is one slot's in both facts.

An amount supersedes only an amount of the same thing — a noun both facts are about, as
written (a flat is not a home internet), not an owner's name ("the van's"), a place, a
period or a verb of paying — stated as a standing value (a rent, a salary, a rate), never a
one-off event's (a bill, a price paid, a sales total, a year's figure), a bound ("over
$180"), another kind of it ("the car loan" / "the student loan") or the same thing in two
places.  A value is no slot's when its label is only a name, when it is said in an aside,
tells what befell the subject ("was offered a job"), judges ("the best manager"), is two
years, is measured in other units, names the old value and more ("two clients now: Harbor
and Lumen"), is a one-word condition of a thing ("fine"), or is said of someone else.  An
experience's sum or duration is what that event came to ("made an offer of S/ 495,000"),
offered, unless it says the standing amount moved ("went up to").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from memfold.lifecycle.judge import evidence
from memfold.lifecycle.judge import words as w
from memfold.lifecycle.judge.about import (
    _ADVERBS,
    _AUX,
    _CLAUSE,
    _LIGHT_VERBS,
    _PARTICLES,
    _PREPOSITIONS,
    _TOKEN,
    About,
    _content,
    _stem,
    about,
)
from memfold.lifecycle.judge.reading import Reading, Stems
from memfold.lifecycle.judge.slots import SINGLE_VALUED

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


def _modifiers(text: str, head: str, named: bool = False) -> Stems:
    """The words that qualify a noun where a text names it ("our household account":
    household; "an Easy Equities account": easy, equiti); with `named`, only the names that
    do ("Ruahine Street": ruahin)."""
    tokens = _TOKEN.findall(text.replace("\u2019", "'"))
    found: set[str] = set()
    for i, token in enumerate(tokens):
        if _stem(token) == head and not (named and token[:1].islower()):  # "Ruahine Street"
            for before in reversed(tokens[:i]):
                if not _content(before) or before.lower() in _PREPOSITIONS | _AUX \
                        or named and not before[:1].isupper():
                    break
                found.add(_stem(before))
    return frozenset(found) - _RECURRING


# words that say how often or which one, not what kind: "its monthly membership fee"
_RECURRING = frozenset(w.stem(x) for x in (
    "monthly weekly yearly annual daily nightly new old current usual regular own standard "
    "normal basic full".split()))


def _value(n: Reading, o: Reading, tn: str, to: str, reason: str) -> Aside | None:
    m = _VALUE.match(reason)
    if m is None:
        return None
    if _money_or_reading(n, o, m.group("old"), m.group("new")):
        return _amounts(n, o, tn, to) or _event_amount(n, tn, m)
    said = _Said(n, o, tn, to, m.group("label"), m.group("old"), m.group("new"))
    return next((aside for check in _VALUE_CHECKS if (aside := check(said)) is not None),
                None) or _event_amount(n, tn, m)


# an experience that tells a standing amount changed, or what it is now: "went up to £745",
# "put the flat white up to S$7.20", "a bag costs GHS 260"
_AMOUNT_TOLD = re.compile(r"\b(?:up|down|now|rose|risen|fell|fallen|increased|raised|cut|dropped|"
                          r"reduced|costs|charges|pays|is|are)\b", re.IGNORECASE)
_DIGITS = re.compile(r"[\d.,]+")


def _event_amount(n: Reading, tn: str, said: re.Match[str]) -> Aside | None:
    """An experience whose sum or duration is what that one event came to ("made an offer
    of S/ 495,000", "did six hours of overtime", "first mortgage payment of S/ 3,610"),
    not a standing amount it says changed: offered.  Read after the other checks, whatever
    they leave (`_amounts` reads an event by its words: "paid", "bill", "sold")."""
    label = said.group("label")
    if n.kind == "experience" and _DIGITS.fullmatch(said.group("old")) \
            and _DIGITS.fullmatch(said.group("new")) \
            and (label == "money" or "duration" in label) and not _AMOUNT_TOLD.search(tn):
        return Aside("amount is what one event came to, not a standing value", True)
    return None


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
    if _BILLED.search(s.label) and re.search(r"\d", s.old) and re.search(r"\d", s.new):
        # "Electricity bill: '214' became '196'": two bills
        return Aside("values are two bills, of two periods", False)
    return None


_BILLED = re.compile(r"\b(?:bills?|invoices?|receipts?|statements?)\b", re.IGNORECASE)


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
    if named(s.old) and named(s.old) < named(s.new) and _LISTED.search(s.tn):  # "A and B"
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
    if owned and not _said(owned[0].replace("-", " ")) & _said(s.to.replace("-", " ")):
        return Aside("thing valued is not one the older fact names", False)
    if not shared or shared & about(s.tn).named & about(s.to).named:
        return None
    return Aside("thing valued is not what both facts are about", False)


_LISTED = re.compile(r"\b(?:and|&|both)\b", re.IGNORECASE)
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


def _said_by_another(s: _Said) -> Aside | None:
    """A value said in a clause of someone else ("Des and I have split up; he's moving to
    Nelson") is not the value of a fact said of oneself ("I now live at 3 Tōtara Street")."""
    said = _said(s.new)
    for clause in _CLAUSE.split(s.tn.replace("\u2019", "'")):
        if said and said <= _said(clause) and _THIRD.match(clause) and _FIRST_PERSON.match(s.to):
            return Aside("newer value is said of someone else", False)
    return None


_THIRD = re.compile(r"\s*(?:and\s+|but\s+|so\s+)?(?:he|she|they|he's|she's|they're)\b",
                    re.IGNORECASE)


_VALUE_CHECKS = (_in_aside, _befell, _periods, _judged, _measures, _still_named, _condition,
                 _said_by_another, _slot)


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
            found.add(s if s in _PRICE_NOUNS else w.plain_stem(re.sub(r"'s$", "", x.lower())))
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


# an owner ("the van's clutch"), not "'s" for "is" or "has" ("Zeplin's gone")
_OWNER = re.compile(r"\b([\w-]+)'s\b(?!\s+(?:gone|been|got|not|now|still|over|done|back|off|out"
                    r"|up|down|a|an|the|no|on|in|at|with|left|moved|closed|finished)\b)")


_AMOUNT_VERBS = frozenset(w.stem(x) for x in ("rent", "earn", "weigh"))
_PRICE_NOUNS = frozenset(w.stem(x) for x in (
    "rent salary wage fee price rate mortgage insurance premium allowance membership "
    "subscription tuition fare".split()))


_PAYING = re.compile(r"\b(?:pay|pays|paid|paying|spend|spends|spent)\b", re.IGNORECASE)
_INNER_NAME = re.compile(r"(?<=[\w,'$%)] )[A-Z][\w'-]*")
_BOUND = re.compile(r"\b(?:over|above|under|below|more\s+than|less\s+than|at\s+least|at\s+most"
                    r"|nearly|almost|upwards\s+of)\s+[$€£¥₹₪]?\d", re.IGNORECASE)


_FIRST_PERSON = re.compile(r"\s*(?:I|I'm|I've|I'd|I'll|We|We're|We've)\b")
