"""The server's REST API verb by verb, its limits, its OpenAPI document and MCP at /mcp."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import anyio
import jsonschema
import pytest

from memfold.server.verbs import VERBS
from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, make_tenant, post_verb, serve


@pytest.fixture(scope="module")
def acme(pg_db: Provisioned) -> dict[str, str]:
    tenant = make_tenant(pg_db, "acme", banks=("main", "spare"), tokens={
        "planner": (("read", "write"), None), "reader": (("read",), None),
        "spare-only": (("read", "write"), "spare")})
    return tenant.tokens


def test_every_verb_answers_with_the_clis_json(pg_db: Provisioned,
                                               acme: dict[str, str]) -> None:
    with app_client(pg_db) as client:
        def post(verb: str, body: dict[str, Any], status: int = 200) -> Any:
            answer = client.post(f"/v1/banks/main/{verb}", headers=bearer(acme["planner"]),
                                 json=body)
            assert answer.status_code == status, (verb, answer.text)
            return answer.json()

        made = post("retain", {"bullets": ["W @Ada: Works at the observatory.",
                                           "O(c=0.7) @Ada: Prefers tea over coffee."],
                               "date": "2026-11-30"})
        ada, tea = (fact["id"] for fact in made["facts"])
        assert made["path"] == "memory/2026-11-30.md"
        assert post("recall", {"query": "observatory"})["results"][0]["id"] == ada
        assert post("about", {"name": "Ada"})["entity"] == "Ada"
        shown = post("show", {"id": ada})
        assert (shown["path"], shown["content"]) == ("memory/2026-11-30.md",
                                                     "Works at the observatory.")
        assert post("use", {"ids": [ada]}) == {"used": [ada]}
        assert post("note", {"id": ada, "text": "confirmed", "rev": 0})["rev"] == 1
        assert post("note", {"id": ada, "text": "late", "rev": 0}, 409) == {
            "id": ada, "result": "stale", "rev": 1}
        assert post("forget", {"id": tea}) == {"id": tea, "archived": True}
        assert post("restore", {"id": tea}) == {"id": tea, "result": "restored"}
        newer = post("retain", {"bullets": ["W @Ada: Works at the planetarium."]})
        new_id = newer["facts"][0]["id"]
        assert post("supersede", {"old": ada, "new": new_id})["old"] == ada
        kinds = [event["event"] for event in post("history", {"id": ada})["events"]]
        assert "note" in kinds
        assert post("trace", {"id": ada})["id"] == ada
        assert post("status", {})["facts"] >= 3
        assert post("core_append", {"block": "Human", "text": "Ada, astronomer."})
        assert any("Ada, astronomer." in block["text"]
                   for block in post("core_view", {})["blocks"])
        assert post("core_undo", {})
        assert "core" in json.dumps(post("context", {"budget": 2000}))
        assert "pages" in post("reflect", {"dry_run": True})
        purged = post("forget", {"id": tea, "purge": True, "dry_run": True})
        assert purged["id"] == tea
        assert client.post("/v1/banks/main/fly", headers=bearer(acme["planner"]),
                           json={}).status_code == 404


def test_scopes_banks_and_limits(pg_db: Provisioned, acme: dict[str, str]) -> None:
    with app_client(pg_db, rate=0, body_bytes=2048, max_k=50) as client:
        spare_only = bearer(acme["spare-only"])
        assert client.post("/v1/banks/main/status", headers=spare_only,
                           json={}).status_code == 403
        assert client.post("/v1/banks/spare/status", headers=spare_only,
                           json={}).status_code == 200
        assert client.get("/v1/banks", headers=spare_only).json() == {"banks": ["spare"]}
        reader = bearer(acme["reader"])
        assert client.post("/v1/banks/main/reflect", headers=reader,
                           json={"dry_run": False}).status_code == 403
        big = client.post("/v1/banks/main/recall", headers=reader,
                          json={"query": "x" * 4096})
        assert big.status_code == 413
        assert client.post("/v1/banks/main/recall", headers=reader,
                           json={"query": "x", "k": 51}).status_code == 400
        assert client.post("/v1/banks/main/recall", headers=reader, content=b"{not json",
                           ).status_code == 400
    with app_client(pg_db, rate=0.5, burst=3) as client:
        answers = [client.post("/v1/banks/main/status", headers=bearer(acme["reader"]),
                               json={}) for _ in range(5)]
        assert [a.status_code for a in answers] == [200, 200, 200, 429, 429]
        assert int(answers[-1].headers["retry-after"]) >= 1
        other = client.post("/v1/banks/main/status", headers=bearer(acme["planner"]), json={})
        assert other.status_code == 200  # each token has its own bucket


def test_openapi_describes_every_verb_with_a_valid_schema(pg_db: Provisioned) -> None:
    with app_client(pg_db) as client:
        document = client.get("/openapi.json").json()
    assert document["openapi"].startswith("3.1")
    for name in VERBS:
        operation = document["paths"][f"/v1/banks/{{bank}}/{name}"]["post"]
        schema = operation["requestBody"]["content"]["application/json"]["schema"]
        jsonschema.Draft202012Validator.check_schema(schema)
        assert {"200", "401", "403", "404", "503"} <= set(operation["responses"])


def test_mcp_over_http_runs_the_tools_on_the_tokens_bank(pg_db: Provisioned,
                                                         acme: dict[str, str]) -> None:
    from mcp import ClientSession
    from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

    served = serve(pg_db)
    try:
        async def script(token: str) -> dict[str, Any]:
            headers = {"Authorization": f"Bearer {token}", "X-Memfold-Bank": "main"}
            seen: dict[str, Any] = {}
            with anyio.fail_after(60):
                async with create_mcp_http_client(headers=headers) as http, \
                        streamable_http_client(served.url + "/mcp", http_client=http) as (
                            read, write, *_), ClientSession(read, write) as session:
                    await session.initialize()
                    seen["tools"] = [tool.name for tool in (await session.list_tools()).tools]
                    seen["retain"] = await session.call_tool("retain", {
                        "bullets": ["W @Bea: Plays the cello."], "source": "someone-else"})
                    seen["recall"] = await session.call_tool("recall", {"query": "cello"})
                    if not seen["retain"].is_error:
                        fact_id = seen["retain"].structured_content["ids"][0]
                        seen["show"] = await session.call_tool("show", {"id": fact_id})
            return seen

        seen = anyio.run(script, acme["planner"])
        assert {"recall", "retain", "note", "context"} <= set(seen["tools"])
        assert not seen["retain"].is_error, seen["retain"]
        found = seen["recall"].structured_content
        assert "Plays the cello." in json.dumps(found)
        # signed with the token's name; the `source` argument only labels it after the name
        assert seen["show"].structured_content["origin"] == "planner/someone-else"
        refused = anyio.run(script, acme["reader"])
        assert refused["retain"].is_error
        initialize = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "probe", "version": "1"}}}).encode()
        for path in ("/mcp", "/mcp/"):  # both answer; neither redirects
            request = urllib.request.Request(served.url + path, data=initialize, headers={
                "Authorization": f"Bearer {acme['reader']}", "Content-Type": "application/json",
                "Accept": "application/json, text/event-stream"}, method="POST")
            with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310
                assert answer.status == 200
    finally:
        served.stop()


def test_serve_with_two_workers_answers_and_keeps_its_copies(pg_db: Provisioned,
                                                             acme: dict[str, str],
                                                             tmp_path: Path) -> None:
    """Two workers on one --cache each keep a copy of the bank of their own; a clean stop
    leaves every copy with its manifest, and the next start's workers take those slots again
    (no copy more; that a copy is adopted, not built again, is tests/server/
    test_server_restart.py's)."""

    def post(url: str, verb: str, body: dict[str, Any]) -> Any:
        return post_verb(url, "main", verb, body, acme['planner'])

    def copies() -> list[Path]:
        return sorted(p for bank in tmp_path.iterdir() for p in bank.iterdir() if p.is_dir())

    ids: set[str] = set()
    for start in range(2):
        served = serve(pg_db, extra=("--workers", "2", "--cache", str(tmp_path),
                                     "--no-vectors", "--recall-from", "copy"))
        try:
            made = [post(served.url, "retain",
                         {"bullets": [f"W @Gus{n}: Saw a heron on pond number {n}."]})
                    for n in range(start * 6, start * 6 + 6)]
            ids |= {fact["id"] for answer in made for fact in answer["facts"]}
            for _ in range(6):  # whichever worker answers, it has every acknowledged write
                found = post(served.url, "recall", {"query": "heron pond", "k": 20})
                assert ids <= {hit["id"] for hit in found["results"]}, found
            assert 1 <= len(copies()) <= 2  # a copy per worker that served the bank
        finally:
            served.stop()
        assert served.process.returncode == 0
        assert 1 <= len(copies()) <= 2
        assert all(copy.with_suffix(".json").is_file() for copy in copies())
