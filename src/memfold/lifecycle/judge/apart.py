"""What sets two facts apart that share a word: the rule judge's checks (judge.rules) that a
shared word, a shared slot noun or a shared amount is not one slot of one thing.

    change_apart   a change of another thing: a slot noun of another thing, a new time
    kind_apart     a slot noun of another thing ("fish supplier" / "mobile provider")
    ended_shared, end_of_another   what an end shares with the older fact, and whose end
    left_apart     a change that leaves nothing the older fact states (a source, a "since",
                   a thing of one's own moved away from one's home)
    count_apart, unit_named   counts of different things (a part of a count, a change by an
                   amount; another named thing's)
    values_apart, scale_apart  two numbers that are no one quantity's values (another named
                   thing's; five times apart or more, read with "k", "million", "lakh")
    money_apart    amounts of money for different things (a rent / an offer on a house)
    PART_OF        a part of an amount ("paid off $4,000 of the loan")
    ELDERS_AND_YOUNGER  the kin a fact tells many states of ("Mom is ...")
    status         a status moved on from an interim state (rule 7 of judge.rules)
    nothing_else, outcome_of_it, said_of_it   whether an outcome is said of the older fact's
                   status
"""

from __future__ import annotations

import itertools
import re

from memfold.lifecycle.judge import heads
from memfold.lifecycle.judge import words as w
from memfold.lifecycle.judge.offers import FINAL, INTERIM, STILL, finals, interim
from memfold.lifecycle.judge.pieces import name_stems, words_as_written
from memfold.lifecycle.judge.readers import lexicon_of
from memfold.lifecycle.judge.reading import Change, Reading, Stems
from memfold.lifecycle.judge.signature import SLOT_WORDS as _SLOT_WORDS
from memfold.lifecycle.judge.slots import WHEN_STEMS, stems

_GENERIC = w.GENERIC_STEMS


# the people one is born or raised among: "Mom is ..." tells one of her many states, where
# "my boss is ..." or "her landlord is ..." names who holds a role
ELDERS_AND_YOUNGER = frozenset(w.stem(x) for x in (
    "sister brother sibling mother father mom mum dad son daughter kid child cousin uncle aunt "
    "niece nephew grandma grandmother grandpa grandfather").split())


def kind_apart(what: Stems, o: Reading, n_text: str) -> bool:
    """The thing changed and the older fact's thing share only the slot word, each with a
    qualifier of its own: the fish supplier is not the mobile provider."""
    if not o.attr:
        return False
    shared = what & o.attr
    named = _names_only(n_text) | _names_only(o.text)  # "Juniper Row Bakery's website"
    return len(shared) == 1 and bool(what - o.words - _GENERIC - named) \
        and bool(o.attr - what - _SLOT_WORDS - _GENERIC - named)


# the words of a version: a new version of a thing is no new value of a fact that names the
# thing with no version ("upgraded its k8s clusters to version 1.30" / "deploys to Kubernetes")
_RELEASE = frozenset(w.stem(x) for x in "version release build patch v".split())


def _version_only(new: Stems) -> bool:
    return all(x in _RELEASE or w.is_number(x) or re.fullmatch(r"v?\d+(?:\.\d+)*", x)
               for x in new)


def change_apart(what: Stems, new: Stems, o: Reading, n_text: str) -> bool:
    """A change of another thing than the older fact's: a slot noun of another thing (see
    `kind_apart`), a new time for a thing the older fact gives no time of, or a new version
    of a thing the older fact gives no version or number of ("moved my lessons to Monday
    evenings" / "charges £25 a lesson": `slots.WHEN_STEMS`)."""
    return kind_apart(what, o, n_text) or _handed_apart(n_text, o) \
        or (bool(new) and new <= WHEN_STEMS and not o.words & WHEN_STEMS) \
        or (bool(new) and _version_only(new) and not o.numbers and not o.versions)


