"""The MCP tool `index` answered from PostgreSQL itself (`memfold serve --recall-from
postgres`, memfold.server.pgsync): it answers the report a copy gives, makes no copy, with
`full` derives the bank's rows again from its files and journal (a hand-edited table
repaired), embeds the facts that have no vector on a replica with a model, at most a bound
per call, storing the vectors a copy's `index` stores, and is refused to a read-only token."""

from __future__ import annotations

from typing import Any

import pytest
from test_server_pgretain import NOW, STEPS, _bank, _vectors

from memfold.embed.base import FakeEmbedder
from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, caller, copy_and_postgres, make_tenant

CALLS: tuple[dict[str, Any], ...] = ({}, {"full": True}, {})


def _fill(pg_db: Provisioned, *tenants: str) -> None:
    """Each tenant's bank "main" written alike through a copy: five retains."""
    with app_client(pg_db, recall_from="copy") as copy:
        for tenant in tenants:
            token = bearer(make_tenant(pg_db, tenant).tokens["agent"])
            for body in STEPS[:5]:
                assert copy.post("/v1/banks/main/retain", headers=token,
                                 json=body).status_code == 200


def _index(replica: Any, tenant: str, args: dict[str, Any], *scopes: str) -> Any:
    """The MCP tool `index` called through `replica`: (failed, answer), the answer's time
    left out and a rebuild's files in path order (a copy lists them as its disk does)."""
    from memfold.server import mcp

    class Server:
        pass

    server = Server()
    server.replica = replica  # type: ignore[attr-defined]
    failed, answer = mcp.call(server, caller(tenant, "agent", *scopes),  # type: ignore[arg-type]
                              {"x-memfold-bank": "main"}, "", "index", args)
    if not failed:
        answer = {**answer, "seconds": None, "added": sorted(answer["added"])}
    return failed, answer


def _recalls(pool: Any, tenant: str) -> list[Any]:
    from memfold.server.pgrecall import answer

    def work(bank: Any) -> list[Any]:
        return [[(h.fact.id, h.fact.source, h.score) for h in bank.recall(
            q, k=10, mode="lexical").hits] for q in ("Peter", "budget café", "office")]

    return answer(pool, caller(tenant), "main", work)


def _problems(pool: Any, tenant: str) -> dict[str, Any]:
    from memfold.server import admin

    found = admin.check_rows(pool, tenant, "main")
    return {k: found[k] for k in ("hashes", "facts", "recall", "events", "consistent")}


def _tamper(url: str, tenant: str) -> None:
    """Hand-edit the bank's derived rows: a term's count, a posting, a fact's text."""
    import psycopg

    with psycopg.connect(url) as conn:
        conn.execute("SELECT set_config('memfold.tenant', %s, false)", [tenant])
        conn.execute("UPDATE recall_terms SET rows = rows + 3 WHERE term = 'peter'")
        conn.execute("DELETE FROM recall_postings WHERE ctid IN (SELECT ctid FROM"
                     " recall_postings LIMIT 2)")
        conn.execute("UPDATE facts SET content = 'edited by hand' WHERE fact_id = 'office01'")


