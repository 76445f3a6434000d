"""`memfold bench server-scale`'s recall phase: what it sends before the timed runs, the
table it prints from results with and without the figures added for issue 36, and its wait
for a server to be ready."""

from __future__ import annotations

import contextlib
import http.server
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest

from memfold_bench import server_bench, server_fleet, server_scale
from memfold_bench.recall_bench import Query


def query(text: str) -> Query:
    return Query(text=text, form="words", floor_fts=text)


def test_cold_pass_sends_each_distinct_query_once(monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[tuple[str, str, Any]] = []

    def fake_call(served: Any, token: str, bank: str, verb: str, body: Any) -> Any:
        sent.append((bank, verb, body))
        return {"hits": []}

    monkeypatch.setattr(server_scale, "call", fake_call)
    queries = [query("alpha"), query("beta"), query("alpha"), query("gamma"), query("beta")]
    result = server_scale.cold_pass(object(), "token", "large", queries)  # type: ignore[arg-type]
    assert [body["query"] for _, _, body in sent] == ["alpha", "beta", "gamma"]
    assert {(bank, verb) for bank, verb, _ in sent} == {("large", "recall")}
    assert all(body["mode"] == "lexical" and body["k"] == server_scale.K for *_, body in sent)
    assert result["distinct_queries"] == 3
    assert result["n"] == 3


def load(rps: float, clients: int) -> dict[str, Any]:
    return {"clients": clients, "seconds": 10.0, "n": int(rps * 10), "p50_ms": 40.0,
            "p99_ms": 90.0, "mean_ms": 45.0, "max_ms": 95.0, "throughput_rps": rps,
            "errors": 0}


def result(**extra: Any) -> dict[str, Any]:
    bank = {"first_ms": 100.0, "warm_p50_ms": 40.0, "first_over_warm": 2.5}
    retain = {"p50_ms": 20.0, "p99_ms": 50.0, "read_bytes_p50": 70_000.0}
    return {"sizes": {"small": 365, "large": 1000}, "recall_from": "postgres", "workers": 1,
            "import_s": {"small": 3.0, "large": 10.0},
            "first_request": {"small": bank, "large": bank},
            "retain": {"small": retain, "large": retain},
            "recall_large": {"clients_1": load(25.0, 1), "clients_20": load(50.0, 20)},
            "after_restart": bank, "rss_mb_started": 110.0, "rss_mb_banks_open": 150.0,
            "rss_mb_end": 260.0, **extra}


def test_table_shows_the_imported_and_cold_recalls() -> None:
    cold = {"n": 177, "p50_ms": 61.0, "p99_ms": 240.0, "mean_ms": 70.0, "max_ms": 250.0,
            "distinct_queries": 177}
    text = server_scale.table(result(recall_large_imported=load(55.0, 20),
                                     recall_large_cold=cold))
    assert "as imported (before the retains), 20 clients: 55.0 req/s" in text
    assert "each of 177 queries once: p50 61.0 ms" in text
    assert "recall large, clients 20: 50.0 req/s" in text


def test_table_shows_the_cpu_a_recall_cost_when_measured() -> None:
    timed = {**load(50.0, 20), "replica_cpu_ms": 12.25, "postgres_cpu_ms": 4.5}
    text = server_scale.table(result(recall_large={"clients_1": load(25.0, 1),
                                                   "clients_20": timed}))
    assert "clients 20: 50.0 req/s, p50 40.0 ms, p99 90.0 ms, 0 errors; CPU a recall: " \
        "replica 12.2 ms, PostgreSQL 4.5 ms" in text
    assert "clients 1: 25.0 req/s, p50 40.0 ms, p99 90.0 ms, 0 errors\n" in text


def _busy(start: Path, done: Path) -> str:
    """A program that waits for `start`, spends 0.3 s of CPU, says `done`, then waits for
    "stop" beside `start` (at most a minute) and exits."""
    stop = start.with_name("stop")
    return (f"import time, pathlib\nwhile not pathlib.Path({str(start)!r}).exists():"
            " time.sleep(0.01)\nt = time.process_time()\n"
            "while time.process_time() - t < 0.3: pass\n"
            f"pathlib.Path({str(done)!r}).touch()\nt = time.monotonic()\n"
            f"while not pathlib.Path({str(stop)!r}).exists() and time.monotonic() - t < 60:"
            " time.sleep(0.01)\n")


def test_cpu_a_request_counts_the_replica_and_every_process_of_the_cluster(
        tmp_path: Path) -> None:
    """The replica's CPU and that of the cluster's server and the processes it started
    (found by the parent pid in /proc), per request of the block."""
    data, start = tmp_path / "data", tmp_path / "start"
    data.mkdir()
    child = _busy(start, tmp_path / "child-done")
    server = subprocess.Popen([sys.executable, "-c", "import subprocess, sys, time\n"
                               f"subprocess.Popen([sys.executable, '-c', {child!r}])\n"
                               "time.sleep(60)\n"])
    replica = subprocess.Popen([sys.executable, "-c", _busy(start, tmp_path / "replica-done")])
    try:
        (data / "postmaster.pid").write_text(f"{server.pid}\n{data}\n")
        time.sleep(0.5)  # both started and waiting
        found: dict[str, Any] = {}
        served = server_bench.Served(replica, "http://127.0.0.1:1", tmp_path / "log")
        with server_fleet.cpu_per_request(served, data, found):
            start.touch()
            deadline = time.monotonic() + 30
            while not ((tmp_path / "child-done").exists()
                       and (tmp_path / "replica-done").exists()):
                assert time.monotonic() < deadline
                time.sleep(0.05)
            found["n"] = 2
        assert 120 <= found["replica_cpu_ms"] <= 300  # 0.3 s over 2 requests
        assert 120 <= found["postgres_cpu_ms"] <= 300
        assert server_fleet.cluster_cpu(None) == {}
    finally:
        (tmp_path / "stop").touch()  # the server's child exits by itself
        for process in (server, replica):
            process.kill()
            process.wait(timeout=30)


def test_table_reads_results_saved_before_the_added_figures() -> None:
    text = server_scale.table(result())
    assert "recall large, clients 1: 25.0 req/s" in text
    assert "as imported" not in text


class _Readyz(http.server.BaseHTTPRequestHandler):
    """/readyz answering the statuses queued on the server, then "ready"."""

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        queued: list[str] = self.server.statuses  # type: ignore[attr-defined]
        status = queued.pop(0) if queued else "ready"
        body = json.dumps({"status": status}).encode()
        self.send_response(200 if status == "ready" else 503)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@contextlib.contextmanager
def readyz(statuses: list[str], tmp_path: Path) -> Iterator[server_bench.Served]:
    """A stand-in for `memfold serve`: a live process and a /readyz answering `statuses`."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Readyz)
    httpd.statuses = statuses  # type: ignore[attr-defined]
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    log = tmp_path / "serve.log"
    log.write_text("")
    try:
        yield server_bench.Served(process, f"http://127.0.0.1:{httpd.server_port}", log)
    finally:
        process.kill()
        process.wait()
        httpd.shutdown()
        httpd.server_close()


def test_a_server_whose_schema_is_not_the_databases_fails_the_wait_at_once(
        tmp_path: Path) -> None:
    """Such a server is never ready (/readyz 503 "schema at X, wanted Y"): the bench stops
    at the first answer with one line naming both schemas, not after its patience."""
    with readyz(["schema at 0008, wanted 0007"] * 1000, tmp_path) as served:
        started = time.monotonic()
        with pytest.raises(click.ClickException) as refused:
            server_bench.wait_ready(served, server_scale.PATIENCE)
    assert time.monotonic() - started < 5
    message = refused.value.format_message()
    assert "\n" not in message
    assert "the database's schema is 0008, the server's 0007" in message


def test_a_server_waiting_for_its_database_is_waited_for(tmp_path: Path) -> None:
    """A 503 that may pass (the database not answering yet) is polled again until ready."""
    with readyz(["database unavailable: OperationalError"] * 3, tmp_path) as served:
        server_bench.wait_ready(served, 30)
        assert server_bench.readiness(served.url) == "ready"
    assert server_bench.readiness(served.url) is None  # nothing answers
