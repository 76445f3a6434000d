"""The MCP `review` tool answered from PostgreSQL itself (`memfold serve --recall-from
postgres`, `pgrecall.DatabaseBank.review`): the same items, filters and answers as through
a replica's copy, before and after items are settled, and no copy made."""

from __future__ import annotations

from typing import Any

import pytest
from test_server_pgretain import NOW, STEPS

from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, caller, copy_and_postgres, make_tenant


def _queues(replica: Any, who: Any, rule: str) -> list[Any]:
    from memfold.server import mcp

    class Server:
        pass

    Server.replica = replica  # type: ignore[attr-defined]
    calls = [{}, {"settled": True}, {"rule": rule}, {"rule": "topic"},
             {"entities": ["@Ida"]}, {"entities": ["Nobody"]}, {"since": "2026-05-11"},
             {"limit": 1}, {"since": "not a time"}]
    return [mcp.call(Server(), who, {"x-memfold-bank": "main"}, "", "review", args)
            for args in calls]


def test_the_review_tool_from_postgres_lists_what_a_copy_lists(
        pg_db: Provisioned, app_pool: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from memfold.server import mcp

    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    tokens = {t: bearer(make_tenant(pg_db, t).tokens["agent"])
              for t in ("queuecopy", "queuepg")}
    with app_client(pg_db, recall_from="copy") as copy:
        for token in tokens.values():
            for body in (*STEPS[:5], STEPS[8]):
                assert copy.post("/v1/banks/main/retain", headers=token,
                                 json=body).status_code == 200
    who_copy = caller("queuecopy", "agent", "read")
    who_pg = caller("queuepg", "agent", "read")
    with copy_and_postgres(app_pool) as (through_copy, from_pg, empty):
        first = _queues(through_copy, who_copy, "value")
        rule = first[0][1]["items"][0]["rule"]
        wanted = _queues(through_copy, who_copy, rule)
        got = _queues(from_pg, who_pg, rule)
        assert list(empty.iterdir()) == []  # read with no copy
        assert got == wanted
        assert len(got[0][1]["items"]) >= 3 and got[-1][0]  # a bad `since` refused
        for replica, who in ((through_copy, caller("queuecopy")),
                             (from_pg, caller("queuepg"))):
            class Server:
                pass

            Server.replica = replica  # type: ignore[attr-defined]
            failed, _ = mcp.call(Server(), who, {"x-memfold-bank": "main"}, "",
                                 "review_reject", {"item": str(got[0][1]["items"][0]["id"])})
            assert not failed
        assert _queues(from_pg, who_pg, rule) == _queues(through_copy, who_copy, rule)
        assert list(empty.iterdir()) == []
