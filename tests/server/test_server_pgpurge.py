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
from server_support import app_client, bearer, caller, make_tenant

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
        with app_client(pg_db, recall_from="copy") as copy:
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


def _with_token(replica: Any, who: Any, held: Any) -> tuple[Any, Any]:
    """A bank holding a secret token in a bullet, another bullet, a note and core memory;
    its purge's dry run and purge through `replica` (their plans less the generated id),
    once `held` read the bank (a replica holding a copy)."""
    from test_server_notices import TOKEN, retain_secret

    def write(what: str, work: Any) -> Any:
        return replica.run(who, "main", "write", work, what=what)

    fact = retain_secret(replica, who, "main", f"old deploy key {TOKEN}")
    write("retain", lambda m: m.retain([f"W @Deploy: the key was {TOKEN} ^deploy02",
                                        "W @Deploy: the harbour deploy runs nightly ^deploy03"],
                                       date="2025-10-21", allow_secret=True))
    write("note", lambda m: m.note("deploy03", f"rotated from {TOKEN}", rev=0))
    write("core_append", lambda m: m.core_append("Project", f"Deploy token {TOKEN} (old)"))
    held(who)
    dry = write("forget", lambda m: m.purge(fact, dry_run=True)).to_dict()
    done = write("forget", lambda m: m.purge(fact)).to_dict()
    return {**dry, "id": None}, {**done, "id": None}


def test_a_purge_of_a_secret_from_postgres_leaves_it_in_no_row_and_no_replica(
        pg_db: Provisioned, app_pool: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The token redacted everywhere — bullets, the note, memory.md, the journal — as
    through a copy; a replica holding a copy drops it on the purge's notice."""
    from test_server_notices import TOKEN, WAIT, holding, recall, soon

    from memfold.server.replica import Replica

    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    make_tenant(pg_db, "secretcopy")
    make_tenant(pg_db, "secretpg")
    with tempfile.TemporaryDirectory() as tmp:
        caches = [Path(tmp) / n for n in ("copy", "pg", "held")]
        for cache in caches:
            cache.mkdir()
        through_copy = Replica(app_pool, caches[0], recall_from="copy")
        from_pg = Replica(app_pool, caches[1], recall_from="postgres")
        holder = Replica(app_pool, caches[2], recall_from="copy")  # it holds a copy
        try:
            assert holder.listener.listening.wait(WAIT)
            def held(who: Any) -> None:
                assert recall(holder, who, "main", "deploy")
                assert holding(holder.cache, TOKEN)

            wanted = _with_token(through_copy, caller("secretcopy"), held)
            got = _with_token(from_pg, caller("secretpg"), held)
            assert list(caches[1].iterdir()) == []  # purged with no copy
            assert soon(lambda: not holding(caches[2], TOKEN)), holding(caches[2], TOKEN)
        finally:
            for replica in (through_copy, from_pg, holder):
                replica.close()
    assert got == wanted and got[1]["secrets"] == 1 and got[0]["dry_run"]
    assert any(p["path"] == "memory.md" and p["action"] == "redact" for p in got[1]["places"])
    for tenant in ("secretcopy", "secretpg"):
        assert TOKEN not in json.dumps(_bank(pg_db.owner, tenant))
    count, problem = _journal_chain(pg_db.owner, "secretpg")
    assert problem is None and count > 5
