"""`memfold bench server-scale` past one bank pair and one replica: the parts of issue 36's
"Benchmarks" that need many banks, more replicas and more writers, and its table of targets.

- many banks (`copy_banks`): --banks banks of --bank-files daily logs on the one database
  beside the large bank.  The first is the bench's small bank, imported and judged as
  always; the others are its export (`GET /v1/banks/B/export`) imported whole into banks of
  their own (`POST /v1/banks/B/import`, the import path `memfold import --server` takes).
  The export carries the judge's decisions in its journal, so those imports store and index
  without judging again (`judged` counts it, 0 when so): what the database holds is 100 banks'
  rows, made in the time one judging takes.
- retains from 1 and --writers writers at once (`spread_retains`), writer w sending to
  replica w mod --replicas, each writer taking turns between the small and the large bank
  (`count` retains into each): p50/p99 per bank and the fleet's retains a second.
- resident memory against bank count (`rss_by_banks`): a replica started afresh answers
  --rss-queries recalls on each small bank in turn, then on the large bank; its VmRSS after
  1, 10, 100... banks and after the large one.
- the database's size (`database_size`): `pg_database_size` over the facts it holds (every
  bank's, `facts` rows), and the largest tables.
- `targets`: every figure the issue names beside its target, one row each.
"""

from __future__ import annotations

import contextlib
import os
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import click

from . import corpus
from .recall_bench import Query
from .server_bench import DATABASE, Served, Stack, latency

Json = dict[str, Any]
Log = Callable[[str], None]
Send = Callable[[Served, str, str, str, Any], Any]  # (replica, token, bank, verb, body)

K = 10
PATIENCE = 900.0  # seconds a request may take (an import, a first request on a large bank)
RSS_QUERIES = 5
RSS_GROWTH = 1.2  # the issue: a replica's RSS within 20% from 1 to 100 banks
FIRST_OVER_WARM = 2.0  # the issue: a first request within 2x of a warm one
RETAIN_RATIO = 2.0  # the issue: retain p50 into the large bank within 2x of a 365-file bank
RECALL_P50_MS, RECALL_P99_MS = 50.0, 300.0  # the issue, at 20 clients on the large bank
LOCOMO_POINTS, LOCOMO_SAME = 1.0, 0.95  # the issue: within 1 point, same top 10 for >= 95%


def proc_value(pid: int, name: str, key: str) -> int:
    """A number from /proc/PID/NAME (`VmRSS` in kB of status, `rchar` of io); 0 if unknown."""
    try:
        text = Path(f"/proc/{pid}/{name}").read_text()
    except OSError:
        return 0
    for line in text.splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def rss_mb(served: Served) -> float:
    return proc_value(served.process.pid, "status", "VmRSS") / 1024


def recall_body(query: Query) -> Json:
    return {"query": query.text, "k": K, "mode": "lexical"}


