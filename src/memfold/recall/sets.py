"""Questions whose answer is several facts: "which half marathons did I race", "what cars
have we owned", "who has walked the dog for us this year".

Such a question is answered by a set of facts about one subject, written across the year in
different words: "Dr. Osei prescribed propranolol 40 mg a day to prevent my migraines" holds
the question's words, "Dr. Osei increased my propranolol to 80 mg a day" and "Dr. Osei
switched me from propranolol to candesartan" hold none of them, and single facts that share
one common word of the question ("A migraine wiped out most of Wednesday") filled the places
the rest of the answer needed.  Three readings of the memory bring the set together (the
first two in lexical and hybrid mode, `with_groups`):

- a group named by the plural of an entity's name ("cars" for @Car, "houses" for @House)
  names that entity, as its singular does (`plural_names`);
- a kind the question names ("the dog", "our pets") names the entities the memory says are
  one, in that word or a narrower one from the shipped word knowledge
  (`lexicon`): "Biscuit is our six-year-old beagle" makes Biscuit "the dog" (a beagle is a
  dog) and one of "our pets" (`kind_names`).  As with a role (`roles`), the entity's facts
  are then found by their links and weigh as named, and the kind word is no longer searched;
- the best match's subject brings its siblings (`with_siblings`): for a question that asks
  for several facts (`asks_for_several`: the present perfect or a question about the past,
  "which", "all", a plural noun the question asks for), a candidate that matched the
  question's words and is about an entity the best match is about — linked to it or naming
  it, an entity the question does not name and that is linked to few facts (a person, a
  pet, a project; not the user, on most of the memory) — is lifted SIBLING_SHARE of the way
  toward the best match's score, times the share of those entities it is about.  Its place
  among the other results is otherwise kept.  The sibling must match the question's words
  itself, and a weak best match brings none (near in meaning alone, a fact about the same
  person is only that).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from memfold import lexicon
from memfold.index.base import Candidate, Filters, RecallIndex, Terms
from memfold.names import STOP_WORDS, entity_key, find_words, name_keys, text_names
from memfold.recall import ranking, versioned
from memfold.recall.expansion import uncommon
from memfold.recall.fusion import SEMANTIC
from memfold.recall.gather import Pool
from memfold.recall.query import QueryPlan
from memfold.recall.ranking import Scored

# an entity linked to this many facts or more is on too much of the memory to say what a
# fact is about (the user, a speaker in a chat log)
BROAD = 50
SET_WORDS = frozenset({"which", "all", "every", "each", "list"})
MIN_PLURAL = 4  # letters: "cars", not "is"
# a kind word: after one of these (one word between at most: "our old dog"), or a plural
DETERMINERS = frozenset({"the", "my", "our", "his", "her", "their", "your"})
ASKING = frozenset({"what", "which"})  # "what pet do I have": the kind asked for
POSSESSIVE = frozenset({"my", "our"})
KINDS_SEARCHED = 256  # the narrower words a kind is searched with, at most
# a kind with more words for its kinds than that ("animal": 400) reaches the kinds of its
# first FIRST_KINDS ("domestic animal", "pet": dog, cat, tortoise), EACH_KIND of each, first
FIRST_KINDS, EACH_KIND = 32, 16
MOST_KINDS = 2  # kind words read per query
SEARCHABLE = re.compile(r"[a-z]+(?: [a-z]+){0,2}$")  # a kind's word, or two or three of them
TOLD_READ = 20  # the facts read for who is one


def singulars(word: str) -> list[str]:
    """The singular forms a plural English word may have ("cars" -> car, "houses" ->
    house, "hous"; "stories" -> story)."""
    w = word.casefold()
    if len(w) < MIN_PLURAL or not w.endswith("s") or w.endswith(("ss", "us", "is")):
        return []
    found = [w[:-1]]
    if w.endswith("ies"):
        found.append(w[:-3] + "y")
    elif w.endswith("es"):
        found.append(w[:-2])
    return found


def plural_names(backend: RecallIndex, plan: QueryPlan, named: Sequence[str]) -> list[str]:
    """Entities the query names by the plural of their name ("what cars have we owned":
    @Car), not named already."""
    forms = {s: t for t in plan.terms if t not in STOP_WORDS for s in singulars(t)}
    if not forms:
        return []
    resolved = backend.resolve_names([entity_key(s) for s in forms])
    return [k for k in dict.fromkeys(resolved.values()) if k not in named]


def asks_for_several(plan: QueryPlan) -> bool:
    """A question whose answer may be several facts: one about the past or how something
    went (`plan.history`: "have ... been", "changed"), or with a set word ("which", "all")
    or a plural noun among its words."""
    words = [w.casefold() for w in find_words(plan.text)]
    return plan.history or any(w in SET_WORDS for w in words) or any(
        singulars(t) for t in plan.terms)


def _subjects(backend: RecallIndex, seed: Scored, named: Sequence[str],
              filters: Filters) -> frozenset[str]:
    """The entities the best match is about (linked or named in its text), less those the
    question names and those on too much of the memory."""
    text = seed.fact.content
    in_text = backend.resolve_names(name_keys(find_words(text), most=64)).values()
    keys = [k for k in dict.fromkeys([*seed.candidate.links, *in_text]) if k not in named]
    at = versioned.version(backend) if keys else None
    return frozenset(k for k in keys if not versioned.kept(
        at, ("broad", k, filters), functools.partial(_broad, backend, k, filters)))


def _broad(backend: RecallIndex, key: str, filters: Filters) -> bool:
    """Whether the entity is linked to BROAD facts or more (the user, a speaker in a chat
    log): on too much of the memory to say what a fact is about."""
    return len(backend.linked([key], filters, BROAD)) >= BROAD


def _worded(c: Candidate, pool: Pool) -> bool:
    """Whether a candidate matched the question's words: found by the lexical search (its
    BM25), by word knowledge or by the second hop, with a match above nothing."""
    return pool.match.get(c.rowid, 0.0) > 0 and (
        c.bm25 is not None or c.rowid in pool.known or c.rowid in pool.hopped)


def with_siblings(backend: RecallIndex, ordered: list[Scored], plan: QueryPlan,
                  named: Sequence[str], pool: Pool, filters: Filters,
                  weak: Callable[[Candidate], bool]) -> list[Scored]:
    """`ordered` with the best match's siblings lifted (the module's doc), for a question
    that asks for several facts; otherwise `ordered` as it is.  A best match that is weak
    (`recall.weak`: it misses what the question turns on) brings none, and a sibling must
    match the question's words itself (the lexical search, word knowledge or the second
    hop found it): near in meaning alone, a fact about the same person is only that."""
    share = ranking.tunable("SIBLING_SHARE")
    if share <= 0 or len(ordered) < 2 or not asks_for_several(plan):
        return ordered
    seed = ordered[0]
    if weak(seed.candidate):
        return ordered
    subjects = _subjects(backend, seed, named, filters)
    if not subjects:
        return ordered
    lifted: dict[int, Scored] = {}
    for n, s in enumerate(ordered[1:], 1):
        c = s.candidate
        if s.tier != seed.tier or s.score >= seed.score or not _worded(c, pool):
            continue
        shared = [k for k in subjects if k in c.links or text_names(c.fact.content, [k])]
        if shared:  # the more of the best match's subjects it is about, the nearer
            part = share * len(shared) / len(subjects)
            lifted[n] = replace(s, score=s.score + part * (seed.score - s.score))
    if not lifted:
        return ordered
    out: list[Scored] = []
    rest = [s for n, s in enumerate(ordered) if n not in lifted]
    waiting = sorted(lifted.values(), key=ranking.order)
    for s in rest:
        while waiting and (waiting[0].tier, -waiting[0].score) < (s.tier, -s.score):
            out.append(waiting.pop(0))
        out.append(s)
    return out + waiting


def _told(words: Sequence[str]) -> re.Pattern[str]:
    """An entity told to be one of `words`: "Biscuit is our six-year-old beagle", "Nico,
    my younger brother", "my brother Nico", "our beagle, Biscuit", "Shelly is Owen's
    tortoise".  Whose it is, when the fact says someone else's ("his", "Naomi's"), is
    the group `other` or `other2`."""
    kind = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))

    def ahead(other: str) -> str:
        return (rf"\b(?:my|our|a|an|the|(?P<{other}>his|her|their|[\w-]+['\u2019]s))\s+"
                r"(?:[\w'-]+\s+){0,2}?")
    # the kind ends it, or a word of time or place after it does ("Juniper is our dog now")
    end = (r"(?=\s*(?i:(?:now|too|again|also|today|here|there)\s*)?"
           r"(?:[.,;:!?)]|$|(?i:and|who|which|that|with)\b))")
    return re.compile(rf"(?P<before>[A-Z][\w-]*),?\s+(?:is\s+|was\s+)?"
                      rf"(?i:{ahead('other')}(?:{kind})){end}"
                      rf"|(?i:{ahead('other2')}(?:{kind})),?\s+(?P<after>[A-Z][\w-]*)")


def kind_words(plan: QueryPlan, named: Sequence[str]) -> list[str]:
    """The query's words that may name a kind of thing the memory holds: a word after "the",
    "my", "our" (or one word further), the word a question asks for ("what pet"), or a
    plural; not a name, not a stop word."""
    found = [*placed(plan), *(t for t in plan.terms if singulars(t))]
    return [w for w in dict.fromkeys(found) if w in plan.terms and w not in STOP_WORDS
            and len(w) >= MIN_PLURAL - 1 and entity_key(w) not in named][:MOST_KINDS]


def placed(plan: QueryPlan) -> list[str]:
    """The query's words placed to name a thing: after "the", "my", "our" (or one word
    further), or the word after "what" or "which" when it ends the noun ("what pet do I
    have"; in "which dog foods" the foods are asked for, not the dog)."""
    words = _words(plan.text)
    found = [words[i + 1] for i, w in enumerate(words[:-1]) if w in ASKING
             and (i + 2 == len(words) or words[i + 2] not in plan.terms)]
    return found + _after(words, DETERMINERS)


def owned(plan: QueryPlan) -> frozenset[str]:
    """The query's words a "my" or "our" comes before (or one word further: "my climbing
    partner"): what the question asks is the user's own."""
    return frozenset(_after(_words(plan.text), POSSESSIVE))


def _words(text: str) -> list[str]:
    return [w.casefold() for w in find_words(text)]


def _after(words: Sequence[str], openers: frozenset[str]) -> list[str]:
    """The words one or two after each of `openers`."""
    return [words[i + n] for i, w in enumerate(words) if w in openers
            for n in (1, 2) if i + n < len(words)]


def _narrower(word: str) -> list[str]:
    """`word`'s lemmas and the words (a word of several too: "maine coon") for kinds of
    them — and, when that leaves room, kinds of those, for a group such as "pet" (dog, then
    beagle); for a broad kind, the kinds of its first FIRST_KINDS first — at most
    KINDS_SEARCHED."""
    found: list[str] = []
    for lemma in lexicon.lemmas(word):
        kinds = lexicon.related(lemma, lexicon.KIND)
        if not kinds:
            continue  # not a word for a kind of thing ("best", "independent")
        if len(kinds) >= KINDS_SEARCHED:  # a broad kind: its first kinds' kinds first
            found += [lemma, *kinds[:FIRST_KINDS]]
            for kind in kinds[:FIRST_KINDS]:
                found += lexicon.related(kind, lexicon.KIND)[:EACH_KIND]
            found += kinds[FIRST_KINDS:]
            continue
        found += [lemma, *kinds]
        for kind in kinds:
            if len(found) >= KINDS_SEARCHED:
                break
            found += lexicon.related(kind, lexicon.KIND)
    return [w for w in dict.fromkeys(found) if SEARCHABLE.match(w)][:KINDS_SEARCHED]


def kind_names(backend: RecallIndex, plan: QueryPlan, named: Sequence[str],
               filters: Filters) -> dict[str, list[str]]:
    """Each kind word of the query the memory names (word -> entity keys): the entities
    told to be one, in the facts linked to them that hold the word or a narrower one."""
    found: dict[str, list[str]] = {}
    asked = kind_words(plan, named)
    at = versioned.version(backend) if asked else None
    mine, named_so = owned(plan), set(placed(plan))
    for word in asked:
        told = [k for k, _ in told_of(backend, word, filters, at, word in mine)]
        # a plural that only follows a verb ("before I changed airlines") names no company
        by_name = versioned.kept(at, ("called", word, filters), functools.partial(
            called, backend, word, filters)) if word in named_so else ()
        by_name = _of_compound(by_name, _modifier(plan, word))
        keys = [k for k in dict.fromkeys([*told, *by_name]) if k not in named]
        if keys:
            found[word] = keys
    return found


def _modifier(plan: QueryPlan, word: str) -> str | None:
    """The query's word just before the kind word when it makes a compound of it ("*book*
    club", "sea *swimming* club"): a word of the query's terms, not a determiner or a
    possessive (`placed`'s "my", "our", "the")."""
    words = _words(plan.text)
    at = [i for i, w in enumerate(words) if w == word and i > 0]
    before = words[at[0] - 1] if at else None
    return before if before in plan.terms and before not in DETERMINERS else None


def _of_compound(keys: Sequence[str], modifier: str | None) -> tuple[str, ...]:
    """The entities, named by the kind word their name ends in (`called`), whose name holds
    the compound's modifier too: "my book club" is no "Granite Curling Club"."""
    if modifier is None:
        return tuple(keys)
    forms = {modifier, *lexicon.lemmas(modifier), *singulars(modifier)}
    return tuple(k for k in keys if not forms.isdisjoint(k.split("-")))


def called(backend: RecallIndex, word: str, filters: Filters) -> tuple[str, ...]:
    """The entities whose name ends in the kind word or a form of it ("Meridian Airlines" is
    an airline, "Washington Park Cat Clinic" a clinic): read from the links of the
    TOLD_READ facts that hold the word.  A name of one word is no kind."""
    forms = {word, *lexicon.lemmas(word), *singulars(word)}
    keys: list[str] = []
    for c in backend.lexical(Terms(words=(word,)), filters, TOLD_READ):
        for key in c.links:
            *name, last = key.split("-")
            if name and (last in forms or not forms.isdisjoint(singulars(last))):
                keys.append(key)
    return tuple(dict.fromkeys(keys))


def told_of(backend: RecallIndex, word: str, filters: Filters,
            at: str | None = None, mine: bool = False) -> tuple[tuple[str, str], ...]:
    """`_told_are`, kept per version of the facts (`versioned`; `at`, when read already)."""
    at = versioned.version(backend) if at is None else at
    return versioned.kept(at, ("told", word, filters, mine),
                          functools.partial(_told_are, backend, word, filters, mine))


def _told_are(backend: RecallIndex, word: str, filters: Filters, mine: bool = False,
              ) -> tuple[tuple[str, str], ...]:
    """The entities told to be one of `word` or a narrower word (`_narrower`), first told
    first, each with the id of the fact that tells it, in the TOLD_READ facts that best
    match those words (and are linked to them): a reading of the memory and the word
    alone.  `mine`: the question asks for the user's own ("my partner", "our dog"), so an
    entity told to be someone else's ("Tom is Naomi's husband") is not one."""
    words = _narrower(word)
    if not words:
        return ()
    pattern = _told(words)
    votes: dict[tuple[str, str], None] = {}
    # of the single words, only those some fact holds and not most facts (`uncommon`)
    terms = Terms(words=tuple(uncommon(backend, [w for w in words if " " not in w])),
                  phrases=tuple(w for w in words if " " in w))
    if not terms.words and not terms.phrases:
        return ()
    for c in backend.lexical(terms, filters, TOLD_READ):
        for m in pattern.finditer(c.fact.content):
            if mine and (m.group("other") or m.group("other2")):
                continue  # "my partner" is not Naomi's husband
            key = entity_key(m.group("before") or m.group("after"))
            if key in c.links:
                votes.setdefault((key, c.fact.id))
    return tuple(votes)


def with_groups(backend: RecallIndex, plan: QueryPlan, named: list[str], filters: Filters,
                mode: str) -> tuple[QueryPlan, list[str]]:
    """The entities the query names by a plural of their name or by a kind the memory says
    they are, added to `named`; the kind words, so read, left out of the plan's terms.  Not
    in semantic mode: the query's vector holds what "cars" or "the dog" means already, and
    the entity's weight then flattens the vectors' order among its facts ("what offers did
    we make on houses": "booked a surveyor" above the offers, personal dev P@1 72.2 -> 66.7
    on "multi" with it)."""
    if mode == SEMANTIC:
        return plan, named
    named = [*named, *plural_names(backend, plan, named)]
    kinds = kind_names(backend, plan, named, filters)
    if not kinds:
        return plan, named
    terms = tuple(t for t in plan.terms if t not in kinds) or plan.terms
    return replace(plan, terms=terms), list(dict.fromkeys(
        [*named, *(k for keys in kinds.values() for k in keys)]))
