"""`memfold bench server`: the memory server's speed and recall quality, measured from outside.

This module owns the measurement.  It starts a private PostgreSQL cluster
(`pg_cluster.Cluster`), provisions a database as docs/server.md does, creates one tenant with
a bank per workload and one read-write token (memfold.server.admin, on the owner's URL), and
runs real `memfold serve` processes on loopback (`--rate 0`: no request limit).  Every request
goes through memfold's own client (`memfold.client.http.request`: urllib, a new connection
per request), as `memfold recall --server` sends it.

1. Load.  A generated corpus (`corpus.generate`, --files daily logs, the same one
   `memfold bench recall` uses) is imported whole into the bank `load`
   (`POST /v1/banks/load/import` with `client.files.read_workspace`'s body).  After one
   timed first recall (under `--recall-from copy` the replica fetches the bank and builds
   its index first; under the default, `postgres`, it reads the bank's rows), --clients threads
   start together and, until --seconds have passed, each sends requests one after another:
   a recall (`{"query", "k": 10, "mode": "lexical"}`, the queries `memfold bench recall`
   draws from the corpus) or, with probability --retain-share, a retain of one new bullet.
   Reported: p50 and p99 of each verb's latency and the requests answered per second.
   Beside them, `--local-ops` operations in the same mix from one thread: through HTTP
   (before the load: the server's cost without queueing behind other clients) and
   in-process on a local `Memory` over a copy of the same workspace; the server's
   overhead is the difference.  `GET /healthz` from one client (no token check, no
   database) shows how much of it is the HTTP round trip alone.  Both sides treat the
   corpus's last evening as now (`MEMFOLD_NOW` for the server process), so retains land on
   the same day's log.

2. LoCoMo through HTTP beside local (`--locomo PATH`).  Each conversation is evaluated as
   `memfold bench locomo` evaluates it (`locomo.run_conversation`, lexical mode), and again
   through the server: the conversation's workspace (`locomo.write_workspace`) is imported
   into a bank of its own and every question is sent as
   `POST /v1/banks/B/recall {"query", "k": 10, "mode": "lexical", "include_all": true}`,
   the cited sources mapped back to dialog turns and scored with locomo's own functions.
   locomo.py asks at "now" = noon after the conversation's last session and recency enters
   the ranking, so the server answering a conversation runs with that moment as
   MEMFOLD_NOW (one `memfold serve` per distinct moment); every answer's `as_of` is checked.

Latencies are wall-clock per request (`time.perf_counter`) in milliseconds; percentiles by
linear interpolation.  The clients, the server and PostgreSQL share this machine's cores, so
the figures are what one host does with all three on it.  A replica serves one bank's
requests one at a time (memfold.server.banks), so with every client on one bank the latency
under load is mostly waiting in line: about clients / throughput.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click

from memfold.memory import Memory

from . import corpus, locomo
from .index_bench import environment, output_options, save_result
from .recall_bench import AS_OF, Query, build_queries, corpus_bullets, percentile

Json = dict[str, Any]
Log = Callable[[str], None]

CLIENTS = 50
SECONDS = 30.0
RETAIN_SHARE = 0.1
FILES = 365
QUERIES = 200
LOCAL_OPS = 400
K = 10
TENANT = "bench"
LOAD_BANK = "load"
DATABASE = "memfold_bench"  # the database `stack` provisions
TOKEN_NAME = "bench-client"
READY_SECONDS = 60.0
RECALL_FROM = "postgres"  # `memfold serve --recall-from`'s default; "copy", the older mode
TARGET_POINTS = 1.0  # the server's LoCoMo R@10 within this many points of local's
KIND_SHARES = (("W", 0.40), ("B", 0.30), ("O", 0.15), ("S", 0.15))
BANK_BREAKS = re.compile(r"[^A-Za-z0-9_.-]+")


# -- the stack: PostgreSQL, a tenant, `memfold serve` --------------------------------------


@dataclass
class Stack:
    """A private cluster with one provisioned database, a tenant and its token."""

    cluster: Any  # pg_cluster.Cluster
    app_url: str  # what `memfold serve --db` connects with
    owner_url: str
    token: str
    workdir: Path
    postgres: str = ""

    def create_banks(self, names: Sequence[str]) -> None:
        from memfold.server import admin
        from memfold.server.db import connect_pool

        pool = connect_pool(self.owner_url, size=2)
        try:
            for name in names:
                admin.create_bank(pool, TENANT, name)
        finally:
            pool.close()


@contextlib.contextmanager
def stack(workdir: Path, log: Log) -> Iterator[Stack]:
    """Start the cluster, provision `memfold_bench`, create the tenant and token; tear down."""
    from memfold.server import INSTALL_HINT

    try:
        import psycopg

        from memfold.server import admin
        from memfold.server.db import connect_pool
    except ImportError:
        raise click.ClickException(INSTALL_HINT) from None
    from .pg_cluster import Cluster

    log("starting a private PostgreSQL cluster")
    try:
        cluster = Cluster.start()
    except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
        raise click.ClickException(f"cannot start PostgreSQL: {exc}") from None
    try:
        db = cluster.provision(DATABASE)
        with psycopg.connect(cluster.url(), autocommit=True) as conn:
            row = conn.execute("SHOW server_version").fetchone()
        pool = connect_pool(db.owner, size=2)
        try:
            admin.create_tenant(pool, TENANT)
            admin.create_bank(pool, TENANT, LOAD_BANK)
            token = admin.create_token(pool, TENANT, TOKEN_NAME, ("read", "write"))
        finally:
            pool.close()
        yield Stack(cluster, db.app, db.owner, token, workdir,
                    str(row[0]) if row else "unknown")
    finally:
        cluster.destroy()


@dataclass
class Served:
    """One `memfold serve` process on loopback."""

    process: subprocess.Popen[bytes]
    url: str
    log: Path

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)


@contextlib.contextmanager
def serving(bench: Stack, name: str, now: str, workers: int = 1,
            recall_from: str = RECALL_FROM) -> Iterator[Served]:
    """`memfold serve --rate 0 --workers N --recall-from R` on a free port with
    MEMFOLD_NOW=`now`, ready when it yields."""
    from .pg_cluster import free_port

    port = free_port()
    log_path = bench.workdir / f"serve-{name}.log"
    with open(log_path, "wb") as handle:
        process = subprocess.Popen(
            [sys.executable, "-m", "memfold", "serve", "--db", bench.app_url,
             "--port", str(port), "--rate", "0", "--workers", str(workers),
             "--cache", str(bench.workdir / f"cache-{name}"), "--recall-from", recall_from],
            stdout=subprocess.DEVNULL, stderr=handle,
            env={**os.environ, "MEMFOLD_NOW": now})
    served = Served(process, f"http://127.0.0.1:{port}", log_path)
    try:
        wait_ready(served)
        yield served
    finally:
        served.stop()


def wait_ready(served: Served, seconds: float = READY_SECONDS) -> None:
    """Until /readyz answers 200, `seconds` at most (a loaded machine starts slowly).  A
    server whose schema is not the database's never becomes ready (its /readyz says
    "schema at X, wanted Y"): ClickException at once, one line naming both."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if served.process.poll() is not None:
            raise click.ClickException(f"memfold serve exited: {tail(served.log)}")
        status = readiness(served.url)
        if status == "ready":
            return
        mismatch = re.fullmatch(r"schema at (\S+), wanted (\S+)", status or "")
        if mismatch:
            raise click.ClickException(
                f"memfold serve will never be ready: the database's schema is "
                f"{mismatch[1]}, the server's {mismatch[2]} (/readyz: {status})")
        time.sleep(0.1)  # not listening yet, or the database not answering: poll again
    raise click.ClickException(f"memfold serve was not ready in {seconds:g} s: "
                               f"{tail(served.log)}")