def _handed_apart(n_text: str, o: Reading) -> bool:
    """A thing handed over or back that the older fact does not name by its head: "handed
    over the community gardens secretary job to Pat" is a job, not the plot at the gardens
    ("the treasurer role": a role is named by what it is)."""
    if not (m := _HANDED.search(n_text)):
        return False
    words = [t for t in next(heads.runs(m.group("what")), []) if t.islower()]
    while len(words) > 1 and words[-1] in _ROLE_NOUNS:
        words.pop()
    return bool(words) and w.stem(words[-1]) not in o.words


_HANDED = re.compile(r"\bhand(?:ed|s|ing)?\s+(?:over\s+|back\s+|on\s+)?(?P<what>(?:the|my|our|his"
                     r"|her|their|its)\s+[^,;.]+?)\s+(?:back\s+|over\s+)?to\b", re.IGNORECASE)
_ROLE_NOUNS = frozenset("role job post position duties responsibilities keys".split())


def _capitalised(text: str) -> Stems:
    """The stems of the words a text writes with a capital inside a sentence: names."""
    return frozenset(w.stem(m.group().lower()) for m in _INSIDE_CAPITAL.finditer(text))


def _names_only(text: str) -> Stems:
    """The words a text writes only as names: not "energy" in "our energy supplier is
    Octopus Energy"."""
    return _capitalised(text) - _lowercase(text)


_INSIDE_CAPITAL = re.compile(r"(?<=[\w,'’] )(?-i:[A-Z])[\w-]*")


def _lowercase(text: str) -> Stems:
    """The stems of the words a text writes in lower case: common words."""
    return frozenset(w.stem(m.group()) for m in re.finditer(r"\b(?-i:[a-z])[\w-]*", text))


def ended_shared(shared: Stems, n: Reading, o: Reading) -> Stems:
    """Of the words an end in the newer fact shares with the older fact, those that name
    one thing in both: not a bare number ("200 Mbps fibre" / "the RF 70-200"), and not a
    name in one and a common word in the other ("gave up the desk at Salt River Studios" /
    "lamb chops with just salt")."""
    names_n, names_o = _capitalised(n.text), _capitalised(o.text)
    common_n, common_o = _lowercase(n.text), _lowercase(o.text)
    kept = frozenset(x for x in shared
                     if not (x in names_n - common_n and x in common_o - names_o)
                     and not (x in names_o - common_o and x in common_n - names_n)
                     and not models_apart(x, n.text, o.text))
    return kept if any(ch.isalpha() for x in kept for ch in x) else frozenset()


def models_apart(stem: str, new: str, old: str) -> bool:
    """Whether each text gives the word another model after it: "sold the old Pixel 6a" ends
    no "Pixel 9a"."""
    after = [{b.lower() for a, b in itertools.pairwise(w.TOKEN.findall(text))
              if w.stem(a.lower()) == stem and any(c.isdigit() for c in b)} for text in (new, old)]
    return bool(after[0] and after[1]) and not after[0] & after[1]


def end_of_another(n: Reading, o: Reading) -> bool:
    """The newer fact ends a state of another subject than the older fact's: "Spike stopped
    eating" (about Spike) ends nothing the user said of a meal."""
    return bool(n.about and o.about) and not n.about & o.about


# What an amount of money is for.  Two amounts for different things are two slots: the
# rent is not the offer on a house, the mortgage not the salary, a loan not a sale price.
_PURPOSES = tuple((name, re.compile(rf"\b(?:{words})\b", re.IGNORECASE)) for name, words in (
    ("rent", r"rent|rents|rented|renting"),
    ("salary", r"salary|salaries|wages?|earn|earns|earning|income"),
    ("mortgage", r"mortgage"),
    ("offer", r"offers?|bid|bids"),
    ("sale", r"sold|sell|sells|selling|sale|price|bought|buy|cost|costs"),
    ("loan", r"loans?|owe|owes|owed|debt"),
    ("fee", r"fees?|charges?|charged|rates?|lessons?|sessions?|classe?s?"),
    ("savings", r"savings|saved|ISA"),
    ("budget", r"budget"),
))


PART_OF = re.compile(r"[$€£¥₹]\s?[\d,.]+k?\s+of\s+(?:the|my|our|his|her|their|its)\b",
                      re.IGNORECASE)


