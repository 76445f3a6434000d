"""A purge or a deleted bank reaches every replica at once (memfold.server.notices): the
database NOTIFYs in the purge's or the delete's transaction, each replica listens on a
connection of its own and removes its copies of the bank — Markdown, journal, the SQLite
index and its WAL — without waiting for a request; a replica whose listening connection is
killed listens again."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from memfold_bench.pg_cluster import Cluster, Provisioned
from server_support import caller, make_tenant, owner_pool

TOKEN = "ghp_Zq7Lm2Xw9Kp4Rt8Vn3Bc6Yh1Jd5Fs0Ga2Eu7Wx"  # a fake GitHub token
WAIT = 15.0  # the longest a test waits for a notice to take effect


def soon(condition: Callable[[], bool]) -> bool:
    """Whether `condition` holds within WAIT seconds (polled every 20 ms)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def holding(cache: Path, text: str) -> list[str]:
    """Every file under `cache` (the SQLite index and its WAL included) whose bytes hold
    `text`."""
    found = []
    for top, _, names in os.walk(cache):  # a directory removed while walking is skipped
        for name in names:
            path = Path(top, name)
            try:
                if text.encode() in path.read_bytes():
                    found.append(str(path.relative_to(cache)))
            except (FileNotFoundError, IsADirectoryError):
                continue  # removed while looking
    return found


def files_of(cache: Path, bank_id: int) -> list[Path]:
    return [Path(top, name) for top, _, names in os.walk(cache / str(bank_id))
            for name in names]


@pytest.fixture
def pool(app_pool: Any) -> Any:
    """The serving role's pool (`app_pool`), under the name these tests give it."""
    return app_pool


@pytest.fixture
def replicas(pool: Any) -> Iterator[Callable[..., Any]]:
    """Makes replicas on the pool, each with a cache of its own unless given one."""
    from memfold.server.replica import Replica

    made: list[Any] = []

    def make(cache: Path | None = None) -> Any:
        found = Replica(pool, cache or Path(tempfile.mkdtemp(prefix="memfold-notice-")),
                        recall_from="copy")  # the copies a notice reaches
        made.append(found)
        assert found.listener.listening.wait(WAIT)
        return found

    yield make
    for found in made:
        found.close()


def bank_id(pg_db: Provisioned, tenant: str, bank: str) -> int:
    from memfold.server.db import tenant_tx

    owner = owner_pool(pg_db)
    try:
        with tenant_tx(owner, tenant) as conn:
            row = conn.execute("SELECT bank_id FROM banks WHERE name = %s", [bank]).fetchone()
    finally:
        owner.close()
    return int(row[0])


def retain_secret(replica: Any, who: Any, bank: str, text: str) -> str:
    made = replica.run(who, bank, "write",
                       lambda m: m.retain([f"W @Deploy: {text}"], date="2025-10-20",
                                          allow_secret=True), what="retain")
    return str(made.facts[0].id)


def recall(replica: Any, who: Any, bank: str, query: str) -> list[str]:
    return replica.run(who, bank, "read",
                       lambda m: [h.fact.id for h in m.recall(query, k=10).hits],
                       what="recall")


def test_a_purge_leaves_the_text_on_no_replica(pg_db: Provisioned,
                                               replicas: Callable[..., Any]) -> None:
    make_tenant(pg_db, "purging")
    who = caller("purging")
    one, two = replicas(), replicas()
    fact = retain_secret(one, who, "main", f"old deploy key {TOKEN}")
    retain_secret(one, who, "main", "the harbour deploy runs nightly")
    for replica in (one, two):  # both copies hold the text, in Markdown and in the index
        assert fact in recall(replica, who, "main", "deploy key")
        assert holding(replica.cache, TOKEN)
    one.run(who, "main", "write", lambda m: m.purge(fact), what="forget")
    # the other replica removes its copy without a request to it
    assert soon(lambda: not holding(two.cache, TOKEN)), holding(two.cache, TOKEN)
    assert not holding(one.cache, TOKEN)
    # and answers from PostgreSQL again: the purged fact gone, the other one there
    for replica in (one, two):
        found = recall(replica, who, "main", "deploy")
        assert found and fact not in found
        assert not holding(replica.cache, TOKEN)


