"""What a question about now asks, and which shown fact states its current value.

Two facts about one subject often both answer a question: "Rosa reports to Tariq" and,
later, "Rosa had her first one-on-one with her new manager, Inês"; "Leilani relocated from
Hilo to Honolulu" and, later, "Leilani took a job in Portland and moved there".  The judge
may never have linked them (the older one an experience, the change implied, the newer one
written under another entity and naming the subject only in its text), so neither is
superseded and the older one, with more of the question's words, ranks first.

`current_first` reads the question's *slot* — its words less the names it gives and the
words that only frame it, with the lexicon's other words and forms for each ("boss":
manager; "live", "where": the words of a home and of a move; "these days" and the other
words of now name no slot; a question that names only a value, "still using a Pixel?", asks
that value's slot, and "still in Aarhus?" asks where) — and, among the best results,
lets a newer fact rank first over the older facts about the same subject (an entity they
are linked to, or whose name the newer one's text gives) when it states the current value
of that slot:

- the judge reads it as a change of the older fact's value (a supersede it would make
  across entities, or a rule that reads one slot with two values: `SLOT_RULES`);
- or it holds a word of the slot (or, for a question of work, the judge reads it as an
  employer or a role, or it tells the first day at a job), or — asked about now — it names
  the value the judge reads in an older fact on the slot ("switched to Hoka Cliftons after
  the Brooks gave him blisters"), and says the value is new or holds now: "new manager",
  "moved", "now", a change verb the judge reads with its new value; or a state that holds
  for a stated time that covers today, when the question asks about now ("at the moment",
  "still", "currently") and the state is on the slot by what it says, not by the reason it
  gives ("pausing Spanish lessons until January because work is busy" is no way to get to
  work); or the question asks for the "new" one ("Yuki's new cat").

A question in the first person ("who's my boss?", "which GP am I with?") asks a slot of the
user's (`names.USER`), and a fact that gives the slot as the user's ("Tomás became my line
manager", "Dr. Hollis is my new GP") is about the user whatever entity it is written under
(`mine.mine_of`); a fact that is the user's by that alone is weighed only against another that
gives the same slot as the user's ("Promoted to associate director", @me, is no manager of
the user's).

A successor that ranks on the match of the fact it replaced is on that fact's slot, and a
newer fact that names the value it changed to ("Team Pylon is now run by Xiomara after
Aurelio's promotion") or gives the replaced fact's one-valued relation another value ("her
girlfriend is Yara" after "split up", which replaced "is dating Coen") ranks above it.  A
value told as held before ("misses Bristol, where she lived") ranks below a fact of its
subject on the slot that holds.

It never does for a plan, a change that did not happen, a visit, someone else's news or a
report (the judge's guards; a temporary state only as said above), nor for a question about
a time or about what held before.  Unless the judge reads a change, the state holds for a
stated time or the newer fact tells the older state ended ("left the orchestra"), nor for
a newer fact holding fewer of the question's words ("contact lenses cost £30 a month" beside
"my weekly groceries come to £85") or a view after a state; a verb that only frames the
question ("what school does Ilse *go* to?") names no slot.  The older facts on the slot
carry the newer one's id as possibly outdated by it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import replace as evolve
from datetime import date
from functools import lru_cache

from memfold import lexicon
from memfold.journal.fold import ACTIVE, ARCHIVED, STATE_KINDS
from memfold.language import looks_vietnamese
from memfold.names import STOP_WORDS, entity_key, find_words
from memfold.recall import diets, ranking
from memfold.recall.mine import NEW_BEFORE, mine_of, others, stems_of
from memfold.recall.query import NOW_PHRASES, OPINION_WORDS, QueryPlan, word_stem
from memfold.recall.ranking import Scored, view_kept
from memfold.recall.slot_words import (
    COMMUTE_ASKED,
    COMMUTE_PLACES,
    COMMUTE_WAYS,
    as_noun,
    works_at,
)
from memfold.values import TEXT, Fact

# verbs that frame a question beside another word: "what school does Fionn *go* to?"
LIGHT_VERBS = frozenset("""go goes went going gone get gets got getting take takes took taking
    taken make makes made making""".split())
# a question that asks what holds now (the present perfect and "was": `plan.history`)
ASKS_NOW = re.compile(NOW_PHRASES.pattern + r"|\b(?:now|current|still|new|latest|today)\b",
                      re.IGNORECASE)
ASKS_NEW = re.compile(r"\bnew\s+(\w+)", re.IGNORECASE)
# words that only frame a question: they name no slot
FRAME = frozenset("who whom whose what which where when why how is are was were do does did "
                  "doing done has have had name names kind sort type use uses using get "
                  "now currently current still new latest today anymore any more".split())
# a rate's unit ("my CPP each month", "a month"): it names no slot ("school year" does)
RATE = re.compile(r"\b(?:a|an|each|every|per)\s+(?:day|week|month|year)\b", re.IGNORECASE)
# a short word in capitals names a kind of thing, not a value: "Which GP am I with?"
ACRONYM = re.compile(r"[A-Z]{2,4}s?")
# a reason given for a state: what follows it is no slot of the state's ("pausing Spanish
# lessons until January because work is busy" says nothing of how I get to work)
REASON = re.compile(r"\b(?:because|due\s+to|as\s+a\s+result\s+of)\b", re.IGNORECASE)
# a question asked with "where", or of a home, asks where the subject lives: a move states it
PLACE_ASKED = frozenset("where live lives living based home city town country reside "
                        "resides".split())
PLACE_WORDS = ("live", "lives", "living", "home", "based", "moved", "move", "moves",
               "relocated", "relocate", "city", "house", "flat", "apartment", "place",
               "studio")
# a question of work or a job: the judge's relations that state it, and the start of a job
# told as an experience ("had her first day as a product manager at Tessellate")
WORK_ASKED = frozenset(word_stem(w) for w in ("work", "job", "employer", "role", "position",
                                               "occupation"))
WORK_RELATIONS = frozenset({"employer", "role"})
JOB_START = re.compile(r"\b(?:first\s+(?:day|week|shift)\s+(?:as|at|with)"
                       r"|started\s+(?:a\s+)?(?:new\s+)?(?:job|work|role)\s+(?:as|at|with)"
                       r"|(?:re)?(?:trained|qualified)\s+as)\b",
                       re.IGNORECASE)
# a habit begun: "started taking the train to work", "began working from home"
HABIT_START = re.compile(r"\b(?:started|begun|began|starts|begins)\s+\w+ing\b", re.IGNORECASE)
# a name taken: "goes by Marigold Warsame now", "is known as Topsail"
RENAMED = re.compile(r"\b(?:goes\s+by|go\s+by|is\s+known\s+as|renamed|rebranded)\b",
                     re.IGNORECASE)
# the end of a state: "has outgrown his egg allergy", "no longer opens on Saturdays", "gave
# up the allotment", "stopped taking statins" (not "stopped by the gym"), "joined Saltmarsh
# after leaving Larkspur"
ENDED = re.compile(r"\b(?:outgr(?:own|ew)|no\s+longer|gave\s+up|given\s+up|got\s+over"
                   r"|recovered\s+from|stopped\s+\w+ing|after\s+leaving|(?:has|have)\s+left"
                   r"|stepped\s+(?:off|down)"
                   r"|scrapped|let\s+(?:\w+\s+){1,4}(?:run\s+out|expire|lapse)"
                   r"|handed\s+in\s+(?:\w+\s+)?notice)\b",
                   re.IGNORECASE)
# a return to a state that held before: "is back at the Bergen office", "is back on his bike"
# (not a trip back: "came back from Lisbon")
RETURN = re.compile(r"\b(?:is|are|am|'s|'re|now|been)\s+back\s+(?:at|in|on|to|with|into|home)\b"
                    r"|\breturned\s+to\s+(?:work|the|his|her|their|my|our)\b", re.IGNORECASE)
# a question of what something is called: a rename states it
NAME_ASKED = frozenset(word_stem(w) for w in ("called", "name", "named", "surname",
                                               "nickname"))
# "is Inge still in Aarhus?": a question of where, asked with the place's name only
IN_NAMED = re.compile(r"\b(?:in|at)\s+(?-i:[A-Z])")
MOVE_VERBS = frozenset({"mov", "relocat", "emigrat"})
# the judge's rules that read one slot with two values (`journal.events.RULES`)
SLOT_RULES = frozenset({"value", "moved", "renamed", "status", "ended"})
# the judge's relations one subject holds one value of at a time (judge.rules._SINGLE,
# less "attr" and "prefer", which name no slot by themselves)
SINGLE = frozenset("location employer role manager relationship name platform age diet team "
                   "grade vehicle".split())
NESTED = frozenset({"location"})  # a one-valued slot whose values nest: a ward in a city
# a value told as held before: "used to", "formerly", a verb of a state in the past ("worked
# at a bookshop before moving"), not in the perfect ("the best deputy I've ever worked with");
# a change told in the past ("moved", "sold") is no such verb
FORMER = re.compile(r"\b(?:used\s+to|formerly|previously)\b"
                    r"|(?<!\bhave\s)(?<!'ve\s)(?<!\bhas\s)(?<!\bever\s)\b(?:worked|lived)\b",
                    re.IGNORECASE)
# a fact told of a relative of its subject: "Stellan's wife drives a Mini" (not "Arjun, my
# husband, is a radiographer", which is Arjun's own)
KIN_OF = re.compile(r"\s*[\w@.-]+(?:\s+[\w.-]+)?'s\s+(\w+)")
# a role begun, "<verb> as" a few words before the slot's word: "Priya started as my
# first-year apprentice", "joined as our new nanny", "took over as head coach"
ROLE_STARTS = frozenset(word_stem(w) for w in ("started", "starts", "began", "begins",
                                               "joined", "joins", "over"))
# the user, and the words a question or a fact speaks of the user with
FIRST_PERSON = frozenset("i me my mine myself we us our ours".split())
SHOWN = 10  # the best results weighed (at least k)
RELATED = 12  # of a word's other words and forms, the nearest this many


@dataclass(frozen=True)
class Slot:
    """The stems a question's slot is said with, whether it asks where, whether it asks
    about now, the stems of the word after its "new" (if any), and whom it asks about."""

    stems: frozenset[str]
    place: bool
    now: bool
    new: frozenset[str]
    named: frozenset[str] = frozenset()  # the keys of the entities the question names
    mine: bool = False  # asked in the first person: "who's my boss?", "where do I live?"
    kinds: frozenset[str] = frozenset()  # the stems of kinds of its words: "pet": parrot
    by_value: bool = False  # asked by a value only: "is Heronsgate on OpenSearch now?"
    # each asked word's stems and kinds, apart: "farm insurance" is two words of one slot
    words: tuple[frozenset[str], ...] = ()


def _forms(word: str) -> set[str]:
    word = word.casefold()
    return {word_stem(word), *(word_stem(w) for w in lexicon.lemmas(word))}


def _related(word: str) -> set[str]:
    out = _forms(word)
    for relation in (lexicon.SAME, lexicon.FORM):  # kinds are too many to name a slot
        for other in lexicon.related(word, relation)[:RELATED]:
            if " " not in other:
                out |= _forms(other)
    return out


def slot_of(plan: QueryPlan, named: Iterable[str]) -> Slot | None:
    """The slot a question about now asks, or None (a question about a time or what held
    before, or one that asks nothing but names).  Names are no part of it: the entities
    the question names (each part of their names) and its capitalised words past the first,
    but a short word in capitals ("GP", "CEO"), which names a kind of thing."""
    if plan.window is not None or plan.history:
        return None
    entities = {part for n in named for part in re.split(r"[-_]", entity_key(n))}
    spoken = find_words(RATE.sub(" ", ASKS_NOW.sub(" ", plan.text)))  # nor "these days"
    values = {w.casefold() for w in spoken[1:]
              if w[:1].isupper() and not ACRONYM.fullmatch(w)} - entities
    names = entities | values
    words = [w.casefold() for w in spoken]
    # a view asked about is no slot: "do I *like* the iPhone?" asks of the iPhone
    asked = [w for w in words if w not in STOP_WORDS and w not in FRAME and w not in OPINION_WORDS
             and w not in names and entity_key(w) not in names and w.isalpha()]
    if any(w not in LIGHT_VERBS for w in asked):  # "what school does Fionn *go* to?"
        asked = [w for w in asked if w not in LIGHT_VERBS]
    if COMMUTE_ASKED.search(plan.text):  # "how does Rasmus get to work?": his commute
        asked = [*(w for w in asked if w not in COMMUTE_PLACES), "commute"]
    now = bool(ASKS_NOW.search(plan.text))
    place = any(w in PLACE_ASKED for w in words)
    if not asked and now and IN_NAMED.search(plan.text):
        place = True  # "still in Aarhus?": where the subject lives
    stems: set[str] = set()
    for word in asked:
        stems |= _related(word)
    # each word's stems and its kinds' ("coffee": espresso), apart
    groups = tuple(frozenset(_related(word)) | frozenset(_kinds(word)) for word in asked)
    if place:
        stems |= {word_stem(w) for w in PLACE_WORDS}
    if "commute" in asked:
        stems |= {word_stem(w) for w in COMMUTE_WAYS}
    if now and not asked:  # "still using a Pixel?", "still at Larkspur Health?": the slot
        stems |= {word_stem(w) for w in values if w not in STOP_WORDS}  # is the value's
    if not stems:
        return None
    new = ASKS_NEW.search(plan.text)
    return Slot(frozenset(stems), place, now,
                frozenset(_related(new.group(1))) if new else frozenset(),
                frozenset(entity_key(n) for n in named), bool(FIRST_PERSON & set(words)),
                frozenset(k for word in asked for k in _kinds(word)), now and not asked,
                groups)


@lru_cache(maxsize=4096)
def _kinds(word: str) -> frozenset[str]:
    """The stems of the one-word kinds of a word ("pet": dog, parrot; "coffee": latte)."""
    return frozenset(word_stem(k) for k in lexicon.related(word.casefold(), lexicon.KIND)
                     if " " not in k and "-" not in k)


@lru_cache(maxsize=4096)  # `current_first` asks it of each fact for each fact beside it
def lemma_stems(content: str) -> frozenset[str]:
    """The stems of a text's words and of their lemmas ("engagement": engage)."""
    return frozenset(s for w in find_words(content.casefold()) for s in _forms(w))


