"""Places within places: a question about a country or a region, answered by facts that name
a place within it.

People ask about a trip by the country ("which places did we visit in Japan?", "where was
the best food in Italy?") while the facts an agent keeps name the cities and islands ("Flew
to Tokyo", "okonomiyaki in Dotonbori in Osaka", "snorkelling off Sicily").  The lexicon's
kinds do not reach them: Osaka is a kind of city, not of Japan.  WordNet says which named
places are part of which (`tools/build_places.py`, `lexicon/data/places.tsv.gz`: japan ->
honshu, tokyo, kyoto, osaka, ...; italy -> sicily, rome, ..., palermo), and `within` reads
it for the query's words and runs of two or three ("new zealand"):

- the places within a place the query names are searched for (at most SEARCHED, nearest
  first, each held by at most `expansion.COMMON` facts), and the candidates found already
  are read for them;
- a fact holds a place only as a name: the place's words with a capital first letter in its
  text ("Nice", not "a nice view"), and not as the name of an entity the query names;
- each fact so found matches at `ranking.KIND_SHARE` of its match there (a place within the
  one asked is a kind of answer, as a beagle is a kind of dog), weighed as
  `expansion.word_knowledge` weighs a kind, and says so in `why` ("Osaka, in Japan").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Mapping

from memfold.index.base import Candidate, FactSearch, Filters, Terms
from memfold.names import entity_key, find_words
from memfold.recall import ranking
from memfold.recall.expansion import FOUND_PART, MAX_ADDED, Found, uncommon
from memfold.recall.fusion import lexical_part
from memfold.recall.query import QueryPlan

# what a fact naming a place within the one asked matches, as a share of its match there
PLACE_SHARE = 1.0
SEARCHED = 64  # the nearest places within one asked that are searched for
RUN = 3  # the longest run of query words read as a place ("bosnia and herzegovina" is not)
TOLD = "{word}, in {term}"


@functools.cache
def _table() -> dict[str, tuple[str, ...]]:
    import gzip
    from importlib import resources

    path = resources.files("memfold.lexicon").joinpath("data", "places.tsv.gz")
    if not path.is_file():
        return {}
    table: dict[str, tuple[str, ...]] = {}
    for line in gzip.decompress(path.read_bytes()).decode().splitlines():
        place, _, parts = line.split("\t")
        table[place] = tuple(parts.split("|"))
    return table


def parts(place: str) -> tuple[str, ...]:
    """The named places within `place` (lower case), nearest first; () for no place."""
    return _table().get(place.casefold(), ())


def asked_places(plan: QueryPlan, named: Collection[str]) -> dict[str, tuple[str, ...]]:
    """The places the query names (a word or a run of up to RUN words, not a name of an
    entity it names) -> the places within each, less the query's own words."""
    words = [w.casefold() for w in find_words(plan.text)]
    runs = [" ".join(words[i:i + n]) for n in range(RUN, 0, -1)
            for i in range(len(words) - n + 1)]
    asked = set(words)
    out: dict[str, tuple[str, ...]] = {}
    for run in runs:
        if entity_key(run) in named or any(run in r.split(" ") for r in out):
            continue
        within = tuple(p for p in parts(run) if p not in asked)
        if within:
            out[run] = within
    return out


@functools.lru_cache(maxsize=1 << 10)
def _pattern(place: str) -> re.Pattern[str]:
    """The place as a name: each word with its capital ("Tokyo", "New Zealand")."""
    words = [re.escape(w[:1].upper()) + re.escape(w[1:]) for w in place.split(" ")]
    return re.compile(r"(?<![\w-])" + r"[\s-]+".join(words) + r"(?![\w-])")


def held(c: Candidate, within: tuple[str, ...], names: Collection[str]) -> str | None:
    """The first place of `within` the fact names as a place (not as an entity's name), as
    its text writes it."""
    text = c.fact.content
    for place in within:
        if place.split(" ")[0].title() in text and entity_key(place) not in names \
                and (m := _pattern(place).search(text)):
            return m.group(0)
    return None


def within(backend: FactSearch, plan: QueryPlan, named: Collection[str],
           found: Collection[Candidate], filters: Filters,
           weights: Mapping[str, float] | None = None) -> Found:
    """Facts that name a place within a place the query names, each with its match there
    by the asked place (module doc), in the shape `expansion.word_knowledge` returns."""
    share = PLACE_SHARE if ranking.tunable("KIND_SHARE") > 0 else 0.0
    places = asked_places(plan, named) if share > 0 else {}
    if not places:
        return {}
    searched = uncommon(backend, [p for ps in places.values() for p in ps[:SEARCHED]])
    words = tuple(p for p in searched if " " not in p)
    phrases = tuple(p for p in searched if " " in p)
    hits = backend.lexical(Terms(words=words, phrases=phrases), filters, MAX_ADDED) \
        if searched else []
    best = max((-c.bm25 for c in hits if c.bm25 is not None), default=0.0)
    part = {c.rowid: lexical_part(c.bm25, best) for c in hits}
    known = {c.rowid for c in found}
    out: Found = {}
    for c in [*found, *(c for c in hits if c.rowid not in known)]:
        names = {entity_key(e) for e in c.fact.entities}
        for term, inside in places.items():
            place = held(c, inside, names)
            if place is None:
                continue
            value = share * part.get(c.rowid, FOUND_PART)
            if weights is not None:  # half what the place asked weighs, as word knowledge
                value = (value + share * min(1.0, sum(weights.get(w, 0.0)
                                                      for w in term.split()))) / 2
            out.setdefault(c.rowid, (c, {}))[1][term] = (value, TOLD.format(word=place,
                                                                            term=term))
    return out
