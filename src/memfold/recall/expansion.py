"""Query expansion from the workspace itself: words the best candidates share.

Multi-hop and open-domain questions name one side of what they ask ("what did Melanie do
after the race?"); the facts that answer hold the other.  The few best lexical candidates
tell which words travel with the question here: a word (not a stop word, not already in
the query) found in at least two of them is searched for too, and what only that second
search finds is added at `ranking.EXPANSION_SHARE` of its own match (0 turns it off).
A word more than COMMON facts hold is not searched for: the extra searches pay for what
they can find, not for the size of the memory.

Leave-one-conversation-out on the LoCoMo dev split (`memfold bench locomo --tune
EXPANSION_SHARE=0,0.2,0.4`), 0.2 was chosen in every fold; R@10 held out, off -> 0.2:
lexical 69.9 -> 70.5, hybrid 75.5 -> 76.0, narrative layout 68.2 -> 69.4.

The second hop (`second_hop`, lexical mode) goes one step further from each of the best
results alone: its rarest words find the facts that share them (docs/semantic.md, "The
second hop"; held out, lexical 73.7 -> 75.4, narrative 72.4 -> 74.5).

Word knowledge (`word_knowledge`) reaches facts that say what the query asks in other words:
a form of a query word (allergy: allergic), another word for it (family doctor: GP) or a
kind of it (dog: beagle; job: midwife), from the tables `lexicon` ships; each enters, or adds
to its match, at a fraction of a full match.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from typing import NamedTuple

from memfold import lexicon
from memfold.index.base import Candidate, FactSearch, Filters, Terms
from memfold.names import STOP_WORDS, entity_key, find_words
from memfold.recall import ranking, versioned
from memfold.recall.fusion import lexical_part
from memfold.recall.query import QueryPlan
from memfold.recall.topic import FRAMES
from memfold.recall.weak import COUNTED

FEEDBACK = 5  # the best candidates read for words
MIN_SHARED = 2  # a word in at least this many of them
MAX_WORDS = 6
# facts the expanded search may add, whatever k is: they enter at a fifth of their match, so
# more only cost time (a k=1000 recall was 2.4x slower with 4*k of them); a k=10 recall
# fetches this many anyway
MAX_ADDED = 50
# a word more facts than this hold is not searched for by expansion or word knowledge: it
# names no topic, and FTS5 ranks every fact that holds it (at 10,000 daily files "uses" is in
# 11,721 facts, 16 ms to rank); the facts found already are still read for it.  A memory of
# fewer facts never meets the bound, and pays no count
COMMON = 1000


def uncommon(backend: FactSearch, words: Sequence[str]) -> list[str]:
    """The words of `words` at most COMMON facts hold, and at least one
    (`FactSearch.word_counts`, which stops counting past the bound, so a common word costs
    no more than a rare one).  A word no fact holds finds nothing and adds nothing to any
    fact's BM25, but each is a term FTS5 looks up and merges: most of the hundreds of kinds
    a "what/which" question searches (`ASKED_KINDS`) are not in the memory at all."""
    if not words or backend.fact_rows() <= COMMON:
        return list(words)
    counts = versioned.word_counts(backend, words, COMMON)
    return [w for w in words if 0 < counts[w] <= COMMON]


def expansion_words(plan: QueryPlan, best: list[Candidate]) -> list[str]:
    """Words at least MIN_SHARED of the best candidates hold that the query does not."""
    asked = {t.casefold() for t in plan.terms}
    counts: Counter[str] = Counter()
    for c in best:
        words = {w.casefold() for w in find_words(c.fact.content)}
        counts.update(w for w in words if len(w) > 2 and w.isalpha()
                      and w not in STOP_WORDS and w not in asked)
    shared = [(n, w) for w, n in counts.items() if n >= MIN_SHARED]
    return [w for _, w in sorted(shared, key=lambda p: (-p[0], p[1]))[:MAX_WORDS]]


def expand(backend: FactSearch, plan: QueryPlan, found: Mapping[tuple[str, int], Candidate],
           filters: Filters) -> dict[int, tuple[Candidate, float]]:
    """Candidates only the expanded search finds, each with its match (already scaled)."""
    share = ranking.tunable("EXPANSION_SHARE")
    lexical = sorted((c for c in found.values() if c.bm25 is not None),
                     key=lambda c: c.bm25 or 0.0)[:FEEDBACK]
    words = uncommon(backend, expansion_words(plan, lexical)) if share > 0 else []
    if not words:
        return {}
    more = backend.lexical(Terms(words=tuple(words)), filters, MAX_ADDED)
    best = max((-c.bm25 for c in more if c.bm25 is not None), default=0.0)
    known = {c.rowid for c in found.values()}
    return {c.rowid: (c, share * lexical_part(c.bm25, best)) for c in more
            if c.rowid not in known}


SEEDS = 3  # the best results whose words the second hop searches
HOP_WORDS = 4  # of each seed's words, the rarest this many
RARE_SHARE = 0.01  # a word is rare when at most this share of the facts hold it ...
# ... and no more than this many: a hop then ranks at most SEEDS * HOP_WORDS * HOP_RARE facts,
# whatever the size of the memory
HOP_RARE = 50
HOP_ADDED = 20  # the facts each seed's search may bring in


def seed_words(plan: QueryPlan, seed: Candidate) -> list[str]:
    """The words of `seed` a second hop may search: not stop words, not the query's, not
    the names of the seed's entities (a speaker's name would find every line they wrote)."""
    left_out = {t.casefold() for t in plan.terms}
    for name in seed.fact.entities:
        left_out.update(w.casefold() for w in find_words(name))
    words = dict.fromkeys(w.casefold() for w in find_words(seed.fact.content))
    return [w for w in words if len(w) > 2 and w.isalpha() and w not in STOP_WORDS
            and w not in left_out]


def second_hop(backend: FactSearch, plan: QueryPlan, named: Collection[str],
               seeds: Sequence[Candidate], match: Mapping[int, float], filters: Filters,
               ) -> dict[int, tuple[Candidate, float, str]]:
    """Facts the searches missed that share rare words with `seeds` (the SEEDS best
    candidates recall may show, best first): each with its match and the id of the seed
    whose words gave it the most.

    Multi-hop questions name one side of an answer spread over several facts, and the best
    result often says the other side's words.  The rarest HOP_WORDS words of each of the
    SEEDS best results — held by another fact too, and by few facts in all — are searched,
    and a fact found there enters at `ranking.HOP_SHARE` of its match in that search (0
    turns the hop off), weighed by its seed's match against the best.  Only facts not found
    already: the order of those is the query's own.  A rare word says what a fact is about;
    a common one would find half the memory, and rank thousands of facts to do it."""
    share = ranking.tunable("HOP_SHARE")
    top = max(match.values(), default=0.0)
    if (share <= 0 or top <= 0 or plan.phrases  # quotes ask for those words exactly
            or all(entity_key(t) in named for t in plan.terms)):  # only names: about them
        return {}
    most = min(HOP_RARE, int(RARE_SHARE * backend.fact_rows()))
    if most < 2:
        return {}  # a memory of under 200 facts: no word two facts share is rare in it
    words = {seed.rowid: seed_words(plan, seed) for seed in seeds}
    counts = versioned.word_counts(backend, [w for ws in words.values() for w in ws], most)
    added: dict[int, tuple[Candidate, float, str]] = {}
    for seed in seeds:
        held = [(counts[w], w) for w in words[seed.rowid]]
        rare = [w for n, w in sorted(held) if 1 < n <= most][:HOP_WORDS]
        if not rare:
            continue
        weight = share * match.get(seed.rowid, 0.0) / top
        hop = backend.lexical(Terms(words=tuple(rare)), filters, HOP_ADDED)
        best = max((-c.bm25 for c in hop if c.bm25 is not None), default=0.0)
        for c in hop:
            if c.rowid in match:
                continue  # the seed itself, or a fact found already
            value = weight * lexical_part(c.bm25, best)
            _, before, via = added.get(c.rowid, (c, 0.0, seed.fact.id))
            added[c.rowid] = (c, before + value, via if before >= value else seed.fact.id)
    return added


# Word knowledge (`lexicon`): the relation, the weight its share is read from, and how `why`
# tells a match through it
INFLECTION = "inflection"  # an irregular form of the word itself (`lexicon.inflections`)
KNOWLEDGE = ((INFLECTION, "INFLECTION_SHARE", "{word}, a form of {term}"),
             (lexicon.FORM, "FORM_SHARE", "{word}, a form of {term}"),
             (lexicon.SAME, "SAME_SHARE", "{word} for {term}"),
             (lexicon.KIND, "KIND_SHARE", "{word}, a kind of {term}"))
# the words of a query word's relations that are searched for, nearest first (a search of
# many hundred words costs tens of milliseconds: FTS5 merges every term's list); the facts
# found already are read for all of them
SEARCHED = 4
# ... but other words for the same thing are few and each is the query word itself (boss:
# manager, supervisor, line manager, foreman, chief), so more of them are searched
SEARCHED_SAME = 8
# ... and when no other search found anything (no word of the query is in the memory, no
# name), this many: the only way left to an answer, and it costs what a miss would
SEARCHED_ALONE = 16
FOUND_PART = 0.5  # the share of a full match a fact found already gets for a related word
MAX_RELATED = 2000
MIN_HELD = 2  # a related word has at least this many letters ("gp"; never "b" of blood type)
MIN_CLASSED = 3  # a fact's word read for what it is a kind of has at least this many
KIND_AT = 3  # the index of the kind relation in KNOWLEDGE
# the kinds of the thing a question asks for ("what *bird* did we spot", "which *fish*"):
# the answer is one of them, however far down the word's list it is (a kingfisher is the
# 112th of a bird's kinds), so the single words among the first ASKED_KINDS are searched
ASKED_KINDS = 256
KINDS_BELOW = 8  # of a word no fact holds, the first kinds whose own kinds are searched too
ASKS = re.compile(r"\b(?:what|which)\s+(?:(?:kinds?|types?|sorts?)\s+of\s+)?"
                  r"(?P<word>[^\W\d_][\w'-]*)", re.IGNORECASE)


@dataclasses.dataclass(frozen=True)
class Related:
    """The words the lexicon relates to a query's words: for each, the query word it
    stands for, its relation's index in KNOWLEDGE, and whether it is searched for."""

    words: dict[str, tuple[str, int]]
    searched: tuple[str, ...]
    # the query words (and their lemmas) a fact's word may be a kind of, by the query word
    # they stand for: what the fact's word is a kind of is in the lexicon (`lexicon.classes`)
    classes: dict[str, str] = dataclasses.field(default_factory=dict)
    # the kinds searched deep (`related_words`' `absent`): held outside a name of several
    # words ("our greyhound"; "Climbing Lab" is no Labrador: `_outside_names`)
    deep: frozenset[str] = frozenset()

    def held(self, c: Candidate) -> list[tuple[str, str, int]]:
        """The related words the fact holds, each with the query word it stands for and
        its relation: as words (a compound as adjacent words) or in an inflection of one
        ("beagles", "flights"), the word itself, never another word that only shares its
        stem (a trip is no tripe, "with" no Withings); and the fact's words that are kinds
        of a query word by what the lexicon says they are (mackerel: fish; Osaka: city),
        but for the names of the fact's entities (a dog called Biscuit is no food)."""
        words, forms, classed = _reading(c.fact.content)
        related, classes = self.words, self.classes
        out = [w for w in words if w in related]
        if self._firsts:  # runs of two and three words, from a word a related one begins
            at = [i for i, x in enumerate(words) if x in self._firsts]
            out += [run for n in (2, 3) for i in at if i + n <= len(words)
                    and (run := " ".join(words[i:i + n])) in related]
        out += [b for x, b in forms if b in related and x not in related]
        found = [(w, *related[w]) for w in dict.fromkeys(out)
                 if w not in self.deep or _outside_names(w, c.fact.content)]
        if classes:
            names: set[str] | None = None  # read when a class of the query's is met
            for run, kinds in classed:
                term = next((classes[k] for k in kinds if k in classes), None)
                if term is None or run in related or term in run.split():
                    continue
                if names is None:
                    names = {w.casefold() for e in c.fact.entities for w in find_words(e)}
                if run not in names:
                    found.append((run, term, KIND_AT))
        return found

    @functools.cached_property
    def _firsts(self) -> frozenset[str]:
        """The first words of the related words of several ("family" of "family doctor"):
        a fact's run of words is one of them only when it begins with one."""
        return frozenset(w.split()[0] for w in self.words if " " in w)


