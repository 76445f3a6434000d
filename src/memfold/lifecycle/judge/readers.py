"""Which reader reads a fact for the judge: the fact's own language, told per fact
(memfold.language).  English is read by judge.reading with the lexicons of judge.words;
a language with a table (judge.lexicon) — Vietnamese, judge.words_vi — by
judge.reading_table.  The rules (judge.rules) weigh the Readings alike, so another
language is one more lexicon module registered in `TABLES`.
"""

from __future__ import annotations

from collections.abc import Callable

from memfold.language import looks_vietnamese
from memfold.lifecycle.judge import reading, reading_table
from memfold.lifecycle.judge.lexicon import Lexicon
from memfold.lifecycle.judge.reading import Reading
from memfold.lifecycle.judge.words_vi import LEXICON as VIETNAMESE
from memfold.values import Fact

# (whether a text is in the language, its lexicon), asked in order; English otherwise
TABLES: tuple[tuple[Callable[[str], bool], Lexicon], ...] = ((looks_vietnamese, VIETNAMESE),)


def lexicon_of(text: str) -> Lexicon | None:
    """The table a text is read with, or None for English."""
    return next((lex for told, lex in TABLES if told(text)), None)


def read(fact: Fact) -> Reading:
    """Read one fact in its language (cached per language)."""
    if (lex := lexicon_of(fact.content)) is None:
        return reading.read(fact)
    ends = fact.valid is not None and fact.valid.end is not None
    return reading_table.read_table(fact.kind, fact.content, fact.entities, ends, lex)


def forget_readings() -> None:
    """Empty the caches of readings (benchmarks time a judge reading both facts)."""
    reading.forget_readings()
    reading_table.forget()
