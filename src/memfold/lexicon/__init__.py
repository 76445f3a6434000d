"""Word knowledge without a model: kinds, synonyms and word forms, from tables shipped inside
memfold.  Pure functions of a word; nothing is fetched.

- `data/wordnet/*.tsv.gz`: derived from Princeton WordNet 3.0 by `tools/build_lexicon.py`
  (WordNet's licence, `data/WORDNET-LICENSE`, permits use, copying and distribution with its
  copyright notice).  A word's lines are in the file of its first two letters and read on
  first use, so a query reads a few small files, not the table.
- `data/kinds.tsv`: kinds WordNet does not know, written by hand:
  brands and products people own (a Garmin Forerunner is a watch, a Kia Niro a car).
- `data/places.tsv.gz`: named places within places (japan: tokyo, osaka, ...), from
  WordNet's part-of links by `tools/build_places.py` (`parts`).
- `data/everyday.tsv`: everyday words for one thing that WordNet does not pair, written by
  hand, both ways: how a question asks beside how a fact says it (boss: manager, earn:
  salary, employer: work, kitten: cat, teeth: dentist).

Besides WordNet's links, the build reads two things from its definitions: a compound noun
defined by its last word is a kind of that word (brother, a male sibling — "a sibling who is
male" — is a kind of sibling), and a word defined by a longer form of itself has that form
(weigh: "have a certain weight").

Relations (`related`): `is` — what the word is a kind of (mackerel -> fish; `classes`);
`kind` — words for kinds of the word (dog -> beagle, fish -> mackerel,
job -> midwife); `same` — other words for the same thing (doctor -> physician; family doctor
-> GP); `form` — words derived from it or it from them (allergy -> allergic) and irregular
forms (buy -> bought), of which `inflections` tells the irregular forms apart.  Recall uses
them as a weak expansion (`expansion.word_knowledge`).
"""

from __future__ import annotations

import bisect
import functools
import re

KIND, SAME, FORM, IS = "kind", "same", "form", "is"
PART = "part"  # places.tsv.gz: a named place within another
RELATIONS = (KIND, SAME, FORM)
# inflections a query word may carry (WordNet's "morphy" rules, nouns and verbs, and the past
# of a verb in -y): the table's words are lemmas, so "dogs" is looked up as "dog", "moving"
# as "move" and "married" as "marry"
ENDINGS = (("ies", "y"), ("ied", "y"), ("ses", "s"), ("xes", "x"), ("ches", "ch"), ("shes", "sh"),
           ("men", "man"), ("s", ""), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
           ("ing", "e"), ("ing", ""))
# a consonant doubled before these endings ("swimming", "stopped"): the verb has it once, and
# its irregular forms are the verb's ("swimming": swim, swam; "running": run, ran)
DOUBLED = ("ing", "ed")
DOUBLING = frozenset("bdfgklmnprtvz")
Table = dict[str, dict[str, tuple[str, ...]]]
OWN_TABLES = ("kinds.tsv", "everyday.tsv")  # the tables written by hand, read first
# a relation written "kind+" in those tables comes after WordNet's own words for it: cat
# breeds WordNet lacks are kinds of cat, but a puppy stays the nearest kind of dog
AFTER = "+"


def shard(word: str) -> str:
    """The file a word's lines are in: its first two letters, others as `_`."""
    return re.sub("[^a-z]", "_", word[:2]).ljust(2, "_")


# per-word readings remembered (a long-lived process meets many memories' words)
WORDS_CACHED = 1 << 16


@functools.cache
def _shard_text(name: str) -> str:
    import gzip  # with importlib.resources, tens of ms that a command without a query skips
    from importlib import resources

    path = resources.files(__package__).joinpath("data", "wordnet", f"{name}.tsv.gz")
    return "\n" + gzip.decompress(path.read_bytes()).decode() if path.is_file() else ""