def cpu_seconds(stat: Path) -> float:
    """User and system CPU seconds a process spent so far (its /proc/PID/stat); 0 if gone."""
    try:
        fields = stat.read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cluster_cpu(data: Path | None) -> dict[int, float]:
    """CPU seconds so far of the PostgreSQL server whose data directory is `data` and of
    each process it started (backends, writers, autovacuum), by pid."""
    try:
        root = int((data / "postmaster.pid").read_text().split()[0]) if data else 0
    except (OSError, ValueError, IndexError):
        return {}
    found = {root: cpu_seconds(Path(f"/proc/{root}/stat"))} if root else {}
    for entry in Path("/proc").iterdir() if root else ():
        try:
            parent = int(entry.joinpath("stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent == root:
            found[int(entry.name)] = cpu_seconds(entry / "stat")
    return found


def replicas_of(served: Served | Sequence[Served]) -> list[Served]:
    return [served] if isinstance(served, Served) else list(served)


@contextlib.contextmanager
def cpu_per_request(served: Served | Sequence[Served], cluster: Path | None,
                    result: Json) -> Iterator[None]:
    """Put in `result`, once its `n` is known, the CPU milliseconds a request cost the
    replica processes (all of `served`, summed) and the PostgreSQL cluster over the block
    (every process of the machine's cluster, whoever asked it: here only this bench's
    replicas do); nothing without `cluster`."""
    if cluster is None:
        yield
        return
    stats = [Path(f"/proc/{one.process.pid}/stat") for one in replicas_of(served)]
    before, database = sum(map(cpu_seconds, stats)), cluster_cpu(cluster)
    yield
    spent = sum(map(cpu_seconds, stats)) - before
    spent_db = sum(now - database.get(pid, 0.0) for pid, now in cluster_cpu(cluster).items())
    count = result.get("n") or 0
    result["replica_cpu_ms"] = spent * 1000 / count if count else None
    result["postgres_cpu_ms"] = spent_db * 1000 / count if count else None


def bank_names(count: int) -> list[str]:
    """The names of the banks beside the small one: `count` banks in all with it."""
    return [f"bank-{n:03d}" for n in range(1, count)]


def copy_banks(bench: Stack, importers: Sequence[Served], send: Send, source: str,
               names: Sequence[str], log: Log) -> Json:
    """Bank `source`'s export imported whole into each of `names` (created here), one
    thread per replica of `importers` taking the next bank until none is left."""
    from memfold.client.http import bank_path, request
    from memfold.errors import MemfoldError

    if not names:
        return {"banks": 1, "import": latency([]), "import_total_s": 0.0, "judged": 0}
    try:
        exported = request(importers[0].url, bench.token, "GET", bank_path(source, "export"),
                           timeout=PATIENCE)
    except MemfoldError as exc:
        raise click.ClickException(f"exporting bank {source!r}: {exc}") from None
    bench.create_banks(list(names))
    left = list(reversed(names))
    seconds: list[float] = []
    answers: list[Json] = []
    failed: list[str] = []

    def importer(served: Served) -> None:
        while not failed:
            try:
                name = left.pop()  # list.pop is atomic: each bank is taken once
            except IndexError:  # another importer took the last one
                return
            if len(left) % 10 == 0:
                log(f"importing bank {source}'s export: {len(names) - len(left)}/{len(names)}")
            started = time.perf_counter()
            try:
                answers.append(send(served, bench.token, name, "import", exported))
            except MemfoldError as exc:
                failed.append(f"importing into bank {name!r}: {exc}")
                return
            seconds.append(time.perf_counter() - started)

    started = time.perf_counter()
    threads = [threading.Thread(target=importer, args=(s,), daemon=True) for s in importers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failed or any(answer.get("stored") != "whole" for answer in answers):
        raise click.ClickException(failed[0] if failed else f"a bank was not empty: {answers}")
    return {"banks": len(names) + 1, "files_each": len(exported["files"]),
            "importers": len(importers), "import": latency(seconds),
            "import_total_s": time.perf_counter() - started,
            "judged": sum(int(answer.get("judged") or 0) for answer in answers)}


def spread_retains(replicas: Sequence[Served], token: str, banks: Sequence[str], writers: int,
                   count: int, seed: int, send: Send) -> Json:
    """`writers` threads at once, writer w on replica w mod len(replicas), each sending
    `count` single-bullet retains into every bank of `banks`, taking turns between them."""
    from memfold.errors import MemfoldError

    words = corpus.build_vocabulary()
    seconds: dict[str, list[float]] = {bank: [] for bank in banks}
    errors = [0] * writers
    gate = threading.Barrier(writers + 1)

    def writer(w: int) -> None:
        rng = random.Random(seed * 7919 + w)
        served = replicas[w % len(replicas)]
        gate.wait()
        for n in range(count):
            for turn in range(len(banks)):
                bank = banks[(turn + w) % len(banks)]
                bullet = f"W @Writer{w}x{n}: Noted {' '.join(rng.choices(words, k=8))}."
                started = time.perf_counter()
                try:
                    send(served, token, bank, "retain", {"bullets": [bullet]})
                except MemfoldError:
                    errors[w] += 1
                    continue
                seconds[bank].append(time.perf_counter() - started)

    elapsed = together(writer, writers, gate)
    done = sum(len(found) for found in seconds.values())
    return {"writers": writers, "replicas": len(replicas), "seconds": elapsed,
            "retains_per_s": done / elapsed if elapsed else 0.0, "errors": sum(errors),
            "banks": {bank: latency(seconds[bank]) for bank in banks}}


def marks(count: int) -> set[int]:
    """1, 10, 100, ... up to `count`, and `count`."""
    found, mark = {count}, 1
    while mark <= count:
        found.add(mark)
        mark *= 10
    return found


def rss_by_banks(served: Served, token: str, walk: Sequence[tuple[str, Sequence[Query]]],
                 last: tuple[str, Sequence[Query]], per_bank: int, send: Send) -> Json:
    """A fresh replica's VmRSS as it answers `per_bank` recalls on each bank of `walk` in
    turn (after 1, 10, 100... of them), then on the bank `last`."""
    def answer(bank: str, queries: Sequence[Query]) -> None:
        for query in queries[:per_bank]:
            send(served, token, bank, "recall", recall_body(query))

    points: dict[str, float] = {"0": rss_mb(served)}
    wanted = marks(len(walk))
    for n, (bank, queries) in enumerate(walk, 1):
        answer(bank, queries)
        if n in wanted:
            points[str(n)] = rss_mb(served)
    answer(*last)
    one, every = points["1"], points[str(len(walk))]
    return {"per_bank": per_bank, "banks": len(walk), "rss_mb": points,
            "rss_mb_with_large": rss_mb(served), "growth": every / one if one else None}


def database_size(bench: Stack) -> Json:
    """The database's size, its facts (every bank's) and its five largest tables."""
    import psycopg

    with psycopg.connect(bench.cluster.url(database=DATABASE)) as conn:
        size = conn.execute("SELECT pg_database_size(current_database())").fetchone()
        facts = conn.execute("SELECT count(*) FROM facts").fetchone()
        files = conn.execute("SELECT count(*) FROM files").fetchone()
        tables = conn.execute(
            "SELECT relname, pg_total_relation_size(oid) FROM pg_class WHERE relkind = 'r'"
            " AND relnamespace = 'public'::regnamespace ORDER BY 2 DESC LIMIT 5").fetchall()
    total, count = int(size[0]) if size else 0, int(facts[0]) if facts else 0
    return {"bytes": total, "facts": count, "files": int(files[0]) if files else 0,
            "mb_per_1000_facts": total / 1e6 / (count / 1000) if count else None,
            "largest_tables_mb": {name: round(int(b) / 1e6, 1) for name, b in tables}}


# -- the table of the figures beside its targets ------------------------------------


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f} ms" if value >= 100 else f"{value:.1f} ms"


def _verdict(met: bool | None) -> str:
    return "-" if met is None else "met" if met else "NOT met"


def _ratio_row(name: str, first: float, warm: float, target: float) -> list[str]:
    ratio = first / warm if warm else None
    return [name, f"{_ms(first)} / {_ms(warm)} = {ratio:.2f}x" if ratio else "-",
            f"<= {target:g}x", _verdict(ratio <= target if ratio else None)]


def _recall_rows(label: str, runs: Json, clients: int) -> list[list[str]]:
    rows = []
    for n in (1, clients):
        load = runs.get(f"clients_{n}")
        if not load:
            continue
        measured = (f"p50 {_ms(load['p50_ms'])}, p99 {_ms(load['p99_ms'])}, "
                    f"{load['throughput_rps']:.1f} req/s, {load['errors']} errors")
        if n == clients:
            met = (load["p50_ms"] is not None and load["p50_ms"] <= RECALL_P50_MS
                   and load["p99_ms"] <= RECALL_P99_MS)
            rows.append([f"recall, {label}, {n} clients", measured,
                         f"p50 <= {RECALL_P50_MS:g} ms, p99 <= {RECALL_P99_MS:g} ms",
                         _verdict(met)])
        else:
            rows.append([f"recall, {label}, 1 client", measured, "-", "-"])
    return rows


def _retain_rows(result: Json) -> list[list[str]]:
    rows = []
    for run in (result.get("retain_writers") or {}).values():
        small, large = (run["banks"][b]["p50_ms"] for b in ("small", "large"))
        ratio = large / small if small and large else None
        rows.append([f"retain p50, {run['writers']} writer(s) over {run['replicas']} "
                     "replica(s): large / small bank",
                     f"{_ms(large)} / {_ms(small)} = {ratio:.2f}x; "
                     f"{run['retains_per_s']:.1f} retains/s, {run['errors']} errors"
                     if ratio else "-",
                     f"<= {RETAIN_RATIO:g}x", _verdict(ratio <= RETAIN_RATIO if ratio else None)])
    return rows


def _locomo_rows(result: Json) -> list[list[str]]:
    rows = []
    for mode, found in (result.get("locomo") or {}).items():
        same = found["same_ranking"] / found["questions"] if found["questions"] else 0.0
        points = found["difference_points"]
        rows.append([f"LoCoMo dev R@10 through HTTP beside local, {mode}",
                     f"{found['server_r_at_k']:.1f}% vs {found['local_r_at_k']:.1f}% "
                     f"({points:+.1f} points); same top 10 {found['same_ranking']}/"
                     f"{found['questions']}", f"within {LOCOMO_POINTS:g} point, same top 10 "
                     f">= {LOCOMO_SAME:.0%}",
                     _verdict(abs(points) <= LOCOMO_POINTS and same >= LOCOMO_SAME)])
    return rows


def target_rows(result: Json) -> list[list[str]]:
    """[figure, measured, target, verdict] for every figure issue 36 names."""
    sizes, imports = result["sizes"], result["import_s"]
    many = result.get("many_banks") or {}
    rows = [["import, large bank / small bank",
             f"{imports['large']:.1f} s / {imports['small']:.1f} s (judging included)", "-",
             "-"]]
    if many.get("banks", 1) > 1:
        rows.append([f"import of the small bank's export into {many['banks'] - 1} banks",
                     f"p50 {_ms(many['import']['p50_ms'])} each, {many['import_total_s']:.0f}"
                     f" s in all ({many.get('importers', 1)} at once), {many['judged']} "
                     "judged", "-", "-"])
    for n, fresh in enumerate(result.get("fresh_replicas") or [], 2):
        rows.append(_ratio_row(f"replica {n} started afresh: first recall on the large bank /"
                               " warm p50", fresh["first_ms"], fresh["warm_p50_ms"],
                               FIRST_OVER_WARM))
    again = result["after_restart"]
    rows.append(_ratio_row("after a restart: first recall on the large bank / warm p50 "
                           "(medians)", again["first_ms"], again["warm_p50_ms"],
                           FIRST_OVER_WARM))
    clients = max(int(key.split("_")[1]) for key in result["recall_large"])
    rows += _recall_rows("large bank, one replica", result["recall_large"], clients)
    if spread := result.get("recall_spread"):
        rows += _recall_rows(f"large bank, over {result['replicas']} replicas", spread, clients)
    rows += _retain_rows(result)
    if rss := result.get("rss_by_banks"):
        points, growth = rss["rss_mb"], rss["growth"]
        rows.append([f"replica RSS after 1 / {rss['banks']} banks of {sizes['small']} files "
                     f"(then the large bank)",
                     f"{points['1']:.0f} / {points[str(rss['banks'])]:.0f} MB = "
                     f"{growth:.2f}x ({rss['rss_mb_with_large']:.0f} MB)" if growth else "-",
                     f"<= {RSS_GROWTH:g}x", _verdict(growth <= RSS_GROWTH if growth else None)])
    if db := result.get("database"):
        per = db["mb_per_1000_facts"]
        rows.append(["database size per 1,000 facts",
                     f"{per:.2f} MB ({db['bytes'] / 1e6:,.0f} MB, {db['facts']:,} facts)"
                     if per else "-", "-", "-"])
    return rows + _locomo_rows(result)


def targets(result: Json) -> str:
    """The target rows as a Markdown table."""
    rows = [["figure", "measured", "target", ""], ["---"] * 4, *target_rows(result)]
    return "\n".join("| " + " | ".join(row) + " |" for row in rows)


def together(work: Callable[[int], None], count: int, gate: threading.Barrier) -> float:
    """Run `work(0..count-1)` on threads released at once by `gate` (of `count` + 1 parties,
    this thread the last): the seconds from the release until every one has finished."""
    threads = [threading.Thread(target=work, args=(n,), daemon=True) for n in range(count)]
    for thread in threads:
        thread.start()
    gate.wait()
    started = time.perf_counter()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started
