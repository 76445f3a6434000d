"""What recall reads of the memory that does not depend on the question, kept per version of
the index's facts.

Some readings recall makes are functions of the indexed facts and a word or a name alone:
which entities the memory says are "a dog" (`sets.kind_names`: a search of a kind word and
every narrower word, 256 words at most, whose cost at 10,000 daily files is several times
the question's own search), whether an entity is linked to so many facts that it says
nothing of what a fact is about (`sets._subjects`), and how many facts hold a word, up to a
bound (`word_counts`: what expansion, the second hop and `weak` weigh words by; the common
words of questions come back question after question).  They are kept here, keyed by the
index's facts version (`SqliteIndex.facts_version`: the facts token every sync that changes
a fact renews, an id of the index's lineage in it), so the next question that asks them of
the same memory reads them once, and a sync that changed any fact reads them afresh.  An
index that gives no version is read every time: an older SQLite index with no token, and
the server's Postgres index, which keeps its own counts per bank and whose version would
cost a round trip a question.

Bounded: the KEPT most recently used readings, whatever the size of the memory.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

from memfold.index.base import FactSearch

KEPT = 4096  # readings: a word's count is a few dozen bytes, a kind's entities a few keys

T = TypeVar("T")
_kept: OrderedDict[tuple[Hashable, ...], object] = OrderedDict()


def version(backend: object) -> str | None:
    """The version of the index's facts (`facts_version`: SQLite's facts token), or None
    for an index that gives none."""
    read = getattr(backend, "facts_version", None)
    at = read() if callable(read) else None
    return at if isinstance(at, str) else None


def kept(at: str | None, key: tuple[Hashable, ...], read: Callable[[], T]) -> T:
    """`read()` as of facts version `at` (`version`), read once per version and key; with
    no version, read every time."""
    if at is None:
        return read()
    full = (at, *key)
    if full in _kept:
        _kept.move_to_end(full)
        return _kept[full]  # type: ignore[return-value]
    value = read()
    _kept[full] = value
    while len(_kept) > KEPT:
        _kept.popitem(last=False)
    return value


def word_counts(backend: FactSearch, words: Sequence[str], most: int) -> dict[str, int]:
    """`backend.word_counts(words, most)`, each word's count kept per version of the facts:
    only the words not kept are counted, in one call."""
    at = version(backend)
    if at is None:
        return backend.word_counts(words, most)
    found: dict[str, int] = {}
    for word in dict.fromkeys(words):
        key = (at, "count", word, most)
        if key in _kept:
            _kept.move_to_end(key)
            found[word] = _kept[key]  # type: ignore[assignment]
    missing = [w for w in dict.fromkeys(words) if w not in found]
    if missing:
        counted = backend.word_counts(missing, most)
        for word in missing:
            found[word] = _kept[(at, "count", word, most)] = counted[word]
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return {w: found[w] for w in words}


def clear() -> None:
    _kept.clear()
