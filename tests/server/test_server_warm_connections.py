"""A replica answering from PostgreSQL warms every connection its pool may hold before it
serves (memfold.server.pgwarm, serving.assemble), not only the first: the first requests of
a burst after a start run on connections that already ran each statement of a recall, as a
lone first request does.  At most serving.WARMED of them, however large --pool-size."""

from __future__ import annotations

import re
import threading
from collections import defaultdict
from typing import Any

import pytest
from test_server_pgrecall import imported

from memfold_bench.pg_cluster import Provisioned


def _by_backend(monkeypatch: pytest.MonkeyPatch,
                used: list[int] | None = None) -> dict[int, set[str]]:
    """The statements each database backend (by pid) runs from now on; the backend of each
    statement that reads recall rows also appended to `used` (not the replica's listening
    connection, outside the pool)."""
    import psycopg

    sent: dict[int, set[str]] = defaultdict(set)
    real = psycopg.Connection.execute

    def execute(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        sent[self.info.backend_pid].add(re.sub(r"\s+", " ", str(query)).strip())
        if used is not None and "recall_facts" in str(query):
            used.append(self.info.backend_pid)
        return real(self, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.Connection, "execute", execute)
    return sent


def _started(settings: Any) -> Any:
    from starlette.testclient import TestClient

    from memfold.server import serving

    return TestClient(serving.assemble(settings))


@pytest.mark.parametrize(("pool_size", "warmed"), [(3, 3), (1, 1), (5, 2)])
def test_each_connection_the_pool_may_hold_is_warmed_before_the_first_request(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch, pool_size: int,
        warmed: int) -> None:
    from memfold.server import serving

    monkeypatch.setattr(serving, "WARMED", 2 if pool_size == 5 else serving.WARMED)
    sent = _by_backend(monkeypatch)
    with _started(serving.Settings(db=pg_db.app, pool_size=pool_size, rate=0)):
        backends = [pid for pid, statements in sent.items() if len(statements) > 50]
        assert len(backends) == warmed
        least = min((sent[pid] for pid in backends), key=len)  # the others also checked
        assert all(least <= sent[pid] for pid in backends)  # the role, on the first


def test_a_burst_of_first_recalls_runs_on_warmed_connections_only(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    from memfold.server import serving

    token = imported(pg_db, "burst")
    used: list[int] = []
    sent = _by_backend(monkeypatch, used)
    with _started(serving.Settings(db=pg_db.app, pool_size=4, rate=0)) as client:
        warmed = {pid for pid, statements in sent.items() if len(statements) > 50}
        used.clear()
        gate = threading.Barrier(4)
        answers: list[int] = []

        def ask(query: str) -> None:
            gate.wait()
            answers.append(client.post("/v1/banks/main/recall", headers=token,
                                       json={"query": query}).status_code)

        threads = [threading.Thread(target=ask, args=(query,))
                   for query in ("piano lessons", "moved to Graz", "the garden", "Lena")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert answers == [200] * 4
    assert len(warmed) == 4
    assert used and set(used) <= warmed