def by_reading(fact: Fact, slot: Slot) -> bool:
    """Whether the fact is on the slot by what the judge reads in it, not by a word of the
    slot it holds (`on_slot`)."""
    return on_slot(evolve(fact, content=" ".join(
        w for w in fact.content.split() if not lemma_stems(w) & (slot.stems | slot.kinds))),
        slot)


def headless(new: Fact, old: Fact, slot: Slot) -> bool:
    """Whether a slot asked in several words ("the farm insurance", "morning swims") has
    its head, the last, in the older fact and not in the newer, which is on the slot by
    another of its words only ("I've come round on the Sustainable Farming Scheme"), not
    by what the judge reads in it (`by_reading`)."""
    if len(slot.words) < 2:
        return False
    head = slot.words[-1]
    return bool(head & lemma_stems(old.content)) and not head & lemma_stems(new.content) \
        and not by_reading(new, slot)


def on_slot(fact: Fact, slot: Slot) -> bool:
    """Whether the fact holds a word of the slot, or the judge reads it as stating the
    slot's relation ("reports to Oskar": manager) or attribute ("datastore": database), or,
    for a question of where, a move, or, for a question of a name, a rename."""
    from memfold.lifecycle.judge.readers import read  # the judge's lexicons load late

    if lemma_stems(fact.content) & (slot.stems | slot.kinds):
        return True  # a word of the slot, or a kind of one: "has a parrot" for a pet
    reading = read(fact)
    if reading.relation and word_stem(reading.relation) in slot.stems:
        return True
    if any(a in slot.stems or word_stem(a) in slot.stems for a in reading.attr):
        return True  # "main datastore is MariaDB": the judge's attribute, database
    if slot.stems & WORK_ASKED and (reading.relation in WORK_RELATIONS
                                    or JOB_START.search(fact.content) or works_at(fact)):
        return True
    if slot.stems & NAME_ASKED and (any(c.verb == "rename" for c in reading.changes)
                                    or RENAMED.search(fact.content)):
        return True  # "what is Blueprint Labs called?": "rebranded as Tessera", "goes by"
    if diets.asks(slot.stems) and diets.diet_of(fact):
        return True  # "what does Anatole eat?": "has gone pescatarian"
    return slot.place and any(c.verb in MOVE_VERBS for c in reading.changes)


