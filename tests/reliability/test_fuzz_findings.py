"""What `memfold bench fuzz` found in memfold's parsers, each as a test through the public API.

Each finding, once fixed, has a plain test here.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

import memfold.agents.tools as at
from memfold.errors import BadInput
from memfold.memory import Memory
from memfold.values import Interval

NOW = "2025-11-28T10:00:00+00:00"
DAY = "2025-11-27"


@pytest.mark.parametrize("digits", [400, 4000])
def test_an_integer_argument_too_large_for_a_float_is_refused_as_bad_input(
        memory: Memory, digits: int) -> None:
    # found by the tool-args target: `k` as a 400-digit integer raised OverflowError
    # (int too large to convert to float) instead of the BadInput a model can act on
    huge = "1" + "0" * (digits - 1)
    with pytest.raises(BadInput) as refused:
        at.call(memory, "recall", f'{{"query": "Peter", "k": {huge}}}')
    assert str(refused.value).startswith("recall: k must be between 1 and 200, not 1000")
    with pytest.raises(BadInput, match="rev must be an integer"):
        at.call(memory, "note", {"id": "x", "text": "t", "rev": 0.5})
    assert at.call(memory, "recall", {"query": "Peter", "k": 2.0})["results"] == []


@pytest.mark.parametrize("tail", [
    "<!-- a note I never closed\n",
    "<!-- an old draft\n```\n-->\n",
])
def test_a_bullet_retained_after_a_comment_is_read_back(workspace: Path, tail: str) -> None:
    # found by the markdown target: plan_append read the file's tail without its HTML
    # comments, so a bullet appended after an open comment was hidden, and a fence marker
    # inside a closed comment made it add a fence the parser read as opening
    day_file = workspace / "memory" / f"{DAY}.md"
    day_file.parent.mkdir(exist_ok=True)
    day_file.write_text(f"# {DAY}\n\n{tail}")
    with Memory.open(workspace, now=NOW) as memory:
        retained = memory.retain("W @Peter: Peter moved to Lisbon.", date=DAY)
        assert [f.content for f in retained.facts] == ["Peter moved to Lisbon."]
        hits = memory.recall("Lisbon").hits
        assert [h.fact.id for h in hits] == [retained.facts[0].id]


def test_a_query_since_a_future_day_has_a_window_that_runs_forward(workspace: Path) -> None:
    # found by the query and timeparse targets: "since 2026-01" asked on 2025-11-28 gave the
    # window 2026-01-01..2025-11-28, which ends before it starts and so favours nothing (a
    # time phrase beside words ranks the facts in its window first)
    with Memory.open(workspace, now=NOW) as memory:
        memory.retain("W @Peter: Conference in Lisbon planned.", date="2026-01-05",
                      future=True)
        memory.retain("W @Peter: Conference in Vienna done.", date=DAY)
        found = memory.recall("conference since 2026-01")
    assert found.window == Interval(date(2026, 1, 1), None)
    assert [h.fact.content for h in found.hits] == ["Conference in Lisbon planned.",
                                                    "Conference in Vienna done."]


def test_nuls_after_the_last_newline_are_reported_at_a_line_that_exists() -> None:
    # found by the markdown target: zeros after a file's last newline (what a power loss can
    # leave of unsynced blocks) were reported at a line past the end of the file
    from memfold.workspace.format import parse_document, split_lines

    data = b"# 2025-11-27\n\n## Retain\n- W @Pat: Kept. ^kept0001\n" + b"\0" * 64
    doc = parse_document("memory/2025-11-27.md", data)
    last = len(split_lines(data.decode().replace("\0", "")))
    assert [(w.line, w.message) for w in doc.warnings] == [(last, "NUL bytes removed")]
    assert [f.content for f in doc.facts] == ["Kept."]
