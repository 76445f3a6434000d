"""`memfold bench server` end to end at a tiny size: a private PostgreSQL, real `memfold serve`
processes, a few clients for a couple of seconds, and LoCoMo's tiny conversation (twice, on two
different dates, so two servers with two different "now"s answer) through HTTP beside local."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_bench_quality import TINY

from memfold.cli.main import cli
from memfold_bench.pg_cluster import find_bin
from system_support import missing


def tiny_locomo(tmp_path: Path) -> Path:
    later: dict[str, Any] = copy.deepcopy(TINY[0])
    later["sample_id"] = "conv-later"
    talk = later["conversation"]
    talk["session_1_date_time"] = "9:00 am on 3 March, 2024"
    talk["session_2_date_time"] = "4:15 pm on 19 April, 2024"
    path = tmp_path / "two-locomo.json"
    path.write_text(json.dumps([TINY[0], later]), encoding="utf-8")
    return path


@pytest.fixture
def postgres_binaries() -> None:
    if find_bin() is None:
        missing("no PostgreSQL server binaries (initdb, pg_ctl) for memfold bench server")


@pytest.mark.slow
@pytest.mark.usefixtures("postgres_binaries")
def test_bench_server_reports_load_and_locomo_through_http_beside_local(tmp_path: Path) -> None:
    out = tmp_path / "results" / "server.json"
    result = CliRunner().invoke(cli, [
        "bench", "server", "--clients", "3", "--seconds", "2", "--files", "15",
        "--queries", "15", "--local-ops", "25", "--retain-share", "0.3",
        "--locomo", str(tiny_locomo(tmp_path)), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "recall via HTTP, 3 clients" in result.output
    assert "R@10 local 83.3%, through HTTP 83.3%, difference +0.00 points" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["environment"]["postgresql"]

    load = data["load"]
    http, one, local = load["http"], load["http_one_client"], load["local"]
    assert http["clients"] == 3 and http["errors"] == {}
    assert http["requests"] == http["recall"]["n"] + http["retain"]["n"]
    assert http["recall"]["n"] > 0 and http["throughput_rps"] > 0
    assert http["seconds"] >= 2
    for side in (http, one, local):
        for verb in ("recall", "retain"):
            figures = side[verb]
            if figures["n"]:
                assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    assert load["healthz"]["n"] == 25 and load["healthz"]["p50_ms"] > 0
    assert one["operations"] == local["operations"] == 25
    assert one["retain"]["n"] == local["retain"]["n"] > 0  # the same seeded mix
    assert one["recall"]["n"] == local["recall"]["n"] > 0
    # every acknowledged retain is in the bank: one fact each on top of the imported corpus
    assert load["bank_after"]["facts"] == (load["corpus"]["bullets"] + http["retain"]["n"]
                                           + one["retain"]["n"])

    found = data["locomo"]
    assert found["conversations"] == 2 and found["questions"] == 6
    nows = [c["now"] for c in found["per_conversation"]]
    assert nows == ["2023-06-28T12:00:00+00:00", "2024-04-20T12:00:00+00:00"]
    assert found["as_of_mismatches"] == 0  # each server answered at its conversation's now
    assert 0 <= found["local_r_at_k"] <= 100 and 0 <= found["server_r_at_k"] <= 100
    assert found["server_r_at_k"] == found["local_r_at_k"] == pytest.approx(250 / 3)
    assert found["difference_points"] == 0 and found["within_target"]
    assert found["same_ranking"] == 6
    overall = found["categories"]["overall"]
    assert overall["bm25"]["recall@10"] == pytest.approx(2 / 3)  # as bench locomo has it
    assert "What does" not in out.read_text(encoding="utf-8")  # figures only, no data