def readiness(url: str) -> str | None:
    """What `url`'s /readyz says: "ready" (200), the `status` of a 503's body (why not),
    or None while nothing answers."""
    try:
        with urllib.request.urlopen(url + "/readyz", timeout=2) as answer:  # noqa: S310
            return "ready" if answer.status == 200 else f"HTTP {answer.status}"
    except urllib.error.HTTPError as refused:
        try:
            return str(json.loads(refused.read())["status"])
        except (ValueError, KeyError, TypeError, OSError):
            return f"HTTP {refused.code}"
    except OSError:
        return None


def tail(path: Path) -> str:
    try:
        return " | ".join(path.read_text("utf-8", "replace").strip().splitlines()[-5:])
    except OSError:
        return "(no log)"


def call(served: Served, token: str, bank: str, verb: str, body: Any, *,
         timeout: float | None = None) -> Any:
    """One request through memfold's client (its own timeout unless `timeout`); its errors
    pass through as memfold's."""
    from memfold.client.http import bank_path, request

    if timeout is None:
        return request(served.url, token, "POST", bank_path(bank, verb), body)
    return request(served.url, token, "POST", bank_path(bank, verb), body, timeout=timeout)


def load_bank(served: Served, token: str, bank: str, workspace: Path, *,
              timeout: float | None = None) -> Json:
    """Import a local workspace into an empty bank; what the server answered."""
    from memfold.client.files import read_workspace
    from memfold.errors import MemfoldError

    try:
        answer: Json = call(served, token, bank, "import", read_workspace(workspace),
                            timeout=timeout)
    except MemfoldError as exc:
        raise click.ClickException(f"importing into bank {bank!r}: {exc}") from None
    if answer.get("stored") != "whole":
        raise click.ClickException(f"bank {bank!r} was not empty: {answer}")
    return answer


