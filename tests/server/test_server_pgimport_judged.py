"""An import that must be judged, answered from PostgreSQL itself (`memfold serve
--recall-from postgres`, memfold.server.pgimport and memfold.server.pgjudge): a generated
workspace no memfold judged (daily logs and entity pages with names, aliases and facts
without entities) imported into an empty bank is judged in the order written from the
bank's rows, and stores the same files, journal lines, facts, recall rows and lifecycle
state, answers the import and the reads alike, as through a replica's copy — with and
without a model (by meaning, the vectors read from and stored to the bank's rows) — and
writes nothing under the replica's cache."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from test_server_pgretain import NOW, _bank, _journal_chain, _vectors

from memfold.embed.base import FakeEmbedder
from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, make_tenant

QUERIES = ("where does she live now", "works at", "moved", "likes", "meeting")


def _reads(client: Any, token: dict[str, str], ids: list[str]) -> list[Any]:
    """Recall of a few queries, the status, and the history of some facts."""
    out: list[Any] = []
    for query in QUERIES:
        got = client.post("/v1/banks/main/recall", headers=token, json={"query": query})
        assert got.status_code == 200, got.text
        out.append([(h["id"], h["source"], h["score"], h.get("status"),
                     h.get("superseded_by")) for h in got.json()["results"]])
    got = client.post("/v1/banks/main/status", headers=token, json={})
    assert got.status_code == 200, got.text
    # (a copy's last sync is stamped by the clock)
    out.append({k: v for k, v in got.json().items() if k not in ("workspace", "last_sync")})
    for fact_id in ids:
        got = client.post("/v1/banks/main/history", headers=token, json={"id": fact_id})
        assert got.status_code == 200, got.text
        out.append(got.json())
    return out


def _judged_ids(url: str, tenant: str) -> list[str]:
    """The facts the judge's lines name (superseded or left in conflict), a few."""
    import psycopg

    with psycopg.connect(url) as conn:
        conn.execute("SELECT set_config('memfold.tenant', %s, false)", [tenant])
        lines = [str(r[0]) for r in conn.execute("SELECT line FROM events ORDER BY seq")]
    named = [json.loads(line).get("id") for line in lines
             if json.loads(line)["event"] in ("supersede", "conflict")]
    return [str(i) for i in dict.fromkeys(named) if i][:4]


def _imported(pg_db: Provisioned, tmp: Path, tenants: tuple[str, str],
              embedder: Any = None) -> tuple[list[Any], list[Path]]:
    """The generated workspace imported into each tenant's empty bank, through a copy
    and from PostgreSQL: each import's answer and reads, and what the second replica's
    cache held after them."""
    from memfold.client.files import read_workspace
    from memfold_bench import corpus

    corpus.generate(tmp / "ws", files=24, seed=11)
    body = read_workspace(tmp / "ws")
    assert body["journal"] == []  # notes no memfold judged
    tokens = [bearer(make_tenant(pg_db, t).tokens["agent"]) for t in tenants]
    empty = tmp / "cache"
    empty.mkdir()
    said: list[Any] = []
    with app_client(pg_db, recall_from="copy", embedder=embedder) as copy:
        got = copy.post("/v1/banks/main/import", headers=tokens[0], json=body)
        assert got.status_code == 200, got.text
        said.append(got.json())
    ids = _judged_ids(pg_db.owner, tenants[0])
    with app_client(pg_db, recall_from="copy", embedder=embedder) as copy:
        said.append(_reads(copy, tokens[0], ids))
    with app_client(pg_db, recall_from="postgres", cache=empty, embedder=embedder) as fresh:
        got = fresh.post("/v1/banks/main/import", headers=tokens[1], json=body)
        assert got.status_code == 200, got.text
        said.append(got.json())
        said.append(_reads(fresh, tokens[1], ids))
        held = list(empty.iterdir())
    return said, held


@pytest.mark.parametrize("batch", [None, 3])
def test_an_import_to_judge_is_judged_from_postgres_as_a_copy_judges_it(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch, batch: int | None) -> None:
    """(With `batch`, the ids and seqs a statement names cut to 3 — a day's facts and lines
    asked in parts — and the terms' places kept cut to 50, forgotten and read again as the
    judging goes: the same decisions.)"""
    from memfold.server import pgjudge

    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    if batch is not None:
        monkeypatch.setattr(pgjudge, "BATCH", batch)
        monkeypatch.setattr(pgjudge._Places, "KEPT", 50)
    tenants = ("jcopy", "jpg") if batch is None else ("jbcopy", "jbpg")
    with tempfile.TemporaryDirectory() as tmp:
        said, held = _imported(pg_db, Path(tmp), tenants)
    assert held == []  # judged with no copy of the bank
    copy_import, copy_reads, pg_import, pg_reads = said
    assert pg_import == copy_import
    assert copy_import["stored"] == "whole" and copy_import["judged"] > 0
    assert pg_reads == copy_reads and len(pg_reads) == len(QUERIES) + 1 + 4
    assert pg_reads[len(QUERIES)]["facts"] > 200
    stored = _bank(pg_db.owner, tenants[1])
    assert stored == _bank(pg_db.owner, tenants[0])
    kinds = [json.loads(json.loads(row)["line"])["event"] for row in stored["events"]]
    assert {"supersede", "conflict"} <= set(kinds)
    assert _journal_chain(pg_db.owner, tenants[1])[1] is None


def test_with_a_model_an_import_is_judged_by_meaning_from_the_banks_vectors(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a replica with a model the judge weighs meaning too: the vectors it reads come
    from the bank's rows and those it makes are stored in the import's transaction, as a
    copy's import stores them."""
    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    with tempfile.TemporaryDirectory() as tmp:
        said, held = _imported(pg_db, Path(tmp), ("mjcopy", "mjpg"), FakeEmbedder)
    assert held == []
    copy_import, copy_reads, pg_import, pg_reads = said
    assert pg_import == copy_import and copy_import["judged"] > 0
    assert pg_reads == copy_reads
    assert _bank(pg_db.owner, "mjpg") == _bank(pg_db.owner, "mjcopy")
    assert _vectors(pg_db.owner, "mjpg") == _vectors(pg_db.owner, "mjcopy") != []
