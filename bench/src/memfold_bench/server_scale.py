"""`memfold bench server-scale`: how a replica's costs grow with a bank's size, the number of
banks and the number of replicas (issue 36's "Benchmarks", every figure beside its target).

This module owns that measurement.  It starts a private PostgreSQL cluster, a tenant and a
token as `memfold bench server` does (server_bench.stack), generates two corpora
(`corpus.generate`: --small/--bank-files and --large daily logs), imports each whole into a
bank of its own and runs real `memfold serve` processes on loopback (`--rate 0`).  Every
request goes through memfold's own client.  The default is small (minutes); the issue's
sizes are `--banks 100 --bank-files 365 --large 10000 --replicas 2 --writers 4`.  The parts
beyond one bank pair and one replica (items 1, 5a-5d) are server_fleet's.

Reported, in this order:

1. import: seconds to import each bank; then the small bank's export imported into --banks
   less one banks more (--importers replicas at once; server_fleet.copy_banks);
2. first request: a fresh replica's first recall on each bank (under `--recall-from copy` it
   fetches the bank and builds its derived workspace; under the default, `postgres`, it
   reads the bank's rows) beside the median of --warm warm recalls after it;
3. retain p50/p99 into the small and the large bank, --retains each, the two banks taking
   turns (A/B interleaved), and the bytes the replica process read per retain (`rchar` of
   /proc/PID/io: every read(2), sockets included) — a retain that re-reads its bank shows
   the bank's size here;
4. recall on the large bank at 1 and --clients clients for --seconds each: requests a second
   and p50/p99 (lexical, k=10, the queries `memfold bench recall` draws from the corpus).
   A replica answering from PostgreSQL keeps a bank version's answers (server.pgcache), and
   the retains just made a new version (the first write after an import also judges every
   fact once), so the timed runs would start on an empty cache that fills as they go: a
   different thing for each server and run length.  So `--clients` clients are timed on the
   imported bank before the retains (`recall_large_imported`), and after the retains each
   distinct query is sent once from one client (`recall_large_cold`: what meeting a query
   the first time in a bank version costs), then the timed runs (`recall_large`) read a
   version whose queries were all met once, as steady traffic does.  Each of these also
   gives the CPU a recall cost the replica process and the PostgreSQL cluster (its
   postmaster's processes), from /proc, over the run;
5. the replica's resident memory (VmRSS) after starting, after the banks were fetched and
   at the end;
6. after a restart: the replica stopped (SIGTERM) and started again on the same --cache, its
   first request on the large bank beside the median of --warm warm ones after it, --restarts
   times (the medians of the runs, each run kept); then once more, started again, its first
   request on the large bank after --warm recalls on the small bank: what the large bank's
   own first request costs in a process and on connections already in use (the bank's
   answers not kept yet, the query's words met in the other bank's questions or not), beside
   the restart's first, which also pays for whatever the process and its connections do on
   their first request;
5a. replicas 2..--replicas started afresh beside the first: each one's first recall on the
   large bank beside --warm warm ones, then recall on the large bank at 1 and --clients
   clients spread over all of them (client n on replica n mod R);
5b. retains from 1 and --writers writers at once, writer w on replica w mod R, each taking
   turns between the small and the large bank (server_fleet.spread_retains);
5c. the database's size per 1,000 facts (every bank's);
5d. a replica started afresh answering --rss-queries recalls on each of the --banks banks
   in turn, then the large bank: its RSS after 1, 10, 100... banks;
7. verb by verb (`--verbs`): a fresh replica's first request of each read verb on the large
   bank, and the bytes it wrote under its cache for it (server_verbs);
8. with `--locomo PATH`, LoCoMo through HTTP beside local in each `--locomo-mode`
   (server_bench.run_locomo, on a stack of its own each).

`--server-src DIR` serves with the memfold package under DIR (put first on the replica's
PYTHONPATH; the client and harness stay this one), to measure another version of the server
side by side with the same harness.  Everything runs on this machine: the clients, the
replica and PostgreSQL share its cores.
"""

from __future__ import annotations

import contextlib
import os
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, cast

import click