def says_new(fact: Fact, slot: Slot) -> bool:
    """Whether the fact says its value for the slot is new or holds now: "new" a few words
    before a word of the slot, "now", a habit begun (not "as well"), or a change the judge
    reads with its new value, a return ("is back at") or the end of a state ("has outgrown
    his egg allergy")."""
    from memfold.lifecycle.judge.readers import read

    stems = stems_of(fact.content)
    for at, stem in enumerate(stems):
        if stem == "new" and slot.stems.intersection(stems[at + 1: at + 2 + NEW_BEFORE]):
            return True
        if stem in ROLE_STARTS and stems[at + 1: at + 2] == ("as",) \
                and slot.stems.intersection(stems[at + 2: at + 3 + NEW_BEFORE]):
            return True
    reading = read(fact)
    if reading.guard:
        return False
    if JOB_START.search(fact.content) and slot.stems & WORK_ASKED:
        return True
    if HABIT_START.search(fact.content) and not reading.additive:
        return True  # "started taking the train to work": a new way of doing it
    if RETURN.search(fact.content) or ENDED.search(fact.content) or any(reading.ends):
        return True  # "is back at the Bergen office", "has outgrown it", "quit keto" (an end
        # of something named: not "stopped by the clinic"): what holds now
    return reading.now or reading.reversal or any(
        (c.new or c.obj) and not as_noun(c.verb, fact.content) for c in reading.changes)



