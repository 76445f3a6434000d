"""`memfold bench sidebyside`: memfold beside the floor in one run, one table, with ratios.

The acceptance instrument for "speed near the floor".  One seeded workspace is generated in a
temporary directory (`corpus.generate`, not timed); the floor (floor.py: a plain FTS5 table
of the Retain bullets, a stat scan) and memfold are then measured on it in the same run,
their order alternating (or rotating) between samples, because the machine may be shared:

- cold index — the whole index built from nothing in a fresh child process, `--repeat`
  times (processes.py): wall time of the child, its CPU time with its workers', and the
  peak resident set of its process tree (the child's own `VmHWM` is kept beside it);
- no-op sync — `Memory.open(ws).index()` with nothing changed against `floor.stat_scan`,
  `NOOP_SAMPLES` per repeat, after one untimed call;
- 10 files changed — `corpus.touch` of 10 daily logs (not timed), then memfold's sync
  against the floor's (scale.py's `measure_incremental`), `--repeat` times;
- recall in-process — one long-lived `Memory` against one open connection running the plain
  FTS5 query (scale.py), every query `--repeat` times; wall time, and beside it each call's
  CPU time (the calling thread's), which a busy machine sways far less;
- recall as a whole process, one-shot — `memfold --workspace WS --as-of T recall Q --k 10
  --json` with MEMFOLD_WARM=off, against `python -c floor.SEARCH_SCRIPT`;
- recall as a whole process, warm — the same command answered by a resident process
  (`memfold warm start` first, then one untimed recall, `memfold warm stop` at the end;
  MEMFOLD_WARM=on, so a recall it does not answer runs one-shot and shows in the served
  count).  The resident process's socket lives in a directory of this run
  (MEMFOLD_WARM_DIR), so no other memfold on the machine is used, started or stopped.
  Where `memfold warm start` fails, the row is null with the reason;
- hit@10 and MRR@10 — `--queries` queries with planted answers (below), scored on the
  in-process results of both sides by the answer's path and line;
- index size — memfold's index file with its WAL against the floor's.

The whole-process rows take `CLI_QUERIES` of each class's queries per repeat, one-shot, warm and
floor taking turns to go first.  Timings are p50 (p95 beside them) of every sample, linear
interpolation; every sample is kept in the JSON.  The ratio is memfold over floor.

Planted answers and the query classes (rare words, entity topic, natural questions,
multi-word, what/which questions): `sidebyside_queries`.  `--queries` queries of each class;
the in-process and whole-process rows, hit@10 and MRR@10 are given for each class and for
all of them pooled.
"""

from __future__ import annotations

import functools
import json
import os
import platform
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click

from memfold.memory import Memory

from . import corpus, floor
from .index_bench import (
    TOUCHED,
    Run,
    alternate,
    environment,
    file_size,
    index_facts,
    output_options,
    rotate,
    save_result,
    timed,
)
from .processes import rebuild_argv, run_child
from .recall_bench import AS_OF, bytecode, ms, source
from .scale import (
    console_script,
    floor_query,
    measure_incremental,
    megabytes,
    run_process,
    spread,
)
from .sidebyside_queries import CLASSES, Planted, plant_classes

K = 10
CLI_QUERIES = 10  # per class and repeat: each class's whole-process rows get 30 samples
NOOP_SAMPLES = 5  # per repeat: a no-op sync is cheap
CONTROL_TIMEOUT = 60.0  # seconds a `memfold warm ...` command may take
Log = Callable[[str], None]
Json = dict[str, Any]


# -- planted answers (sidebyside_queries) -----------------------------------------------


def rank_of(answer: str, found: Sequence[str]) -> int | None:
    """The 1-based rank of `answer` among the first K of `found`, or None."""
    top = list(found[:K])
    return top.index(answer) + 1 if answer in top else None


