"""What a `--recall-from postgres` replica does before its port opens (memfold.server.pgwarm
and serving.warm_up): every statement a recall sends is sent once at start, seeing no bank;
every time-phrase pattern is compiled; what the warm-up left is out of later collections."""

from __future__ import annotations

import gc
import re
from typing import Any

import pytest
from test_server_pgrecall import QUERIES, imported

from memfold_bench.pg_cluster import Provisioned
from server_support import counted_recall


def _shape(sql: str) -> str:
    return re.sub(r"\s+", " ", sql).strip()


def _sent(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every statement any connection executes from now on."""
    import psycopg

    sent: list[str] = []
    real = psycopg.Connection.execute

    def execute(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        sent.append(_shape(str(query)))
        return real(self, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.Connection, "execute", execute)
    return sent


def test_warm_sends_every_statement_of_a_recall_and_reads_no_row(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    from memfold.server.db import connect_pool
    from memfold.server.pgwarm import warm

    imported(pg_db, "warmed")
    pool = connect_pool(pg_db.app, size=1)
    try:
        sent = _sent(monkeypatch)
        warm(pool)
        warmed = set(sent)
        rows = []
        for query in QUERIES:
            hits, statements = counted_recall(pool, "warmed", query, now="2026-03-20T12:00:00")
            assert hits
            rows.extend(_shape(s) for s in statements)
        recalled = set(sent) | set(rows)
    finally:
        pool.close()
    assert recalled - warmed == set()


def test_warm_up_compiles_the_time_patterns_and_freezes_what_it_left() -> None:
    from memfold.server import serving
    from memfold.times.words import ON_FIRST_USE

    gc.unfreeze()
    threshold = gc.get_threshold()
    try:
        serving.warm_up()
        patterns = ON_FIRST_USE
        assert len(patterns) >= 10
        assert all(p.cache_info().currsize == 1 for p in patterns)  # type: ignore[attr-defined]
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold()[0] == serving.YOUNG
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
