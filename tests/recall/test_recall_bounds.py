"""What recall's extra stages may cost: bounded by what they find, not by the memory.

A word more facts than `expansion.COMMON` hold is not searched for by expansion or word
knowledge (the facts found already are still read for it), nor is one no fact holds, and the
faded facts recall moves below a newer current one are found in the ordered list by
identity, never compared field by field.  Counted, not timed: the searches each stage runs,
the comparisons made.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from memfold import lexicon
from memfold.index.base import Terms
from memfold.index.sqlite.backend import SqliteIndex
from memfold.memory import Memory
from memfold.recall import expansion, ranking

NOW = datetime(2026, 3, 10, 12, tzinfo=UTC)
FILLER = 40  # facts holding the common word; COMMON is set below it


def write(root: Path, day: str, bullets: list[str]) -> None:
    (root / f"memory/{day}.md").write_text(f"# {day}\n\n## Retain\n" + "\n".join(bullets)
                                           + "\n", encoding="utf-8")


@pytest.fixture
def searched(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Terms]]:
    """Every lexical search recall runs, in order, with COMMON below FILLER."""
    seen: list[Terms] = []
    lexical = SqliteIndex.lexical

    def spy(self: SqliteIndex, terms: Terms, *args: Any, **kwargs: Any) -> Any:
        seen.append(terms)
        return lexical(self, terms, *args, **kwargs)

    monkeypatch.setattr(SqliteIndex, "lexical", spy)
    monkeypatch.setattr(expansion, "COMMON", FILLER // 2, raising=False)
    yield seen


def words_searched(seen: list[Terms]) -> set[str]:
    return {w for terms in seen for w in terms.words}


def recall(root: Path, query: str, seen: list[Terms]) -> list[str]:
    """The ids recall finds; `seen` holds the searches of this recall alone (not the
    judge's, which reads the new facts as the index syncs)."""
    with Memory.open(root, now=NOW) as memory:
        memory.index()
        seen.clear()
        return [h.fact.id for h in memory.recall(query, now=NOW, mode="lexical").hits]


def test_expansion_does_not_search_a_word_most_facts_hold(
        tmp_path: Path, searched: list[Terms], monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "ws"
    Memory.init(root)
    write(root, "2026-03-02", ["- W: The violin case sits in the garden shed. ^case0001",
                               "- W: The violin bow hangs in the garden shed. ^bow00001",
                               "- W: The shed roof leaks over the potting bench. ^roof0001"])
    write(root, "2026-03-01", [f"- W: Weather note {n} from the garden." for n in range(FILLER)])
    found = recall(root, "violin", searched)
    assert found[:2] == ["case0001", "bow00001"] or found[:2] == ["bow00001", "case0001"]
    words = words_searched(searched)
    # the two best share "garden" (in 42 facts) and "shed" (in 3): only "shed" is searched
    assert "shed" in words and "garden" not in words
    assert "roof0001" in found  # found by the rare shared word
    monkeypatch.setattr(expansion, "COMMON", 1000)  # fewer facts than the bound: no count
    recall(root, "violin", searched)
    assert {"shed", "garden"} <= words_searched(searched)


def test_word_knowledge_does_not_search_a_related_word_most_facts_hold(
        tmp_path: Path, searched: list[Terms]) -> None:
    root = tmp_path / "ws"
    Memory.init(root)
    write(root, "2026-03-02", ["- W: Biscuit is a pooch from the shelter. ^biscuit1"])
    write(root, "2026-03-01", [f"- W: Weather note {n}: the puppy slept outside."
                               for n in range(FILLER)])
    found = recall(root, "which dog", searched)
    words = words_searched(searched)
    # "puppy" and "pooch" are both kinds of dog; only the rare one is searched for
    assert "pooch" in words and "puppy" not in words
    assert found[0] == "biscuit1"


def test_word_knowledge_searches_only_related_words_the_memory_holds(
        tmp_path: Path, searched: list[Terms]) -> None:
    """"which bird" searches the kinds of bird deep (`expansion.ASKED_KINDS`): of those, only
    the ones some fact holds are searched — a word no fact holds finds nothing and adds
    nothing to a fact's BM25, but FTS5 would still look it up and merge it."""
    root = tmp_path / "ws"
    Memory.init(root)
    write(root, "2026-03-02", ["- W: We spotted a kingfisher by the river. ^kingfish"])
    write(root, "2026-03-01", [f"- W: Weather note {n} from the garden." for n in range(FILLER)])
    found = recall(root, "which bird did we spot by the river", searched)
    assert found[0] == "kingfish"
    kinds = set(lexicon.related("bird", lexicon.KIND))
    assert {"kingfisher", "sparrow", "accentor"} <= kinds  # kinds the memory does not all hold
    searched_kinds = words_searched(searched) & kinds
    assert searched_kinds == {"kingfisher"}


def test_faded_facts_are_moved_without_comparing_facts(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "ws"
    Memory.init(root)
    write(root, "2019-05-02", [f"- B: Played the violin at concert {n}." for n in range(6)])
    write(root, "2026-03-02", ["- W: Practises the violin every evening. ^violin01"])

    def refuse(self: object, other: object) -> bool:
        raise AssertionError("a Scored compared field by field")

    monkeypatch.setattr(ranking.Scored, "__eq__", refuse)
    with Memory.open(root, now=NOW) as memory:
        result = memory.recall("violin concert", now=NOW, mode="lexical", include_all=True)
    assert len(result.hits) == 7


def test_word_knowledge_reads_a_fact_once_across_recalls(tmp_path: Path,
                                                         classes_asked: list[str]) -> None:
    """What word knowledge reads of a fact's text (its words, their runs, what the lexicon
    says each is a kind of) is the same for every query: a second recall meeting the same
    facts asks the lexicon nothing more of them."""
    root = tmp_path / "ws"
    Memory.init(root)
    write(root, "2026-03-01", ["- W: Milo caught a mackerel off the harbour wall.",
                               "- W: Milo caught the early ferry to the island.",
                               "- W: The harbour wall was repainted blue."])
    asked = classes_asked
    with Memory.open(root, now=NOW) as memory:
        memory.index()
        first = [h.fact.content for h in memory.recall("What fish did Milo catch?", now=NOW,
                                                       mode="lexical").hits]
        assert first[0] == "Milo caught a mackerel off the harbour wall."
        assert "mackerel" in asked
        asked.clear()
        again = [h.fact.content for h in memory.recall("Which fish did Milo catch?", now=NOW,
                                                       mode="lexical").hits]
    assert again == first
    assert asked == []
