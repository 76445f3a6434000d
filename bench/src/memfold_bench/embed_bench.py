"""`memfold bench embed`: what semantic recall costs at scale, every figure timed.

Needs the embed extra (`pip install 'memfold[embed]'`).  Before the first size the model is
loaded once, timed (`first_load_seconds`: a cold load, importing numpy, onnxruntime and
tokenizers on the way).  Then for each corpus size, in a temporary directory:

1. the seeded workspace of `corpus.generate` is written (not timed);
2. lexical build — `.memory/` deleted, then `Memory.open(ws)` + `index(full=True)`, with
   `MEMFOLD_RECALL_MODE=lexical` so the sync embeds nothing;
3. model load — a fresh instance of the embedder (`models.load`: weights checked against
   their pinned sha256, the tokenizer and the query session made), timed apart from the
   embedding (MiniLM makes its graph-optimised bulk session on the first large batch, so
   that falls in the embed time);
4. full embed — `open_semantic(ws / ".memory", embedder).update(memory.index_backend)` on an
   index without vectors: every fact's text embedded and written to `.memory/vectors/`.
   Facts per second is facts embedded over those seconds (matrix writes, fsyncs and the
   saved map included); the seconds spent inside the model's `embed` calls are kept apart;
5. incremental — `INCREMENTAL_ROUNDS` times: `BULLETS_PER_FILE` new bullets appended to
   `TOUCHED` daily logs (not timed; their mtime set a little older than the racy-stamp
   window), then the lexical sync (`Memory.open(ws).index()`, lexical as in 2) and the
   embedding of the new facts (`update` again), timed separately; total = both;
   With `--resume-trial`, the embedding is then done again into an empty folder (the
   first one's vectors set aside), interrupted by an exception raised once half the facts
   were embedded — after the model returned the chunk in hand, as a kill during its
   write would lose it — and resumed by a second `update`: the texts each part sent to
   the model, the texts lost, both times, and the least cosine between a fact's resumed
   vector and its uninterrupted one.  The uninterrupted vectors are put back afterwards;
6. recall in-process — one long-lived `Memory` given the loaded embedder, a warm-up recall,
   then `memory.recall(q, k=10, mode="hybrid")` once per query of a fixed, seeded set (the
   plain-English queries of `memfold bench recall`, each distinct, so every sample embeds
   its query); p50 and p95;
7. recall as a whole process — the `memfold` console script beside the interpreter,
   `memfold --workspace WS --as-of T recall Q --mode hybrid --k 10 --json`, `--cli-runs`
   times, one query each: interpreter start, imports, model load, query and answer.

Every figure is measured with `time.perf_counter` on this run; nothing is extrapolated.
Every sample is kept in the JSON, with the load average after each size (the machine may be
shared); the table shows medians (recall: p50 and p95).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from memfold.index.sync import RACY_NS
from memfold.memory import Memory

from . import corpus
from .index_bench import (
    corpus_options,
    duration,
    environment,
    index_facts,
    output_options,
    parse_sizes,
    save_result,
    size_columns,
    stats,
)
from .recall_bench import AS_OF, build_queries, corpus_bullets, summary
from .scale import console_script, megabytes, run_process

if TYPE_CHECKING:
    from memfold.embed.base import Embedder, Identity, Matrix
    from memfold.embed.store import Progress

K = 10
QUERIES = 20
CLI_RUNS = 5
TOUCHED = 10
BULLETS_PER_FILE = 3
INCREMENTAL_ROUNDS = 3
MODE_ENV = "MEMFOLD_RECALL_MODE"
EXTRA_HINT = "memfold bench embed needs the embed extra: pip install 'memfold[embed]'"
Log = Callable[[str], None]
Json = dict[str, Any]


# -- the embedder ------------------------------------------------------------------------------


def load_embedder() -> Embedder:
    """A freshly loaded instance of the model semantic recall uses (not the shared one, so
    each load is really timed).  Tests replace this function with a fake."""
    from memfold import embed
    from memfold.embed import models

    if not embed.installed():
        raise click.ClickException(EXTRA_HINT)
    try:
        return models.load()
    except models.ModelError as exc:
        raise click.ClickException(f"cannot load the embedding model: {exc}") from None


class Stopwatch:
    """Wraps an embedder: same identity, same vectors, and counts texts and model seconds."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.texts = 0
        self.seconds = 0.0

    @property
    def identity(self) -> Identity:
        return self.inner.identity

    def embed(self, texts: Sequence[str]) -> Matrix:
        started = time.perf_counter()
        vectors = self.inner.embed(texts)
        self.seconds += time.perf_counter() - started
        self.texts += len(texts)
        return vectors

    def embed_query(self, text: str) -> Matrix:
        return self.inner.embed_query(text)


