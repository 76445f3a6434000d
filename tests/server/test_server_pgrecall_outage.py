"""A `--recall-from postgres` replica whose database goes away: its recalls are answered 503
with Retry-After while the database is down (no 500, no traceback) after one wait for a
connection, not one per retry, and the same process answers them again, the same answer,
once the database is back — no restart (a client retrying as Retry-After says)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from memfold_bench.pg_cluster import Cluster, find_bin
from server_support import app_client, bearer, make_tenant, new_database
from system_support import missing

pytestmark = pytest.mark.slow

QUERY = {"query": "where does Ida keep bees", "k": 5, "mode": "lexical"}
RECOVERY = 180.0  # seconds a replica may take to answer again once its database is back


@pytest.fixture
def private_cluster() -> Iterator[Cluster]:
    """A cluster of this test's own: the test stops and starts its server."""
    if find_bin() is None:
        missing("no PostgreSQL server binaries (initdb, pg_ctl) to stop and start")
    cluster = Cluster.start()
    yield cluster
    cluster.destroy()


def _count_waits(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the waits for a connection that end in the pool's timeout."""
    from psycopg_pool import ConnectionPool, PoolTimeout

    waits = [0]
    real = ConnectionPool.getconn

    def getconn(self: ConnectionPool, timeout: float | None = None) -> Any:
        try:
            return real(self, timeout)
        except PoolTimeout:
            waits[0] += 1
            raise

    monkeypatch.setattr(ConnectionPool, "getconn", getconn)
    return waits


def _once_back(client: Any, token: dict[str, str]) -> Any:
    """The first answer that is not a 503, retrying as its Retry-After says: the pool
    reconnects in the background on its own schedule, which a loaded machine stretches, so
    the database being back does not mean the next request finds a connection."""
    deadline = time.monotonic() + RECOVERY
    while True:
        answer = client.post("/v1/banks/main/recall", headers=token, json=QUERY)
        if answer.status_code != 503 or time.monotonic() > deadline:
            return answer
        time.sleep(min(float(answer.headers.get("retry-after", 1)), 5.0))


def _hits(answer: Any) -> list[str]:
    assert answer.status_code == 200, answer.text
    return [hit["content"] for hit in answer.json()["results"]]


# "fast" (a smart shutdown) ends in the same lost connections as "immediate": the default suite
# stops the server the harsher way only
@pytest.mark.parametrize("mode", ["immediate"])
def test_recall_from_postgres_is_a_503_while_the_database_is_down_and_recovers(
        private_cluster: Cluster, mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    db = new_database(private_cluster)
    token = bearer(make_tenant(db, "acme").tokens["agent"])
    with app_client(db, recall_from="postgres") as client:
        wrote = client.post("/v1/banks/main/retain", headers=token,
                            json={"bullets": ["W @Ida: Keeps bees in the garden.",
                                              "W @Peter: Lives in Vienna."]})
        assert wrote.status_code == 200, wrote.text
        before = _hits(client.post("/v1/banks/main/recall", headers=token, json=QUERY))
        assert before[0] == "Keeps bees in the garden."

        private_cluster.stop(mode)
        waits = _count_waits(monkeypatch)
        lost = client.post("/v1/banks/main/recall", headers=token, json=QUERY)
        assert waits == [1]  # the pool's whole timeout once, never again per retry
        monkeypatch.undo()
        assert lost.status_code == 503, lost.text
        assert int(lost.headers["retry-after"]) >= 1
        assert lost.json()["type"] == "Unavailable"

        private_cluster.restart()
        assert _hits(_once_back(client, token)) == before
        again = client.post("/v1/banks/main/retain", headers=token,
                            json={"bullets": ["W @Ida: Sells honey at the market."]})
        assert again.status_code == 200, again.text
        assert "Sells honey at the market." in _hits(client.post(
            "/v1/banks/main/recall", headers=token,
            json={**QUERY, "query": "Ida honey market"}))
