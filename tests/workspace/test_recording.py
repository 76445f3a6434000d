"""`workspace.files.recording`: every Markdown file a verb writes, appends to or removes is
recorded for the thread that asked (the server sends exactly those), and nothing else."""

from __future__ import annotations

import threading
from pathlib import Path

from memfold import Memory
from memfold.workspace.files import recording


def rel(root: Path, paths: set[Path]) -> set[str]:
    return {p.relative_to(root).as_posix() for p in paths}


def test_each_verb_records_the_files_it_changes(memory: Memory, workspace: Path) -> None:
    root = memory.workspace.root
    with recording() as retained:
        made = memory.retain(["W @Ann: Likes tea."], date="2025-11-20")
    assert "memory/2025-11-20.md" in rel(root, retained)
    with recording() as cored:
        memory.core_append("persona", "Answers briefly.")
    assert rel(root, cored) == {"memory.md", "journal.jsonl"}
    with recording() as purged:
        memory.forget(made.facts[0].id, purge=True)
    assert "memory/2025-11-20.md" in rel(root, purged)
    with recording() as nothing:
        memory.recall("tea")
    assert {p for p in rel(root, nothing) if p.endswith(".md")} == set()


def test_recording_is_per_thread_and_nests(memory: Memory) -> None:
    root = memory.workspace.root
    other: list[set[Path]] = []

    def elsewhere() -> None:
        memory.retain(["W @Bo: Plays chess."], date="2025-11-21")

    with recording() as outer:
        thread = threading.Thread(target=elsewhere)
        thread.start()
        thread.join()
        other.append(set(outer))  # the other thread's retain is not this thread's
        with recording() as inner:
            memory.retain(["W @Cy: Sails."], date="2025-11-22")
    assert other == [set()]
    assert "memory/2025-11-22.md" in rel(root, inner)
    assert "memory/2025-11-22.md" in rel(root, outer)
    assert "memory/2025-11-21.md" not in rel(root, outer)