from . import corpus, locomo, server_bench, server_fleet, server_verbs
from .index_bench import environment, output_options, save_result, timed
from .recall_bench import AS_OF, Query, build_queries, corpus_bullets
from .server_bench import TENANT, Served, Stack, latency, stack, wait_ready
from .server_fleet import (
    PATIENCE,
    cpu_per_request,
    proc_value,
    recall_body,
    replicas_of,
    rss_mb,
)

Json = dict[str, Any]
K = server_fleet.K
Log = Callable[[str], None]

SMALL, LARGE = 60, 365  # the sizes: --bank-files 365 --large 10000
BANKS = 5  # the issue's: --banks 100
REPLICAS = 2
WRITERS = 4
RETAINS = 10
RESTARTS = 3
CLIENTS = 20
SECONDS = 5.0
WARM = 20
QUERIES = 200


def call(served: Served, token: str, bank: str, verb: str, body: Any) -> Any:
    """One request, patient enough for a large bank's first (`server_bench.call`)."""
    return server_bench.call(served, token, bank, verb, body, timeout=PATIENCE)


@contextlib.contextmanager
def replica(bench: Stack, name: str, server_src: Path | None, *,
            cache: str = "one", recall_from: str = server_bench.RECALL_FROM,
            workers: int = 1) -> Iterator[Served]:
    """One `memfold serve --workers N` on the cache directory `cache`, ready when it
    yields; stopped after (SIGTERM: it drains and closes its banks)."""
    import subprocess
    import sys

    from .pg_cluster import free_port

    port = free_port()
    log_path = bench.workdir / f"serve-{name}.log"
    env = {**os.environ, "MEMFOLD_NOW": AS_OF}
    if server_src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(server_src),
                                             *filter(None, [env.get("PYTHONPATH")])])
    with open(log_path, "wb") as handle:
        process = subprocess.Popen(
            [sys.executable, "-m", "memfold", "serve", "--db", bench.app_url, "--port",
             str(port), "--rate", "0", "--no-vectors",
             "--cache", str(bench.workdir / f"cache-{cache}"), "--recall-from", recall_from,
             "--workers", str(workers)],
            stdout=subprocess.DEVNULL, stderr=handle, env=env)
    served = Served(process, f"http://127.0.0.1:{port}", log_path)
    try:
        wait_ready(served, PATIENCE)
        yield served
    finally:
        served.stop()


def first_and_warm(served: Served, token: str, bank: str, queries: Sequence[Query],
                   warm: int) -> Json:
    def recall(query: Query) -> float:
        return timed(partial(call, served, token, bank, "recall", recall_body(query)))

    first = recall(queries[0])
    warmed = [recall(query) for query in queries[1:warm + 1]]
    median = statistics.median(warmed)
    return {"first_ms": first * 1000, "warm_p50_ms": median * 1000,
            "first_over_warm": first / median if median else None}


def after_restarts(start: Callable[[str], contextlib.AbstractContextManager[Served]],
                   token: str, queries: dict[str, list[Query]], warm: int,
                   restarts: int, log: Log) -> Json:
    """`restarts` restarts, each timing its first recall on the large bank and `warm` after;
    then a restart whose first `warm` recalls go to the small bank (module doc, item 6)."""
    runs = []
    for n in range(restarts):
        with start(f"restarted-{n}") as served:
            log(f"a restarted replica's first request on the large bank ({n + 1}/{restarts})")
            runs.append(first_and_warm(served, token, "large", queries["large"], warm))
    first = statistics.median(run["first_ms"] for run in runs)
    median = statistics.median(run["warm_p50_ms"] for run in runs)
    with start("restarted-other") as served:
        log("a restarted replica's first request on the large bank after the small bank's")
        for query in queries["small"][:warm]:
            call(served, token, "small", "recall", recall_body(query))
        other = first_and_warm(served, token, "large", queries["large"], warm)
    return {"first_ms": first, "warm_p50_ms": median,
            "first_over_warm": first / median if median else None, "runs": runs,
            "after_other_bank": other}


