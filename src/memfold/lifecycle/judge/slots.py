"""What slot an English clause states, for the judge's reader (judge.reading): its grammatical
subject and the rest (`split_subject`), and the attribute, relation and value it gives
(`slot`: "Acme's CEO is X", "lives in Leeds", "is hosted on Netlify", "is seeing Arabella"),
with the word stems they are compared by (`stems`) and where a value ends (`clip`).  Pure
functions of the text; the phrasings matched are in judge.phrases."""

from __future__ import annotations

import re

from memfold.lifecycle.judge import words as w
from memfold.lifecycle.judge.phrases import RELATION_VERBS as _RELATION_VERBS
from memfold.lifecycle.judge.phrases import TURNED_DIET as _TURNED_DIET

Stems = frozenset[str]
_EMPTY: Stems = frozenset()

_COPULA = re.compile(r"^(?P<subj>.+?)\s+(?:is|are|was|were|has\s+been|have\s+been|remains?)"
                     r"\s+(?:now\s+|still\s+|currently\s+|no\s+longer\s+|back\s+(?:to|on|in)\s+)?"
                     r"(?P<val>.+)$",
                     re.IGNORECASE)
# a state told without its subject, as a bullet under the entity writes it: "Is the CTO at
# @Globex.", "Is a nurse now."
_BARE_COPULA = re.compile(r"^(?:is|are|has\s+been|have\s+been)\s+(?P<val>.+)$",
                          re.IGNORECASE)
_PASSIVE = re.compile(r"^(?P<verb>\w+(?:ed|en|wn|lt|ld|ne|ot|un|ed)|led|run|built|held|hosted"
                      r"|owned|provided|supplied|handled|written|served|managed|maintained"
                      r"|powered|based|stored|kept|done|paid|made|sent|dealt|taught)"
                      r"(?:\s+(?:for|after))?"  # "paid for by", "looked after by"
                      r"\s+(?:by|in|on|at|from|with"
                      r"|through|via|out\s+of|(?:over\s+)?to)\s+(?P<val>.+)$", re.IGNORECASE)
_ATTR_RELATION = {w.stem("manager"): "manager", w.stem("home"): "location",
                  w.stem("base"): "location",  # "Reykjavik is Ingrid's base now"
                  w.stem("address"): "location", w.stem("employer"): "employer",
                  **{w.stem(x): "relationship" for x in  # "Marisa's girlfriend is Yara"
                     "girlfriend boyfriend partner fiance fiancee wife husband spouse".split()}}
# words that say which one of a kind without making it another slot: a line manager is his manager
_QUALIFIERS = frozenset(w.stem(x) for x in "line direct current new main".split())
_TITLE = frozenset({w.stem("title")})
_NAME_ATTRS = frozenset(w.stem(x) for x in "name surname codename handle title".split())


def stems(text: str, drop: Stems = _EMPTY) -> Stems:
    """Content stems of a text: no stop words, none of `drop` (the entity names); a
    hyphenated word also gives its parts ("car-free": car)."""
    return frozenset(s for t in w.tokens(text) if t not in w.STOP
                     for part in (t, *(p for p in (t.split("-") if "-" in t else ())
                                       if len(p) > 2 and p not in w.STOP))
                     for s in (w.stem(part),) if s not in drop)


# the relations a fact gives one value of at a time: a newer value replaces the older
SINGLE_VALUED = frozenset("location employer role manager lead relationship name platform age "
                          "diet team grade vehicle school".split())

def clip(text: str) -> str:
    """A value ends at the end of its clause: "PostgreSQL, since 2023" -> "PostgreSQL"."""
    return re.split(r"(?<!\d),|,(?!\d{3}\b)|[;(]|\s[-–—]\s|\s(?:because|since|after|which|who"
                    r"|when|where|while|and\s+"
                    r"(?:is|has|was|now|the)|so|but|in\s+(?:the\s+)?(?:19|20)\d\d)\s", text,
                    maxsplit=1, flags=re.IGNORECASE)[0].strip(" .")


_VERBISH = re.compile(r"\s(?:is|are|was|were|has|have|had|will|would|can|does|did|do|now"
                      r"|still|just|also|no\s+longer|never|always|recently|finally|only"
                      r"|took|got|began|won|bought|sold|quit|gave)(?=\s)"
                      r"|\s\w+(?:ed|es|s)(?=\s)", re.IGNORECASE)  # an irregular past: "Rae took"


