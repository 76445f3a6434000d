"""A fact read for the judge: what it is about, what it states, and how it says it.
This module reads English (lexicons in judge.words); judge.reading_table reads the
languages with a lexicon table into the same `Reading` (judge.readers picks the reader).

Pure functions of a fact's text.  A `Reading` holds, as word stems (judge.words):

- `words`      the content words, without stop words and the fact's own entity names;
- `predicate`  the content words after the grammatical subject of its first clause;
- a slot — `attr` (what attribute: "main database", "CEO", "home internet"), `relation`
               (location, employer, role, diet, age, relationship, name, or the verb that
               relates subject and value) and `value`;
- `changes`    each change it states: the verb, the value left (`old`, "from X"), the value
               taken (`new`, "to Y") and what changed (`obj`, "the main database");
- `ends`       the words of each clause that says something stopped ("quit smoking",
               "no longer vegetarian", "Zendesk is gone");
- `numbers`    quantities with their unit words; `families` the products it names, with
               the family each belongs to (database: PostgreSQL, MySQL ...);
- `polarity`   +1 / -1 for a stated liking or disliking;
- `guard`      why it cannot replace anything: plan (a plan or a hypothetical), negated (a
               change that did not happen), temporary (a visit, a stated range that ends),
               third-party (someone else's news or view), suggestion ("we should"),
               question ("Is it MySQL now?", "need to check"), discussion ("under
               discussion"), pitch (a vendor's pitch, an offer), restated ("again",
               "still") — or None; `additive` ("also", "too");
- `now`, `reversal`, `parted`  whether it says the state holds now or changed ("now",
               "switched"), a change of mind or habit ("came round", "no longer"), that a
               relationship ended ("broke up");
- `about`      the entity keys of its subject: the entities named in its grammatical subject,
               else those before the colon (an @mention in the content is a value, read like
               any word: "Works at @Acme").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from memfold.lifecycle.judge import phrases as p
from memfold.lifecycle.judge import quantities as q
from memfold.lifecycle.judge import words as w
from memfold.lifecycle.judge.phrases import RENAMING as _RENAMING
from memfold.lifecycle.judge.phrases import SWAPS as _SWAPS
from memfold.lifecycle.judge.phrases import plainer
from memfold.lifecycle.judge.slots import COUNTED, common_tags, named_head, stems
from memfold.lifecycle.judge.slots import clip as _clip
from memfold.lifecycle.judge.slots import head as _head
from memfold.lifecycle.judge.slots import slot as _slot
from memfold.lifecycle.judge.slots import split_subject as _split_subject
from memfold.lifecycle.judge.unsaid import unsaid
from memfold.names import entity_key
from memfold.values import Fact

Stems = frozenset[str]
_EMPTY: Stems = frozenset()


@dataclass(frozen=True)
class Change:
    verb: str
    old: Stems  # the value left behind ("from X"); empty when unstated
    new: Stems  # the value taken ("to Y"); empty when unstated
    obj: Stems  # what changed: the words between the verb and from/to


@dataclass(frozen=True)
class Reading:
    kind: str
    text: str  # the content as read (contractions expanded), for reasons a person reads
    words: Stems
    subject: Stems
    predicate: Stems
    attr: Stems
    relation: str | None
    value: Stems
    verb: str  # the verb of a passive slot ("is owned by" -> own), else ""
    head: str  # the head word of the attribute ("car insurance" -> insurance), else ""
    changes: tuple[Change, ...]
    ends: tuple[Stems, ...]
    numbers: tuple[tuple[str, Stems], ...]
    versions: frozenset[tuple[str, str]]  # ("python", "3.12"), ("windows", "11")
    families: frozenset[tuple[str, str]]
    polarity: int
    changed_mind: bool  # "has come around on", "changed her mind about"
    guard: str | None
    additive: bool
    about: frozenset[str]  # the entity keys the fact is about (its subject), see `_about`
    now: bool  # says the state holds now or changed ("now", "switched", "giờ")
    reversal: bool  # a change of mind or of habit ("came round", "no longer")
    parted: bool  # a relationship ended ("broke up", "chia tay")
    corrected: bool = False  # a correction: the older value was wrong ("actually 14 May")
    addresses: frozenset[str] = frozenset()  # email addresses it names, lower case
    again: bool = False  # "again": back to a value (a restatement only of the same value)
    kept: Stems = frozenset()  # what it says was kept ("but kept his job"): no change
    # beside each of `ends`, the words that name the thing that ended: an end shares that
    # thing only through them, not through its possessor or a word inside a longer name
    # ("left the City of Dunedin Choir" ended a choir, not Dunedin); empty when not told
    end_heads: tuple[Stems, ...] = ()


_CHANGE_STEMS = frozenset(w.stem(v) for v in w.CHANGE_VERBS)
_END_STEMS = frozenset(w.stem(v) for v in w.END_VERBS)
_CHANGE_WORDS = frozenset("went grew rose became cut set took got".split())
_END_WORDS = frozenset("left quit sold wound shut".split())


def _verbs(text: str, verb_stems: frozenset[str], words: frozenset[str]) -> list[re.Match[str]]:
    """Where the text uses one of these verbs, in any inflection ("moved", "moving"); a
    capitalised word inside a sentence is a name ("in Port Chalmers"), not the verb."""
    return [m for m in w.TOKEN.finditer(text)
            if ((t := m.group().lower()) in words or w.stem(t) in verb_stems)
            and not (m.group()[:1].isupper() and _INSIDE.search(text[: m.start()]))]


_INSIDE = re.compile(r"[\w,'’]\s+$")  # a word or a comma just before: inside a sentence


def _changes_in(text: str) -> list[re.Match[str]]:
    return _verbs(text, _CHANGE_STEMS, _CHANGE_WORDS)


def _ends_in(text: str, guard: str | None = None) -> bool:
    """Whether the text says something ended: a verb of ending in the past ("quit",
    "cancelled", "has stopped"); the present ("sells", "closes at 6") is a routine, unless
    the fact is a plan or a change that did not happen ("might leave", "didn't quit")."""
    return _end_at(text, guard) is not None


def _end_at(text: str, guard: str | None = None) -> re.Match[str] | None:
    return next((m for m in _verbs(text, _END_STEMS, _END_WORDS)
                 if guard in ("plan", "negated") or m.group().lower().endswith("ed")
                 or m.group().lower() in _END_WORDS), None)


def _ended(clause: str, names: Stems, guard: str | None) -> tuple[Stems, Stems] | None:
    """What a clause says ended, with its head (`Reading.end_heads`), or None: the object
    of the verb or phrase of ending ("customers stopped complaining": complaining, not the
    customers; "quit smoking"), and its subject too when the verb has no object ("the Berlin
    office closed at the end of Q1", "Zendesk is gone") or says the subject left ("Mrs. Trần
    left the firm").  Occurrences counted are no state: "cancelled two tunings" ends none."""
    blanked = _NOT_AN_END.sub(lambda x: " " * len(x.group()), clause)  # offsets kept
    if free := _FREE.search(clause):  # "is car-free now": no car any more
        return stems(free.group(1), names), _EMPTY
    heads = _EMPTY
    if m := w.END_PHRASES.search(clause) or _ASKED_TO_STOP.search(clause):
        after = stems(_clip(clause[m.end():]), names)  # "no longer on the board": the state
    elif m := _end_at(blanked, guard):
        rest = clause[m.end():]
        if _HANDED_ON.fullmatch(m.group()):
            rest = _handed_on(rest)
        if COUNTED.match(rest):
            return None
        clipped = "" if _NO_OBJECT.match(rest) else _clip(rest)
        after = stems(clipped, names)
        heads = named_head(clipped, names, last=True) if after else _EMPTY
    else:
        return None
    inside = stems(m.group(), names) - _PHRASE_WORDS  # "bought Lise out"
    after |= inside
    if heads:
        heads |= inside
    if after and not _DEPARTS.search(m.group()):
        return after, heads
    subject = _nearest(_SUBORDINATE.split(clause[: m.start()])[-1])  # "after Dr. Lind retired"
    if (heads or not after) and "," not in subject.strip(" ,"):  # the noun phrase before it
        heads |= named_head(" ".join(subject.split()[-3:]), names)
    else:
        heads = _EMPTY
    return after | stems(subject, names), heads


def _handed_on(rest: str) -> str:
    """What a sale or a gift handed on: its object before whom it went to and for how much;
    of a common noun, only its head ("sold my E175 flight bag" sold a bag, not the E175 one
    flies), of a name all of it ("sold the Honda Fit")."""
    what = _TO_WHOM.split(rest, maxsplit=1)[0]
    phrase = _PHRASE_END.split(what, maxsplit=1)[0].split()
    if phrase and phrase[-1][:1].islower() and not any(x[:1].isupper() and x.isalpha()
                                                        for x in phrase[1:]):
        return " " + phrase[-1]  # "the Tartu place" keeps the name that says which place
    return what


_PHRASE_END = re.compile(r"\s(?:and|in|on|at|with|from|of|once|after|when|before|because|since"
                         r"|as|so|but|last|this|yesterday|today)\b|[,;.]", re.IGNORECASE)


def _nearest(subject: str) -> str:
    """The subject next to the verb, after a heading or a list: "Fall menu: scallops with
    brown butter, duck was dropped" dropped the duck.  A subject in apposition ("Zendesk, our
    old helpdesk, is gone") is kept whole."""
    subject = subject.rsplit(":", 1)[-1]
    if subject.rstrip().endswith(","):
        return subject
    return subject.rsplit(",", 1)[-1]


_SUBORDINATE = re.compile(r"\b(?:after|when|because|since|once|before|until|as)\b", re.IGNORECASE)
_FREE = re.compile(r"\b(?:is|are|went|gone|now|been|became|become|living)\s+(?:now\s+)?"
                   r"([a-z]+)-free\b", re.IGNORECASE)
# the words of the phrases of ending themselves
_PHRASE_WORDS = _END_STEMS | frozenset(w.stem(x) for x in (
    "is are was were be no longer not anymore any more gone over broke up split gave give "
    "giving wound winds shut fell falling out bought moved away walked stepped down let "
    "phased asked told want wants wanted requested me us him her them team").split())
_NO_OBJECT = re.compile(r"\s*(?:$|[,.;]|(?:at|in|on|for|with|after|before|during|last|this"
                        r"|yesterday|today|recently|early|late|by|since|and|when|because"
                        r")\b)", re.IGNORECASE)
_DEPARTS = re.compile(r"\b(?:left|leav\w*|quit\w*|resign\w*|retir\w*|moved\s+out|fell\s+out"
                      r"|falling[- ]out|broke\s+up|split\s+up|stepped\s+down|let\s+\S+\s+go\b)",
                      re.IGNORECASE)  # "Fenwick let Ivo go": Fenwick is what ended


_FROM_TO = re.compile(
    r"\b(?:from|off(?:\s+of)?|out\s+of|away\s+from)\s+(?P<old>.+?)\s+(?:(?:over|across|back)"
    r"\s+)?(?:to|onto|into|for)\s+(?P<new>.+)$", re.IGNORECASE)
_TO = re.compile(r"\b(?:(?:over|across|back)\s+)?(?:to|onto|into|as)\s+(?P<new>.+)$",
                 re.IGNORECASE)
_FROM = re.compile(r"\b(?:from|off|out\s+of|away\s+from)\s+(?P<old>.+)$", re.IGNORECASE)
_VERSION = re.compile(r"\b\d+\.\d+(?:\.\d+)?\b")
_CLAUSE_SPLIT = re.compile(r"\s*(?:;|\s[-–—]\s|,\s+(?:and|but|so|which|who|while|because)\s"
                           r"|\s+but\s+|\s+so\s+|\s+because\s+|\s+after\s+(?=\w+\s+\w+ed\b))\s*",
                           re.IGNORECASE)
_FRONTED = re.compile(r"^(?:these\s+days|nowadays)\s+(?=\w+\s+\w)|^(?:after|since|as\s+of|over"
                      r"|during|following|starting|beginning"
                      r"|effective|going\s+forward|from|in|on"
                      r"|with|upgraded|thanks|these\s+days|recently|lately|now|today|this|earlier"
                      r"|later|last|next|back\s+in|at\s+the\s+(?:start|end))"
                      r"\b[^,]{0,60},\s*"
                      r"|^(?:from|starting\s+(?:with|from|at)|beginning\s+with)\s+[^,]{1,40}?\s+"
                      r"onwards?\s+(?=\w)"  # "From version 3 onwards the app is ..."
                      r"|^(?:after|since|following)\s+the\s+\w+(?:\s+\w+)?\s+(?=(?-i:[A-Z@])[\w-]*"
                      r"(?:'s)?\s)", re.IGNORECASE)  # "After the reorg Chen's manager is ..."


def read(fact: Fact) -> Reading:
    """Read one fact (cached: a fact is read once however many pairs it is weighed in)."""
    ends = fact.valid is not None and fact.valid.end is not None
    return _read(fact.kind, fact.content, fact.entities, ends)


def read_text(kind: str, content: str, entities: tuple[str, ...], ends: bool) -> Reading:
    """`read` of a fact told by its parts (whether its valid interval ends: `ends`)."""
    return _read(kind, content, entities, ends)


_EXPAND = {"'re": " are", "'ve": " have", "'m": " am", "'ll": " will", "n't": " not",
           "can't": "cannot", "won't": "will not"}
_CONTRACTIONS = re.compile(r"\b(can't|won't)|(?<=\w)('re|'ve|'m|'ll|n't)\b", re.IGNORECASE)
# "she's Priyanka Iyer now", "Halima's a ward sister": an 's that is "is", not a possessive
# (not after a copula: "@Brampton-Homes is Saoirse's letting agent" is Saoirse's agent)
_IS = re.compile(r"(?<!\bis\s)(?<!\bwas\s)(?<!\bbeen\s)(?<!\bbecame\s)"
                 r"\b(?P<who>he|she|it|that|there|who|[A-Z][\w-]*)'s\s+(?=(?:a|an|the|now|still|not"
                 r"|no|on|in|at|with|back|been|got|gone|over|done|down|up"
                 r"|\w+ing(?!(?:\s+[\w-]+)?\s+(?:is|are|was|were|has|have)\b)"
                 r"|[A-Z]\w*\s+[A-Z]\w*)\b)")
# "Chiara says autumn is her favourite season": the saying is the fact's own voice
_SELF_REPORT = re.compile(r"^(?P<who>[A-Z][\w-]*|[Hh]e|[Ss]he|[Tt]hey|[Ww]e|I"
                          r"|(?:[Aa]n?|[Tt]he|[Aa]nother|[Oo]ne)\s+[\w-]+(?:\s+[\w-]+)?)\s+(?:says|said"
                          r"|thinks|feels|reckons|believes|admits|admitted)\s+(?:that\s+)?"
                          r"(?=\w+\s)")


_NOT_AN_END = re.compile(r"\b(?:close\s+to|closely|left\s+(?:side|hand|of)|end\s+of|ended\s+up"
                         r"|clos(?:ed|ing|es?)\s+on"  # "closed on the house": bought it
                         # a participle after a determiner describes a noun: "my left knee",
                         # "a retired 747 captain", "the closed office"
                         r"|(?:a|an|the|my|your|his|her|its|our|their|\w+['’]s)\s+(?:left|retired|closed"
                         r"|dropped|cancell?ed|discontinued|abandoned|deprecated|deleted|removed"
                         r"|sold|ended|stopped|separated|divorced|quit)"
                         # leaving something as it is: "the RBA left rates on hold"
                         r"|left\s+(?:\S+\s+){1,3}?(?=(?:on\s+hold|unchanged|untouched|alone|intact"
                         r"|in\s+place|as\s+(?:it|they)\s+(?:is|are|was|were)|the\s+same)\b)"
                         # leaving someone in a state: "the lesson left me more confused"
                         r"|left\s+(?:me|us|him|her|them)\s+(?=(?:more|less|so|very|quite|really"
                         r"|feeling|a\s+bit|\w+ed)\b)"
                         # less of it, not none: "has stopped eating much"
                         r"|(?:stopp?\w*|quit\w*)\s+\w+ing\s+(?=(?:much|as\s+much|so\s+much)\b))\b",
                         re.IGNORECASE)
# what is sold or given ends before whom it went to and for how much: "sold the Honda Fit
# to a student in Bridgewater for $3,200" ended the Honda Fit, not anything of a student
_HANDED_ON = re.compile(r"\b(?:sell|sells|selling|sold|gave|give|gives|giving|donated)\b",
                        re.IGNORECASE)
_TO_WHOM = re.compile(r"\s(?:to|for)\s", re.IGNORECASE)
# "asked me to drop the emoji": a request to stop is the end of what it stops
_ASKED_TO_STOP = re.compile(r"\b(?:asked|told|wants?|wanted|requested)\s+(?:me|us|him|her|them"
                            r"|the\s+team)?\s*(?:to\s+)?(?:drop|stop|skip|avoid|remove|ditch"
                            r"|quit|cut)\b", re.IGNORECASE)


def _clip_change(text: str) -> str:
    """A value in a change ends before its trailing details: "Vim for day-to-day coding"
    -> "Vim", "1 Gbps fibre in February" -> "1 Gbps fibre"."""
    return re.split(r"\s(?:for|during|as|at|in|on|with|by|last|this|when|until|to)\s",
                    _clip(text), maxsplit=1, flags=re.IGNORECASE)[0]


def forget_readings() -> None:
    """Empty the cache of readings (benchmarks time a judge reading both facts)."""
    _read.cache_clear()


@lru_cache(maxsize=4096)
def _read(kind: str, content: str, entities: tuple[str, ...], ends: bool) -> Reading:
    text = _CONTRACTIONS.sub(lambda m: _EXPAND[m.group().lower()],
                             re.sub(r"(?<![\w.+-])@(?=\w)", "", content).strip().rstrip(".!"))
    text = q.GLUED.sub(r"\1 \2", text)  # "74kg" -> "74 kg"
    text = q.ORDINAL_STAGE.sub(q.stage, text)  # "third grade" -> "Grade 3", a version
    said = _SELF_REPORT.match(text)
    if said and _own_voice(said.group("who"), _name_stems(entities)):
        text = text[said.end():]
    text = _participle_first(plainer(text))
    text = _IS.sub(lambda m: f"{m.group('who')} is ", text)
    text = re.sub(r"\s*\((?:[^()]*\d[^()]*)\)", "", text)  # a stated range is not content
    text = re.sub(r"\b(\d+)\((\w)\)", r"\1\2", text)  # "401(k)" is a name, not 401 of k
    own = tuple(e for e in entities if not re.search(rf"@{re.escape(e)}(?![\w-])", content, re.I))
    clauses = [c for c in _CLAUSE_SPLIT.split(text) if c.strip()]
    first = _FRONTED.sub("", clauses[0]) if clauses else ""
    about = _about(first, entities, own)
    # the names dropped from its words are its subject's: another entity it names is a
    # value ("W @Sam @Globex: Sam works at Globex": Globex is where Sam works)
    names = _subject_names(own, about, content)
    subject_text, predicate_text = _split_subject(first, names)
    attr, relation, value, verb, head = _EMPTY, None, _EMPTY, "", ""
    for clause in (_FRONTED.sub("", c) for c in clauses):  # the first clause that states one
        attr, relation, value, verb = _slot(clause, names)
        if relation:
            head = _head(clause, attr)
            break
    guard = _guard(text, names, ends)
    self_report = _SELF_REPORT.match(text)
    if guard is None and self_report and not _own_voice(self_report.group("who"), names):
        guard = "third-party"  # "Bob thinks MySQL is faster": someone else's view
    corrected = bool(p.CORRECTION.search(content))
    sentences = p.sentences(*clauses)  # a change or an end is read within its sentence
    ended = [e for one in sentences if (e := _ended(one, names, guard)) is not None]
    return Reading(
        kind=kind,
        text=text,
        words=stems(text, names),
        subject=stems(subject_text, names),
        predicate=stems(" ".join([predicate_text, *clauses[1:]]), names),
        attr=attr, relation=relation, value=value, verb=verb, head=head,
        changes=tuple(c for one in sentences for c in _changes(_FRONTED.sub("", one), names)),
        ends=tuple(e for e, _ in ended),
        end_heads=tuple(h for _, h in ended),
        numbers=q.numbers(text),
        versions=q.versions(text),
        families=q.families(text),
        polarity=q.polarity(text),
        changed_mind=bool(w.CHANGED_MIND.search(text)),
        guard=guard,
        additive=bool(w.ADDITIVE.search(text)),
        about=about,
        now=corrected or bool(w.NOW.search(content)),
        reversal=bool(w.REVERSAL.search(content) or w.REVERSAL.search(text)),  # "she's back on"
        parted=bool(w.PARTED.search(content)),
        corrected=corrected,
        addresses=frozenset(a.lower() for a in w.EMAIL.findall(content)),
        again=bool(w.AGAIN.search(text)),
        kept=frozenset().union(*(stems(_clip(m.group("what")), names) for c in clauses
                                 if (m := w.KEPT.search(c)))),
    )


# a fronted passive: "Operated by CalMac from this season, the Corran ferry runs later"
_BY_FIRST = re.compile(r"^(?P<done>(?-i:[A-Z])[a-z]+(?:ed|en|wn|lt|un)(?:\s+(?:these\s+days|now))?"
                       r"\s+by\s+[^,;]+?),\s+(?P<rest>(?:the\s+|a\s+|an\s+)?\S.*)$")


def _participle_first(text: str) -> str:
    """A fronted passive said as its clause: "Managed by Quirin since the autumn, the library
    opens late" -> "the library is managed by Quirin since the autumn; the library opens late"."""
    if not (m := _BY_FIRST.match(text)):
        return text
    subject = _split_subject(m.group("rest"), frozenset())[0]
    if not subject:
        return text
    return f"{subject} is {m.group('done')[0].lower()}{m.group('done')[1:]}; {m.group('rest')}"


_OWNER = re.compile(r"\b(?:is|are|was|became|becomes|been)\s+(?:now\s+)?"
                    r"(?:(?P<who>@?[\w-]+)'s\s+\w+"
                    r"|the\s+(?:new\s+)?\w+\s+(?:of|at|for)\s+(?P<of>@?[\w-]+))")


@lru_cache(maxsize=4096)
def _name_stems(entities: tuple[str, ...]) -> Stems:
    """The stems the entities are named by; the user (@me) is named "User" too, as an agent
    writes it ("User lives in Leith")."""
    return frozenset(w.stem(e.lower()) for e in entities) | frozenset(
        s for e in entities for part in re.split(r"[-_.]", e) if part
        for s in (w.stem(part.lower()),)) | (_USER if any(e.lower() == "me" for e in entities)
                                             else _EMPTY)


_USER = frozenset({w.stem("user")})


def _subject_names(own: tuple[str, ...], about: frozenset[str], content: str) -> Stems:
    """The names of the entities a fact is about, but a one-word tag it writes as a noun
    ("@Phone: My phone is a Tecno": the slot, not a name)."""
    return _name_stems(tuple(e for e in own if entity_key(e) in about) or own[:1]) \
        - common_tags(content, own)


def _own_voice(who: str, names: Stems) -> bool:
    """"She says", "We think", "Chiara says" of Chiara's own fact: the fact's own voice."""
    return who.lower() in ("he", "she", "they", "we", "i") or w.stem(who.lower()) in names


def _about(clause: str, entities: tuple[str, ...], own: tuple[str, ...]) -> frozenset[str]:
    """The entity keys of the fact's subject: those its first clause's grammatical subject
    names ("Sam" in "Sam works at @Globex"), else the first name before the colon ("W @Sam
    @Globex: Works at Globex" is about Sam), else the first entity."""
    said = set(w.tokens((first := _split_subject(clause, frozenset())[0]).lower()))
    subject = {w.stem(t) for t in said}
    named = [e for e in entities if _name_stems((e,)) & subject and (e in own or _written(
        e) & said)]  # "My phone contract is with @Skyline-Mobile": "phone" is no name
    whose = {w.stem(m.group(1).lower()) for m in _POSSESSOR.finditer(first)}
    named = [e for e in named if not _name_stems((e,)) <= whose] or named  # "Quin's mum,
    # Isabel, lives in Brighton": Isabel's home, not Quin's
    if not set(named) & set(own) and (owner := _OWNER.search(clause)):  # "The CTO is
        # Globex's", "... of Globex"; "@Seo-yeon has been Ludmila's manager": Ludmila's
        whose = {w.stem(t) for t in w.tokens(owner.group("who") or owner.group("of"))}
        named = [e for e in entities if _name_stems((e,)) & whose
                 and (not named or e in own)] or named
    if slot := _SLOT_OF.search(clause):  # "took over as Sam's manager", "manages Rho now"
        whose = {w.stem(t) for t in w.tokens(next(g for g in slot.groups() if g))}
        named = [e for e in entities if _name_stems((e,)) & whose] or named
    elif named and not set(named) & (set(own) or set(entities[:1])) and (  # "W @Sam: @Sam
        # joined @Globex": Sam, named first, is the entity the fact is filed under
            done := _DONE_FOR.search(clause) or _ACTS_ON.search(clause)):
        whose = {w.stem(t) for t in w.tokens(done.group("whose"))}  # "@Devika does Ishaan's
        named = [e for e in entities if _name_stems((e,)) & whose] or named  # books"
    return frozenset(entity_key(e) for e in (named or own[:1] or entities[:1]))


_POSSESSOR = re.compile(rf"\b([\w-]+)['’]s\s+(?:{w.RELATIVES})\b", re.IGNORECASE)


def _written(entity: str) -> frozenset[str]:
    """The words of an entity's name as written ("skyline", "mobile"), not stemmed: "phone"
    is a stem of "mobile", not a word of the name."""
    return frozenset(w.tokens(entity.replace("-", " ").lower()))


# a service an @mentioned subject does for the entity: "@Finch-Accounts prepares Dorcas's tax
# return", "@Devika does Ishaan's books" — a fact about Dorcas, Ishaan
_DONE_FOR = re.compile(r"^@?[\w-]+\s+(?:now\s+)?\w+s\s+(?P<whose>[\w-]+)'s\s+\w+", re.IGNORECASE)
# an @mentioned subject that acts on the entity: "@Agency-A represents Piotr", "@Globex hired
# Sam" — a fact about Piotr, Sam (when the entity is named before the colon)
_ACTS_ON = re.compile(r"^@?[\w-]+\s+(?:now\s+)?[a-z]+(?:s|ed)\s+@?(?P<whose>[\w-]+)\b(?!')")
# whose slot a clause fills when its grammatical subject is the value: "as Sam's manager"
_SLOT_OF = re.compile(r"\bas\s+(?:the\s+new\s+)?@?(?P<who>[\w-]+)'s\s+\w+|^@?[\w-]+\s+(?:now\s+)?"
                      r"(?:manages|supervises|line[- ]manages|leads|heads|runs|owns|mentors|coaches"
                      # "leads the mobile team": whom, in up to three words
                      r"|tutors|advises|trains|teaches)\s+(?:the\s+)?(?!(?:with|at|in|on|for|from|to|under"
                      r"|by|as)\b)@?(?P<whom>[\w-]+(?:\s+(?!(?:now"
                      r"|since|from|at|in|on|for|and|with|until)\b)[\w-]+){0,2})"
                      r"|\b(?:is|are)\s+(?:now\s+)?the\s+@?(?P<team>[\w-]+(?:\s+[\w-]+)?)'s\s+\w+"
                      r"|\btook\s+over\s+as\s+(?:[\w-]+\s+){0,3}?(?:of|for|on)\s+(?:the\s+)?@?"
                      r"(?P<asof>[\w-]+)"
                      r"|\b(?:is|are)\s+(?:now\s+)?the\s+(?:new\s+)?(?:lead|head|owner|manager)\s+of"
                      r"\s+@?(?P<of>[\w-]+)|\btook\s+over\s+(?!as\b)@?(?P<over>[\w-]+)\s+from\b",
                      re.IGNORECASE)


_NEW_VALUE = re.compile(r"\bnew\s+(?P<obj>[\w-]+(?:\s+[\w-]+)?)(?:\s+(?:is|are)\s+|\s*:\s*)"
                        r"(?!(?:compared|than|like|so|very|too|quite|really|much|more|less|not"
                        # a word of praise or a comparative, not a name ("Scrivener")
                        r"|great|nice|lovely|better|worse|quiet|loud|(?-i:[a-z])\w*(?:ly|er))\b)"
                        r"(?P<new>.+)$", re.IGNORECASE)


# "registered with Dr. Osei as our new GP", "Dr. Osei is our new GP": the value is named first
_AS_NEW = re.compile(r"(?:^(?:.*\s)?(?:with|to|on|at|by|for)\s+|^)(?P<new>[^,;]+?)\s+"
                     r"(?:as|is|are)\s+"
                     r"(?:our|my|his|her|their|its|the)\s+new\s+(?P<obj>[\w-]+(?:\s+[\w-]+)?)$",
                     re.IGNORECASE)


# the new value in apposition: "Sam's new employer, @Globex, pays better"
_NEW_APPOSED = re.compile(r"\bnew\s+(?P<obj>[\w-]+(?:\s+[\w-]+)?),\s+(?P<new>[^,;]+?),\s",
                          re.IGNORECASE)


# "Internet at the new house is 200 Mbps": the new thing is where another thing is, and the
# value is that other thing's
_IN_ANOTHER = re.compile(r"\b(?:at|in|on|of|for|from|near|inside|outside)\s+"
                         r"(?:the|our|my|his|her|their|its)\s+$", re.IGNORECASE)


def _new_value(clause: str) -> re.Match[str] | None:
    m = _NEW_VALUE.search(clause)
    return None if m and _IN_ANOTHER.search(clause[: m.start()]) else m


def _changes(clause: str, names: Stems) -> list[Change]:
    found: list[Change] = []
    if m := _new_value(clause) or _AS_NEW.search(clause) or _NEW_APPOSED.search(clause):
        value = re.sub(r"^(?:in|on|at|with)\s+", "", m.group("new"), flags=re.I)
        found.append(Change("new", _EMPTY, stems(_clip(value), names),
                            stems(m.group("obj"), names)))
    if back := _BACK_TO.search(clause):  # "is back on Vim", "went back to Vim": Vim again
        found.append(Change("replace", _EMPTY, stems(_clip_change(clause[back.end():]), names),
                            _EMPTY))
    for pattern, old_group, new_group in _SWAPS:
        if m := pattern.search(clause):
            old = stems(_clip_change(m.group(old_group)), names) if old_group else _EMPTY
            new = stems(_clip_change(m.group(new_group)), names) if new_group else _EMPTY
            verb = "rename" if _RENAMING.search(m.group()) else "replace"
            found.append(Change(verb, old, new, _EMPTY))
            return found
    subject = stems(_split_subject(clause, names)[0], names)
    for m in _changes_in(clause):
        verb, rest = w.stem(m.group().lower()), clause[m.end():]
        if back and back.start() <= m.start() < back.end():
            continue  # "went" of "went back to": read above
        if verb == w.stem("take") and not p.TAKEN_ON.match(rest):
            continue  # "took the dog to puppy training": an errand, not a change
        if verb == "go" and (p.VISITED.match(rest) or _WENT_HOW.match(rest)):
            continue  # "went to the club's barbecue": a visit, not a move; "went well"
        if _DETERMINED.search(clause[: m.start()]) and not _TO.match(rest.lstrip()) \
                and not _FROM.match(rest.lstrip()):
            continue  # "the move went fine": a noun that names no value
        if (f := _FROM_TO.search(rest)) and not p.DISTANCE_FROM.search(rest[: f.start()]):
            obj = rest[: f.start()]
            found.append(Change(verb, stems(_clip_change(f.group("old")), names),
                                stems(_clip_change(f.group("new")), names), stems(obj, names)))
        elif t := _TO.search(rest):  # "Dr. Kowalczyk switched me to ...": me, not the doctor
            doer = not _PERSON.fullmatch(rest[: t.start()].strip())  # nor "switched Tucker"
            found.append(Change(verb, _EMPTY, stems(_clip_change(t.group("new")), names),
                                stems(rest[: t.start()], names) or (subject if doer else _EMPTY)))
        elif (f := _FROM.search(rest)) and not p.DISTANCE_FROM.search(rest[: f.start()]):
            found.append(Change(verb, stems(_clip_change(f.group("old")), names), _EMPTY,
                                stems(rest[: f.start()], names)))
        else:
            version = _VERSION.findall(rest)  # "installed the 2024.26 update"
            found.append(Change(verb, _EMPTY, frozenset(version), subject) if version else
                         Change(verb, _EMPTY, _EMPTY, stems(_clip(rest), names)))
    return found


_BACK_TO = re.compile(w.BACK_TO, re.IGNORECASE)
# who a change was made for: "me", or one named ("Dr. Baptiste switched Tucker to ...")
_PERSON = re.compile(r"(?i:me|us|him|her|them)|[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2}")
_DETERMINED = re.compile(r"\b(?:the|a|an|our|my|his|her|their|this|that)\s+$", re.IGNORECASE)
# how a thing went, not where: "my first term at Tanhill went well", "the move went fine"
_WENT_HOW = re.compile(r"\s+(?:(?:really\s+|very\s+|pretty\s+|quite\s+)?(?:well|badly|fine"
                       r"|smoothly|ok|okay|great|brilliantly|wrong|awry|to\s+plan)"
                       r"|\w+ing)\b",  # "went snorkelling off Tofo": something done there
                       re.IGNORECASE)
_BUT = re.compile(r",?\s+but\s+", re.IGNORECASE)


# a state begun, not a visit: "started as a planning consultant with Arden & Hale this month"
_BEGAN = re.compile(r"\b(?:started|began)\s+(?:at|with|as)\b", re.IGNORECASE)


def _guard(text: str, names: Stems, ends: bool) -> str | None:
    """Why the fact cannot replace anything (module docstring), or None.  An intention
    whose "but" clause says what happened instead ("was going to stay in Marseille, but she
    moved to Lyon in the end") is judged by what happened."""
    but = _BUT.search(text)
    if but and p.INTENDED.search(text[: but.start()]):
        tail = text[but.end():]
        if (_changes_in(tail) or _end_at(tail)) and _guard_of(tail, names, ends) is None:
            return None
    return _guard_of(text, names, ends)


def _guard_of(text: str, names: Stems, ends: bool) -> str | None:
    if guard := _whose_guard(text, names):
        return guard
    if p.PERIOD_SUMMARY.search(text):  # "March was all about the move": that month's story
        return "past"
    if guard := unsaid(text):
        return guard
    if w.RESTATED.search(text) and not (_changes_in(text) or _ends_in(text)
                                        or w.END_PHRASES.search(text)):
        return "restated"
    if w.TEMPORARY.search(text) or ends or (w.THIS_WEEK.search(text) and not (
            _changes_in(text) or _ends_in(text) or w.END_PHRASES.search(text)
            or _BEGAN.search(text)  # "started as a consultant with Arden this month"
            or re.search(r"\brenamed\b", text, re.IGNORECASE))):
        return "temporary"
    return None


def _whose_guard(text: str, names: Stems) -> str | None:
    """"third-party" for a fact about another's affairs than its subject's, "past" for its
    subject's former ones, or None."""
    if (m := w.THIRD_PARTY.search(text)) and not p.describes_subject(text, m, names):
        return "third-party"
    if (m := w.REPORTED_OTHER.search(text)) and w.stem(m.group(1).lower()) not in names:
        return "third-party"
    if m := w.OTHERS_HISTORY.search(text):  # "Marek's previous company": not today's
        return "third-party" if w.stem(m.group(1).lower()) not in names else "past"
    return None
