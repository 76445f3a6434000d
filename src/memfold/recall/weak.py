"""Whether a hit answers the question or is only a guess (`weak`), and whether a recall
answered at all (`RecallResult.answered`).

A question never stated in memory ("what's my sister's blood type?") still finds facts:
they share its common words or name its person, while the words that carry what is asked
("blood type") match nothing.  So each hit is weighed by the question's *asked words* — its
search terms less the names of the entities it names, less the words that only frame the
answer (`FRAME_WORDS`: "name", "kind", "favourite", light verbs such as "go" and "make";
in a question of money, its paying words: `answer_kind`) — each weighted by how rare it is
in the memory (an inverse document frequency, counted by the index up to COUNTED facts).  A
name of several capitalised words ("National Insurance", "the Kia Niro") is one asked unit,
as heavy as its rarest word.  A hit covers an asked word when it holds it, in another form
(moving: moved) or inside a longer word, or was found for it by word knowledge (dog: beagle,
`expansion`); it covers a name when it covers each of its words.

A hit is weak when
- the question asks words and the hit covers less than `COVERAGE` of their weight (the rare
  word the question turns on is missing), or
- the question names entities and the hit is about none of them (linked to or naming one):
  "when is Jules's birthday" is not answered by Milo's birthday, or
- the question's frame asks for a kind of answer — a sum of money, an age, a number, a time
  of day, a name (`answer_kind`: "how much did the boiler cost?") — and the hit holds none:
  "Replaced the old boiler with a Worcester Bosch combi" tells of the boiler, not its price,
- the question names the thing it asks for (`head_noun`: "which *gym*", "Dana's blood
  *type*") and the hit does not hold it — as an asked word is covered, by a word the
  lexicon gives for it (e-reader: Kindle), or, for a measure ending it ("marathon *time*"),
  by an answer of its kind: "Omar joined a cycling club" does not say which gym.  The
  siblings of a best match (`sets`) follow the other rules only (`Asked.headless`), so the
  flag does not reorder.
A question of names or a time alone asks no words: its hits are weak only by the second,
third and fourth rules.  A fact recall brings because it replaced a fact that matched
("replaces ^id, which matched", `currency`) is weak only when that fact was.  Weak hits are
still returned (flagged `weak`); a `strict` recall answers with the best hits that are not.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from memfold import lexicon
from memfold.index.base import Candidate, FactSearch
from memfold.names import entity_key, find_words, fold, text_names
from memfold.recall import versioned
from memfold.recall.answer_kind import AMOUNT, CLOCK, NAME, AnswerKind, kind_of
from memfold.recall.head_noun import head_of
from memfold.recall.query import OPINION_WORDS, QueryPlan, word_stem
from memfold.values import Fact

# the share of the asked words' weight a hit must cover not to be weak, chosen on the
# personal dev set (docs/benchmarks.md): lexical, 0.4 leaves 73% of never-stated questions
# unanswered and 12% of answerable ones; 0.34 about 60% and 9%, 0.5 73% and 23%.  (0.47 with
# a word no fact holds weighing half caught as many dev questions and flagged fewer answerable
# ones, but lost a never-stated question held out: docs/benchmarks.md.)
COVERAGE = 0.4
COUNTED = 1000  # a word's facts are counted up to this many (a common word costs no more)
SUBSTRING = 4  # a word this long is held inside a longer one, as `why` tells it (iPhone)
NAME_WORD = re.compile(r"[^\W_]+")  # a word of the question, for `names_of`
# the frame nouns that end a head and the kind of answer each is held by
HEAD_KINDS = {"time": CLOCK, "times": CLOCK, "number": AMOUNT, "amount": AMOUNT,
              "rate": AMOUNT, "score": AMOUNT, "result": AMOUNT, "results": AMOUNT,
              "reading": AMOUNT, "readings": AMOUNT, "dose": AMOUNT, "doses": AMOUNT,
              "level": AMOUNT, "levels": AMOUNT,
              "name": NAME, "names": NAME}
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
    away back per
    """.split()) | OPINION_WORDS


