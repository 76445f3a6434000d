"""A retain parses and indexes only the lines it appends, so its cost does not grow with the
day's log — and the index it leaves is the one a full rebuild makes.

The fast path applies when the index holds the day file exactly as it was before the append
(same SHA-256) and nothing before the new lines can change how they read (front matter, an
open fence or comment).  Otherwise the whole file is parsed and synced, as before.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import memfold.retain as retain_module
from conftest import fresh_dump, write
from memfold import Memory

NOW = "2025-11-27T09:00:00+00:00"
DAY = "memory/2025-11-27.md"


def spy_full_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = retain_module.parse_document

    def counting(path: str, data: Any) -> Any:
        seen.append(path)
        return real(path, data)

    monkeypatch.setattr(retain_module, "parse_document", counting)
    return seen


def test_a_retain_into_a_long_day_reads_only_its_own_lines(
        workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Memory.open(workspace, now=NOW) as memory:
        for batch in range(20):
            memory.retain([f"B @Pat: Event {batch}-{n} at the harbor." for n in range(50)])
        parses = spy_full_parses(monkeypatch)
        result = memory.retain(["W @Pat: Lives in Vienna."])
        hits = memory.recall("Vienna").hits
    assert parses == []  # 1,000 bullets before it, none read again
    assert [f.line for f in result.facts] == [1004]
    assert [h.fact.id for h in hits] == [result.facts[0].id]
    assert result.indexed


STARTS = {
    "new file": None,
    "ends in a Retain section": "# 2025-11-27\n\n## Retain\n- W @Pat: Written by hand.\n",
    "ends in prose": "# 2025-11-27\n\nWe met at the harbor. Pat was late.\nAnother line.\n",
    "ends with a lone heading": "# 2025-11-27\n",
    "no final newline": "# 2025-11-27\n\n## Retain\n- W @Pat: No newline after me.",
    "front matter": "---\ntitle: a day\n---\n# 2025-11-27\n\n## Retain\n- B @Pat: Ran.\n",
    "open comment": "# 2025-11-27\n\n<!-- a draft\n",
    "open fence": "# 2025-11-27\n\n```\n- W: code\n",
    "a secret by hand": "# Day\n\n## Retain\n- W @Pat: The wifi password is Qx7!mPz92vL.\n",
}


@pytest.mark.parametrize("start", sorted(STARTS))
def test_the_index_after_appends_is_the_one_a_rebuild_makes(
        workspace: Path, tmp_path: Path, start: str) -> None:
    if STARTS[start] is not None:
        write(workspace, DAY, STARTS[start])
    with Memory.open(workspace, now=NOW) as memory:
        memory.refresh()
        for n in range(3):
            memory.retain([f"B @Pat: Appended {n}, a first sentence. And a second one.",
                           f"O(c=0.6) @Pat: Likes the harbor {n}."])
        incremental = memory.index_backend.dump()
        warnings = [(w.line, w.message) for w in memory.warnings()]
    assert incremental == fresh_dump(workspace, tmp_path / "fresh")
    with Memory.open(workspace, now=NOW) as memory:
        memory.index(full=True)
        assert [(w.line, w.message) for w in memory.warnings()] == warnings


def test_a_hand_edit_between_retains_is_read_whole(
        workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The index no longer holds the file as it was: the retain parses and syncs all of it,
    and the edited fact gets its revision."""
    with Memory.open(workspace, now=NOW) as memory:
        first = memory.retain(["W @Pat: Lives in Vienna."]).facts[0]
        day = workspace / DAY
        day.write_text(day.read_text().replace("Vienna", "Graz"))
        parses = spy_full_parses(monkeypatch)
        memory.retain(["W @Pat: Works at Acme."])
        shown = memory.get(first.id, use=False)
        memory.refresh()
        dump = memory.index_backend.dump()
    assert parses == [DAY]
    assert shown.fact.content == "Lives in Graz." and shown.rev == 1
    assert dump == fresh_dump(workspace, tmp_path / "fresh")
