"""An age said of an entity, and an older age it replaces.

"Saoirse is ten and in fourth class" and, months later, "Saoirse turned eleven": an age is
one slot of a person or an animal, and a greater age said of the same entity replaces the
one before, whether written in digits or in words ("is 79" / "turned eighty", "is my
twelve-year-old border collie" / "turned thirteen").  The age must be said of the entity
itself, by its name at the start of the sentence ("Mum's dog is seven" is the dog's age, not
Mum's), in one of the forms a person writes an age: "is N", "is N years old", "turned N",
"is a/my N-year-old ...", "aged N".  A smaller age is no change (another person's, or a
mistake to read), and a fact naming two ages ("Elodie is nine and Finn six") is left to
the other rules.  English only: a fact in another language never matches.
"""

from __future__ import annotations

import re

_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
          "fourteen fifteen sixteen seventeen eighteen nineteen").split()
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
         "eighty": 80, "ninety": 90}
_WORD = (r"(?:(?:" + "|".join(_TENS) + r")(?:[\s-](?:" + "|".join(_UNITS[1:10]) + r"))?|"
         + "|".join(sorted(_UNITS[1:], key=len, reverse=True)) + ")")


_NA, _NB, _NC = (rf"(?P<{name}>\d{{1,3}}|{_WORD})" for name in "abc")


# the ways an age is written of the sentence's subject; the lookahead keeps out "is 5 km",
# "turned 30 degrees", "is two minutes away"
AGE = re.compile(
    rf"^(?P<who>[^.;:!?]*?)\s+(?:(?:is|am|turned|turns|has\s+turned|just\s+turned)\s+(?:now\s+)?{_NA}"
    rf"(?:\s+years?\s+old)?(?![\w-]|\s+(?:[a-z]+\s+)?(?:km|kg|miles?|minutes?|hours?|days?"
    rf"|weeks?|months?|degrees?|percent|%|times|of|out|stone|pounds?|points?|cm|m|ft)\b)"
    rf"|(?:is|was)\s+(?:a|an|my|our|his|her|their)\s+{_NB}-years?-old\b|aged\s+{_NC}\b)",
    re.IGNORECASE)


def _value(word: str) -> int:
    if word.isdigit():
        return int(word)
    parts = re.split(r"[\s-]+", word.lower())
    return sum(_TENS.get(p, _UNITS.index(p) if p in _UNITS else 0) for p in parts)


def age_of(text: str, name_words: frozenset[str]) -> tuple[int, str] | None:
    """(age, as written) said of the entity whose name words are given, or None: its name
    begins the sentence and no possessive ("Tadhg's dog") stands between."""
    found = list(AGE.finditer(text))
    if len(found) != 1:
        return None
    m = found[0]
    who = re.findall(r"[\w'’-]+", m.group("who").lower())
    if any(x.endswith(("'s", "’s")) for x in who) or not (set(who) & name_words or len(who) <= 2):
        return None  # "Mum's dog is seven"; a name, or a short subject ("Dad", "She")
    written = m.group("a") or m.group("b") or m.group("c")
    value = _value(written)
    return (value, written) if 0 < value < 130 else None


def aged(new_text: str, old_text: str, about: frozenset[str]) -> str | None:
    """Why a newer fact's age replaces the older one's, both said of the same single entity
    (`about`: the entity keys both facts are about), or None."""
    if len(about) != 1:
        return None
    key = next(iter(about))
    names = frozenset({"i"} if key == "me" else key.split("-"))
    new, old = age_of(new_text, names), age_of(old_text, names)
    if new is None or old is None or new[0] <= old[0]:
        return None
    return f"age: {old[1]!r} became {new[1]!r}"


__all__ = ["AGE", "age_of", "aged"]