def names_value(new: Fact, old: Fact, keys: Iterable[str]) -> bool:
    """Whether the newer fact names a word the judge reads as the older one's value (an
    amount's currency is none), not a name of an entity ("switched to Hoka Cliftons after
    the Brooks gave Sol blisters" beside "Sol's go-to running shoes are Brooks Ghosts"):
    then it speaks of the older fact's slot without a word of the question's.  Where the
    judge reads no value in the older fact and it says where its subject works ("Talia
    teaches maths at Fairholme Secondary"), the organisation stands for it when the newer
    fact says a change or an end ("handed in her notice at Fairholme"; not "prefers Durham
    to Newcastle now" beside a lab at Durham University)."""
    from memfold.lifecycle.judge import offers
    from memfold.lifecycle.judge import words as w
    from memfold.lifecycle.judge.readers import read_priced

    names = {w.stem(p) for k in keys for p in re.split(r"[-_]", k) if p}
    n = read_priced(new)
    value = read_priced(old).value
    if not value and (n.changes or any(n.ends) or ENDED.search(new.content)):
        m = offers.WORK_FOR.search(old.content) or offers.joined(old.content)
        value = frozenset(w.stem(t) for t in w.tokens(m.group("org"))) if m else value
    return bool((value - names - {w.stem(t) for t in STOP_WORDS}) & n.words)


