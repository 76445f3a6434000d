"""`memfold bench index`: how fast memfold builds and syncs its index, beside the floor.

This module owns the measurement: for each corpus size it generates a workspace in a
temporary directory (not timed), then times with `time.perf_counter`, `--repeat` times:

1. full rebuild — `.memory/` deleted, `Memory.open(ws).index(full=True)` — against
   `floor.load` into a fresh SQLite file;
2. no-op sync — `Memory.open(ws).index()` with nothing changed — against `floor.stat_scan`;
3. incremental sync — `touch` 10 daily logs (not timed), then `Memory.open(ws).index()`.

Each memfold timing includes opening the workspace and its index, as one `memfold index`
command would.  Full rebuilds and no-op syncs also record CPU seconds (user and system, of this
process and of the children it joined — a rebuild's parse workers), so a figure won on the
second core shows as such.  The order of memfold and floor alternates between repeats (the
machine is shared and noisy) and the figures reported are medians; every sample is kept in
the JSON.
Touched files are given an mtime a little older than memfold's racy-stamp window, so each
incremental sample measures the 10 changed files and not a re-hash left over from the last.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click

from memfold import __version__
from memfold.index.sync import RACY_NS
from memfold.memory import Memory

from . import corpus, floor

TOUCHED = 10
AIMS = {
    "full_rebuild": "memfold's full rebuild within 2x of the floor's load",
    "noop_sync": "memfold's no-op sync near the floor's stat scan (it stats, doesn't hash)",
    "incremental_sync": "sync after 10 of 10,000 files changed under 0.3 s",
}
FULL_RATIO_AIM = 2.0
INCREMENTAL_AIM_S = 0.3
Log = Callable[[str], None]
Json = dict[str, Any]


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def cpu_seconds() -> float:
    """CPU time (user and system) of this process and of its children that have ended: a
    rebuild's parse workers are joined before it returns, so theirs counts too (in clock
    ticks: only a rebuild starts any)."""
    children = os.times()
    return time.process_time() + children.children_user + children.children_system


def timed_cpu(action: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds of one call."""
    cpu = cpu_seconds()
    wall = timed(action)
    return wall, cpu_seconds() - cpu


def stats(samples: list[float]) -> Json:
    return {"median": statistics.median(samples), "min": min(samples), "max": max(samples),
            "samples": samples}


def file_size(path: Path) -> int:
    return sum(os.path.getsize(f"{path}{s}") for s in ("", "-wal")
               if os.path.exists(f"{path}{s}"))


class Run:
    """One corpus in a temporary directory, and the samples taken on it."""

    def __init__(self, workdir: Path, files: int, seed: int,
                 entity_pages: int = corpus.ENTITY_PAGES) -> None:
        self.ws = workdir / "workspace"
        self.floor_db = workdir / "floor.sqlite"
        started = time.perf_counter()
        self.corpus = corpus.generate(self.ws, files=files, seed=seed, entity_pages=entity_pages)
        self.generate_s = time.perf_counter() - started
        self.seed = seed
        self.known = floor.stamps(self.ws)
        self.samples: dict[str, list[float]] = {}
        self.floor_bullets = 0
        self.noop_touched: list[int] = []

    def add(self, key: str, seconds: float | tuple[float, float]) -> None:
        """A sample: wall seconds, or (wall, CPU) seconds (the CPU kept as `key.cpu`)."""
        if isinstance(seconds, tuple):
            seconds, cpu = seconds
            self.samples.setdefault(f"{key}.cpu", []).append(cpu)
        self.samples.setdefault(key, []).append(seconds)

    def memfold_full(self) -> None:
        shutil.rmtree(self.ws / ".memory", ignore_errors=True)

        def rebuild() -> None:
            with Memory.open(self.ws) as memory:
                memory.index(full=True, judge=False)  # the index alone, as before judging
        self.add("full.memfold", timed_cpu(rebuild))

    def floor_full(self) -> None:
        floor.remove_db(self.floor_db)

        def load() -> None:
            self.floor_bullets = floor.load(self.ws, self.floor_db)
        self.add("full.floor", timed_cpu(load))

    def memfold_noop(self) -> None:
        def sync() -> None:
            with Memory.open(self.ws) as memory:
                self.noop_touched.append(memory.index().touched)
        self.add("noop.memfold", timed_cpu(sync))

    def floor_noop(self) -> None:
        self.add("noop.floor", timed_cpu(lambda: floor.stat_scan(self.ws, self.known)))

    def incremental(self, round_: int) -> int:
        """Touch `TOUCHED` files (not timed), then time the sync; returns files it changed."""
        backdated = time.time_ns() - RACY_NS - 1_000_000_000
        corpus.touch(self.ws, TOUCHED, seed=self.seed * 1000 + round_, mtime_ns=backdated)
        changed: list[int] = []

        def sync() -> None:
            with Memory.open(self.ws) as memory:
                changed.append(memory.index().touched)
        self.add("incremental.memfold", timed(sync))
        return changed[0]


