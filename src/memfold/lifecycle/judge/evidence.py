"""Whether a supersede the rules found has the evidence to be made by itself.

A rule in judge.rules finds that a newer fact replaces an older one from a reading of the
two: a value of a slot, a change, an end.  On a year of one person's memory, retained day by
day, most of its mistakes share a shape: the two facts speak of different things that a
rule took for one — an amount for another purpose, a vehicle of another kind, another
person's move, a value that is no value of the slot, a thing that shares only a common noun
with the older fact.  `doubt` weighs a found supersede against these and says what is
missing: then the pair is either no change at all (`offer` False: nothing for a person to
look at) or a change the judge cannot make by itself (`offer` True: a conflict, left active).

    subject    the newer fact is about another entity than the older one ("Rania moved to
               Chicago" is not where we live);
    part       the older fact states more than one thing (clauses split by ";") and the
               newer one touches only what follows its first: retiring it would retire the
               present state it opens with, which the newer fact never spoke of ("We have a
               2014 Ford Focus; I drive it to school");
    amount     two amounts of money in different roles: a one-off price against a rate per
               month, a limit ("pre-approved for up to") against what was taken, two one-off
               payments for different things, an amount borrowed against one that is none
               ("car loan: ₹10 lakh" / "₹17.8 lakh on-road": offered);
    kind       two vehicles of different kinds (a motorcycle, a car);
    place      a place slot whose value names no place ("heated by a gas boiler");
    event      a value told in an event, or an opinion after another, that says no change,
               end or "now" ("Paid $60 for plot 7"): offered;
    changed    a change of something the older fact does not give a value for, or of the
               person itself ("Mum moved to the rehab ward"), or of a thing named after
               another ("raised the Kilimani rent" / "the Kilimani lease"): offered;
    ended      an end of another thing that shares a common noun ("the road over Three Mile
               Hill" / "just down the road"), an end said only in a clause of time ("after
               her shop closed"), an end kept to some times ("stop coffee after lunch"),
               or damage ("the screen shattered"), which ends nothing by itself: offered
               where it may be an end;
    status     an outcome of a thing named otherwise ("the Kowalski's pool permit" / "my
               permit for the shed is pending");
    agreed     a change the older preference already wanted ("would rather play cello than
               violin" / "switched from violin to cello").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memfold.journal.events import rule_of
from memfold.lifecycle.judge import heads, holders
from memfold.lifecycle.judge import words as w
from memfold.lifecycle.judge.base import Verdict
from memfold.lifecycle.judge.readers import lexicon_of
from memfold.lifecycle.judge.reading import Change, Reading, Stems
from memfold.names import entity_key


@dataclass(frozen=True)
class Doubt:
    """What a found supersede lacks: `why` (read after the rule's reason, ", but the ...")
    and whether the pair is still worth a person's look (`offer`)."""

    why: str
    offer: bool


_GENERIC = w.GENERIC_STEMS


def _stems(text: str) -> Stems:
    """The stems of a text's words, possessives folded ("the cottage's sink": cottage)."""
    return frozenset(w.stem(re.sub(r"['’]s$", "", t.lower())) for t in w.TOKEN.findall(text))


def _content(text: str) -> Stems:
    return frozenset(x for x in _stems(text) - _GENERIC if x not in w.STOP and not w.is_number(x))


def _lower(text: str) -> Stems:
    """The stems of the words written all in small letters: common nouns, not names."""
    return frozenset(w.stem(re.sub(r"['’]s$", "", t)) for t in w.TOKEN.findall(text) if t.islower())


def _phrases(text: str) -> list[Stems]:
    """The names a text writes, each a run of capitalised words inside a clause ("City of
    Dunedin Choir"); a clause's first word is capitalised for the clause, not a name."""
    found: list[Stems] = []
    for clause in re.split(r"[;:.!?]\s+|,\s+", text):
        run: list[str] = []
        tokens = [*w.TOKEN.findall(clause)[1:], ""]
        for i, t in enumerate(tokens):
            if t[:1].isupper() or (run and t in ("of", "the") and tokens[i + 1][:1].isupper()):
                run.append(w.stem(re.sub(r"['’]s$", "", t.lower())))
            elif run:
                found.append(frozenset(run) - {"of", "the"})
                run = []
    return found


def _in_other_names(shared: Stems, n: Reading, o: Reading) -> bool:
    """Whether each shared word stands in a name of each fact, and the names differ ("the
    Town Hall tuning" / "the City of Dunedin Choir"): two things, not one."""
    whose = _stems(" ".join(n.about | o.about).replace("-", " "))  # "Oren's Forerunner"
    mine, theirs = [p - whose for p in _phrases(n.text)], [p - whose for p in _phrases(o.text)]
    small = _lower(n.text) | _lower(o.text)  # "team" written small too: not only a name's
    for x in shared:
        a, b = [p for p in mine if x in p], [p for p in theirs if x in p]
        if x in small or not (a and b) or any(p <= q or q <= p for p in a for q in b):
            return False
    return bool(shared)


def _named_once(shared: Stems, n: Reading, o: Reading) -> bool:
    """Whether every shared word is a name's in one fact and a common noun in the other
    ("I run Southern Keys" / "got the keys to the house")."""
    names_n, names_o, lower_n, lower_o = _names(n.text), _names(o.text), _lower(n.text), \
        _lower(o.text)
    return bool(shared) and all(
        (x in names_o and x not in lower_o and x in lower_n and x not in names_n)
        or (x in names_n and x not in lower_n and x in lower_o and x not in names_o)
        for x in shared)


def _topic(a: Stems, b: Stems) -> Stems:
    return frozenset(x for x in (a & b) - _GENERIC if not w.is_number(x))


def _names(text: str) -> Stems:
    """The stems of the words written with a capital inside a sentence: names ("Three Mile
    Hill", "Chislett Street"), not the first word of a clause."""
    found: set[str] = set()
    for clause in re.split(r"[;:.!?]\s+|,\s+", text):
        tokens = w.TOKEN.findall(clause)
        found.update(w.stem(t.lower()) for t in tokens[1:] if any(map(str.isupper, t))
                     and t[:1].isalpha()
                     and t.lower() not in ("i", "i'm", "i've", "i'd", "i'll"))
    return frozenset(found)


# -- qualifier ----------------------------------------------------------------------------

def _qualifier_only(n: Reading, o: Reading) -> Doubt | None:
    """Every common noun the two facts share stands in the older one only before another
    noun, which the newer fact lacks ("the signals division" / "the old signals"; "crossing
    heaters" / "crossing gates"), or in the newer one only before a role ("our new signal
    supervisor" / "the old signals"): the thing of that fact is the noun it qualifies."""
    shared = _topic(n.words, o.words)
    common = shared & (_lower(n.text) | _lower(o.text))
    if not common:
        return None
    # a qualifier of the older fact's attribute names its slot ("Our broadband provider is
    # Sky" / "switched broadband to Cuckoo"): only one in what it says of it is set apart
    theirs = {x: h for x, h in heads.qualifiers(o.text).items() if x not in o.attr}
    # in the newer fact, only a word that qualifies a person's role: "our new signal
    # supervisor" is a person, not signals ("email provider", "membership fee" are the
    # older thing's own: a provider of email, what the membership costs)
    mine = {x: h for x, h in heads.qualifiers(n.text).items() if h <= holders.ROLE_STEMS}
    told_n, told_o = n.words | _stems(n.text), o.words | _stems(o.text)

    def qualifies(x: str) -> bool:
        return (x in theirs and not theirs[x] & told_n) or (x in mine and not mine[x] & told_o)

    rest = shared - common
    if all(map(qualifies, common)) and (not rest or _in_other_names(rest, n, o)):
        return Doubt("shared word only qualifies another thing", offer=False)
    return None


# -- subject ------------------------------------------------------------------------------

def _other_subject(n: Reading, o: Reading) -> Doubt | None:
    """The newer fact begins with the name of someone else, and the older fact is about the
    user and does not name them ("Rania moved to Chicago" / "The new house is heated by")."""
    first = next(iter(w.TOKEN.findall(n.text)), "")
    if first[:1].isupper() and entity_key(first) in n.about and o.about == {"me"} \
            and not n.about & o.about \
            and w.stem(first.lower()) not in _stems(o.text):
        return Doubt("newer fact is about someone else", offer=False)
    return None


# -- part ---------------------------------------------------------------------------------

# a clause that states something holds now: a present-tense verb of state
_PRESENT = re.compile(r"\b\w+\s+(?:is|are|am|has|have|lives?|owns?|drives?|rents?|keeps?)\b"
                      r"|\b(?:it|there|that|he|she)['’]s\b", re.IGNORECASE)


# "...; ..." or "... and still keeps ...": a second present state joined to the first
_CLAUSES = re.compile(r"\s*;\s*|,?\s+and\s+(?:still\s+|also\s+)?(?=(?:is|are|has|have|keeps|owns"
                      r"|drives|lives|rents|runs|works)\b)", re.IGNORECASE)


def _partly(n: Reading, o: Reading) -> Doubt | None:
    clauses = [c for c in _CLAUSES.split(o.text) if c.strip()]
    if len(clauses) < 2:
        return None
    # whom both speak of is no part they share ("Mom lives ..." / "Mom sold ...")
    first, told = clauses[0], _content(n.text) - _stems(" ".join(o.about).replace("-", " "))
    if _PRESENT.search(first) and not _content(first) & told and not (o.ends or o.reversal):
        # "X is gone; ...", "has gone off coffee; it is tea now": opens with an end or a
        # change of mind, not a state; otherwise what follows the first clause details it
        return Doubt("newer fact speaks of only a part of the older one", offer=True)
    return None


# -- amount -------------------------------------------------------------------------------

_LIMIT = re.compile(r"\b(?:(?:of|for)\s+up\s+to|pre-?approv\w*|approv\w*\s+in\s+principle|"
                    r"budget\w*|maximum|at\s+most|capped)\b", re.IGNORECASE)
# an amount borrowed: "HDFC car loan for the Creta: ₹10 lakh" is no new price of the car
_BORROWED = re.compile(r"\b(?:loans?|mortgages?|borrow\w*|financ\w*|EMI|credit\s+line|overdraft"
                       r"|lent|lend\w*)\b", re.IGNORECASE)
# a period an amount is given for: "a month", "per lesson", "weekly" (judge.about too)
PERIODS = (r"(?:a|an|per|each|every)\s+(hour|day|night|week|fortnight|month|year|lesson|session"
           r"|class|visit|shift)\b|\b(hour|dai|week|month|year)ly")
_PERIOD = re.compile(rf"\b{PERIODS}\b", re.IGNORECASE)
_ONE_OFF = re.compile(r"\b(?:bought|buy|buying|sold|sell|selling|paid|spent|costs?|cost\s+us|"
                      r"came\s+to|quoted|closing)\b", re.IGNORECASE)
_ROLE_WORDS = _stems("bought buy sold sell paid pay spent cost costs came quoted price for "
                     "up to pre approved approval principle budget month week year hour day "
                     "money dollar dollars pound pounds euro euros")


def _periods(text: str) -> frozenset[str]:
    return frozenset((m.group(1) or m.group(2)).lower().replace("dai", "day")
                     for m in _PERIOD.finditer(text))


def _money(r: Reading) -> bool:
    return any("money" in units for _, units in r.numbers)


def _amounts_apart(n: Reading, o: Reading) -> Doubt | None:
    if not (_money(n) and _money(o)):
        return None
    if bool(_LIMIT.search(n.text)) != bool(_LIMIT.search(o.text)):
        return Doubt("amounts are a limit and what was taken", offer=False)
    if bool(_BORROWED.search(n.text)) != bool(_BORROWED.search(o.text)):
        return Doubt("amounts are a loan and what is not one", offer=True)
    mine, theirs = _periods(n.text), _periods(o.text)
    if mine and theirs and not mine & theirs:
        return Doubt("amounts are for different periods", offer=False)
    once, once_old = bool(_ONE_OFF.search(n.text)), bool(_ONE_OFF.search(o.text))
    if (once and not mine and theirs) or (once_old and not theirs and mine):
        return Doubt("amounts are a one-off price and a rate", offer=False)
    if once and once_old and not mine and not theirs \
            and not _topic(n.words, o.words) - _ROLE_WORDS:
        return Doubt("amounts were paid for different things", offer=False)
    return _part_priced(n, o)


def _part_priced(n: Reading, o: Reading) -> Doubt | None:
    """The newer amount is for another thing than the older one's, which the newer fact
    names beside it: a part of it or a service for it ("The van cost $30,000" / "The van
    needed new brakes: $900")."""
    mine, theirs = heads.priced(n.text), heads.priced(o.text)
    if mine and theirs and not mine & theirs and theirs <= _stems(n.text) \
            and not mine & _stems(o.text):
        return Doubt("amounts are for different things", offer=False)
    return None


# -- kind ---------------------------------------------------------------------------------

_TWO_WHEELS = re.compile(r"\b(?:motorcycles?|motorbikes?|motor\s+bikes?|scooters?|mopeds?|"
                         r"dirt\s+bikes?)\b", re.IGNORECASE)


def _vehicles_apart(n: Reading, o: Reading) -> Doubt | None:
    if bool(_TWO_WHEELS.search(n.text)) != bool(_TWO_WHEELS.search(o.text)):
        return Doubt("vehicles are of different kinds", offer=False)
    return None


# -- place --------------------------------------------------------------------------------

_PLACE_NOUNS = _stems(
    "house home flat apartment condo unit cottage bungalow villa rowhouse townhouse semi "
    "street road avenue lane drive close crescent terrace place square way city town "
    "village suburb district ward neighbourhood neighborhood county state country island "
    "farm ranch estate hall dorm residence hotel hospital home care rest shelter abroad "
    "north south east west downtown uptown centre center area region coast "
    + " ".join(w.PLACE_PARTS))


def _placed(r: Reading) -> bool:
    """A value that names a place: a place noun, or a word written capitalised — at the head
    of a sentence too, where the rule read it as the value ("Linz is Anselm's base now")."""
    capitalised = {w.stem(t.lower()) for t in w.TOKEN.findall(r.text) if t[:1].isupper()}
    return bool(r.value & (_PLACE_NOUNS | capitalised))


def _no_place(n: Reading, o: Reading) -> Doubt | None:
    if n.relation == o.relation == "location" and not (_placed(n) and _placed(o)):
        return Doubt("value named is not a place", offer=False)
    return None


# a value that moved on or began, said of an event: "went up to", "down to", "turned eleven",
# "a new personal best", "her first day of Year 6", "started at"
_MOVED_ON = re.compile(r"\b(?:up|down)\s+(?:to|from)\b|\bturn(?:ed|s)\s+\w|\b(?-i:new)\b"
                       r"|\bfirst\s+(?:day|week|shift)\b|\b(?:start(?:s|ed|ing)?|began|begins"
                       r"|beginning)\b", re.IGNORECASE)  # (not "New York", "the startup")


def _event_value(n: Reading, o: Reading) -> Doubt | None:
    """A value told with no word of change, end or the present, in an event ("Practised for
    six hours straight" beside "practise two hours every morning", "Paid $60 for plot 7") or
    in one opinion beside another ("The Postgres migration was worth every painful week"
    beside "... is the riskiest thing on our roadmap"): what happened once, or a view of
    another side of the thing, may or may not be the state now. Offered."""
    if n.changes or n.now or n.ends or n.again or _MOVED_ON.search(n.text):
        return None
    if n.kind == "experience" and o.kind != "experience":
        return Doubt("newer fact tells of one event, not of a change", offer=True)
    if n.kind == o.kind == "opinion":
        return Doubt("newer opinion says no change of mind", offer=True)
    return None


# -- changed ------------------------------------------------------------------------------

_KIN = frozenset(map(w.stem, (*w.RELATIVE_WORDS, *"gran granny nan nana nanna grandad granddad "
                               "grandpa grandparent grandparents stepmother stepfather".split())))


# "our new teacher is ...", "has a new phone number": a new value; "Teaching new grads is
# ..." names new people an activity is about, not a new value of anything
_NEW_THING = re.compile(r"\b\w+ing\s+new\b", re.IGNORECASE)
_PREPOSITIONS = r"(?:at|in|on|of|for|from|with|near|by|over|past|along|across|behind|outside)"


def _only_after_preposition(stem: str, text: str) -> bool:
    """Whether each word of this stem in the text stands in a phrase after a preposition
    ("our internet at the new house"): a qualifier of the thing, not the thing."""
    tokens = [t.lower() for t in w.TOKEN.findall(text)]
    where = [i for i, t in enumerate(tokens) if w.stem(t) == stem]
    return bool(where) and all(any(re.fullmatch(_PREPOSITIONS, t) for t in tokens[max(0, i - 3):i])
                               for i in where)


def _change_of(n: Reading, o: Reading) -> Change | None:
    return next((c for c in n.changes if c.new and c.obj and _topic(c.obj, o.words)), None)


def _changed_apart(n: Reading, o: Reading) -> Doubt | None:
    c = _change_of(n, o)
    if c is None:
        return None
    if c.obj <= _KIN | o.subject and c.obj & _KIN:
        return Doubt("newer fact moves the person, not a value the older one gives", True)
    if c.verb == "new" and _NEW_THING.search(n.text):
        return Doubt("newer fact names a new thing, not a new value", offer=False)
    shared = _topic(c.obj, o.words)
    if shared <= o.subject and all(_only_after_preposition(x, o.text) for x in shared):
        return Doubt("thing changed is not what the older fact gives a value for", False)
    if _named_once(shared, n, o) or _in_other_names(shared, n, o) or (
            _names(n.text) & c.obj - _stems(o.text) and not _names(o.text) & c.obj):
        return Doubt("thing changed is named otherwise than in the older fact", False)
    # "raised the Kilimani rent": a rent, named after the flat whose lease the older fact
    # gives; two amounts of money are the amount rules' to weigh ("the Linero flat costs")
    things = c.obj & _lower(n.text)
    if len(things) == 1 and shared and c.obj - things <= shared \
            and not (things | shared & _lower(n.text)) & o.words and not (_money(n) and _money(o)):
        return Doubt("thing changed is another of that name", offer=True)
    return None


# -- ended --------------------------------------------------------------------------------

_DAMAGE = re.compile(r"\b(?:shatter\w*|smash\w*|crack(?:ed|s)?|dent(?:ed|s)?|scratch(?:ed|es)?|"
                     r"damag\w*|broken|broke(?!\s+(?:up|off|it\s+off|the\s+news|free|even))|"
                     r"fell\s+(?:out\s+of|off|into))\b", re.IGNORECASE)
_FINAL = re.compile(r"\b(?:sold|sell|quit|left|cancel\w*|gave\s+up|stopped|replaced|"
                    r"got\s+rid|scrapped|written\s+off|totall?ed|stolen|lost)\b", re.IGNORECASE)
_WHEN = re.compile(r"\b(?:after|before|when|while|until|once|whenever)\s+(?:\w+\s+){0,3}?"
                   r"(\w+)\s+(?:closed|ended|stopped|finished|left|shut)\b", re.IGNORECASE)


# an end kept to some times: "told me to stop coffee after lunch" (the morning one stays)
_SOME_TIMES = re.compile(r"\b(?:stop\w*|quit\w*|cut\w*\s+out|g[ai]ve\s+up|no\s+more)\s+"
                         r"(?:\w+\s+){1,3}?(?P<when>(?:after|before|past)\s+(?:lunch|dinner|noon"
                         r"|midday|work|dark|bed\w*|\d{1,2}(?::\d\d)?\s*(?:am|pm)?)|in\s+the\s+"
                         r"(?:evenings?|afternoons?|mornings?)|at\s+night|on\s+(?:weekdays|weekends"
                         r"|school\s+nights))\b", re.IGNORECASE)
# "stopped the boiler banging": what ended is what the thing did, not the thing
_STOPPED_DOING = re.compile(r"\bstop(?:s|ped|ping)?\s+(?:the|my|our|his|her|its|their|a)\s+"
                            r"(?:\w+\s+){1,2}?(\w+ing)\b", re.IGNORECASE)
# someone's word for it: "her therapist says she can't manage alone any more"
_REPORT = re.compile(r"(?<!\bI\s)(?<!\bwe\s)\b(?:says|said|thinks|reckons|believes|warned)\b",
                     re.IGNORECASE)


def _named_beside(shared: Stems, n: Reading, o: Reading, before: int = 1) -> bool:
    """Whether the newer fact names the shared thing by a name the older fact lacks, right
    before it ("the Town Hall tuning") or after it ("the road over Three Mile Hill")."""
    tokens = w.TOKEN.findall(n.text)
    stems = [w.stem(re.sub(r"['’]s$", "", t.lower())) for t in tokens]
    older = _stems(o.text)

    def other_name(i: int) -> bool:
        return 0 < i < len(tokens) and tokens[i][:1].isupper() and stems[i] not in older \
            and tokens[i].lower() not in w.STOP  # "in March" is a when, not a name

    for i, x in enumerate(stems):
        if x in shared and (any(other_name(i - k) for k in range(1, before + 1)) or any(
                re.fullmatch(_PREPOSITIONS, tokens[j].lower()) and other_name(j + 1)
                for j in range(i + 1, min(i + 3, len(tokens) - 1)))):
            return True
    return False


def _self_report(n: Reading, speaker: str) -> bool:
    """Whether who says it is the fact's own subject ("Pablo says he's moved")."""
    said = w.TOKEN.findall(speaker)
    return bool(said) and len(said) <= 2 and entity_key(" ".join(said)) in n.about


def _ended_apart(n: Reading, o: Reading) -> Doubt | None:
    shared = frozenset().union(*(_topic(e, o.words) for e in n.ends))
    if _DAMAGE.search(n.text) and not _FINAL.search(n.text):
        return Doubt("newer fact tells of damage, not an end", offer=True)
    said = shared & _names(n.text) or {x for x in shared if any(map(str.isdigit, x))}
    if _named_once(shared, n, o) or _in_other_names(shared, n, o) or (
            shared and not said and _named_beside(shared, n, o)):
        return Doubt("thing that ended is another, named otherwise", offer=False)
    if (m := _STOPPED_DOING.search(n.text)) and w.stem(m.group(1).lower()) not in o.words:
        return Doubt("newer fact ends something it did, not the thing", offer=False)
    if (m := _REPORT.search(n.text)) and not _self_report(n, n.text[:m.start()]):
        return Doubt("end is someone's word for it", offer=True)
    for m in _WHEN.finditer(n.text):
        if w.stem(m.group(1).lower()) in shared:
            return Doubt("end is said only as the time of something else", offer=True)
    if (m := _SOME_TIMES.search(n.text)) and not _content(m.group("when")) & o.words:
        return Doubt("end holds only at some times", offer=True)
    return None


# -- status -------------------------------------------------------------------------------

def _status_apart(n: Reading, o: Reading) -> Doubt | None:
    shared = _topic(n.words, o.words)
    if _named_once(shared, n, o) or _in_other_names(shared, n, o) or (
            not shared & _names(n.text) and _named_beside(shared, n, o, before=2)):
        return Doubt("thing decided is another, named otherwise", offer=False)
    return None


# -- agreed -------------------------------------------------------------------------------

_RATHER = re.compile(r"\b(?:rather|prefers?|preferred|prefer\s+to)\b(?P<x>.+?)\b"
                     r"(?:than|over|to|instead\s+of)\b(?P<y>.+)", re.IGNORECASE)


def _agreed(n: Reading, o: Reading) -> Doubt | None:
    m = _RATHER.search(o.text)
    if m is None:
        return None
    wanted, not_wanted = _stems(m.group("x")), _stems(m.group("y"))
    for c in n.changes:
        if c.new and c.old and c.new <= wanted and c.old <= not_wanted:
            return Doubt("older fact already preferred the change", offer=False)
    return None


_BY_RULE = {
    "value": (_amounts_apart, _vehicles_apart, _no_place, _event_value),
    # a value's slot and an end's thing are read by their heads already (Reading.head,
    # Reading.end_heads); a change, a move away and a status name the thing by a word
    "changes": (_changed_apart, _amounts_apart, _qualifier_only),
    "moved": (_agreed, _qualifier_only),
    "ended": (_ended_apart,),
    "status": (_status_apart, _qualifier_only),
}


def settle(old_id: str, n: Reading, o: Reading, reason: str) -> Verdict | None:
    """The verdict on a supersede a rule found (`reason`) of the older fact `old_id`, no
    guard holding: made by itself when nothing is lacking, offered when the evidence is
    partial, else None (the pair is weighed as any other: a conflict at most)."""
    lacks = doubt(n, o, reason)
    if lacks is None:
        return Verdict(old_id, True, reason)
    return Verdict(old_id, False, f"{reason}, but the {lacks.why}", offer=True) \
        if lacks.offer else None


def doubt(n: Reading, o: Reading, reason: str) -> Doubt | None:
    """What the supersede `reason` (a rule's, judge.rules) of `o` by `n` lacks, or None when
    it has the evidence to be made by itself."""
    if lexicon_of(n.text) is not None or lexicon_of(o.text) is not None:
        return None  # weighed in English; a language read by its table keeps its rules
    checks = (_other_subject, *_BY_RULE.get(rule_of("rules", reason), ()), _partly)
    return next((found for check in checks if (found := check(n, o)) is not None), None)


__all__ = ["Doubt", "doubt", "settle"]