def one_valued(new: Fact, old: Fact) -> bool:
    """Whether the judge reads both facts as giving a value of one slot a subject holds one
    value of at a time (`SINGLE`: where it lives, its employer, its manager, its diet ...),
    named by the relation on one side and by the relation or the attribute on the other
    ("reports to Camille" and "line manager is Oksana"), and the values differ: the newer
    one states the current value ("Hollis is vegan", later "Hollis eats fish again").  Not
    a place: places nest ("lives in Osaka", later "her apartment is in Tennoji ward"), so a
    newer place is the current one only when said as a move or as holding now.  Nor a value
    told as held before (`FORMER`: "worked at a bookshop in Tallinn before moving to Tartu",
    "used to live in Leeds"): that is history, not the current value."""
    from memfold.lifecycle.judge.readers import read

    n, o = read(new), read(old)
    if FORMER.search(new.content) or n.guard or not n.value or not o.value or n.value & o.value \
            or NESTED.intersection((n.relation, o.relation)):
        return False
    keys = [_slot_keys(n.relation, n.attr), _slot_keys(o.relation, o.attr)]
    single = any(r in SINGLE for r in (n.relation, o.relation))
    return single and bool(keys[0] & keys[1])


def _slot_keys(relation: str | None, attr: Iterable[str]) -> frozenset[str]:
    """The stems a reading's slot is named by: a one-valued relation with its other words
    and forms ("manager": boss, supervisor), and the words of its attribute."""
    out = {s for a in attr for s in (a, word_stem(a))}  # the judge's stems and recall's
    if relation in SINGLE:
        out |= _related(relation)
    return frozenset(out)