def rotate(order: int, steps: Sequence[Callable[[], None]]) -> None:
    """Run `steps`, starting with the one `order` picks (each goes first in turn)."""
    start = order % len(steps)
    for step in [*steps[start:], *steps[:start]]:
        step()


def alternate(round_: int, first: Callable[[], None], second: Callable[[], None]) -> None:
    rotate(round_, (first, second))


def index_facts(ws: Path) -> tuple[Json, int]:
    """Fact counts of memfold's index (typed by kind, text chunks, warnings), index bytes."""
    with Memory.open(ws) as memory:
        counts = memory.index_backend.counts()
        location = Path(memory.index_backend.location)
    facts = {"typed": sum(counts.facts_by_kind.values()), "by_kind": counts.facts_by_kind,
             "text_chunks": counts.chunks, "entities": counts.entities,
             "warnings": counts.warnings}
    return facts, file_size(location)


def measure_size(files: int, seed: int, repeat: int, log: Log) -> Json:
    with tempfile.TemporaryDirectory(prefix="memfold-bench-") as tmp:
        log(f"{files} files: generating the corpus")
        run = Run(Path(tmp), files, seed)
        for round_ in range(repeat):
            log(f"{files} files: full rebuild and no-op sync, repeat {round_ + 1}/{repeat}")
            alternate(round_, run.memfold_full, run.floor_full)
            alternate(round_, run.memfold_noop, run.floor_noop)
        facts, index_bytes = index_facts(run.ws)
        floor_bytes = file_size(run.floor_db)
        log(f"{files} files: incremental sync after touching {TOUCHED} files")
        changed = [run.incremental(round_) for round_ in range(repeat)]
        return size_result(run, facts, {"memfold": index_bytes, "floor": floor_bytes}, changed)


def paired(run: Run, key: str) -> Json:
    mine, base = stats(run.samples[f"{key}.memfold"]), stats(run.samples[f"{key}.floor"])
    result = {"memfold": mine, "floor": base, "ratio": mine["median"] / base["median"]}
    if f"{key}.memfold.cpu" in run.samples:  # CPU seconds, parse workers included
        cpu_mine = stats(run.samples[f"{key}.memfold.cpu"])
        cpu_base = stats(run.samples[f"{key}.floor.cpu"])
        result["cpu"] = {"memfold": cpu_mine, "floor": cpu_base,
                         "ratio": cpu_mine["median"] / max(cpu_base["median"], 1e-9)}
    return result


def size_result(run: Run, facts: Json, index_bytes: dict[str, int], changed: list[int]) -> Json:
    return {
        "files": len(run.corpus.daily),
        "corpus": {"daily_files": len(run.corpus.daily),
                   "entity_pages": len(run.corpus.entity_pages),
                   "bytes": run.corpus.bytes, "bullets_written": run.corpus.bullets,
                   "generate_seconds": run.generate_s},
        "facts": {**facts, "floor_bullets": run.floor_bullets},
        "index_bytes": index_bytes,
        "full_rebuild": paired(run, "full"),
        "noop_sync": {**paired(run, "noop"), "files_touched": run.noop_touched},
        "incremental_sync": {"touched": TOUCHED,
                             "memfold": stats(run.samples["incremental.memfold"]),
                             "files_synced": changed},
    }


Decorator = Callable[[Callable[..., None]], Callable[..., None]]


def output_options(default_out: str) -> Decorator:
    """`--out FILE` and `--json`, the options every bench command shares."""
    def apply(command: Callable[..., None]) -> Callable[..., None]:
        command = click.option("--json", "as_json", is_flag=True,
                               help="Print the JSON instead of the table.")(command)
        return click.option("--out", default=default_out, show_default=True,
                            type=click.Path(dir_okay=False, path_type=Path),
                            help="Where to write the JSON.")(command)
    return apply


def corpus_options(files: str = "365,10000",
                   seed_help: str = "Seed of the generated corpus.") -> Decorator:
    """`--files N,N` and `--seed`, for the commands that measure generated corpora."""
    def apply(command: Callable[..., None]) -> Callable[..., None]:
        command = click.option("--seed", default=0, show_default=True, help=seed_help)(command)
        return click.option("--files", "files_text", default=files, show_default=True,
                            metavar="N,N",
                            help="Corpus sizes to measure: daily files, comma-separated.")(command)
    return apply


def save_result(result: Json, out: Path, *, as_json: bool) -> bool:
    """Write a benchmark's JSON to `out`; with `as_json` also print it and return True (the
    caller then prints no table)."""
    text = json.dumps(result, ensure_ascii=False, indent=2)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text + "\n", encoding="utf-8")
    if as_json:
        click.echo(text)
    return as_json


def environment() -> Json:
    return {"memfold": __version__, "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "sqlite": sqlite3.sqlite_version, "platform": platform.platform(),
            "machine": platform.machine(), "cpus": os.cpu_count()}


