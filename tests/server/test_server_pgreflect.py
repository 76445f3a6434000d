"""`reflect` answered from PostgreSQL itself (`memfold serve --recall-from postgres`,
memfold.server.pgreflect): a dry run and a run through a replica's copy and through
PostgreSQL answer the same plan — consolidation, opinions' confidence, entity pages, the
sweep, core-memory proposals, the diff — and a run stores the same rows: the pages byte for
byte, the journal lines (the consolidated facts judged after, as the sync after a local run
judges them), the facts and recall rows; a replica that never held the bank writes nothing
to disk."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from test_server_pgretain import _bank, _journal_chain

from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, make_tenant

NOW = "2026-05-20T09:30:00+00:00"

# near-duplicates to consolidate, an opinion and the evidence that moves it, facts whose
# validity ended within the window, an important fact for core memory, entities for pages
DAYS: tuple[dict[str, Any], ...] = (
    {"bullets": ["O(c=0.6) @Marta: Likes long walks by the river. ^mwalks01",
                 "W(i=9) @Marta: Is allergic to peanuts. ^mallerg1",
                 "W @Tomas: Rents a flat in Ghent (until 2026-05-15). ^tflat001"],
     "date": "2026-04-02"},
    {"bullets": ["O @Marta: Prefers short replies on Signal. ^msig0001",
                 "B @Tomas: Repaired the bakery's oven. ^toven001"],
     "date": "2026-05-14"},
    {"bullets": ["O @Marta: Prefers short replies, on Signal. ^msig0002",
                 "O @Marta: Prefers short and direct replies on Signal. ^msig0003",
                 "B @Marta: Went on long walks by the river all weekend. ^mriver01"],
     "date": "2026-05-16"},
    {"bullets": ["W @Tomas: Works at the bakery on Veldstraat. ^tbakery1",
                 "W(until=2026-05-17) @Tomas: Covers the morning shift. ^tshift01"],
     "date": "2026-05-17"},
)
LATER = {"bullets": ["B @Marta: Said she does not like long walks by the river. ^mnot0001",
                     "W @Tomas: Works at the bakery on Veldstraat, mornings. ^tbakery2"],
         "date": "2026-05-19"}


def _runs(client: Any, token: dict[str, str]) -> list[Any]:
    def post(verb: str, body: dict[str, Any]) -> Any:
        got = client.post(f"/v1/banks/main/{verb}", headers=token, json=body)
        answer = got.json()
        if verb == "status":  # it names the tenant, and a copy when it last caught up
            answer.pop("workspace")
            answer.pop("last_sync")
        return got.status_code, answer

    said = [post("reflect", {"dry_run": True})]  # a bank never written
    for body in DAYS:
        assert post("retain", body)[0] == 200
    said += [
        post("reflect", {"dry_run": True, "since": "30d"}),
        post("reflect", {"dry_run": False, "since": "30d"}),
        post("reflect", {"dry_run": True, "since": "30d"}),  # nothing left to do
        post("reflect", {"dry_run": False, "since": "30d"}),  # stores nothing
        post("reflect", {"dry_run": True, "since": "when pigs fly"}),  # 400
        post("reflect", {"dry_run": False, "since": "when pigs fly"}),  # 400
    ]
    assert post("retain", LATER)[0] == 200
    said += [post("reflect", {"dry_run": False, "since": "2d"}),
             post("history", {"id": "msig0001"}),
             post("history", {"id": "mwalks01"}),
             post("status", {}),
             post("recall", {"query": "Marta short replies Signal"}),
             post("about", {"name": "Tomas"})]
    return said


def test_reflect_from_postgres_plans_and_stores_what_a_copy_does(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    via_copy = bearer(make_tenant(pg_db, "reflcopy").tokens["agent"])
    via_pg = bearer(make_tenant(pg_db, "reflpg").tokens["agent"])
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "cache"
        empty.mkdir()
        with app_client(pg_db, recall_from="copy") as copy:
            wanted = _runs(copy, via_copy)
        with app_client(pg_db, recall_from="postgres", cache=empty) as fresh:
            got = _runs(fresh, via_pg)
            assert list(empty.iterdir()) == []  # planned and written with no copy
    assert got == wanted
    assert [status for status, _ in got] == [200] * 5 + [400, 400] + [200] * 6
    dry, done, again = got[1][1], got[2][1], got[4][1]
    assert dry["merged"] and dry["confidence"] and dry["swept"] and dry["core_proposals"]
    assert "bank/entities/Marta.md" in dry["pages"] and dry["diff"]
    assert {k: v for k, v in done.items() if k not in ("dry_run", "diff")} == \
        {k: v for k, v in dry.items() if k not in ("dry_run", "diff")}
    assert again["pages"] == [] and again["events"] == 0
    stored = _bank(pg_db.owner, "reflpg")
    assert stored == _bank(pg_db.owner, "reflcopy")  # files, lines, versions, rows
    kinds = [json.loads(json.loads(row)["line"])["event"] for row in stored["events"]]
    assert {"merge", "derive", "confidence", "expire"} <= set(kinds)
    count, problem = _journal_chain(pg_db.owner, "reflpg")
    assert problem is None and count == len(kinds)


def _undo_kept(url: str, tenant: str) -> list[tuple[int, bytes]]:
    """The bank's undo manifest row (reflect_undo): the version that wrote it, its bytes."""
    import psycopg

    with psycopg.connect(url) as conn:
        conn.execute("SELECT set_config('memfold.tenant', %s, false)", [tenant])
        return [(int(v), bytes(m)) for v, m in conn.execute(
            "SELECT version, manifest FROM reflect_undo")]