def retains(served: Served, token: str, banks: Sequence[str], count: int, seed: int) -> Json:
    """`count` single-bullet retains into each bank, the banks taking turns."""
    rng = random.Random(seed)
    words = corpus.build_vocabulary()
    seconds: dict[str, list[float]] = {bank: [] for bank in banks}
    read: dict[str, list[int]] = {bank: [] for bank in banks}
    pid = served.process.pid
    for n in range(count):
        for bank in banks:
            bullet = f"W @Scale{n}: Noted {' '.join(rng.choices(words, k=8))}."
            before = proc_value(pid, "io", "rchar")
            seconds[bank].append(timed(partial(call, served, token, bank, "retain",
                                               {"bullets": [bullet]})))
            read[bank].append(proc_value(pid, "io", "rchar") - before)
    return {bank: {**latency(seconds[bank]),
                   "read_bytes_p50": statistics.median(read[bank]) if read[bank] else None}
            for bank in banks}


def fresh_retain(served: Served, token: str, bank: str, warm: int, seed: int) -> Json:
    """A replica that never held the bank: its first retain into it, then `warm` more."""
    rng = random.Random(seed + 1)
    words = corpus.build_vocabulary()

    def retain(n: int) -> float:
        bullet = f"W @Fresh{n}: Noted {' '.join(rng.choices(words, k=8))}."
        return timed(partial(call, served, token, bank, "retain", {"bullets": [bullet]}))

    first = retain(0)
    warmed = [retain(n) for n in range(1, warm + 1)]
    median = statistics.median(warmed)
    return {"first_ms": first * 1000, "warm_p50_ms": median * 1000,
            "first_over_warm": first / median if median else None}


def recall_load(served: Served | Sequence[Served], token: str, bank: str,
                queries: Sequence[Query], clients: int, seconds: float, seed: int,
                cluster: Path | None = None) -> Json:
    """`clients` threads sending recalls one after another for `seconds`, client n to
    replica n mod len(served); with `cluster` (its data directory), the CPU a recall cost
    the replicas and PostgreSQL."""
    found: Json = {}
    with cpu_per_request(served, cluster, found):
        found.update(_recall_load(served, token, bank, queries, clients, seconds, seed))
    return found


def _recall_load(served: Served | Sequence[Served], token: str, bank: str,
                 queries: Sequence[Query], clients: int, seconds: float, seed: int) -> Json:
    from memfold.errors import MemfoldError

    targets = replicas_of(served)
    samples: list[list[float]] = [[] for _ in range(clients)]
    errors = [0] * clients
    gate = threading.Barrier(clients + 1)

    def client(n: int) -> None:
        rng = random.Random(seed * 7919 + n)
        gate.wait()
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            body = recall_body(rng.choice(queries))
            started = time.perf_counter()
            try:
                call(targets[n % len(targets)], token, bank, "recall", body)
            except MemfoldError:
                errors[n] += 1
                continue
            samples[n].append(time.perf_counter() - started)

    elapsed = server_fleet.together(client, clients, gate)
    merged = [s for per in samples for s in per]
    return {"clients": clients, "replicas": len(targets), "seconds": elapsed, **latency(merged),
            "throughput_rps": len(merged) / elapsed if elapsed else 0.0,
            "errors": sum(errors)}


def cold_pass(served: Served, token: str, bank: str, queries: Sequence[Query],
              cluster: Path | None = None) -> Json:
    """Each distinct query once, one client, in order: latency of a bank version's first
    meeting with each (it also leaves every query met once before the timed runs)."""
    distinct = list({query.text: query for query in queries}.values())
    found: Json = {}
    with cpu_per_request(served, cluster, found):
        seconds = [timed(partial(call, served, token, bank, "recall", recall_body(query)))
                   for query in distinct]
        found.update(latency(seconds), distinct_queries=len(distinct))
    return found


@dataclass(frozen=True)
class Plan:
    """What a run measures and how much of it (the command's options)."""

    small: int = SMALL
    large: int = LARGE
    banks: int = BANKS
    replicas: int = REPLICAS
    writers: int = WRITERS
    count: int = RETAINS
    clients: int = CLIENTS
    seconds: float = SECONDS
    warm: int = WARM
    seed: int = 0
    server_src: Path | None = None
    recall_from: str = server_bench.RECALL_FROM
    workers: int = 1
    verbs: bool = False
    restarts: int = RESTARTS
    rss_queries: int = server_fleet.RSS_QUERIES
    importers: int = 2
    locomo: Path | None = None
    locomo_modes: tuple[str, ...] = ("lexical",)