def score(answers: Sequence[str], found: Sequence[Sequence[str]]) -> Json:
    """hit@K and MRR@K of result lists (citations `path#Lline`) against their answers."""
    ranks = [rank_of(a, f) for a, f in zip(answers, found, strict=True)]
    n = len(ranks) or 1
    return {"hit_at_10": sum(r is not None for r in ranks) / n,
            "mrr_at_10": sum(1 / r for r in ranks if r) / n, "ranks": ranks}


def in_process_results(run: Run, queries: Sequence[Planted]) -> tuple[list[list[str]],
                                                                      list[list[str]]]:
    """The first K citations of each query: memfold's (a long-lived Memory), the floor's."""
    with Memory.open(run.ws, now=AS_OF) as memory:
        ours = [[hit.fact.source for hit in memory.recall(q.text, k=K).hits] for q in queries]
    db = sqlite3.connect(run.floor_db)
    try:
        base = [[f"{path}#L{line}" for path, line, _ in
                 db.execute(floor.SEARCH, (q.floor,))] for q in queries]
    finally:
        db.close()
    return ours, base


def timed_thread(action: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds of one call, the CPU time this thread's (`time.thread_time`, to
    the nanosecond): an in-process recall runs in the caller's thread, and its CPU time
    moves far less than its wall time with what else the machine runs."""
    cpu = time.thread_time()
    wall = timed(action)
    return wall, time.thread_time() - cpu


def measure_in_process(run: Run, queries: Sequence[Planted], repeat: int) -> None:
    """Time every query `repeat` times on one long-lived Memory and one open floor
    connection, the side going first alternating; each sample is kept pooled (`recall`)
    and under its class (`recall:CLASS`), its CPU time beside it (`recall.cpu`).  The
    first round's samples are also kept apart (`recall_first`): each query asked for the
    first time, so what recall keeps across questions (`recall.versioned`, the readings of
    fact texts) holds only what the questions before it met, never the same question's."""
    def pair(order: int, q: Planted, ours: Callable[[], object],
             base: Callable[[], object], first: bool) -> None:
        def add(who: str, call: Callable[[], object]) -> Callable[[], None]:
            def go() -> None:
                wall, cpu = timed_thread(call)
                run.add(f"recall.{who}", wall)
                run.add(f"recall:{q.kind}.{who}", wall)
                run.add(f"recall_cpu.{who}", cpu)
                run.add(f"recall_cpu:{q.kind}.{who}", cpu)
                if first:
                    run.add(f"recall_first.{who}", wall)
                    run.add(f"recall_first:{q.kind}.{who}", wall)
            return go
        alternate(order, add("memfold", ours), add("floor", base))

    db = sqlite3.connect(run.floor_db)
    try:
        with Memory.open(run.ws, now=AS_OF) as memory:
            memory.recall(queries[0].text, k=K)  # arms the change feed, stats every file once
            floor_query(db, queries[0].floor)
            for round_ in range(repeat):
                for n, q in enumerate(queries):
                    pair(round_ + n, q, functools.partial(memory.recall, q.text, k=K),
                         functools.partial(floor_query, db, q.floor), round_ == 0)
    finally:
        db.close()


# -- cold index --------------------------------------------------------------------------------


def measure_cold(run: Run, repeat: int, env: dict[str, str], log: Log) -> Json:
    """Build each index from nothing in a child process, `repeat` times, alternating."""
    children: dict[str, list[Json]] = {"memfold": [], "floor": []}

    def build(who: str) -> None:
        if who == "memfold":
            shutil.rmtree(run.ws / ".memory", ignore_errors=True)
        child = run_child(rebuild_argv(who, run.ws, run.floor_db), env)
        run.add(f"cold.{who}", child.wall_seconds)
        run.add(f"cold_cpu.{who}", child.cpu_seconds)
        run.add(f"cold_rss.{who}", child.tree_peak_rss)
        run.add(f"cold_rss_child.{who}", child.peak_rss)
        run.add(f"cold_work.{who}", child.work_seconds)
        children[who].append(child.to_dict())

    for round_ in range(repeat):
        log(f"cold index in child processes, repeat {round_ + 1}/{repeat}")
        alternate(round_, lambda: build("memfold"), lambda: build("floor"))
    return children


