"""`memfold bench server-scale`'s restart row (memfold_bench.server_scale.after_restarts):
--restarts restarts, each a first recall on the large bank and warm ones, the medians shown
with each run kept; then a restart whose first recalls go to the small bank before the
large bank's first.  Fakes stand in for the replicas: no PostgreSQL needed."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from memfold_bench import server_scale
from memfold_bench.recall_bench import Query


def test_each_restart_is_timed_and_the_medians_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[str] = []
    asked: list[tuple[str, str, str]] = []
    firsts = iter([0.30, 0.10, 0.20, 0.05])

    @contextlib.contextmanager
    def start(name: str) -> Iterator[Any]:
        started.append(name)
        yield name

    def fake_call(served: Any, token: str, bank: str, verb: str, body: Any) -> Any:
        asked.append((served, bank, body["query"]))
        return {}

    def fake_first_and_warm(served: Any, token: str, bank: str, queries: Any,
                            warm: int) -> dict[str, float]:
        asked.append((served, bank, queries[0].text))
        first = next(firsts) * 1000
        return {"first_ms": first, "warm_p50_ms": 50.0, "first_over_warm": first / 50.0}

    monkeypatch.setattr(server_scale, "call", fake_call)
    monkeypatch.setattr(server_scale, "first_and_warm", fake_first_and_warm)
    queries = {bank: [Query(text=f"{bank} {n}", form="words", floor_fts="")
                      for n in range(5)] for bank in ("small", "large")}
    found = server_scale.after_restarts(start, "token", queries, 2, 3, lambda _: None)
    assert started == ["restarted-0", "restarted-1", "restarted-2", "restarted-other"]
    assert [run["first_ms"] for run in found["runs"]] == [300.0, 100.0, 200.0]
    assert found["first_ms"] == 200.0 and found["warm_p50_ms"] == 50.0
    assert found["first_over_warm"] == 4.0
    other = [a for a in asked if a[0] == "restarted-other"]
    assert other == [("restarted-other", "small", "small 0"),
                     ("restarted-other", "small", "small 1"),
                     ("restarted-other", "large", "large 0")]
    assert found["after_other_bank"]["first_ms"] == 50.0


def test_the_table_shows_the_runs_and_the_other_banks_first() -> None:
    bank = {"first_ms": 100.0, "warm_p50_ms": 40.0, "first_over_warm": 2.5}
    retain = {"p50_ms": 20.0, "p99_ms": 50.0, "read_bytes_p50": 0.0}
    load = {"clients": 1, "p50_ms": 40.0, "p99_ms": 90.0, "throughput_rps": 25.0,
            "errors": 0}
    result = {"sizes": {"small": 60, "large": 365}, "import_s": {"small": 3.0, "large": 9.0},
              "first_request": {"small": bank, "large": bank},
              "retain": {"small": retain, "large": retain},
              "recall_large": {"clients_1": load}, "rss_mb_started": 110.0,
              "rss_mb_banks_open": 150.0, "rss_mb_end": 160.0,
              "after_restart": {**bank, "runs": [bank, {**bank, "first_ms": 120.0}, bank],
                                "after_other_bank": {**bank, "first_ms": 70.0}}}
    text = server_scale.table(result)
    assert "after a restart (medians of 3): first 100 ms, warm p50 40.0 ms; firsts 100, " \
           "120, 100 ms" in text
    assert "after a restart and the small bank's recalls: the large bank's first 70 ms" in text
    del result["after_restart"]
    result["after_restart"] = bank  # a result saved before the restarts were repeated
    assert "after a restart: first 100 ms, warm p50 40.0 ms\n" in server_scale.table(result)