def test_the_index_tool_from_postgres_answers_as_a_copy_and_derives_the_rows_again(
        pg_db: Provisioned, app_pool: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    _fill(pg_db, "indexcopy", "indexpg")
    wanted_recalls = _recalls(app_pool, "indexpg")
    with copy_and_postgres(app_pool) as (through_copy, from_pg, empty):
        wanted = [_index(through_copy, "indexcopy", args) for args in CALLS]
        got = [_index(from_pg, "indexpg", args) for args in CALLS]
        refused = [_index(from_pg, "indexpg", args, "read") for args in CALLS[:2]]
        assert list(empty.iterdir()) == []  # answered with no copy
        assert _bank(pg_db.owner, "indexpg") == _bank(pg_db.owner, "indexcopy")
        _tamper(pg_db.owner, "indexpg")
        tampered = _problems(app_pool, "indexpg")
        assert _index(from_pg, "indexpg", {}) == got[0]  # no sync: the rows as they are
        repaired = _index(from_pg, "indexpg", {"full": True})
        assert list(empty.iterdir()) == []
    assert got == wanted
    assert got[1][1]["full"] and got[1][1]["scanned"] == len(got[1][1]["added"]) == 8
    assert not got[0][1]["added"] and got[0][1]["open_warnings"] == 0
    assert [failed for failed, _ in refused] == [True, True]
    assert all("index needs the write scope" in answer["error"] for _, answer in refused)
    assert tampered["hashes"] == [] and tampered["facts"] == ["memory/2026-05-11.md"]
    assert "postings" in tampered["recall"] and "term:peter" in tampered["recall"]
    assert repaired == got[1]
    assert _problems(app_pool, "indexpg") == {"hashes": [], "facts": [], "recall": [],
                                              "events": [], "consistent": True}
    assert _bank(pg_db.owner, "indexpg") == _bank(pg_db.owner, "indexcopy")
    assert _recalls(app_pool, "indexpg") == wanted_recalls


def test_the_index_tool_from_postgres_embeds_what_a_copy_embeds_a_bound_at_a_time(
        pg_db: Provisioned, app_pool: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from memfold.server import pgvectors

    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    _fill(pg_db, "vindexcopy", "vindexpg")
    assert _vectors(pg_db.owner, "vindexpg") == []  # written without a model
    monkeypatch.setattr(pgvectors, "INDEX_EMBED", 3)
    model = FakeEmbedder()
    with copy_and_postgres(app_pool, embedder=lambda: model) as (through_copy, from_pg, empty):
        wanted = _index(through_copy, "vindexcopy", {})
        counts, answers = [], []
        for _ in range(6):
            answers.append(_index(from_pg, "vindexpg", {}))
            counts.append(len(_vectors(pg_db.owner, "vindexpg")))
        rebuilt = _index(from_pg, "vindexpg", {"full": True})
        assert list(empty.iterdir()) == []
    stored = _vectors(pg_db.owner, "vindexcopy")
    assert len(stored) > 6
    assert counts[:2] == [3, 6] and counts[-1] == len(stored)  # a bound at a time
    assert _vectors(pg_db.owner, "vindexpg") == stored
    assert all(answer == wanted for answer in answers)
    assert not rebuilt[0] and rebuilt[1]["full"]
    assert _bank(pg_db.owner, "vindexpg") == _bank(pg_db.owner, "vindexcopy")


def test_a_rebuild_that_would_judge_is_judged_from_postgres(
        pg_db: Provisioned, app_pool: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Notes no memfold judged, whose judging decided nothing (no decision journaled), then
    a retain dated before them that one of them changes: a copy's rebuild judges the notes
    again, against the retained fact too, and supersedes it.  `index` with `full` judges
    them from the bank's rows as the copy's rebuild does — the same journal lines, rows
    and answers — and makes no copy."""
    import base64

    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    notes = {"files": [{"path": "memory/2026-05-03.md", "content": base64.b64encode(
        b"# 2026-05-03\n\n## Retain\n- W @Lena: Lives in Graz now. ^lenagraz\n"
        b"- W @Omar: Bakes bread on Sundays. ^omarbrd1\n").decode()}], "journal": []}
    earlier = {"bullets": ["W @Lena: Lives in Linz near the river. ^lenalinz"],
               "date": "2026-05-01"}
    with app_client(pg_db, recall_from="copy") as copy:
        for tenant in ("notescopy", "notespg"):
            token = bearer(make_tenant(pg_db, tenant).tokens["agent"])
            assert copy.post("/v1/banks/main/import", headers=token,
                             json=notes).status_code == 200
            assert copy.post("/v1/banks/main/retain", headers=token,
                             json=earlier).status_code == 200
    assert _events(pg_db.owner, "notespg") == ["retain"]
    with copy_and_postgres(app_pool) as (through_copy, from_pg, empty):
        wanted = [_index(through_copy, "notescopy", args) for args in CALLS[1:]]
        got = [_index(from_pg, "notespg", args) for args in CALLS[1:]]
        assert list(empty.iterdir()) == []  # judged with no copy
    assert got == wanted
    assert _events(pg_db.owner, "notespg") == ["retain", "supersede"]
    assert _bank(pg_db.owner, "notespg") == _bank(pg_db.owner, "notescopy")


def _events(url: str, tenant: str) -> list[str]:
    import json

    import psycopg

    with psycopg.connect(url) as conn:
        conn.execute("SELECT set_config('memfold.tenant', %s, false)", [tenant])
        return [json.loads(str(r[0]))["event"]
                for r in conn.execute("SELECT line FROM events ORDER BY seq")]
