"""Facts that give a question's slot as the user's ("Hannah Whitford is my line manager", "Dr.
Hollis is my new GP"), whatever entity they are written under (`recall.asked_slot`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from memfold.names import USER, find_words
from memfold.recall.query import word_stem
from memfold.recall.ranking import Scored
from memfold.recall.roles import POSSESSIVE

NEW_BEFORE = 3  # "new lead first violinist": a word of the slot this many words on


@lru_cache(maxsize=4096)  # `current_first` asks it of each fact for each fact beside it
def stems_of(content: str) -> tuple[str, ...]:
    """A fact's words, each as its stem (in order, to find "new" or "my" before a slot
    word)."""
    return tuple(word_stem(w) for w in find_words(content.casefold()))


@dataclass(frozen=True)
class Mine:
    """The facts that give the question's slot as the user's (`mine_of`), and those of them
    that are about the user by that alone (written under another entity)."""

    said: frozenset[str] = frozenset()
    only: frozenset[str] = frozenset()

    def apart(self, new: str, old: str, shared: frozenset[str]) -> bool:
        """Whether two facts share only the user, and one is the user's by "my <slot>"
        alone while the other gives no such slot: "Idris has taken over as my manager" and
        "Promoted to associate director" (@me) are two slots of the user's."""
        return shared == {USER} and ((new in self.only and old not in self.said)
                                     or (old in self.only and new not in self.said))


def mine_of(best: Sequence[Scored], about: dict[str, frozenset[str]], slot: frozenset[str],
            asked_mine: bool) -> Mine:
    """For a question in the first person, the user (`USER`) is a subject of each fact that
    gives the slot as the user's ("Hannah Whitford is my line manager", "Dr. Hollis is my
    new GP"), whatever entity it is written under: "my" or "our" a few words before a word
    of the slot, with no one else named between ("My mum lives in Swindon" gives no home of
    the user's: `says_mine`).  Adds it to `about`."""
    said, only = set(), set()
    for s in best if asked_mine else ():
        if says_mine(stems_of(s.fact.content), slot):
            said.add(s.fact.id)
            if USER not in about[s.fact.id]:
                only.add(s.fact.id)
                about[s.fact.id] |= {USER}
    return Mine(frozenset(said), frozenset(only))


def says_mine(stems: Sequence[str], slot: frozenset[str]) -> bool:
    """Whether a fact's words (`_stems`) give the slot as the user's: "my" or "our", then a
    word of the slot within NEW_BEFORE words and before a word for someone else ("my mum
    lives ...": the mum's home)."""
    return any(word in POSSESSIVE and _mine_at(stems[at + 1: at + 2 + NEW_BEFORE], slot)
               for at, word in enumerate(stems))


def _mine_at(after: Sequence[str], slot: frozenset[str]) -> bool:
    for stem in after:
        if stem in slot:
            return True
        if stem in others():
            return False
    return False


@lru_cache(maxsize=1)
def others() -> frozenset[str]:
    from memfold.lifecycle.judge.words import RELATIVE_WORDS  # the judge's lexicons load late

    return frozenset(map(word_stem, RELATIVE_WORDS))