# -- statistics --------------------------------------------------------------------------


def latency(seconds: Sequence[float]) -> Json:
    if not seconds:
        return {"n": 0, "p50_ms": None, "p99_ms": None, "mean_ms": None, "max_ms": None}
    ms = [s * 1000 for s in seconds]
    return {"n": len(ms), "p50_ms": percentile(ms, 0.5), "p99_ms": percentile(ms, 0.99),
            "mean_ms": sum(ms) / len(ms), "max_ms": max(ms)}


# -- part 1: load ------------------------------------------------------------------------


class BulletMaker:
    """New Retain bullets in the corpus's style: a kind, maybe an entity, an opener, words."""

    def __init__(self, seed: int, vocabulary: Sequence[str]) -> None:
        self.rng = random.Random(seed)
        self.words = list(vocabulary)
        self.weights = corpus.zipf_weights(len(self.words))
        self.names = list(corpus.ENTITIES)

    def make(self) -> str:
        rng = self.rng
        kind = rng.choices([k for k, _ in KIND_SHARES], weights=[w for _, w in KIND_SHARES])[0]
        about = f" @{rng.choice(self.names)}" if rng.random() < 0.6 else ""
        words = rng.choices(self.words, cum_weights=self.weights, k=rng.randint(5, 14))
        return f"{kind}{about}: {rng.choice(corpus.OPENERS[kind])} {' '.join(words)}."


@dataclass
class Tally:
    """One client's samples: seconds per verb, and errors by type."""

    samples: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: Counter[str] = field(default_factory=Counter)
    last: float = 0.0


def client(served: Served, token: str, queries: Sequence[Query], bullets: BulletMaker,
           share: float, seed: int, gate: threading.Barrier, clock: list[float],
           seconds: float, tally: Tally) -> None:
    """Send requests one after another from the moment the gate opens until the time is up."""
    from memfold.errors import MemfoldError

    rng = random.Random(seed)
    gate.wait()
    deadline = clock[0] + seconds
    while time.perf_counter() < deadline:
        body: Json
        if rng.random() < share:
            verb, body = "retain", {"bullets": [bullets.make()]}
        else:
            verb, body = "recall", {"query": rng.choice(queries).text, "k": K,
                                    "mode": "lexical"}
        started = time.perf_counter()
        try:
            call(served, token, LOAD_BANK, verb, body)
        except (MemfoldError, ValueError) as exc:  # counted; the client carries on
            tally.errors[f"{verb}: {type(exc).__name__}"] += 1
        else:
            tally.samples[verb].append(time.perf_counter() - started)
        tally.last = time.perf_counter()


