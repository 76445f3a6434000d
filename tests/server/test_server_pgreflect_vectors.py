"""`reflect` and `forget --purge` answered from PostgreSQL on a replica WITH a model
(`memfold serve --recall-from postgres`, memfold.server.pgreflect and pgpurge): consolidation
finds paraphrases by the facts' vectors read from the bank's `vectors` rows (those with none
embedded and stored for every replica, as a copy's run embeds them), so a dry run, a run and
its undo answer and store what a copy does — the same pages byte for byte, journal lines,
rows and vectors — and a purge's plan counts the vectors it drops from the bank's rows as a
copy's counts those of its own store; a replica that never held the bank writes nothing to
disk."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from test_server_pgreflect import DAYS, LATER, NOW
from test_server_pgretain import _bank, _journal_chain, _vectors

from memfold.embed.base import FakeEmbedder
from memfold.embed.store import text_key
from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, make_tenant

# the same habit in other words: word overlap 0.33 (below reflect.CONSOLIDATE_AT), cosine
# 0.88 by the fake model (above fusion.PARAPHRASE): consolidated only by their vectors
TRAIN = "Takes the train to the office on most of the days."
TRAM = "Takes the tram to the office on most of the weekdays."
PARAPHRASED = {"bullets": [f"W @Lena: {TRAIN} ^ltrain01", f"W @Lena: {TRAM} ^ltram001",
                           "W @Lena: Sings in a choir on Thursdays. ^lchoir01"],
               "date": "2026-05-15"}


def _text(bullet: str) -> str:
    """A bullet's text, without its kind, entities and block id."""
    return bullet.split(": ", 1)[1].rsplit(" ^", 1)[0]


def _runs(client: Any, token: dict[str, str]) -> list[Any]:
    def post(verb: str, body: dict[str, Any]) -> Any:
        got = client.post(f"/v1/banks/main/{verb}", headers=token, json=body)
        return got.status_code, got.json()

    said = [post("reflect", {"dry_run": True})]  # a bank never written
    for body in (*DAYS, PARAPHRASED):
        assert post("retain", body)[0] == 200
    said += [
        post("reflect", {"dry_run": True, "since": "30d"}),  # embeds every fact first
        post("reflect", {"dry_run": False, "since": "30d"}),
        post("reflect", {"dry_run": True, "since": "30d"}),  # nothing left to do
        post("reflect_undo", {}),
        post("reflect", {"dry_run": False, "since": "30d"}),
    ]
    assert post("retain", LATER)[0] == 200  # new facts with no vector yet
    said += [post("reflect", {"dry_run": False, "since": "2d"}),
             post("history", {"id": "ltram001"}),
             post("recall", {"query": "how does Lena get to the office", "k": 5}),
             post("about", {"name": "Lena"})]
    return said


@pytest.mark.parametrize("bound", [None, 2])
def test_reflect_with_a_model_from_postgres_plans_and_stores_what_a_copy_does(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch, bound: int | None) -> None:
    """`bound`: how many vectors a recall from PostgreSQL makes (pgvectors: 2,000 by
    default, all of these; 2: the replica's matrix leaves the rest, which reflect makes)."""
    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    if bound is not None:
        monkeypatch.setattr("memfold.server.pgvectors.EMBED_DURING_RECALL", bound)
    pg, cp = f"rvpg{bound or 0}", f"rvcopy{bound or 0}"
    via_copy = bearer(make_tenant(pg_db, cp).tokens["agent"])
    via_pg = bearer(make_tenant(pg_db, pg).tokens["agent"])
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "cache"
        empty.mkdir()
        with app_client(pg_db, embedder=FakeEmbedder, recall_from="copy") as copy:
            wanted = _runs(copy, via_copy)
        with app_client(pg_db, recall_from="postgres", cache=empty,
                        embedder=FakeEmbedder) as fresh:
            got = _runs(fresh, via_pg)
            assert list(empty.iterdir()) == []  # planned, written and undone with no copy
    assert got == wanted
    assert [status for status, _ in got] == [200] * 10
    dry, done = got[1][1], got[2][1]
    assert {"into": next(m["into"] for m in dry["merged"] if "ltram001" in m["from"]),
            "from": ["ltrain01", "ltram001"]} in dry["merged"]  # by their vectors alone
    assert {k: v for k, v in done.items() if k not in ("dry_run", "diff")} == \
        {k: v for k, v in dry.items() if k not in ("dry_run", "diff")}
    assert got[3][1]["pages"] == [] and got[4][1]["undone"] == done["pages"]
    assert _bank(pg_db.owner, pg) == _bank(pg_db.owner, cp)
    vectors = _vectors(pg_db.owner, pg)
    assert vectors == _vectors(pg_db.owner, cp)
    keys = {bytes(key) for _, key, _ in vectors}
    assert {text_key(TRAIN), text_key(TRAM), text_key(_text(LATER["bullets"][0]))} <= keys
    count, problem = _journal_chain(pg_db.owner, pg)
    assert problem is None and count > 10


