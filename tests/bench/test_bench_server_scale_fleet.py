"""`memfold bench server-scale` past one bank pair and one replica (memfold_bench.server_fleet):
many banks made from one bank's export, replicas started afresh, recall and retains spread
over the replicas, a fresh replica's memory against bank count, the database's size, and the
table of issue 36's figures beside its targets.  Plumbing only: which request goes where and
what the table says of given figures; end to end at a tiny size (no figure asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_bench_server import postgres_binaries, tiny_locomo  # noqa: F401 (a fixture)

from memfold.cli.main import cli
from memfold_bench import server_fleet, server_scale
from memfold_bench.recall_bench import Query
from memfold_bench.server_bench import Served


def served(name: str, pid_of: subprocess.Popen[bytes] | None = None) -> Served:
    process: Any = pid_of if pid_of is not None else object()
    return Served(process, f"http://{name}", Path("/dev/null"))


def test_writers_are_spread_over_the_replicas_and_take_turns_between_banks() -> None:
    sent: list[tuple[str, str, str]] = []
    lock = threading.Lock()

    def send(replica: Served, token: str, bank: str, verb: str, body: Any) -> Any:
        with lock:
            sent.append((replica.url, bank, body["bullets"][0]))
        return {}

    fleet = [served("one"), served("two")]
    found = server_fleet.spread_retains(fleet, "t", ["small", "large"], 3, 4, 0, send)
    assert len(sent) == 3 * 4 * 2 and len({bullet for *_, bullet in sent}) == len(sent)
    for w in range(3):  # writer w on replica w mod 2, 4 retains into each bank
        mine = [(url, bank) for url, bank, bullet in sent if f"@Writer{w}x" in bullet]
        assert {url for url, _ in mine} == {fleet[w % 2].url}
        assert sorted(bank for _, bank in mine) == ["large"] * 4 + ["small"] * 4
    assert found["writers"] == 3 and found["replicas"] == 2 and found["errors"] == 0
    assert {bank: figures["n"] for bank, figures in found["banks"].items()} == {
        "small": 12, "large": 12}


def test_recall_clients_are_spread_over_the_replicas(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: dict[str, set[str]] = {}

    def fake_call(replica: Served, token: str, bank: str, verb: str, body: Any) -> Any:
        asked.setdefault(threading.current_thread().name, set()).add(replica.url)
        return {"hits": []}

    monkeypatch.setattr(server_scale, "call", fake_call)
    fleet = [served("one"), served("two")]
    queries = [Query(text="alpha", form="words", floor_fts="alpha")]
    found = server_scale.recall_load(fleet, "t", "large", queries, 4, 0.2, 0)
    assert found["clients"] == 4 and found["replicas"] == 2 and found["n"] > 0
    assert sorted(len(urls) for urls in asked.values()) == [1, 1, 1, 1]  # one replica each
    assert set().union(*asked.values()) == {"http://one", "http://two"}


@pytest.fixture
def sleeper() -> Iterator[subprocess.Popen[bytes]]:
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    yield process
    process.kill()
    process.wait()


def test_memory_is_read_after_1_10_100_and_every_bank_then_the_last(
        sleeper: subprocess.Popen[bytes]) -> None:
    sent: list[str] = []

    def send(replica: Served, token: str, bank: str, verb: str, body: Any) -> Any:
        sent.append(bank)
        return {}

    queries = [Query(text=t, form="words", floor_fts=t) for t in ("a", "b", "c")]
    walk = [(f"bank-{n}", queries) for n in range(12)]
    found = server_fleet.rss_by_banks(served("one", sleeper), "t", walk, ("large", queries),
                                      2, send)
    assert set(found["rss_mb"]) == {"0", "1", "10", "12"}
    assert all(value > 0 for value in found["rss_mb"].values())
    assert sent == [bank for bank, _ in walk for _ in range(2)] + ["large"] * 2
    assert found["growth"] == found["rss_mb"]["12"] / found["rss_mb"]["1"]
    assert server_fleet.marks(100) == {1, 10, 100} and server_fleet.marks(365) == {
        1, 10, 100, 365}


def load(p50: float, p99: float, clients: int) -> dict[str, Any]:
    return {"clients": clients, "p50_ms": p50, "p99_ms": p99, "throughput_rps": 100.0,
            "errors": 0, "n": 100}


def fleet_result() -> dict[str, Any]:
    def writers(n: int, small: float, large: float) -> dict[str, Any]:
        return {"writers": n, "replicas": 2, "retains_per_s": 20.0, "errors": 0,
                "banks": {"small": {"p50_ms": small}, "large": {"p50_ms": large}}}

    return {"sizes": {"small": 365, "large": 2000, "banks": 100}, "replicas": 2,
            "import_s": {"small": 30.0, "large": 300.0},
            "many_banks": {"banks": 100, "import": {"p50_ms": 9000.0},
                           "import_total_s": 900.0, "judged": 0},
            "fresh_replicas": [{"first_ms": 60.0, "warm_p50_ms": 40.0}],
            "after_restart": {"first_ms": 90.0, "warm_p50_ms": 30.0},
            "recall_large": {"clients_1": load(10.0, 30.0, 1),
                             "clients_20": load(45.0, 310.0, 20)},
            "recall_spread": {"clients_1": load(9.0, 25.0, 1),
                              "clients_20": load(40.0, 250.0, 20)},
            "retain_writers": {"writers_1": writers(1, 20.0, 30.0),
                               "writers_4": writers(4, 50.0, 120.0)},
            "rss_by_banks": {"banks": 100, "rss_mb": {"0": 140.0, "1": 150.0, "100": 170.0},
                             "rss_mb_with_large": 175.0, "growth": 170.0 / 150.0},
            "database": {"bytes": 2e9, "facts": 400_000, "mb_per_1000_facts": 5.0},
            "locomo": {"lexical": {"questions": 495, "same_ranking": 495,
                                   "local_r_at_k": 77.5, "server_r_at_k": 77.5,
                                   "difference_points": 0.0}}}


def test_the_targets_table_says_which_targets_the_figures_meet() -> None:
    rows = {row[0]: row[1:] for row in server_fleet.target_rows(fleet_result())}
    verdict = {name: found[-1] for name, found in rows.items()}
    assert verdict["replica 2 started afresh: first recall on the large bank / warm p50"] \
        == "met"  # 1.5x
    assert verdict["after a restart: first recall on the large bank / warm p50 (medians)"] \
        == "NOT met"  # 3x
    assert verdict["recall, large bank, one replica, 20 clients"] == "NOT met"  # p99 310
    assert verdict["recall, large bank, over 2 replicas, 20 clients"] == "met"
    assert verdict["recall, large bank, one replica, 1 client"] == "-"
    one, four = (f"retain p50, {n} writer(s) over 2 replica(s): large / small bank"
                 for n in (1, 4))
    assert verdict[one] == "met" and verdict[four] == "NOT met"  # 1.5x and 2.4x
    assert rows[four][0].startswith("120 ms / 50.0 ms = 2.40x")
    rss = "replica RSS after 1 / 100 banks of 365 files (then the large bank)"
    assert verdict[rss] == "met" and rows[rss][0] == "150 / 170 MB = 1.13x (175 MB)"
    assert rows["database size per 1,000 facts"][0] == "5.00 MB (2,000 MB, 400,000 facts)"
    assert verdict["LoCoMo dev R@10 through HTTP beside local, lexical"] == "met"
    text = server_fleet.targets(fleet_result())
    assert text.startswith("| figure | measured | target |  |\n| --- |")
    assert len(text.splitlines()) == len(rows) + 2


@pytest.mark.slow
@pytest.mark.usefixtures("postgres_binaries")
def test_bench_server_scale_runs_the_fleet_end_to_end(tmp_path: Path) -> None:
    """Three banks of 5 logs (two from the first's export) and one of 12, two replicas, two
    writers, LoCoMo's tiny conversation: every part reported, nothing lost or refused."""
    out = tmp_path / "results" / "server-scale.json"
    result = CliRunner().invoke(cli, [
        "bench", "server-scale", "--bank-files", "5", "--large", "12", "--banks", "3",
        "--replicas", "2", "--writers", "2", "--retains", "2", "--clients", "2",
        "--seconds", "1", "--warm", "2", "--restarts", "1", "--rss-queries", "1",
        "--locomo", str(tiny_locomo(tmp_path)), "--out", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    many = data["many_banks"]
    assert many["banks"] == 3 and many["import"]["n"] == 2
    assert many["judged"] == 0  # the export carries the judge's decisions
    assert len(data["fresh_replicas"]) == 1
    assert data["recall_spread"]["clients_2"]["replicas"] == 2
    assert data["recall_spread"]["clients_2"]["errors"] == 0
    for n in (1, 2):
        writers = data["retain_writers"][f"writers_{n}"]
        assert writers["replicas"] == 2 and writers["errors"] == 0
        assert {b: f["n"] for b, f in writers["banks"].items()} == {"small": 2 * n,
                                                                   "large": 2 * n}
    assert set(data["rss_by_banks"]["rss_mb"]) == {"0", "1", "3"}
    database = data["database"]
    assert database["files"] >= 3 * many["files_each"] and database["facts"] > 0
    assert data["locomo"]["lexical"]["questions"] == 6
    assert data["environment"]["load_averages_at_end"]
    for row in ("| replica 2 started afresh", "| recall, large bank, over 2 replicas, 2 clients",
                "| retain p50, 2 writer(s) over 2 replica(s)",
                "| replica RSS after 1 / 3 banks of 5 files", "| database size per 1,000 facts",
                "| LoCoMo dev R@10 through HTTP beside local, lexical"):
        assert row in result.output