def http_load(served: Served, token: str, queries: Sequence[Query], vocabulary: Sequence[str],
              clients: int, seconds: float, share: float, seed: int) -> Json:
    clock: list[float] = []
    gate = threading.Barrier(clients, action=lambda: clock.append(time.perf_counter()))
    tallies = [Tally() for _ in range(clients)]
    threads = [threading.Thread(
        target=client, name=f"bench-client-{n}", daemon=True,
        args=(served, token, queries, BulletMaker(seed * 7919 + 1 + n, vocabulary), share,
              seed * 104_729 + 1 + n, gate, clock, seconds, tallies[n]))
        for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = max(t.last for t in tallies) - clock[0]
    merged: dict[str, list[float]] = defaultdict(list)
    errors: Counter[str] = Counter()
    for t in tallies:
        for verb, samples in t.samples.items():
            merged[verb].extend(samples)
        errors.update(t.errors)
    answered = sum(len(s) for s in merged.values())
    return {"clients": clients, "seconds": elapsed, "requests": answered,
            "throughput_rps": answered / elapsed if elapsed > 0 else 0.0,
            "errors": dict(sorted(errors.items())),
            **{verb: {**latency(merged[verb]),
                      "throughput_rps": len(merged[verb]) / elapsed if elapsed > 0 else 0.0}
               for verb in ("recall", "retain")}}


def one_at_a_time(recall: Callable[[str], object], retain: Callable[[str], object],
                  queries: Sequence[Query], vocabulary: Sequence[str], count: int,
                  share: float, seed: int) -> Json:
    """`count` operations in the load's mix, one after another from this thread, timed."""
    rng = random.Random(seed * 104_729)
    bullets = BulletMaker(seed * 7919, vocabulary)
    samples: dict[str, list[float]] = defaultdict(list)
    started_all = time.perf_counter()
    for _ in range(count):
        if rng.random() < share:
            verb, action, argument = "retain", retain, bullets.make()
        else:
            verb, action, argument = "recall", recall, rng.choice(queries).text
        started = time.perf_counter()
        action(argument)
        samples[verb].append(time.perf_counter() - started)
    elapsed = time.perf_counter() - started_all
    return {"threads": 1, "seconds": elapsed, "operations": count,
            "throughput_ops": count / elapsed if elapsed > 0 else 0.0,
            **{verb: latency(samples[verb]) for verb in ("recall", "retain")}}


def local_ops(ws: Path, queries: Sequence[Query], vocabulary: Sequence[str], count: int,
              share: float, seed: int) -> Json:
    """The load's mix in-process on a local Memory (opened as a replica opens its banks)."""
    with Memory.open(ws, now=AS_OF, source=TOKEN_NAME) as memory:
        memory.recall(queries[0].text, k=K, mode="lexical")  # it stats every file once
        return one_at_a_time(lambda text: memory.recall(text, k=K, mode="lexical"),
                             lambda bullet: memory.retain([bullet]),
                             queries, vocabulary, count, share, seed)


def http_ops(served: Served, token: str, queries: Sequence[Query],
             vocabulary: Sequence[str], count: int, share: float, seed: int) -> Json:
    """The very operations `local_ops` times (the same seed), through HTTP from one client:
    the server's cost without queueing behind other clients."""
    return one_at_a_time(
        lambda text: call(served, token, LOAD_BANK, "recall",
                          {"query": text, "k": K, "mode": "lexical"}),
        lambda bullet: call(served, token, LOAD_BANK, "retain", {"bullets": [bullet]}),
        queries, vocabulary, count, share, seed)


def healthz_floor(served: Served, token: str, count: int) -> Json:
    """GET /healthz from one client through the same client code: HTTP's own round trip
    (a new connection, uvicorn, JSON) with no token check, no database and no bank."""
    from memfold.client.http import request

    samples = []
    for _ in range(count):
        started = time.perf_counter()
        request(served.url, token, "GET", "/healthz")
        samples.append(time.perf_counter() - started)
    return latency(samples)


def overhead(http: Json, local: Json) -> Json:
    out: Json = {}
    for verb in ("recall", "retain"):
        for stat in ("p50_ms", "p99_ms"):
            a, b = http[verb][stat], local[verb][stat]
            if a is not None and b is not None:
                out[f"{verb}_{stat}_added"] = a - b
                out[f"{verb}_{stat}_ratio"] = a / b if b else None
    return out


def run_load(bench: Stack, files: int, seed: int, count: int, clients: int, seconds: float,
             share: float, local_count: int, log: Log, workers: int = 1,
             recall_from: str = RECALL_FROM) -> Json:
    ws, local_ws = bench.workdir / "load-ws", bench.workdir / "load-local"
    log(f"load: generating a corpus of {files} daily logs")
    generated = corpus.generate(ws, files=files, seed=seed)
    shutil.copytree(ws, local_ws)
    queries = build_queries(corpus_bullets(ws, generated.daily), count, seed)
    vocabulary = corpus.build_vocabulary()
    log("load: building the local index and timing the local operations")
    started = time.perf_counter()
    with Memory.open(local_ws) as memory:
        memory.index(full=True, judge=False)  # the index alone, as the server's load
    local_index = time.perf_counter() - started
    local = local_ops(local_ws, queries, vocabulary, local_count, share, seed)
    with serving(bench, "load", AS_OF, workers, recall_from) as served:
        log(f"load: importing into bank {LOAD_BANK!r}")
        started = time.perf_counter()
        imported = load_bank(served, bench.token, LOAD_BANK, ws)
        import_s = time.perf_counter() - started
        started = time.perf_counter()
        call(served, bench.token, LOAD_BANK, "recall",
             {"query": queries[0].text, "k": K, "mode": "lexical"})
        first_s = time.perf_counter() - started
        floor = healthz_floor(served, bench.token, min(local_count, 200))
        log(f"load: {local_count} operations from one client")
        single = http_ops(served, bench.token, queries, vocabulary, local_count, share, seed)
        log(f"load: {clients} clients for {seconds:g} s")
        http = http_load(served, bench.token, queries, vocabulary, clients, seconds, share,
                         seed)
        status = call(served, bench.token, LOAD_BANK, "status", {})
    return {"corpus": {"daily_files": len(generated.daily),
                       "entity_pages": len(generated.entity_pages),
                       "bullets": generated.bullets, "bytes": generated.bytes},
            "queries": len(queries),
            "import": {"seconds": import_s, "files": imported["files"]},
            "first_recall_seconds": first_s,
            "local_index_seconds": local_index,
            "bank_after": {"facts": status.get("facts"), "files": status.get("files")},
            "http": http, "http_one_client": single, "local": local, "healthz": floor,
            "overhead": {"one_client": overhead(single, local),
                         f"{clients}_clients": overhead(http, local)}}


# -- part 2: LoCoMo through HTTP beside local ---------------------------------------------


def bank_name(sample_id: str) -> str:
    return ("locomo-" + BANK_BREAKS.sub("-", sample_id).strip("-."))[:64]


def http_ranker(served: Served, token: str, bank: str, sources: dict[str, str], k: int,
                seen: list[str], seconds: list[float], mode: str = "lexical") -> locomo.Ranker:
    from memfold.errors import MemfoldError

    def rank(question: str) -> list[str]:
        started = time.perf_counter()
        try:
            answer = call(served, token, bank, "recall",
                          {"query": question, "k": k, "mode": mode, "include_all": True})
        except MemfoldError as exc:
            raise click.ClickException(f"recall on bank {bank!r}: {exc}") from None
        seconds.append(time.perf_counter() - started)
        seen.append(str(answer.get("as_of")))
        return [sources[hit["source"]] for hit in answer["results"]
                if hit.get("source") in sources]
    return rank


def run_locomo(bench: Stack, path: Path, limit: int | None, k: int, log: Log,
               recall_from: str = RECALL_FROM, mode: str = "lexical") -> Json:
    """Each conversation imported through one replica, then asked through another one
    started afresh (`--recall-from`), which never opened the bank before its first question
    (with `postgres` it makes no copy of it at all), in recall mode `mode` (local memfold
    too).  In semantic and hybrid mode the first replica to ask embeds the facts and stores
    their vectors; a third replica, started afresh after it, then asks each conversation's
    first question once more (`first_request_stored_ms`: a fresh replica's first request
    on a bank whose vectors are stored)."""
    conversations = locomo.load(path)[:limit]
    cutoffs = locomo.cutoffs_for(k)
    bench.create_banks([bank_name(c.sample_id) for c in conversations])
    by_now: dict[datetime, list[locomo.Conversation]] = defaultdict(list)
    for conv in conversations:
        by_now[conv.now].append(conv)
    merged: dict[str, list[locomo.Outcome]] = {}
    samples: dict[str, Json] = {}
    for number, (now, group) in enumerate(by_now.items()):
        moment = now.isoformat(timespec="seconds")
        local: dict[str, tuple[Any, float, dict[str, str], float]] = {}
        with serving(bench, f"locomo-load-{number}", moment) as loader:
            for conv in group:
                log(f"locomo {conv.sample_id}: {len(conv.turns)} turns, "
                    f"{len(conv.questions)} questions, local then imported")
                started = time.perf_counter()
                runs, _, _ = locomo.run_conversation(conv, k, bench.workdir / "locomo-local",
                                                     (mode,))
                local_s = time.perf_counter() - started
                started = time.perf_counter()
                ws = bench.workdir / "locomo-server" / conv.sample_id
                sources = locomo.write_workspace(ws, conv)
                load_bank(loader, bench.token, bank_name(conv.sample_id), ws)
                local[conv.sample_id] = (runs, local_s, sources, time.perf_counter() - started)
        with serving(bench, f"locomo-{number}", moment, recall_from=recall_from) as served:
            for conv in group:
                runs, local_s, sources, load_s = local[conv.sample_id]
                bank = bank_name(conv.sample_id)
                seen: list[str] = []
                seconds: list[float] = []
                started = time.perf_counter()
                found = locomo.ask(conv, {"server": http_ranker(
                    served, bench.token, bank, sources, k, seen, seconds, mode)})
                server_s = load_s + time.perf_counter() - started
                outcomes = [locomo.Outcome(o.sample_id, o.category, o.evidence,
                                           {"local": o.ranked["memfold"],
                                            "server": s.ranked["server"],
                                            "bm25": o.ranked["bm25"]})
                            for o, s in zip(runs[0], found, strict=True)]
                merged[conv.sample_id] = outcomes
                samples[conv.sample_id] = {
                    "sample_id": conv.sample_id, "turns": len(conv.turns), "now": moment,
                    "local_seconds": local_s, "server_seconds": server_s,
                    "first_request_ms": 1000 * seconds[0] if seconds else None,
                    "server_recall": latency(seconds[1:]),
                    "as_of_mismatches": sum(1 for s in seen if s != moment),
                    "same_ranking": sum(1 for o in outcomes
                                        if o.ranked["local"] == o.ranked["server"]),
                    **locomo.figures(outcomes, cutoffs)}
        if mode != "lexical":
            stored_first(bench, f"locomo-again-{number}", moment, recall_from, mode, group,
                         samples)
    pooled = [o for conv in conversations for o in merged[conv.sample_id]]
    categories = locomo.by_category(pooled, cutoffs)
    overall = categories["overall"]
    local_r, server_r = (overall[s][f"recall@{k}"] for s in ("local", "server"))
    difference = (100 * (server_r - local_r)
                  if local_r is not None and server_r is not None else None)
    return {
        "dataset": {"file": path.name, "sha256": locomo.file_sha256(path),
                    "citation": locomo.CITATION},
        "recall_from": recall_from,
        "first_request_ms": [samples[c.sample_id]["first_request_ms"] for c in conversations],
        "first_request_stored_ms": [samples[c.sample_id].get("first_request_stored_ms")
                                    for c in conversations],
        "parameters": {"k": k, "cutoffs": cutoffs, "mode": mode, "include_all": True,
                       "now": "noon UTC on the day after each conversation's last session "
                              "(the server: MEMFOLD_NOW)",
                       "request": {"query": "QUESTION", "k": k, "mode": mode,
                                   "include_all": True}},
        "conversations": len(conversations),
        "questions": len(pooled),
        "local_r_at_k": None if local_r is None else 100 * local_r,
        "server_r_at_k": None if server_r is None else 100 * server_r,
        "difference_points": difference,
        "target_points": TARGET_POINTS,
        "within_target": difference is not None and abs(difference) <= TARGET_POINTS,
        "same_ranking": sum(1 for o in pooled if o.ranked["local"] == o.ranked["server"]),
        "as_of_mismatches": sum(s["as_of_mismatches"] for s in samples.values()),
        "categories": categories,
        "per_conversation": [samples[c.sample_id] for c in conversations],
    }


def stored_first(bench: Stack, name: str, moment: str, recall_from: str, mode: str,
                 group: Sequence[locomo.Conversation], samples: dict[str, Json]) -> None:
    """A replica started afresh once the vectors are stored: each conversation's first
    question, timed (`first_request_stored_ms`)."""
    with serving(bench, name, moment, recall_from=recall_from) as again:
        for conv in group:
            if not conv.questions:
                continue
            started = time.perf_counter()
            call(again, bench.token, bank_name(conv.sample_id), "recall",
                 {"query": conv.questions[0].text, "k": locomo.K, "mode": mode,
                  "include_all": True})
            samples[conv.sample_id]["first_request_stored_ms"] = (
                1000 * (time.perf_counter() - started))


# -- the command ---------------------------------------------------------------------------


def run_benchmark(*, clients: int, seconds: float, share: float, files: int, seed: int,
                  count: int, local_count: int, locomo_path: Path | None,
                  conversations: int | None, log: Log, workers: int = 1,
                  recall_from: str = RECALL_FROM, load: bool = True,
                  mode: str = "lexical") -> Json:
    started = time.perf_counter()
    result: Json = {
        "benchmark": "server",
        "checked_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "parameters": {
            "clients": clients, "seconds": seconds, "retain_share": share, "files": files,
            "seed": seed, "queries": count, "local_ops": local_count, "k": K,
            "as_of": AS_OF, "recall": {"query": "QUERY", "k": K, "mode": "lexical"},
            "retain": {"bullets": ["ONE NEW BULLET"]},
            "client": "memfold.client.http.request (urllib, a new connection per request), "
                      "one thread per client, requests back to back",
            "server": f"`memfold serve --rate 0 --workers {workers} --recall-from "
                      f"{recall_from}` (defaults otherwise) on loopback", "workers": workers,
            "recall_from": recall_from,
            "statistic": "p50 and p99, linear interpolation", "unit": "ms",
            "argv": sys.argv[1:]},
        "environment": {**environment(), "load_average_at_start": load_average()},
    }
    with tempfile.TemporaryDirectory(prefix="memfold-bench-server-") as tmp, \
            stack(Path(tmp), log) as bench:
        result["environment"]["postgresql"] = bench.postgres
        result["load"] = run_load(bench, files, seed, count, clients, seconds, share,
                                  local_count, log, workers, recall_from) if load else None
        result["locomo"] = (run_locomo(bench, locomo_path, conversations, locomo.K, log,
                                       recall_from, mode)
                            if locomo_path is not None else None)
    result["environment"]["load_average_at_end"] = load_average()
    result["seconds"] = time.perf_counter() - started
    return result