def _purges(client: Any, token: dict[str, str]) -> list[Any]:
    def post(verb: str, body: dict[str, Any]) -> Any:
        got = client.post(f"/v1/banks/main/{verb}", headers=token, json=body)
        return got.status_code, got.json()

    for body in (*DAYS, PARAPHRASED):
        assert post("retain", body)[0] == 200
    semantic = {"query": "the tram to the office", "mode": "semantic", "k": 5}
    painted = {"bullets": ["W @Lena: Lena paints watercolours of the harbour. ^lpaint01"],
               "date": "2026-05-19"}
    said = [post("recall", semantic),  # every fact's vector made and stored
            post("retain", {"bullets": [f"W @Ida: {TRAM} ^idatram1"], "date": "2026-05-18"}),
            post("forget", {"id": "ltram001", "purge": True, "dry_run": True}),
            post("forget", {"id": "ltram001", "purge": True}),
            post("forget", {"id": "ltram001", "purge": True}),  # gone: 404
            post("recall", semantic),  # (a copy's store, dropped on the notice, made again)
            post("forget", {"id": "lchoir01", "purge": True}),
            post("retain", painted),  # the judge embeds its words without "Lena", no more
            post("forget", {"id": "lpaint01", "purge": True}),  # no vector of its text
            post("recall", semantic)]
    return said


def test_a_purge_with_a_model_from_postgres_counts_and_drops_what_a_copy_does(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    """The plan names the vectors dropped (the copy's `.memory/vectors` place, counted from
    the bank's rows), the purge deletes them from the rows, and the text is left in no
    file, journal line, fact, recall row, posting or vector."""
    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    via_copy = bearer(make_tenant(pg_db, "pvcopy").tokens["agent"])
    via_pg = bearer(make_tenant(pg_db, "pvpg").tokens["agent"])
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "cache"
        empty.mkdir()
        with app_client(pg_db, embedder=FakeEmbedder, recall_from="copy") as copy:
            wanted = _purges(copy, via_copy)
        with app_client(pg_db, recall_from="postgres", cache=empty,
                        embedder=FakeEmbedder) as fresh:
            got = _purges(fresh, via_pg)
            assert list(empty.iterdir()) == []  # purged with no copy
    assert got == wanted
    assert [status for status, _ in got] == [200] * 4 + [404] + [200] * 5
    dry, done = got[2][1], got[3][1]
    assert dry["places"] == done["places"]
    assert [p for p in done["places"] if p["path"] == ".memory/vectors"] == [
        {"path": ".memory/vectors", "line": None, "action": "scrub",
         "detail": "1 vector(s) dropped"}]  # one text, two bullets
    assert [p["detail"] for p in got[6][1]["places"] if p["path"] == ".memory/vectors"] == [
        "1 vector(s) dropped"]
    assert not any(p["path"] == ".memory/vectors" for p in got[8][1]["places"])
    assert "ltram001" not in [hit["id"] for hit in got[9][1]["results"]]
    stored = _bank(pg_db.owner, "pvpg")
    assert stored == _bank(pg_db.owner, "pvcopy")
    for text in (TRAM, "Sings in a choir", "paints watercolours"):  # (block ids stay)
        assert not any(text in row for rows in stored.values() for row in rows), text
    vectors = _vectors(pg_db.owner, "pvpg")
    assert vectors == _vectors(pg_db.owner, "pvcopy")
    keys = {bytes(key) for _, key, _ in vectors}
    assert text_key(TRAM) not in keys and text_key(_text(PARAPHRASED["bullets"][2])) not in keys
    assert text_key(TRAIN) in keys