# a part of a count, not a new total: "went live for the first 500 patients"
_PORTION = re.compile(r"\b(?:first|last|next|another|other|top|remaining)\s+[\d,.]+\b",
                      re.IGNORECASE)
# a change by an amount, not the amount itself: "down 3 kg", "lost 4 pounds", "up £200"
_BY = re.compile(r"\b(?:down|up|lost|losing|gained|gaining|dropped|shed|put\s+on)\s+(?:by\s+)?"
                 r"(?:another\s+|a\s+further\s+|about\s+|around\s+)?[$€£¥₹]?\d", re.IGNORECASE)


_FROM_A_SOURCE = frozenset(w.stem(x) for x in "adopt buy bought get got receive".split())
# "since starting low-carb": when the state began, up to the end of the clause
_POSSESSED = re.compile(r"\w['’]s\s+([a-z][\w-]*)(?:\s+([a-z][\w-]*))?")  # "Focus's clutch"
_SINCE = re.compile(r"\bsince\s+[^.;,]*", re.IGNORECASE)
# what one moves when one moves home: "moved house", "moved the family", "moved its headquarters"
_DWELLINGS = _SLOT_WORDS | frozenset(w.stem(x) for x in "home house flat apartment family "
                                     "household headquarters hq base everything".split())


def left_apart(c: Change, n: Reading, o: Reading) -> bool:
    """A change that leaves nothing the older fact states: where a thing came from
    ("adopted Juniper from Best Friends"), another thing moved away from where one lives
    ("moved his boat from Umeå"), a part of the thing the older fact names ("the
    garage replaced the Focus's clutch" / "we have a 2014 Ford Focus"), or a value the older
    fact names only as when its state began ("down 3 kg since starting low-carb" / "switched
    from low-carb"), or a bare number ("promoted ... from 1 October": a date, no value)."""
    if c.verb in _FROM_A_SOURCE and not c.new or c.old and all(map(w.is_number, c.old)):
        return True
    if c.obj & {v for v, units in n.numbers if "money" in units}:
        return True  # "an automatic AED 1,000 a month from my Emirates NBD account into ...":
        # money moved, the account kept
    if o.relation == "location" and c.obj and not c.obj & (o.words | _DWELLINGS):
        return True  # "moved his boat from Umeå to a marina in Piteå": the boat moved
    parts = frozenset(w.stem(x) for m in _POSSESSED.finditer(n.text) for x in m.groups() if x)
    if c.old & parts and not c.old & parts & o.words:
        return True
    since = frozenset().union(*(stems(m.group()) for m in _SINCE.finditer(o.text)))
    rest = stems(_SINCE.sub(" ", o.text))
    return bool(c.old) and c.old <= since and not c.old & rest


# a limit set on an amount, not the amount: "agreed to spend no more than £1,100 on rent"
_LIMIT = re.compile(r"\b(?:no\s+more\s+than|at\s+most|a\s+maximum\s+of|(?:a|our|my)\s+budget"
                    r"\s+of|capped\s+at)\b", re.IGNORECASE)


def count_apart(n: Reading, o: Reading) -> bool:
    """Counts that are not two values of one quantity: a part of a count against the count
    ("the first 500 patients" / "2,300 patients joined the waitlist"), a change by an
    amount against a level ("down 3 kg" / "down to 79 kg"), or those who did something
    against what the entity has ("2,300 patients have joined the waitlist" / "the beta has
    reached 5,000 patients")."""
    return bool(_PORTION.search(n.text)) != bool(_PORTION.search(o.text)) \
        or bool(_BY.search(n.text)) != bool(_BY.search(o.text)) \
        or counted_subject(n) != counted_subject(o) \
        or bool(_LIMIT.search(n.text)) != bool(_LIMIT.search(o.text))


# a number's multiplier written after it: "$160k", "3.5 million", "₹17.8 lakh", "£1.4m"
_SCALES = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6, "bn": 1e9,
           "billion": 1e9, "lakh": 1e5, "lakhs": 1e5, "crore": 1e7, "crores": 1e7}
