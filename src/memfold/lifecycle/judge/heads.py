"""The heads of a fact's noun phrases, for the judge's evidence (judge.evidence): which word
names the thing a phrase is about and which words only qualify it.

English puts the thing last in a run of nouns: "the signal supervisor" is a supervisor,
"crossing heaters" are heaters, "relay-based signals" are signals, "a set of winter tires"
are tires (a measure word before "of" gives way to what follows it).  A word that stands
only before another noun qualifies that noun: two facts that share only such a word share
no thing.  A run is cut at a stop word, a verb, a possessive and punctuation; a word ending
in -s is read as a verb when an object follows it ("the car needs new tires").  Pure
functions of the text; heuristics, never a parser: each answer is a hint that a supersede
lacks evidence, never a reason to make one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memfold.lifecycle.judge import words as w

Stems = frozenset[str]

_TOKEN = re.compile(r"[A-Za-z][\w'’-]*[A-Za-z0-9]|[A-Za-z]|[$€£¥₹₪]?\d[\d,.]*%?|[^\w\s]")
_VERBS = frozenset(
    "is are was were am be been being has have had do does did will would can could may might "
    "shall should must needs need needed costs cost works runs takes gets makes goes keeps "
    "says looks seems feels lives stays holds means pays sits leaves comes starts opens "
    "closes owns drives rents wants likes loves hates prefers uses plays teaches coaches "
    "manages leads supervises reports belongs includes covers handles renews weighs".split())
_PAST = frozenset(k for k, v in w.IRREGULAR.items() if v != k or k in ("quit", "shut", "cut"))
_NOT_PAST = frozenset("shed bed sled red bred seed need feed speed breed weed reed".split())
# an object opening after a word ending in -s makes that word a verb: "needs new tires"
_OBJECT = frozenset("a an the my our his her their its your this that these those new "
                    "some no more".split())
# the words that measure out what follows "of": "a set of tires" is tires
_MEASURE = frozenset(w.stem(x) for x in "set pair couple kind sort type lot bunch piece "
                     "batch box bag load pack number range".split())


# words that end a noun phrase without being a noun: "eats dry food twice a day"
_ADVERBS = frozenset("once twice thrice alone together apart away back home abroad instead "
                     "anyway enough else later soon late early far well best less more "
                     "much little online offline overnight upstairs downstairs".split())


def _is_verb(token: str, following: str) -> bool:
    low = token.lower()
    if low in _ADVERBS:
        return True  # no noun of a run either
    if "-" in low:
        return False  # "relay-based", "trade-in": a compound qualifier or noun
    if low in _VERBS or low in _PAST or low.endswith("ly"):
        return True
    if low.endswith("ed") and low not in _NOT_PAST:
        return True
    return low.endswith("s") and not low.endswith("ss") and (
        following.lower() in _OBJECT or following[:1] in tuple("$€£¥₹₪") or following[:1].isdigit()
        or following[:1].isupper())  # "attends Little Acorns": a name is its object


def _nounish(token: str, following: str) -> bool:
    return bool(re.match(r"[A-Za-z]", token)) and token.lower() not in w.STOP \
        and not re.search(r"['’]", token) and not _is_verb(token, following)


def runs(text: str) -> Iterator[list[str]]:
    """The runs of noun-like words a text writes, in order ("the relay-based signals on the
    Sprague subdivision": [relay-based, signals], [Sprague, subdivision])."""
    tokens = [*_TOKEN.findall(text), ""]
    run: list[str] = []
    for i, token in enumerate(tokens[:-1]):
        if _nounish(token, tokens[i + 1]) and not (run and run[-1].islower()
                                                   and token[:1].isupper()):
            run.append(token)  # a name after a common noun starts a phrase of its own
            continue
        if run:
            yield run
        run = [token] if _nounish(token, tokens[i + 1]) else []
        if re.search(r"['’]s?$", token) and re.match(r"[A-Za-z]", token):
            continue  # "Bram's giant pumpkin": the possessor stands alone
    if run:
        yield run


def _stem(token: str) -> str:
    return w.stem(re.sub(r"['’]s?$", "", token.lower()))


def _parts(token: str) -> list[str]:
    return [_stem(p) for p in token.split("-") if len(p) > 2] if "-" in token else []


def qualifiers(text: str) -> dict[str, Stems]:
    """The common nouns (written small) that stand only before another noun of their run,
    each with the heads it qualifies ("the signal supervisor": signal -> {supervisor});
    a word that is also a head anywhere in the text is none."""
    before: dict[str, set[str]] = {}
    heads: set[str] = set()
    for run in runs(text):
        head = _stem(run[-1])
        heads.add(head)
        for token in run[:-1]:
            for x in (_stem(token), *_parts(token)):
                if token.islower() or token[:1].islower():
                    before.setdefault(x, set()).add(head)
        heads.update(_parts(run[-1])[-1:])
    return {x: frozenset(h) for x, h in before.items() if x not in heads}


def head_of(phrase: str) -> Stems:
    """The head of the first noun phrase of `phrase`, its measure word given way to what
    follows "of" ("a new set of Nokian winter tires": tire)."""
    found = list(runs(phrase))
    if not found:
        return frozenset()
    head = _stem(found[0][-1])
    if head in _MEASURE and len(found) > 1 and re.search(
            re.escape(found[0][-1]) + r"\s+of\s+", phrase):
        head = _stem(found[1][-1])
    return frozenset({head})


# what an amount of money is for: "X cost $N", "X: $N", "X was $N"; "$N for X", "$N on X"
_PRICE_AFTER = re.compile(r"(?P<what>[^.;:,]+?)\s*(?::|\b(?:cost|costs|was|is|came\s+to|"
                          r"ran|runs|set\s+us\s+back)\b[^$€£¥₹₪\d]{0,20})\s*[$€£¥₹₪]\s?\d")
_PRICE_BEFORE = re.compile(r"[$€£¥₹₪]\s?\d[\d,.]*k?\s+(?:for|on)\s+(?P<what>[^.;:,]+)")


def priced(text: str) -> Stems:
    """The head of the thing the first amount of money in `text` is for, or empty."""
    if m := _PRICE_BEFORE.search(text):
        return head_of(m.group("what"))
    if m := _PRICE_AFTER.search(text):
        found = list(runs(m.group("what")))
        if found:
            return head_of(" ".join(found[-1]) if ":" not in m.group(0)
                           else _last_phrase(m.group("what")))
    return frozenset()


def _last_phrase(text: str) -> str:
    """The last noun phrase before a colon, with an "of" phrase it ends in ("a new set of
    Nokian winter tires")."""
    words = text.split()
    for i in range(len(words) - 1, 0, -1):
        if words[i].lower() in w.STOP and words[i].lower() != "of":
            return " ".join(words[i + 1:])
    return text


__all__ = ["head_of", "priced", "qualifiers", "runs"]
