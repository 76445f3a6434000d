"""The review queue over REST (issue 29: "as Memory API methods and MCP tools, shaped so a web
page can show the queue"): `POST /v1/banks/{bank}/review`, `review_accept` and
`review_reject` answer the JSON the MCP tools answer, a read-only token lists and may not
settle, and the OpenAPI document describes the three."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memfold_bench.pg_cluster import Provisioned
from server_support import bearer, caller, make_tenant

NOW = "2026-03-01T09:00:00+00:00"
STEPS = (  # an open conflict (Kenji, written together) and an automatic supersede (Acme)
    {"bullets": ["W @Kenji: Lives in Berlin.", "W @Kenji: Lives in Zurich now."],
     "date": "2026-01-05"},
    {"bullets": ["W @Acme: The main database is PostgreSQL."], "date": "2026-01-10"},
    {"bullets": ["W @Acme: The main database is MySQL now."], "date": "2026-02-10"},
)


@pytest.fixture
def served(pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, Any]]:
    """The app (a Starlette TestClient) and its Server, whose replica MCP calls go to."""
    from starlette.testclient import TestClient

    from memfold.server.app import Limits, Server, build_app
    from memfold.server.db import connect_pool
    from memfold.server.replica import Replica

    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    pool = connect_pool(pg_db.app, size=4)
    cache = Path(tempfile.mkdtemp(prefix="memfold-test-cache-"))
    replica = Replica(pool, cache, recall_from="postgres")
    server = Server(pool, replica, Limits(rate=0))
    try:
        with TestClient(build_app(server)) as client:
            yield client, server
    finally:
        replica.close()
        pool.close()
        shutil.rmtree(cache, ignore_errors=True)


def _mcp(server: Any, who: Any, name: str, args: dict[str, Any]) -> tuple[bool, Any]:
    from memfold.server import mcp

    return mcp.call(server, who, {"x-memfold-bank": "main"}, "", name, args)


def test_the_review_verbs_answer_what_the_mcp_tools_answer(served: tuple[Any, Any],
                                                           pg_db: Provisioned) -> None:
    client, server = served
    tokens = make_tenant(pg_db, "reviewrest", tokens={"agent": (("read", "write"), None),
                                                      "viewer": (("read",), None)}).tokens
    writer, reader = bearer(tokens["agent"]), bearer(tokens["viewer"])
    for body in STEPS:
        assert client.post("/v1/banks/main/retain", headers=writer, json=body).status_code == 200
    listed = client.post("/v1/banks/main/review", headers=reader, json={})
    assert listed.status_code == 200, listed.text
    queue = listed.json()
    assert _mcp(server, caller("reviewrest", "viewer", "read"), "review", {}) == (False, queue)
    kinds = {item["kind"]: item for item in queue["items"]}
    assert queue["total"] == 2 and set(kinds) == {"conflict", "supersede"}
    conflict = kinds["conflict"]
    assert conflict["older"]["content"] == "Lives in Berlin." and conflict["state"] == "open"
    for args in ({"entities": ["Kenji"]}, {"rule": kinds["supersede"]["rule"]}, {"limit": 1},
                 {"since": "2026-02-01"}, {"settled": True}):
        answer = client.post("/v1/banks/main/review", headers=reader, json=args)
        assert (False, answer.json()) == _mcp(server, caller("reviewrest"), "review", args)
    # a read-only token lists, and may not settle
    for verb in ("review_accept", "review_reject"):
        refused = client.post(f"/v1/banks/main/{verb}", headers=reader,
                              json={"item": str(conflict["id"])})
        assert refused.status_code == 403 and "write" in refused.json()["error"]
    dry = client.post("/v1/banks/main/review_reject", headers=writer,
                      json={"rule": kinds["supersede"]["rule"], "dry_run": True})
    assert dry.status_code == 200 and dry.json()["dry_run"] is True
    accepted = client.post("/v1/banks/main/review_accept", headers=writer,
                           json={"item": str(conflict["id"]), "reason": "she moved"})
    assert accepted.status_code == 200, accepted.text
    done = accepted.json()
    assert done["action"] == "accept" and [i["state"] for i in done["settled"]] == ["accepted"]
    assert done["settled"][0]["settled"]["by"] == "agent"  # signed with the token's name
    again = _mcp(server, caller("reviewrest"), "review_accept", {"item": str(conflict["id"])})
    assert again[1]["unchanged"] and again[1]["settled"] == []
    assert client.post("/v1/banks/main/review_accept", headers=writer,
                       json={"item": str(conflict["id"])}).json() == again[1]
    # bad input: an unknown item, a rule no judge used, an argument the verb does not take
    unknown = client.post("/v1/banks/main/review_reject", headers=writer,
                          json={"item": "999999"})
    assert unknown.status_code == 404 and unknown.json()["type"] == "UnknownId"
    typo = client.post("/v1/banks/main/review_reject", headers=writer, json={"rule": "bogus"})
    assert typo.status_code == 400 and "no judge has used" in typo.json()["error"]
    extra = client.post("/v1/banks/main/review", headers=reader, json={"kind": "conflict"})
    assert extra.status_code == 400
    left = client.post("/v1/banks/main/review", headers=reader, json={}).json()
    assert [item["kind"] for item in left["items"]] == ["supersede"]


def test_the_openapi_document_has_the_review_verbs(served: tuple[Any, Any]) -> None:
    client, _ = served
    paths = client.get("/openapi.json").json()["paths"]
    scopes = {verb: paths[f"/v1/banks/{{bank}}/{verb}"]["post"]["x-memfold-scope"]
              for verb in ("review", "review_accept", "review_reject")}
    assert scopes == {"review": "read", "review_accept": "write", "review_reject": "write"}