@dataclass
class Scene:
    """A run's running state: the stack, the plan, the queries per bank, the result."""

    bench: Stack
    plan: Plan
    queries: dict[str, list[Query]]
    result: Json
    log: Log
    copies: list[str] = field(default_factory=list)

    def start(self, name: str, cache: str = "one") -> contextlib.AbstractContextManager[Served]:
        plan = self.plan
        return replica(self.bench, name, plan.server_src, cache=cache,
                       recall_from=plan.recall_from, workers=plan.workers)


def run(workdir: Path, plan: Plan, log: Log) -> Json:
    sizes = {"small": plan.small, "large": plan.large}
    spaces: dict[str, Path] = {}
    queries: dict[str, list[Query]] = {}
    for bank, files in sizes.items():
        log(f"generating bank {bank}: {files} daily logs")
        spaces[bank] = workdir / f"ws-{bank}"
        made = corpus.generate(spaces[bank], files=files, seed=plan.seed)
        queries[bank] = build_queries(corpus_bullets(spaces[bank], made.daily), QUERIES,
                                      plan.seed)
    result: Json = {"sizes": {**sizes, "banks": plan.banks},
                    "server_src": str(plan.server_src) if plan.server_src else None,
                    "recall_from": plan.recall_from, "workers": plan.workers,
                    "replicas": plan.replicas, "writers": plan.writers}
    with stack(workdir, log) as bench:
        bench.create_banks(list(sizes))
        scene = Scene(bench, plan, queries, result, log)
        with scene.start("one") as served:
            first_replica(scene, served, spaces)
            more_replicas(scene, served)
        result["database"] = server_fleet.database_size(bench)
        after_the_fleet(scene)
        result["postgres"] = bench.postgres
    if plan.locomo is not None:
        result["locomo"] = {mode: run_locomo(workdir / f"locomo-{mode}", plan, mode, log)
                            for mode in plan.locomo_modes}
    return result


def first_replica(scene: Scene, served: Served, spaces: dict[str, Path]) -> None:
    """One replica imports the banks and answers the one-replica phases (module doc, 1-5)."""
    bench, plan, result, log, queries = (scene.bench, scene.plan, scene.result, scene.log,
                                         scene.queries)
    token, data = bench.token, bench.cluster.data
    result["rss_mb_started"] = rss_mb(served)
    result["import_s"] = {}
    for bank, space in spaces.items():
        log(f"importing bank {bank}")
        result["import_s"][bank] = timed(partial(server_bench.load_bank, served, token, bank,
                                                 space, timeout=PATIENCE))
    scene.copies = server_fleet.bank_names(plan.banks)
    with contextlib.ExitStack() as more:
        importers = [served, *(more.enter_context(scene.start(f"importer-{n}", cache=f"i{n}"))
                               for n in range(2, plan.importers + 1) if scene.copies)]
        result["many_banks"] = server_fleet.copy_banks(bench, importers, call, "small",
                                                       scene.copies, log)
    log("first request of a fresh replica, then warm recalls")
    result["first_request"] = {bank: first_and_warm(served, token, bank, queries[bank],
                                                    plan.warm) for bank in spaces}
    result["rss_mb_banks_open"] = rss_mb(served)
    log(f"recall on the imported large bank: {plan.clients} clients for {plan.seconds:g} s")
    result["recall_large_imported"] = recall_load(served, token, "large", queries["large"],
                                                  plan.clients, plan.seconds, plan.seed, data)
    log(f"{plan.count} retains into each bank, taking turns")
    result["retain"] = retains(served, token, list(spaces), plan.count, plan.seed)
    log("each distinct query once on the large bank's new version")
    result["recall_large_cold"] = cold_pass(served, token, "large", queries["large"], data)
    result["recall_large"] = {}
    for n in (1, plan.clients):
        log(f"recall on the large bank: {n} client(s) for {plan.seconds:g} s")
        result["recall_large"][f"clients_{n}"] = recall_load(
            served, token, "large", queries["large"], n, plan.seconds, plan.seed, data)
    result["rss_mb_end"] = rss_mb(served)