# what `Related.held` reads of a fact's text is the same for every query: kept for the facts
# recall meets most (a fact found by one query is often found by the next)
READINGS = 1 << 12


class _Read(NamedTuple):
    """What `Related.held` reads of a fact's text, whatever the query: its words
    (`_words`), each word with each lemma it may be a regular inflection of
    (`lexicon.inflected`), in the words' order, and its runs the lexicon classes
    (`_classed`)."""

    words: tuple[str, ...]
    forms: tuple[tuple[str, str], ...]
    classed: tuple[tuple[str, tuple[str, ...]], ...]


@functools.lru_cache(maxsize=READINGS)
def _reading(content: str) -> _Read:
    """A fact's text read once for every query (`_Read`): its words split and filtered
    once, not once for its words and again for their classes."""
    words = _words(content)
    return _Read(words, tuple((x, b) for x in words for b in lexicon.inflected(x)),
                 _classed(content, words))


def _words(content: str) -> tuple[str, ...]:
    """A fact's words `Related.held` may match (not stop words, at least MIN_HELD
    letters); its runs of two and three are formed only where a word may begin one."""
    return tuple(w for w in find_words(content.casefold())
                 if len(w) >= MIN_HELD and w not in STOP_WORDS)


def _classed(content: str, words: tuple[str, ...] | None = None,
             ) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The runs of a fact's words (`_words`, and their runs of two and three, each once,
    at least MIN_CLASSED letters) the lexicon knows what they are kinds of, with those
    classes (`lexicon.classes`).  A run of several words no word of several in the tables
    begins with is not looked up (`lexicon.begins_several`): most runs are such, and each
    lookup missed its cache."""
    words = _words(content) if words is None else words
    begins = [lexicon.begins_several(w) for w in words]
    runs = (*words, *(run for n in (2, 3) for i in range(len(words) - n + 1)
                      if begins[i] and _may_be_known(run := " ".join(words[i:i + n]))))
    return tuple((run, kinds) for run in dict.fromkeys(runs)
                 if len(run) >= MIN_CLASSED and (kinds := lexicon.classes(run)))


def _may_be_known(run: str) -> bool:
    """Whether the tables hold a word that begins as the run of words `run` does, less the
    letters an inflection may take off its last word (`lexicon.MAX_ENDING`; the run's
    other words stay as they are): when not, no lemma of it is known and `lexicon.classes`
    finds nothing for it.  Most runs from a word that begins a word of several ("data
    entry" of "data") go no further than that word."""
    last = run.rfind(" ") + 1
    return lexicon.begins(run[:max(last, len(run) - lexicon.MAX_ENDING)])


def related_words(plan: QueryPlan, named: Collection[str], searched_each: int = SEARCHED,
                  absent: Collection[str] = (), bare: Collection[str] = ()) -> Related:
    """The words the lexicon relates to the query's terms and pairs of adjacent words
    ("family doctor"), by relation, for the relations whose share is above 0; not for the
    names of entities the query names (a dog called Biscuit is no biscuit), nor words the
    query holds.  The kinds of the word a question asks for (`asked_kind`) and of a query
    word no fact holds (`absent`: "do I have a *dog*?" of a memory that only ever says
    "greyhound") are searched ASKED_KINDS deep: the memory can only say it by a kind; of
    one whose first kinds no fact holds either (`bare`: "pet", of a memory that says
    "beagle" but never "dog"), the kinds of those kinds too (`_kinds_below`)."""
    terms = [t for t in plan.terms if t.isalpha() and entity_key(t) not in named]
    text = [w.casefold() for w in find_words(plan.text)]
    pairs = [f"{a} {b}" for a, b in zip(text, text[1:], strict=False)
             if a in terms and b in terms]
    asked = set(terms)
    answer = asked_kind(plan.text, terms)
    verbs = said_as_verbs(text)
    words: dict[str, tuple[str, int]] = {}
    searched: list[str] = []
    deep: set[str] = set()
    for n, (relation, weight, _) in enumerate(KNOWLEDGE):
        if ranking.tunable(weight) <= 0:
            continue
        for term in [*pairs, *terms]:
            if n == KIND_AT and term in verbs:
                continue  # "am I *learning*": no kind of learning is asked
            new = [w for w in _related(term, relation) if w not in asked
                   and len(w) >= MIN_HELD and w not in STOP_WORDS
                   and w not in words][:MAX_RELATED - len(words)]
            words.update((w, (term, n)) for w in new)
            searched += new[:max(searched_each, SEARCHED_SAME) if relation == lexicon.SAME
                            else searched_each]
            if n == KIND_AT and (term == answer or term in absent):
                more = [w for w in new[searched_each:ASKED_KINDS] if w.isalnum()]
                if term in bare:  # "do I have a pet?" of "our beagle": a kind of a kind
                    below = _kinds_below(new[:KINDS_BELOW], asked | words.keys())
                    words.update((w, (term, n)) for w in below)
                    more += below[:ASKED_KINDS - len(more)]
                searched += more
                if term != answer:
                    deep.update(more)
    classes = {} if ranking.tunable(KNOWLEDGE[KIND_AT][1]) <= 0 else {
        lemma: term for term in [*pairs, *terms] if term not in STOP_WORDS and term not in verbs
        for lemma in [term, *lexicon.lemmas(term)]}
    return Related(words, tuple(searched), classes, frozenset(deep))


# a subject pronoun: the -ing or -ed word after it is its verb ("am I learning", "have we
# played"), not a noun whose kinds a fact may hold
SUBJECTS = frozenset({"i", "we", "you", "he", "she", "they"})
VERB_ENDINGS = ("ing", "ed")


def said_as_verbs(words: Sequence[str]) -> frozenset[str]:
    """The query's words in -ing or -ed right after a subject pronoun: verbs, whose kinds
    (the kinds of "learning", of a "play") are another sense of the word."""
    return frozenset(b for a, b in zip(words, words[1:], strict=False)
                     if a in SUBJECTS and b.endswith(VERB_ENDINGS))


def _kinds_below(kinds: Sequence[str], known: Collection[str]) -> list[str]:
    """The one-word kinds of a word's first kinds (pet: dog, cat, …: beagle, tabby, …), in
    turn, each once: what a memory that never says the word nor its kinds may say."""
    below = [[w for w in _related(k, lexicon.KIND) if w.isalnum() and len(w) >= MIN_HELD
              and w not in STOP_WORDS] for k in kinds if " " not in k]
    out: dict[str, None] = {}
    for row in itertools.zip_longest(*below):
        out.update((w, None) for w in row if w and w not in known)
    return list(out)[:ASKED_KINDS]


def _outside_names(word: str, content: str) -> bool:
    """Whether `content` holds `word` somewhere other than inside a name of several
    capitalised words ("Topped my first V6 at Climbing Lab": no Labrador; "my iPhone" and
    "our greyhound" hold theirs)."""
    for m in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", content, re.IGNORECASE):
        before = content[:m.start()].split()[-1:]
        after = content[m.end():].split()[:1]
        capital = [w[:1].isupper() for w in (*before, *after)]
        if not (content[m.start()].isupper() and any(capital)):
            return True
    return False


def absent_words(backend: FactSearch, plan: QueryPlan, named: Collection[str]) -> list[str]:
    """The query's words (not names of entities it names) that no fact holds, in any
    form the index's stemmer folds together (`FactSearch.word_counts`)."""
    terms = [t for t in plan.terms if t.isalpha() and entity_key(t) not in named]
    # counted as `weak.asked` counts them, so a word is counted once per version of the facts
    most = min(COUNTED, max(backend.fact_rows(), 1))
    counts = versioned.word_counts(backend, terms, most) if terms else {}
    return [t for t in terms if not counts.get(t)]


def bare_words(backend: FactSearch, absent: Sequence[str]) -> list[str]:
    """Of the query's words no fact holds (`absent_words`), those whose first KINDS_BELOW
    one-word kinds no fact holds either."""
    kinds = {term: [k for k in _related(term, lexicon.KIND)[:KINDS_BELOW] if k.isalpha()]
             for term in absent}
    asked = sorted({k for first in kinds.values() for k in first})
    if not asked:
        return []
    counts = versioned.word_counts(backend, asked, min(COUNTED, max(backend.fact_rows(), 1)))
    return [term for term, first in kinds.items()
            if first and not any(counts.get(k) for k in first)]


def _related(term: str, relation: str) -> tuple[str, ...]:
    """The words of `relation` (one of KNOWLEDGE's) for a query word, nearest first."""
    if relation == INFLECTION:  # not a frame word's ("go": went), which would outweigh the topic
        return () if term in FRAMES else lexicon.inflections(term)
    return lexicon.synonyms(term) if relation == lexicon.SAME else lexicon.related(term, relation)


def asked_kind(text: str, terms: Collection[str]) -> str | None:
    """The query word that names the kind of thing a question asks for: the word after
    "what" or "which" ("what bird did we spot", "which kind of fish"), when it is one of
    the query's `terms`.  Its kinds hold the answer, whichever of them the memory says."""
    m = ASKS.search(text)
    word = m.group("word").casefold() if m else None
    return word if word in terms else None


Found = dict[int, tuple[Candidate, dict[str, tuple[float, str]]]]


def term_weights(terms: Sequence[str], held: Mapping[int, Collection[str]],
                 match: Mapping[int, float]) -> dict[str, float]:
    """What a literal match of each query word weighs among the candidates (`held`: the
    query words each candidate holds, by rowid): the best match of a fact holding it,
    shared evenly among the query words that fact holds.  A word no candidate holds is
    rare: it weighs what the heaviest word does (1 when no candidate holds any)."""
    out: dict[str, float] = {}
    for rowid, words in held.items():
        for w in words:
            out[w] = max(out.get(w, 0.0), match.get(rowid, 0.0) / len(words))
    top = max(out.values(), default=1.0) or 1.0
    return {t: out.get(t, top) for t in terms}


def word_knowledge(backend: FactSearch, plan: QueryPlan, named: Collection[str],
                   found: Collection[Candidate], filters: Filters,
                   weights: Mapping[str, float] | None = None) -> Found:
    """Facts that hold a word the lexicon relates to a query word — a form of it (allergy:
    allergic), another word for it (family doctor: GP) or a kind of it (dog: beagle) — each
    with, by the query word it stands for, its match there at the relation's share
    (`ranking.FORM_SHARE`, `SAME_SHARE`, `KIND_SHARE`; 0 turns one off) and how it was
    found (for `why`).  The facts `found` already are read for every related word; the
    SEARCHED nearest words of each relation that at most COMMON facts hold are searched for
    (SEARCHED_ALONE when nothing was found already).  A fact the search found
    matches at the relation's share of its match there, one found already at FOUND_PART
    of the share; with `weights` (what a literal match of each query word weighs,
    `term_weights`), half that and half the share of what the query word itself weighs:
    "ate" for a rare "eat" weighs more than a common word's stand-in.  Only facts that
    hold the related word itself: the index's stemmer would also find "lives" for
    "liveness"."""
    absent = absent_words(backend, plan, named)
    related = related_words(plan, named, SEARCHED if found else SEARCHED_ALONE, absent,
                            bare_words(backend, absent))
    if not related.words and not related.classes:
        return {}
    searched = uncommon(backend, related.searched)
    hits = backend.lexical(Terms(words=tuple(searched)), filters, MAX_ADDED) if searched else []
    best = max((-c.bm25 for c in hits if c.bm25 is not None), default=0.0)
    part = {c.rowid: lexical_part(c.bm25, best) for c in hits}
    out: Found = {}
    known = {f.rowid for f in found}
    for c in [*found, *(c for c in hits if c.rowid not in known)]:
        for word, term, n in related.held(c):
            _, weight, told = KNOWLEDGE[n]
            value = ranking.tunable(weight) * part.get(c.rowid, FOUND_PART)
            if weights is not None:  # half what the word weighs, half how well it matched
                value = (value + ranking.tunable(weight) * min(
                    1.0, sum(weights.get(w, 0.0) for w in term.split()))) / 2
            terms = out.setdefault(c.rowid, (c, {}))[1]
            if value > terms.get(term, (0.0, ""))[0]:
                terms[term] = (value, told.format(word=word, term=term))
    return out