# -- whole processes ---------------------------------------------------------------------------


def memfold_command(env: dict[str, str]) -> tuple[list[str], str | None]:
    """The `memfold` console script if it runs here, else `python -m memfold` and why."""
    script = console_script()
    done = subprocess.run([*script, "--version"], capture_output=True, text=True, env=env,
                          check=False)
    if done.returncode == 0:
        return script, None
    last = (done.stderr.strip().splitlines() or ["no message"])[-1]
    return [sys.executable, "-m", "memfold"], f"{script[0]} --version failed: {last}"


def warm_control(memfold: list[str], verb: str, env: dict[str, str]) -> tuple[int, str]:
    """Run `memfold warm VERB --json`; its exit status and its output (stderr on failure).

    Output goes to files, not pipes: a resident process that kept a pipe open would keep
    us waiting."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        try:
            code = subprocess.run([*memfold, "warm", verb, "--json"], stdout=out, stderr=err,
                                  env=env, timeout=CONTROL_TIMEOUT, check=False).returncode
        except subprocess.TimeoutExpired:
            return -1, f"memfold warm {verb} did not finish in {CONTROL_TIMEOUT:g} s"
        out.seek(0)
        err.seek(0)
        text = out.read() if code == 0 else err.read()
    return code, text.strip()


def served(status: str) -> int | None:
    """The reads a warm process says it served, from `memfold warm status --json`."""
    try:
        value = json.loads(status).get("served")
    except (ValueError, AttributeError):
        return None
    return value if isinstance(value, int) else None


class Processes:
    """The whole-process recall rows: one-shot, warm (if it starts) and the floor."""

    def __init__(self, run: Run, workdir: Path, log: Log) -> None:
        self.run = run
        self.log = log
        warm_dir = workdir / "warm"
        warm_dir.mkdir(mode=0o700)
        base = {**os.environ, "MEMFOLD_WARM_DIR": str(warm_dir)}
        self.one_shot_env = {**base, "MEMFOLD_WARM": "off"}
        self.warm_env = {**base, "MEMFOLD_WARM": "on"}
        self.memfold, self.command_note = memfold_command(self.one_shot_env)
        self.outputs: dict[str, list[str]] = {"one_shot": [], "warm": [], "floor": []}
        self.warm: Json = {"started": False, "reason": None}

    def recall_argv(self, q: Planted) -> list[str]:
        return [*self.memfold, "--workspace", str(self.run.ws), "--as-of", AS_OF, "recall",
                q.text, "--k", str(K), "--json"]

    def floor_argv(self, q: Planted) -> list[str]:
        return [sys.executable, "-c", floor.SEARCH_SCRIPT, str(self.run.floor_db), q.floor]

    def step(self, key: str, argv: list[str], env: dict[str, str] | None,
             keep: bool, kind: str) -> Callable[[], None]:
        def go() -> None:
            started = time.perf_counter()
            out = run_process(argv, env)
            took = time.perf_counter() - started
            self.run.add(f"cli_{key}", took)
            self.run.add(f"cli_{key}:{kind}", took)
            if keep:
                self.outputs[key].append(out)
        return go

    def start_warm(self, first: Planted) -> bool:
        code, text = warm_control(self.memfold, "start", self.warm_env)
        self.warm["start"] = {"exit": code, "output": text}
        if code != 0:
            last = (text.splitlines() or ["no message"])[-1]
            self.warm["reason"] = f"memfold warm start exited with {code}: {last}"
            self.log(f"no warm row: {self.warm['reason']}")
            return False
        self.warm["started"] = True
        run_process(self.recall_argv(first), self.warm_env)  # untimed: warms the workspace
        return True

    def served(self) -> int | None:
        """The reads the warm process says it served (`memfold warm status --json`)."""
        code, status = warm_control(self.memfold, "status", self.warm_env)
        self.warm.setdefault("status", []).append(status)
        return served(status) if code == 0 else None

    def measure(self, queries: Sequence[Planted], repeat: int) -> None:
        first = queries[0]  # one untimed run each: the disk cache, and bytecode if kept
        run_process(self.recall_argv(first), self.one_shot_env)
        run_process(self.floor_argv(first), self.one_shot_env)
        try:
            warm = self.start_warm(first)
            before = self.served() if warm else None
            for round_ in range(repeat):
                self.log(f"whole-process recall, repeat {round_ + 1}/{repeat}")
                for n, q in enumerate(queries):
                    keep = round_ == 0
                    steps = [self.step("one_shot", self.recall_argv(q), self.one_shot_env, keep,
                                       q.kind),
                             self.step("floor", self.floor_argv(q), self.one_shot_env, keep,
                                       q.kind)]
                    if warm:
                        steps.append(self.step("warm", self.recall_argv(q), self.warm_env, keep,
                                               q.kind))
                    rotate(round_ + n, steps)
            if warm:
                after = self.served()
                self.warm["served_while_timed"] = (None if after is None or before is None
                                                   else after - before)
                self.warm["timed_calls"] = repeat * len(queries)
        finally:
            if self.warm["started"]:
                self.warm["stop"] = warm_control(self.memfold, "stop", self.warm_env)[1]


def same_results(outputs: Sequence[str], expected: Sequence[Sequence[str]]) -> int:
    """How many whole-process answers cite what the in-process call cited, in order."""
    def cited(out: str) -> list[str]:
        data = json.loads(out)
        rows = data["results"] if isinstance(data, dict) else data
        return [row["source"] for row in rows]
    return sum(cited(out) == list(want) for out, want in zip(outputs, expected, strict=False))


# -- the rows ----------------------------------------------------------------------------------


def row(base: float | None, mine: float | None, unit: str, statistic: str, **extra: Any) -> Json:
    """One line of the table: the floor's figure, memfold's and memfold over floor."""
    ratio = mine / base if mine is not None and base else None
    return {"unit": unit, "statistic": statistic, "floor": base, "memfold": mine,
            "ratio": ratio, **extra}


def sampled(run: Run, key: str, unit: str, *, mine_key: str | None = None,
            base_key: str | None = None, **extra: Any) -> Json:
    """A row of p50s from the samples under `key` (p95 and every sample beside them)."""
    base = spread(run.samples[base_key or f"{key}.floor"])
    mine = spread(run.samples[mine_key or f"{key}.memfold"])
    return row(base["p50"], mine["p50"], unit, "p50",
               p95={"floor": base["p95"], "memfold": mine["p95"],
                    "ratio": mine["p95"] / base["p95"] if base["p95"] else None},
               samples={"floor": base["samples"], "memfold": mine["samples"]}, **extra)


def warm_row(run: Run, warm: Json, kind: str = "") -> Json:
    of = f":{kind}" if kind else ""
    if warm["started"] and run.samples.get(f"cli_warm{of}"):
        extra = {"served_while_timed": warm.get("served_while_timed"),
                 "timed_calls": warm.get("timed_calls")} if not kind else {}
        return {**sampled(run, "cli", "s", mine_key=f"cli_warm{of}", base_key=f"cli_floor{of}"),
                **extra}
    base = spread(run.samples[f"cli_floor{of}"])
    return row(base["p50"], None, "s", "p50", reason=warm["reason"])


def class_rows(run: Run, kinds: Sequence[str], queries: Sequence[Planted],
               quality: dict[str, Json], warm: Json) -> Json:
    """Each query class's rows: recall in-process and as a whole process, hit@10, MRR@10."""
    rows: Json = {}
    for kind in kinds:
        of = [n for n, q in enumerate(queries) if q.kind == kind]

        def mean(who: str, key: str, of: list[int] = of) -> float:
            ranks = [quality[who]["ranks"][n] for n in of]
            values = [r is not None for r in ranks] if key == "hit" else [
                1 / r if r else 0.0 for r in ranks]
            return sum(values) / (len(values) or 1)
        rows[kind] = {
            "queries": len(of),
            "recall_in_process": sampled(run, f"recall:{kind}", "s"),
            "recall_in_process_cpu": sampled(run, f"recall_cpu:{kind}", "s"),
            "recall_in_process_first": sampled(run, f"recall_first:{kind}", "s"),
            "recall_cli_one_shot": sampled(run, "cli", "s", mine_key=f"cli_one_shot:{kind}",
                                           base_key=f"cli_floor:{kind}"),
            "recall_cli_warm": warm_row(run, warm, kind),
            "hit_at_10": row(mean("floor", "hit"), mean("memfold", "hit"), "fraction", "mean"),
            "mrr_at_10": row(mean("floor", "mrr"), mean("memfold", "mrr"), "fraction", "mean"),
        }
    return rows


