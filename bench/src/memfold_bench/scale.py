"""`memfold bench scale`: what memfold costs at a given size, each figure beside its floor.

For each corpus size this module generates the seeded workspace of `corpus.generate` in a
temporary directory (not timed) and measures, with `time.perf_counter`:

- full rebuild — `Memory.open(ws).index(full=True)` after deleting `.memory/`, against
  `floor.load` (both from `index_bench.Run`), `--repeat` times;
- incremental sync — `corpus.touch` of 10 daily logs (not timed), then `Memory.open(ws)
  .index()`, against the floor's sync: `floor.stamps`, re-read the changed logs and replace
  their rows (the floor keeps its rows' ids by path in memory, as it keeps the stamps);
- retain — `Memory.retain` of one bullet into the last day's log by a long-lived `Memory`,
  `RETAINS` times per repeat, against appending the line to a file (with fsync) and
  inserting it into the floor's table in one transaction;
- recall, in-process and warm — a long-lived `Memory` (one warm-up call first), then
  `memory.recall(q, k=10)` per query, against one open connection running the plain FTS5
  query: the query's words quoted, OR-ed, `ORDER BY rank LIMIT 10`;
- recall, whole process — the `memfold` console script beside the interpreter,
  `memfold --workspace WS recall Q --k 10 --json`, for `CLI_QUERIES` of the queries, against
  `python -c` opening the floor's file and running the same plain query;
- peak memory — the peak resident set a child process reports at the end of its full rebuild
  (`VmHWM` of /proc/self/status: on Linux `ru_maxrss` would include the parent's peak, which
  survives fork and exec; `ru_maxrss` where there is no /proc), against a child running
  `floor.load` (floor.py loaded by path, without importing memfold); a bare interpreter's
  figure is kept beside them;
- index size — memfold's index file (with its WAL) against the floor's.

Queries are drawn with the seed from the corpus's own bullets: two content words of one
bullet, so every query has answers.  Timings are medians, recall p50 and p95 (linear
interpolation); the order of memfold and floor alternates between samples, and every sample
is kept in the JSON.
"""

from __future__ import annotations

import functools
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, TextIO

import click

from memfold.memory import Memory
from memfold.names import STOP_WORDS

from . import corpus, floor
from .index_bench import (
    TOUCHED,
    Run,
    alternate,
    corpus_options,
    duration,
    environment,
    file_size,
    index_facts,
    output_options,
    paired,
    parse_sizes,
    save_result,
    timed,
)
from .processes import bare_argv, rebuild_argv, run_child
from .recall_bench import percentile

K = 10
QUERIES = 40
CLI_QUERIES = 10
RETAINS = 20
SKIP = STOP_WORDS | frozenset(corpus.FUNCTION_WORDS)
Log = Callable[[str], None]
Json = dict[str, Any]


# -- queries and statistics ----------------------------------------------------------------


def query_words(bullet: str) -> list[str]:
    content = bullet.partition(": ")[2]
    words = (w.strip(".,;()").casefold() for w in content.split())
    return list(dict.fromkeys(w for w in words if w.isalpha() and len(w) > 3 and w not in SKIP))


def build_queries(ws: Path, seed: int, count: int = QUERIES) -> list[str]:
    """`count` queries of two content words, each pair from one bullet of the corpus."""
    rng = random.Random(seed)
    daily = sorted(floor.daily_files(ws))
    queries: list[str] = []
    while len(queries) < count:
        text = (ws / rng.choice(daily)).read_text(encoding="utf-8")
        words = query_words(rng.choice(floor.retain_bullets(text) or ["-"]))
        if len(words) >= 2:
            queries.append(" ".join(rng.sample(words, 2)))
    return queries


def floor_fts(query: str) -> str:
    return " OR ".join(f'"{w}"' for w in dict.fromkeys(query.split()))


