"""What recall reads of the memory alone is read once per version of the index's facts
(`memfold.recall.versioned`): the entities told to be one of a kind word (`sets`) and
whether an entity is on too much of the memory, read again only after a sync changed a
fact.  And word knowledge looks up no run of words that no word of several in the lexicon
begins with.  Counted, not timed."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from test_recall_sets import remember

from memfold import lexicon
from memfold.index.base import Candidate
from memfold.index.sqlite.backend import SqliteIndex
from memfold.memory import Memory
from memfold.recall import expansion, sets, versioned
from memfold.values import Fact

DAY = "2025-06-01T10:00:00"
LATER = "2025-06-02T10:00:00"
DOG = ["W @Biscuit: Biscuit is our six-year-old beagle.",
       "W @Biscuit: Callum walks Biscuit on Tuesdays.",
       "W @Biscuit: Femi walks Biscuit now that Callum has moved away.",
       "B @Jules: Jules suggested we get a second dog."]


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """The searches of narrower words (`sets._told_are`) and link counts of an entity
    (`sets._subjects`) recall runs, by what they look for."""
    monkeypatch.setattr(sets, "BROAD", 7)  # told apart from the searches' own limits
    calls: Counter[str] = Counter()
    lexical, linked = SqliteIndex.lexical, SqliteIndex.linked

    def count_lexical(self: SqliteIndex, terms, filters, limit):  # type: ignore[no-untyped-def]
        if "beagle" in terms.words:
            calls["told"] += 1
        return lexical(self, terms, filters, limit)

    def count_linked(self: SqliteIndex, keys, filters, limit):  # type: ignore[no-untyped-def]
        if limit == sets.BROAD:
            calls["broad"] += 1
        return linked(self, keys, filters, limit)

    monkeypatch.setattr(SqliteIndex, "lexical", count_lexical)
    monkeypatch.setattr(SqliteIndex, "linked", count_linked)
    versioned.clear()
    yield calls
    versioned.clear()


def shown(memory: Memory, query: str) -> list[str]:
    return [h.fact.content for h in memory.recall(query, now=LATER, k=5).hits]


def test_a_kind_word_is_read_once_per_version_of_the_facts(
        workspace: Path, counted: Counter[str]) -> None:
    with Memory.open(workspace) as memory:
        memory.retain(DOG, now=DAY)
        first = shown(memory, "Who has walked the dog for us?")
        assert counted["told"] == 1
        assert shown(memory, "Who has walked the dog for us?") == first
        shown(memory, "Has anyone walked the dog?")  # another question, the same kind word
        assert counted["told"] == 1  # read once
        memory.retain(["W @Pepper: Pepper is our old beagle too."], now=LATER)
        shown(memory, "Who has walked the dog for us?")  # a fact changed: read again
        assert counted["told"] == 2


def test_an_entity_on_much_of_the_memory_is_counted_once_per_version(
        workspace: Path, counted: Counter[str]) -> None:
    """The best match's subjects (`sets._subjects`) leave out an entity linked to BROAD
    facts or more: its links are counted once per version of the facts."""
    question = "What medications have I been prescribed for migraines?"
    with Memory.open(workspace) as memory:
        remember(memory)
        first = shown(memory, question)
        assert counted["broad"] >= 1
        broad = counted["broad"]
        assert shown(memory, question) == first
        assert counted["broad"] == broad


def test_the_readings_kept_are_bounded(workspace: Path, counted: Counter[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(versioned, "KEPT", 3)
    with Memory.open(workspace) as memory:
        memory.retain(DOG, now=DAY)
        for word in ("dog", "dogs", "cat", "pets", "animal", "car"):
            shown(memory, f"Which {word} do we have?")
    assert 0 < len(versioned._kept) <= 3


def test_an_index_without_a_version_is_read_every_time() -> None:
    reads: list[int] = []

    class Unversioned:  # the server's index: a signature, no version
        def facts_signature(self) -> str:
            return "pg:1:7:3:10"

        def facts_version(self) -> None:  # an older SQLite index, with no facts token
            return None

    assert versioned.version(object()) is None

    at = versioned.version(Unversioned())
    assert at is None
    for _ in range(3):
        versioned.kept(at, ("told", "dog"), lambda: reads.append(1) or ())
    assert len(reads) == 3


def test_runs_of_several_words_are_read_only_after_a_word_that_begins_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A fact's runs of two and three words are looked up only when a word of several in
    the lexicon begins with their first word ("family doctor"); the classes found are
    those a lookup of every run finds."""
    content = "Zqxv wrobel met our family doctor about the beagles at noon"
    asked: list[str] = []
    classes = lexicon.classes

    def spy(word: str) -> tuple[str, ...]:
        asked.append(word)
        return classes(word)

    expansion._reading.cache_clear()  # `_classed` itself keeps nothing: its reading does
    monkeypatch.setattr(lexicon, "classes", spy)
    found = expansion._classed(content)
    several = [w for w in asked if " " in w]
    assert several and all(w.split()[0] in ("family", "doctor") for w in several)
    words = expansion._words(content)
    runs = (*words, *(" ".join(words[i:i + n]) for n in (2, 3)
                      for i in range(len(words) - n + 1)))
    every = tuple((run, kinds) for run in dict.fromkeys(runs)
                  if len(run) >= expansion.MIN_CLASSED and (kinds := classes(run)))
    assert found == every
    assert ("family doctor", classes("family doctor")) in found
    expansion._reading.cache_clear()


