"""What the rule judge (judge.rules) reads of one fact alone, cached by its text.

A retain weighs each new fact against up to a hundred older ones, and the same older facts
again on the next retain: a day where two thousand facts share an entity asks these of the
same texts tens of thousands of times.  Each function here depends on its arguments only,
so a cached answer is the answer; the readings themselves are cached by judge.readers.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memfold.journal.fold import tentative
from memfold.lifecycle.judge import words as w
from memfold.lifecycle.judge.reading import Reading, Stems
from memfold.names import entity_key
from memfold.values import Fact

_SIZE = 16384
_GENERIC = w.GENERIC_STEMS
_STOPPED = frozenset(w.stem(x) for x in w.STOP)
# "has no dark mode", "doesn't have a driving licence", "has never travelled outside Europe"
_DENIED = re.compile(r"\b(?:doesn't|does\s+not|don't|do\s+not|has\s+no|have\s+no|hasn't\s+got"
                     r"|has\s+never|have\s+never|never|isn't|is\s+not|can't|cannot)\s+"
                     r"(?:have\s+|has\s+|got\s+|had\s+|been\s+)?(?P<what>[^.;,]+)", re.IGNORECASE)


def said_again(new: Fact, old: Fact) -> bool:
    """The same words written again ("finds the open-plan office too noisy", twice): a
    restatement, which changes nothing and raises no conflict."""
    return _plain(new.content) == _plain(old.content)


@lru_cache(maxsize=_SIZE)
def _plain(content: str) -> str:
    return " ".join(content.casefold().split())


@lru_cache(maxsize=_SIZE)
def stemmed(text: str) -> tuple[tuple[str, str], ...]:
    """Each word of a text, in order, as its stem and the token that writes it (without
    trailing punctuation): what a reason quotes a stem by ("Node 22", not "22 nod")."""
    return tuple((w.stem(word), token.rstrip(".,;:")) for token in w.TOKEN.findall(text)
                 for word in w.tokens(token))


def words_as_written(stemset: Stems, *texts: str) -> str:
    """The words of `stemset` as the texts write them, the first text first; a stem no text
    writes, as itself."""
    found: dict[str, str] = {}
    for text in texts:
        for stem, token in stemmed(text):
            if stem in stemset and stem not in found:
                found[stem] = token
    return " ".join([*found.values(), *sorted(stemset - found.keys())])


@lru_cache(maxsize=_SIZE)
def denial(text: str) -> Stems | None:
    """What a text says is not so ("has no dark mode": dark mode), or None when it denies
    nothing (the first denial in it)."""
    if not (m := _DENIED.search(text)):
        return None
    return frozenset({w.stem(t) for t in w.tokens(m.group("what"))} - _GENERIC - _STOPPED)


# an entity itself gone: "Rimu died at home", "was put to sleep", "the bike was stolen" — not a
# battery run flat or a car that "died on" the motorway
_GONE = re.compile(r"\b(?:died|passed\s+away|(?:put|was\s+put|were\s+put|had\s+(?:him|her|it)"
                   r"\s+put)\s+(?:down|to\s+sleep)|euthani[sz]ed|(?:was|were|got)\s+"
                   r"(?:stolen|written\s+off|scrapped))\b(?!\s+on\b)", re.IGNORECASE)
# what may stand between the entity's name and the word of its end: nothing of another subject
_GAP = re.compile(r"^[\s,]*(?:(?:sadly|finally|peacefully|suddenly|unexpectedly|quietly|just|has"
                  r"|have|had|was|were|got|to|be|been|then|also|we|i)\b[\s,]*)*$", re.IGNORECASE)
_FLAT = re.compile(r"\b(?:batter(?:y|ies)|charge|charger|phone|laptop|engine)\b", re.IGNORECASE)
# ... or no longer one's own, said by its name: "Sold Second Wind for $14,500"
_MINE = re.compile(r"\b(?:I|we|my|our|me|us)\b", re.IGNORECASE)  # one's own: "I still drive"
_PARTED_WITH = re.compile(r"\b(?:sold|scrapped|traded\s+in|gave\s+away|got\s+rid\s+of)\s+"
                          r"(?:the\s+|my\s+|our\s+)?(?P<what>(?-i:[A-Z])[\w'-]*"
                          r"(?:\s+(?-i:[A-Z])[\w'-]*){0,3})", re.IGNORECASE)


def name_pattern(key: str) -> str:
    """A pattern of an entity's name as a text writes it: "second-wind" as "Second Wind" or
    "Second-Wind"."""
    return r"\b" + r"[\s-]+".join(map(re.escape, key.split("-"))) + r"\b"


def name_stems(keys: frozenset[str]) -> Stems:
    """The stemmed words of these entities' names ("project-compass": project, compass)."""
    return frozenset(w.stem(part) for key in keys for part in key.split("-"))


def written_name(fact: Fact, keys: frozenset[str]) -> str:
    """The first of the fact's entities, as written, whose key is one of `keys`."""
    return next(e for e in fact.entities if entity_key(e) in keys)


