"""The cheap signature of a fact for the rule judge (judge.rules): its words, the class of each
word a rule compares across wordings (a home, a job, a name ...), and the family of each
product it names.  Two facts whose signatures share nothing are not read at all."""

from __future__ import annotations

import re
from functools import lru_cache

from memfold.lifecycle.judge import words as w
from memfold.lifecycle.judge.ages import AGE
from memfold.lifecycle.judge.aliases import initials
from memfold.lifecycle.judge.diets import FOOD_WORDS
from memfold.lifecycle.judge.offers import (
    AWAY,
    BEING_DONE,
    OPEN_AGAIN,
    OWNED,
    RETURNED,
    WORK_FOR,
    joined,
)
from memfold.lifecycle.judge.phrases import GOES_OUT
from memfold.lifecycle.judge.readers import lexicon_of
from memfold.lifecycle.judge.unread import DOING_WORDS, DOINGS, IS_NAMED, NEW_NAME, OPEN_DAYS
from memfold.values import Fact

# Words of a class a rule compares across wordings ("lives" / "moved to": a location).
CLASSES = {
    "#loc": "lives live living lived based resides reside moved relocated settled home "
            "apartment flat house headquarters hq office city place address resident residence "
            "rents renting room resettled emigrated emigrate emigrating relocating relocate "
            "relocation commute commutes commuting move moves moving residents local locals "
            "unpacking base",
    "#job": "works work working worked joined left employed resigned hired job role position "
            "started employer company freelance freelances freelancer freelancing "
            "self-employed",
    "#name": "name named called renamed rebranded handle username codename goes nickname "
             "surname known",
    "#rel": " ".join(w.RELATIONSHIP) + " broke split divorced separated",
    "#status": " ".join(w.INTERIM | w.FINAL),
    "#role": " ".join(w.ROLES),
    "#diet": " ".join(w.DIETS) + " meat",
    # a diet and the food that breaks it (judge.diets): related, but no slot of their own
    "#food": " ".join(FOOD_WORDS | w.DIETS) + " veggie",
    "#like": " ".join(w.POSITIVE | w.NEGATIVE) + " likes loves prefers dislikes hates",
    "#boss": "manager boss supervisor reports report lead leads manages supervises heads",
    "#team": "team squad",
    "#host": "hosted hosts hosting published deployed",  # "hosted on" / "published on"
}
# the words that name a slot or its kind ("manager", "job", "home"), not a value
SLOT_WORDS = frozenset(w.stem(x) for tag in ("#loc", "#job", "#name", "#boss", "#team")
                        for x in CLASSES[tag].split())
_CLASS_OF: dict[str, set[str]] = {}
for _tag, _words in CLASSES.items():
    for _word in _words.split():
        _CLASS_OF.setdefault(_word, set()).add(_tag)
# a passive verb of a group (judge.unread.DOINGS), by the words as written
_DOING_OF: dict[str, set[str]] = {}
for _n, _group in enumerate(DOINGS):
    for _word in DOING_WORDS[_n].split():
        _DOING_OF.setdefault(_word, set()).add(f"#doing{_n}")
_SENT = w.stem("sent")
_FAMILIES_OF: dict[str, set[str]] = {}  # a product's name, or the first word of it
for _name, _kind in w.FAMILY.items():
    for _key in {_name, _name.split("-")[0]}:
        _FAMILIES_OF.setdefault(_key, set()).add(_kind)
_KIND_OF: dict[str, set[str]] = {w.stem(x): {"#" + x} for x in w.FAMILY_NAMES | w.KINDS.keys()}
for _kind, _members in w.KINDS.items():
    for _member in _members:
        _KIND_OF.setdefault(w.stem(_member), set()).add("#" + _kind)
_AT_ORG = re.compile(r"\b(?:is|are)\s+(?:[\w-]+\s+)?at\s+(?-i:[A-Z])|^now\s+at\s+(?-i:[A-Z])",
                     re.IGNORECASE)
# work said by what one does there, or by its first day: "teaches maths at Wellbrook Academy",
# "her first day at the county archive", "my first term as head of science at Tanhill School",
# "is unemployed"
_WORK_AT = re.compile(r"\b(?:teach|lectur|nurs|tutor|volunteer|bartend)(?:es|s|ing)?\s+"
                      r"(?:[\w-]+\s+){0,2}at\s+(?-i:[A-Z])|\bfirst\s+(?:day|week|shift|month|term|year|season)"
                      r"\s+(?:as\s+(?:[\w-]+\s+){1,4}?)?(?:at|with)\b"
                      r"|\b(?:unemployed|jobless|out\s+of\s+work|between\s+jobs)\b", re.IGNORECASE)