def test_a_deleted_bank_leaves_no_copy(pg_db: Provisioned,
                                       replicas: Callable[..., Any]) -> None:
    from memfold.server import admin

    make_tenant(pg_db, "deleting", banks=("main", "old"))
    who = caller("deleting")
    one, two = replicas(), replicas()
    retain_secret(one, who, "old", "the archive bank keeps the tape index")
    for replica in (one, two):
        assert recall(replica, who, "old", "tape index")
    # a copy an earlier process left (a clean stop: its manifest) in a cache whose live
    # replica never opened the bank
    earlier = replicas()
    assert recall(earlier, who, "old", "tape index")
    earlier.close()
    later = replicas(earlier.cache)
    number = bank_id(pg_db, "deleting", "old")
    assert all(files_of(r.cache, number) for r in (one, two, later))

    owner = owner_pool(pg_db)
    try:
        assert admin.delete_bank(owner, "deleting", "old")
    finally:
        owner.close()
    for replica in (one, two, later):
        assert soon(lambda r=replica: not (r.cache / str(number)).exists()), \
            files_of(replica.cache, number)
    assert recall(one, who, "main", "anything") == []  # the tenant's other bank still serves


def test_a_killed_listening_connection_listens_again(pg_db: Provisioned, pg_cluster: Cluster,
                                                     replicas: Callable[..., Any]) -> None:
    import psycopg

    make_tenant(pg_db, "reconnecting")
    who = caller("reconnecting")
    one, two = replicas(), replicas()
    fact = retain_secret(one, who, "main", f"rotated key {TOKEN}")
    assert recall(two, who, "main", "rotated key")
    killed = two.listener.backend_pid
    with psycopg.connect(pg_cluster.url(), autocommit=True) as admin_conn:
        assert admin_conn.execute("SELECT pg_terminate_backend(%s)", [killed]).fetchone()[0]
    assert soon(lambda: two.listener.connections >= 2 and two.listener.listening.is_set())
    assert two.listener.backend_pid != killed
    one.run(who, "main", "write", lambda m: m.purge(fact), what="forget")
    assert soon(lambda: not holding(two.cache, TOKEN)), holding(two.cache, TOKEN)


def test_every_worker_of_memfold_serve_drops_a_deleted_bank(pg_db: Provisioned,
                                                            tmp_path: Path) -> None:
    """`memfold serve --workers 2`: each worker listens, so no copy of a deleted bank stays in
    the shared --cache, whichever worker served it."""

    from memfold.server import admin
    from server_support import post_verb, serve

    tenant = make_tenant(pg_db, "workers", banks=("main", "gone"),
                         tokens={"agent": (("read", "write"), None)})

    def post(url: str, verb: str, body: dict[str, Any]) -> Any:
        return post_verb(url, "gone", verb, body, tenant.tokens['agent'])

    served = serve(pg_db, extra=("--workers", "2", "--cache", str(tmp_path), "--no-vectors",
                                 "--recall-from", "copy"))
    try:
        post(served.url, "retain", {"bullets": ["W @Vera: Stored the ledger in vault nine."]})
        for _ in range(6):
            assert post(served.url, "recall", {"query": "ledger vault"})["results"]
        number = bank_id(pg_db, "workers", "gone")
        assert files_of(tmp_path, number)
        owner = owner_pool(pg_db)
        try:
            assert admin.delete_bank(owner, "workers", "gone")
        finally:
            owner.close()
        assert soon(lambda: not (tmp_path / str(number)).exists()), files_of(tmp_path, number)
    finally:
        served.stop()
