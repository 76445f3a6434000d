"""The journal-only writes answered from PostgreSQL itself (`memfold serve --recall-from
postgres`, memfold.server.pgledger): `use`, `supersede`, `restore`, `note`, `forget` (an
archive) and the MCP tools `review_accept` and `review_reject` through a replica's copy and
through PostgreSQL store the same journal lines, in the same bank versions, fold the same
lifecycle state and answer alike, refusals included; a replica that never held the bank
writes nothing to disk."""

from __future__ import annotations

import base64
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from test_server_pgretain import NOW, STEPS, _answers, _bank, _journal_chain

from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, caller, copy_and_postgres, make_tenant

# (verb, body): each a request of its own
WRITES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("use", {"ids": ["pvienna1", "^ibees001"]}),  # two uses, one version
    ("supersede", {"old": "ibudget1", "new": "ibudget2", "reason": "the budget is fine"}),
    ("supersede", {"old": "ibudget1", "new": "ibudget2"}),  # already: changed false
    ("supersede", {"old": "ibudget2", "new": "ibudget1"}),  # a cycle: 400, nothing stored
    ("supersede", {"old": "pboat001", "new": "pboat001"}),  # itself: 400
    ("restore", {"id": "pvienna1", "reason": "back in Vienna"}),
    ("use", {"ids": ["nosuch01"]}),  # unknown: 404
    ("use", {"ids": ["ibees001", "nosuch02"]}),  # the first then an unknown: nothing stored
    ("supersede", {"old": "office01", "new": "nosuch03"}),  # unknown new: 404
    ("restore", {"id": "office01"}),
    ("use", {"ids": ["office02"]}),
    ("note", {"id": "pvienna1", "text": "Moved back in May.", "rev": 0}),
    ("note", {"id": "pvienna1", "text": "A stale note.", "rev": 0}),  # 409, nothing stored
    ("note", {"id": "^pvienna1", "text": "Near the old flat.", "rev": 1}),
    ("forget", {"id": "office01"}),
    ("forget", {"id": "nosuch04"}),  # 404
    ("restore", {"id": "office01", "reason": "still true"}),
)
HISTORIES = ("pvienna1", "ibudget1", "ibudget2", "ibees001", "office01", "office02")


def _writes(client: Any, token: dict[str, str]) -> list[Any]:
    for body in STEPS[:5]:
        assert client.post("/v1/banks/main/retain", headers=token,
                           json=body).status_code == 200
    said = []
    for verb, body in WRITES:
        got = client.post(f"/v1/banks/main/{verb}", headers=token, json=body)
        said.append((got.status_code, got.json()))
    return said


def _histories(client: Any, token: dict[str, str]) -> list[Any]:
    return [client.post("/v1/banks/main/history", headers=token, json={"id": i}).json()
            for i in HISTORIES]


