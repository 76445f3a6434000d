"""Whether a hit answers the question or is only a guess (`weak`), and whether a recall
answered at all (`RecallResult.answered`).

A question never stated in memory ("what's my sister's blood type?") still finds facts:
they share its common words or name its person, while the words that carry what is asked
("blood type") match nothing.  So each hit is weighed by the question's *asked words* — its
search terms less the names of the entities it names, less the words that only frame the
answer (`FRAME_WORDS`: "name", "kind", "favourite", light verbs such as "go" and "make") —
each weighted by how rare it is in the memory (an inverse document frequency, counted by the
index up to COUNTED facts).  A common noun that names an entity ("what *car* do we drive",
@Car) is an asked word, not a name.  A hit covers an asked word when it holds it, in another
form (moving: moved; manager: management) or inside a longer word (iPhone), or was found
for it by word knowledge (dog: beagle, `expansion`; at KNOWN_SHARE of its weight).

A hit is weak when
- the question names entities and the hit is about none of them (linked to or naming one):
  "when is Jules's birthday" is not answered by Milo's birthday, or
- the question asks words and the hit covers less than `COVERAGE` of their weight (the rare
  word the question turns on is missing), or
- the question asks for an amount ("how much", "how many", "how old") and the hit holds
  none (`holds_amount`): "we bought a used 2021 Kia Niro" does not say what we paid.
A question of names or a time alone asks no words: its hits are weak only by the first and
last rules.  A fact recall brings because it replaced a fact that matched ("replaces ^id,
which matched", `currency`) misses the asked words only when that fact does.  Weak hits are
still returned (flagged `weak`); a `strict` recall answers with the best hits that are not.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memfold.index.base import Candidate, FactSearch
from memfold.names import STOP_WORDS, entity_key, find_words, fold
from memfold.recall.query import OPINION_WORDS, QueryPlan, word_stem
from memfold.recall.scoring import names_entity
from memfold.values import Fact

if TYPE_CHECKING:
    from memfold.recall.gather import Pool

# the share of the asked words' weight a hit must cover not to be weak, chosen on the
# personal dev set (docs/benchmarks.md): lexical, 0.4 leaves 73% of never-stated questions
# unanswered and 12% of answerable ones; 0.34 about 60% and 9%, 0.5 73% and 23%
COVERAGE = 0.4
COUNTED = 1000  # a word's facts are counted up to this many (a common word costs no more)
# a word this long is held inside a longer one (phone: iPhone); a shorter one is too often
# part of another word (rent: current, band: broadband, rest: interest)
SUBSTRING = 5
# an asked word covered only by word knowledge (dog: beagle) counts this share of its weight:
# the lexicon relates many senses ("set" is a kind of "band"), the fact's own words one
KNOWN_SHARE = 0.75
PREFIX = 6  # two words that begin with the same this many letters are forms of one word
# (manager: management, prescribed: prescription), beside `query.word_stem`
# Words that say what sort of answer is wanted, not what it is about ("what's the *name*
# of Nico's restaurant" turns on "restaurant", "what *kind* of dog" on "dog"), the opinion
# words (`query.OPINION_WORDS`: "favourite"), light verbs that take their sense from their
# object ("*make* an offer", "*go* skiing") and adverbs of time and degree: rare in short
# facts, so weighed as rare, but no answer turns on them.
FRAME_WORDS = frozenset("""
    name names named called call kind kinds sort sorts type types way ways one ones lot
    number amount time times day days date dates year years thing things stuff
    usually often long far old
    go goes make makes made say says said get gets getting take takes took taken give
    gives gave keep keeps kept find finds found try tries tried put come comes came seem
    seems mean means meant plan plans planning planned
    still next latest last first originally currently moment now another big together
    away back become becomes became becoming reckon reckons keen
    """.split()) | OPINION_WORDS

# A question that asks for an amount ("how much did we pay", "how many bedrooms", "how old
# is Milo") is answered only by a fact that holds one: a sum of money, a share, a clock
# time, or a figure or number word that counts something ("47 boxes", "13.5 kg", "six
# researchers").  A figure that only labels a thing ("size 2", "plot 14", "Forerunner 265",
# a year) is no amount; an age may stand alone ("Milo is eight").
AMOUNT_ASKED = re.compile(r"\bhow\s+(much|many|old)\b", re.IGNORECASE)
_NUMBER = (r"(?:(?!(?:19|20)\d\d\b)\d+(?:[.,]\d+)*|(?:one|two|three|four|five|six|seven|"
           r"eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|"
           r"eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|"
           r"hundred|thousand|million|billion|dozen|half|couple)\b)")
MONEY = re.compile(r"[£$€¥]\s*\d|\d\s*%|\b\d+:\d\d\b|\b(?:twice|once|free)\b",
                   re.IGNORECASE)
COUNTED_BY = re.compile(rf"\b{_NUMBER}[-\s]+(?P<unit>[^\W\d_]+)", re.IGNORECASE)
MONTHS = frozenset("""january february march april may june july august september october
    november december jan feb mar apr jun jul aug sep sept oct nov dec""".split())  # a date
BARE = re.compile(rf"\b{_NUMBER}", re.IGNORECASE)


@dataclass(frozen=True)
class Asked:
    """What a question asks, for telling a weak hit: its asked words and the weight of each
    (rarer, heavier), and the entities it names."""

    weights: Mapping[str, float]
    named: tuple[str, ...]
    amount: str = ""  # "much", "many" or "old" when it asks for an amount (`AMOUNT_ASKED`)

    @functools.cached_property
    def total(self) -> float:
        """The weight of every asked word, summed once for all the hits weighed."""
        return sum(self.weights.values())

    def weak(self, c: Candidate, covers: Collection[str] = ()) -> bool:
        """Whether the candidate is only a guess at what is asked; `covers`: the asked
        words it was found for by word knowledge."""
        if self.named and not set(self.named) & set(c.links) and not names_entity(
                c.fact, self.named):
            return True
        if not self.weights:
            return False
        return self.covered(c.fact, covers) < COVERAGE * self.total

    def lacks(self, fact: Fact) -> bool:
        """Whether the fact lacks the kind of answer asked for: an amount (`AMOUNT_ASKED`)."""
        return bool(self.amount) and not holds_amount(fact.content, age=self.amount == "old")

    def covered(self, fact: Fact, covers: Collection[str] = ()) -> float:
        """The weight of the asked words the fact holds — as a word, in another form, or
        (SUBSTRING letters or more) inside a word — or stands for (`covers`)."""
        text = fold(f"{fact.content} {' '.join(fact.entities)}")
        words = set(find_words(text))
        stems = {word_stem(w) for w in words}
        starts = {w[:PREFIX] for w in words if len(w) >= PREFIX}
        return sum(w if t in words or word_stem(t) in stems or t[:PREFIX] in starts
                   or (len(t) >= SUBSTRING and t in text) else w * KNOWN_SHARE
                   for t, w in self.weights.items()
                   if t in covers or t in words or word_stem(t) in stems
                   or (len(t) >= SUBSTRING and t in text) or t[:PREFIX] in starts)


def asked(backend: FactSearch, plan: QueryPlan, named: Sequence[str]) -> Asked:
    """The question's asked words, weighted by their rarity in the memory.  A name is no
    asked word, but a common noun that names an entity ("what *car* do we drive", @Car)
    is one: it is written in lower case in the question, and it says what is asked."""
    names = set(named) - _common_nouns(plan.text)
    words = [t for t in plan.terms if t.isalpha() and entity_key(t) not in names
             and t not in FRAME_WORDS and len(t) > 1]
    amount = m.group(1).casefold() if (m := AMOUNT_ASKED.search(plan.text)) else ""
    if not words:
        return Asked({}, tuple(named), amount)
    rows = max(backend.fact_rows(), 1)
    counts = backend.word_counts(words, min(COUNTED, rows))
    return Asked({w: math.log(1 + rows / (1 + counts.get(w, 0))) for w in words},
                 tuple(named), amount)


def holds_amount(text: str, *, age: bool = False) -> bool:
    """Whether the text holds an amount (`AMOUNT_ASKED`); with `age`, a bare number too."""
    if MONEY.search(text) or (age and BARE.search(text)):
        return True
    return any(m["unit"].casefold() not in STOP_WORDS | MONTHS
               for m in COUNTED_BY.finditer(text))


def _common_nouns(text: str) -> set[str]:
    """The words written in lower case in the question (after its first word), as entity
    keys: "car" in "What car do we drive", not "Jules"."""
    return {entity_key(w) for w in find_words(text)[1:] if w.islower()}


def weak_of(question: Asked, pool: Pool, via: Mapping[int, str],
            ) -> Callable[[Candidate], bool]:
    """Whether a candidate is a weak hit (`weak`): it lacks the kind of answer asked for
    (`Asked.lacks`), or misses what is asked (`Asked.weak`) — a fact brought because it
    replaced one that matched (`via`, "replaces ^id, which matched") misses it only when
    that fact does too."""
    by_id = {c.fact.id: c for c in pool.found.values()}

    def weak(c: Candidate) -> bool:
        if question.lacks(c.fact):
            return True
        if not question.weak(c, pool.covers.get(c.rowid, ())):
            return False
        old = by_id.get(via.get(c.rowid, ""))
        return old is None or question.weak(old, pool.covers.get(old.rowid, ()))

    return weak
