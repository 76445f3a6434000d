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
- each fact so found matches at PLACE_SHARE of its match there (off, as the kinds are, when
  `ranking.KIND_SHARE` is 0), weighed by the asked place's weight as
  `expansion.word_knowledge` weighs a kind, and says so in `why` ("Osaka, in Japan").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Mapping

from memfold import lexicon
from memfold.index.base import Candidate, FactSearch, Filters, Terms
from memfold.names import entity_key, find_words
from memfold.recall import ranking
from memfold.recall.expansion import FOUND_PART, MAX_ADDED, Found, uncommon
from memfold.recall.fusion import lexical_part
from memfold.recall.query import QueryPlan

# what a fact naming a place within the one asked matches, as a share of its match there
# (measured on the fourth tune year: 0.3, 0.6 and 1.0; a place counts as the place asked)
PLACE_SHARE = 1.0
SEARCHED = 64  # the nearest places within one asked that are searched for
RUN = 3  # the longest run of query words read as a place ("bosnia and herzegovina" is not)
TOLD = "{word}, in {term}"
LEARNED = 8  # names the memory writes within the places within one asked, at most
# a name of one to three words, each with a capital: "Cefalù", "Fushimi Inari"
NAME = r"\b([A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,2})"


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
        within = tuple(p for p in lexicon.parts(run) if p not in asked)
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


def _search(backend: FactSearch, wanted: list[str], filters: Filters,
            ) -> tuple[list[Candidate], dict[int, float]]:
    """The facts holding any of the places `wanted` (at most COMMON facts hold each), each
    with its match among them."""
    searched = uncommon(backend, wanted)
    if not searched:
        return [], {}
    hits = backend.lexical(Terms(words=tuple(p for p in searched if " " not in p),
                                 phrases=tuple(p for p in searched if " " in p)),
                           filters, MAX_ADDED)
    best = max((-c.bm25 for c in hits if c.bm25 is not None), default=0.0)
    return hits, {c.rowid: lexical_part(c.bm25, best) for c in hits}


def learned(facts: Collection[Candidate], places: Mapping[str, tuple[str, ...]],
            named: Collection[str]) -> dict[str, tuple[str, ...]]:
    """Names the memory writes just before a place within an asked one ("a farmhouse near
    Cefalù in Sicily", "Dotonbori, Osaka"): the asked place -> those names (lower case), at
    most LEARNED, that are no name of an entity and no word a sentence begins with."""
    out: dict[str, list[str]] = {}
    for c in facts:
        text = c.fact.content
        names = {entity_key(e) for e in c.fact.entities} | set(named)
        for term, inside in places.items():
            place = held(c, inside, names)
            if place is None:
                continue
            for m in re.finditer(NAME + r"(?:,\s*|\s+in\s+)" + re.escape(place), text):
                name = m.group(1)
                before = text[:m.start(1)].rstrip()
                if not before or before.endswith((".", "!", "?", ":", ";")) \
                        or entity_key(name) in names or name.casefold() in inside:
                    continue
                got = out.setdefault(term, [])
                if name.casefold() not in got and len(got) < LEARNED:
                    got.append(name.casefold())
    return {term: tuple(names) for term, names in out.items()}


def within(backend: FactSearch, plan: QueryPlan, named: Collection[str],
           found: Collection[Candidate], filters: Filters,
           weights: Mapping[str, float]) -> Found:
    """Facts that name a place within a place the query names, or a name the memory writes
    within one of those (`learned`), each with its match there by the asked place (module
    doc), in the shape `expansion.word_knowledge` returns."""
    share = PLACE_SHARE if ranking.tunable("KIND_SHARE") > 0 else 0.0
    places = asked_places(plan, named) if share > 0 else {}
    if not places:
        return {}
    hits, part = _search(backend, [p for ps in places.values() for p in ps[:SEARCHED]],
                         filters)
    known = {c.rowid for c in found}
    facts = [*found, *(c for c in hits if c.rowid not in known)]
    more = learned(facts, places, named)
    if more:
        extra, extra_part = _search(backend, [n for ns in more.values() for n in ns], filters)
        part = {**extra_part, **part}
        known |= {c.rowid for c in facts}
        facts += [c for c in extra if c.rowid not in known]
        places = {term: (*inside, *more.get(term, ())) for term, inside in places.items()}
    out: Found = {}
    for c in facts:
        names = {entity_key(e) for e in c.fact.entities}
        for term, inside in places.items():
            place = held(c, inside, names)
            if place is None:
                continue
            # half its match, half what the place asked weighs, as word knowledge
            value = share * (part.get(c.rowid, FOUND_PART) + min(1.0, sum(
                weights.get(w, 0.0) for w in term.split()))) / 2
            out.setdefault(c.rowid, (c, {}))[1][term] = (value, TOLD.format(word=place,
                                                                            term=term))
    return out