# a move said without a word of home: "upped sticks to", "made the move to", "is in Lübeck
# now for good", or where one is now
_MOVED = re.compile(r"\bupped\s+sticks\b|\bmade\s+the\s+(?:move|jump|leap)\s+to\s+(?-i:[A-Z])"
                    # where one is: "has been in Gävle since the spring" (offers.place_offer)
                    r"|\b(?:is|are|am|been)\s+(?:now\s+|still\s+)?in\s+(?-i:[A-Z])"
                    # back to a place, most of the year in one, a home bought in one
                    r"|\b(?:returned|went\s+back|came\s+back|moved\s+back)\s+to\s+(?-i:[A-Z])"
                    r"|\bspends?\s+(?:most|much|half)\s+of\s+(?:the|his|her|their|my|our)\s+"
                    r"(?:year|time|week)\s+in\s+(?-i:[A-Z])"
                    r"|\b(?:bought|purchased)\s+(?:a|an)\s+(?:[\w-]+\s+)?(?:house|flat|apartment|home"
                    r"|place|cottage|bungalow)\s+in\s+(?-i:[A-Z])"
                    # where the post goes: "Ingrid's mail goes to Reykjavik now"
                    r"|\b(?:mail|post|letters)\s+(?:now\s+)?(?:goes|go|is\s+sent)\s+to\b"
                    r"|\bis\s+(?:now\s+)?in\s+(?-i:[A-Z])[\w'-]*(?:\s+now)?\s+for\s+good\b"
                    # "headed for Reykjavik for good"
                    r"|\b(?:headed|went|left|gone)\s+(?:off\s+|back\s+)?(?:for|to)\s+(?-i:[A-Z])"
                    r"[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)*\s+for\s+good\b",
                    re.IGNORECASE)
_TOOK_OVER = re.compile(r"\b(?:took|taken|takes|taking)\s+over\b", re.IGNORECASE)
_RAW_WORD = re.compile(r"[\w][\w.+#'-]*")
_MENTION = re.compile(r"(?<![\w.])@[A-Za-z]")
ANY = frozenset({"*"})


@lru_cache(maxsize=16384)
def signature(content: str) -> frozenset[str]:
    """Cheap words of a fact, with the class of each and the family of each product: two
    facts no rule could relate share none of them, so the judge need not read them.  A fact
    read by a language's table (Vietnamese) is always read: its signature is `_ANY`."""
    if lexicon_of(content) is not None:
        return ANY
    out: set[str] = set(initials(content))  # "NYC" / "New York City"
    if w.EMAIL.search(content):
        out.add("#email")
    if _TOOK_OVER.search(content):  # "Lucia took over Beacon from Felix": who leads it
        out.add("#boss")
    if _AT_ORG.search(content):  # "is at Kiteworks these days": where one works, maybe
        out.update(("#job", "#role"))
    if _MOVED.search(content):
        out.add("#loc")
    if _WORK_AT.search(content) or WORK_FOR.search(content) or joined(content):
        # see offers.work_offer
        out.add("#job")
    if OWNED.search(content):  # who owns it (offers.OWNED)
        out.add("#own")
    if BEING_DONE.search(content) or OPEN_AGAIN.search(content):  # "is being processed", "open
        # again": a status (offers.interim, offers.reopened_offer)
        out.add("#status")
    if AWAY.search(content) or RETURNED.search(content):  # see offers.returned_offer
        out.add("#away")
    if OPEN_DAYS.search(content):  # "is closed on Mondays" / "now opens every day"
        out.add("#hours")
    if GOES_OUT.search(content):  # "goes out via Substack": is sent via it
        out.add(_SENT)
    if NEW_NAME.search(content) or IS_NAMED.search(content):  # "reopened as", "is the Inkwell"
        out.add("#name")
    if _MENTION.search(content):  # two values named as @mentions: see offers.mention_offer
        out.add("#@")
    if AGE.search(content):  # "is ten", "turned eleven": see judge.ages
        out.add("#age")
    for raw in _RAW_WORD.findall(content.lower()):
        word = raw.rstrip(".'-")
        word = word[:-2] if word.endswith("'s") else word
        out.update(_CLASS_OF.get(word, ()))
        out.update(_DOING_OF.get(word, ()))  # "is written in" / "is developed in"
        if word.endswith(("s", "ing")):  # "a trust operates it", "volunteers are running it"
            out.update(f"#doing{i}" for i, group in enumerate(DOINGS) if w.stem(word) in group)
        out.update("#" + family for family in _FAMILIES_OF.get(word, ()))
        out.update(_KIND_OF.get(w.stem(word), ()))  # "doesn't own a car" / "a Skoda"
        if w.is_number(word):
            out.add("#number")
        if word not in w.STOP:
            out.add(stem := w.stem(word))
            if stem.endswith("er") and len(stem) > 5:  # "a smoker" / "quit smoking"
                out.update((stem[:-2], stem[:-3]) if stem[-3] == stem[-4] else (stem[:-2],))
            if "-" in word:  # "car-free" shares "car"
                out.update(w.stem(part) for part in word.split("-") if part not in w.STOP)
    return frozenset(out)


def related(a: frozenset[str], b: frozenset[str]) -> bool:
    return bool(a & b) or "*" in a or "*" in b


def names(fact: Fact) -> frozenset[str]:
    return frozenset(w.stem(part) for e in fact.entities for part in re.split(r"[-_.]", e.lower())
                     if part)
