"""A block id on two bullets: the first holder keeps it (by the journal, else the oldest file
and line); a later copy is named with path:line and takes none of the id's uses, notes or
revisions; a re-parse that leaves a fact's text as it was never raises its revision."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import write
from memfold import Memory
from memfold.journal.log import JOURNAL_NAME

NOW = "2025-03-10T12:00:00"
ORIGINAL, OLDER = "memory/2025-03-10.md", "memory/2025-01-01.md"


def journaled(root: Path, kind: str) -> list[dict[str, object]]:
    lines = (root / JOURNAL_NAME).read_text().splitlines()
    return [e for e in map(json.loads, lines) if e["event"] == kind]


def retained_and_noted(memory: Memory) -> str:
    fact_id = memory.retain("W @Bun: Bun.js is fast.", date="2025-03-10").facts[0].id
    assert memory.note(fact_id, "measured on the build box", rev=0) == 1
    return fact_id


def paste_copy(root: Path, fact_id: str, text: str = "Bun.js is fast.") -> None:
    """A copy of the bullet, with its block id, in a file of an older day."""
    write(root, OLDER, f"# 2025-01-01\n\n## Retain\n- W @Bun: {text} ^{fact_id}\n")


def test_a_verbatim_copy_in_an_older_file_does_not_take_the_id(workspace: Path) -> None:
    with Memory.open(workspace, now=NOW) as memory:
        fact_id = retained_and_noted(memory)
        paste_copy(workspace, fact_id)
        report = memory.index()
        shown = memory.get(fact_id, use=False)
        assert (shown.fact.path, shown.note, shown.rev) == (ORIGINAL, "measured on the build box",
                                                            1)
        later = [w for w in report.link_warnings if w.path == OLDER]
        assert [w.line for w in later] == [4]
        assert f"already on {ORIGINAL}:4, the bullet memfold uses" in later[0].message
        copy = next(h for h in memory.recall("Bun fast").hits if h.fact.path == OLDER)
        assert (copy.note, copy.rev, copy.origin) == (None, 0, None)
        held = next(h for h in memory.recall("Bun fast").hits if h.fact.path == ORIGINAL)
        assert (held.note, held.rev, held.origin) == ("measured on the build box", 1, "api")


def test_rebuilds_with_a_differing_copy_journal_no_revision(workspace: Path) -> None:
    with Memory.open(workspace, now=NOW) as memory:
        fact_id = retained_and_noted(memory)
        paste_copy(workspace, fact_id, text="Bun.js is slow.")
        memory.index()
        for _ in range(2):
            memory.index(full=True)
        shown = memory.get(fact_id, use=False)
        assert (shown.fact.content, shown.rev) == ("Bun.js is fast.", 1)
        assert journaled(workspace, "revise") == []
        assert memory.note(fact_id, "still fast", rev=1) == 2  # compare-and-set holds


def test_editing_the_later_copy_is_no_revision_but_editing_the_holder_is(
        workspace: Path) -> None:
    with Memory.open(workspace, now=NOW) as memory:
        fact_id = retained_and_noted(memory)
        paste_copy(workspace, fact_id)
        memory.index()
        paste_copy(workspace, fact_id, text="Bun.js is very slow.")
        memory.index()
        assert journaled(workspace, "revise") == []
        path = workspace / ORIGINAL
        path.write_text(path.read_text().replace("is fast.", "is very fast."))
        memory.index()
        assert [e["rev"] for e in journaled(workspace, "revise")] == [2]
        assert memory.get(fact_id, use=False).rev == 2


def test_without_the_journal_the_oldest_file_keeps_the_id(workspace: Path) -> None:
    write(workspace, ORIGINAL, "# d\n\n## Retain\n- W @Bun: Bun.js is fast. ^handid01\n")
    write(workspace, OLDER, "# d\n\n## Retain\n- W @Bun: Bun.js was fast. ^handid01\n")
    with Memory.open(workspace, now=NOW) as memory:
        memory.index()
        assert memory.get("handid01", use=False).fact.path == OLDER
        memory.note("handid01", "a note", rev=0)  # the journal now holds the older file's text
        write(workspace, "memory/2024-12-01.md", "# d\n\n## Retain\n"
                                                "- W @Bun: Bun.js is fast. ^handid01\n")
        memory.index(full=True)
        assert memory.get("handid01", use=False).fact.path == OLDER
        assert journaled(workspace, "revise") == []


def test_the_retain_journals_the_file_it_wrote(workspace: Path) -> None:
    with Memory.open(workspace, now=NOW) as memory:
        memory.retain("W @Bun: Bun.js is fast.", date="2025-03-10")
    [event] = journaled(workspace, "retain")
    assert event["path"] == ORIGINAL