def split_subject(clause: str, names: Stems) -> tuple[str, str]:
    """(subject, rest) of a clause: the subject runs to its first verb-like word; a clause
    that opens with one ("Lives in Leeds", "Switched to Arc") has the entity as its
    unstated subject."""
    if m := re.match(r"(I|we)\s+(?=[a-z])", clause, re.I):  # "I see Dr. Quist now": the speaker
        return m.group(1), clause[m.end():]
    padded = f" {clause} "
    for m in _VERBISH.finditer(padded):
        front = padded[: m.start()].strip()
        word = m.group().strip().lower()
        if not front:
            if _PLACE_FIRST.match(clause):
                continue  # "Queens Park is Bo's home now": a name, not the verb "queens"
            if word.endswith(("s", "ed")) and word not in _NOT_VERBS \
                    and w.stem(word) not in names:  # "Rhys moved": Rhys is the subject
                return "", clause
            continue
        if word not in _NOT_VERBS and not re.search(r"'s$", front):
            return front, padded[m.start():].strip()
    return "", clause


_NOT_VERBS = frozenset("its his this us".split())
# a name of capitalised words, the first ending in s, then a verb: "Queens Park is ..."
_PLACE_FIRST = re.compile(r"(?-i:[A-Z]\w*s\s+[A-Z][\w'-]*)(?:\s+(?-i:[A-Z])[\w'-]*)*\s+"
                          r"(?:is|are|was|were|has|have)\b")


def _plain_predicate(rest: str) -> str:
    """A predicate without the words that do not change its slot: "is now", "has been
    living", "has just moved", "packed up and now live", "took the transfer and moved to"."""
    rest = re.sub(r"^(?:(?P<aux>is|are|was|has|have)\s+)?(?:now|still|currently|also|recently"
                  r"|finally|just)\s+", lambda m: f"{m.group('aux') or ''} ".lstrip(), rest,
                  flags=re.I)
    rest = re.sub(r"^(?:has|have|had)\s+been\s+(?=\w+ing\b)|^(?:is|are|was|were)\s+(?=\w+ing\b)"
                  r"|^(?:has|have|had)\s+(?:now\s+|since\s+|just\s+)?(?=(?:moved|relocated|settled"
                  r"|joined|started|emigrated)\b)|^\w+ed(?:\s+(?:up|out|off|down|away|over))?\s+and\s+(?=\w)"
                  r"|^(?:took|got|sold|bought|quit|gave|won)\s+(?:the|a|an|his|her|their|up)\s+[\w-]+"
                  r"\s+and\s+(?=\w)"  # "took the transfer and moved to Izmir"
                  # "packed up the Tromsø flat and resettled in Bodø": where one lives now
                  r"|^(?:\w+ed|sold|took|gave|left|quit)(?:\s+(?:up|out|off|down|away|over))?\s+"
                  r"(?:the|a|an|his|her|their"
                  r"|its|our|my)\s+(?:[\w'’-]+\s+){1,3}?and\s+(?=(?:moved|relocated|resettled"
                  r"|settled|emigrated|headed|went)\b)",
                  "", rest, flags=re.I)
    return re.sub(r"^(?:now|still|currently)\s+", "", rest, flags=re.I)  # "packed up and now live"


# a value that opens with a time of the week or day (`WHEN_STEMS`, a clock time): what was
# moved "to" it is rescheduled
_WHEN = re.compile(r"(?:(?:every|on|the)\s+)?(?:(?P<word>[a-z]+)\b|\d{1,2}(?:[:.]\d\d)?\s*"
                   r"(?:am|pm|a\.m\.|p\.m\.)\b)", re.IGNORECASE)


def _a_time(value: str) -> bool:
    """Whether a value opens with a time of the week or day ("Saturdays, 3pm", "7pm")."""
    m = _WHEN.match(value)
    return m is not None and (m.group("word") is None
                              or w.stem(m.group("word").lower()) in WHEN_STEMS)