def spread(samples: list[float]) -> Json:
    return {"p50": percentile(samples, 0.5), "p95": percentile(samples, 0.95),
            "min": min(samples), "max": max(samples), "samples": samples}


def paired_spread(run: Run, key: str) -> Json:
    mine, base = spread(run.samples[f"{key}.memfold"]), spread(run.samples[f"{key}.floor"])
    return {"memfold": mine, "floor": base, "ratio_p50": mine["p50"] / base["p50"],
            "ratio_p95": mine["p95"] / base["p95"]}


# -- incremental sync and retain -------------------------------------------------------------


class FloorState:
    """What the floor keeps between syncs: file stamps and its rows' ids by path."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self.known = floor.stamps(run.ws)
        db = sqlite3.connect(run.floor_db)
        self.rows: dict[str, list[int]] = {}
        for rowid, path in db.execute("SELECT rowid, path FROM bullets"):
            self.rows.setdefault(path, []).append(rowid)
        db.close()

    def sync(self) -> int:
        """Replace the rows of every daily log whose stamp changed; returns how many."""
        now = floor.stamps(self.run.ws)
        changed = [p for p, s in now.items() if self.known.get(p) != s and p.startswith("memory/")]
        db = sqlite3.connect(self.run.floor_db, isolation_level=None)
        db.execute("BEGIN")
        for path in changed:
            db.executemany("DELETE FROM bullets WHERE rowid = ?",
                           [(r,) for r in self.rows.pop(path, [])])
            text = (self.run.ws / path).read_text(encoding="utf-8")
            self.rows[path] = [db.execute(floor.INSERT, (body, path, line)).lastrowid or 0
                               for body, line in floor.retain_lines(text)]
        db.execute("COMMIT")
        db.close()
        self.known = now
        return len(changed)


def measure_incremental(run: Run, repeat: int) -> list[int]:
    """Touch and sync `repeat` times: memfold (with `Run.incremental`), then the floor."""
    state = FloorState(run)
    changed = []
    for round_ in range(repeat):
        changed.append(run.incremental(round_))
        run.add("incremental.floor", timed(state.sync))
    return changed


def sample_pair(run: Run, order: int, key: str, ours: Callable[[], object],
                base: Callable[[], object]) -> None:
    """Time memfold and the floor once each, in an order that alternates with `order`."""
    alternate(order, lambda: run.add(f"{key}.memfold", timed(ours)),
              lambda: run.add(f"{key}.floor", timed(base)))


def floor_retain(db: sqlite3.Connection, handle: TextIO, line: str, number: int) -> None:
    """The floor's retain: append the line durably, then insert it (with its line number) in
    one transaction."""
    handle.write(f"- {line}\n")
    handle.flush()
    os.fsync(handle.fileno())
    db.execute("BEGIN")
    db.execute(floor.INSERT, (line, "floor-retain.md", number))
    db.execute("COMMIT")


def measure_retain(run: Run, repeat: int) -> None:
    db = sqlite3.connect(run.floor_db, isolation_level=None)
    side = run.ws.parent / "floor-retain.md"
    with Memory.open(run.ws) as memory, open(side, "a", encoding="utf-8") as handle:
        memory.retain("B: a warm-up bullet.", date=corpus.END_DAY)
        for n in range(repeat * RETAINS):
            line = f"B @Ada: Retained bullet number {n} for the latency sample."
            sample_pair(run, n, "retain",
                        functools.partial(memory.retain, line, date=corpus.END_DAY),
                        functools.partial(floor_retain, db, handle, line, n + 1))
    db.close()


# -- recall ------------------------------------------------------------------------------------


def floor_query(db: sqlite3.Connection, fts: str) -> list[Any]:
    return db.execute(floor.SEARCH, (fts,)).fetchall()


def measure_recall_in_process(run: Run, queries: Sequence[str], repeat: int,
                              now: str | None = None) -> None:
    db = sqlite3.connect(run.floor_db)
    with Memory.open(run.ws, now=now) as memory:
        memory.recall(queries[0], k=K)  # arms the change feed, stats every file once
        floor_query(db, floor_fts(queries[0]))
        for round_ in range(repeat):
            for q in queries:
                sample_pair(run, round_, "recall", functools.partial(memory.recall, q, k=K),
                            functools.partial(floor_query, db, floor_fts(q)))
    db.close()


def console_script() -> list[str]:
    """The `memfold` console script installed beside this interpreter (else `-m memfold`)."""
    script = Path(sys.executable).parent / "memfold"
    return [str(script)] if script.exists() else [sys.executable, "-m", "memfold"]


def run_process(argv: list[str], env: dict[str, str] | None = None) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, check=False, env=env)
    if done.returncode != 0:
        raise click.ClickException(f"{' '.join(argv[:3])} ... failed: {done.stderr.strip()}")
    return done.stdout


def measure_recall_cli(run: Run, queries: Sequence[str], repeat: int) -> None:
    memfold = console_script()
    for round_ in range(repeat):
        for q in queries:
            ours = [*memfold, "--workspace", str(run.ws), "recall", q, "--k", str(K), "--json"]
            base = [sys.executable, "-c", floor.SEARCH_SCRIPT, str(run.floor_db), floor_fts(q)]
            sample_pair(run, round_, "cli", functools.partial(run_process, ours),
                        functools.partial(run_process, base))


# -- peak memory ---------------------------------------------------------------------------------


def peak_memory(run: Run) -> Json:
    """Peak RSS of a child process at the end of its full rebuild (bytes), memfold and floor."""
    shutil.rmtree(run.ws / ".memory", ignore_errors=True)
    ours = run_child(rebuild_argv("memfold", run.ws, run.floor_db)).peak_rss
    base = run_child(rebuild_argv("floor", run.ws, run.floor_db)).peak_rss
    bare = run_child(bare_argv()).peak_rss
    return {"method": "peak resident set (VmHWM of /proc/self/status; ru_maxrss where there "
                      "is no /proc) of a child Python process after its full rebuild; the "
                      "floor's child imports floor.py alone",
            "memfold": ours, "floor": base, "ratio": ours / base, "bare_python": bare}


# -- one size, the whole run ---------------------------------------------------------------------


def measure_size(files: int, seed: int, repeat: int, log: Log) -> Json:
    with tempfile.TemporaryDirectory(prefix="memfold-scale-") as tmp:
        log(f"{files} files: generating the corpus")
        run = Run(Path(tmp), files, seed)
        for round_ in range(repeat):
            log(f"{files} files: full rebuild, repeat {round_ + 1}/{repeat}")
            alternate(round_, run.memfold_full, run.floor_full)
        facts, index_bytes = index_facts(run.ws)
        sizes = {"memfold": index_bytes, "floor": file_size(run.floor_db)}
        log(f"{files} files: peak memory of a full rebuild")
        memory = peak_memory(run)
        log(f"{files} files: incremental sync of {TOUCHED} changed files")
        changed = measure_incremental(run, repeat)
        queries = build_queries(run.ws, seed)
        log(f"{files} files: recall in-process ({len(queries)} queries x {repeat})")
        measure_recall_in_process(run, queries, repeat)
        log(f"{files} files: recall as a whole process ({CLI_QUERIES} queries x {repeat})")
        measure_recall_cli(run, queries[:CLI_QUERIES], repeat)
        log(f"{files} files: retain ({RETAINS} bullets x {repeat})")
        measure_retain(run, repeat)
        return size_result(run, facts, sizes, memory, changed)


def size_result(run: Run, facts: Json, sizes: dict[str, int], memory: Json,
                changed: list[int]) -> Json:
    return {
        "files": len(run.corpus.daily),
        "corpus": {"daily_files": len(run.corpus.daily), "bytes": run.corpus.bytes,
                   "bullets_written": run.corpus.bullets},
        "facts": {**facts, "floor_bullets": run.floor_bullets},
        "full_rebuild": paired(run, "full"),
        "incremental_sync": {**paired(run, "incremental"), "touched": TOUCHED,
                             "files_synced": changed},
        "retain": paired(run, "retain"),
        "recall_in_process": paired_spread(run, "recall"),
        "recall_cli": paired_spread(run, "cli"),
        "peak_memory_bytes": memory,
        "index_bytes": {**sizes, "ratio": sizes["memfold"] / sizes["floor"]},
    }


def run_benchmark(sizes: list[int], seed: int, repeat: int, log: Log) -> Json:
    return {
        "benchmark": "scale",
        "checked_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "parameters": {"files": sizes, "seed": seed, "repeat": repeat, "touched": TOUCHED,
                       "k": K, "queries": QUERIES, "cli_queries": CLI_QUERIES,
                       "retains_per_repeat": RETAINS, "retain_day": date.isoformat(
                           corpus.END_DAY), "argv": sys.argv[1:]},
        "environment": environment(),
        "sizes": [measure_size(files, seed, repeat, log) for files in sizes],
    }


# -- the table -----------------------------------------------------------------------------------


def megabytes(n: float) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{n / 1e3:.0f} kB"


def rows_for(size: Json) -> list[tuple[str, str, str, str]]:
    def med(key: str) -> tuple[str, str, str, str]:
        s = size[key]
        return (key.replace("_", " "), duration(s["memfold"]["median"]),
                duration(s["floor"]["median"]), f"{s['ratio']:.2f}x")

    def pct(key: str, p: str) -> tuple[str, str, str, str]:
        s = size[key]
        return (f"{key.replace('_', ' ')} {p}", duration(s["memfold"][p]),
                duration(s["floor"][p]), f"{s[f'ratio_{p}']:.2f}x")

    mem, idx = size["peak_memory_bytes"], size["index_bytes"]
    return [med("full_rebuild"), med("incremental_sync"), med("retain"),
            pct("recall_in_process", "p50"), pct("recall_in_process", "p95"),
            pct("recall_cli", "p50"), pct("recall_cli", "p95"),
            ("peak memory (RSS)", megabytes(mem["memfold"]), megabytes(mem["floor"]),
             f"{mem['ratio']:.2f}x"),
            ("index size", megabytes(idx["memfold"]), megabytes(idx["floor"]),
             f"{idx['ratio']:.2f}x")]


def table(sizes: list[Json]) -> list[str]:
    lines = []
    for size in sizes:
        lines.append(f"{size['files']:,} files, {size['facts']['floor_bullets']:,} bullets"
                     f"{'memfold':>14}{'floor':>14}{'ratio':>10}")
        lines.extend(f"  {label:<28}{a:>14}{b:>14}{r:>10}" for label, a, b, r in rows_for(size))
    return lines


@click.command("scale")
@corpus_options()
@click.option("--repeat", default=3, show_default=True, type=click.IntRange(min=1),
              help="Samples per measurement (recall: rounds over the query set).")
@output_options("benchmarks/results/scale.json")
def scale_command(files_text: str, seed: int, repeat: int, out: Path, as_json: bool) -> None:
    """Rebuild, sync, retain, recall, memory and size at scale, each beside its floor.

    Each size gets a generated workspace in a temporary directory; the floor is the least
    work that does the same job on the same bullets, measured in the same run.

    \b
    Example:
      memfold bench scale --files 365,10000 --repeat 3
    """
    result = run_benchmark(parse_sizes(files_text), seed, repeat,
                           lambda msg: click.echo(msg, err=True))
    if save_result(result, out, as_json=as_json):
        return
    env = result["environment"]
    click.echo(f"memfold bench scale: seed {seed}, repeat {repeat}; python {env['python']}, "
               f"sqlite {env['sqlite']}, {env['platform']}")
    for line in table(result["sizes"]):
        click.echo(line)
    click.echo(f"wrote {out}", err=True)