def holds_for_now(fact: Fact, today: date) -> bool:
    """A state said to hold for a time that has not ended ("until 30 April")."""
    valid = fact.valid
    return (fact.kind in STATE_KINDS and valid is not None and valid.end is not None
            and (valid.start is None or valid.start <= today) and today <= valid.end)


def subjects(fact: Fact, links: Sequence[str], keys: Iterable[str]) -> frozenset[str]:
    """The entity keys a fact is about: those it is linked to, and those of `keys` its
    text names — by the whole name, or by a part of it written as a name ("Kestrel" for
    Project-Kestrel)."""
    out = set(links)
    words = find_words(fact.content)
    lower = {w.casefold() for w in words}
    capital = {w.casefold() for w in words if w[:1].isupper()}
    for key in keys:
        parts = [p for p in re.split(r"[-_]", key) if p]
        if not parts:
            continue
        if all(p in lower for p in parts) or any(
                p in capital and len(p) > 3 and p not in STOP_WORDS for p in parts):
            out.add(key)
    return frozenset(out)


def judge_says(new: Fact, old: Fact, shared: Iterable[str]) -> tuple[bool, str | None]:
    """The judge's word on `new` against `old`, read with the entities they share among
    the new fact's: (whether a rule reads one slot with two values, the guard that holds
    or None).  A change the judge only offers, unsure (`Verdict.offer`: an interim then a
    final status with no topic in common, a shared topic said to hold now), is no change
    here, as in `currency.outdated`."""
    from memfold.journal.events import rule_of
    from memfold.lifecycle.judge.rules import RuleJudge
    from memfold.lifecycle.named import with_entities

    judge = RuleJudge()
    keys = list(shared)
    for first in (False, True):
        for verdict in judge.weigh(with_entities(new, keys, first=first), [old]):
            if ", but the newer fact is " in verdict.reason:
                return False, verdict.reason.split(", but the newer fact is ")[1]
            if not verdict.offer and rule_of(judge.name, verdict.reason) in SLOT_RULES:
                return True, None
    return False, None