def load_average() -> list[float] | None:
    """The machine's 1, 5 and 15 minute load: the clients, server and database share it."""
    return list(os.getloadavg()) if hasattr(os, "getloadavg") else None


def ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}" if value < 10 else f"{value:.1f}"


def load_lines(load: Json) -> list[str]:
    http, one, local = load["http"], load["http_one_client"], load["local"]
    rows = [(f"via HTTP, {http['clients']} clients", http, True),
            ("via HTTP, one client", one, False), ("in-process, one thread", local, False)]
    lines = [f"{'':<32}{'p50 ms':>10}{'p99 ms':>10}{'n':>8}{'per s':>10}"]
    for verb in ("recall", "retain"):
        for label, data, rate in rows:
            got = data[verb]
            per_second = f"{got['throughput_rps']:>10.1f}" if rate else ""
            lines.append(f"{verb + ' ' + label:<32}{ms(got['p50_ms']):>10}"
                         f"{ms(got['p99_ms']):>10}{got['n']:>8}{per_second}")
    floor = load["healthz"]
    lines.append(f"{'GET /healthz, one client':<32}{ms(floor['p50_ms']):>10}"
                 f"{ms(floor['p99_ms']):>10}{floor['n']:>8}")
    lines.append(f"throughput: {http['requests']} requests answered in {http['seconds']:.1f} s "
                 f"by {http['clients']} clients = {http['throughput_rps']:.1f}/s "
                 f"(errors: {sum(http['errors'].values())}); one HTTP client "
                 f"{one['throughput_ops']:.1f}/s; in-process, one thread "
                 f"{local['throughput_ops']:.1f}/s")
    lines.append(f"import of {load['corpus']['daily_files']} logs "
                 f"({load['corpus']['bullets']} bullets): {load['import']['seconds']:.2f} s; "
                 f"first recall (from a copy, the replica fetches and indexes the bank): "
                 f"{load['first_recall_seconds']:.2f} s")
    return lines


