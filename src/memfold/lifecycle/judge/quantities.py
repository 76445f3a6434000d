"""Quantities, versions, product families and the polarity of a liking, read from a fact's
text for the judge (judge.reading puts them in a Reading).  Pure functions of the text."""

from __future__ import annotations

import re

from memfold.lifecycle.judge import words as w

Stems = frozenset[str]

_MONTH_NAMES = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split())
_NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
                 "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11",
                 "twelve": "12", "a dozen": "12", "twenty": "20", "fifty": "50",
                 "hundred": "100"}
_NUMBER_WORD = re.compile(r"\b(?:" + "|".join(_NUMBER_WORDS) + r")\b", re.IGNORECASE)
_ANY_NUMBER = re.compile(r"\d|\b(?:" + "|".join(_NUMBER_WORDS) + r")\b", re.IGNORECASE)
_DATE_NUMBER = re.compile(
    r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*\s+\d{1,2}(?:st|nd|rd|th)?\b"
    r"|\b\d{1,2}(?::\d\d)?\s*(?:am|pm)\b|\bat\s+\d{1,2}:\d\d\b|\bq[1-4]\b", re.IGNORECASE)


_ORDINALS = {"first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5",
             "sixth": "6", "seventh": "7", "eighth": "8", "ninth": "9", "tenth": "10",
             "eleventh": "11", "twelfth": "12"}
# "third grade", "5th grade", "his second year at university": a stage, read as "Grade 3"
ORDINAL_STAGE = re.compile(r"\b(?P<n>first|second|third|fourth|fifth|sixth|seventh|eighth|ninth"
                           r"|tenth|eleventh|twelfth|\d{1,2}(?:st|nd|rd|th))[\s-]+(?P<what>grade"
                           r"|year|form|class|semester|term)\b", re.IGNORECASE)


def stage(m: re.Match[str]) -> str:
    n = m.group("n").lower()
    number = _ORDINALS.get(n, re.sub(r"\D", "", n))
    return f"{m.group('what').capitalize()} {number}"


def numbers(text: str) -> tuple[tuple[str, Stems], ...]:
    """Quantities with their unit words ("74 kg", "$8.50", "3 engineers"); dates, times,
    versions and ids are not quantities."""
    if not _ANY_NUMBER.search(text):
        return ()
    clean = _NUMBER_WORD.sub(_number_of, _DATE_NUMBER.sub(" ", text))
    tokens = w.tokens(clean)
    marked = {m.group("a") or m.group("b"):  # "$8.50", "4.2%": the symbol is the unit
              frozenset({w.CURRENCY[m.group("pre")] if m.group("pre") else "percent"})
              for m in _SYMBOLED.finditer(clean.replace(",", ""))}
    out: list[tuple[str, Stems]] = []
    for i, token in enumerate(tokens):
        if not w.is_number(token) or _IDENTIFIER.match(token) \
                or (i and _is_name(tokens[i - 1])) or (
                w.YEAR.match(token) and i and tokens[i - 1] in _BEFORE_YEAR):
            continue  # "Python 3.12", "React 18" are versions, compared as values
        after = [t for t in tokens[i + 1: i + 3] if t not in w.STOP][:2]
        if not after:  # "ends in 4471", "costs 12": the measure is named before the number
            after = [t for t in tokens[max(0, i - 2): i] if w.stem(t) in _MEASURES][-1:]
        units = frozenset(w.UNIT_CLASS.get(t) or w.UNIT_CLASS.get(w.stem(t), w.stem(t))
                          for t in after)
        if ":" in token:
            units = frozenset({"clock"})
        units = marked.get(token, units)
        out.append((token, units))
    return tuple(out)


def _number_of(m: re.Match[str]) -> str:
    """A number word as a number, unless it ends a name ("the Backbeat Three", "Ocean's
    Eleven"): a capitalised number word after a capitalised word is no quantity."""
    word = m.group()
    if word[:1].isupper() and _NAME_BEFORE.search(m.string, 0, m.start()):
        return word
    if word == "one" and _PRONOUN_AFTER.match(m.string, m.end()) \
            and not _COUNT_BEFORE.search(m.string, 0, m.start()):
        return word  # "the only way to afford one", "a new one": a pronoun, no quantity
    return _NUMBER_WORDS[word.lower()]


# "one" stands for a thing, not a count, when no noun follows it ("afford one.", "the old one
# was") and nothing before it asks for a count ("is one", "only one", "at one")
_PRONOUN_AFTER = re.compile(r"\s*(?:$|[.,;:!?)]|(?:and|but|or|too|either|yet|now|later|instead"
                            r"|today|that|which|is|was|are|were|will|would|at|in|on|for|from"
                            r"|with|to|if|when|because|so|last|next|soon)\b)", re.IGNORECASE)