def test_journal_writes_from_postgres_store_what_a_copy_stores(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    via_copy = bearer(make_tenant(pg_db, "ledgercopy").tokens["agent"])
    via_pg = bearer(make_tenant(pg_db, "ledgerpg").tokens["agent"])
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "cache"
        empty.mkdir()
        with app_client(pg_db, recall_from="copy") as copy:
            wanted = _writes(copy, via_copy)
            wanted_answers = (_answers(copy, via_copy), _histories(copy, via_copy))
        with app_client(pg_db, recall_from="postgres", cache=empty) as fresh:
            got = _writes(fresh, via_pg)
            got_answers = (_answers(fresh, via_pg), _histories(fresh, via_pg))
            assert list(empty.iterdir()) == []  # written and read with no copy
    assert got == wanted
    assert [status for status, _ in got] == [200, 200, 200, 400, 400, 200, 404, 404, 404,
                                             200, 200, 200, 409, 200, 200, 404, 200]
    assert got[1][1]["changed"] is True and got[2][1]["changed"] is False
    assert "cycle" in got[3][1]["error"]
    assert got_answers == wanted_answers
    stored = _bank(pg_db.owner, "ledgerpg")
    assert stored == _bank(pg_db.owner, "ledgercopy")  # files, lines, versions, states
    kinds = [json.loads(json.loads(row)["line"])["event"] for row in stored["events"]]
    assert kinds.count("use") == 3 and kinds.count("note") == 2
    assert {"restore", "archive", "supersede"} <= set(kinds)
    count, problem = _journal_chain(pg_db.owner, "ledgerpg")
    assert problem is None and count == len(kinds)


def test_a_copy_catches_up_with_journal_writes_from_postgres(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy a replica made earlier applies the writes made without one and answers as
    PostgreSQL does; its own write after them chains on their lines."""
    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    token = bearer(make_tenant(pg_db, "ledgermixed").tokens["agent"])
    with app_client(pg_db, recall_from="copy") as copy, \
            app_client(pg_db, recall_from="postgres") as fresh:
        for body in STEPS[:5]:
            assert copy.post("/v1/banks/main/retain", headers=token,
                             json=body).status_code == 200
        assert fresh.post("/v1/banks/main/supersede", headers=token,
                          json={"old": "ibudget1", "new": "ibudget2"}).status_code == 200
        assert fresh.post("/v1/banks/main/use", headers=token,
                          json={"ids": ["ibees001"]}).status_code == 200
        assert _answers(copy, token) == _answers(fresh, token)
        assert copy.post("/v1/banks/main/restore", headers=token,
                         json={"id": "ibudget1"}).status_code == 200
        assert fresh.post("/v1/banks/main/supersede", headers=token,
                          json={"old": "pvienna1", "new": "pberlin1"}).json()["changed"] in (
            True, False)
        assert _answers(copy, token) == _answers(fresh, token)
        # a purge rewrites files: the replica writes it through a copy, as before
        purged = fresh.post("/v1/banks/main/forget", headers=token,
                            json={"id": "ibees001", "purge": True})
        assert purged.status_code == 200, purged.text
        exported = fresh.get("/v1/banks/main/export", headers=token).json()
        assert not any(b"bees" in base64.b64decode(f["content"]) for f in exported["files"])
        assert _answers(copy, token) == _answers(fresh, token)
    count, problem = _journal_chain(pg_db.owner, "ledgermixed")
    assert problem is None and count > 8


def _reviews(replica: Any, who: Any, rule: str, items: list[dict[str, Any]]) -> list[Any]:
    """The MCP review tools, one call each: every answer, refusals included."""
    from memfold.server import mcp

    class Server:
        def __init__(self) -> None:
            self.replica = replica

    server, headers = Server(), {"x-memfold-bank": "main"}
    calls = [
        ("review_reject", {"rule": rule, "dry_run": True}),
        ("review_reject", {"rule": "topic", "entities": ["@Ida"], "dry_run": True}),
        ("review_accept", {"item": str(items[0]["id"]), "reason": "checked"}),
        ("review_accept", {"item": str(items[0]["id"])}),  # settled already: unchanged
        ("review_reject", {"item": str(items[1]["id"])}),
        ("review_reject", {"item": "999999"}),  # no such item
        ("review_reject", {"rule": rule, "entities": ["Peter"]}),
        ("review_reject", {"rule": rule, "reason": "not now"}),
        ("review_reject", {"rule": rule, "dry_run": True}),  # nothing left
        ("review_accept", {"item": items[-1]["older"]["id"]}),
    ]
    return [mcp.call(server, who, headers, "", name, args) for name, args in calls]


def test_review_accept_and_reject_from_postgres_settle_as_a_copy_does(
        pg_db: Provisioned, app_pool: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from memfold.server import mcp

    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    tokens = {t: bearer(make_tenant(pg_db, t).tokens["agent"])
              for t in ("reviewcopy", "reviewpg")}
    with app_client(pg_db, recall_from="copy") as copy:
        for token in tokens.values():
            for body in (*STEPS[:5], STEPS[8]):
                assert copy.post("/v1/banks/main/retain", headers=token,
                                 json=body).status_code == 200
    with copy_and_postgres(app_pool) as (through_copy, from_pg, empty):
        class Server:
            replica = through_copy

        failed, queue = mcp.call(Server(), caller("reviewcopy", "agent", "read", "write"),
                                 {"x-memfold-bank": "main"}, "", "review", {})
        assert not failed and len(queue["items"]) >= 3, queue
        items = queue["items"]
        rule = items[0]["rule"]
        wanted = _reviews(through_copy, caller("reviewcopy", "agent", "read", "write"),
                          rule, items)
        got = _reviews(from_pg, caller("reviewpg", "agent", "read", "write"), rule, items)
        assert list(empty.iterdir()) == []  # settled with no copy
    assert got == wanted
    assert [failed for failed, _ in got].count(True) >= 1  # the unknown item
    assert any(not failed and answer.get("settled") for failed, answer in got)
    assert got[1][1]["settled"], "the entity's items are found from the bank's links"
    assert _bank(pg_db.owner, "reviewpg") == _bank(pg_db.owner, "reviewcopy")
