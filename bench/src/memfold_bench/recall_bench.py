"""`memfold bench recall`: how fast memfold answers a recall, beside the floor.

This module owns the measurement.  For each corpus size it generates a workspace in a
temporary directory, builds memfold's index (`Memory.open(ws).index(full=True)`) and the
floor's plain FTS5 table (`floor.load`) — none of that timed — and draws a seeded set of
plain-English queries from the corpus (`build_queries`).  Then, with `time.perf_counter`:

1. in-process, warm — one long-lived `Memory` (its inotify change feed makes freshness free
   once the first call has stat-ed every file, so a warm-up call comes first), then
   `memory.recall(q, k=10)` for every query, `--repeat` times; against one open SQLite
   connection running the floor query;
2. in-process, cold — a new `Memory` and its first recall (opening the index, arming the
   watcher, stat-ing every file); against connect + floor query;
3. the whole process — the installed `memfold` console script beside the interpreter,
   `memfold --workspace WS --as-of T recall QUERY --k 10 --json`, for a sample of the
   queries; against `python -c <open the floor file, run one FTS5 query, print JSON>`.

The floor query is what the simplest program would send: the query's quoted phrases and its
words (memfold's stop words dropped), each quoted, OR-ed, `ORDER BY rank LIMIT 10`.  It knows
no entities, no time phrases and no kinds: everything memfold does beyond it is its overhead.

"Now" is pinned to the corpus's last day (`AS_OF`), so "around Nov 27" means the same days on
every machine and every date.  The order of memfold and floor alternates (the machine is
shared and noisy); the figures reported are p50 and p95 of all samples (linear
interpolation), in milliseconds, and every sample is kept in the JSON.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import click

from memfold.memory import Memory
from memfold.names import STOP_WORDS
from memfold.times.parse import MONTHS

from . import corpus, floor, import_roots
from .index_bench import (
    alternate,
    corpus_options,
    environment,
    index_facts,
    output_options,
    parse_sizes,
    save_result,
    size_columns,
)

K = 10
CLI_QUERIES = 15
IN_PROCESS_AIM_MS = 10.0
CLI_AIM_MS = 150.0
AS_OF = f"{corpus.END_DAY.isoformat()}T20:00:00+00:00"
RECENT_DAYS = 365  # a day written without a year ("Nov 27") means one of the last 365
MONTH_ABBR = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
FORMS = ("words", "prefers", "about", "around", "phrase")
AIMS = {
    "in_process": "memory.recall(q, k=10) in a long-lived process: p50 under 10 ms",
    "cli_process": "a whole `memfold recall --k 10 --json` process: p50 under 150 ms",
}
WORD = re.compile(r"\w+")
PHRASE = re.compile(r'"([^"]+)"')
NAME = re.compile(r"@([\w-]*\w)")
BLOCK_ID = re.compile(r"\s\^[0-9a-z]{8}$")
DATE_RANGE = re.compile(r"\s\([^)]*\d{4}\)")
SKIP = frozenset(corpus.FUNCTION_WORDS) | STOP_WORDS | frozenset(MONTHS)
PEOPLE = frozenset(corpus.PEOPLE)
Log = Callable[[str], None]
Json = dict[str, Any]


# -- the query set ---------------------------------------------------------------------


@dataclass(frozen=True)
class Query:
    text: str
    form: str
    floor_fts: str


@dataclass(frozen=True)
class Bullet:
    """One Retain bullet of the corpus, cut into what queries are made of."""

    day: date
    names: tuple[str, ...]  # entity names, as written after @
    words: tuple[str, ...]  # content words (lowercase; function and stop words dropped)
    tokens: tuple[str, ...]  # every word of the content, names too, in order (lowercase)


def read_bullet(day: date, line: str) -> Bullet:
    content = BLOCK_ID.sub("", line).partition(": ")[2]
    names = tuple(dict.fromkeys(NAME.findall(line)))
    tokens = tuple(w.casefold() for w in WORD.findall(content))
    plain = WORD.findall(NAME.sub(" ", DATE_RANGE.sub("", content)))
    words = tuple(dict.fromkeys(w.casefold() for w in plain
                                if w.casefold() not in SKIP and w.isalpha()))
    return Bullet(day, names, words, tokens)


def corpus_bullets(root: Path, daily: Sequence[str]) -> list[Bullet]:
    """Every Retain bullet of the daily logs, newest file first."""
    found: list[Bullet] = []
    for rel in daily:
        day = date.fromisoformat(rel[len("memory/"):][:10])
        text = (root / rel).read_text(encoding="utf-8")
        found.extend(read_bullet(day, line) for line in floor.retain_bullets(text))
    return found


def floor_fts(text: str) -> str:
    """The floor's FTS5 expression: quoted phrases and words (no stop words), OR-ed."""
    phrases = [p for p in PHRASE.findall(text) if WORD.search(p)]
    words = WORD.findall(PHRASE.sub(" ", text))
    terms = [w for w in words if w.casefold() not in STOP_WORDS] or ([] if phrases else words)
    parts = [*phrases, *dict.fromkeys(t.casefold() for t in terms)]
    return " OR ".join('"' + p.replace('"', '""') + '"' for p in parts)