def locomo_lines(data: Json) -> list[str]:
    def pct(value: float | None) -> str:
        return "-" if value is None else f"{value:.1f}%"

    k = data["parameters"]["k"]
    diff = data["difference_points"]
    lines = [f"LoCoMo ({data['conversations']} conversations, {data['questions']} questions, "
             f"{data['parameters']['mode']}): R@{k} local {pct(data['local_r_at_k'])}, "
             f"through HTTP {pct(data['server_r_at_k'])}, difference "
             f"{'-' if diff is None else f'{diff:+.2f}'} points "
             f"({'within' if data['within_target'] else 'outside'} the "
             f"{data['target_points']:g}-point target); identical top {k}: "
             f"{data['same_ranking']}/{data['questions']}"]
    lines += locomo.table({"parameters": data["parameters"],
                           "categories": data["categories"]})
    return lines


@click.command("server")
@click.option("--clients", default=CLIENTS, show_default=True, type=click.IntRange(1, 500),
              help="Concurrent clients, a thread each.")
@click.option("--seconds", default=SECONDS, show_default=True,
              type=click.FloatRange(0.5, 3600), help="How long the clients send requests.")
@click.option("--retain-share", "share", default=RETAIN_SHARE, show_default=True,
              type=click.FloatRange(0, 1), help="Share of requests that are retains.")
