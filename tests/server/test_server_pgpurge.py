"""`forget --purge` answered from PostgreSQL itself (`memfold serve --recall-from postgres`,
memfold.server.pgpurge): a dry run and a purge through a replica's copy and through
PostgreSQL answer the same plan and store the same rows — the rewritten files, the journal
scrubbed and re-linked, the purge line, the facts and recall rows derived again — and leave
the text in no row; a replica that never held the bank writes nothing to disk."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from test_server_pgretain import NOW, STEPS, _answers, _bank, _journal_chain

from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, make_tenant

TEXT = "Keeps bees in the garden."  # ibees001's text, copied below under another id


def _purges(client: Any, token: dict[str, str]) -> list[Any]:
    def post(verb: str, body: dict[str, Any]) -> Any:
        got = client.post(f"/v1/banks/main/{verb}", headers=token, json=body)
        return got.status_code, got.json()

    for body in STEPS[:5]:
        assert post("retain", body)[0] == 200
    assert post("retain", {"bullets": [f"W @Ida: {TEXT} ^beecopy1",
                                       "W: Rosa waters the bees. ^rosabees"],
                           "date": "2026-05-13"})[0] == 200
    content = post("show", {"id": "ibees001"})[1]["content"]
    assert post("note", {"id": "ibees001", "text": f"She said: {content}", "rev": 0})[0] == 200
    assert post("core_append", {"block": "Human", "text": f"Ida: {content}"})[0] == 200
    return [
        post("forget", {"id": "ibees001", "purge": True, "dry_run": True}),
        post("forget", {"id": "ibees001", "purge": True}),
        post("forget", {"id": "ibees001", "purge": True}),  # gone: 404
        post("forget", {"id": "nosuch01", "purge": True, "dry_run": True}),  # 404
        post("forget", {"id": "office01", "dry_run": True}),  # no purge: an archive
        post("forget", {"id": "office01", "purge": True}),
        post("retain", {"bullets": ["W: The bees swarmed. ^swarm001"], "date": "2026-05-14"}),
        post("history", {"id": "ibees001"}),
        post("core_view", {}),
    ]


def test_a_purge_from_postgres_stores_what_a_copy_stores(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    via_copy = bearer(make_tenant(pg_db, "purgecopy").tokens["agent"])
    via_pg = bearer(make_tenant(pg_db, "purgepg").tokens["agent"])
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "cache"
        empty.mkdir()
        with app_client(pg_db) as copy:
            wanted = _purges(copy, via_copy)
            wanted_answers = _answers(copy, via_copy)
        with app_client(pg_db, recall_from="postgres", cache=empty) as fresh:
            got = _purges(fresh, via_pg)
            got_answers = _answers(fresh, via_pg)
            assert list(empty.iterdir()) == []  # purged with no copy
    assert got == wanted
    assert [status for status, _ in got] == [200, 200, 404, 404, 200, 200, 200, 200, 200]
    dry, done = got[0][1], got[1][1]
    assert dry["dry_run"] and not done["dry_run"] and dry["places"] == done["places"]
    assert {p["path"] for p in done["places"]} >= {"memory/2026-05-10.md",
                                                    "memory/2026-05-13.md", "journal.jsonl"}
    assert got_answers == wanted_answers
    stored = _bank(pg_db.owner, "purgepg")
    assert stored == _bank(pg_db.owner, "purgecopy")  # files, lines, versions, rows
    # the text is left only where it was written as prose, memory.md (a purge removes
    # bullets and redacts secret tokens, as locally); the journal's core edit is scrubbed
    held = [row for rows in stored.values() for row in rows if "Keeps bees" in row]
    assert held and all('"path": "memory.md"' in row for row in held)
    assert not any("Keeps bees" in row for row in stored["events"])
    kinds = [json.loads(json.loads(row)["line"])["event"] for row in stored["events"]]
    assert kinds.count("purge") == 2
    count, problem = _journal_chain(pg_db.owner, "purgepg")
    assert problem is None and count == len(kinds)