def verdicts(size: Json) -> Json:
    full, noop = size["full_rebuild"]["ratio"], size["noop_sync"]["ratio"]
    incremental = size["incremental_sync"]["memfold"]["median"]
    return {"full_rebuild_within_2x": full <= FULL_RATIO_AIM,
            "noop_sync_ratio": noop,
            "incremental_under_0_3s": incremental < INCREMENTAL_AIM_S}


def duration(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


Row = Callable[[str, Callable[[Json], str]], str]


def size_columns(sizes: list[Json], label: int, cell: int) -> Row:
    """A table row maker: a label, then one right-aligned cell per corpus size."""
    def row(name: str, value: Callable[[Json], str]) -> str:
        return f"{name:<{label}}" + "".join(f"{value(s):>{cell}}" for s in sizes)
    return row


def table(sizes: list[Json]) -> list[str]:
    """A compact table: one column per corpus size, medians."""
    row = size_columns(sizes, 24, 16)

    def med(section: str, who: str) -> Callable[[Json], str]:
        return lambda s: duration(s[section][who]["median"])

    def ratio(section: str) -> Callable[[Json], str]:
        return lambda s: f"{s[section]['ratio']:.2f}x"

    def cpu(section: str, who: str) -> Callable[[Json], str]:
        return lambda s: duration(s[section]["cpu"][who]["median"])

    return [
        row("files", lambda s: f"{s['files']:,}"),
        row("typed facts", lambda s: f"{s['facts']['typed']:,}"),
        row("floor bullets", lambda s: f"{s['facts']['floor_bullets']:,}"),
        row("index size", lambda s: f"{s['index_bytes']['memfold'] / 1e6:.1f} MB"),
        row("full rebuild  memfold", med("full_rebuild", "memfold")),
        row("              floor", med("full_rebuild", "floor")),
        row("              ratio", ratio("full_rebuild")),
        row("  CPU         memfold", cpu("full_rebuild", "memfold")),
        row("              floor", cpu("full_rebuild", "floor")),
        row("no-op sync    memfold", med("noop_sync", "memfold")),
        row("              floor", med("noop_sync", "floor")),
        row("              ratio", ratio("noop_sync")),
        row(f"{TOUCHED} changed     memfold", med("incremental_sync", "memfold")),
    ]


def aim_lines(sizes: list[Json]) -> list[str]:
    lines = []
    for size in sizes:
        v, n = size["verdicts"], f"{size['files']:,} files"
        lines.append(f"{n}: full rebuild {size['full_rebuild']['ratio']:.2f}x the floor "
                     f"({'meets' if v['full_rebuild_within_2x'] else 'misses'} the 2x aim); "
                     f"no-op sync {v['noop_sync_ratio']:.2f}x the floor; incremental "
                     f"{duration(size['incremental_sync']['memfold']['median'])} "
                     f"({'meets' if v['incremental_under_0_3s'] else 'misses'} the 0.3 s aim)")
    return lines


def parse_sizes(text: str) -> list[int]:
    try:
        sizes = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a comma-separated list of numbers") from None
    if not sizes or min(sizes) < 1:
        raise click.BadParameter("give at least one size, each 1 or more")
    return sizes


def run_benchmark(sizes: list[int], seed: int, repeat: int, log: Log) -> Json:
    results = []
    for files in sizes:
        size = measure_size(files, seed, repeat, log)
        size["verdicts"] = verdicts(size)
        results.append(size)
    return {
        "benchmark": "index",
        "checked_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "parameters": {"files": sizes, "seed": seed, "repeat": repeat, "touched": TOUCHED,
                       "statistic": "median", "argv": sys.argv[1:]},
        "environment": environment(),
        "aims": AIMS,
        "sizes": results,
    }


@click.command("index")
@corpus_options()
@click.option("--repeat", default=3, show_default=True, type=click.IntRange(min=1),
              help="Samples per measurement; the median is reported.")
@output_options("benchmarks/results/index.json")
def index_command(files_text: str, seed: int, repeat: int, out: Path, as_json: bool) -> None:
    """Time full rebuild, no-op sync and incremental sync of the index against a floor.

    Each size gets a generated workspace in a temporary directory; the figures are medians
    of --repeat samples, and the floor (a bare FTS5 load and a bare stat scan) is measured
    in the same run.

    \b
    Example:
      memfold bench index --files 365,10000 --repeat 3
    """
    sizes = parse_sizes(files_text)
    result = run_benchmark(sizes, seed, repeat, lambda msg: click.echo(msg, err=True))
    if save_result(result, out, as_json=as_json):
        return
    env = result["environment"]
    click.echo(f"memfold bench index: seed {seed}, medians of {repeat}; python {env['python']}, "
               f"sqlite {env['sqlite']}, {env['platform']}")
    for line in [*table(result["sizes"]), "", *aim_lines(result["sizes"])]:
        click.echo(line)
    click.echo(f"wrote {out}", err=True)
