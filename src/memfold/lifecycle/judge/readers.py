"""Which reader reads a fact for the judge: the fact's own language, told per fact
(memfold.language).  English is read by judge.reading with the lexicons of judge.words;
a language with a table (judge.lexicon) — Vietnamese, judge.words_vi — by
judge.reading_table.  The rules (judge.rules) weigh the Readings alike, so another
language is one more lexicon module registered in `TABLES`.  A fact whose language cannot
be told (Telex leftovers, "ddax chuyeenr sang MySQL") gets a `neutral` Reading: its
words, numbers, versions and products, and no slot, change, ending or guard — so only the
language-neutral rules (product families, numbers, versions) can weigh it, and none of
them says it changed anything.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from memfold.language import looks_telex, vietnamese_sentence
from memfold.lifecycle.judge import quantities as q
from memfold.lifecycle.judge import reading, reading_table
from memfold.lifecycle.judge.aliases import priced
from memfold.lifecycle.judge.lexicon import Lexicon
from memfold.lifecycle.judge.reading import Reading
from memfold.lifecycle.judge.slots import stems
from memfold.lifecycle.judge.words_vi import LEXICON as VIETNAMESE
from memfold.names import entity_key
from memfold.values import Fact

# (whether a text is in the language, its lexicon), asked in order; English otherwise
TABLES: tuple[tuple[Callable[[str], bool], Lexicon], ...] = ((vietnamese_sentence, VIETNAMESE),)


@lru_cache(maxsize=16384)  # asked of the same texts for every pair the judge weighs
def lexicon_of(text: str) -> Lexicon | None:
    """The table a text is read with, or None for English."""
    return next((lex for told, lex in TABLES if told(text)), None)


def read(fact: Fact) -> Reading:
    """Read one fact in its language (cached: the judge asks again for every pair)."""
    ends = fact.valid is not None and fact.valid.end is not None
    return read_parts(fact.kind, fact.content, fact.entities, ends)


def read_priced(fact: Fact) -> Reading:
    """`read` of the fact with its amounts written as money (`aliases.priced`), as the judge
    reads each fact of a pair: a currency's code ("for 2,400 SEK") is no value of a slot."""
    return read(priced(fact))


@lru_cache(maxsize=16384)
def read_parts(kind: str, content: str, entities: tuple[str, ...], ends: bool) -> Reading:
    """`read` of a fact told by its parts (`ends`: whether its valid interval ends)."""
    if (lex := lexicon_of(content)) is None:
        return _neutral(kind, content, entities) if looks_telex(content) else \
            reading.read_text(kind, content, entities, ends)
    return reading_table.read_table(kind, content, entities, ends, lex)


def _neutral(kind: str, content: str, entities: tuple[str, ...]) -> Reading:
    """What any language's reader would agree on: the words, numbers, versions, products."""
    empty: frozenset[str] = frozenset()
    words = stems(content)
    return Reading(kind=kind, text=content, words=words, subject=empty,
                   predicate=words, attr=empty, relation=None, value=empty, verb="", head="",
                   changes=(), ends=(), numbers=q.numbers(content),
                   versions=q.versions(content), families=q.families(content),
                   polarity=0, changed_mind=False, guard=None, additive=False,
                   about=frozenset(entity_key(e) for e in entities[:1]), now=False,
                   reversal=False, parted=False)
