"""Prose is recalled sentence by sentence: a sentence of a narrative paragraph comes back as
itself, cited at the line that holds it, above the paragraph it belongs to."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memfold.memory import Memory
from memfold.workspace.format import parse_document
from memfold.workspace.sentences import with_sentences

NOW = datetime(2026, 3, 10, 12, tzinfo=UTC)
LOG = """# 2026-03-02

Spent the morning at the harbour with Dr. Lee, who
fixed the outboard motor. In the afternoon we painted
the kitchen walls sage green. The plumber never came.

## Retain
- W: The boat is moored at pier four. ^boatpier
"""


def recall(root: Path, query: str) -> list[tuple[str, str, str]]:
    with Memory.open(root, now=NOW) as memory:
        hits = memory.recall(query, now=NOW).hits
    return [(h.fact.kind, h.fact.source, h.fact.content) for h in hits]


def write(root: Path, text: str = LOG) -> Path:
    Memory.init(root)
    (root / "memory/2026-03-02.md").write_text(text, encoding="utf-8")
    return root


def test_a_sentence_of_a_paragraph_is_recalled_with_its_own_line(tmp_path: Path) -> None:
    hits = recall(write(tmp_path / "ws"), "kitchen walls colour")
    assert hits[0] == ("text", "memory/2026-03-02.md#L4",
                       "In the afternoon we painted the kitchen walls sage green.")
    # the paragraph, cited at its heading, follows with the context around the sentence
    assert hits[1][1] == "memory/2026-03-02.md#L1"
    assert len(hits) == 2  # the sentences beside it hold no query word


def test_a_sentence_over_two_lines_cites_the_line_it_starts_on(tmp_path: Path) -> None:
    hits = recall(write(tmp_path / "ws"), "outboard motor harbour")
    assert hits[0][1:] == ("memory/2026-03-02.md#L3", "Spent the morning at the harbour "
                           "with Dr. Lee, who fixed the outboard motor.")


def test_the_sentence_after_one_on_the_same_line_is_found_on_that_line(tmp_path: Path) -> None:
    assert recall(write(tmp_path / "ws"), "plumber")[0][1:] == (
        "memory/2026-03-02.md#L5", "The plumber never came.")


def test_a_sentence_ranks_below_a_typed_fact_its_paragraph_ranks_below(tmp_path: Path) -> None:
    root = write(tmp_path / "ws", LOG.replace("The plumber never came.",
                                              "The boat is moored at the pier."))
    kinds = [kind for kind, _, _ in recall(root, "boat moored pier")]
    assert kinds[0] == "world"


def test_one_line_paragraphs_and_bullets_get_no_sentence_rows() -> None:
    text = ("One line. Two sentences on it.\n\n## Retain\n"
            "- W: A bullet. With two sentences.\n")
    doc = parse_document("memory/2026-03-02.md", text)
    assert with_sentences(doc) == doc
    # under a heading the paragraph's chunk starts at the heading: its sentences get rows
    under = with_sentences(parse_document("memory/2026-03-02.md", "# Day\n\n" + text))
    assert [(f.line, f.content) for f in under.facts if f.kind == "text"][1:] == [
        (3, "One line."), (3, "Two sentences on it.")]


def test_code_and_single_sentences_under_a_heading_stay_whole() -> None:
    text = "# Notes\n\nOne sentence under a heading.\n\n```\nx = 1. Y = 2.\nz = 3\n```\n"
    doc = parse_document("bank/notes.md", text)
    assert with_sentences(doc) == doc


def test_a_paragraph_found_by_words_in_two_sentences_comes_before_them(tmp_path: Path) -> None:
    hits = recall(write(tmp_path / "ws"), "harbour kitchen")
    # neither sentence holds both words: the paragraph does and comes first, and the
    # sentences it holds are not repeated below it
    assert hits[0][1] == "memory/2026-03-02.md#L1"
    assert [source for _, source, _ in hits].count("memory/2026-03-02.md#L4") == 0


def test_a_sentence_on_its_paragraphs_first_line_is_recalled_as_itself(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    Memory.init(root)
    (root / "bank").mkdir(exist_ok=True)
    (root / "bank/notes.md").write_text(
        "We met Anna at the station. She\nbrought the tickets for Porto.\n", encoding="utf-8")
    hits = recall(root, "station Anna")
    # the sentence and its paragraph both start on line 1: both are found, the sentence first
    assert hits[0][1:] == ("bank/notes.md#L1", "We met Anna at the station.")
    assert hits[1][2].startswith("We met Anna at the station. She\nbrought")