@dataclass(frozen=True)
class Asked:
    """What a question asks, for telling a weak hit: its asked words and the weight of each
    (rarer, heavier), and the entities it names."""

    weights: Mapping[str, float]
    named: tuple[str, ...]
    kind: AnswerKind | None = None  # the kind of answer its frame asks for
    names: tuple[tuple[str, ...], ...] = ()  # asked words that make one name (`names_of`)
    head: tuple[str, ...] = ()  # the thing asked (`head_noun`): "which *gym*", "blood *type*"
    head_kind: AnswerKind | None = None  # what answers a frame noun ending the head

    @functools.cached_property
    def units(self) -> tuple[tuple[tuple[str, ...], float], ...]:
        """The asked words as units of meaning and the weight of each: a name of several
        words is one unit, as heavy as its rarest word, covered only whole."""
        grouped = {w for name in self.names for w in name}
        return (*((name, max(self.weights[w] for w in name)) for name in self.names),
                *(((w,), v) for w, v in self.weights.items() if w not in grouped))

    @functools.cached_property
    def headless(self) -> Asked:
        """The same question weighed without its head (`head`)."""
        return dataclasses.replace(self, head=(), head_kind=None)

    @functools.cached_property
    def total(self) -> float:
        """The weight of every asked unit, summed once for all the hits weighed."""
        return sum(v for _, v in self.units)

    def weak(self, c: Candidate, covers: Collection[str] = ()) -> bool:
        """Whether the candidate is only a guess; `covers`: the asked words it was found
        for by word knowledge."""
        if self.named and not set(self.named) & set(c.links) and not text_names(
                c.fact.content, self.named):
            return True
        if self.kind is not None and not self.kind.held_by(c.fact.content, c.links):
            return True
        if self.head and not self.holds_head(c, covers):
            return True
        if not self.weights:
            return False
        return self.covered(c.fact, covers) < COVERAGE * self.total

    def holds_head(self, c: Candidate, covers: Collection[str] = ()) -> bool:
        """Whether the candidate holds the thing asked (`head`): each word as `covered`
        counts it; a measure ending it ("marathon *time*", "interest *rate*") also as an
        answer of its kind (`head_kind`: 2:04:51, 4.19%)."""
        text = fold(f"{c.fact.content} {' '.join(c.fact.entities)}")
        words = set(find_words(text))
        stems = {word_stem(w) for w in words}
        measure = self.head_kind is not None and self.head_kind.held_by(c.fact.content,
                                                                        c.links)
        last = len(self.head) - 1
        return all(t in covers or t in words or word_stem(t) in stems
                   or (len(t) >= SUBSTRING and t in text)
                   or (n == last and (measure or self.known_as(words, text)))
                   for n, t in enumerate(self.head))

    @functools.cached_property
    def head_kinds(self) -> frozenset[str]:
        """The lexicon's words for the head's kinds, other names and forms (hotel: inn,
        manager: boss, job: paramedic), each a word or a phrase."""
        if not self.head:
            return frozenset()
        return frozenset(w for relation in (lexicon.KIND, lexicon.SAME, lexicon.FORM)
                         for w in lexicon.related(self.head[-1], relation))

    def known_as(self, words: Collection[str], text: str) -> bool:
        """Whether a fact of `words` (its folded `text`) holds a word or phrase the lexicon
        gives for the head (`head_kinds`)."""
        if not self.head_kinds.isdisjoint(words):
            return True
        padded = f" {text} "
        return any(phrase in padded for phrase in self._head_phrases)

    @functools.cached_property
    def _head_phrases(self) -> tuple[str, ...]:
        """The words of several among `head_kinds`, each padded with a space either side
        (as `known_as` looks for them), made once a question, not once a fact."""
        return tuple(f" {k} " for k in self.head_kinds if " " in k)

    def covered(self, fact: Fact, covers: Collection[str] = ()) -> float:
        """The weight of the asked units the fact holds every word of — as a word, in
        another form, or (SUBSTRING letters or more) inside a word — or stands for
        (`covers`)."""
        text = fold(f"{fact.content} {' '.join(fact.entities)}")
        words = set(find_words(text))
        stems = {word_stem(w) for w in words}
        return sum(v for unit, v in self.units
                   if all(t in covers or t in words or word_stem(t) in stems
                          or (len(t) >= SUBSTRING and t in text) for t in unit))


def asked(backend: FactSearch, plan: QueryPlan, named: Sequence[str]) -> Asked:
    """The question's asked words, weighted by their rarity in the memory."""
    names = set(named)
    words = [t for t in plan.terms if t.isalpha() and entity_key(t) not in names
             and t not in FRAME_WORDS and len(t) > 1]
    kind = kind_of(plan.text, named)
    if kind is not None:
        words = [t for t in words if not kind.frames(t)]
    head = head_of(plan.text, names, FRAME_WORDS)
    head_kind = HEAD_KINDS.get(head[-1]) if head else None
    given = kind_of_head(plan.text, named, head_kind)
    if not words:
        return Asked({}, tuple(named), kind, (), head, given)
    rows = max(backend.fact_rows(), 1)
    counts = versioned.word_counts(backend, words, min(COUNTED, rows))
    return Asked({w: math.log(1 + rows / (1 + counts.get(w, 0))) for w in words},
                 tuple(named), kind, names_of(plan.text, set(words)), head, given)


def kind_of_head(text: str, named: Sequence[str], kind: str | None) -> AnswerKind | None:
    """What answers the frame noun ending a question's head ("phone *number*": a figure),
    the question's own words not counted as names."""
    if kind is None:
        return None
    return AnswerKind(kind, frozenset({fold(w) for w in find_words(text)} | set(named)))


def names_of(text: str, words: Collection[str]) -> tuple[tuple[str, ...], ...]:
    """The runs of two or more capitalised asked words in the question, past its first
    word ("the *Kia Niro*", "the *London Marathon*", "*Gloucester Road*"): each names one
    thing, which a fact holding one of its words ("pet insurance" for "National
    Insurance") does not name."""
    runs: list[tuple[str, ...]] = []
    run: list[str] = []
    for n, m in enumerate(NAME_WORD.finditer(text)):
        word = fold(m.group())
        if n and m.group()[0].isupper() and word in words and word not in run:
            run.append(word)
            continue
        if len(run) > 1:
            runs.append(tuple(run))
        run = []
    if len(run) > 1:
        runs.append(tuple(run))
    return tuple(runs)


def weak_of(question: Asked, found: Collection[Candidate],
            covers: Mapping[int, Collection[str]], via: Mapping[int, str],
            ) -> Callable[[Candidate], bool]:
    """Whether a candidate is a weak hit (`weak`): a fact brought because it replaced one
    that matched (`via`, "replaces ^id, which matched") is weak only when that fact is too."""
    by_id = {c.fact.id: c for c in found}

    def weak(c: Candidate) -> bool:
        if not question.weak(c, covers.get(c.rowid, ())):
            return False
        old = by_id.get(via.get(c.rowid, ""))
        return old is None or question.weak(old, covers.get(old.rowid, ()))

    return weak