@functools.lru_cache(maxsize=WORDS_CACHED)
def _wordnet_lines(word: str) -> dict[str, tuple[str, ...]]:
    """The word's relations in its file: its lines are together and the file is sorted by
    word, so they are found by a search of the text between two of its marks (`_line_of`),
    whatever the file's size, rather than read into a table or scanned."""
    name = shard(word)
    text = _shard_text(name)
    at = _line_of(text, word, _marks(name))
    found: dict[str, tuple[str, ...]] = {}
    while at >= 0 and text.startswith(f"\n{word}\t", at):
        end = text.find("\n", at + 1)
        _, relation, words = text[at + 1: end if end >= 0 else None].split("\t")
        found[relation] = tuple(words.split("|"))
        at = end
    return found


MARK = 1024  # characters between the places `_marks` notes in a file's text


def _end(text: str) -> int:
    """The end of the places `_first_line` searches: the text's last newline is no line."""
    return len(text) - 1 if text.endswith("\n") else len(text)


def _word_at(text: str, place: int) -> str:
    """The word of the line a place in `text` belongs to (its nearest newline at or before
    it begins the line)."""
    start = text.rfind("\n", 0, place + 1)
    return text[start + 1: text.find("\t", start + 1)]


@functools.cache
def _marks(name: str) -> tuple[list[str], list[int]]:
    """Every MARK-th place of a file's text (`_shard_text`) and the word of its line: a
    lookup bisects these words (in C) and searches only between two places, a handful of
    steps, not the dozens a search of the whole text takes.  One pass of a few hundred
    reads per file, after the file is read."""
    text = _shard_text(name)
    places = list(range(0, _end(text), MARK))
    return [_word_at(text, p) for p in places], places


def _line_of(text: str, word: str, marks: tuple[list[str], list[int]]) -> int:
    """Where (its newline) the first line of `word` begins in `text` (`_first_line`), or -1
    when it has none: the marks (`_marks`) hold the words of its places in order, so the
    line lies after the last place whose word is below `word` and starts at or before the
    next place — one search of at most MARK characters for the line's start."""
    words, places = marks
    at = bisect.bisect_left(words, word)
    start = places[at - 1] + 1 if at else 0
    end = places[at] + len(word) + 2 if at < len(places) else len(text)
    return text.find(f"\n{word}\t", start, end)


def _first_line(text: str, word: str,
                marks: tuple[list[str], list[int]] | None = None) -> int:
    """Where (its newline) the first line of `text` whose word is not below `word` begins:
    `text` is a newline and lines "word<TAB>...", sorted by word.  A position belongs to
    the line its nearest newline at or before it begins, so the lines' words rise with
    the position, and the first position whose line's word is not below `word` is the
    start of that line.  `marks` (`_marks`): words at places of the text, which narrow
    the search to the places between the last one below `word` and the next."""
    lo, hi = 0, _end(text)
    if marks is not None:
        words, places = marks
        at = bisect.bisect_left(words, word)
        if at:
            lo = places[at - 1] + 1
        if at < len(places):
            hi = places[at]
    while lo < hi:
        mid = (lo + hi) // 2
        start = text.rfind("\n", 0, mid + 1)  # `_word_at`, without a call per step
        if text[start + 1: text.find("\t", start + 1)] < word:
            lo = mid + 1
        else:
            hi = mid
    return text.rfind("\n", 0, lo + 1)


@functools.cache
def _own() -> Table:
    from importlib import resources

    data = resources.files(__package__).joinpath("data")
    table: Table = {}
    for name in OWN_TABLES:
        for key, lines in _read(data.joinpath(name).read_text()).items():
            for relation, words in lines.items():
                had = table.setdefault(key, {}).get(relation, ())
                table[key][relation] = had + tuple(w for w in words if w not in had)
    return table


@functools.cache
def _places() -> Table:
    import gzip
    from importlib import resources

    path = resources.files(__package__).joinpath("data", "places.tsv.gz")
    return _read(gzip.decompress(path.read_bytes()).decode()) if path.is_file() else {}


def parts(place: str) -> tuple[str, ...]:
    """The named places within `place` (lower case), nearest first; () for no place."""
    return _places().get(place.casefold(), {}).get(PART, ())


def _read(text: str) -> Table:
    table: Table = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        key, relation, words = line.split("\t")
        table.setdefault(key, {})[relation] = tuple(words.split("|"))
    return table