def timed_load(loader: Callable[[], Embedder]) -> tuple[Embedder, float]:
    started = time.perf_counter()
    embedder = loader()
    return embedder, time.perf_counter() - started


# -- helpers -------------------------------------------------------------------------------------


@contextlib.contextmanager
def lexical_only() -> Iterator[None]:
    """MEMFOLD_RECALL_MODE=lexical for the duration: a sync then embeds nothing by itself."""
    saved = os.environ.get(MODE_ENV)
    os.environ[MODE_ENV] = "lexical"
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(MODE_ENV, None)
        else:
            os.environ[MODE_ENV] = saved


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def index_texts(memory: Memory) -> tuple[int, int]:
    """Facts in the index, and how many distinct texts they hold (what gets embedded)."""
    from memfold.index.sqlite.backend import SqliteIndex

    backend = memory.index_backend
    assert isinstance(backend, SqliteIndex)  # counted in the SQLite file itself
    row = backend.db.execute(
        "SELECT count(*), count(DISTINCT content) FROM facts").fetchone()
    return int(row[0]), int(row[1])


def progress_log(files: int, log: Log) -> Progress:
    """Logs the embedding's progress at every tenth of the way."""
    started = time.perf_counter()
    shown = [-1]

    def report(done: int, total: int) -> None:
        step = done * 10 // total if total else 10
        if step > shown[0]:
            shown[0] = step
            log(f"{files} files: embedded {done:,}/{total:,} facts "
                f"({time.perf_counter() - started:.1f} s)")
    return report


def append_bullets(ws: Path, round_: int, seed: int, vocabulary: Sequence[str]) -> list[str]:
    """Append `BULLETS_PER_FILE` new, distinct bullets to `TOUCHED` daily logs chosen by the
    seed; the files' mtime is set just past the racy-stamp window.  Returns the paths."""
    rng = random.Random(seed * 7919 + round_)
    daily = sorted(f"memory/{e.name}" for e in os.scandir(ws / "memory")
                   if e.name.endswith(".md"))
    chosen = rng.sample(daily, min(TOUCHED, len(daily)))
    words = list(vocabulary[len(corpus.FUNCTION_WORDS):]) or list(vocabulary)
    backdated = time.time_ns() - RACY_NS - 1_000_000_000
    for n, rel in enumerate(chosen):
        path = ws / rel
        text = path.read_text(encoding="utf-8")
        for i in range(BULLETS_PER_FILE):
            content = " ".join(rng.choices(words, k=rng.randint(6, 12)))
            text = corpus.append_bullet(
                text, f"- B: {content.capitalize()}, follow-up {round_ + 1}.{n + 1}.{i + 1}.")
        path.write_text(text, encoding="utf-8")
        os.utime(path, ns=(backdated, backdated))
    return chosen


# -- the measurements ------------------------------------------------------------------------------


def lexical_build(ws: Path) -> float:
    shutil.rmtree(ws / ".memory", ignore_errors=True)
    with lexical_only():
        started = time.perf_counter()
        with Memory.open(ws) as memory:
            memory.index(full=True, judge=False)  # the index alone
        return time.perf_counter() - started


def full_embed(ws: Path, embedder: Embedder, files: int, log: Log) -> Json:
    from memfold.recall.modes import open_semantic

    watch = Stopwatch(embedder)
    with Memory.open(ws, watch=False) as memory:
        facts, distinct = index_texts(memory)
        log(f"{files} files: embedding {facts:,} facts")
        started = time.perf_counter()
        semantic = open_semantic(ws / ".memory", watch)
        embedded = semantic.update(memory.index_backend, progress_log(files, log))
        seconds = time.perf_counter() - started
        snap = semantic.store.snapshot()
    vectors = ws / ".memory" / "vectors"
    return {"facts_in_index": facts, "distinct_texts": distinct, "facts_embedded": embedded,
            "seconds": seconds, "facts_per_second": embedded / seconds if seconds else 0.0,
            "model_seconds": watch.seconds, "texts_to_model": watch.texts,
            "vector_rows": snap.rows if snap else 0,
            "facts_with_vectors": len(snap.fact_rowids) if snap else 0,
            "vectors_bytes": folder_bytes(vectors)}


class Interrupted(Exception):
    """Raised by `Interrupting` to stop an embedding half way."""