def spoken(name: str) -> str:
    return name.replace("-", " ")


class QueryMaker:
    """Plain-English questions about a corpus, each drawn from one of its bullets."""

    def __init__(self, bullets: Sequence[Bullet], seed: int) -> None:
        self.rng = random.Random(seed * 1_000_003 + 0x5EC)
        self.with_words = [b for b in bullets if len(b.words) >= 2]
        self.with_names = [b for b in bullets if b.names]
        self.with_people = [b for b in self.with_names if PEOPLE & set(b.names)]
        newest = bullets[0].day.toordinal() if bullets else 0
        self.recent = [b for b in self.with_words if newest - b.day.toordinal() < RECENT_DAYS]
        self.with_tokens = [b for b in bullets if len(b.tokens) >= 3]
        if not (self.with_words and self.with_names and self.with_tokens):
            raise click.ClickException("the corpus is too small to draw queries from")

    def make(self, form: str) -> str:
        rng = self.rng
        if form == "words":
            bullet = rng.choice(self.with_words)
            picked = sorted(rng.sample(range(len(bullet.words)),
                                       min(rng.randint(2, 4), len(bullet.words))))
            return " ".join(bullet.words[i] for i in picked)
        if form == "prefers":
            bullet = rng.choice(self.with_people or self.with_names)
            people = [n for n in bullet.names if n in PEOPLE] or list(bullet.names)
            return f"what does {spoken(rng.choice(people))} prefer"
        if form == "about":
            return f"tell me about {spoken(rng.choice(rng.choice(self.with_names).names))}"
        if form == "around":
            bullet = rng.choice(self.recent)
            month = MONTH_ABBR[bullet.day.month - 1]
            return f"{rng.choice(bullet.words)} around {month} {bullet.day.day}"
        return '"' + " ".join(self.phrase()) + '"'

    def phrase(self) -> tuple[str, ...]:
        """2-3 words in a row from a bullet, all letters, at least one a content word."""
        run: tuple[str, ...] = ()
        for _ in range(1000):
            tokens = self.rng.choice(self.with_tokens).tokens
            size = self.rng.choice((2, 3))
            start = self.rng.randrange(len(tokens) - size + 1)
            run = tokens[start:start + size]
            if all(w.isalpha() for w in run) and any(w not in SKIP for w in run):
                break
        return run


def build_queries(bullets: Sequence[Bullet], count: int, seed: int) -> list[Query]:
    """`count` queries, the forms taking turns; the same corpus and seed give the same set."""
    maker = QueryMaker(bullets, seed)
    queries = []
    for n in range(count):
        form = FORMS[n % len(FORMS)]
        text = maker.make(form)
        queries.append(Query(text, form, floor_fts(text)))
    return queries


# -- statistics ------------------------------------------------------------------------


def percentile(samples: Sequence[float], q: float) -> float:
    """The q-th quantile (0..1) by linear interpolation between closest ranks."""
    ordered = sorted(samples)
    position = (len(ordered) - 1) * q
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summary(seconds: Sequence[float]) -> Json:
    ms = [s * 1000 for s in seconds]
    return {"p50_ms": percentile(ms, 0.5), "p95_ms": percentile(ms, 0.95), "min_ms": min(ms),
            "max_ms": max(ms), "n": len(ms), "samples_ms": [round(v, 4) for v in ms]}


def paired(mine: Sequence[float], base: Sequence[float]) -> Json:
    a, b = summary(mine), summary(base)
    return {"memfold": a, "floor": b, "ratio": a["p50_ms"] / b["p50_ms"],
            "ratio_p95": a["p95_ms"] / b["p95_ms"]}


# -- the measurements -------------------------------------------------------------------


def entry_point() -> list[str]:
    """The `memfold` console script installed beside this interpreter (else `-m memfold`)."""
    bindir = Path(sys.executable).parent
    for name in ("memfold", "memfold.exe"):
        if (bindir / name).is_file():
            return [str(bindir / name)]
    return [sys.executable, "-m", "memfold"]