def more_replicas(scene: Scene, one: Served) -> None:
    """Replicas 2..--replicas started afresh beside the first: each one's first request,
    recall spread over all of them, then retains from 1 and --writers writers."""
    bench, plan, result, log, queries = (scene.bench, scene.plan, scene.result, scene.log,
                                         scene.queries)
    token, data = bench.token, bench.cluster.data
    with contextlib.ExitStack() as started:
        fleet = [one]
        result["fresh_replicas"] = []
        for n in range(2, plan.replicas + 1):
            served = started.enter_context(scene.start(f"replica-{n}", cache=f"replica-{n}"))
            log(f"replica {n}, started afresh: its first request on the large bank")
            result["fresh_replicas"].append(first_and_warm(served, token, "large",
                                                           queries["large"], plan.warm))
            cold_pass(served, token, "large", queries["large"])
            fleet.append(served)
        if len(fleet) > 1:
            result["recall_spread"] = {}
            for n in (1, plan.clients):
                log(f"recall on the large bank over {len(fleet)} replicas: {n} client(s)")
                result["recall_spread"][f"clients_{n}"] = recall_load(
                    fleet, token, "large", queries["large"], n, plan.seconds, plan.seed, data)
        result["retain_writers"] = {}
        for writers in sorted({1, plan.writers}):
            log(f"retains from {writers} writer(s) over {len(fleet)} replica(s)")
            result["retain_writers"][f"writers_{writers}"] = server_fleet.spread_retains(
                fleet, token, ["small", "large"], writers, plan.count, plan.seed + writers,
                call)


def after_the_fleet(scene: Scene) -> None:
    """A fresh replica's memory against bank count, the restarts, a fresh replica's retain
    and, with --verbs, each read verb's first request (module doc, 6-8)."""
    bench, plan, result, log, queries = (scene.bench, scene.plan, scene.result, scene.log,
                                         scene.queries)
    with scene.start("rss", cache="rss") as served:
        log(f"a fresh replica's memory over {plan.banks} banks, then the large bank")
        walk = [(bank, queries["small"]) for bank in ["small", *scene.copies]]
        result["rss_by_banks"] = server_fleet.rss_by_banks(
            served, bench.token, walk, ("large", queries["large"]), plan.rss_queries, call)
    result["after_restart"] = after_restarts(scene.start, bench.token, queries, plan.warm,
                                             plan.restarts, log)
    with scene.start("writer", cache="writer") as served:
        log("a fresh replica's first retain into the large bank, then warm ones")
        result["fresh_retain"] = fresh_retain(served, bench.token, "large", plan.warm,
                                              plan.seed)
    if plan.verbs:
        with scene.start("restarted") as served:
            asked = recall_body(queries["large"][0])
            args = server_verbs.bodies(call(served, bench.token, "large", "recall", asked),
                                       asked)
        log("a fresh replica's first request, verb by verb")
        result["first_by_verb"] = server_verbs.first_by_verb(
            lambda name: scene.start(name, cache=name),
            lambda name: bench.workdir / f"cache-{name}", call, bench.token, "large",
            args, timed)


def run_locomo(workdir: Path, plan: Plan, mode: str, log: Log) -> Json:
    """LoCoMo dev through HTTP beside local (`memfold bench server --locomo`'s part), on a
    stack of its own."""
    workdir.mkdir()
    with stack(workdir, log) as bench:
        return server_bench.run_locomo(bench, cast(Path, plan.locomo), None, locomo.K, log,
                                       plan.recall_from, mode)


def _cpu(load: Json) -> str:
    """A run's CPU a recall, when measured."""
    if load.get("replica_cpu_ms") is None:
        return ""
    found = f"; CPU a recall: replica {load['replica_cpu_ms']:.1f} ms"
    if load.get("postgres_cpu_ms") is not None:
        found += f", PostgreSQL {load['postgres_cpu_ms']:.1f} ms"
    return found


