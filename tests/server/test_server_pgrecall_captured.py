"""A captured conversation in a bank recalled from PostgreSQL: the local index folds a bullet
extracted from a turn into the turn (`recall.folded`, no full-text row of its own); a bank,
which has no such folding, keeps the bullet searchable as a row of its own."""

from __future__ import annotations

import tempfile
from pathlib import Path

from memfold.memory import Memory
from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, make_tenant

CHAT = ("2026-03-02\n"
        "me: I moved to Lisbon in March and I love the light here.\n"
        "assistant: That sounds lovely.\n")


def test_a_captured_bullet_is_imported_and_found_in_a_bank(pg_db: Provisioned) -> None:
    from memfold.client.files import read_workspace

    token = bearer(make_tenant(pg_db, "captured").tokens["agent"])
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "ws"
        Memory.init(root)
        with Memory.open(root, watch=False, now="2026-03-20T12:00:00") as memory:
            result = memory.capture(CHAT, format="text")
        assert result.facts >= 1  # a bullet citing its turn
        body = read_workspace(root)
    with app_client(pg_db, recall_from="postgres") as client:
        loaded = client.post("/v1/banks/main/import", headers=token, json=body)
        assert loaded.status_code == 200, loaded.text
        answer = client.post("/v1/banks/main/recall", headers=token,
                             json={"query": "Lisbon", "kinds": ["opinion"]})
        assert answer.status_code == 200, answer.text
        found = [h["content"] for h in answer.json()["results"]]
        assert any("Lisbon" in c and "(turn at line " in c for c in found)