class Run:
    """One corpus, its two indexes and query set, and the samples taken on them."""

    def __init__(self, workdir: Path, files: int, seed: int, count: int, log: Log) -> None:
        self.ws = workdir / "workspace"
        self.floor_db = workdir / "floor.sqlite"
        self.log = log
        self.n = files
        started = time.perf_counter()
        self.corpus = corpus.generate(self.ws, files=files, seed=seed)
        self.generate_s = time.perf_counter() - started
        log(f"{files} files: building memfold's index and the floor's table")
        with Memory.open(self.ws) as memory:
            memory.index(full=True)
        self.floor_bullets = floor.load(self.ws, self.floor_db)
        self.queries = build_queries(corpus_bullets(self.ws, self.corpus.daily), count, seed)
        self.samples: dict[str, list[float]] = {}
        self.hits: dict[str, list[int]] = {}
        self.synced: dict[str, int] = {}  # files the timed calls had to sync: should be 0
        self.command = entry_point()

    def add(self, key: str, seconds: float) -> None:
        self.samples.setdefault(key, []).append(seconds)

    def saw(self, key: str, round_: int, count: int) -> None:
        if round_ == 0:
            self.hits.setdefault(key, []).append(count)

    def note(self, key: str, synced: int) -> None:
        self.synced[key] = max(self.synced.get(key, 0), synced)

    def in_process(self, repeat: int) -> None:
        """Warm: one Memory and one floor connection for every query and repeat."""
        db = sqlite3.connect(self.floor_db)
        try:
            with Memory.open(self.ws, now=AS_OF) as memory:
                first = memory.recall(self.queries[0].text, k=K)  # it stats every file
                self.synced["warm_up"] = first.sync.touched if first.sync else 0
                for round_ in range(repeat):
                    self.log(f"{self.n} files: in-process recall, repeat {round_ + 1}/{repeat}")

                    def mine(round_: int = round_) -> None:
                        for q in self.queries:
                            started = time.perf_counter()
                            result = memory.recall(q.text, k=K)
                            self.add("warm.memfold", time.perf_counter() - started)
                            self.saw("memfold", round_, len(result.hits))
                            self.note("in_process", result.sync.touched if result.sync else 0)

                    def base(round_: int = round_) -> None:
                        for q in self.queries:
                            started = time.perf_counter()
                            rows = db.execute(floor.SEARCH, (floor_fts(q.text),)).fetchall()
                            self.add("warm.floor", time.perf_counter() - started)
                            self.saw("floor", round_, len(rows))
                    alternate(round_, mine, base)
        finally:
            db.close()

    def cold(self, repeat: int) -> None:
        """A new Memory (or connection) and its first query, for the sampled queries."""
        for round_ in range(repeat):
            for n, q in enumerate(self.queries[:CLI_QUERIES]):
                def mine(q: Query = q) -> None:
                    started = time.perf_counter()
                    with Memory.open(self.ws, now=AS_OF) as memory:
                        memory.recall(q.text, k=K)
                        self.add("cold.memfold", time.perf_counter() - started)

                def base(q: Query = q) -> None:
                    started = time.perf_counter()
                    db = sqlite3.connect(self.floor_db)
                    db.execute(floor.SEARCH, (floor_fts(q.text),)).fetchall()
                    db.close()
                    self.add("cold.floor", time.perf_counter() - started)
                alternate(round_ + n, mine, base)

    def processes(self, repeat: int) -> None:
        """The whole `memfold recall` process against a whole floor process."""
        memfold_cmd = [*self.command, "--workspace", str(self.ws), "--as-of", AS_OF, "recall"]
        first = self.queries[0]  # one untimed run each: the disk cache, and bytecode if kept
        self.spawn("warmup", [*memfold_cmd, first.text, "--k", str(K), "--json"])
        self.spawn("warmup", [sys.executable, "-c", floor.SEARCH_SCRIPT, str(self.floor_db),
                              first.floor_fts])
        for round_ in range(repeat):
            self.log(f"{self.n} files: whole processes, repeat {round_ + 1}/{repeat}")
            for n, q in enumerate(self.queries[:CLI_QUERIES]):
                def mine(q: Query = q, round_: int = round_) -> None:
                    out = self.spawn("cli.memfold", [*memfold_cmd, q.text, "--k", str(K),
                                                     "--json"])
                    answer = json.loads(out)
                    self.saw("cli", round_, len(answer["results"]))
                    self.note("cli_process", answer["index"]["synced_files"])

                def base(q: Query = q) -> None:
                    self.spawn("cli.floor", [sys.executable, "-c", floor.SEARCH_SCRIPT,
                                             str(self.floor_db), q.floor_fts])
                alternate(round_ + n, mine, base)

    def spawn(self, key: str, argv: list[str]) -> str:
        started = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, encoding="utf-8",
                              check=False)
        self.add(key, time.perf_counter() - started)
        if done.returncode != 0:
            raise click.ClickException(f"{argv[0]} exited with {done.returncode}: "
                                       f"{done.stderr.strip()[-500:]}")
        return done.stdout