def table(result: Json) -> str:
    retain, first, sizes = result["retain"], result["first_request"], result["sizes"]
    rows = [f"server-scale: {sizes.get('banks', 1)} bank(s) of {sizes['small']} and one of "
            f"{sizes['large']} daily logs (tenant {TENANT}), recall from "
            f"{result.get('recall_from', 'copy')}, {result.get('replicas', 1)} replica(s) of "
            f"{result.get('workers', 1)} worker(s)", "", server_fleet.targets(result), "",
            "details:"]
    for bank in ("small", "large"):
        rows.append(f"  import {bank}: {result['import_s'][bank]:.1f} s; first recall "
                    f"{first[bank]['first_ms']:.0f} ms, warm p50 {first[bank]['warm_p50_ms']:.1f}"
                    f" ms; retain p50 {retain[bank]['p50_ms']:.1f} ms, p99 "
                    f"{retain[bank]['p99_ms']:.1f} ms, read {retain[bank]['read_bytes_p50']:,.0f}"
                    " bytes")
    imported, cold = result.get("recall_large_imported"), result.get("recall_large_cold")
    if imported:
        rows.append(f"  recall large as imported (before the retains), {imported['clients']} "
                    f"clients: {imported['throughput_rps']:.1f} req/s, p50 "
                    f"{imported['p50_ms']:.1f} ms, p99 {imported['p99_ms']:.1f} ms"
                    + _cpu(imported))
    if cold:
        rows.append(f"  recall large after the retains, each of {cold['distinct_queries']} "
                    f"queries once: p50 {cold['p50_ms']:.1f} ms, p99 {cold['p99_ms']:.1f} ms"
                    + _cpu(cold))
    for key, load in result["recall_large"].items():
        rows.append(f"  recall large, {key.replace('_', ' ')}: {load['throughput_rps']:.1f} "
                    f"req/s, p50 {load['p50_ms']:.1f} ms, p99 {load['p99_ms']:.1f} ms, "
                    f"{load['errors']} errors" + _cpu(load))
    again = result["after_restart"]
    if fresh := result.get("fresh_retain"):
        rows.append(f"  a fresh replica's first retain into the large bank: "
                    f"{fresh['first_ms']:.0f} ms, warm p50 {fresh['warm_p50_ms']:.1f} ms")
    runs = again.get("runs") or [again]
    firsts = ", ".join(f"{run['first_ms']:.0f}" for run in runs)
    rows.append(f"  after a restart{f' (medians of {len(runs)})' if len(runs) > 1 else ''}: "
                f"first {again['first_ms']:.0f} ms, warm p50 {again['warm_p50_ms']:.1f} ms"
                + (f"; firsts {firsts} ms" if len(runs) > 1 else ""))
    if other := again.get("after_other_bank"):
        rows.append(f"  after a restart and the small bank's recalls: the large bank's first "
                    f"{other['first_ms']:.0f} ms, warm p50 {other['warm_p50_ms']:.1f} ms")
    rows.append(f"  replica RSS: {result['rss_mb_started']:.0f} MB started, "
                f"{result['rss_mb_banks_open']:.0f} MB with both banks, "
                f"{result['rss_mb_end']:.0f} MB at the end")
    rows += server_verbs.table(result.get("first_by_verb") or {})
    return "\n".join(rows)


@click.command("server-scale")
@click.option("--small", "--bank-files", "small", default=SMALL, show_default=True,
              type=click.IntRange(5, 20_000),
              help="Daily logs in the small bank and in each of --banks (the issue: 365).")
@click.option("--large", default=LARGE, show_default=True, type=click.IntRange(5, 20_000),
              help="Daily logs in the large bank (the issue: 10000).")
@click.option("--banks", default=BANKS, show_default=True, type=click.IntRange(1, 1000),
              help="Banks of --bank-files logs beside the large one, the small bank counted "
                   "(the issue: 100).")
@click.option("--replicas", default=REPLICAS, show_default=True, type=click.IntRange(1, 8),
              help="Replicas at once: the first imports, the others start afresh.")
@click.option("--writers", default=WRITERS, show_default=True, type=click.IntRange(1, 64),
              help="Concurrent writers over the replicas (beside the single writer).")
@click.option("--retains", "count", default=RETAINS, show_default=True,
              type=click.IntRange(1, 1000), help="Retains into each bank (per writer).")