_SCALED = re.compile(r"(?<![\d.,])(\d[\d,]*(?:\.\d+)?)\s?(" + "|".join(_SCALES) + r")\b",
                     re.IGNORECASE)
# a value that changes by this factor or more is more likely another quantity (a loan
# against its monthly payment, a price in another currency, a model number) than one changed
FAR_APART = 5.0


def _size(value: str, text: str) -> float | None:
    """The value as a number, times the multiplier the text writes after it."""
    try:
        size = float(value.replace(",", ""))
    except ValueError:
        return None
    for m in _SCALED.finditer(text):
        if m.group(1).replace(",", "") == value.replace(",", ""):
            return size * _SCALES[m.group(2).lower()]
    return size


def _unit_after(value: str, text: str) -> str | None:
    """The unit of measure written right after the value ("100 Mbps", "3 hours"), if any."""
    plain = re.escape(value.replace(",", ""))
    m = re.search(rf"(?<![\d.]){plain}\s?([A-Za-z]+)", text.replace(",", ""))
    word = m.group(1).lower() if m else ""
    return next((x for x in (word, word[:-1]) if x in w.UNIT_CLASS), None)


def values_apart(units: Stems, value: str, old_value: str, n: Reading, o: Reading) -> bool:
    """Two numbers that are not one quantity's old and new value: of a thing only the newer
    fact names (`unit_named`), or too far apart (`scale_apart`)."""
    return unit_named(units, n, o) or scale_apart(value, old_value, n, o)


def scale_apart(value: str, old_value: str, n: Reading, o: Reading) -> bool:
    """Two amounts too far apart to be one quantity's old and new value: one five times the
    other or more, read with their multipliers ("$160k over 5 years" / "$3,380/month";
    "¥21,500 a kilo" / "S$95 a kilo"; "six years old" / "the Fluke 1664"), where "£750k" /
    "£3.5 million" is not, nor two units of one measure ("100 Mbps" / "1 Gbps")."""
    new, old = _size(value, n.text), _size(old_value, o.text)
    if not new or not old:
        return False
    units = (_unit_after(value, n.text), _unit_after(old_value, o.text))
    if all(units) and units[0] != units[1]:
        return False
    return max(new, old) / min(new, old) >= FAR_APART


def liked_alike(n_text: str, o_text: str) -> Stems:
    """What both facts like or dislike when it is the same doing, told by a common verb
    ("hates running" / "has come to love running"): the stems of it, else none ("hates
    working late" / "loves working from home" are two doings)."""
    liked = [_LIKED.search(text) for text in (n_text, o_text)]
    said = [stems(_TIMELESS.sub(" ", m.group("what"))) for m in liked if m]
    return said[0] if len(said) == 2 and said[0] == said[1] else frozenset()


_LIKED = re.compile(r"\b(?:likes?|liked|loves?|loved|enjoys?|enjoyed|hates?|hated|dislikes?"
                    r"|disliked|detests?|loathes?)\s+(?P<what>\w+ing\b[^.,;]*)", re.IGNORECASE)
_TIMELESS = re.compile(r"\b(?:now|again|these\s+days|nowadays|too|as\s+well|a\s+lot|so\s+much"
                       r"|it)\b", re.IGNORECASE)


def liked_apart(n: Reading, o: Reading, shared: Stems) -> bool:
    """Whether two facts share only a verb of liking or of turning, and each says what the
    other does not: "doesn't want Paolo to know" / "only wants fare alerts" are two wants
    ("prefers working late" / "prefers mornings" one preference)."""
    return not shared - _MANY_LIKED - _TURNING and bool(_own(n, o)) and bool(_own(o, n))


def _own(a: Reading, b: Reading) -> Stems:
    return a.words - b.words - _LIKING - _TURNING - _GENERIC


