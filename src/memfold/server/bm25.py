"""memfold's BM25 over PostgreSQL's recall rows: the score SQLite's FTS5 gives
(`bm25(facts_fts, 1.0, 0.5)`), computed the same way from the same terms.

A search's words and phrases (`Terms`) are read by the index's own tokenizer
(`index.sqlite.tokenize`), each a phrase of one term or more, the last a prefix when asked.
PostgreSQL finds the rows that hold any of them (a tsquery over the GIN index on `terms`)
and hands back, for each, the places of the search's terms; this module counts each
phrase's hits in each column (body 1.0, names 0.5) and sums FTS5's formula over the
phrases in FTS5's order, with the bank's statistics (rows, terms, rows holding each term):

    idf   = log((N - n + 0.5) / (n + 0.5)), at least 1e-6
    score = -sum(idf * f * (k1 + 1) / (f + k1 * (1 - b + b * D / avgdl))),  k1 1.2, b 0.75

The operations run in FTS5's order, so equal inputs give scores equal to the bit, and ties
(which recall breaks by path and line) are the same ties.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from memfold.index.base import Terms
from memfold.index.sqlite.tokenize import words as tokenize
from memfold.names import fold_for_index

K1 = 1.2
B = 0.75
WEIGHTS = (1.0, 0.5)  # body, names: bm25(facts_fts, 1.0, 0.5)

Places = Mapping[str, Sequence[tuple[int, int]]]  # term -> (column, place) of each hit


@dataclass(frozen=True)
class Phrase:
    """One quoted string of a search: its terms in order; `prefix`: the last term also
    matches the longer terms it begins."""

    terms: tuple[str, ...]
    prefix: bool = False

    def single(self) -> bool:
        return len(self.terms) == 1 and not self.prefix

    def tsquery(self) -> str:
        quoted = ["'" + t.replace("\\", "\\\\").replace("'", "''") + "'" for t in self.terms]
        if self.prefix:
            quoted[-1] += ":*"
        return "(" + " <-> ".join(quoted) + ")"

    def hits(self, places: Places) -> float:
        """The phrase's hits in one row, each weighed by its column."""
        if self.prefix:
            last = self.terms[-1]
            tail = sorted({p for t, ps in places.items() if t.startswith(last) for p in ps})
        else:
            tail = list(places.get(self.terms[-1], ()))
        if len(self.terms) == 1:
            return sum(WEIGHTS[col] for col, _ in tail)
        held = [set(places.get(t, ())) for t in self.terms[:-1]]
        width = len(self.terms) - 1
        return sum(WEIGHTS[col] for col, place in tail
                   if all((col, place - width + n) in held[n] for n in range(width)))


def phrases(terms: Terms) -> list[Phrase]:
    """The search's phrases in FTS5's order (`index.sqlite.fts.expression`: phrases, then
    words), each as the index reads it; a string with no terms matches nothing."""
    texts = [fold_for_index(p) for p in terms.phrases] + [fold_for_index(w)
                                                           for w in terms.words]
    read = words(texts)
    made = [Phrase(t, prefix=terms.prefix and n >= len(terms.phrases))
            for n, t in enumerate(read)]
    return [p for p in made if p.terms]


WORDS_KEPT = 20_000  # texts whose terms a process keeps (`words`): a few MB at most
_words: dict[str, tuple[str, ...]] = {}


def words(texts: Sequence[str]) -> list[tuple[str, ...]]:
    """The terms of each text as the index reads them (`tokenize.words`), each text read
    once per process: a recall reads the same words again and again (its own expansion,
    each later question), and each reading is a round through an SQLite table.  Bounded:
    all forgotten when WORDS_KEPT are held; a pure function of the text, so nothing kept
    can go stale."""
    found = {text: _words.get(text) for text in texts}
    missing = [text for text, terms in found.items() if terms is None]
    if missing:
        read = {text: tuple(terms) for text, terms in zip(missing, tokenize(missing),
                                                            strict=True)}
        found.update(read)
        if len(_words) + len(read) > WORDS_KEPT:
            _words.clear()
        _words.update(read)
    return [found[text] or () for text in texts]


def tsquery(found: Sequence[Phrase], *, every: bool) -> str:
    return (" & " if every else " | ").join(p.tsquery() for p in found)


def idf(rows: int, holding: int) -> float:
    value = math.log((rows - holding + 0.5) / (holding + 0.5))
    return value if value > 0.0 else 1e-6


def score(found: Sequence[Phrase], idfs: Sequence[float], places: Places, length: int,
          avgdl: float) -> float:
    """FTS5's bm25 of one row (negative: lower is better)."""
    return score_of([(weight, phrase.hits(places))
                     for phrase, weight in zip(found, idfs, strict=True)], length, avgdl)


def score_of(weighed: Sequence[tuple[float, float]], length: int, avgdl: float) -> float:
    """FTS5's bm25 of one row from each phrase's (idf, hits), in the phrases' order: the
    hits of a phrase of one term are its posting's (`recall_postings.hits`, its places
    weighed by column: exact halves, so equal to `Phrase.hits` to the bit)."""
    total = 0.0
    for weight, f in weighed:
        total += weight * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + B * length / avgdl)))
    return -1.0 * total
