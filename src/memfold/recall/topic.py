"""The words a question turns on, against the words that only frame it.

"How do I *feel* about kayaking?", "what *kind* of dog did we *get*?", "what camera do I *use*
for food pictures?": beside its topic ("kayaking", "dog", "camera"), a question holds words
that say how it asks — an opinion word (`query.OPINION_WORDS`), a light verb or a frame noun
(`FRAMES`).  In a memory of a few hundred facts such a word is as
rare as the topic ("feels" in three facts, "kayak" in three), so BM25 weighs the two alike,
and "The Crosstrek feels like a tank" outranks "Sea kayaking is the most peaceful thing I've
ever done".  A fact the lexical search found for frame words alone, when the question has
topic words, keeps FRAME_SHARE of its match (`framed`): it still comes when nothing holds
the topic, below every fact that does.

Pure functions of the candidates and the query plan.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import replace as evolve

from memfold.index.base import Candidate
from memfold.names import entity_key, find_words, fold
from memfold.recall import ranking
from memfold.recall.query import OPINION_WORDS, QueryPlan, word_stem

# verbs that carry a question's grammar, not its topic ("what do I *use* for ...", "where did
# we *get* the dog"), and nouns that only frame the thing asked ("what *kind* of car")
LIGHT_VERBS = frozenset("""go goes going went make makes making made get gets getting got
    take takes taking took taken give gives giving gave keep keeps keeping kept find finds
    found try tries tried put puts come comes came seem seems use uses using""".split())
FRAME_NOUNS = frozenset("kind kinds sort sorts type types way ways thing things stuff".split())
# words that place the thing asked in time, not say what it is ("my *old* airline", "where did
# I *first* meet Sofia", "the *new* knife")
WHEN_WORDS = frozenset("old new first last still ever usually often".split())
FRAMES = OPINION_WORDS | LIGHT_VERBS | FRAME_NOUNS | WHEN_WORDS


def topic_words(plan: QueryPlan, named: Collection[str]) -> tuple[str, ...]:
    """The query's terms that name its topic: not frame words, nor the names of entities
    it names (their links weigh who a fact is about)."""
    return tuple(t for t in plan.terms if t.isalpha() and fold(t) not in FRAMES
                 and entity_key(t) not in named)


def holds_any(c: Candidate, stems: Collection[str]) -> bool:
    """Whether the fact's text holds one of the words whose stems (`query.word_stem`) are
    `stems`, in any inflection the stemmer folds together."""
    return any(word_stem(w) in stems for w in find_words(fold(c.fact.content)))


def framed(found: Iterable[Candidate], plan: QueryPlan, named: Collection[str],
           ) -> dict[int, Candidate]:
    """The lexical candidates that hold none of the query's topic words, when it has some
    and some candidate holds one, each with FRAME_SHARE of its BM25 (by rowid): they were
    found for the question's frame words alone."""
    share = ranking.tunable("FRAME_SHARE")
    topic = topic_words(plan, named)
    if share >= 1 or not topic or not any(fold(t) in FRAMES for t in plan.terms):
        return {}
    stems = {word_stem(fold(t)) for t in topic}
    lexical = [c for c in found if c.bm25 is not None]
    held = [holds_any(c, stems) for c in lexical]
    if not any(held):
        return {}
    return {c.rowid: evolve(c, bm25=c.bm25 * share)
            for c, holds in zip(lexical, held, strict=True) if not holds and c.bm25}