class Interrupting(Stopwatch):
    """A Stopwatch that raises once `after` texts were embedded, after the call that got
    there returned from the model: that call's texts are lost, as they would be to a kill
    while their rows were being written."""

    def __init__(self, inner: Embedder, after: int) -> None:
        super().__init__(inner)
        self.after = after

    def embed(self, texts: Sequence[str]) -> Matrix:
        vectors = super().embed(texts)
        if self.texts >= self.after:
            raise Interrupted(f"interrupted after {self.texts} texts")
        return vectors


def fact_vectors(ws: Path) -> dict[int, Matrix]:
    import numpy as np

    from memfold.embed.store import VectorStore

    snap = VectorStore(ws / ".memory" / "vectors").snapshot()
    if snap is None:
        return {}
    return {int(rowid): np.array(snap.matrix[row]) for rowid, row in
            zip(snap.fact_rowids.tolist(), snap.fact_rows.tolist(), strict=True)}


def resume_trial(ws: Path, embedder: Embedder, files: int, log: Log) -> Json:
    """Embed everything again, interrupted half way, then resumed (see the module's doc)."""
    from memfold.recall.modes import open_semantic

    memory_dir = ws / ".memory"
    whole = fact_vectors(ws)
    aside = memory_dir / "vectors-uninterrupted"
    (memory_dir / "vectors").rename(aside)
    try:
        with Memory.open(ws, watch=False) as memory:
            cut = Interrupting(embedder, max(len(whole) // 2, 1))
            log(f"{files} files: resume trial, interrupted after {cut.after:,} facts")
            started = time.perf_counter()
            with contextlib.suppress(Interrupted):
                open_semantic(memory_dir, cut).update(memory.index_backend)
            cut_s = time.perf_counter() - started
            watch = Stopwatch(embedder)
            log(f"{files} files: resume trial, resuming")
            started = time.perf_counter()
            resumed = open_semantic(memory_dir, watch).update(memory.index_backend)
            resume_s = time.perf_counter() - started
        after = fact_vectors(ws)
    finally:
        shutil.rmtree(memory_dir / "vectors", ignore_errors=True)
        aside.rename(memory_dir / "vectors")
    cosines = [float(after[rowid] @ vector) for rowid, vector in whole.items()
               if rowid in after]
    return {"interrupt_after_texts": cut.after, "texts_to_model_before": cut.texts,
            "texts_to_model_on_resume": watch.texts, "facts_embedded_on_resume": resumed,
            "texts_lost": cut.texts + watch.texts - len(whole),
            "interrupted_seconds": cut_s, "resume_seconds": resume_s,
            "facts_with_vectors": len(after), "facts_uninterrupted": len(whole),
            "min_cosine_to_uninterrupted": min(cosines) if cosines else None}


def incremental_round(ws: Path, embedder: Embedder, round_: int, seed: int,
                      vocabulary: Sequence[str]) -> Json:
    from memfold.recall.modes import open_semantic

    appended = append_bullets(ws, round_, seed, vocabulary)
    with lexical_only():
        started = time.perf_counter()
        with Memory.open(ws, watch=False) as memory:
            synced = memory.index().touched
        sync_s = time.perf_counter() - started
    watch = Stopwatch(embedder)
    with Memory.open(ws, watch=False) as memory:
        started = time.perf_counter()
        embedded = open_semantic(ws / ".memory", watch).update(memory.index_backend)
        embed_s = time.perf_counter() - started
    return {"files_appended": len(appended), "bullets_appended": len(appended) *
            BULLETS_PER_FILE, "files_synced": synced, "facts_embedded": embedded,
            "sync_seconds": sync_s, "embed_seconds": embed_s, "model_seconds": watch.seconds,
            "total_seconds": sync_s + embed_s}


def incremental(ws: Path, embedder: Embedder, seed: int, files: int, log: Log) -> Json:
    vocabulary = corpus.build_vocabulary()
    rounds = []
    for round_ in range(INCREMENTAL_ROUNDS):
        log(f"{files} files: incremental round {round_ + 1}/{INCREMENTAL_ROUNDS}")
        rounds.append(incremental_round(ws, embedder, round_, seed, vocabulary))
    return {"touched": TOUCHED, "bullets_per_file": BULLETS_PER_FILE, "rounds": rounds,
            **{key: stats([r[f"{key}_seconds"] for r in rounds])
               for key in ("sync", "embed", "total")}}


def query_set(ws: Path, daily: Sequence[str], seed: int) -> list[str]:
    """Up to `QUERIES` distinct plain-English queries drawn from the corpus with the seed."""
    drawn = build_queries(corpus_bullets(ws, daily), QUERIES * 3, seed)
    return list(dict.fromkeys(q.text for q in drawn))[:QUERIES]


def recall_in_process(ws: Path, embedder: Embedder, queries: Sequence[str]) -> Json:
    samples: list[float] = []
    hits: list[int] = []
    with Memory.open(ws) as memory:
        memory.set_embedder(embedder)
        memory.recall("warm-up query before the samples", k=K, now=AS_OF, mode="hybrid")
        for q in queries:
            started = time.perf_counter()
            found = memory.recall(q, k=K, now=AS_OF, mode="hybrid")
            samples.append(time.perf_counter() - started)
            hits.append(len(found.hits))
    return {"mode": "hybrid", "k": K, "queries": len(queries), "hits": hits,
            **summary(samples)}


def recall_cli(ws: Path, queries: Sequence[str], runs: int) -> Json:
    memfold = console_script()
    samples: list[float] = []
    hits: list[int] = []
    for n in range(runs):
        q = queries[n % len(queries)]
        argv = [*memfold, "--workspace", str(ws), "--as-of", AS_OF, "recall", q,
                "--mode", "hybrid", "--k", str(K), "--json"]
        started = time.perf_counter()
        out = run_process(argv)
        samples.append(time.perf_counter() - started)
        try:
            hits.append(len(json.loads(out)["results"]))
        except (ValueError, KeyError, TypeError):
            raise click.ClickException(f"memfold recall printed no JSON results for {q!r}"
                                       ) from None
    argv_shape = [Path(memfold[-1]).name, "--workspace", "WS", "--as-of", AS_OF, "recall",
                  "QUERY", "--mode", "hybrid", "--k", str(K), "--json"]
    return {"runs": runs, "argv": argv_shape, "hits": hits,
            **(stats(samples) if samples else {"median": None, "samples": []})}


def measure_size(files: int, seed: int, cli_runs: int, loader: Callable[[], Embedder],
                 log: Log, resume: bool = False) -> Json:
    with tempfile.TemporaryDirectory(prefix="memfold-embed-") as tmp:
        ws = Path(tmp) / "workspace"
        log(f"{files} files: generating the corpus")
        written = corpus.generate(ws, files=files, seed=seed)
        log(f"{files} files: lexical index build")
        build_s = lexical_build(ws)
        facts, index_bytes = index_facts(ws)
        log(f"{files} files: loading the model")
        embedder, load_s = timed_load(loader)
        embedded = full_embed(ws, embedder, files, log)
        trial = resume_trial(ws, embedder, files, log) if resume else None
        grown = incremental(ws, embedder, seed, files, log)
        queries = query_set(ws, written.daily, seed)
        log(f"{files} files: hybrid recall in-process ({len(queries)} queries)")
        in_process = recall_in_process(ws, embedder, queries)
        log(f"{files} files: hybrid recall as a whole process ({cli_runs} runs)")
        one_shot = recall_cli(ws, queries, cli_runs)
    return {
        "files": len(written.daily),
        "corpus": {"daily_files": len(written.daily), "entity_pages": len(written.entity_pages),
                   "bytes": written.bytes, "bullets_written": written.bullets},
        "facts": facts,
        "index_bytes": index_bytes,
        "lexical_build": {"seconds": build_s},
        "model": {"load_seconds": load_s, "identity": embedder.identity.to_dict()},
        "embed": embedded,
        **({"resume_trial": trial} if trial is not None else {}),
        "incremental": grown,
        "recall_in_process": in_process,
        "recall_cli": one_shot,
        "load_average_after": load_average(),
    }


def run_benchmark(sizes: list[int], seed: int, cli_runs: int, log: Log,
                  loader: Callable[[], Embedder] | None = None, *,
                  resume_trial: bool = False) -> Json:
    from memfold.embed import models, store

    load = loader or load_embedder
    log("loading the model (first load in this process)")
    first, first_s = timed_load(load)
    return {
        "benchmark": "embed",
        "checked_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "parameters": {"files": sizes, "seed": seed, "k": K, "queries": QUERIES,
                       "cli_runs": cli_runs, "touched": TOUCHED,
                       "bullets_per_file": BULLETS_PER_FILE,
                       "incremental_rounds": INCREMENTAL_ROUNDS, "as_of": AS_OF,
                       "resume_trial": resume_trial, "chunk": store.CHUNK,
                       "batch": models.BATCH, "batch_tokens": models.BATCH_TOKENS,
                       "argv": sys.argv[1:]},
        "environment": {**environment(), "load_average_before": load_average(),
                        "dont_write_bytecode": bool(sys.flags.dont_write_bytecode)},
        "model": {"identity": first.identity.to_dict(), "first_load_seconds": first_s},
        "sizes": [measure_size(files, seed, cli_runs, load, log, resume_trial)
                  for files in sizes],
    }


def load_average() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


# -- the table -------------------------------------------------------------------------------------


def table(sizes: list[Json]) -> list[str]:
    row = size_columns(sizes, 30, 16)

    def ms(value: float) -> str:
        return f"{value:.1f} ms"

    def cli(s: Json) -> str:
        median = s["recall_cli"]["median"]
        return "-" if median is None else duration(median)

    def trial(key: str, show: Callable[[Any], str]) -> Callable[[Json], str]:
        return lambda s: show(s["resume_trial"][key]) if "resume_trial" in s else "-"

    resumed = [
        row("resume trial: cut after", trial("texts_to_model_before", "{:,}".format)),
        row("  texts lost", trial("texts_lost", "{:,}".format)),
        row("  resumed: texts to model", trial("texts_to_model_on_resume", "{:,}".format)),
        row("  least cosine to whole run", trial("min_cosine_to_uninterrupted",
                                                 lambda c: "-" if c is None else f"{c:.6f}")),
    ] if any("resume_trial" in s for s in sizes) else []
    return [
        row("files", lambda s: f"{s['files']:,}"),
        row("facts in index", lambda s: f"{s['embed']['facts_in_index']:,}"),
        row("lexical index build", lambda s: duration(s["lexical_build"]["seconds"])),
        row("model load", lambda s: duration(s["model"]["load_seconds"])),
        row("facts embedded", lambda s: f"{s['embed']['facts_embedded']:,}"),
        row("embed time", lambda s: duration(s["embed"]["seconds"])),
        row("  of which in the model", lambda s: duration(s["embed"]["model_seconds"])),
        row("facts/s", lambda s: f"{s['embed']['facts_per_second']:,.0f}"),
        row(".memory/vectors/ on disk", lambda s: megabytes(s["embed"]["vectors_bytes"])),
        *resumed,
        row(f"+{TOUCHED}x{BULLETS_PER_FILE} bullets: embedded",
            lambda s: f"{s['incremental']['rounds'][0]['facts_embedded']}"),
        row("  sync (lexical)", lambda s: duration(s["incremental"]["sync"]["median"])),
        row("  embed new facts", lambda s: duration(s["incremental"]["embed"]["median"])),
        row("  total", lambda s: duration(s["incremental"]["total"]["median"])),
        row("hybrid recall p50 (in-process)", lambda s: ms(s["recall_in_process"]["p50_ms"])),
        row("hybrid recall p95 (in-process)", lambda s: ms(s["recall_in_process"]["p95_ms"])),
        row("memfold recall --mode hybrid", cli),
    ]


@click.command("embed")
@corpus_options()
@click.option("--cli-runs", default=CLI_RUNS, show_default=True, type=click.IntRange(min=0),
              help="Whole-process `memfold recall --mode hybrid` runs per size (0: none).")
@click.option("--resume-trial", is_flag=True,
              help="Also embed each size again, interrupted half way and resumed, and "
              "report what the resumed run sent to the model (costs one more embedding).")
@output_options("benchmarks/results/embed.json")
def embed_command(files_text: str, seed: int, cli_runs: int, resume_trial: bool, out: Path,
                  as_json: bool) -> None:
    """Time what semantic recall costs: model load, embedding every fact, incremental
    embedding, hybrid recall in-process and as a whole process.

    Needs pip install 'memfold[embed]'.  Each size gets a generated workspace in a temporary
    directory; embedding 10,000 files (about 140,000 facts) takes minutes.

    \b
    Example:
      memfold bench embed --files 365,10000
    """
    sizes = parse_sizes(files_text)
    result = run_benchmark(sizes, seed, cli_runs, lambda msg: click.echo(msg, err=True),
                           resume_trial=resume_trial)
    if save_result(result, out, as_json=as_json):
        return
    env, model = result["environment"], result["model"]
    click.echo(f"memfold bench embed: seed {seed}; model {model['identity']['model']} "
               f"(first load {duration(model['first_load_seconds'])}); python "
               f"{env['python']}, {env['cpus']} cpus, {env['platform']}")
    for line in table(result["sizes"]):
        click.echo(line)
    click.echo(f"wrote {out}", err=True)
