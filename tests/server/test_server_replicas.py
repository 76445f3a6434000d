"""Replicas of `memfold serve` on one database, checked write by write: concurrent writers on
two replicas with racing notes, a replica killed mid-write, the database crashing mid-write.

The harness is `memfold bench server-trials` (memfold_bench.server_trials), here at a small
scale; benchmarks/results/server-trials.json holds a full-size run.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memfold_bench import server_trials as trials
from memfold_bench.pg_cluster import Cluster, find_bin
from system_support import missing

pytestmark = pytest.mark.slow

WRITERS, RETAINS, PAIRS = 3, 20, 10
DAY = "2025-11-27"


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


def test_two_replicas_retaining_from_postgres(pg_cluster: Cluster) -> None:
    """The same racing writers and notes on replicas that retain with no copy of the bank
    (`--recall-from postgres`, memfold.server.pgretain): a retain into a bank under both
    replicas' writers, one transaction each under the bank's lock."""
    with trials.Bed.running(pg_cluster, 2, ("--recall-from", "postgres", "--no-vectors")
                            ) as bed:
        run = trials.run_replicas(bed, WRITERS, RETAINS, PAIRS, seed=2)
        # the notes are written from PostgreSQL too, so a replica holds no copy (none is
        # compared) unless a write through one made it: compared below once a read through
        # the copy (a semantic recall, which a replica without a model answers from its
        # copy) made it or caught it up
        stale = [d for d in run.replica_differences if "index differs" in d]
        run.replica_differences = [d for d in run.replica_differences if d not in stale]
        assert_sound(run)
        assert run.racing_one_winner == PAIRS
        assert run.retriable_errors == 0
        assert run.checks["facts_in_bank"] == run.writes_planned + PAIRS
        truth = trials.truth_dump(trials.export(bed, run.bank))
        for n, replica in enumerate(bed.replicas):
            assert bed.call(n, run.bank, "reflect", {"dry_run": True}).status == 200
            assert trials.replica_dump(replica, bed.bank_ids[run.bank]) is None  # no copy
            asked = {"query": "note", "mode": "semantic"}
            assert bed.call(n, run.bank, "recall", asked).status == 200
            assert trials.replica_dump(replica, bed.bank_ids[run.bank]) == truth


@pytest.fixture
def private_cluster() -> Iterator[Cluster]:
    """A cluster of this test's own: the test stops and starts its server."""
    if find_bin() is None:
        missing("no PostgreSQL server binaries (initdb, pg_ctl) to crash and restart")
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


def test_a_write_whose_commit_fails_leaves_no_trace_on_its_replica(
        pg_cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The connection dies after a write's changes were sent, before its commit (as when the
    database crashes): the replica must not keep the write PostgreSQL does not hold — not
    in its answers, and not as an id a retry of the same write is refused for."""
    from memfold.errors import Unavailable
    from memfold.server import admin
    from memfold.server.banks import BankWorkspace
    from memfold.server.db import connect_pool
    from memfold.server.replica import Replica
    from server_support import make_tenant, new_database

    db = new_database(pg_cluster)
    tenant = make_tenant(db, "acme")
    pool = connect_pool(db.app, size=4)
    try:
        caller = admin.identify(pool, tenant.tokens["agent"])
        assert caller is not None
        one, other = (Replica(pool, tmp_path / name, recall_from="copy")  # their copies
                      for name in ("one", "other"))
        bank = one.bank(caller, "main")
        bank.write(caller, lambda m: m.retain(["B: kept fact ^keptfact1"], date=DAY))
        sent = BankWorkspace._send

        def send_then_lose_the_connection(self: BankWorkspace, conn: Any, version: int
                                          ) -> bool:
            sent(self, conn, version)
            raise Unavailable("the database could not finish this: connection lost")

        monkeypatch.setattr(BankWorkspace, "_send", send_then_lose_the_connection)
        with pytest.raises(Unavailable):
            bank.write(caller, lambda m: m.retain(["B: lost fact ^lostfact1"], date=DAY))
        monkeypatch.setattr(BankWorkspace, "_send", sent)

        def ids(workspace: BankWorkspace) -> list[str]:
            return workspace.read(lambda m: sorted(h.fact.id for h in m.recall("fact").hits))

        assert ids(bank) == ids(other.bank(caller, "main")) == ["keptfact1"]
        # the retry is stored, not refused as a block id already used
        retried = bank.write(caller, lambda m: m.retain(["B: lost fact ^lostfact1"], date=DAY))
        assert [fact.id for fact in retried.facts] == ["lostfact1"]
        assert ids(other.bank(caller, "main")) == ["keptfact1", "lostfact1"]
        one.close()
        other.close()
    finally:
        pool.close()
