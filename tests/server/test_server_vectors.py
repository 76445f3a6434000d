"""Vectors on the server: embedded once, kept in PostgreSQL, reused by every replica."""

from __future__ import annotations

import psycopg

from memfold.embed.base import FakeEmbedder
from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, make_tenant


def test_a_second_replica_takes_the_vectors_from_postgresql(pg_db: Provisioned) -> None:
    token = bearer(make_tenant(pg_db, "vec").tokens["agent"])
    first, second = FakeEmbedder(), FakeEmbedder()
    query = {"query": "a string instrument with a bow", "mode": "semantic", "k": 3}
    with app_client(pg_db, embedder=lambda: first) as client:
        made = client.post("/v1/banks/main/retain", headers=token, json={"bullets": [
            "W @Bea: Plays the cello with a bow.", "W @Bea: Bakes bread on Sundays.",
            "W @Carl: Repairs old bicycles."]})
        assert made.status_code == 200, made.text
        answer = client.post("/v1/banks/main/recall", headers=token, json=query)
        assert answer.status_code == 200, answer.text
        found = [hit["id"] for hit in answer.json()["results"]]
    assert sum(first.calls) >= 3  # the model ran for the facts
    with psycopg.connect(pg_db.owner) as conn:
        conn.execute("SELECT set_config('memfold.tenant', 'vec', false)")
        stored = conn.execute("SELECT count(*) FROM vectors").fetchone()
    assert stored is not None and stored[0] >= 3
    with app_client(pg_db, embedder=lambda: second) as client:
        again = client.post("/v1/banks/main/recall", headers=token, json=query)
        assert [hit["id"] for hit in again.json()["results"]] == found
        default = client.post("/v1/banks/main/recall", headers=token,
                              json={"query": "cello"}).json()
    assert second.calls == [1, 1]  # the two queries; every fact's vector came from PostgreSQL
    assert default["results"][0]["content"] == "Plays the cello with a bow."