def gone(fact: Fact) -> str | None:
    """The key of the entity a fact says is gone for good, or None: it died, was put down,
    stolen or written off, said of it by name ("Rimu died at home", not "Mum's friend
    died"); or it was sold, scrapped or given away by its name ("Sold Second Wind").  Asked
    of the new fact once per older one, so read once per text."""
    return _gone(fact.content, keys_of(fact.entities) - {"me"})


def gone_from(new: Fact, old: Fact) -> bool:
    """Whether the entity the new fact says is gone is one the older fact is linked to, and
    named there by itself if its text names it: "Owain has a collie called Tansy" names the
    dog, "teaches in the Rimu Room" a room (a name inside a longer name)."""
    key = gone(new)
    if not key or key not in keys_of(old.entities):
        return False
    said = list(re.finditer(name_pattern(key), old.content, re.IGNORECASE))
    return not said or any(not _LONGER_NAME.match(old.content, m.end()) for m in said)


_LONGER_NAME = re.compile(r"[\s-]+(?-i:[A-Z])")  # "Rimu Room": the name goes on


@lru_cache(maxsize=_SIZE)
def _gone(content: str, keys: frozenset[str]) -> str | None:
    if (m := _GONE.search(content)) and not _FLAT.search(content):
        before = content[:m.start()]
        named = [(at.end(), key) for key in keys
                 for at in re.finditer(name_pattern(key), before, re.I)]
        if named and _GAP.match(before[(last := max(named))[0]:]):
            return last[1]  # "Pepper died", "Tansy had to be put to sleep": not "Lise ...
            # since her bike was stolen", "Mum's friend died"
    m = _PARTED_WITH.search(content)
    return key if m and (key := entity_key(m.group("what"))) in keys else None


def gone_of(new: Fact, old: Fact, o: Reading) -> str | None:
    """The entity an older state is about, or names, died, was stolen, sold ("Rimu died at
    home"; "Sold the Clio" ends "I still drive Joaquim's Clio", not "the inspection cost €36",
    a thing one had or used, not what was said of it)."""
    key = gone(new) if o.kind == "world" and o.relation != "name" else None
    if not key or key not in o.about | keys_of(old.entities):
        return None
    if not _GONE.search(new.content) and not _MINE.search(old.content):
        return None  # sold: what one had or used ends, not "the Wave's insured with …"
    return f"the newer fact says {written_name(new, frozenset({key}))!r} is gone"


def ends_itself(n: Reading) -> bool:
    """Whether the fact says its own subject, the entity, ended (an end with no object)."""
    return not n.subject and not n.additive and any(not e for e in n.ends)


# the words a plan and its settling share that say nothing of what was planned
_WORD = re.compile(r"[A-Za-z][\w'-]+")
_PLAN_WORDS = frozenset(w.stem(x) for x in (
    "plan planning planned think thinking thought idea decide decided want wanted try going "
    "maybe hope hoping consider considering look looking next year month week time end "
    "because after before".split()))


@lru_cache(maxsize=_SIZE)
def plan_words(text: str) -> Stems:
    """The content words of a text, stemmed, as a plan and its settling share them: no
    word of planning, and words of letters only ("2025" or "10K" name no plan)."""
    return frozenset(s for t in _WORD.findall(text) if t.lower() not in w.STOP
                     for s in (w.stem(t.lower()),) if s not in w.GENERIC_STEMS) - _PLAN_WORDS


@lru_cache(maxsize=_SIZE)
def for_good(text: str) -> bool:
    """Whether a text says something ended for good ("closed its doors", "folded")."""
    return bool(w.FOR_GOOD.search(text))


def exploring(fact: Fact) -> bool:
    """`journal.fold.tentative`, asked once per text: an exploration or a plan."""
    return _tentative(fact.kind, fact.content)


# "Isidore's planning appeal is pending" is no plan: the word is left out of the question
# (nor is "started as a planning consultant": after an article it names a kind of work)
_PLANNING_NOUN = re.compile(rf"\bplanning\s+(?=(?:{w.PLANNING_NOUNS})\b)|(?<=\ba\s)planning\b"
                            r"|(?<=\ban\s)planning\b", re.IGNORECASE)


@lru_cache(maxsize=_SIZE)
def _tentative(kind: str, content: str) -> bool:
    content = _PLANNING_NOUN.sub("", content)
    return tentative(Fact(id="", kind=kind, content=content, path="", line=0, end_line=0))


@lru_cache(maxsize=_SIZE)
def keys_of(entities: tuple[str, ...]) -> frozenset[str]:
    """The entity keys of a fact's entities."""
    return frozenset(entity_key(e) for e in entities)


def others_apart(new: Fact, old: Fact) -> bool:
    """Both facts are linked to entities besides the user, and to none of the same: "Priya's
    the best dispatcher" (@Priya) and "Marco's a decent dispatcher" (@Marco) are two views."""
    mine, theirs = (keys_of(f.entities) - {"me"} for f in (new, old))
    return bool(mine) and bool(theirs) and not mine & theirs


def forget() -> None:
    """Empty these caches (benchmarks time a judge reading both facts afresh)."""
    for cached in (_plain, stemmed, denial, for_good, _tentative, keys_of, plan_words, _gone):
        cached.cache_clear()