def current_first(shown: list[Scored], slot: Slot | None, k: int, today: date,
                  pulled: Mapping[str, str] | None = None,
                  stood: Mapping[str, Fact] | None = None) -> list[Scored]:
    """Among the best max(k, SHOWN) results, a newer fact that states the current value
    of the question's slot (module docstring) scores at least what the older facts about
    its subject above it score, and ranks above them; those on the slot carry its id.
    A fact `pulled` in by a match (`recall.pulled`: its id -> the match's) is weighed
    wherever it ranks, as on the match's slot, and left out unless it ranks above it.  A
    successor that ranks on a replaced fact's match (`stood`: its id -> that fact) is on
    that fact's slot, and a newer fact is weighed against both.  A value told as held
    before ranks below a fact of its subject on the slot that holds (`_former_below`)."""
    pulled, stood = pulled or {}, stood or {}
    best = _best(shown, pulled, k, today) if slot is not None else []
    if slot is None or len(best) < 2:
        return _without(shown, pulled)
    keys = sorted({entity_key(e) for s in best for e in s.candidate.links})
    slot = evolve(slot, stems=slot.stems - {word_stem(p) for k in keys
                                            for p in re.split(r"[-_]", k)})
    about = {s.fact.id: subjects(s.fact, [entity_key(e) for e in s.candidate.links], keys)
             for s in best}
    mine = mine_of(best, about, slot.stems, slot.mine)
    score = {s.fact.id: s.score for s in shown}
    outdated: dict[str, list[str]] = {}
    above: set[str] = set()
    for new in sorted(best, key=lambda s: s.fact.day or date.min, reverse=True):
        if new.status == ARCHIVED and not says_new(new.fact, slot) \
                and not holds_for_now(new.fact, today):
            continue  # faded by decay: only a change it states, or a stated time, holds
        own = on_slot(new.fact, slot)
        for old in sorted(best, key=lambda s: -score[s.fact.id]):
            shared = about[new.fact.id] & about[old.fact.id]
            if slot.named and slot.named.isdisjoint(about[new.fact.id]):
                break  # "where does Wren live?": Idris's move is not Wren's
            if old is new or not shared or not old.fact.day or not new.fact.day \
                    or old.fact.day >= new.fact.day or view_kept(old, new) \
                    or mine.apart(new.fact.id, old.fact.id, shared) \
                    or (own and headless(new.fact, old.fact, slot)):
                continue  # ... nor is "Sustainable Farming Scheme" of "the farm insurance"
            olds = [old.fact, *([stood[old.fact.id]] if old.fact.id in stood else [])]
            if not own and pulled.get(new.fact.id) != old.fact.id \
                    and not _speaks_of(new.fact, olds, slot, keys):
                continue
            lift = score[old.fact.id] >= score[new.fact.id]
            mark = old.status == ACTIVE and any(on_slot(f, slot) for f in olds)
            if (lift or mark) and any(_states_current(new.fact, f, shared, slot, today)
                                      for f in olds):
                score[new.fact.id] = max(score[new.fact.id], score[old.fact.id])
                above.add(new.fact.id)
                if mark:
                    outdated.setdefault(old.fact.id, []).append(new.fact.id)
    lowered = _former_below(best, about, score, slot, stood)
    if not above and not lowered:
        return _without(shown, pulled)
    return [evolve(s, score=score[s.fact.id],
                   outdated_by=tuple(dict.fromkeys([*s.outdated_by,
                                                    *outdated.get(s.fact.id, ())])),
                   replaced=s.replaced or s.fact.id in outdated or s.fact.id in lowered)
            if s.fact.id in above or s.fact.id in outdated or s.fact.id in lowered else s
            for s in _without(shown, {i: o for i, o in pulled.items() if i not in above})]


def _best(shown: list[Scored], pulled: Mapping[str, str], k: int,
          today: date) -> list[Scored]:
    """The results `current_first` weighs: the best max(k, SHOWN) and the pulled facts,
    each a typed fact, active or faded, written by today."""
    ordered = sorted(shown, key=ranking.order)
    return [s for s in ordered[: max(k, SHOWN)] + [s for s in ordered[max(k, SHOWN):]
                                                  if s.fact.id in pulled]
            if s.tier == 0 and s.fact.kind != TEXT and s.fact.day is not None
            and s.fact.day <= today and s.status in (ACTIVE, ARCHIVED)]


def _speaks_of(new: Fact, olds: Sequence[Fact], slot: Slot, keys: Sequence[str]) -> bool:
    """Whether a newer fact with no word of the slot speaks of the slot an older fact (or
    the replaced fact it stands for) is on: the same one-valued relation with another
    value, or the older fact's value named — the value it states, or the one it changed
    to ("Team Pylon is now run by Xiomara after Aurelio's promotion" after "Aurelio took
    over Team Pylon from Caspian")."""
    from memfold.lifecycle.judge.offers import AWAY

    return any(on_slot(f, slot) for f in olds) and any(
        one_valued(new, f) or names_value(new, f, keys) or names_change(new, f, keys)
        or (AWAY.search(f.content) is not None and RETURN.search(new.content) is not None)
        for f in olds)  # "returned to the warehouse floor" after "is on sick leave"


