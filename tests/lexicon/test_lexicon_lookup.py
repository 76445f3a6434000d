"""A word's lines in the shipped lexicon are found by a binary search of its file's text:
the characters a lookup reads are few whatever the size of the file, and what it finds is
what a scan of the whole file finds.  Counted, not timed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memfold import lexicon


class Counted(str):
    """A text that counts the characters its searches pass over."""

    scanned = 0

    def find(self, sub: str, start: int | None = 0, end: int | None = None) -> int:  # type: ignore[override]
        start = start or 0
        end = len(self) if end is None else end
        at = str.find(self, sub, start, end)
        Counted.scanned += (at if at >= 0 else end) - start
        return at

    def rfind(self, sub: str, start: int | None = 0, end: int | None = None) -> int:  # type: ignore[override]
        start = start or 0
        end = len(self) if end is None else end
        at = str.rfind(self, sub, start, end)
        Counted.scanned += end - (at if at >= 0 else start)
        return at


WORDS = [f"w{n:05d}" for n in range(0, 20000, 2)]  # 10,000 words, the odd numbers missing
SHARD = "\n" + "".join(f"{w}\tis\tthing|object\n{w}\tsame\t{w}x\n" for w in WORDS)


@pytest.fixture
def shard(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(lexicon, "_shard_text", lambda name: Counted(SHARD))
    clear()
    Counted.scanned = 0
    yield
    clear()


def clear() -> None:
    for name in ("_wordnet_lines", "_lemmas", "classes", "_compounds_after", "_marks",
                 "begins"):
        if hasattr(cached := getattr(lexicon, name, None), "cache_clear"):  # not a test's spy
            cached.cache_clear()


@pytest.mark.parametrize("word", ["w00000", "w10000", "w19998", "w19999", "w0", "x", "a"])
def test_a_lookup_reads_a_few_lines_of_the_file(shard: None, word: str) -> None:
    lexicon._marks(lexicon.shard(word))  # once per file, when it is read (below)
    Counted.scanned = 0
    lexicon._wordnet_lines(word)
    # the file's marks narrow the search to MARK characters, one search of them
    assert Counted.scanned <= lexicon.MARK + len(word) + 2


def test_a_file_is_marked_once_in_a_pass_over_its_places(shard: None) -> None:
    """A file's marks read the word of every MARK-th place's line: about one line per
    MARK characters of the file, once, whatever the words looked up after."""
    lexicon._wordnet_lines("w00000")
    marked = Counted.scanned
    assert marked < 3 * len(SHARD) // lexicon.MARK * 40
    for n in range(0, 20000, 997):
        lexicon._wordnet_lines(f"w{n:05d}")
    assert lexicon._marks.cache_info().misses == 1


def test_a_lookup_finds_what_a_scan_finds(shard: None) -> None:
    for n in (0, 2, 9998, 10000, 19998):
        word = f"w{n:05d}"
        assert lexicon._wordnet_lines(word) == {"is": ("thing", "object"), "same": (f"{word}x",)}
    for missing in ("w00001", "w19999", "w2", "w", "a", "z", ""):
        assert lexicon._wordnet_lines(missing) == {}


def test_the_shipped_files_are_read_the_same_way() -> None:
    clear()
    assert "fish" in lexicon.classes("mackerel")
    assert "beagle" in lexicon.related("dogs", lexicon.KIND)
    assert lexicon.related("zzzzqqq", lexicon.KIND) == ()


def test_runs_of_words_no_compound_begins_with_are_not_looked_up(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Word knowledge asks the lexicon about every run of two and three words of a fact:
    one search tells that no word of several begins with the run's first word, and rules
    out the run and its inflections (the runs after it too) without looking each up."""
    clear()
    searched: list[str] = []
    first_line = lexicon._first_line

    def spy(text: str, word: str,
            marks: tuple[list[str], list[int]] | None = None) -> int:
        searched.append(word)
        return first_line(text, word, marks)

    monkeypatch.setattr(lexicon, "_first_line", spy)
    for run in ("zqxv walls", "zqxv wall blue", "zqxv ferries", "zqxv ran"):
        assert lexicon.lemmas(run) == []
        assert lexicon.classes(run) == ()
    assert searched == ["zqxv "]
    searched.clear()
    assert "family doctor" in lexicon.lemmas("family doctors")
    assert "school" in lexicon.classes("secondary schools")
    assert searched
    clear()


@pytest.mark.parametrize("prefix", ["family doc", "family doctor", "family doctors",
                                    "family docz", "secondary sch", "secondary schoo",
                                    "zqxv ", "dog", "dogz", "a", "aa", "zz", "zzzzz"])
def test_begins_says_what_a_scan_of_the_tables_says(prefix: str) -> None:
    """`begins` (one search between two marks) agrees with reading every word of the file
    and of the tables written by hand."""
    clear()
    text = lexicon._shard_text(lexicon.shard(prefix))
    words = {line.split("\t")[0] for line in text.split("\n") if line}
    expected = any(w.startswith(prefix) for w in words | set(lexicon._own()))
    assert lexicon.begins(prefix) is expected
    clear()


def test_runs_no_table_word_begins_as_are_not_looked_up_by_word_knowledge(
        classes_asked: list[str]) -> None:
    """Word knowledge reads a fact's runs of two and three words for what they are kinds
    of: a run from a word that begins a word of several ("family") but which no word of
    the tables begins as, less its last word's ending ("family xqzvb"), is not looked up
    (`lexicon.classes` runs several searches for each); one that may be known still is."""
    from memfold.recall import expansion

    clear()
    asked = classes_asked
    read = expansion._classed("Our family xqzvbtr moved; my family doctors retired")
    assert not [w for w in asked if w.startswith("family xqzv")]
    assert "family doctors" in asked
    assert any(run == "family doctors" for run, _ in read)