def measure(files: int, entity_pages: int, count: int, repeat: int, seed: int,
            log: Log, kinds: Sequence[str] = CLASSES) -> Json:
    with tempfile.TemporaryDirectory(prefix="memfold-sidebyside-") as tmp:
        log(f"generating {files} daily files and {entity_pages} entity pages")
        run = Run(Path(tmp), files, seed, entity_pages)
        children = measure_cold(run, repeat, {**os.environ, "MEMFOLD_WARM": "off"}, log)
        facts, index_bytes = index_facts(run.ws)
        sizes = {"memfold": index_bytes, "floor": file_size(run.floor_db)}
        log(f"no-op sync ({NOOP_SAMPLES * repeat} samples)")
        with Memory.open(run.ws) as memory:  # untimed: the first call imports everything
            memory.index()
        for order in range(NOOP_SAMPLES * repeat):
            alternate(order, run.memfold_noop, run.floor_noop)
        log(f"sync after {TOUCHED} files changed ({repeat} samples)")
        changed = measure_incremental(run, repeat)
        log(f"drawing {count} queries with planted answers of each class: {', '.join(kinds)}")
        drawn = plant_classes(run.ws, count, seed, kinds)
        queries = [q for kind in kinds for q in drawn[kind]]
        log(f"in-process recall ({len(queries)} queries x {repeat})")
        measure_in_process(run, queries, repeat)
        ours, base = in_process_results(run, queries)
        answers = [q.answer for q in queries]
        quality = {"memfold": score(answers, ours), "floor": score(answers, base)}
        sample = [q for kind in kinds for q in drawn[kind][:CLI_QUERIES]]
        cited = [ours[queries.index(q)] for q in sample]
        log(f"whole-process recall ({len(sample)} queries x {repeat})")
        procs = Processes(run, Path(tmp), log)
        procs.measure(sample, repeat)
        floor_bullets = count_rows(run.floor_db)
        return {
            "corpus": {"daily_files": len(run.corpus.daily),
                       "entity_pages": len(run.corpus.entity_pages),
                       "bytes": run.corpus.bytes, "bullets_written": run.corpus.bullets,
                       "generate_seconds": run.generate_s},
            "facts": {**facts, "floor_bullets": floor_bullets},
            "rows": {
                "cold_index_wall": sampled(run, "cold", "s", work_seconds={
                    "floor": spread(run.samples["cold_work.floor"])["p50"],
                    "memfold": spread(run.samples["cold_work.memfold"])["p50"]}),
                "cold_index_cpu": sampled(run, "cold_cpu", "s"),
                "cold_index_peak_rss": sampled(run, "cold_rss", "bytes", child_only={
                    "floor": spread(run.samples["cold_rss_child.floor"])["p50"],
                    "memfold": spread(run.samples["cold_rss_child.memfold"])["p50"]}),
                "noop_sync": sampled(run, "noop", "s"),
                "changed_10_files": sampled(run, "incremental", "s"),
                "recall_in_process": sampled(run, "recall", "s"),
                "recall_in_process_cpu": sampled(run, "recall_cpu", "s"),
                "recall_in_process_first": sampled(run, "recall_first", "s"),
                "recall_cli_one_shot": sampled(run, "cli", "s", mine_key="cli_one_shot",
                                               base_key="cli_floor"),
                "recall_cli_warm": warm_row(run, procs.warm),
                "hit_at_10": row(quality["floor"]["hit_at_10"],
                                 quality["memfold"]["hit_at_10"], "fraction", "mean"),
                "mrr_at_10": row(quality["floor"]["mrr_at_10"],
                                 quality["memfold"]["mrr_at_10"], "fraction", "mean"),
                "index_size": row(sizes["floor"], sizes["memfold"], "bytes", "file with WAL"),
            },
            "classes": class_rows(run, kinds, queries, quality, procs.warm),
            "cold_index_children": children,
            "noop_files_touched": run.noop_touched,
            "incremental_files_synced": changed,
            "cli": {"command": [*procs.memfold, "--workspace", "WS", "--as-of", AS_OF,
                                "recall", "QUERY", "--k", str(K), "--json"],
                    "command_note": procs.command_note, "queries": len(sample),
                    "warm": procs.warm,
                    "same_results_as_in_process": {
                        "one_shot": same_results(procs.outputs["one_shot"], cited),
                        "warm": same_results(procs.outputs["warm"], cited),
                        "floor": same_results(procs.outputs["floor"],
                                              [base[queries.index(q)] for q in sample]),
                        "of": len(sample)}},
            "queries": [{"class": q.kind, "text": q.text, "answer": q.answer,
                         "floor_rank": quality["floor"]["ranks"][n],
                         "memfold_rank": quality["memfold"]["ranks"][n],
                         "floor_found": base[n], "memfold_found": ours[n]}
                        for n, q in enumerate(queries)],
        }


