"""The server end to end on a real PostgreSQL: verbs over REST, refusals, health."""

from __future__ import annotations

import pytest

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


def test_a_write_that_fails_to_commit_leaves_no_trace(pg_db: Provisioned,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from memfold.errors import Unavailable
    from memfold.server.banks import BankWorkspace

    token = bearer(make_tenant(pg_db, "fails").tokens["agent"])
    with app_client(pg_db, recall_from="copy") as client:  # a copy's write sends its changes
        kept = client.post("/v1/banks/main/retain", headers=token,
                           json={"bullets": ["W @Ida: Keeps bees."]})
        assert kept.status_code == 200
        real_send = BankWorkspace._send

        def send_then_fail(self: BankWorkspace, conn: object, version: int) -> bool:
            real_send(self, conn, version)  # type: ignore[arg-type]
            raise Unavailable("the database went away mid-commit")

        monkeypatch.setattr(BankWorkspace, "_send", send_then_fail)
        lost = client.post("/v1/banks/main/retain", headers=token,
                           json={"bullets": ["W @Ida: Sells honey at the market."]})
        assert lost.status_code == 503 and lost.headers["retry-after"]
        monkeypatch.setattr(BankWorkspace, "_send", real_send)
        found = client.post("/v1/banks/main/recall", headers=token,
                            json={"query": "Ida honey bees"}).json()
        assert [hit["content"] for hit in found["results"]] == ["Keeps bees."]
        after = client.post("/v1/banks/main/retain", headers=token,
                            json={"bullets": ["W @Ida: Sells honey at the market."]})
        assert after.status_code == 200
        assert client.post("/v1/banks/main/status", headers=token,
                           json={}).json()["facts"] == 2


def test_the_facts_table_is_the_files_facts_after_appends_and_rewrites(
        pg_db: Provisioned) -> None:
    import psycopg

    from memfold.server.rows import fact_rows

    token = bearer(make_tenant(pg_db, "factual").tokens["agent"])
    with app_client(pg_db) as client:
        def post(verb: str, body: dict[str, object]) -> dict[str, object]:
            answer = client.post(f"/v1/banks/main/{verb}", headers=token, json=body)
            assert answer.status_code == 200, answer.text
            return dict(answer.json())

        for n in range(6):  # appends to one day, and to another
            post("retain", {"bullets": [f"W @Eve: Finished chapter {n} of the novel."],
                            "date": "2026-11-2" + str(n % 2)})
        doomed = post("retain", {"bullets": ["W @Eve: Her locker is number 17 in the east wing."],
                                 "date": "2026-11-20"})["facts"]
        post("core_append", {"block": "Human", "text": "Eve writes novels."})
        post("forget", {"id": doomed[0]["id"], "purge": True})  # type: ignore[index]
        post("retain", {"bullets": ["W @Eve: Started chapter 7."], "date": "2026-11-20"})
    with psycopg.connect(pg_db.owner) as conn:
        conn.execute("SELECT set_config('memfold.tenant', 'factual', false)")
        files = conn.execute("SELECT path, content FROM files WHERE content IS NOT NULL"
                             ).fetchall()
        stored = conn.execute("SELECT path, line, end_line, fact_id, kind, day, entities, "
                              "params::text, content, raw FROM facts").fetchall()
    derived = {fact for path, content in files for fact in
               ((*f[:6], tuple(f[6]), f[7], *f[8:]) for f in fact_rows(path, bytes(content)))}
    assert {(*row[:6], tuple(row[6]), row[7], *row[8:]) for row in stored} == derived
    assert not any("4417" in str(row) for row in stored)