@click.option("--files", default=FILES, show_default=True, type=click.IntRange(min=5),
              help="Daily logs in the load bank's generated corpus.")
@click.option("--seed", default=0, show_default=True, help="Seed of the corpus and the mix.")
@click.option("--queries", "count", default=QUERIES, show_default=True,
              type=click.IntRange(min=1), help="Recall queries drawn from the corpus.")
@click.option("--local-ops", "local_count", default=LOCAL_OPS, show_default=True,
              type=click.IntRange(min=1), help="Operations timed in-process, one thread.")
@click.option("--locomo", "locomo_path", type=click.Path(exists=True, dir_okay=False,
                                                         path_type=Path),
              help="A LoCoMo JSON file, e.g. ../shared/bench/locomo-dev.json: compare its "
                   "R@10 through the server with local (left out without it).")
@click.option("--conversations", type=click.IntRange(min=1),
              help="Only the first N LoCoMo conversations.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="`memfold serve --workers` for the load (LoCoMo runs one worker).")
@click.option("--recall-from", type=click.Choice(["postgres", "copy"]), default=RECALL_FROM,
              show_default=True, help="`memfold serve --recall-from` of the load's replica "
                                      "and of the one LoCoMo asks (a fresh one, after another "
                                      "imported the banks); run it with each to compare.")
@click.option("--load/--no-load", "load", default=True, show_default=True,
              help="Run the load part (--no-load: LoCoMo only).")
@click.option("--mode", type=click.Choice(["lexical", "semantic", "hybrid"]),
              default="lexical", show_default=True,
              help="The recall mode LoCoMo is asked in, locally and through HTTP (semantic "
                   "and hybrid need the embed extra).")
@output_options("benchmarks/results/server.json")
def server_command(clients: int, seconds: float, share: float, files: int, seed: int,
                   count: int, local_count: int, locomo_path: Path | None,
                   conversations: int | None, workers: int, recall_from: str, load: bool,
                   mode: str, out: Path, as_json: bool) -> None:
    """The memory server measured from outside: latency and throughput under concurrent
    clients beside the same operations in-process, and LoCoMo recall through HTTP beside local.

    Starts a private PostgreSQL cluster (the machine's initdb and pg_ctl) and real
    `memfold serve` processes; needs the server extra (pip install 'memfold[server]').

    \b
    Example:
      memfold bench server --clients 50 --seconds 30 --locomo ../shared/bench/locomo-dev.json
    """
    result = run_benchmark(clients=clients, seconds=seconds, share=share, files=files,
                           seed=seed, count=count, local_count=local_count,
                           locomo_path=locomo_path, conversations=conversations,
                           log=lambda msg: click.echo(msg, err=True), workers=workers,
                           recall_from=recall_from, load=load, mode=mode)
    if save_result(result, out, as_json=as_json):
        return
    env = result["environment"]
    busy = env["load_average_at_start"]
    click.echo(f"memfold bench server: {clients} clients x {seconds:g} s, "
               f"{100 * share:g}% retains, {files} daily logs; python {env['python']}, "
               f"PostgreSQL {env['postgresql']}, {env['cpus']} cpus"
               + (f", load average {busy[0]:.2f} at the start" if busy else ""))
    lines = load_lines(result["load"]) if result["load"] is not None else []
    if result["locomo"] is not None:
        lines += ["", *locomo_lines(result["locomo"])]
    for line in lines:
        click.echo(line)
    click.echo(f"wrote {out}", err=True)