def count_rows(db_path: Path) -> int:
    db = sqlite3.connect(db_path)
    try:
        return int(db.execute("SELECT count(*) FROM bullets").fetchone()[0])
    finally:
        db.close()


def load_average() -> list[float] | None:
    return list(os.getloadavg()) if hasattr(os, "getloadavg") else None


def run_benchmark(files: int, entity_pages: int, count: int, repeat: int, seed: int,
                  log: Log, kinds: Sequence[str] = CLASSES) -> Json:
    measured = source()  # before the run: the sources may change under a long one
    before = load_average()
    result = measure(files, entity_pages, count, repeat, seed, log, kinds)
    return {
        "benchmark": "sidebyside",
        "checked_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "parameters": {"files": files, "entity_pages": entity_pages, "queries": count,
                       "classes": list(kinds), "repeat": repeat, "seed": seed, "k": K,
                       "cli_queries_per_class_and_repeat": min(count, CLI_QUERIES),
                       "noop_samples": NOOP_SAMPLES * repeat, "touched": TOUCHED,
                       "as_of": AS_OF, "ratio": "memfold / floor",
                       "statistic": "p50 and p95 of every sample, linear interpolation",
                       "argv": sys.argv[1:]},
        "environment": {**environment(), "host": platform.node(), "bytecode": bytecode(),
                        "source": measured,
                        "load_average": {"before": before, "after": load_average()}},
        **result,
    }


