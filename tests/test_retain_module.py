"""Retain's write path (memfold.retain): a block id the caller gives is checked under the
write lock, in the same hold as the append, so two processes racing to retain the same
explicit ^id cannot both store it.

The race is made certain rather than left to chance: this test holds the workspace write
lock while two retaining processes start, waits until the kernel lists both as blocked on
that lock (/proc/locks), then lets go.  Whatever each process checked before asking for the
lock, it checked while neither had written.
"""

from __future__ import annotations

import json
import multiprocessing
import time
from multiprocessing.queues import Queue
from pathlib import Path

from memfold.journal.log import JOURNAL_NAME
from memfold.memory import Memory
from memfold.workspace.layout import Workspace

RACED = "race0001"
DAYS = {"a": "2025-11-27", "b": "2025-11-28"}  # different files: only the index can tell


def _retainer(root: str, tag: str, out: Queue[tuple[str, str, str]]) -> None:
    try:
        with Memory.open(root, now="2025-12-01T12:00:00+00:00") as memory:
            result = memory.retain(f"W @Ann: writer {tag} was here ^{RACED}", date=DAYS[tag])
            out.put((tag, "ok", result.path))
    except Exception as exc:  # noqa: BLE001 - reported to the parent
        out.put((tag, type(exc).__name__, str(exc)))


def _waiters(lock: Path) -> int:
    """How many flock requests on `lock` the kernel lists as blocked."""
    suffix = f":{lock.stat().st_ino}"
    count = 0
    for line in Path("/proc/locks").read_text().splitlines():
        fields = line.split()
        if "->" in fields and any(f.endswith(suffix) for f in fields):
            count += 1
    return count


def test_two_processes_racing_to_retain_the_same_id_one_wins(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        memory.index()  # the index exists before the race, as in a workspace in use
    context = multiprocessing.get_context("spawn")
    out: Queue[tuple[str, str, str]] = context.Queue()
    lock = Workspace(workspace).write_lock
    with lock.held():
        procs = [context.Process(target=_retainer, args=(str(workspace), tag, out))
                 for tag in DAYS]
        for proc in procs:
            proc.start()
        deadline = time.monotonic() + 120
        while _waiters(lock.path) < 2 and time.monotonic() < deadline:
            assert all(p.is_alive() for p in procs), "a writer ended before the lock"
            time.sleep(0.02)
        assert _waiters(lock.path) == 2
    for proc in procs:
        proc.join(60)
    results = {tag: (kind, text) for tag, kind, text in (out.get(timeout=5) for _ in DAYS)}

    winners = [tag for tag, (kind, _) in results.items() if kind == "ok"]
    assert len(winners) == 1, results
    loser = next(tag for tag in DAYS if tag not in winners)
    kind, message = results[loser]
    assert kind == "BadInput"
    assert f"block id ^{RACED} is already used at memory/{DAYS[winners[0]]}.md" in message
    # nothing duplicated: one line in the Markdown, one row in the index, one retain event
    assert not (workspace / f"memory/{DAYS[loser]}.md").exists()
    lines = [line for path in sorted((workspace / "memory").glob("*.md"))
             for line in path.read_text().splitlines() if f"^{RACED}" in line]
    assert lines == [f"- W @Ann: writer {winners[0]} was here ^{RACED}"]
    events = [json.loads(line) for line in (workspace / JOURNAL_NAME).read_text().splitlines()]
    assert [e["by"] for e in events if e["event"] == "retain" and RACED in e["ids"]] == ["api"]
    with Memory.open(workspace) as memory:
        hit = memory.get(RACED, use=False)
        assert hit.fact.content == f"writer {winners[0]} was here"
        assert not [w for w in memory.link_warnings() if RACED in w.message]
    assert all(proc.exitcode == 0 for proc in procs)