_LIKING = frozenset(w.stem(x) for x in w.POSITIVE | w.NEGATIVE)
_MANY_LIKED = _LIKING - {w.stem(x) for x in ("prefer", "favour", "favor")}
_TURNING = frozenset(w.stem(x) for x in "turn turned turning become became get got go went grow "
                     "grew".split())  # "is turning into 70" / "has turned around": no topic


# the words that name a unit ("km", "miles"): an experience sharing only these shares no topic
UNIT_WORDS = frozenset(w.UNIT_CLASS) | frozenset(w.stem(x) for x in w.UNIT_CLASS)


def unit_named(units: Stems, n: Reading, o: Reading) -> bool:
    """A quantity the newer fact gives of a thing it names and the older fact does not
    ("bought a 240 mm Masakage gyuto" is not the size of "my Tojiro gyuto, 210 mm")."""
    return bool(units & _capitalised(n.text) - o.words) and bool(_capitalised(o.text) - n.words)


def _purposes(r: Reading) -> frozenset[str]:
    return frozenset(name for name, said in _PURPOSES if said.search(r.text))


def money_apart(n: Reading, o: Reading) -> bool:
    """Amounts of money for different things (a rent, a house offer; a salary, a mortgage),
    or an experience that names no purpose against a state that does ("found a crash pad for
    $350 a month" is not the rent of the flat)."""
    if not any("money" in units for _, units in n.numbers) \
            or not any("money" in units for _, units in o.numbers):
        return False
    mine, theirs = _purposes(n), _purposes(o)
    if mine and theirs:
        return not mine & theirs
    return bool(theirs) and n.kind == "experience" and not n.changes


_STOP_STEMS = w.STOP | frozenset(w.stem(x) for x in w.STOP)


def measure_apart(n: Reading, o: Reading) -> bool:
    """Two amounts (of money, of minutes, a count) that measure nothing both facts name: no
    word but the entities', units and common words in common ("We do retros every other
    Friday, 45 minutes" / "Bike to the office is 25 minutes now"; "rent $1,650/mo" /
    "Insurance renewed at $1,185/mo")."""
    if not all(r.numbers or any(map(w.is_number, r.value)) for r in (n, o)) \
            or lexicon_of(n.text) or lexicon_of(o.text):  # English words only
        return False
    common = _GENERIC | UNIT_WORDS | _STOP_STEMS | named(n) | named(o)
    mine, theirs = (frozenset(x for x in r.words - common if not w.is_number(x) and len(x) > 2)
                    for r in (n, o))
    return bool(mine) and bool(theirs) and not mine & theirs  # "Theo is 7" / "turned 8"


def amounts_apart(n: Reading, o: Reading) -> bool:
    return money_apart(n, o) or measure_apart(n, o)


def named(r: Reading) -> Stems:
    """The words of the names of the entities a fact is about ("project-compass")."""
    return name_stems(r.about)


def nothing_else(n: Reading, o: Reading, names: Stems) -> bool:
    """Whether a newer fact that shares no topic word with an older status still speaks of
    that status: it ends nothing of its own ("cancelled Fender Play" is not the offer
    decided)."""
    return not any(e and not e & o.words for e in n.ends)


def outcome_of_it(n: Reading, o: Reading, now: Stems, names: Stems) -> bool:
    """Whether the word of outcome is said of the older fact's status, not of a thing of its
    own: the head of its object, if it has one, is the entity or a word the older fact names
    ("finished the Compass accessibility audit" finished an audit, not the beta; "opened its
    doors again" and "approved the Quarry iOS app" are said of the entity itself)."""
    tokens = _TOKENS.findall(n.text)
    for i, token in enumerate(tokens):
        if w.stem(token.lower()) not in now:
            continue
        if _own_object(tokens[i + 1: i + 2], o, names):
            return False  # "finished IOE", "passed grade 2 cello": a thing of its own
        if not tokens[i + 1:i + 2] or tokens[i + 1].lower() not in _DETERMINERS:
            return True  # "is permanent now", "approved on 3 May": no object of its own
        head = ""
        for after in tokens[i + 2:i + 7]:
            if after.lower() in _NO_OBJECT or not after[:1].isalnum():
                break
            head = after
        return not head[:1].islower() or w.stem(head.lower()) in o.words | names  # "the HPT"
    return True


