"""Child processes measured whole: wall time, CPU time and peak resident memory.

A full rebuild measured in the benchmark's own process would carry the benchmark's memory
and miss the worker processes memfold starts for a large rebuild.  This module runs the work
in a fresh `python -c` child instead and measures it from outside and inside:

- wall — `time.perf_counter` from start to exit of the child, as a user waits for it;
- CPU — user plus system time of the child and every descendant it waited for (memfold's
  parse workers), the difference of `getrusage(RUSAGE_CHILDREN)` across the child's life;
- work — the seconds the child itself timed around the work (imports and start-up left out);
- peak RSS of the child — `VmHWM` of /proc/self/status, printed by the child at its end
  (`ru_maxrss` would carry the parent's peak over fork and exec on Linux; it is used only
  where there is no /proc);
- peak RSS of the process tree — the largest sum of the resident sets of the child and its
  descendants, sampled every `SAMPLE_SECONDS` from /proc while it runs (pages two processes
  share are counted in each, so this errs high; a peak between samples is missed, so it is
  never taken below the child's own peak).

The rebuild children: memfold's `Memory.open(ws).index(full=True)`, and `floor.load`
with floor.py loaded by path, so the floor's child never imports memfold.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import click

from . import floor

SAMPLE_SECONDS = 0.02
HEAD = "import json, os, resource, sys, time\n"
REPORT = (  # the child's last line: the seconds of its work and its own peak resident set
    "work = time.perf_counter() - started\n"
    "if os.path.exists('/proc/self/status'):\n"
    "    status = open('/proc/self/status').read()\n"
    "    peak = int(status.split('VmHWM:')[1].split()[0]) * 1024\n"
    "else:\n"
    "    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
    "print(json.dumps({'work_seconds': work, 'peak_rss': peak}))\n"
)
MEMFOLD_SETUP = "from memfold.memory import Memory\n"
MEMFOLD_REBUILD = "with Memory.open(sys.argv[1]) as m:\n    m.index(full=True, judge=False)\n"
FLOOR_SETUP = (  # floor.py loaded by path (argv[3]), so the child does not import memfold
    "import importlib.util\nfrom pathlib import Path\n"
    "spec = importlib.util.spec_from_file_location('floor', sys.argv[3])\n"
    "floor = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(floor)\n"
    "floor.remove_db(Path(sys.argv[2]))\n")
FLOOR_REBUILD = "floor.load(Path(sys.argv[1]), Path(sys.argv[2]))\n"
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
Json = dict[str, Any]


@dataclass(frozen=True)
class Child:
    """What one measured child process cost (seconds, bytes)."""

    wall_seconds: float
    cpu_seconds: float
    work_seconds: float
    peak_rss: int  # the child's own VmHWM
    tree_peak_rss: int  # the child and its descendants, sampled

    def to_dict(self) -> Json:
        return asdict(self)


def script(setup: str, work: str) -> str:
    """A child program: `setup` untimed, then `work` timed, then the report line."""
    return f"{HEAD}{setup}started = time.perf_counter()\n{work}{REPORT}"


def rebuild_argv(who: str, ws: Path, floor_db: Path) -> list[str]:
    """The child that rebuilds `who`'s index ("memfold" or "floor") from nothing."""
    if who == "memfold":
        return [sys.executable, "-c", script(MEMFOLD_SETUP, MEMFOLD_REBUILD), str(ws)]
    return [sys.executable, "-c", script(FLOOR_SETUP, FLOOR_REBUILD), str(ws), str(floor_db),
            floor.__file__]


def bare_argv() -> list[str]:
    """A child that does nothing: the interpreter's own cost."""
    return [sys.executable, "-c", script("", "")]


def tree_rss(pid: int) -> int:
    """The resident bytes of `pid` and all its descendants now (0 where there is no /proc)."""
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            with open(f"/proc/{current}/statm", encoding="ascii") as handle:
                total += int(handle.read().split()[1]) * PAGE
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children", encoding="ascii") as handle:
                    todo.extend(int(child) for child in handle.read().split())
        except (OSError, ValueError, IndexError):
            continue  # gone in the meantime, or no /proc
    return total


class TreeSampler:
    """Samples `tree_rss(pid)` on a thread until stopped; keeps the largest."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()

    def sample(self) -> None:
        while True:
            self.peak = max(self.peak, tree_rss(self.pid))
            if self.done.wait(SAMPLE_SECONDS):
                return

    def stop(self) -> int:
        self.done.set()
        self.thread.join()
        return self.peak


def cpu_of_children() -> float:
    import resource  # Unix only, like the measurement

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_child(argv: list[str], env: Mapping[str, str] | None = None) -> Child:
    """Run one child to its end and measure it; a failing child is a one-line error."""
    cpu_before = cpu_of_children()
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=None if env is None else dict(env))
    sampler = TreeSampler(proc.pid)
    try:
        out, err = proc.communicate()
    finally:
        tree_peak = sampler.stop()
    wall = time.perf_counter() - started
    cpu = cpu_of_children() - cpu_before
    if proc.returncode != 0:
        last = (err.strip().splitlines() or ["no message"])[-1]
        raise click.ClickException(f"a measured child process exited with {proc.returncode}: "
                                   f"{last}")
    report = json.loads(out.strip().splitlines()[-1])
    peak = int(report["peak_rss"])
    return Child(wall, cpu, float(report["work_seconds"]), peak, max(peak, tree_peak))
