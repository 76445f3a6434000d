"""The server end to end on a real PostgreSQL: verbs over REST, refusals, health."""

from __future__ import annotations

from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, make_tenant


def test_retain_recall_supersede_and_refusals(pg_db: Provisioned) -> None:
    acme = make_tenant(pg_db, "acme", tokens={"planner": (("read", "write"), None),
                                              "reader": (("read",), None)})
    with app_client(pg_db) as client:
        writer, reader = bearer(acme.tokens["planner"]), bearer(acme.tokens["reader"])
        made = client.post("/v1/banks/main/retain", headers=writer,
                           json={"bullets": ["W @Peter: Lives in Vienna."]})
        assert made.status_code == 200, made.text
        old_id = made.json()["facts"][0]["id"]
        moved = client.post("/v1/banks/main/retain", headers=writer,
                            json={"bullets": ["W @Peter: Lives in Berlin now."]})
        assert [j["id"] for j in moved.json()["superseded"]] == [old_id]
        found = client.post("/v1/banks/main/recall", headers=reader,
                            json={"query": "where does Peter live"}).json()
        assert found["results"][0]["content"] == "Lives in Berlin now."
        assert found["results"][0]["origin"] == "planner"
        history = client.post("/v1/banks/main/history", headers=reader,
                              json={"id": old_id}).json()
        assert any(e.get("source") == "planner" for e in history["events"])
        refused = client.post("/v1/banks/main/retain", headers=reader,
                              json={"bullets": ["W @Peter: Has a cat."]})
        assert refused.status_code == 403
        assert client.post("/v1/banks/main/recall", json={"query": "x"}).status_code == 401
        assert client.post("/v1/banks/nope/recall", headers=reader,
                           json={"query": "x"}).status_code == 404
        assert client.post("/v1/banks/main/recall", headers=reader,
                           json={"query": "x", "bogus": 1}).status_code == 400
        assert client.get("/healthz").status_code == 200
        assert client.get("/readyz").json() == {"status": "ready"}