def slot(clause: str, names: Stems) -> tuple[Stems, str | None, Stems, str]:
    """(attribute, relation, value, passive verb) the clause states, or empty parts."""
    subject, rest = split_subject(clause, names)
    rest = _plain_predicate(rest)
    if held := _held_by(clause, rest, subject, names):
        return (*held, "")
    for pattern, relation in _RELATION_VERBS:
        if m := pattern.match(rest):
            if relation == "location" and _a_time(m.group("val")):
                relation = "schedule"  # "our weekly call moved to Saturdays": a time, no place
            return _subject_attr(subject, names), relation, stems(clip(m.group("val")), names), ""
    if (m := _BECAME.search(rest)) and (kind := _class_of(m.group("val"))):
        return _EMPTY, kind, stems(clip(m.group("val")), names), ""  # "to become a nurse"
    if m := _TURNED_DIET.search(rest):  # "went vegan", "has gone pescatarian"
        return _EMPTY, "diet", stems(m.group("val"), names), ""
    if (m := _MADE.search(clause)) and stems(m.group("who")) <= names \
            and _class_of(clip(m.group("val"))) == "role":
        return _EMPTY, "role", stems(clip(m.group("val")), names), ""
    if not subject and (m := _BARE_COPULA.match(rest)) \
            and (kind := _class_of(clip(m.group("val")))):
        return _EMPTY, kind, stems(clip(m.group("val")), names), ""  # "@Priya: Is the CTO …"
    if not (m := _COPULA.match(clause)):
        return _EMPTY, None, _EMPTY, ""
    subj, val = m.group("subj"), clip(m.group("val"))
    if _BARE_PARTICIPLE.match(val):
        return _EMPTY, None, _EMPTY, ""  # "the flat was sold": an event, not a value
    attr = _subject_attr(subj, names)
    verb = ""
    val = re.sub(r"^being\s+", "", val, flags=re.I)
    if named := re.match(r"^(?:called|named|known\s+as)\s+(?P<name>.+)$", val, re.I):
        return attr, "name", stems(named.group("name"), names), ""  # "X is known as Y"
    if p := _PASSIVE.match(val):
        verb, val = w.stem(_REDONE.sub("", p.group("verb").lower())), clip(p.group("val"))
    else:
        val = re.sub(r"^(?:in|on|at|by|from|with|through)\s+", "", val, flags=re.I)
    value = stems(val, names)
    owner = None if verb else re.match(  # "MySQL is Acme's db", "Ada is the Pip team's lead"
        r"(?:the\s+)?(?:(?P<who>\w[\w-]*(?:\s+\w[\w-]*)?)'s|his|her|their|its|our|my)\s+"
        r"(?P<attr>.+)$", val)
    if attr and owner and (not owner.group("who") or stems(owner.group("who")) <= names):
        owned = stems(owner.group("attr"), names)  # "Queens Park is Bo's home now": where
        known = _ATTR_RELATION.get(next(iter(owned))) if len(owned) == 1 else None
        return (_EMPTY, known, attr, "") if known else (owned, "attr", attr, "")
    if attr & _TITLE and _class_of(val) == "role":
        return _EMPTY, "role", value, verb  # "the job title of Ana is Design Lead"
    if attr and attr & _NAME_ATTRS:
        return attr, "name", value, verb
    if not attr and not verb and (full := _FULL_NAME.match(re.sub(
            r"\s+(?:now|these\s+days|again|officially)$", "", val, flags=re.I))) \
            and w.stem(full.group(1).lower()) in names:
        return _EMPTY, "name", value, ""  # "she is Priyanka Iyer now": her whole name
    if len(plain := attr - _QUALIFIERS) == 1 and (known := _ATTR_RELATION.get(next(iter(plain)))):
        return _EMPTY, known, value, verb  # "Hamza's (line) manager is X": whom he reports to
    if attr and not _PROPER_HEAD.search(subj):
        return attr, "attr", value, verb
    return _EMPTY, _class_of(val), value, verb


def _subject_attr(subject: str, names: Stems) -> Stems:
    """The attribute a clause's subject names: none when it is the entity with someone beside
    it ("Lars and his partner packed up and now live in Copenhagen": where both live)."""
    if _WITH_COMPANY.match(subject) and w.stem(subject.split()[0].lower()) in names:
        return _EMPTY
    return stems(subject, names)


# the entity and someone with it as one subject ("Radosław and his partner are Lublin residents
# now"): what both are, not an attribute named "partner"
_WITH_COMPANY = re.compile(r"^[\w'-]+\s+and\s+(?:his|her|their|my|our)\s+[\w-]+$", re.IGNORECASE)
# done again, and so the same verb: "rewritten in Go" is "written in" another value
_REDONE = re.compile(r"^re-?(?=(?:written|built|hosted|deployed|implemented|served)$)")
_BARE_PARTICIPLE = re.compile(r"^(?:\w+ed|sold|built|made|done|gone|closed|shut|cut|sent)"
                              r"(?:\s+(?:off|out|down|up|last\s+\w+|yesterday|today))?$",
                              re.IGNORECASE)
_BECAME = re.compile(r"\b(?:became|becomes|become|(?:has\s+)?(?:retrained|requalified)\s+as)\s+"
                     r"(?P<val>(?:a|an|the)\s+.+)$",
                     re.IGNORECASE)