def _held(files: list[str]) -> dict[str, str]:
    """Each file the rows hold (a removed one's row holds no content), by path."""
    rows = [json.loads(f) for f in files]
    return {row["path"]: row["content"] for row in rows if row["content"] is not None}


def _undos(client: Any, token: dict[str, str]) -> list[Any]:
    def post(verb: str, body: dict[str, Any]) -> Any:
        got = client.post(f"/v1/banks/main/{verb}", headers=token, json=body)
        return got.status_code, got.json()

    said = [post("reflect_undo", {})]  # nothing to undo yet
    for body in DAYS:
        assert post("retain", body)[0] == 200
    said += [post("reflect", {"dry_run": False, "since": "30d"}),
             post("reflect_undo", {}),
             post("reflect_undo", {}),  # undone already: nothing to undo
             post("history", {"id": "msig0001"}),
             post("reflect", {"dry_run": False, "since": "30d"})]
    assert post("retain", LATER)[0] == 200
    said += [post("reflect", {"dry_run": False, "since": "2d"}),
             post("forget", {"id": "mallerg1", "purge": True, "dry_run": True}),
             post("forget", {"id": "mallerg1", "purge": True}),
             post("reflect_undo", {}),  # the purge took the snapshot: nothing to undo
             post("recall", {"query": "Marta short replies Signal"})]
    return said


def test_reflect_undo_from_postgres_takes_back_what_a_copy_does(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    """The run's pages written back and its decisions reset as through a copy; the undo
    manifest kept in the database alike, and dropped by an undo and by a purge (whose plan
    names it)."""
    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    via_copy = bearer(make_tenant(pg_db, "undocopy").tokens["agent"])
    via_pg = bearer(make_tenant(pg_db, "undopg").tokens["agent"])
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "cache"
        empty.mkdir()
        with app_client(pg_db, recall_from="copy") as copy:
            wanted = _undos(copy, via_copy)
        with app_client(pg_db, recall_from="postgres", cache=empty) as fresh:
            got = _undos(fresh, via_pg)
            assert list(empty.iterdir()) == []  # undone with no copy
    assert got == wanted
    statuses = [status for status, _ in got]
    assert statuses[1:3] == [200, 200] and statuses[0] == statuses[3] == statuses[-2] != 200
    assert "nothing to undo" in got[0][1]["error"]
    assert got[2][1]["undone"] == got[1][1]["pages"]
    assert [e["event"] for e in got[4][1]["events"]][-2:] == ["merge", "reset"]
    places = [p["path"] for p in got[7][1]["places"]]
    assert ".memory/reflect-last.json" in places
    assert _bank(pg_db.owner, "undopg") == _bank(pg_db.owner, "undocopy")
    assert _undo_kept(pg_db.owner, "undopg") == _undo_kept(pg_db.owner, "undocopy") == []


def test_a_run_through_one_path_is_undone_through_the_other(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    """The manifest lives in the database: a run from PostgreSQL is undone through a copy
    made before it, and a run through a copy from PostgreSQL, each leaving the pages as
    before the run."""
    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    token = bearer(make_tenant(pg_db, "crossundo").tokens["agent"])
    with app_client(pg_db, recall_from="copy") as copy, \
            app_client(pg_db, recall_from="postgres") as fresh:
        for body in DAYS:
            assert copy.post("/v1/banks/main/retain", headers=token,
                             json=body).status_code == 200  # the copy holds the bank now
        before = _bank(pg_db.owner, "crossundo")["files"]
        for runs, undoes in ((fresh, copy), (copy, fresh)):
            done = runs.post("/v1/banks/main/reflect", headers=token,
                             json={"dry_run": False, "since": "30d"}).json()
            assert done["pages"] and _undo_kept(pg_db.owner, "crossundo")
            undone = undoes.post("/v1/banks/main/reflect_undo", headers=token, json={})
            assert undone.status_code == 200, undone.text
            assert undone.json()["undone"] == done["pages"]
            assert _undo_kept(pg_db.owner, "crossundo") == []
            assert _held(_bank(pg_db.owner, "crossundo")["files"]) == _held(before)
