"""The names a fact gives: its words written with a capital, less the names of the entities it
is about, and less a sentence's first word when that is a word of the language ("Took",
"Since", "Downgraded").  `asked_slot` reads a newer fact that names a name an older fact on
the asked slot gives as speaking of that slot, whatever words it uses: "Ines leads Project
Osprey", later "Ines handed Osprey over to Kwabena"; "I'm on the Spotify Family plan", later
"Downgraded to Spotify Individual".

A name that begins a sentence and is also a word of the language ("Marguerite", "Rose") is
not read as a name there; written further on, it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache

from memfold import lexicon
from memfold.names import STOP_WORDS, entity_key, find_words

SENTENCE = re.compile(r"[.;:!?]\s+")
# words a sentence opens with that no word list of the language gives as such
OPENERS = frozenset("since once until while whenever though although unless starting "
                    "then also yet".split())
# the user, as a question or a fact speaks of the user
FIRST_PERSON = frozenset("i me my mine myself we us our ours".split())


def names_in(content: str, keys: Iterable[str]) -> frozenset[str]:
    """The names a text gives, less those of the entities `keys` (each part of a key, and
    a name whose key is one: "Lucía" for lucia)."""
    parts = {p for k in keys for p in re.split(r"[-_]", k)}
    return frozenset(n for n in _names_in(content) if n not in parts and entity_key(n) not in parts)


@lru_cache(maxsize=4096)
def _names_in(content: str) -> frozenset[str]:
    out = set()
    for start, word in _capitals(content):
        folded = word.casefold()
        if folded in STOP_WORDS or folded in FIRST_PERSON or len(folded) < 2 \
                or (start and (folded in OPENERS or lexicon.lemmas(folded))):
            continue
        out.add(folded)
    return frozenset(out)


def _capitals(content: str) -> Iterator[tuple[bool, str]]:
    """The words of a text written with a capital, each with whether a sentence begins
    with it."""
    for sentence in SENTENCE.split(content):
        for at, word in enumerate(find_words(sentence)):
            if word[:1].isupper():
                yield at == 0, word
