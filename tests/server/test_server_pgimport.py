"""An import answered from PostgreSQL itself (`memfold serve --recall-from postgres`,
memfold.server.pgimport and the retains an import merges with): into an empty bank, a
workspace is stored with no copy, and one whose facts no memfold judged is judged in the
order written from the bank's rows, as a copy's first index judges it; into a bank that
holds facts, the missing bullets are retained from PostgreSQL.  Each stores the rows and
answers the import a copy stores and answers."""

from __future__ import annotations

import base64
import tempfile
from pathlib import Path
from typing import Any

import pytest
from test_server_pgretain import NOW, STEPS, _answers, _bank

from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, make_tenant

NOTES = "# 2026-05-03\n\n## Retain\n- W @Lena: Teaches piano in Graz.\n" \
        "- W @Lena: Teaches piano in Linz now. ^lenalinz\n"


def _exported(pg_db: Provisioned) -> dict[str, Any]:
    """A bank written by retains (every fact retained, decisions journaled), exported."""
    token = bearer(make_tenant(pg_db, "source").tokens["agent"])
    with app_client(pg_db) as client:
        for body in STEPS[:5]:
            assert client.post("/v1/banks/main/retain", headers=token,
                               json=body).status_code == 200
        got = client.get("/v1/banks/main/export", headers=token)
    assert got.status_code == 200, got.text
    return {"files": got.json()["files"], "journal": got.json()["journal"]}


def _notes(days: dict[str, str]) -> dict[str, Any]:
    """Daily logs with no journal (notes no memfold judged)."""
    return {"files": [{"path": f"memory/{day}.md",
                       "content": base64.b64encode(text.encode()).decode()}
                      for day, text in days.items()], "journal": []}


def _imports(client: Any, token: dict[str, str], whole: dict[str, Any]) -> list[Any]:
    def post(verb: str, body: dict[str, Any], bank: str = "main") -> Any:
        got = client.post(f"/v1/banks/{bank}/{verb}", headers=token, json=body)
        return got.status_code, got.json()

    grown = {**whole, "files": [*whole["files"], *_notes({"2026-05-15": NOTES})["files"]]}
    return [
        post("import", whole),  # into an empty bank: stored whole, nothing to judge
        post("import", whole),  # again: every bullet known, nothing added
        post("import", grown),  # merged: the new day's bullets retained
        post("import", _notes({"2026-05-03": NOTES}), "notes"),  # to judge, as a copy judges
        post("history", {"id": "lenalinz"}),
        post("recall", {"query": "piano Lena"}),
    ]


def test_an_import_from_postgres_stores_what_a_copy_stores(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    whole = _exported(pg_db)
    via_copy = make_tenant(pg_db, "impcopy", banks=("main", "notes"))
    via_pg = make_tenant(pg_db, "imppg", banks=("main", "notes"))
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "cache"
        empty.mkdir()
        with app_client(pg_db, recall_from="copy") as copy:
            wanted = _imports(copy, bearer(via_copy.tokens["agent"]), whole)
            wanted_answers = _answers(copy, bearer(via_copy.tokens["agent"]))
        with app_client(pg_db, recall_from="postgres", cache=empty) as fresh:
            token = bearer(via_pg.tokens["agent"])
            got = _imports(fresh, token, whole)
            got_answers = _answers(fresh, token)
            held = sorted(p.name for p in empty.iterdir())
    assert got == wanted and got_answers == wanted_answers
    assert [status for status, _ in got] == [200] * 6
    assert got[0][1]["stored"] == "whole" and got[0][1]["judged"] == 0
    assert got[2][1]["stored"] == "merged" and got[2][1]["added"]
    assert got[3][1]["judged"] > 0  # judged by the import, from PostgreSQL too
    assert held == []  # no copy of either bank
    assert _bank(pg_db.owner, "imppg") == _bank(pg_db.owner, "impcopy")  # both banks

