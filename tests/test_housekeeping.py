"""What `memfold index` tidies and tells: temporary files a killed writer left behind are
removed (only ours, only old, only when their writer is gone), and symlinks where memfold
reads files are named, not silently skipped."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from conftest import Cli
from memfold.memory import Memory
from memfold.workspace.files import STRAY_AGE_S, remove_stray_temporaries


def dead_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)
    return int(child.stdout)


def temp(folder: Path, name: str, *, pid: int, age: float) -> Path:
    path = folder / f".{name}.{pid}.0badc0de.tmp"
    path.write_text("half of a page", encoding="utf-8")
    when = time.time() - age
    os.utime(path, (when, when))
    return path


def test_index_removes_only_the_temporaries_of_dead_writers(workspace: Path) -> None:
    old = STRAY_AGE_S + 60
    gone = dead_pid()
    stray = [temp(workspace / "memory", "2025-11-27.md", pid=gone, age=old),
             temp(workspace / "bank" / "entities", "Peter.md", pid=gone, age=old),
             temp(workspace, "memory.md", pid=gone, age=old),
             temp(workspace / ".memory", "reflect-last.json", pid=gone, age=old)]
    kept = [temp(workspace / "memory", "young.md", pid=gone, age=5),  # may still be renamed
            temp(workspace / "memory", "alive.md", pid=os.getpid(), age=old)]
    mine = workspace / "memory" / ".notes.tmp"  # not a name memfold makes
    mine.write_text("a user's file", encoding="utf-8")
    with Memory.open(workspace) as memory:
        memory.index()
        notices = memory.notices
    assert not any(p.exists() for p in stray)
    assert all(p.exists() for p in kept) and mine.exists()
    assert any("removed 4 temporary files" in n for n in notices)


def test_a_symlinked_temporary_is_not_followed(workspace: Path, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text("not ours", encoding="utf-8")
    link = workspace / "memory" / f".x.md.{dead_pid()}.0badc0de.tmp"
    link.symlink_to(target)
    later = time.time() + 10 * STRAY_AGE_S
    assert remove_stray_temporaries([link], now=later) == []
    assert link.is_symlink() and target.exists()


def test_index_names_the_symlinks_it_skips(workspace: Path, tmp_path: Path, run: Cli) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("## Retain\n- W: from outside\n", encoding="utf-8")
    (workspace / "memory" / "2025-01-01.md").symlink_to(outside)
    result = run("index", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["skipped_symlinks"] == ["memory/2025-01-01.md"]
    result = run("index")
    assert "memory/2025-01-01.md: a symlink, not followed" in result.stderr