_COUNT_BEFORE = re.compile(r"\b(?:is|are|was|were|be|been|at|to|of|than|number|no|only|just"
                           r"|about|around|over|under|by|from|age|aged|size|grade|level|step"
                           r"|page|day|plus|minus|times|exactly|least|most)\s+$", re.IGNORECASE)


_NAME_BEFORE = re.compile(r"(?<=[\w,'’] )(?-i:[A-Z])[\w'’-]*\s+$")
_IDENTIFIER = re.compile(r"^0\d")  # "fact 0004", "ticket 007": an id, not a quantity
GLUED = re.compile(r"\b(\d+(?:\.\d+)?)(kg|lb|lbs|km|mi|gb|tb|mb|mbps|gbps|k|m|h|min)\b",
                    re.IGNORECASE)
_SYMBOLED = re.compile(r"(?P<pre>[$€£¥₹₪])\s?(?P<a>\d+(?:\.\d+)?)|(?P<b>\d+(?:\.\d+)?)%")
_MEASURES = frozenset(w.stem(x) for x in "ends costs weighs pays earns charges takes lasts "
                      "measures scores totals stands averages".split())
_BEFORE_YEAR = frozenset("in since from until by of before after during early late mid circa "
                         "around".split())


_VERSIONED = re.compile(r"\b([A-Za-z][\w.+-]*)\s+v?(\d+(?:\.\d+)*)\b")
_VERSION_WORDS = frozenset("version firmware release build update v".split())


def versions(text: str) -> frozenset[tuple[str, str]]:
    """Named versions: "Windows 11", "Python 3.12", "firmware 20.26" — a product's name
    (capitalised, or a known product) or the word "version" before a number."""
    return frozenset(
        (w.stem(name.lower()), number) for name, number in _VERSIONED.findall(text)
        if (name[0].isupper() or name.lower() in w.FAMILY or name.lower() in _VERSION_WORDS)
        and name.lower() not in _MONTH_NAMES and not w.YEAR.match(number))


def _is_name(token: str) -> bool:
    return token in w.FAMILY or token in ("version", "v", "release", "python", "node") \
        or token in _LABELS


# a number after these names one of a series, not how many: "Term 1", "Room 4", "Gate 12"
_LABELS = frozenset("term room phase platform gate flat apartment chapter section ward bay "
                    "block wing season episode".split())


def families(text: str) -> frozenset[tuple[str, str]]:
    raw = w.TOKEN.findall(text.replace("/", " "))
    tokens = [t.replace("_", "-") for t in w.tokens(text.replace("/", " "))]
    found: set[tuple[str, str]] = set()
    for size in (3, 2, 1):
        for i in range(len(tokens) - size + 1):
            name = "-".join(tokens[i: i + size])
            if name in w.FAMILY and not _heads_a_name(text, name) and (
                    name not in w.EVERYDAY or (
                    i > 0 and len(raw) == len(tokens) and raw[i][:1].isupper())):
                found.add((w.FAMILY[name], w.PRODUCT_ALIASES.get(name, name)))
    return frozenset(found)


# the head nouns of a business's or a place's name: "Pixel Kitchen" is a studio, not a phone,
# "Jaguar Cafe" a café, not a car
_ORGANISATION_HEADS = frozenset(
    "kitchen kitchens studio studios bakery cafe café bar bistro restaurant shop store stores "
    "bank labs lab media group agency company co ltd inc llc partners consulting design "
    "productions pictures films foods farm farms works academy school college clinic gym "
    "salon hotel lodge brewery records press books publishing foundation trust club".split())


def _heads_a_name(text: str, name: str) -> bool:
    """Whether a product's name is written only before the head of a business's name."""
    said = re.finditer(r"\b" + r"[\s-]+".join(map(re.escape, name.split("-")))
                       + r"\b(?:\s+(?P<head>(?-i:[A-Z])\w*))?", text, re.IGNORECASE)
    heads = [m.group("head") for m in said]
    return bool(heads) and all(h and h.lower() in _ORGANISATION_HEADS for h in heads)


def polarity(text: str) -> int:
    found = {w.stem(t) for t in w.tokens(text)}
    negative = bool(found & {w.stem(x) for x in w.NEGATIVE}) or bool(
        re.search(r"\bcan\s*(?:not|'t)\s+stand\b|\b(?:not|n't|never|no\s+longer)\s+(?:\w+\s+)?"
                  r"(?:like|love|enjoy|want"
                  r"|prefer)", text, re.IGNORECASE))
    positive = bool(found & {w.stem(x) for x in w.POSITIVE})
    return -1 if negative else 1 if positive else 0