def lemmas(word: str) -> list[str]:
    """`word` (lower case) and the lemmas it may be an inflection of, that the table knows."""
    return list(_lemmas(word.casefold()))


@functools.lru_cache(maxsize=WORDS_CACHED)
def _lemmas(word: str) -> tuple[str, ...]:
    first, space, _ = word.partition(" ")
    if space and not _compounds_after(first):
        return ()  # its inflections begin with the same word: the ENDINGS hold no space
    found = [word] if _knows(word) else []
    found += [lemma for lemma in dict.fromkeys(inflected(word))
              if lemma not in found and _knows(lemma)]
    if word.endswith("ied") and _knows(word[:-3] + "y"):
        # the past of a verb in -y ("married": marry), not the -ed of a noun ending in i
        # (the marri, a eucalyptus)
        found = [lemma for lemma in found if lemma == word or not lemma.endswith("i")]
    return tuple(found)


@functools.lru_cache(maxsize=1 << 16)  # word knowledge asks it of every candidate's words
def inflected(word: str) -> tuple[str, ...]:
    """The lemmas `word` (lower case) may be a regular inflection of ("beagles": beagle,
    "flights": flight, "moving": move, mov): by the ENDINGS alone, each of at least three
    letters, whether the table knows them or not.  Never a word that only shares a stem
    with it: "tripe" is no inflection of "trip", "fare" none of "far"."""
    return tuple(word[: len(word) - len(ending)] + base for ending, base in ENDINGS
                 if word.endswith(ending) and len(word) - len(ending) + len(base) >= 3)


@functools.lru_cache(maxsize=WORDS_CACHED)
def _compounds_after(first: str) -> bool:
    """Whether the tables know a word of several that begins with the word `first`: one
    search of its file finds the first line not below "first ", which begins so when any
    does.  Word knowledge reads every run of two and three words of a fact, few of which
    are in the tables: the runs that begin with one word are ruled out together."""
    prefix = f"{first} "
    name = shard(prefix)
    text = _shard_text(name)
    return (text.startswith(f"\n{prefix}", _first_line(text, prefix, _marks(name)))
            or first in _own_compounds())


def begins_several(word: str) -> bool:
    """Whether a word of several in the tables begins with the word `word` (lower case,
    `_compounds_after`): when not, `lemmas` and `classes` find nothing for a run of words
    that begins with it, and a caller reading every run of a fact's words skips those runs
    without a lookup each."""
    return _compounds_after(word)


@functools.lru_cache(maxsize=WORDS_CACHED)
def begins(prefix: str) -> bool:
    """Whether a word in the tables begins with `prefix` (lower case, at least two
    letters): the words that do are together in its file, from the first line not below
    it (`_first_line`), and among the tables written by hand (`_own_sorted`).  Word
    knowledge asks it of a run of a fact's words less its last letters (`MAX_ENDING`): no
    lemma of a run the tables lack any word beginning so can be known, and a lookup of the
    run itself costs several searches (`lemmas`: the run and each of its inflections).
    As in `_line_of`, one search (in C) of the text between two marks: the first line not
    below `prefix` starts there, and a line beginning with it is that one or none."""
    name = shard(prefix)
    text = _shard_text(name)
    words, places = _marks(name)
    at = bisect.bisect_left(words, prefix)
    start = places[at - 1] + 1 if at else 0
    end = places[at] + len(prefix) + 1 if at < len(places) else len(text)
    if text.find(f"\n{prefix}", start, end) >= 0:
        return True
    own = _own_sorted()
    at = bisect.bisect_left(own, prefix)
    return at < len(own) and own[at].startswith(prefix)


# the most letters an inflection takes off a word's end (`ENDINGS`): every lemma of a run of
# words begins with the run less this many of its last letters
MAX_ENDING = max(len(ending) for ending, _ in ENDINGS)


@functools.cache
def _own_sorted() -> list[str]:
    """The words of the tables written by hand, sorted (`begins`)."""
    return sorted(_own())


@functools.cache
def _own_compounds() -> frozenset[str]:
    """The first words of the words of several in the tables written by hand."""
    return frozenset(key.partition(" ")[0] for key in _own() if " " in key)


def _knows(word: str) -> bool:
    return bool(_wordnet_lines(word)) or word in _own()


