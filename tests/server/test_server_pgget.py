"""A `get` that counts as a use, as every adapter sends it, under `memfold serve
--recall-from postgres`: `memfold.connect()`'s `get` (the CLI's `--server` and the stdio MCP
proxy run on it) sends `show` (a read) then `use` (a write), the REST verb `show` and the MCP
tool `show` read with no use — so each is answered from the bank's rows, the use journaled
as a copy journals it, and a replica that never held the bank makes no copy."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from test_server_pgretain import NOW, STEPS, _bank

import memfold
from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, caller, make_tenant, serve


def _gets(url: str, token: str) -> list[Any]:
    """Through `memfold.connect()`: a get (a use), a get without one, a get of an unknown
    id, then what show says of the fact after the use."""
    with memfold.connect(url, token=token, bank="main") as memory:
        said = [memory.get("pvienna1").to_dict(), memory.get("ibees001", use=False).to_dict()]
        try:
            memory.get("nosuch01")
        except memfold.UnknownId as exc:
            said.append(str(exc))
        said.append(memory.get("pvienna1", use=False).to_dict())
        said.append([e.to_dict() for e in memory.history("pvienna1")])
        return said


def test_a_get_with_a_use_from_postgres_stores_what_a_copy_stores(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    tokens = {t: make_tenant(pg_db, t).tokens["agent"] for t in ("getcopy", "getpg")}
    with app_client(pg_db) as loader:
        for token in tokens.values():
            for body in STEPS[:5]:
                assert loader.post("/v1/banks/main/retain", headers=bearer(token),
                                   json=body).status_code == 200
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "cache"
        empty.mkdir()
        env = {"MEMFOLD_NOW": NOW}
        copy = serve(pg_db, extra=("--no-vectors",), env=env)
        try:
            wanted = _gets(copy.url, tokens["getcopy"])
        finally:
            copy.stop()
        fresh = serve(pg_db, extra=("--no-vectors", "--recall-from", "postgres",
                                    "--cache", str(empty)), env=env)
        try:
            got = _gets(fresh.url, tokens["getpg"])
            assert list(empty.iterdir()) == []  # read and used with no copy
        finally:
            fresh.stop()
    assert got == wanted
    assert [e["event"] for e in got[-1]].count("use") == 1
    assert "nosuch01" in got[2]
    assert _bank(pg_db.owner, "getpg") == _bank(pg_db.owner, "getcopy")


def test_no_adapter_sends_a_recall_with_rerank(pg_db: Provisioned, app_pool: Any) -> None:
    """A rerank is local memfold's alone: REST and the MCP tool `recall` take no `rerank`
    argument and `memfold.connect()` refuses one before sending, so no request reaches a
    replica's copy for it (pgrecall's NeedsCopy for a rerank answers only a direct call)."""
    from memfold.server import mcp
    from memfold.server.replica import Replica

    token = make_tenant(pg_db, "rerank").tokens["agent"]
    with app_client(pg_db, recall_from="postgres") as fresh:
        said = fresh.post("/v1/banks/main/recall", headers=bearer(token),
                          json={"query": "Peter", "rerank": True})
        assert said.status_code == 400 and "rerank" in said.json()["error"]
    with pytest.raises(memfold.BadInput, match="rerank"):
        memfold.connect("http://127.0.0.1:9", token=token, bank="main").recall(
            "Peter", rerank=True)
    with tempfile.TemporaryDirectory() as tmp:
        class Server:
            replica = Replica(app_pool, Path(tmp), recall_from="postgres", listen=False)

        try:
            failed, answer = mcp.call(Server(), caller("rerank"),  # type: ignore[arg-type]
                                      {"x-memfold-bank": "main"}, "", "recall",
                                      {"query": "Peter", "rerank": True})
        finally:
            Server.replica.close()
    assert failed and "rerank" in answer["error"]