def measure_size(files: int, seed: int, count: int, repeat: int, log: Log) -> Json:
    with tempfile.TemporaryDirectory(prefix="memfold-bench-") as tmp:
        log(f"{files} files: generating the corpus")
        run = Run(Path(tmp), files, seed, count, log)
        run.in_process(repeat)
        log(f"{files} files: cold in-process calls")
        run.cold(repeat)
        run.processes(repeat)
        facts, index_bytes = index_facts(run.ws)
        return size_result(run, facts, index_bytes)


def size_result(run: Run, facts: Json, index_bytes: int) -> Json:
    s = run.samples
    sampled = len(run.queries[:CLI_QUERIES])
    queries = [{"text": q.text, "form": q.form, "floor_fts": q.floor_fts,
                "memfold_hits": run.hits["memfold"][n], "floor_hits": run.hits["floor"][n],
                "cli_hits": run.hits["cli"][n] if n < sampled else None}
               for n, q in enumerate(run.queries)]
    return {
        "files": len(run.corpus.daily),
        "corpus": {"daily_files": len(run.corpus.daily),
                   "entity_pages": len(run.corpus.entity_pages),
                   "bytes": run.corpus.bytes, "bullets_written": run.corpus.bullets,
                   "generate_seconds": run.generate_s},
        "facts": {**facts, "floor_bullets": run.floor_bullets},
        "index_bytes": index_bytes,
        "queries": queries,
        "synced_files": run.synced,
        "in_process": paired(s["warm.memfold"], s["warm.floor"]),
        "cold_in_process": paired(s["cold.memfold"], s["cold.floor"]),
        "cli_process": {**paired(s["cli.memfold"], s["cli.floor"]),
                        "queries": sampled, "command": [*run.command, "--workspace", "WS",
                                                        "--as-of", AS_OF, "recall", "QUERY",
                                                        "--k", str(K), "--json"]},
    }


def verdicts(size: Json) -> Json:
    warm, cli = size["in_process"], size["cli_process"]
    return {"in_process_p50_under_10ms": warm["memfold"]["p50_ms"] < IN_PROCESS_AIM_MS,
            "cli_process_p50_under_150ms": cli["memfold"]["p50_ms"] < CLI_AIM_MS,
            "in_process_ratio": warm["ratio"], "cli_process_ratio": cli["ratio"]}


def bytecode() -> Json:
    """Whether the processes timed can load memfold from cached bytecode, or compile it.

    With PYTHONDONTWRITEBYTECODE set and no cache beside the sources, every `memfold`
    process compiles memfold's modules again, which is part of what it is measured at.
    """
    from memfold.cli import main as cli

    cached = importlib.util.cache_from_source(cli.__file__)
    return {"PYTHONDONTWRITEBYTECODE": os.environ.get("PYTHONDONTWRITEBYTECODE"),
            "PYTHONPYCACHEPREFIX": os.environ.get("PYTHONPYCACHEPREFIX"),
            "memfold_cli_bytecode_cached": os.path.exists(cached)}


def source() -> Json | None:
    """The git commit of the memfold sources measured, and the files changed on top of it
    (in memfold's sources and the benchmarks')."""
    here = Path(__file__).resolve().parent

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(["git", "-C", str(here), *args], capture_output=True,
                                  text=True, check=False, timeout=10)
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout if done.returncode == 0 else None

    commit = git("rev-parse", "HEAD")
    if commit is None:
        return None
    changed = git("status", "--porcelain", "--untracked-files=no", "--", *import_roots())
    return {"commit": commit.strip(),
            "changed": sorted(line[3:] for line in (changed or "").splitlines() if line)}


def run_benchmark(sizes: list[int], seed: int, count: int, repeat: int, log: Log) -> Json:
    measured = source()  # before the run: the sources may change under a long one
    load = os.getloadavg() if hasattr(os, "getloadavg") else None  # a shared machine is noisy
    results = []
    for files in sizes:
        size = measure_size(files, seed, count, repeat, log)
        size["verdicts"] = verdicts(size)
        results.append(size)
    return {
        "benchmark": "recall",
        "checked_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "parameters": {"files": sizes, "seed": seed, "queries": count, "repeat": repeat,
                       "k": K, "cli_queries": CLI_QUERIES, "as_of": AS_OF,
                       "statistic": "p50 and p95, linear interpolation", "unit": "ms",
                       "argv": sys.argv[1:]},
        "environment": {**environment(), "bytecode": bytecode(), "source": measured,
                        "load_average_at_start": load},
        "aims": AIMS,
        "sizes": results,
    }


