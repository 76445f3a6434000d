"""Reflect writes its page set atomically: all pages old, or — once the next memfold process
has opened the workspace — all pages new; never a mix (docs/reliability.md).

A failure injected into the file layer after the first page (a rename or an fsync that
fails), and SIGKILL at random points of a reflect run on a slowed-down disk, must each leave
a consistent set after the next open; `reflect --undo` still takes an atomic run back.
"""

from __future__ import annotations

import errno
import os
import random
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import memfold.workspace.files as files_module
from conftest import ROOT
from memfold.errors import MemfoldError
from memfold.memory import Memory
from memfold.reflect.plan import PAGES_INTENT
from memfold.workspace.layout import REFLECT_INTENT

NOW = "2025-12-01T12:00:00+00:00"
PEOPLE = 24  # one entity page each, plus bank/world.md: 25 pages a run
KILL_TRIALS = 20
SEED = int(os.environ.get("MEMFOLD_ATOMIC_SEED", "0"))
SRC = ROOT / "src"

Pages = dict[str, bytes | None]


@pytest.fixture(autouse=True)
def _lexical(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMFOLD_RECALL_MODE", "lexical")


def seed(root: Path) -> None:
    """Facts about PEOPLE people, two near-duplicates among them: one reflect run writes
    PEOPLE entity pages and a consolidated fact into bank/world.md."""
    with Memory.open(root, now=NOW) as memory:
        memory.retain([f"W @Person{i}: Lives in Town{i} near the river." for i in range(PEOPLE)],
                      date="2025-11-20")
        memory.retain(["W @Person0: Lives in Town0 near the river."], date="2025-11-22")


def planned(root: Path) -> tuple[Pages, Pages]:
    """The pages a run will write: their bytes before it and after it."""
    with Memory.open(root, now=NOW) as memory:
        plan = memory.reflect(since="400d", dry_run=True)
    return ({p.path: p.before for p in plan.pages}, {p.path: p.after for p in plan.pages})


def pages_now(root: Path, paths: Pages) -> Pages:
    return {rel: (root / rel).read_bytes() if (root / rel).exists() else None
            for rel in paths}


def verdict(root: Path, before: Pages, after: Pages) -> str:
    """'old', 'new', or 'mixed' (how many pages of each) for the pages as they are."""
    now = pages_now(root, before)
    if now == before:
        return "old"
    if now == after:
        return "new"
    new = sum(now[rel] == after[rel] for rel in now)
    old = sum(now[rel] == before[rel] for rel in now)
    return f"mixed: {new} new, {old} old, {len(now) - new - old} neither"


@pytest.fixture
def seeded(workspace: Path) -> tuple[Path, Pages, Pages]:
    seed(workspace)
    before, after = planned(workspace)
    assert len(after) == PEOPLE + 1
    return workspace, before, after


def failing(monkeypatch: pytest.MonkeyPatch, name: str,
            hits: Callable[[tuple[Any, ...]], bool], nth: int) -> None:
    """Make the nth call of `os.<name>` inside memfold's file layer that `hits` fail."""
    real = getattr(os, name)
    seen = [0]

    def call(*args: Any, **kwargs: Any) -> Any:
        if hits(args):
            seen[0] += 1
            if seen[0] == nth:
                raise OSError(errno.EIO, os.strerror(errno.EIO))
        return real(*args, **kwargs)

    class Os:
        def __getattr__(self, attr: str) -> Any:
            return call if attr == name else getattr(os, attr)

    monkeypatch.setattr(files_module, "os", Os())


def _a_page(path: Any) -> bool:
    return "/bank/" in str(path) and str(path).endswith(".md")


def _renames_a_page(args: tuple[Any, ...]) -> bool:
    return _a_page(args[1])


def _a_page_temp(fd: Any) -> bool:
    target = os.readlink(f"/proc/self/fd/{fd}") if isinstance(fd, int) else ""
    return "/bank/" in target and target.endswith(".tmp") and ".md." in target


@pytest.mark.parametrize(("primitive", "hits", "expect"), [
    ("replace", _renames_a_page, "new"),  # after the commit point: finished by the next open
    ("fsync", lambda args: _a_page_temp(args[0]), "old"),  # before it: nothing changed
])
def test_a_failure_after_the_first_page_leaves_all_old_or_after_recovery_all_new(
        seeded: tuple[Path, Pages, Pages], monkeypatch: pytest.MonkeyPatch, primitive: str,
        hits: Callable[[tuple[Any, ...]], bool], expect: str) -> None:
    root, before, after = seeded
    with Memory.open(root, now=NOW) as memory, monkeypatch.context() as patch:
        failing(patch, primitive, hits, nth=2)
        with pytest.raises(MemfoldError):
            memory.reflect(since="400d")
    if expect == "old":  # nothing was renamed: readers never saw a new page
        assert verdict(root, before, after) == "old"
    with Memory.open(root, now=NOW) as memory:  # the next process: recovery on open
        assert verdict(root, before, after) == expect
        assert not (root / PAGES_INTENT).exists()
        assert list((root / "bank").rglob(".*.tmp")) == []
        memory.reflect(since="400d")  # and the run goes through once the fault is gone
    assert verdict(root, before, after) == "new"


def test_a_failed_rename_is_finished_by_the_next_open_and_undo_puts_everything_back(
        seeded: tuple[Path, Pages, Pages], monkeypatch: pytest.MonkeyPatch,
        run: Any) -> None:
    root, before, after = seeded
    with Memory.open(root, now=NOW) as memory, monkeypatch.context() as patch:
        failing(patch, "replace", _renames_a_page, nth=5)
        with pytest.raises(MemfoldError, match="next memfold command completes it"):
            memory.reflect(since="400d")
    assert (root / PAGES_INTENT).exists()  # committed, not yet finished
    result = run("status")  # any command finishes the set first
    assert result.exit_code == 0, result.output
    assert verdict(root, before, after) == "new"
    result = run("reflect", "--undo")
    assert result.exit_code == 0, result.output
    assert verdict(root, before, after) == "old"


def test_undo_after_an_atomic_run_puts_every_page_back(
        seeded: tuple[Path, Pages, Pages], run: Any) -> None:
    root, before, after = seeded
    with Memory.open(root, now=NOW) as memory:
        memory.reflect(since="400d")
    assert verdict(root, before, after) == "new"
    assert not (root / PAGES_INTENT).exists()
    assert sorted((root / "bank").rglob(".*")) == []  # no temporaries, no intent left
    result = run("reflect", "--undo")
    assert result.exit_code == 0, result.output
    assert verdict(root, before, after) == "old"


def test_a_page_edited_by_hand_before_recovery_keeps_the_edit(
        seeded: tuple[Path, Pages, Pages], monkeypatch: pytest.MonkeyPatch) -> None:
    root, before, after = seeded
    with Memory.open(root, now=NOW) as memory, monkeypatch.context() as patch:
        failing(patch, "replace", _renames_a_page, nth=1)
        with pytest.raises(MemfoldError):
            memory.reflect(since="400d")
    edited = sorted(after)[-1]
    (root / edited).write_text("# Mine\n\nWritten by hand.\n")
    with Memory.open(root, now=NOW):
        pass
    assert (root / edited).read_text() == "# Mine\n\nWritten by hand.\n"
    assert all((root / rel).read_bytes() == after[rel] for rel in after if rel != edited)
    assert not (root / PAGES_INTENT).exists()


def test_an_intent_naming_paths_outside_the_workspace_is_not_followed(
        workspace: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("keep\n")
    temp = workspace / "bank" / ".x.md.1.0123abcd.tmp"
    temp.write_text("evil\n")
    (workspace / PAGES_INTENT).write_text(
        '{"version": 1, "files": [{"path": "../outside.md", "temp": "../bank/x",'
        ' "before": null, "after": "0"}]}')
    with Memory.open(workspace, now=NOW):
        pass
    assert outside.read_text() == "keep\n"
    assert not (workspace / PAGES_INTENT).exists()
    assert REFLECT_INTENT == PAGES_INTENT


# -- kill -9 at random points -------------------------------------------------------------

CHILD = textwrap.dedent("""
    import os, sys, time
    import memfold.workspace.files as files
    from memfold.memory import Memory

    class SlowDisk:  # every fsync of a page or its directory takes 15 ms: a slow disk
        def __getattr__(self, name):
            real = getattr(os, name)
            if name == "fsync":
                def fsync(fd):
                    time.sleep(0.015)
                    return real(fd)
                return fsync
            if name == "open":
                def open_(path, *args, **kwargs):
                    if "/bank/" in str(path):
                        sys.stdout.write("writing\\n")
                        sys.stdout.flush()
                    return real(path, *args, **kwargs)
                return open_
            return real

    files.os = SlowDisk()
    with Memory.open(sys.argv[1], now=sys.argv[2]) as memory:
        memory.reflect(since="400d")
    print("done", flush=True)
""")


def reflect_killed(root: Path, delay: float) -> bool:
    """Run reflect in a child on a slow disk; SIGKILL it `delay` s after it starts writing
    pages.  True when the kill landed (the child had not finished)."""
    env = {**os.environ, "PYTHONPATH": str(SRC), "MEMFOLD_RECALL_MODE": "lexical"}
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(root), NOW], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None
    first = child.stdout.readline()
    if first == b"writing\n":
        time.sleep(delay)
    child.send_signal(signal.SIGKILL)
    out, err = child.communicate()
    assert first in (b"writing\n", b""), (first, err[-2000:])
    return b"done" not in first + out


def test_kill9_during_reflect_leaves_a_consistent_page_set_after_the_next_open(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    template = tmp_path / "template"
    Memory.init(template)
    seed(template)
    before, after = planned(template)
    window = 2 * 0.015 * len(after) + 0.1  # the page writes take about this long
    rng = random.Random(SEED)
    outcomes: dict[str, int] = {}
    problems = []
    for trial in range(KILL_TRIALS):
        root = tmp_path / f"t{trial}"
        shutil.copytree(template, root)
        killed = reflect_killed(root, rng.uniform(0, window))
        intent = (root / PAGES_INTENT).exists()
        with Memory.open(root, now=NOW):  # the next process
            state = verdict(root, before, after)
        key = f"{state}{' (rolled forward)' if intent else ''}{'' if killed else ' (finished)'}"
        outcomes[key] = outcomes.get(key, 0) + 1
        if state not in ("old", "new"):
            problems.append(f"trial {trial}: {state}")
    with capsys.disabled():
        print(f"\nreflect kill -9: trials={KILL_TRIALS} pages={len(after)} seed={SEED} "
              f"outcomes={dict(sorted(outcomes.items()))}")
    assert problems == []
    assert sum(n for k, n in outcomes.items() if "finished" not in k) >= KILL_TRIALS // 2
