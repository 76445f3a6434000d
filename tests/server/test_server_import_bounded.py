"""An import stores a bank whole in one transaction, and the server bounds each statement
(`--statement-timeout`), not the transaction: so no statement that derives the recall rows
may grow with the bank.  A 3,000-file import's postings were one INSERT over every row of the
bank, past the 30 s timeout; they, the lifecycle states and the copies of duplicated ids
are now derived `recall_rows.BATCH` rows at a time, with the same rows as derived at once."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import psycopg
import pytest
from test_server_pgretain import NOW, _bank

from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, make_tenant

BATCH = 40  # rows a statement names, lowered so a small bank needs several
# the statements that name a bank's rows by a list
LISTED = ("INSERT INTO recall_postings", "FROM recall_life WHERE bank_id = %s AND id = ANY",
          "SELECT rowid, fact_id, path, line, content FROM recall_facts",
          "UPDATE recall_facts SET shadowed")


def test_an_import_names_a_bounded_number_of_rows_in_each_statement(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    from memfold.client.files import read_workspace
    from memfold.server import recall_rows
    from memfold_bench import corpus

    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    monkeypatch.setattr(recall_rows, "BATCH", BATCH, raising=False)
    named: list[int] = []
    execute = psycopg.Cursor.execute

    def counted(self: Any, query: Any, params: Any = None, **kwargs: Any) -> Any:
        if isinstance(query, str) and any(s in query for s in LISTED) and params:
            named.append(max((len(p) for p in params if isinstance(p, list)), default=0))
        return execute(self, query, params, **kwargs)

    token = bearer(make_tenant(pg_db, "bounded").tokens["agent"])
    with tempfile.TemporaryDirectory() as tmp:
        corpus.generate(Path(tmp) / "ws", files=30, seed=5)
        body = read_workspace(Path(tmp) / "ws")
        with app_client(pg_db) as client:
            monkeypatch.setattr(psycopg.Cursor, "execute", counted)
            got = client.post("/v1/banks/main/import", headers=token, json=body)
            monkeypatch.setattr(psycopg.Cursor, "execute", execute)
    assert got.status_code == 200, got.text
    assert got.json()["stored"] == "whole" and got.json()["judged"] > 0
    assert len(named) > 10 and max(named) <= BATCH, named
    imported = _bank(pg_db.owner, "bounded")
    assert len(imported["recall_facts"]) > 10 * BATCH
    with psycopg.connect(pg_db.owner) as conn, conn.cursor() as cur:  # derived again at once
        cur.execute("SELECT set_config('memfold.tenant', 'bounded', true)")
        bank_id = cur.execute("SELECT bank_id FROM banks WHERE name = 'main'").fetchone()
        assert bank_id is not None
        monkeypatch.setattr(recall_rows, "BATCH", 1 << 30, raising=False)
        recall_rows.rebuild(cur, "bounded", int(bank_id[0]))
    assert _bank(pg_db.owner, "bounded") == imported