# "Loomworks made Fenna its design lead": the object is the fact's entity, the value a role
_MADE = re.compile(r"\b(?:made|named|appointed|promoted|hired)\s+(?P<who>[\w-]+)\s+(?:as\s+)?"
                   r"(?:its|their|the|our|a|an)\s+(?:new\s+)?(?P<val>.+)$", re.IGNORECASE)
# the subject is whom the entity reports to ("@Lee manages Rho now"), or who leads it ("Sofia
# leads Falcon", "Omar is the (new) lead of Falcon now")
_OVER = re.compile(r"^(?:now\s+)?(?:(?:manages|supervises|line[- ]manages)\s+(?P<whom>[\w-]+)"
                   r"(?:\s+now)?|(?:leads|heads|runs|is\s+(?:now\s+)?the\s+(?:new\s+)?(?:lead|head)"
                   r"\s+(?:of|on))\s+(?:the\s+)?@?(?P<led>[\w-]+)(?:\s+(?:project|team))?"
                   r"(?:\s+(?:now|these\s+days))?)$", re.IGNORECASE)
# the subject mentors (coaches, tutors ...) the entity: "@Ikenna mentors Casimir now"
_GUIDES = re.compile(r"^(?P<verb>mentors|coaches|tutors|advises|trains|teaches)\s+"
                     r"@?(?P<whom>[\w-]+)(?:\s+(?:now|these\s+days))?(?:\s+(?:now\s+that|since|after|because|while)"
                     r"\b.*)?$", re.IGNORECASE)
_GUIDE = {"mentors": "mentor", "coaches": "coach", "tutors": "tutor", "advises": "adviser",
          "trains": "trainer", "teaches": "teacher"}
# "@Rohan took over as tech lead of the Pip team": the subject holds the entity's role now
_TOOK_OVER_AS = re.compile(r"^(?P<who>[\w-]+(?:\s+[\w-]+)?)\s+(?:took|takes|has\s+taken)\s+over"
                           r"\s+as\s+(?:the\s+)?(?:new\s+)?(?P<role>[\w\s-]+?)\s+(?:of|for|on|at)\s+"
                           r"(?:the\s+)?@?(?P<whose>[\w-]+(?:\s+[\w-]+)?)$", re.IGNORECASE)


def _held_by(clause: str, rest: str, subject: str,
             names: Stems) -> tuple[Stems, str, Stems] | None:
    """(attribute, relation, value) when the clause's subject holds a role over the entity:
    its manager ("@Lee manages Rho now"), its lead ("Sofia runs the Falcon project"), its
    mentor or coach ("@Ikenna mentors Casimir now"), a role taken over ("@Rohan took over as
    tech lead of the Pip team")."""
    if (m := _OVER.match(rest)) and stems(m.group("whom") or m.group("led"), names) <= names \
            and subject:
        return _EMPTY, "lead" if m.group("led") else "manager", stems(subject, names)
    if (m := _GUIDES.match(rest)) and stems(m.group("whom"), names) <= names and subject:
        return stems(_GUIDE[m.group("verb").lower()]), "attr", stems(subject, names)
    if (m := _TOOK_OVER_AS.match(clause)) and stems(m.group("whose"), names) <= names:
        return stems(m.group("role"), names), "attr", stems(m.group("who"), names)
    return None


_FULL_NAME = re.compile(r"^(?-i:([A-Z][\w'-]+)(?:\s+[A-Z][\w'-]+)+)$")
# "Esperanza's cat Churro": a common noun, then the name the subject goes by
_PROPER_HEAD = re.compile(r"\b(?-i:[a-z]+\s+[A-Z][a-z]+)$")


def head(clause: str, attr: Stems) -> str:
    """The attribute's head: its last word in the clause."""
    found = [s for s in (w.stem(t) for t in w.tokens(clause)) if s in attr]
    return found[-1] if found else ""


# "is seeing someone", "is seeing Arabella (now)": a relationship — not "seeing Dr. Lund about
# her knee" nor "seeing a physio"
_SEEING = re.compile(r"(?:seeing|dating|with)\s+(?:someone|somebody)\b|(?:seeing|dating)\s+"
                     r"(?!(?:Dr|Mr|Mrs|Ms|Mx|Prof|Doctor|Professor)\b)(?-i:[A-Z][\w'-]+)"
                     r"(?:\s+(?-i:[A-Z][\w'-]+))?(?:\s+(?:now|these\s+days|again))?$",
                     re.IGNORECASE)