def test_a_words_count_is_read_once_per_version(workspace: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """How many facts hold a word (expansion, the second hop, `weak`) is counted once per
    version of the facts, however many questions ask it."""
    counted: Counter[str] = Counter()
    word_counts = SqliteIndex.word_counts

    def spy(self: SqliteIndex, words, most):  # type: ignore[no-untyped-def]
        counted.update(words)
        return word_counts(self, words, most)

    monkeypatch.setattr(SqliteIndex, "word_counts", spy)
    versioned.clear()
    with Memory.open(workspace) as memory:
        memory.retain(DOG, now=DAY)
        shown(memory, "Who walks Biscuit on Tuesdays?")
        once = dict(counted)
        assert once and max(once.values()) == 1
        shown(memory, "Who walks Biscuit on Tuesdays?")
        shown(memory, "Does Femi walk Biscuit on Tuesdays?")
        assert all(counted[w] == 1 for w in once)
        memory.retain(["W @Femi: Femi walks on Tuesdays and Thursdays."], now=LATER)
        shown(memory, "Who walks Biscuit on Tuesdays?")
        assert counted["tuesdays"] == 2
    versioned.clear()


class Asked(dict[str, tuple[str, int]]):
    """Related words that note every run of words looked up in them."""

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        self.looked: list[str] = []

    def __contains__(self, key: object) -> bool:
        self.looked.append(str(key))
        return super().__contains__(key)


def test_a_facts_runs_of_words_are_formed_only_where_a_related_word_begins() -> None:
    """Word knowledge reads every candidate for the related words it holds: a run of two or
    three of its words is looked up only from a word a related word of several begins
    with, and what it finds is what a look at every run finds."""
    fact = Fact(id="a1", kind="world", content="Our family doctor is a GP in the old "
                "town near the family home", path="memory/x.md", line=1, end_line=1)
    c = Candidate(fact=fact, bm25=None, links=(), sha256="", rowid=1, life=None)
    words = Asked({"gp": ("doctor", 1), "family doctor": ("doctor", 1),
                   "general practitioner": ("doctor", 1)})
    related = expansion.Related(words, ())
    held = related.held(c)
    assert [w for w, *_ in held] == ["gp", "family doctor"]
    several = [w for w in words.looked if " " in w]
    # "family" begins a related word (twice in the fact), "general" is not in it
    assert several == ["family doctor", "family home", "family doctor gp"]