def related(word: str, relation: str) -> tuple[str, ...]:
    """The words `relation` (KIND, SAME or FORM) gives for `word` or its lemmas, the table
    written by hand first (but its `relation+` lines after WordNet's), nearest first,
    without repeats."""
    out: dict[str, None] = {}
    for lemma in lemmas(word):
        own = _own().get(lemma, {})
        for words in (own.get(relation, ()), _wordnet_lines(lemma).get(relation, ()),
                      own.get(relation + AFTER, ())):
            out.update(dict.fromkeys(words))
    if relation == FORM:  # "swimming": swim, and swim's forms (swam, swum)
        for base in undoubled(word.casefold()):
            out.update(dict.fromkeys((base, *_wordnet_lines(base).get(FORM, ()))))
    for lemma in lemmas(word):
        out.pop(lemma, None)
    out.pop(word.casefold(), None)
    return tuple(out)


def inflections(word: str) -> tuple[str, ...]:
    """The words `related` FORM gives for `word` that are an irregular inflection of it or
    the lemma it inflects (buy: bought; bought: buy; knives: knife; allergic: allergy): one
    of the two is no word of its own in WordNet, only a form of the other (its one line is
    that form), where a derived word (medical: medicine) has senses of its own."""
    return tuple(w for w in related(word, FORM)
                 if _only_form_of(w, word) or _only_form_of(word, w))


def _only_form_of(word: str, other: str) -> bool:
    lines = _wordnet_lines(word.casefold())
    return set(lines) == {FORM} and other.casefold() in lines[FORM]


# the classes of two words compared for a sense they share (`same_sense`): the nearest few
NEAR_CLASSES = 4


def synonyms(word: str) -> tuple[str, ...]:
    """The other words for `word` (`related` SAME) that mean it in the sense a fact would use
    them: the tables written by hand give theirs as they are; of WordNet's, a word whose
    own first sense is elsewhere is left out (`same_sense`): car's "machine" is an espresso
    machine in a fact, goal's "end" an end-stage, earn's "clear" a cleared path."""
    own = {w for lemma in lemmas(word) for w in _own().get(lemma, {}).get(SAME, ())}
    return tuple(w for w in related(word, SAME) if w in own or same_sense(word, w))


@functools.lru_cache(maxsize=WORDS_CACHED)
def same_sense(word: str, other: str) -> bool:
    """Whether `other`, a word WordNet gives for `word`'s first sense, is used in that sense:
    it gives `word` back among its own, or the two are kinds of one thing (their NEAR_CLASSES
    nearest classes meet: boss and chief are supervisors), or neither is a kind of anything
    (a verb or an adjective: the first sense is all the table knows of it)."""
    if word.casefold() in related(other, SAME):
        return True
    near, theirs = classes(word)[:NEAR_CLASSES], classes(other)[:NEAR_CLASSES]
    return bool(set(near) & set(theirs)) or not (near or theirs)


def undoubled(word: str) -> tuple[str, ...]:
    """The verb a word with a doubled consonant before "-ing" or "-ed" is a form of, when
    the table knows it ("swimming": swim, "stopped": stop; "falling" stays fall): the
    ENDINGS take off the ending only."""
    found = []
    for ending in DOUBLED:
        stem = word[: -len(ending)]
        if (word.endswith(ending) and len(stem) >= 4 and stem[-1] == stem[-2]
                and stem[-1] in DOUBLING and _wordnet_lines(stem[:-1])):
            found.append(stem[:-1])
    return tuple(found)


@functools.lru_cache(maxsize=WORDS_CACHED)
def classes(word: str) -> tuple[str, ...]:
    """What `word` or its lemmas is a kind of, nearest first (`IS`, the other way round from
    KIND: mackerel -> fish, Osaka -> city, beagles -> dog), but for the classes so wide
    that nearly everything is a kind of them (organism, person, artifact)."""
    out: dict[str, None] = {}
    for lemma in lemmas(word):
        out.update(dict.fromkeys(_own().get(lemma, {}).get(IS, ())))
        out.update(dict.fromkeys(_wordnet_lines(lemma).get(IS, ())))
    return tuple(out)
