"""D1: kill -9 a writer at random moments; nothing acknowledged is lost (docs/reliability.md).

The harness lives in `memfold_bench.soak` (`memfold bench soak --trials N` runs it longer).
The default suite runs MEMFOLD_D1_TRIALS (100, the reliability plan's PR tier) trials with
seed MEMFOLD_D1_SEED (0), and the negative control: a writer that rewrites the day file in
place instead of appending must be caught losing acknowledged facts.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from memfold_bench.soak import Kill9Report, run_kill9, upper_bound_95

TRIALS = int(os.environ.get("MEMFOLD_D1_TRIALS", "100"))
SEED = int(os.environ.get("MEMFOLD_D1_SEED", "0"))
CONTROL_TRIALS = 20


def show(capsys: pytest.CaptureFixture[str], report: Kill9Report) -> None:
    with capsys.disabled():
        print(f"\n{report.line()}")


def test_rule_of_three_bound() -> None:
    assert upper_bound_95(0, 200) == pytest.approx(0.015)
    assert upper_bound_95(0, 1000) == pytest.approx(0.003)
    assert 0.5 < upper_bound_95(15, 30) < 0.7  # Wilson bound once something failed
    assert upper_bound_95(0, 0) == 1.0


@pytest.mark.slow
def test_kill9_loses_nothing_acknowledged(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    report = run_kill9(TRIALS, seed=SEED, workdir=tmp_path)
    show(capsys, report)
    assert report.problems == [], "\n".join(report.problems[:20])
    assert report.trials == TRIALS and report.failed_trials == 0
    assert report.lost == report.torn == report.idx_orphan == report.idx_mismatch == 0
    assert report.integrity == 0
    assert report.idx_lag == report.idx_lag_repaired
    assert report.acked_facts > TRIALS  # the writers did write: more than one fact a trial
    assert report.acked > report.acked_facts  # and notes, supersedes and uses


@pytest.mark.slow
def test_kill9_control_naive_rewrite_is_caught(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """A day file rewritten in place (truncate, then write) loses acknowledged facts when the
    writer dies inside the rewrite: the harness must see that."""
    report = run_kill9(CONTROL_TRIALS, seed=SEED, control="naive-rewrite", workdir=tmp_path,
                       chain=CONTROL_TRIALS)  # one growing file: a long rewrite window
    show(capsys, report)
    assert report.failed_trials > 0
    assert report.lost + report.torn > 0


def test_bench_soak_command_runs_the_harness(run: Any, tmp_path: Path) -> None:
    out = tmp_path / "soak.json"
    result = run("bench", "soak", "--trials", "3", "--chain", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "D1 kill9: trials=3 " in result.output and "lost=0" in result.output
    assert json.loads(out.read_text())["trials"] == 3
