"""`memfold bench server-scale`'s recall phase: what it sends before the timed runs, and the
table it prints from results with and without the figures added for issue 36."""

from __future__ import annotations

from typing import Any

import pytest

from memfold_bench import server_scale
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


def test_table_reads_results_saved_before_the_added_figures() -> None:
    text = server_scale.table(result())
    assert "recall large, clients 1: 25.0 req/s" in text
    assert "as imported" not in text