# -- the table ---------------------------------------------------------------------------------


def seconds(value: float) -> str:
    return ms(value * 1000) if value < 1 else f"{value:.2f} s"


def figure(value: float | None, unit: str) -> str:
    if value is None:
        return "n/a"
    if unit == "s":
        return seconds(value)
    if unit == "bytes":
        return megabytes(value)
    return f"{value:.2f}"


def times(ratio: float | None) -> str:
    return "n/a" if ratio is None else f"{ratio:.2f}x"


LABELS = (
    ("cold_index_wall", "cold index, wall"),
    ("cold_index_cpu", "cold index, CPU time"),
    ("cold_index_peak_rss", "cold index, peak RSS"),
    ("noop_sync", "no-op sync"),
    ("changed_10_files", f"{TOUCHED} files changed"),
    ("recall_in_process", "in-process recall p50 (p95)"),
    ("recall_in_process_cpu", "in-process recall CPU time p50 (p95)"),
    ("recall_in_process_first", "in-process recall p50 (p95), first round"),
    ("recall_cli_one_shot", "whole-process CLI recall p50 (p95), one-shot"),
    ("recall_cli_warm", "whole-process CLI recall p50 (p95), warm"),
)


def table(result: Json) -> list[str]:
    rows = result["rows"]
    lines = ["| | floor | memfold | ratio |", "|---|---|---|---|"]
    for key, label in LABELS:
        if key not in rows:  # a result written before the row was kept
            continue
        r = rows[key]
        base, mine = figure(r["floor"], r["unit"]), figure(r["memfold"], r["unit"])
        ratio = times(r["ratio"])
        if "p95" in label and "p95" in r:
            p95 = r["p95"]
            base += f" ({figure(p95['floor'], r['unit'])})"
            mine += f" ({figure(p95['memfold'], r['unit'])})"
            ratio += f" ({times(p95['ratio'])})"
        lines.append(f"| {label} | {base} | {mine} | {ratio} |")
    hit, mrr = rows["hit_at_10"], rows["mrr_at_10"]
    lines.append(f"| hit@10 / MRR@10 ({len(result['queries'])} planted world facts) "
                 f"| {figure(hit['floor'], '')} / {figure(mrr['floor'], '')} "
                 f"| {figure(hit['memfold'], '')} / {figure(mrr['memfold'], '')} "
                 f"| {times(hit['ratio'])} / {times(mrr['ratio'])} |")
    size = rows["index_size"]
    lines.append(f"| index size | {figure(size['floor'], 'bytes')} "
                 f"| {figure(size['memfold'], 'bytes')} | {times(size['ratio'])} |")
    return lines


