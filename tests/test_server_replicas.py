"""Replicas of `memfold serve` on one database, checked write by write: concurrent writers on
two replicas with racing notes, a replica killed mid-write, the database crashing mid-write.

The harness is `memfold bench server-trials` (memfold_bench.server_trials), here at a small
scale; benchmarks/results/server-trials.json holds a full-size run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from memfold_bench import server_trials as trials
from memfold_bench.pg_cluster import Cluster, find_bin

pytestmark = pytest.mark.slow

WRITERS, RETAINS, PAIRS = 3, 20, 10


def assert_sound(run: trials.Run) -> None:
    """Nothing acknowledged lost or doubled, every write eventually acknowledged, no 500,
    and every replica answering as the others and indexing what the bank holds."""
    checks = run.checks
    assert run.problems == []
    assert checks["lost"] == 0, checks["lost_ids"]
    assert checks["duplicates"] == 0, checks["duplicate_ids"]
    assert checks["unclear"] == 0
    assert checks["acknowledged"] + checks["held_on_retry"] == run.writes_planned
    assert run.errors_500 == 0, run.statuses
    assert run.replica_differences == []
    assert run.ok


def test_two_replicas_then_one_killed_mid_write(pg_cluster: Cluster) -> None:
    with trials.Bed.running(pg_cluster, 2) as bed:
        run = trials.run_replicas(bed, WRITERS, RETAINS, PAIRS, seed=1)
        assert_sound(run)
        assert run.racing_pairs == PAIRS
        assert run.racing_one_winner == PAIRS
        assert run.retriable_errors == 0  # nothing failed, so nothing was retried
        assert run.checks["facts_in_bank"] == run.writes_planned + PAIRS

        victim = trials.run_kill(bed, 1, WRITERS, RETAINS, seed=1)
        assert_sound(victim)
        assert 0 < victim.fault["after_acks"] < victim.writes_planned
        # the writers of the killed replica lost their connection and went to the other
        assert victim.checks["failovers"] >= 1
        assert victim.statuses.get("connection", 0) >= 1
        assert bed.replicas[victim.fault["victim"]].starts == 2


@pytest.fixture
def private_cluster() -> Iterator[Cluster]:
    """A cluster of this test's own: the test stops and starts its server."""
    if find_bin() is None:
        message = "no PostgreSQL server binaries (initdb, pg_ctl) to crash and restart"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    cluster = Cluster.start()
    yield cluster
    cluster.destroy()


def test_database_crash_and_restart_mid_write(private_cluster: Cluster) -> None:
    with trials.Bed.running(private_cluster, 2) as bed:
        pids = [replica.process.pid for replica in bed.replicas if replica.process]
        run = trials.run_restart(bed, private_cluster, 1, WRITERS, RETAINS, seed=1)
        assert_sound(run)
        assert 0 < run.fault["after_acks"] < run.writes_planned
        # the replicas came through on their own: the same processes, ready again
        assert [replica.process.pid for replica in bed.replicas if replica.process] == pids
        assert all(replica.ready() for replica in bed.replicas)
        assert all(replica.starts == 1 for replica in bed.replicas)

