"""A diet, for a question about what someone eats: "What does Anatole eat?" asks the diet, and
a newer fact that states one ("Anatole has gone pescatarian", "Benedek has been vegetarian
since New Year") states what holds now against an older fact of what they eat that states
none the judge reads ("eats everything, meat included") or another named diet.

The judge reads a diet as its relation `diet` ("went vegan", "eats meat again") or as an
attribute whose value is a named diet ("is vegetarian": `judge.words.DIETS`).  A dish is no
diet ("cooked a vegetarian lasagne": the judge reads no relation), nor is a food the older
diet allows ("eats fish" keeps a pescatarian one: a food is not a named diet).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from memfold.recall.query import word_stem
from memfold.values import Fact

# the words a question asks a diet with
ASKED = frozenset(word_stem(w) for w in ("eat", "eats", "diet", "food", "meat"))


@lru_cache(maxsize=1)
def _named() -> frozenset[str]:
    from memfold.lifecycle.judge import words  # the judge's lexicons load late

    return frozenset(map(words.stem, words.DIETS))


def asks(stems: Iterable[str]) -> bool:
    """Whether a question's slot (its stems) asks what someone eats."""
    return not ASKED.isdisjoint(stems)


def diet_of(fact: Fact) -> frozenset[str]:
    """The diet the judge reads a fact as stating (its value's stems), or nothing."""
    from memfold.lifecycle.judge.readers import read

    reading = read(fact)
    if reading.guard is not None:
        return frozenset()
    if reading.relation == "diet":
        return reading.value
    return reading.value & _named() if reading.relation == "attr" else frozenset()


def states_diet(new: Fact, old: Fact) -> bool:
    """Whether the newer fact states a diet that holds now against the older one: the older
    states none, or another named diet."""
    diet, before = diet_of(new), diet_of(old)
    return bool(diet) and (not before or (bool(diet & _named()) and diet != before))
