"""A retain into a day that must be parsed whole, answered from PostgreSQL itself
(`memfold serve --recall-from postgres`, memfold.server.pgretain): a day whose log ends inside
an open fence or an open comment (the append closes it), and one that does not decode, are
parsed whole as local memfold parses them, and store what a copy stores — the same bytes,
journal lines and rows, the same answers — with no copy made."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from test_server_pgretain import NOW, _answers, _bank, _journal_chain

from memfold.memory import Memory
from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, make_tenant

RETAINS: tuple[dict[str, Any], ...] = (
    {"bullets": ["W @Ida: Keeps bees in the garden. ^ibees001"], "date": "2026-05-02"},
    {"bullets": ["W @Rosa: Works at the library. ^rosa0001"], "date": "2026-05-03"},
    {"bullets": ["O(c=0.6) @Ida: The budget looks fine. ^ibudget2"], "date": "2026-05-04"},
    {"bullets": ["W @Peter: Lives in Berlin now. ^pberlin1"], "date": "2026-05-02"},
)


def _workspace(root: Path) -> Path:
    """Days whose logs end inside an open fence (05-02), inside an open comment (05-03),
    and hold bytes that do not decode (05-04)."""
    Memory.init(root)
    with Memory.open(root, watch=False, now=NOW) as memory:
        memory.retain(["W @Peter: Lives in Vienna near the harbour. ^pvienna1"],
                      date="2026-05-02")
        memory.retain(["B @Rosa: Started the garden project. ^rosa0000"], date="2026-05-03")
        memory.retain(["O(c=0.7) @Ida: The budget looks too tight. ^ibudget1"],
                      date="2026-05-04")
    with open(root / "memory/2026-05-02.md", "a") as day:
        day.write("\nSketch:\n\n```\nplan the harbour walk\n- W @Ida: not a fact in a fence\n")
    with open(root / "memory/2026-05-03.md", "a") as day:
        day.write("\n<!-- a note left open\n- W @Rosa: not a fact in a comment\n")
    with open(root / "memory/2026-05-04.md", "ab") as day:
        day.write(b"\nA line that does not decode: \xff\xfe caf\xe9\n")
    return root


def _retains(client: Any, token: dict[str, str]) -> list[Any]:
    said = []
    for body in RETAINS:
        got = client.post("/v1/banks/main/retain", headers=token, json=body)
        said.append((got.status_code, got.json()))
    return said


def test_a_retain_into_a_day_parsed_whole_from_postgres_stores_what_a_copy_stores(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    from memfold.client.files import read_workspace

    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    tokens = {t: bearer(make_tenant(pg_db, t).tokens["agent"]) for t in ("wholecopy",
                                                                          "wholepg")}
    with tempfile.TemporaryDirectory() as tmp:
        root = _workspace(Path(tmp) / "ws")
        with app_client(pg_db) as loader:
            for token in tokens.values():
                loaded = loader.post("/v1/banks/main/import", headers=token,
                                     json=read_workspace(root))
                assert loaded.status_code == 200, loaded.text
        assert _bank(pg_db.owner, "wholepg") == _bank(pg_db.owner, "wholecopy")
        empty = Path(tmp) / "cache"
        empty.mkdir()
        with app_client(pg_db, recall_from="copy") as copy:
            wanted = (_retains(copy, tokens["wholecopy"]), _answers(copy, tokens["wholecopy"]))
        with app_client(pg_db, recall_from="postgres", cache=empty) as fresh:
            got = (_retains(fresh, tokens["wholepg"]), _answers(fresh, tokens["wholepg"]))
            assert list(empty.iterdir()) == []  # written with no copy
    assert got == wanted
    assert [status for status, _ in got[0]] == [200] * 4
    stored = _bank(pg_db.owner, "wholepg")
    assert stored == _bank(pg_db.owner, "wholecopy")
    fenced = _day(pg_db.owner, "wholepg", "memory/2026-05-02.md")
    assert b"- W @Ida: not a fact in a fence\n```\n" in fenced  # the append closed it
    assert fenced.endswith(b"```\n\n## Retain\n- W @Ida: Keeps bees in the garden. ^ibees001"
                           b"\n- W @Peter: Lives in Berlin now. ^pberlin1\n")
    assert b"-->" in _day(pg_db.owner, "wholepg", "memory/2026-05-03.md")
    assert not any("not a fact" in r and '"kind": "text"' not in r for r in stored["facts"])
    count, problem = _journal_chain(pg_db.owner, "wholepg")
    assert problem is None and count > 4


def _day(url: str, tenant: str, path: str) -> bytes:
    import psycopg

    with psycopg.connect(url) as conn:
        conn.execute("SELECT set_config('memfold.tenant', %s, false)", [tenant])
        row = conn.execute("SELECT content FROM files WHERE path = %s", [path]).fetchone()
    assert row is not None
    return bytes(row[0])