def _class_of(value: str) -> str | None:
    """What kind of thing "X is VALUE" says, when X is the entity itself."""
    tokens = w.tokens(value)
    heads = {w.stem(t) for t in tokens} | set(tokens)
    if re.match(r"^\d+(?:\s+years?\s+old)?$", value.strip()):
        return "age"
    if re.search(r"\bresidents?\b|(?-i:[A-Z])[\w'-]*\s+locals?\b", value, re.IGNORECASE):
        # "a Reykjavik resident now", "a Lund local now"
        return "location"
    if heads & w.DIETS:
        return "diet"
    if re.search(r"\w's\s+(?:" + w.RELATIVES + r")\b", value, re.IGNORECASE):
        return "kinship"
    if heads & w.RELATIONSHIP or _SEEING.match(value):
        return "relationship"
    if tokens and ({tokens[-1], w.stem(tokens[-1])} & w.ROLES or
                   any(t in w.ROLES for t in tokens[:4])):
        return "role"
    return None


# occurrences counted, not a state: "cancelled two tunings", "missed 3 sessions", "a week
# of lessons"
COUNTED = re.compile(r"\s*(?:(?:a|an|one|two|three|four|five|six)\s+(?:day|night|week|weekend"
                      r"|fortnight|month|couple|few|handful|lot|number|series|run)s?\s+of"
                      r"|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|several"
                      r"|\d+)\s+\w+s\b", re.IGNORECASE)
# where the noun phrase a verb ends stops: at a preposition, or an "of" before a common word
_NOUN_PHRASE_END = re.compile(r"\s(?:over|in|on|at|for|with|from|to|into|near|after|before"
                              r"|during|by|because|since|as|and|or|last|this|of(?=\s+(?-i:[a-z])))"
                              r"\s", re.IGNORECASE)


# the words that say when a thing happens: a day, a part of one, how often
WHEN_STEMS = frozenset(w.stem(x) for x in (
    "monday mondays tuesday tuesdays wednesday wednesdays thursday thursdays friday fridays "
    "saturday saturdays sunday sundays morning mornings afternoon afternoons evening evenings "
    "night nights weekend weekends weekday weekdays daily weekly fortnightly monthly pm "
    "lunchtime noon midday").split())
# ... and a month or a holiday: words of time, which name no thing ("cancelled my Christmas
# flights" ends flights; "filter coffee over chai any morning" leaves chai)
TIME_STEMS = WHEN_STEMS | frozenset(map(w.stem, (
    "january february march april june july august september october november december "
    "christmas easter").split()))


def named_head(phrase: str, names: Stems, *, last: bool = False) -> Stems:
    """The words that name the thing a noun phrase is, cut at its first preposition ("the
    road over Three Mile Hill": road): a name of three words or more by its last word
    ("the City of Dunedin Choir": choir, not Dunedin), else every word but the possessor
    it opens with ("Mum's unit": unit; "the Tartu place"; "her sister's place").  With `last`,
    a common noun's words in small letters before it are left out: they say what kind ("ended
    my morning walks": walks, not the morning; "left the Poljud kayak club": the club), and so
    are the names of times ("my Geneva Christmas flights": flights to Geneva)."""
    words = _NOUN_PHRASE_END.split(f"{_LEADING.sub('', phrase)} ", maxsplit=1)[0].split()
    words = words[1:] if words and words[0].lower() in ("the", "a", "an") else words
    if len(words) >= 3 and all(x[:1].isupper() for x in words if x.lower() != "of"):
        return stems(words[-1], names)
    if len(words) > 1 and re.search(r"['’]s?$", words[0]):
        words = words[1:]
    if last and len(words) > 1 and words[-1][:1].islower():
        words = [x for x in words[:-1] if x[:1].isupper()] + words[-1:]
        return (head := stems(" ".join(words), names)) - TIME_STEMS or head
    return stems(" ".join(words), names)


_LEADING = re.compile(r"^\s*(?:out\s+of|of|from|with|to)\s+", re.IGNORECASE)


_SMALL = re.compile(r"\b(?i:my|our|his|her|their|the)\s+([a-z][a-z-]+)\b(?:\s+([a-z][a-z-]+)\b)?")


def common_tags(content: str, tags: tuple[str, ...]) -> Stems:
    """The one-word tags a fact writes as a noun in small letters after an article or a
    possessive, or after one word more ("@Phone: my phone", "@Van: the shop van"): the tag
    stands for the thing, which is a slot."""
    return frozenset(w.stem(x) for m in _SMALL.finditer(content) for x in m.groups() if x) \
        & {w.stem(e.lower()) for e in tags if e.isalpha()}