# -- printing ---------------------------------------------------------------------------


def ms(value: float) -> str:
    return f"{value:.2f} ms" if value < 10 else f"{value:.1f} ms"


def table(sizes: list[Json]) -> list[str]:
    """A compact table: one column per corpus size, p50 (p95) in milliseconds."""
    row = size_columns(sizes, 26, 20)

    def pct(section: str, who: str) -> Callable[[Json], str]:
        return lambda s: (f"{ms(s[section][who]['p50_ms'])} "
                          f"({s[section][who]['p95_ms']:.1f})")

    def ratio(section: str) -> Callable[[Json], str]:
        return lambda s: f"{s[section]['ratio']:.2f}x ({s[section]['ratio_p95']:.2f}x)"

    return [
        row("p50 (p95), ms: files", lambda s: f"{s['files']:,}"),
        row("typed facts", lambda s: f"{s['facts']['typed']:,}"),
        row("queries x repeat", lambda s: f"{s['in_process']['memfold']['n']:,}"),
        row("in-process  memfold", pct("in_process", "memfold")),
        row("            floor", pct("in_process", "floor")),
        row("            ratio", ratio("in_process")),
        row("cold call   memfold", pct("cold_in_process", "memfold")),
        row("            floor", pct("cold_in_process", "floor")),
        row("CLI process memfold", pct("cli_process", "memfold")),
        row("            floor", pct("cli_process", "floor")),
        row("            ratio", ratio("cli_process")),
    ]


def meets(ok: bool) -> str:
    return "meets" if ok else "misses"


def aim_lines(sizes: list[Json]) -> list[str]:
    lines = []
    for size in sizes:
        v, n = size["verdicts"], f"{size['files']:,} files"
        warm, cli = size["in_process"]["memfold"], size["cli_process"]["memfold"]
        lines.append(
            f"{n}: in-process p50 {ms(warm['p50_ms'])} "
            f"({meets(v['in_process_p50_under_10ms'])} the {IN_PROCESS_AIM_MS:g} ms aim), "
            f"{v['in_process_ratio']:.2f}x the floor; CLI process p50 {ms(cli['p50_ms'])} "
            f"({meets(v['cli_process_p50_under_150ms'])} the {CLI_AIM_MS:g} ms aim), "
            f"{v['cli_process_ratio']:.2f}x the floor")
        empty = [q["text"] for q in size["queries"]
                 if not q["memfold_hits"] or not q["floor_hits"] or q["cli_hits"] == 0]
        if empty:
            lines.append(f"{n}: {len(empty)} queries without results on one side: "
                         + "; ".join(empty[:5]))
    return lines


@click.command("recall")
@corpus_options("10000", "Seed of the corpus and queries.")
@click.option("--queries", "count", default=50, show_default=True,
              type=click.IntRange(min=1), help="How many queries to draw from the corpus.")
@click.option("--repeat", default=3, show_default=True, type=click.IntRange(min=1),
              help="Times every query is run; p50 and p95 are over all samples.")
@output_options("benchmarks/results/recall.json")
def recall_command(files_text: str, seed: int, count: int, repeat: int, out: Path,
                   as_json: bool) -> None:
    """Time recall in a long-lived process and as a whole CLI process, against a floor.

    Each size gets a generated workspace in a temporary directory with memfold's index and
    a plain FTS5 table of the same bullets (the floor); --queries plain-English questions
    are drawn from it, and each is timed --repeat times on both sides.

    \b
    Example:
      memfold bench recall --files 365,10000 --queries 50 --repeat 3
    """
    sizes = parse_sizes(files_text)
    result = run_benchmark(sizes, seed, count, repeat, lambda msg: click.echo(msg, err=True))
    if save_result(result, out, as_json=as_json):
        return
    env = result["environment"]
    click.echo(f"memfold bench recall: seed {seed}, {count} queries x {repeat}, k={K}, "
               f"{CLI_QUERIES} in processes; python {env['python']}, sqlite {env['sqlite']}, "
               f"{env['platform']}")
    for line in [*table(result["sizes"]), "", *aim_lines(result["sizes"])]:
        click.echo(line)
    click.echo(f"wrote {out}", err=True)