def _own_object(following: list[str], o: Reading, names: Stems) -> bool:
    """Whether the word after an outcome begins an object the older fact does not name (no
    preposition, adverb or determiner)."""
    word = following[0].strip("'").lower() if following else ""
    return word.isalpha() and word not in _NO_OBJECT | _DETERMINERS | _ABOUT_IT \
        and not word.endswith("ly") and w.stem(word) not in o.words | names


_ABOUT_IT = frozenset("it its itself them him her me us again now today yesterday".split())


def said_of_it(n: Reading, o: Reading, now: Stems, names: Stems) -> bool:
    """Whether a word of outcome is said of what the older fact speaks of: used with no
    object, or with one that names a word of the older fact ("passed his PhD defence" after
    "a PhD candidate") — not only of a part of its own ("the builders on the extension
    finished the roof; the kitchen is next": the extension is not finished)."""
    tokens = _TOKENS.findall(n.text)
    objects = 0
    for i, token in enumerate(tokens):
        if w.stem(token.lower()) not in now:
            continue
        if not tokens[i + 1:i + 2] or tokens[i + 1].lower() not in _DETERMINERS:
            return True
        objects += 1
        phrase = set()
        for after in tokens[i + 2:i + 7]:
            if after.lower() in _NO_OBJECT or not after[:1].isalnum():
                break
            phrase.add(w.stem(after.lower()))
        if phrase & (o.words | names) or not phrase:
            return True
    return not objects  # no word of outcome written as one ("came through")


_TOKENS = re.compile(r"[\w'-]+|[^\w\s]")
_DETERMINERS = frozenset("a an the my our his her your".split())  # not "its doors"
_NO_OBJECT = frozenset("on in at by for with to from after before and as of off out up "
                       "today yesterday last this".split())



_DONE = re.compile(r"\b(?:came|went|got)\s+through|\bout\s+of\s+(?:beta|alpha|preview|review"
                   r"|draft)|\bgot\s+the\s+go-ahead\b|\bgot\s+(?:into|a\s+place\s+at)\b",
                   re.IGNORECASE)
# a decision on what was pending, by whoever decides it ("the Trust turned down our
# application"), not the entity declining an offer ("interviewed at Vandelay but turned the
# offer down": still interviewing)
_DECLINED = re.compile(r"\bturned\s+(?:\w+\s+){0,4}down\b", re.IGNORECASE)


# a candidate or an applicant waits for something the fact must name: "a candidate for the
# school board" is not hired by Ardent Labs
_HOPEFUL = frozenset(w.stem(x) for x in "candidate applicant".split())


# the events an interim word names before it happens: "the beta launch slipped to July" is
# no beta yet, "the trial date" no trial under way
_EVENTS = frozenset("launch launches release releases rollout test tests testing programme "
                    "program date dates deadline period signup sign-up waitlist".split())


def _naming_events(text: str) -> Stems:
    """The interim words a text writes only before the name of an event, or only as what
    was talked about ("called Mom about the Meridian offer": no offer of one's own pending)."""
    said: dict[str, bool] = {}
    tokens = [t.lower() for t in w.TOKEN.findall(text)]
    for i, token in enumerate(tokens):
        stem = w.stem(token)
        said[stem] = said.get(stem, True) and (
            tokens[i + 1: i + 2] != [] and tokens[i + 1] in _EVENTS
            or bool(_TALKED & set(tokens[max(0, i - 3): i])))
    return frozenset(x for x, only in said.items() if only) & INTERIM


_TALKED = frozenset("about regarding re".split())


def counted_subject(o: Reading) -> bool:
    """An older fact whose subject is a count of people or things ("2,300 patients have
    joined the waitlist"): the interim state is theirs, not the entity's."""
    first = w.tokens(o.text)[:1]
    return bool(o.subject) and all(map(w.is_number, o.subject)) and set(first) <= o.subject