def class_table(result: Json) -> list[str]:
    """Recall by query class: p50 floor / memfold and the ratio (p95 ratio), in-process
    (wall and CPU time) and warm; hit@10 floor / memfold."""
    lines = ["| query class | in-process floor / memfold | ratio (p95) "
             "| in-process CPU floor / memfold | ratio (p95) "
             "| warm floor / memfold | ratio (p95) | hit@10 floor / memfold |",
             "|---|---|---|---|---|---|---|---|"]
    for kind, rows in result.get("classes", {}).items():
        cells = []
        for key in ("recall_in_process", "recall_in_process_cpu", "recall_cli_warm"):
            if key not in rows:  # a result written before CPU time was kept
                cells += ["n/a", "n/a"]
                continue
            r = rows[key]
            cells.append(f"{figure(r['floor'], 's')} / {figure(r['memfold'], 's')}")
            p95 = r.get("p95", {}).get("ratio")
            cells.append(f"{times(r['ratio'])} ({times(p95)})")
        hit = rows["hit_at_10"]
        cells.append(f"{figure(hit['floor'], '')} / {figure(hit['memfold'], '')}")
        lines.append(f"| {kind} ({rows['queries']}) | {' | '.join(cells)} |")
    return lines


def header(result: Json) -> list[str]:
    p, env, c = result["parameters"], result["environment"], result["corpus"]
    load = env["load_average"]

    def avg(values: list[float] | None) -> str:
        return " ".join(f"{v:.2f}" for v in values) if values else "n/a"
    return [
        f"memfold bench sidebyside: {c['daily_files']:,} daily files, {c['entity_pages']} "
        f"entity pages, {result['facts']['floor_bullets']:,} bullets; {p['queries']} planted "
        f"queries of each class ({', '.join(p['classes'])}); seed {p['seed']}, "
        f"repeat {p['repeat']}",
        f"machine: {env['platform']}, {env['cpus']} cpus, python {env['python']}, sqlite "
        f"{env['sqlite']}; load average before {avg(load['before'])}, after "
        f"{avg(load['after'])}",
    ]


