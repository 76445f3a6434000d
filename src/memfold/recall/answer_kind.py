"""What kind of answer a question asks for, and whether a fact holds one (`recall.weak`).

Some questions say, by their own frame, what their answer is made of: "how much did the
boiler cost?" is answered by a sum of money, "how old is Jules?" by an age, "how much
weight?" by a number, "what time does school start?" by a time of day, "what's the name
of the restaurant?" (or "called", "surname") by a name.  A fact that shares every topic
word of such a question ("Replaced the old boiler with a Worcester Bosch combi") but holds
nothing of that kind cannot answer it: it tells that the thing exists, not what is asked
about it.  Memory that never stated the price, age or name finds exactly such facts.

The kinds, each read from the question's frame and each tested on the fact's text:
- `MONEY` — "how much" with a word of paying (cost, pay, charge, price, earn, rent, ...),
  or "how much is/was the ...": a currency sign or word, or "free".  The paying words then
  only frame the question (`AnswerKind.frames`): it turns on what was paid for;
- `AGE` — "how old": "six-year-old", "aged 68", "is eight", "her 68th birthday";
- `AMOUNT` — any other "how much" ("how much weight has Biscuit lost?"): a figure (not a
  year) or a number word.  "How many" is no kind: it is often answered by counting facts
  that hold no number ("how many half marathons did I run?");
- `CLOCK` — "what time": a clock time (18:30, 7pm, 1:58:42) or a part of the day;
- `NAME` — "the name of", "called", "surname" (not "name her baby"): a capitalised word that is
  not the question's own, not a month or weekday, and not merely the first word of the
  sentence (unless it names an entity the fact is linked to).
A question of no kind is weighed by its words alone.

A question that asks who ("who stitched up Fern's paw?", "whose paska do I like best?",
`asks_person`) is answered by a person: a fact that names none (`names_person`: no word the
lexicon files under a person's classes — a vet, a teacher, a sister —, no title, no name of
an entity it is linked to other than the question's and the user's) tells of the thing,
not who did it: "Fern cut her paw on a mussel shell".  Only ranking weighs this; what
`weak` flags is unchanged.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection
from dataclasses import dataclass

from memfold import lexicon
from memfold.lifecycle.judge.aliases import priced_text
from memfold.names import STOP_WORDS, USER, entity_key, find_words, fold

MONEY, AGE, AMOUNT, CLOCK, NAME = "money", "age", "amount", "clock", "name"

_NUMBER_WORD = (r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                r"thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|"
                r"thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|"
                r"billion|dozen|half|couple)")
_FIGURE = r"(?:(?!(?:19|20)\d\d\b)\d+(?:[.,]\d+)*)"  # a year is a date, not an amount
_COUNT = rf"(?:{_FIGURE}|{_NUMBER_WORD}\b)"

# the question's frame
HOW_OLD = re.compile(r"\bhow\s+old\b", re.IGNORECASE)
HOW_MUCH = re.compile(r"\bhow\s+much\b", re.IGNORECASE)
PAYING = re.compile(r"\b(?:cost|costs|costing|pay|pays|paid|paying|charge|charges|charged|"
                    r"price|prices|priced|earn|earns|earned|earning|spend|spends|spent|"
                    r"worth|rent|owe|owes|owed|sell|sells|sold|fee|fees|salary|wage|"
                    r"wages)\b", re.IGNORECASE)
PRICE_OF = re.compile(r"\bhow\s+much\s+(?:is|was|are|were)\s+(?:the|a|an|my|our|his|her|"
                      r"their|your)\b", re.IGNORECASE)
WHAT_TIME = re.compile(r"\bwhat\s+time\b", re.IGNORECASE)
NAME_ASKED = re.compile(r"\bname\b(?!\s+(?:her|his|their|its|the|a|an|my|our|your|it|them|"
                        r"him|me|us)\b)|\bcalled\b|\bsurname\b", re.IGNORECASE)

# the fact's text
MONEY_HELD = re.compile(r"[£$€¥]\s*\d|\d\s*[£$€¥]|\b\d+(?:[.,]\d+)*\s*(?:pounds?|pence|p|"
                        r"dollars?|euros?|quid|k)\b|\bfree\b", re.IGNORECASE)
AGE_HELD = re.compile(rf"\b{_COUNT}[-\s]+(?:years?|months?|weeks?)[-\s]+old\b"
                      rf"|\baged?\s+{_COUNT}|\b\d+(?:st|nd|rd|th)\s+birthday\b"
                      rf"|\b(?:is|was|turned|turns|turning)\s+{_COUNT}(?![-\w]|\s*[%£$€])",
                      re.IGNORECASE)
COUNT_HELD = re.compile(rf"\b{_COUNT}|\b(?:once|twice|thrice)\b|\d\s*%|[£$€¥]\s*\d",
                        re.IGNORECASE)
CLOCK_HELD = re.compile(r"\b\d{1,2}(?::\d\d)+\b|\b\d{1,2}(?:[.:]\d\d)?\s*(?:am|pm|a\.m\.|"
                        r"p\.m\.)|\bo'clock\b|\b(?:noon|midday|midnight|lunchtime|dawn|"
                        r"mornings?|afternoons?|evenings?|nights?)\b", re.IGNORECASE)
CAPITAL = re.compile(r"(?<![\w'’])[^\W\d_][\w'’-]*", re.UNICODE)
NOT_NAMES = frozenset("""i january february march april may june july august september
    october november december monday tuesday wednesday thursday friday saturday sunday
    mr mrs ms dr""".split())


@dataclass(frozen=True)
class AnswerKind:
    """The kind of answer a question asks for, and the words it gives (no name it gives
    answers "what's X called")."""

    kind: str
    given: frozenset[str] = frozenset()

    def frames(self, word: str) -> bool:
        """Whether the asked `word` only frames this kind (the paying words of a question
        of money: "how much did we *pay* for the Kia Niro?" turns on the Kia Niro)."""
        return self.kind == MONEY and PAYING.fullmatch(word) is not None

    def held_by(self, content: str, links: Collection[str] = ()) -> bool:
        """Whether `content` holds an answer of this kind (`links`: the entities the fact
        is linked to, whose name may open its sentence)."""
        if self.kind == MONEY:
            # "KSh 9,500", "1,899 zł", "2.9 million dong" (`judge.aliases.priced_text`)
            return MONEY_HELD.search(content) is not None or MONEY_HELD.search(
                priced_text(content)) is not None
        if self.kind == AGE:
            return AGE_HELD.search(content) is not None
        if self.kind == AMOUNT:
            return COUNT_HELD.search(content) is not None
        if self.kind == CLOCK:
            return CLOCK_HELD.search(content) is not None
        return self._names_another(content, links)

    def _names_another(self, content: str, links: Collection[str]) -> bool:
        for m in CAPITAL.finditer(content):
            word = m.group()
            if not word[0].isupper():
                continue
            key = fold(re.sub(r"['’]s$", "", word))
            if key in NOT_NAMES or key in self.given:
                continue
            first = not content[: m.start()].strip()
            if first and entity_key(key) not in links:
                continue  # the first word of a sentence is capitalised whatever it is
            return True
        return False


def kind_of(text: str, named: Collection[str] = ()) -> AnswerKind | None:
    """The kind of answer the question `text` asks for (None: no kind); `named`: the
    entities it names, given as well as its words."""
    if HOW_OLD.search(text):
        kind = AGE
    elif HOW_MUCH.search(text):
        kind = MONEY if PAYING.search(text) or PRICE_OF.search(text) else AMOUNT
    elif WHAT_TIME.search(text):
        kind = CLOCK
    elif NAME_ASKED.search(text):
        kind = NAME
    else:
        return None
    return AnswerKind(kind, frozenset({fold(w) for w in find_words(text)} | set(named)))


# a question that asks who: "who", "whom", "whose", "who's" opening it
ASKS_WHO = re.compile(r"^\W*(?:who|whom|whose)\b", re.IGNORECASE)
# a title before a person's name
TITLE = re.compile(r"\b(?:Dr|Mr|Mrs|Ms|Mx|Prof)\b")
# the lexicon's classes of people (`lexicon.classes`, which leaves out "person" itself as a
# class of nearly everything): a word filed under one names a person (vet: professional;
# sister: relative; physiotherapist: therapist)
PERSON_CLASSES = frozenset({
    "relative", "worker", "skilled worker", "professional", "adult", "expert", "spouse",
    "parent", "child", "offspring", "juvenile", "sibling", "friend", "associate", "peer",
    "novice", "leader", "healer", "caregiver", "therapist", "health professional",
    "medical practitioner", "educator", "lawyer", "student", "employee", "official",
    "specialist", "man", "woman", "male", "female", "adult male", "adult female"})
MIN_PERSON = 3  # a word read for a person has at least this many letters


@functools.lru_cache(maxsize=1 << 10)
def asks_person(text: str) -> bool:
    """Whether the question `text` asks who (module docstring)."""
    return ASKS_WHO.search(text) is not None


@functools.lru_cache(maxsize=1 << 14)
def person_word(word: str) -> bool:
    """Whether the lexicon files `word` (lower case) under a class of people."""
    return not PERSON_CLASSES.isdisjoint(lexicon.classes(word))


def names_person(content: str, links: Collection[str], named: Collection[str]) -> bool:
    """Whether a fact's text names a person (module docstring): a person's word, a title,
    or the name of an entity it is linked to other than the question's (`named`) and the
    user."""
    if TITLE.search(content):
        return True
    words = find_words(content)
    folded = {fold(w) for w in words}
    capital = {fold(w) for w in words if w[:1].isupper()}
    for key in links:
        if key not in named and key != USER and capital.intersection(key.split("-")):
            return True
    if any(_a_name(m.group(), content[:m.start()], named) for m in CAPITAL.finditer(content)):
        return True
    return any(len(w) >= MIN_PERSON and w.isalpha() and w not in STOP_WORDS
               and person_word(w) for w in folded)


def _a_name(word: str, before: str, named: Collection[str]) -> bool:
    """Whether a capitalised `word` (`before`: the text before it) is a person's name the
    question does not give: not a month, weekday or title, and nothing the lexicon knows
    but as a person ("Cathal"; not "Slovenia"); the first word of a sentence, capitalised
    whatever it is, only when the lexicon knows no such word ("Gwen retires"; not "Booked")."""
    if not word[:1].isupper():
        return False
    key = fold(re.sub(r"['’]s$", "", word))
    if key in NOT_NAMES or key in named or len(key) < MIN_PERSON or key in STOP_WORDS:
        return False
    if not before.strip() or before.rstrip()[-1:] in ".!?:;":
        return key.isalpha() and not lexicon.lemmas(key)
    classes = lexicon.classes(key)
    return not classes or not PERSON_CLASSES.isdisjoint(classes)
