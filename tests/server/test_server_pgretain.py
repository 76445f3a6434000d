"""A retain answered from PostgreSQL itself (`memfold serve --recall-from postgres`,
memfold.server.pgretain): the same retains through a replica's copy of the bank and through
PostgreSQL store the same bytes, journal lines and recall rows and answer alike; a replica
that never held a bank retains into it without making a copy; a copy made before catches up
with what was written without one."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest

from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, caller, make_tenant

NOW = "2026-05-20T09:30:00+00:00"

# each step: the retain's body; the bullets name their block ids so both banks hold the same
STEPS: tuple[dict[str, Any], ...] = (
    {"bullets": ["W @Peter: Lives in Vienna near the harbour. ^pvienna1",
                 "B @Peter: Took a boat trip around the harbour with @Ida. ^pboat001",
                 "O(c=0.7) @Ida: The budget looks too tight for the café. ^ibudget1"],
     "date": "2026-05-02"},
    {"bullets": ["W @Peter: Lives in Berlin now. ^pberlin1"], "date": "2026-05-10"},
    {"bullets": ["W @Ida: Keeps bees in the garden. ^ibees001",
                 "O(c=0.4) @Ida: The budget for the café is fine after all. ^ibudget2"],
     "date": "2026-05-10"},
    {"bullets": ["W: The office is on Harbour Street. ^office01"], "date": "2026-05-11"},
    {"bullets": ["W: The office moved from Harbour Street to the station. ^office02"],
     "date": "2026-05-12"},
    {"bullets": ["B @Rosa: Started the garden project. ^rosa0001"], "date": "2026-05-12",
     "idempotency_key": "rosa-start"},
    {"bullets": ["B @Rosa: Started the garden project. ^rosa0001"], "date": "2026-05-12",
     "idempotency_key": "rosa-start"},  # a repeat: stores nothing, answers the first's facts
    {"bullets": ["W @Peter: Lives in Vienna again. ^pvienna1"], "date": "2026-05-13"},
    {"bullets": ["W @Rosa: Works at the library, supersedes the old plan. ^rosa0002",
                 "W(supersedes=^rosa0001) @Rosa: Gave up the garden project. ^rosa0003"],
     "date": "2026-05-14"},
)
QUERIES = ("where does Peter live", "Ida budget", "office", "Rosa garden project", "bees")


def _bank(url: str, tenant: str) -> dict[str, list[str]]:
    """Every row of the tenant's bank as text, minus what names the bank or a row key (the
    row keys come from one sequence for every bank): files, journal lines, facts and every
    recall row (a row's key given as the fact it belongs to)."""
    import psycopg

    fact = ("(SELECT jsonb_build_array(f.path, f.line, f.fact_id) FROM recall_facts f"
            " WHERE f.rowid = t.{col})")
    tables = {
        "files": "", "events": "", "facts": "", "recall_life": "", "recall_terms": "",
        "recall_aliases": "", "recall_files": "", "event_facts": "",
        "recall_facts": " - 'rowid'",
        "recall_links": " - 'fact' || jsonb_build_object('of', " + fact.format(col="fact") + ")",
        "recall_postings": " - 'rowid' || jsonb_build_object('of', "
                           + fact.format(col="rowid") + ")",
        "recall_stats": "",
    }
    found: dict[str, list[str]] = {}
    with psycopg.connect(url) as conn:
        conn.execute("SELECT set_config('memfold.tenant', %s, false)", [tenant])
        for table, more in tables.items():
            rows = conn.execute(f"SELECT (to_jsonb(t) - 'tenant_id' - 'bank_id'{more})::text"  # noqa: S608
                                f" FROM {table} t").fetchall()
            found[table] = sorted(str(r[0]) for r in rows)
    return found


def _answers(client: Any, token: dict[str, str]) -> list[Any]:
    out = []
    for query in QUERIES:
        got = client.post("/v1/banks/main/recall", headers=token, json={"query": query})
        assert got.status_code == 200, got.text
        data = got.json()
        out.append([(h["id"], h["source"], h["score"], h.get("status"), h.get("superseded_by"))
                    for h in data["results"]])
    return out


def _retains(client: Any, token: dict[str, str]) -> list[Any]:
    """Every step's status and answer, then a retain of an id already used (400)."""
    said = []
    for body in STEPS:
        got = client.post("/v1/banks/main/retain", headers=token, json=body)
        said.append((got.status_code, got.json()))
    return said


def test_a_retain_from_postgres_stores_what_a_copy_stores(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    via_copy = bearer(make_tenant(pg_db, "viacopy").tokens["agent"])
    via_pg = bearer(make_tenant(pg_db, "viapg").tokens["agent"])
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "cache"
        empty.mkdir()
        with app_client(pg_db, recall_from="copy") as copy:
            wanted = _retains(copy, via_copy)
            wanted_answers = _answers(copy, via_copy)
        with app_client(pg_db, recall_from="postgres", cache=empty) as fresh:
            got = _retains(fresh, via_pg)
            got_answers = _answers(fresh, via_pg)
            assert list(empty.iterdir()) == []  # written and read with no copy
    assert got == wanted
    assert got_answers == wanted_answers
    statuses = [status for status, _ in got]
    assert statuses == [200] * 7 + [400, 200]
    assert "^pvienna1 is already used" in got[7][1]["error"]
    assert got[6][1]["repeated"] is True and got[5][1]["facts"] == got[6][1]["facts"]
    judged = [j for _, answer in got if isinstance(answer, dict)
              for j in answer.get("superseded", []) + answer.get("conflicts", [])]
    assert judged, "the steps make the judge supersede and leave conflicts"
    stored = _bank(pg_db.owner, "viapg")
    assert stored == _bank(pg_db.owner, "viacopy")
    kinds = [json.loads(json.loads(row)["line"])["event"] for row in stored["events"]]
    assert {"retain", "supersede", "conflict"} <= set(kinds)


def test_a_copy_made_before_catches_up_with_retains_from_postgres(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    token = bearer(make_tenant(pg_db, "mixed").tokens["agent"])
    with app_client(pg_db, recall_from="copy") as copy, \
            app_client(pg_db, recall_from="postgres") as fresh:
        assert copy.post("/v1/banks/main/retain", headers=token,
                         json=STEPS[0]).status_code == 200  # the copy holds the bank now
        for body in STEPS[1:5]:
            assert fresh.post("/v1/banks/main/retain", headers=token,
                              json=body).status_code == 200
        assert _answers(copy, token) == _answers(fresh, token)
        history = copy.post("/v1/banks/main/history", headers=token,
                            json={"id": "pvienna1"}).json()
        assert [e["event"] for e in history["events"]] == ["retain", "supersede"]
        # a write through the copy after them chains on their journal lines
        assert copy.post("/v1/banks/main/retain", headers=token,
                         json=STEPS[5]).status_code == 200
        assert fresh.post("/v1/banks/main/retain", headers=token,
                          json=STEPS[8]).status_code == 200
        assert _answers(copy, token) == _answers(fresh, token)
    count, problem = _journal_chain(pg_db.owner, "mixed")
    assert problem is None and count > 6


def _journal_chain(url: str, tenant: str) -> tuple[int, str | None]:
    """The bank's journal lines checked as `Journal.verify` checks a journal file."""
    import psycopg

    from memfold.journal.log import GENESIS, chain_hash, parse

    with psycopg.connect(url) as conn:
        conn.execute("SELECT set_config('memfold.tenant', %s, false)", [tenant])
        lines = [str(r[0]) for r in conn.execute("SELECT line FROM events ORDER BY seq")]
    prev = GENESIS
    for n, line in enumerate(lines):
        event = parse(json.loads(line))
        if event.prev != prev or chain_hash(prev, event.to_dict()) != event.hash:
            return n, f"line {n + 1} breaks the chain"
        prev = event.hash
    return len(lines), None


BIG = ("W @Peter: Lives in Lisbon now near the harbour. ^big00001",
       "W @Cairo: Uses the new tram every day. ^big00002",
       "W @Renée @Işıl: Lives in a flat near the clinic kitchen. ^big00003",
       "W: Uses were liyor zelsiwen another gornutam fiancée early. ^big00004",
       "O(c=0.3) @Yuki: Usually fuunzel cake is too sweet. ^big00005",
       "W @Oslo: Owns a new harbour office. ^big00006",
       "B: Booked smörgåsbord again for the team. ^big00007")


def test_a_fresh_replica_retains_into_a_bank_it_never_held_as_its_copy_would(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    """A generated bank of 30 daily logs and entity pages (names, aliases, facts without
    entities) imported twice: the same retains through a copy and through a replica that
    never held the bank store the same rows; the fresh replica writes nothing to disk."""
    from memfold.client.files import read_workspace
    from memfold_bench import corpus

    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    tokens = {t: bearer(make_tenant(pg_db, t).tokens["agent"]) for t in ("bigcopy", "bigpg")}
    with tempfile.TemporaryDirectory() as tmp:
        corpus.generate(Path(tmp) / "ws", files=30, seed=3)
        body = read_workspace(Path(tmp) / "ws")
        empty = Path(tmp) / "cache"
        empty.mkdir()
        said: dict[str, list[Any]] = {}
        with app_client(pg_db, recall_from="copy") as copy:
            for token in tokens.values():
                got = copy.post("/v1/banks/main/import", headers=token, json=body)
                assert got.status_code == 200, got.text
            said["bigcopy"] = [copy.post("/v1/banks/main/retain", headers=tokens["bigcopy"],
                                         json={"bullets": [b], "date": "2025-12-01"}).json()
                               for b in BIG]
        with app_client(pg_db, recall_from="postgres", cache=empty) as fresh:
            said["bigpg"] = [fresh.post("/v1/banks/main/retain", headers=tokens["bigpg"],
                                        json={"bullets": [b], "date": "2025-12-01"}).json()
                             for b in BIG]
            assert list(empty.iterdir()) == []
    assert said["bigpg"] == said["bigcopy"]
    assert sum(len(a["superseded"]) + len(a["conflicts"]) for a in said["bigpg"]) >= 3
    assert _bank(pg_db.owner, "bigpg") == _bank(pg_db.owner, "bigcopy")


def test_with_a_model_the_judge_weighs_meaning_from_the_banks_vectors_as_a_copy_does(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    """A replica with a model judges by meaning too (judge.meaning): the vectors it asks
    for come from the bank's rows and those it makes are stored in the retain's own
    transaction, as through a copy; nothing is written to the replica's disk."""
    from memfold.embed.base import FakeEmbedder

    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    via_copy = bearer(make_tenant(pg_db, "vcopy").tokens["agent"])
    via_pg = bearer(make_tenant(pg_db, "vpg").tokens["agent"])
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "cache"
        empty.mkdir()
        with app_client(pg_db, embedder=FakeEmbedder, recall_from="copy") as copy:
            wanted = _retains(copy, via_copy)
        with app_client(pg_db, recall_from="postgres", cache=empty,
                        embedder=FakeEmbedder) as fresh:
            got = _retains(fresh, via_pg)
            assert list(empty.iterdir()) == []
    assert got == wanted
    stored = _bank(pg_db.owner, "vpg")
    assert stored == _bank(pg_db.owner, "vcopy")
    assert _vectors(pg_db.owner, "vpg") == _vectors(pg_db.owner, "vcopy") != []


def _vectors(url: str, tenant: str) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(url) as conn:
        conn.execute("SELECT set_config('memfold.tenant', %s, false)", [tenant])
        return sorted((str(e), bytes(k), bytes(v)) for e, k, v in conn.execute(
            "SELECT embedder, key, vector FROM vectors"))


def test_the_mcp_tool_retains_from_postgres_signed_with_the_token_and_its_label(
        pg_db: Provisioned, app_pool: Any) -> None:
    from memfold.server import mcp
    from memfold.server.replica import Replica

    make_tenant(pg_db, "tools")
    writer, reader = caller("tools", "agent", "read", "write"), caller("tools", "viewer", "read")

    class Server:
        def __init__(self, replica: Any) -> None:
            self.replica = replica

    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp)
        replica = Replica(app_pool, cache, recall_from="postgres", listen=False)
        try:
            server, headers = Server(replica), {"x-memfold-bank": "main"}
            failed, data = mcp.call(server, writer, headers, "", "retain",
                                    {"bullets": ["W @Gil: Sails on the lake."],
                                     "source": "planner"})
            assert not failed, data
            failed, shown = mcp.call(server, writer, headers, "", "show",
                                     {"id": data["ids"][0]})
            assert not failed and shown["origin"] == "agent/planner", shown
            failed, refused = mcp.call(server, reader, headers, "", "retain",
                                       {"bullets": ["W @Gil: Sails."]})
            assert failed and refused["status"] == 403
            assert list(cache.iterdir()) == []
        finally:
            replica.close()


def test_a_log_whose_end_leaves_a_fence_open_is_retained_as_through_the_copy(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    """A day's log without a last newline is appended to from PostgreSQL; so is one that
    ends inside a code fence (the append closes it, so the whole file is parsed again, as
    through a copy: test_server_pgretain_whole.py) — the same rows either way."""
    from memfold.client.files import read_workspace
    from memfold.memory import Memory

    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    tokens = {t: bearer(make_tenant(pg_db, t).tokens["agent"]) for t in ("endcopy", "endpg")}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "ws"
        Memory.init(root)
        (root / "memory" / "2026-04-01.md").write_text(
            "# 2026-04-01\n\n## Retain\n- W @Ann: Sails on the lake. ^ann00001")
        (root / "memory" / "2026-04-02.md").write_text(
            "# 2026-04-02\n\n## Retain\n- W @Ann: Rows on the river. ^ann00002\n\n```\nx = 1\n")
        body = read_workspace(root)
        cache = Path(tmp) / "cache"
        cache.mkdir()
        steps = [{"bullets": ["W @Ann: Sails on the sea now. ^ann00003"], "date": "2026-04-01"},
                 {"bullets": ["W @Ann: Rows on the lake now. ^ann00004"], "date": "2026-04-02"}]
        said: dict[str, list[Any]] = {"endcopy": [], "endpg": []}
        with app_client(pg_db, recall_from="copy") as copy:
            for token in tokens.values():
                assert copy.post("/v1/banks/main/import", headers=token,
                                 json=body).status_code == 200
            said["endcopy"] = [copy.post("/v1/banks/main/retain", headers=tokens["endcopy"],
                                         json=step).json() for step in steps]
        with app_client(pg_db, recall_from="postgres", cache=cache) as fresh:
            said["endpg"].append(fresh.post("/v1/banks/main/retain", headers=tokens["endpg"],
                                            json=steps[0]).json())
            assert list(cache.iterdir()) == []  # appended from PostgreSQL
            said["endpg"].append(fresh.post("/v1/banks/main/retain", headers=tokens["endpg"],
                                            json=steps[1]).json())
            assert list(cache.iterdir()) == []  # parsed whole from PostgreSQL
    assert said["endpg"] == said["endcopy"]
    assert _bank(pg_db.owner, "endpg") == _bank(pg_db.owner, "endcopy")
