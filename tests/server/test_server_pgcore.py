"""The core memory edits answered from PostgreSQL itself (`memfold serve --recall-from
postgres`, memfold.server.pgcore): `core_append`, `core_replace`, `core_insert` and
`core_undo` through a replica's copy and through PostgreSQL store the same memory.md bytes
and journal lines in the same bank versions, derive the same rows and answer alike,
refusals included; a replica that never held the bank writes nothing to disk."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from test_server_pgretain import NOW, STEPS, _answers, _bank, _journal_chain

from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, caller, make_tenant

# (verb, body): each a request of its own; the first reaches a bank never written
EDITS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("core_append", {"block": "Human", "text": "Peter lives near the harbour."}),
    ("retain", STEPS[0]),
    ("core_append", {"block": "Projects", "text": "The café budget, with Ida."}),  # new block
    ("core_replace", {"block": "Human", "old": "near the harbour", "new": "in Berlin"}),
    ("core_replace", {"block": "Human", "old": "in Vienna", "new": "x"}),  # absent: 400
    ("core_insert", {"block": "Projects", "line": 1, "text": "Rosa's garden."}),
    ("core_insert", {"block": "Projects", "line": 9, "text": "Too far."}),  # 400
    ("core_append", {"block": "Nope", "text": "x" * 3000}),  # past its limit: 400
    ("core_append", {"block": "## Bad", "text": "x"}),  # not a name: 400
    ("core_undo", {}),  # the insert
    ("core_undo", {}),  # the replace
    ("retain", STEPS[1]),
    ("core_append", {"block": "Human", "text": "```\nan open fence"}),  # 400
    ("core_undo", {}),  # the Projects block's creation: the block goes
    ("core_undo", {}),
    ("core_undo", {}),  # nothing left to undo: 400
    ("core_view", {}),
)


def _edits(client: Any, token: dict[str, str]) -> list[Any]:
    said = []
    for verb, body in EDITS:
        got = client.post(f"/v1/banks/main/{verb}", headers=token, json=body)
        said.append((got.status_code, got.json()))
    return said


def _after(client: Any, token: dict[str, str]) -> list[Any]:
    return [client.post("/v1/banks/main/history", headers=token,
                        json={"id": f"core:{b}"}).json() for b in ("Human", "Projects")] + [
        client.post("/v1/banks/main/context", headers=token, json={}).json(),
        _answers(client, token)]


def test_core_edits_from_postgres_store_what_a_copy_stores(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    via_copy = bearer(make_tenant(pg_db, "corecopy").tokens["agent"])
    via_pg = bearer(make_tenant(pg_db, "corepg").tokens["agent"])
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "cache"
        empty.mkdir()
        with app_client(pg_db, recall_from="copy") as copy:
            wanted = _edits(copy, via_copy)
            wanted_after = _after(copy, via_copy)
        with app_client(pg_db, recall_from="postgres", cache=empty) as fresh:
            got = _edits(fresh, via_pg)
            got_after = _after(fresh, via_pg)
            assert list(empty.iterdir()) == []  # edited with no copy
    assert got == wanted
    assert [status for status, _ in got] == [200, 200, 200, 200, 400, 200, 400, 400, 400,
                                             200, 200, 200, 400, 200, 200, 400, 200]
    assert got[9][1]["op"] == "undo" and got[13][1]["text"] is None
    assert got_after == wanted_after
    stored = _bank(pg_db.owner, "corepg")
    assert stored == _bank(pg_db.owner, "corecopy")  # files, lines, versions, rows
    kinds = [json.loads(json.loads(row)["line"])["event"] for row in stored["events"]]
    assert kinds.count("core") == 8
    count, problem = _journal_chain(pg_db.owner, "corepg")
    assert problem is None and count == len(kinds)


def test_a_copy_and_postgres_undo_each_others_core_edits(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    """An edit written from PostgreSQL is one a copy catches up with and can undo, and the
    other way round; the MCP tools write the same way."""
    from memfold.server import mcp
    from memfold.server.replica import Replica

    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    token = bearer(make_tenant(pg_db, "coremixed").tokens["agent"])
    with app_client(pg_db, recall_from="copy") as copy, \
            app_client(pg_db, recall_from="postgres") as fresh:
        assert copy.post("/v1/banks/main/retain", headers=token,
                         json=STEPS[0]).status_code == 200
        assert fresh.post("/v1/banks/main/core_append", headers=token,
                          json={"block": "Human", "text": "Likes boats."}).status_code == 200
        view = copy.post("/v1/banks/main/core_view", headers=token, json={}).json()
        assert "Likes boats." in json.dumps(view)
        assert copy.post("/v1/banks/main/core_append", headers=token,
                         json={"block": "Human", "text": "Hates rain."}).status_code == 200
        undone = fresh.post("/v1/banks/main/core_undo", headers=token, json={})
        assert undone.status_code == 200 and undone.json()["text"] == "Likes boats."
        undone = copy.post("/v1/banks/main/core_undo", headers=token, json={})
        assert undone.status_code == 200 and undone.json()["previous"] == "Likes boats."
        assert fresh.post("/v1/banks/main/core_view", headers=token, json={}).json() \
            == copy.post("/v1/banks/main/core_view", headers=token, json={}).json()
    count, problem = _journal_chain(pg_db.owner, "coremixed")
    assert problem is None and count == 5
    with tempfile.TemporaryDirectory() as tmp:
        from memfold.server.db import connect_pool

        pool = connect_pool(pg_db.app, size=2)
        replica = Replica(pool, Path(tmp), recall_from="postgres", listen=False)
        try:
            class Server:
                pass

            Server.replica = replica  # type: ignore[attr-defined]
            who = caller("coremixed", "agent", "read", "write")
            failed, edit = mcp.call(Server(), who, {"x-memfold-bank": "main"}, "",
                                    "core_append", {"block": "Human", "text": "Sails."})
            assert not failed and edit["text"] == "Sails.", edit
            assert list(Path(tmp).iterdir()) == []
        finally:
            replica.close()
            pool.close()
