"""Prose at sentence granularity: the sentences of a text chunk as rows of their own.

The parser (`format`) indexes prose as chunks — a paragraph, with the heading just above it,
cited at the chunk's first line.  A chunk of one line, or of one sentence, is already as
precise as a bullet.  A chunk of several lines (wrapped prose, or a paragraph under its
heading) holding two sentences or more also yields one text row per sentence, cited at the
line where the sentence starts (`end_line` where it ends), so recall can answer with the
sentence and the line that holds it.  The chunk stays: its heading and neighbouring
sentences are context a single sentence lacks (recall shows a sentence only above its
paragraph, never below it).  A captured turn (`format.turns`) is one statement and stays
one row.

A sentence ends at `.`, `!`, `?` or `…` (and any closing quotes or brackets) before white
space and a capital, digit or opening mark — not after a common abbreviation ("e.g.",
"Dr.") or a single initial; a list item, table row or quote line starts a new unit.  Fenced
code is left whole.  Pure functions of a parsed document.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import replace
from itertools import pairwise

from memfold.values import TEXT, Fact, ParsedDoc, made_fact
from memfold.workspace.format import FENCE, HEADING, derived_id, is_turn

# the end of a sentence: terminal marks, closing marks, then space before a likely start
BOUNDARY = re.compile(r"[.!?…]+[\"'”’)\]]*\s+(?=[\"'“‘(\[]?[A-Z0-9À-ÖØ-Þ])")
UNIT_START = re.compile(r"\s*(?:[-*+]\s|\d+[.)]\s|\||>)")  # list item, table row, quote
ABBREVIATIONS = frozenset(
    "e.g i.e etc vs cf dr mr mrs ms prof st jr sr no approx dept est fig inc ltd co".split())


def with_sentences(doc: ParsedDoc) -> ParsedDoc:
    """The document with a text row for each sentence of its multi-line prose chunks."""
    seen: dict[str, int] = {}
    extra: list[Fact] = []
    for fact in doc.facts:
        if fact.kind == TEXT and fact.end_line > fact.line and not is_turn(fact):
            extra.extend(_rows(fact, seen))
    return replace(doc, facts=doc.facts + tuple(extra)) if extra else doc


def _numbered(chunk: Fact) -> list[tuple[int, str]]:
    """The chunk's text lines with their file lines; a heading first is left out (blank
    lines between it and the text were not kept, the rest of a chunk is consecutive)."""
    lines = chunk.content.split("\n")
    if HEADING.fullmatch(lines[0]):
        lines = lines[1:]
    first = chunk.end_line - len(lines) + 1
    return [(first + n, text) for n, text in enumerate(lines)]


def _rows(chunk: Fact, seen: dict[str, int]) -> list[Fact]:
    numbered = _numbered(chunk)
    if any(FENCE.match(text) for _, text in numbered):
        return []  # code: its lines are not sentences
    found = _sentences(numbered)
    if len(found) < 2:
        return []  # one sentence (under its heading): the chunk is that sentence already
    rows = []
    for start, end, text in found:
        key = f"sentence\0{text}"
        occurrence = seen.get(key, 0)
        seen[key] = occurrence + 1
        rows.append(made_fact(derived_id(chunk.path, key, occurrence), TEXT, text, chunk.path,
                              start, end, (), {}, None, None, None, chunk.day, False))
    return rows


def _sentences(numbered: list[tuple[int, str]]) -> list[tuple[int, int, str]]:
    """(first line, last line, text) of each sentence, in order."""
    units: list[list[tuple[int, str]]] = []
    for number, text in numbered:
        if not units or UNIT_START.match(text):
            units.append([])
        units[-1].append((number, text))
    found: list[tuple[int, int, str]] = []
    for unit in units:
        text = " ".join(t.strip() for _, t in unit)
        # the file line of each character of the joined text
        starts = [0]
        for _, t in unit[:-1]:
            starts.append(starts[-1] + len(t.strip()) + 1)
        cuts = [0, *_boundaries(text), len(text)]
        for a, b in pairwise(cuts):
            piece = text[a:b].strip()
            if piece:
                found.append((_line_at(unit, starts, a), _line_at(unit, starts, b - 1), piece))
    return found


def _boundaries(text: str) -> list[int]:
    cuts = []
    for m in BOUNDARY.finditer(text):
        word = text[:m.start() + 1].rsplit(None, 1)[-1].rstrip(".").casefold()
        if len(word) == 1 and word.isalpha() or word in ABBREVIATIONS:
            continue  # an initial ("J. Smith") or an abbreviation ("Dr. Lee")
        cuts.append(m.end())
    return cuts


def _line_at(unit: list[tuple[int, str]], starts: list[int], offset: int) -> int:
    """The file line of the character at `offset` (`starts`: where each line begins in the
    joined text, rising from 0)."""
    return unit[bisect.bisect_right(starts, max(offset, 0)) - 1][0]
