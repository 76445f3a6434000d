"""A full rebuild's parse workers die with the `memfold index` that started them.

`memfold index --full` parses a large workspace in worker processes.  Killed with SIGKILL or
SIGTERM in the middle, it used to leave them running, reparented to PID 1, blocked on a pipe
and holding the caller's stdout open, so a supervisor reading that pipe waited for minutes.
Each test starts a real rebuild with stdout and stderr piped, waits until the workers are
parsing, kills the parent, and requires every child gone and both pipes at EOF within 2 s.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from memfold.index import sync as sync_module
from memfold.memory import Memory
from memfold_bench.corpus import generate

FILES = 3000  # over PARALLEL_MIN_FILES, and about 5 s of parsing on 2 cores
GRACE = 2.0  # seconds the children get to die, and the pipes to reach EOF
WORKER_CPU = 1.0  # seconds of CPU the workers have spent between them: past start-up, parsing
TICK = os.sysconf("SC_CLK_TCK")


@pytest.fixture(scope="module")
def big_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("big") / "ws"
    generate(root, files=FILES)
    return root


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name; None once the process is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def _alive(pid: int, started: str) -> bool:
    """Running and not a zombie, and the same process (its start time) as the one seen."""
    fields = _stat(pid)
    return fields is not None and fields[19] == started and fields[0] not in ("Z", "X")


def _children(pid: int) -> dict[int, str]:
    """The children of `pid`, each with its start time."""
    found: dict[int, str] = {}
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError):
                for child in Path(f"/proc/{pid}/task/{task}/children").read_text().split():
                    fields = _stat(int(child))
                    if fields is not None:
                        found[int(child)] = fields[19]
    return found


def _is_worker(pid: int) -> bool:
    with contextlib.suppress(OSError):
        return b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
    return False


def _cpu_seconds(pids: Iterator[int]) -> float:
    ticks = 0
    for pid in pids:
        fields = _stat(pid)
        if fields is not None:
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / TICK


def _wait_for_parsing(proc: subprocess.Popen[bytes]) -> dict[int, str]:
    """The parent's children once its workers have parsed for a while (the parent still busy)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the rebuild ended before its workers were seen"
        children = _children(proc.pid)
        workers = [pid for pid in children if _is_worker(pid)]
        if len(workers) >= 2 and _cpu_seconds(iter(workers)) >= WORKER_CPU:
            return children
        time.sleep(0.02)
    raise AssertionError("no worker processes started within 120 s")


def _read_to_eof(proc: subprocess.Popen[bytes], until: float) -> dict[str, bytes]:
    """Everything left on the child's stdout and stderr; a pipe still open at `until` is
    reported under its name with the key suffixed ' (open)'."""
    assert proc.stdout is not None and proc.stderr is not None
    pipes = {proc.stdout.fileno(): "stdout", proc.stderr.fileno(): "stderr"}
    got = {name: b"" for name in pipes.values()}
    while pipes and time.monotonic() < until:
        ready, _, _ = select.select(list(pipes), [], [], max(0.0, until - time.monotonic()))
        for fd in ready:
            data = os.read(fd, 65536)
            if data:
                got[pipes[fd]] += data
            else:
                del pipes[fd]
    for name in pipes.values():
        got[f"{name} (open)"] = got.pop(name)
    return got


def _kill_mid_rebuild(workspace: Path, signum: int) -> tuple[int, dict[str, bytes], list[int]]:
    """Start a full rebuild, kill it mid-way with `signum`; its exit status, what its pipes
    gave until EOF, and the children still alive GRACE seconds after it died."""
    proc = subprocess.Popen([sys.executable, "-m", "memfold", "--workspace", str(workspace),
                             "index", "--full"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    children: dict[int, str] = {}
    try:
        children = _wait_for_parsing(proc)
        proc.send_signal(signum)
        status = proc.wait(timeout=30)
        until = time.monotonic() + GRACE
        pipes = _read_to_eof(proc, until)
        while time.monotonic() < until and any(_alive(p, s) for p, s in children.items()):
            time.sleep(0.02)
        return status, pipes, [p for p, s in children.items() if _alive(p, s)]
    finally:  # never leave a process of this test behind, whatever the assertions say
        for pid, started in children.items():
            if _alive(pid, started):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()


def test_sigkill_leaves_no_worker_and_closes_the_callers_pipes(big_workspace: Path) -> None:
    status, pipes, survivors = _kill_mid_rebuild(big_workspace, signal.SIGKILL)
    assert status == -signal.SIGKILL
    assert survivors == [], f"children still running {GRACE} s after the parent died"
    assert set(pipes) == {"stdout", "stderr"}, f"pipes still open {GRACE} s later: {pipes}"


def test_sigterm_stops_the_workers_and_exits_143(big_workspace: Path) -> None:
    status, pipes, survivors = _kill_mid_rebuild(big_workspace, signal.SIGTERM)
    assert status == 143
    assert pipes.get("stderr", b"").decode().strip().splitlines()[-1:] == ["memfold: terminated"]
    assert pipes.get("stdout") == b""
    assert survivors == [], f"children still running {GRACE} s after the parent exited"


def test_a_rebuild_with_workers_indexes_what_a_serial_one_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The parallel path (its workers start with the death signal and without the caller's
    output) gives the same index as reading the files in this process."""
    generate(tmp_path / "ws", files=60)
    with Memory.open(tmp_path / "ws", now="2025-12-01") as memory:
        serial = memory.index(full=True)
        facts = memory.recall("Peter", k=50).to_dict()
        monkeypatch.setattr(sync_module, "PARALLEL_MIN_FILES", 10)
        parallel = memory.index(full=True)
        assert parallel.to_dict() | {"seconds": 0} == serial.to_dict() | {"seconds": 0}
        assert memory.recall("Peter", k=50).to_dict() == facts