def status(n: Reading, o: Reading) -> str | None:
    if o.kind == "opinion" or n.relation == "location":  # "finds the open-plan office noisy"
        return None
    if not (was := interim(o) - _naming_events(o.text)) or counted_subject(o):
        return None
    if STILL.search(n.text) and was & n.words:
        return None  # "is still in private beta; the launch slipped": the same state
    now = finals(n, was)  # not "reopened" after "closed"
    names = named(n) | named(o)
    same = (n.words & o.words - _GENERIC) - INTERIM - FINAL - names and said_of_it(
        n, o, now, names) or (
        n.subject <= names and o.subject <= names and not was <= _HOPEFUL
        and not n.about <= {"me"}  # every fact of the user's is the user's
        and nothing_else(n, o, names) and outcome_of_it(n, o, now, names))
    now = frozenset(x for x in now if outcome_of(was, x, n.text))
    m = _DONE.search(n.text) or (_DECLINED.search(n.text) if n.subject else None)
    done = words_as_written(now, n.text) if now else (m.group() if m else "")
    if was and done and same:
        return f"status: {words_as_written(was, o.text)!r} became {done!r}"
    return None

# which outcomes end which interim states: a review is decided, a beta shipped, a trial passed
# or over, a pregnancy a birth — "First bug filed at Trellis" ends no probation, "Joined the
# Tuesday group; 140 open bugs" no engagement
_OUTCOMES = tuple((frozenset(w.stem(x) for x in before.split()) | frozenset(before.split()),
                   frozenset(w.stem(x) for x in after.split())) for before, after in (
    ("pending waiting awaiting review submitted applied applying consideration assessment "
     "shortlisted waitlisted candidate applicant offer provisional listed",
     "approved accepted rejected denied granted refused dismissed upheld overturned hired "
     "confirmed issued signed passed qualified certified settled found sold finalised "
     "finalized received arrived delivered available graduated"),
    ("beta alpha preview draft unreleased progress underway planned scheduled",
     "shipped live launched released ga done finished completed complete published opened "
     "landed merged deployed available over cancelled canceled arrived delivered"),
    # works are finished, not delivered: "the kitchen units were delivered" mid-refit
    ("construction renovation refurbishment refit",
     "done finished completed complete opened over cancelled canceled"),
    ("hold paused suspended stalled frozen blocked",
     "resumed restarted unblocked active cancelled canceled reopened"),
    ("trial probation", "permanent passed confirmed hired finished done over completed"),
    ("engaged dating", "married"),
    ("expecting pregnant", "born birth"),
    ("injured repairs maintenance", "healed recovered fixed reopened resumed"),
    ("open unresolved outstanding unpaid backlog queued ongoing",
     "closed resolved fixed paid settled merged done finished completed"),
    ("looking searching hunting interviewing negotiating recruiting vacancy vacancies vacant "
     "investigating hiring", "found hired signed filled"),
))
_ANY_OUTCOME = frozenset({"being"})  # "is being processed": any outcome decides it
_DID = re.compile(r"\b(?:did|does|do)\b", re.IGNORECASE)
_DONE_WORD = re.compile(r"\bdone\b", re.IGNORECASE)
_DONE_STEM = w.stem("done")


def outcome_of(was: Stems, outcome: str, text: str) -> bool:
    """Whether `outcome` (a stem of FINAL) ends one of the interim states in `was`; "did"
    says what was done, not that a thing is done."""
    if outcome == _DONE_STEM and _DID.search(text) and not _DONE_WORD.search(text):
        return False
    return bool(was & _ANY_OUTCOME) or any(  # ("hiring" as offers.interim says it, unstemmed)
        outcome in after and was & before for before, after in _OUTCOMES)


__all__ = ["ELDERS_AND_YOUNGER", "PART_OF", "UNIT_WORDS", "amounts_apart", "change_apart",
           "count_apart", "kind_apart", "left_apart", "liked_alike", "liked_apart",
           "measure_apart", "models_apart", "money_apart", "named", "nothing_else", "outcome_of",
           "outcome_of_it", "said_of_it", "status", "unit_named", "values_apart"]
