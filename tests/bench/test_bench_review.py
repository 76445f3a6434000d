"""`memfold bench review`: a generated workspace whose journal raises review items of every
kind the queue shows (open conflicts, supersedes in force, settled ones), replayed by a
rebuild, and the figures it prints (issue 29: "`review` under 100 ms at 100,000 facts")."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from memfold.cli.main import cli
from memfold.memory import Memory


def test_the_review_bench_builds_a_queue_and_times_it(tmp_path: Path) -> None:
    out, ws = tmp_path / "review.json", tmp_path / "ws"
    result = CliRunner().invoke(cli, ["bench", "review", "--facts", "600", "--repeat", "2",
                                      "--cli", "1", "--keep", str(ws), "--out", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    made = data["workspace"]
    assert made["typed_facts"] > 500 and made["events"]["Conflict"] > 0
    assert set(made["events"]) >= {"Supersede", "Conflict"}
    assert set(data["in_process"]) == {"list", "entity", "rule", "since", "rule+since"}
    assert all(found["p50_ms"] > 0 for found in data["in_process"].values())
    assert set(data["command"]) == {"list", "entity", "warm list", "warm entity"}
    with Memory.open(ws) as memory:  # the rebuild replayed the generated decisions
        queue = memory.review(limit=None, settled=True, now=data["now"])
        states = {item.state for item in queue.items}
        assert {"open", "applied"} <= states and states & {"dismissed", "restored", "accepted"}
        assert queue.total == data["in_process"]["list"]["items"] + sum(
            1 for item in queue.items if not item.waiting)
        rules = {item.rule for item in queue.items}
        assert {"value", "moved", "changes"} <= rules
    again = CliRunner().invoke(cli, ["bench", "review", "--repeat", "1", "--cli", "0",
                                     "--keep", str(ws), "--out", str(out)])
    assert again.exit_code == 0 and "workspace reused" in again.output