@click.option("--clients", default=CLIENTS, show_default=True, type=click.IntRange(2, 200),
              help="Concurrent recall clients (beside the single-client run).")
@click.option("--seconds", default=SECONDS, show_default=True, type=click.FloatRange(1, 600),
              help="How long each recall run lasts.")
@click.option("--warm", default=WARM, show_default=True, type=click.IntRange(1, 199),
              help="Warm recalls timed after each first request.")
@click.option("--rss-queries", default=server_fleet.RSS_QUERIES, show_default=True,
              type=click.IntRange(1, 199),
              help="Recalls on each bank while a fresh replica's memory is followed.")
@click.option("--importers", default=2, show_default=True, type=click.IntRange(1, 8),
              help="Replicas importing --banks' copies at once (the first, and more started "
                   "for it and stopped after).")
@click.option("--seed", default=0, show_default=True, help="Seed of the corpora and queries.")
@click.option("--server-src", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Serve with the memfold package under this directory (another version).")
@click.option("--recall-from", type=click.Choice(["postgres", "copy"]),
              default=server_bench.RECALL_FROM, show_default=True,
              help="`memfold serve --recall-from` of the replicas (run it with each to "
                   "compare).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 16),
              help="`memfold serve --workers` of the replica (RSS and bytes read are of the"
                   " parent process alone when above 1).")
@click.option("--restarts", default=RESTARTS, show_default=True, type=click.IntRange(1, 20),
              help="Restarts timed for the first request after a restart (medians shown).")
@click.option("--verbs", is_flag=True,
              help="Also time a fresh replica's first request of each read verb.")
@click.option("--locomo", "locomo_path", type=click.Path(exists=True, dir_okay=False,
                                                         path_type=Path),
              help="Also LoCoMo through HTTP beside local (`memfold bench server --locomo`).")
@click.option("--locomo-mode", "locomo_modes", multiple=True, default=("lexical",),
              show_default=True, type=click.Choice(["lexical", "hybrid"]),
              help="Recall mode(s) of the LoCoMo run (repeat for both).")
@output_options("benchmarks/results/server-scale.json")
def server_scale_command(small: int, large: int, banks: int, replicas: int, writers: int,
                         count: int, clients: int, seconds: float, warm: int,
                         rss_queries: int, importers: int, seed: int, server_src: Path | None,
                         recall_from: str, workers: int, restarts: int, verbs: bool,
                         locomo_path: Path | None, locomo_modes: tuple[str, ...], out: Path,
                         as_json: bool) -> None:
    """Issue 36's scale table: many banks and a large one on one database, replicas started
    afresh, recall at 1 and N clients, retains from 1 and N writers, memory against bank
    count, the database's size, each figure beside its target (a private PostgreSQL on
    loopback).

    \b
    Examples:
      memfold bench server-scale
      memfold bench server-scale --banks 100 --bank-files 365 --large 2000 --replicas 2 \\
          --writers 4
      memfold bench server-scale --small 60 --large 600 --recall-from copy
      memfold bench server-scale --large 1000 --workers 2 --verbs
      memfold bench server-scale --locomo ../shared/bench/locomo-dev.json --locomo-mode \\
          lexical --locomo-mode hybrid
      memfold bench server-scale --server-src /tmp/before/src --out /tmp/before.json
    """
    def log(message: str) -> None:
        click.echo(f"server-scale: {message}", err=True)

    plan = Plan(small=small, large=large, banks=banks, replicas=replicas, writers=writers,
                count=count, clients=clients, seconds=seconds, warm=warm, seed=seed,
                server_src=server_src, recall_from=recall_from, workers=workers,
                verbs=verbs, restarts=restarts, rss_queries=rss_queries, importers=importers,
                locomo=locomo_path, locomo_modes=tuple(dict.fromkeys(locomo_modes)))
    started = time.perf_counter()
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="memfold-server-scale-") as tmp:
        result = run(Path(tmp), plan, log)
    result["environment"] = {**environment(), "load_average_at_start": load[0],
                             "load_averages_at_start": list(load),
                             "load_averages_at_end": list(os.getloadavg())}
    result["bench_seconds"] = time.perf_counter() - started
    if not save_result(result, out, as_json=as_json):
        click.echo(table(result))
