"""Two real processes racing one compare-and-set on the same record of a lab store.

`race(kind, lab)` starts two writer processes (`python -m memfold_bench.lab_race KIND LAB`).
KIND is `json` or `sqlite` (LAB is the lab directory) or `memfold` (LAB is the workspace,
opened with `Memory.open`; the revision is `Memory.get(id, use=False).rev` and the
compare-and-set is `Memory.note(id, text, rev=N)`, whose `StaleRevision` is the loss).
Each opens the store on its own, reads the record's revision and reports `ready rev=N`; only
when both have read does the parent send `go`, and each then tries to set the note at the
revision it read, printing `applied` or `stale`.  Both read before either writes, so exactly
one may win; the caller checks that, and that the store agrees.

The children are killed and reaped in `finally`, whatever happened.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from memfold.memory import Memory

from . import import_roots
from .lab_memfold import read_held, set_note
from .lab_stores import open_store

RACE_KEY = 0
RACE_NOTE = "reviewed by a racing writer"
READY = "ready rev="
WAIT_S = 15.0


@dataclass(frozen=True)
class RaceResult:
    read: list[int]  # the revision each writer read before `go`
    outcomes: list[str]  # what each writer printed after it, sorted


def _env() -> dict[str, str]:
    """The children import this same memfold, installed or not."""
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([*import_roots(), *filter(None, [path])])}


def _spawn(kind: str, lab: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "memfold_bench.lab_race", kind, str(lab)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=_env())


def _ready(writer: subprocess.Popen[str]) -> int:
    assert writer.stdout is not None
    if not select.select([writer.stdout], [], [], WAIT_S)[0]:
        raise RuntimeError(f"a writer was not ready within {WAIT_S:.0f} s")
    line = writer.stdout.readline().strip()
    if not line.startswith(READY):
        raise RuntimeError(f"a writer said {line!r} instead of {READY}N")
    return int(line[len(READY):])


def _go(writer: subprocess.Popen[str]) -> None:
    assert writer.stdin is not None
    writer.stdin.write("go\n")
    writer.stdin.flush()


def _outcome(writer: subprocess.Popen[str]) -> str:
    out, err = writer.communicate(timeout=WAIT_S)
    if writer.returncode != 0 or err.strip():
        raise RuntimeError(f"a writer failed (exit {writer.returncode}): {err.strip()[-300:]}")
    return out.strip()


def _stop(writer: subprocess.Popen[str]) -> None:
    if writer.poll() is None:
        writer.kill()
    writer.wait(timeout=WAIT_S)
    for stream in (writer.stdin, writer.stdout, writer.stderr):
        if stream is not None:
            stream.close()


def race(kind: str, lab: Path) -> RaceResult:
    """Start two writers, let both read, then release them at once; report what each did."""
    writers: list[subprocess.Popen[str]] = []
    try:
        writers = [_spawn(kind, lab) for _ in range(2)]
        read = [_ready(w) for w in writers]
        for writer in writers:
            _go(writer)
        return RaceResult(read=read, outcomes=sorted(_outcome(w) for w in writers))
    finally:
        for writer in writers:
            _stop(writer)


def memfold_writer(workspace: str) -> int:
    """The memfold writer: the same steps through `Memory`'s public API."""
    with Memory.open(workspace) as memory:
        rev = read_held(memory, RACE_KEY)["rev"]
        print(f"{READY}{rev}", flush=True)
        if sys.stdin.readline().strip() != "go":
            return 2
        print("applied" if set_note(memory, RACE_KEY, rev, RACE_NOTE) else "stale", flush=True)
        return 0


def writer(kind: str, lab: str) -> int:
    """One racing writer: read the revision, wait for `go`, compare-and-set at it."""
    if kind == "memfold":
        return memfold_writer(lab)
    store = open_store(kind, Path(lab))
    try:
        rev = store.get(RACE_KEY)["rev"]
        print(f"{READY}{rev}", flush=True)
        if sys.stdin.readline().strip() != "go":
            return 2
        print("applied" if store.cas(RACE_KEY, rev, RACE_NOTE) else "stale", flush=True)
        return 0
    finally:
        store.close()


if __name__ == "__main__":
    sys.exit(writer(sys.argv[1], sys.argv[2]))