def names_change(new: Fact, old: Fact, keys: Iterable[str]) -> bool:
    """Whether the newer fact names the value the judge reads an older fact as changing to
    ("took over from Caspian": Aurelio), not as its own subject."""
    from memfold.lifecycle.judge import words as w
    from memfold.lifecycle.judge.readers import read

    names = {w.stem(p) for k in keys for p in re.split(r"[-_]", k) if p}
    n = read(new)
    taken = {v for c in read(old).changes for v in c.new} - names - n.subject \
        - {w.stem(t) for t in STOP_WORDS}
    return bool(taken & n.words)


def _former_below(best: Sequence[Scored], about: Mapping[str, frozenset[str]],
                  score: dict[str, float], slot: Slot,
                  stood: Mapping[str, Fact]) -> set[str]:
    """A fact that tells a value of the slot as held before (`FORMER`: "misses Bristol,
    where she lived for six years"), and not what holds now, scores no more than an
    active fact of its subject on the slot that holds ("moved to Cardiff"), and ranks
    below it.  Returns the ids lowered, or placed below already (`Scored.replaced`: hybrid's
    second look does not lift them back, `search._in_time`)."""
    from memfold.lifecycle.judge.readers import read

    lowered: set[str] = set()
    for past in best:
        if not FORMER.search(past.fact.content) or read(past.fact).now \
                or not on_slot(past.fact, slot):
            continue
        holding = [score[s.fact.id] for s in best if s is not past and s.status == ACTIVE
                   and about[s.fact.id] & about[past.fact.id]
                   and not FORMER.search(s.fact.content) and read(s.fact).guard is None
                   and (on_slot(s.fact, slot) or (s.fact.id in stood
                                                  and on_slot(stood[s.fact.id], slot)))]
        if holding:  # marked even when what holds is above it: a second look keeps it so
            score[past.fact.id] = min([score[past.fact.id], *holding])
            lowered.add(past.fact.id)
    return lowered


def _without(shown: list[Scored], pulled: Mapping[str, str]) -> list[Scored]:
    return [s for s in shown if s.fact.id not in pulled] if pulled else shown


def _states_current(new: Fact, old: Fact, shared: frozenset[str], slot: Slot,
                    today: date) -> bool:
    """Whether `new` states the current value of the slot against `old` (module
    docstring)."""
    from memfold.lifecycle.judge.readers import read

    changes, guard = judge_says(new, old, shared)
    temporary = slot.now and holds_for_now(new, today) and on_slot(
        evolve(new, content=REASON.split(new.content)[0]), slot)
    if (guard is not None or read(new).guard) and not temporary:
        return False
    if read(old).guard == "third-party" and (m := KIN_OF.match(old.content)) \
            and word_stem(m.group(1).casefold()) in others():
        return False  # "Stellan's wife drives a Mini": his own car is no change of hers
    if FORMER.search(new.content) and not read(new).now:
        return False  # "worked at a bookshop before moving to Tartu": what held before
    if changes or temporary:
        return True
    if not _tells_an_end(new, old) and (0 < _covers(new, slot) < _covers(old, slot)
                                   or (new.kind == "opinion" and old.kind != "opinion")):
        return False  # one with none of the slot's words is weighed by what it says
    if one_valued(new, old):
        return True
    if diets.asks(slot.stems) and diets.states_diet(new, old):
        return True
    if slot.new and lemma_stems(new.content) & slot.new:
        return True
    return says_new(new, slot)


def _tells_an_end(new: Fact, old: Fact) -> bool:
    """Whether the newer fact, no view, tells the older state ended or came back ("left the
    orchestra"), or either is in Vietnamese, whose words the slot's English forms miss."""
    from memfold.lifecycle.judge.readers import read

    if looks_vietnamese(new.content) or looks_vietnamese(old.content):
        return True
    if new.kind == "opinion":
        return False
    return bool(ENDED.search(new.content) or RETURN.search(new.content)) or any(
        ended & read(old).words for ended in read(new).ends)


def _covers(fact: Fact, slot: Slot) -> int:
    """How many of the question's asked words (`Slot.words`) the fact holds."""
    stems = lemma_stems(fact.content)
    return sum(1 for group in slot.words if group & stems)