def notes(result: Json) -> list[str]:
    """What a reader of the table should know about how it was measured."""
    found = []
    warm = result["rows"]["recall_cli_warm"]
    if warm["memfold"] is None:
        found.append(f"warm row: {warm['reason']}")
    if result["cli"]["command_note"]:
        found.append(f"whole-process memfold ran as `python -m memfold`: "
                     f"{result['cli']['command_note']}")
    if not result["environment"]["bytecode"]["memfold_cli_bytecode_cached"]:
        found.append("memfold's bytecode is not cached beside its sources: every memfold "
                     "process compiled it (python -m compileall src/memfold first)")
    return found


def parse_classes(text: str) -> tuple[str, ...]:
    kinds = tuple(dict.fromkeys(k.strip() for k in text.split(",") if k.strip()))
    unknown = [k for k in kinds if k not in CLASSES]
    if unknown or not kinds:
        raise click.BadParameter(f"unknown query class {', '.join(unknown) or '(none)'}; "
                                 f"the classes: {', '.join(CLASSES)}")
    return kinds


@click.command("sidebyside")
@click.option("--files", default=10_000, show_default=True, type=click.IntRange(min=1),
              help="Daily files in the generated workspace.")
@click.option("--entity-pages", default=200, show_default=True,
              type=click.IntRange(0, len(corpus.ENTITIES)),
              help="Entity pages in the generated workspace.")
@click.option("--queries", "count", default=100, show_default=True, type=click.IntRange(min=1),
              help="Queries with planted answers of each class, for hit@10 and MRR@10 (and "
                   "the timings).")
@click.option("--classes", "kinds", default=",".join(CLASSES), show_default=True,
              callback=lambda _c, _p, v: parse_classes(v),
              help="The query classes, comma-separated.")
@click.option("--repeat", default=3, show_default=True, type=click.IntRange(min=1),
              help="Samples of each measurement (recall: rounds over the queries).")
@click.option("--seed", default=0, show_default=True, help="Seed of the corpus and queries.")
@output_options("benchmarks/results/sidebyside.json")
def sidebyside_command(files: int, entity_pages: int, count: int, repeat: int, seed: int,
                       kinds: tuple[str, ...], out: Path, as_json: bool) -> None:
    """Measure memfold and the plain-FTS5 floor side by side in one run, with ratios.

    One generated workspace; cold index (wall, CPU, peak RSS), no-op sync, sync after 10
    changed files, recall in-process and as a whole process (one-shot and warm), hit@10
    and MRR@10 of queries with planted answers, and index size — each memfold beside the
    floor, the ratio memfold over floor.  Recall is also given by query class: rare words,
    entity topic, natural questions, multi-word, what/which questions.

    \b
    Example:
      memfold bench sidebyside --files 10000 --entity-pages 200 --queries 100
    """
    result = run_benchmark(files, entity_pages, count, repeat, seed,
                           lambda msg: click.echo(msg, err=True), kinds)
    if save_result(result, out, as_json=as_json):
        return
    for line in [*header(result), "", *table(result), "", *class_table(result)]:
        click.echo(line)
    for line in notes(result):
        click.echo(line)
    click.echo(f"wrote {out}", err=True)
