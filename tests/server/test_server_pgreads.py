"""The read verbs besides recall that a `--recall-from postgres` replica answers from
PostgreSQL (memfold.server.pgreads, pgstatus, pgrecall.DatabaseBank): about, show, history,
trace, entities, status, core memory and the session context give the answers a copy of the
bank gives, on a bank imported and after writes through another replica, and the replica
that answers them makes no copy (nothing under its cache).  Status's `last_sync` is left
out: a copy says when the replica last caught up."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from test_server_pgrecall import imported

from memfold.memory import Memory
from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, make_tenant

NAMES = ("Peter", "@Ida", "Idalene", "rosa", "Nobody", "  Peter  ")


def _answers(client: Any, token: dict[str, str], ids: list[str]) -> dict[str, Any]:
    """Every read this test compares: (verb, arguments) -> (status, answer)."""
    asked: list[tuple[str, dict[str, Any]]] = [("core_view", {}), ("entities", {}),
                                               ("entities", {"limit": 2}), ("status", {})]
    asked += [("about", {"name": name, "include_all": every, "k": k})
              for name in NAMES for every in (False, True) for k in (1, 20)]
    asked += [(verb, {"id": fact}) for fact in [*ids, "0000000000ab", "nosuchfact1"]
              for verb in ("history", "show", "trace")]
    asked += [("show", {"id": fact, "strict": True}) for fact in ids[:3]]
    found = {}
    for verb, body in asked:
        answer = client.post(f"/v1/banks/main/{verb}", headers=token, json=body)
        data = answer.json()
        if verb == "status":  # a copy's says when the replica caught up
            data.pop("last_sync")
        found[f"{verb} {body}"] = (answer.status_code, data)
    return found


def _ids(client: Any, token: dict[str, str]) -> list[str]:
    answer = client.post("/v1/banks/main/recall", headers=token,
                         json={"query": "Peter Ida Rosa budget harbour", "k": 50,
                               "include_all": True})
    assert answer.status_code == 200, answer.text
    return [hit["id"] for hit in answer.json()["results"]]


def _writes(client: Any, token: dict[str, str], ids: list[str]) -> None:
    """A retain, a supersede, a note, a core edit and a forget through `client`."""
    for verb, body in (
            ("retain", {"bullets": ["W @Peter: Moved to Lisbon in March.",
                                    "W @Ida: Sells honey at the market."]}),
            ("supersede", {"old": ids[0], "new": ids[1], "reason": "by hand"}),
            ("note", {"id": ids[2], "text": "checked with Ida", "rev": 0}),
            ("core_append", {"block": "Persona", "text": "Answers briefly."}),
            ("forget", {"id": ids[3]})):
        answer = client.post(f"/v1/banks/main/{verb}", headers=token, json=body)
        assert answer.status_code == 200, (verb, answer.text)


def test_reads_from_postgres_are_the_copys(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMFOLD_NOW", "2026-04-01T09:00:00")  # one clock: as_of is now
    token = imported(pg_db, "reads")
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty-cache"
        empty.mkdir()
        with app_client(pg_db, rate=0, recall_from="copy") as copy, \
                app_client(pg_db, recall_from="postgres", cache=empty, rate=0) as fresh:
            ids = _ids(copy, token)
            assert len(ids) > 5
            wanted = _answers(copy, token, ids)
            assert _answers(fresh, token, ids) == wanted
            assert list(empty.iterdir()) == []  # no copy, no lock, no manifest
            assert wanted["about {'name': 'Idalene', 'include_all': False, 'k': 20}"][1][
                "entity"] == "Ida"
            assert wanted[f"history {{'id': '{ids[0]}'}}"][1]["events"]
            assert wanted["history {'id': 'nosuchfact1'}"][0] == 404
            _writes(copy, token, ids)
            after = _answers(copy, token, [*ids, *_ids(copy, token)])
            assert after != wanted
            assert _answers(fresh, token, [*ids, *_ids(fresh, token)]) == after
            assert "Answers briefly." in str(after["core_view {}"][1])
            assert after[f"trace {{'id': '{ids[1]}'}}"][1]["supersedes"]
            assert after["status {}"] != wanted["status {}"]  # each version's own
            assert list(empty.iterdir()) == []


def test_a_bank_never_written_reads_as_the_skeleton_a_copy_holds(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    # one clock for both: an answer's as_of is its now (it once crossed a second between them)
    monkeypatch.setenv("MEMFOLD_NOW", "2026-03-06T09:00:00")
    token = bearer(make_tenant(pg_db, "blank").tokens["agent"])
    with app_client(pg_db, recall_from="copy") as copy, \
            app_client(pg_db, recall_from="postgres") as fresh:
        wanted = copy.post("/v1/banks/main/core_view", headers=token, json={})
        got = fresh.post("/v1/banks/main/core_view", headers=token, json={})
        assert wanted.status_code == got.status_code == 200
        assert got.json() == wanted.json()
        assert wanted.json()["blocks"]  # the skeleton's blocks
        for verb, body in (("about", {"name": "Peter"}), ("history", {"id": "0000000000ab"}),
                           ("show", {"id": "0000000000ab"}), ("entities", {}),
                           ("context", {})):
            assert (fresh.post(f"/v1/banks/main/{verb}", headers=token, json=body).json()
                    == copy.post(f"/v1/banks/main/{verb}", headers=token, json=body).json())
        assert _status(fresh, token) == _status(copy, token)


def _troubled(root: Path) -> Path:
    """A bank with every kind of warning status names: a parse warning, a likely secret,
    hidden text, a duplicate block id, a superseded fact whose newer one lost its id, a note
    on a fact whose id changed, and an entity page citing facts edited since."""
    Memory.init(root)
    with Memory.open(root, watch=False, now="2026-03-20T12:00:00") as memory:
        first = [f.id for f in memory.retain(
            ["W @Ann: Likes green tea in the morning.", "W @Ann: Works at the harbour office.",
             "O(c=0.6) @Ann: Prefers trains to planes.", "W @Ben: Plays the cello on Sundays."],
            date="2026-03-01").facts]
        later = memory.retain(["W @Ann: Works at the city library now."],
                              date="2026-03-05").facts[0].id
        memory.supersede(first[1], later, reason="moved")
        memory.note(first[0], "asked twice", rev=0)
        memory.reflect(since="30d")
    day = root / "memory" / "2026-03-01.md"
    day.write_text(day.read_text().replace(f"green tea in the morning. ^{first[0]}",
                                           "black tea in the morning.")
                   + f"\n- W @Ann: A pasted copy ^{first[3]}\n- Q(c=9) broken bullet\n")
    day = root / "memory" / "2026-03-05.md"
    day.write_text(day.read_text().replace(f"library now. ^{later}", "library today.")
                   + "- W @Ben: Left a token ghp_x7Rk2mQ9vL4sT8wZ1bN6cY3dF5gH0jK2pA4e here.\n"
                   + "- W @Ann: Says hello\u200b\u202e there.\n")
    page = root / "bank" / "world.md"
    page.write_text(page.read_text() + "\n- [ ] Ask Ben about the cello\n")
    return root


def _status(client: Any, token: dict[str, str]) -> dict[str, Any]:
    answer = client.post("/v1/banks/main/status", headers=token, json={})
    assert answer.status_code == 200, answer.text
    return {k: v for k, v in answer.json().items() if k != "last_sync"}


def test_status_and_context_from_postgres_are_the_copys(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    from memfold.client.files import read_workspace

    monkeypatch.setenv("MEMFOLD_NOW", "2026-03-06T09:00:00")
    token = bearer(make_tenant(pg_db, "troubled").tokens["agent"])
    plain = imported(pg_db, "plain")
    with tempfile.TemporaryDirectory() as tmp:
        body = read_workspace(_troubled(Path(tmp) / "ws"))
        empty = Path(tmp) / "empty-cache"
        empty.mkdir()
        with app_client(pg_db, recall_from="copy") as copy, \
                app_client(pg_db, recall_from="postgres", cache=empty) as fresh:
            assert copy.post("/v1/banks/main/import", headers=token,
                             json=body).status_code == 200
            wanted = _status(copy, token)
            assert all(wanted[k] for k in ("link_warnings", "secrets", "parse_warnings",
                                           "hidden_text", "stale_pages"))
            assert len(wanted["link_warnings"]) == 4  # two copies, a pointer, a note
            assert wanted["freshness"]["stale"] == 0
            assert _status(fresh, token) == wanted
            assert _status(fresh, plain) == _status(copy, plain)
            for who in (plain, token):
                for budget in (60, None, 4000):
                    asked = {} if budget is None else {"budget": budget}
                    wanted = copy.post("/v1/banks/main/context", headers=who, json=asked)
                    assert wanted.status_code == 200, wanted.text
                    assert fresh.post("/v1/banks/main/context", headers=who,
                                      json=asked).json() == wanted.json()
            context = str(wanted.json())
            assert "Ask Ben about the cello" in context and "city library" in context
            assert list(empty.iterdir()) == []



def test_the_mcp_tools_read_from_postgres_as_from_the_copy(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each read tool at /mcp (`server.mcp.call`, the tools' own arguments: compact answers,
    budgets) answers from PostgreSQL what it answers from a copy, making none."""
    monkeypatch.setenv("MEMFOLD_NOW", "2026-03-17T08:00:00")  # one moment for both
    from memfold.server.app import Server
    from memfold.server.db import connect_pool
    from memfold.server.mcp import call
    from memfold.server.replica import Replica
    from server_support import caller

    token = imported(pg_db, "tools")
    with app_client(pg_db) as client:
        ids = _ids(client, token)
    asked = [("about", {"name": "Ida"}), ("about", {"name": "Peter", "full": True}),
             ("show", {"id": ids[0]}), ("history", {"id": ids[1]}), ("trace", {"id": ids[2]}),
             ("entities", {"limit": 3}), ("core_view", {}), ("context", {"budget": 300}),
             ("context", {"full": True}), ("show", {"id": "nosuchfact1"})]
    pool = connect_pool(pg_db.app, size=4)
    with tempfile.TemporaryDirectory() as tmp:
        answers = []
        for mode in ("copy", "postgres"):
            cache = Path(tmp) / mode
            cache.mkdir()
            replica = Replica(pool, cache, recall_from=mode, listen=False)
            try:
                server = Server(pool, replica)
                answers.append([call(server, caller("tools"), {"x-memfold-bank": "main"}, "",
                                     name, args) for name, args in asked])
            finally:
                replica.close()
            assert bool(list(cache.iterdir())) == (mode == "copy")
    pool.close()
    assert answers[0] == answers[1]
    assert [error for error, _ in answers[1]] == [False] * (len(asked) - 1) + [True]


def test_a_facts_history_is_read_from_its_event_rows(pg_db: Provisioned) -> None:
    """`event_facts` (schema 0008, kept by a trigger on `events`) holds each event's facts
    as the local index matches them, through writes and a purge's rewritten lines; with a
    long journal besides, a history reads its fact's index range, not the bank's events."""
    import psycopg

    from memfold.server import pgreads
    from memfold.server.db import connect_pool, tenant_tx

    token = imported(pg_db, "indexed")
    with app_client(pg_db, rate=0) as client:
        ids = _ids(client, token)
        _writes(client, token, ids)
        gone = client.post("/v1/banks/main/recall", headers=token,
                           json={"query": "honey market"}).json()["results"][0]["id"]
        assert client.post("/v1/banks/main/forget", headers=token,
                           json={"id": gone, "purge": True}).status_code == 200
    matched = ("SELECT seq FROM events WHERE bank_id = %s AND (record ->> 'id' = %s OR"
               " record ->> 'event' = 'supersede' AND record ->> 'by' = %s OR"
               " record ->> 'event' = 'retain' AND record -> 'ids' ? %s) ORDER BY seq")
    with psycopg.connect(pg_db.owner, autocommit=True) as owner:  # a long journal besides
        owner.execute("SELECT set_config('memfold.tenant', 'indexed', false)")
        owner.execute(
            "INSERT INTO events SELECT tenant_id, bank_id, 100000 + n, '{}', jsonb_build_object("
            "'event', (ARRAY['retain', 'supersede', 'use'])[n % 3 + 1], 'id', 'f' || n, 'by',"
            " 'g' || n, 'ids', jsonb_build_array('f' || n, 'h' || n)), 0 FROM banks,"
            " generate_series(1, 20000) n")
        owner.execute("ANALYZE")
    pool = connect_pool(pg_db.app, size=1)
    try:
        with tenant_tx(pool, "indexed") as conn:
            bank = int(conn.execute("SELECT bank_id FROM banks").fetchone()[0])
            seqs = pgreads.HISTORY.replace("SELECT e.record", "SELECT e.seq")
            for fact in [*ids, gone, "f3", "g4", "h5", "f0"]:
                wanted = [s for (s,) in conn.execute(matched, [bank, fact, fact, fact])]
                assert [s for (s,) in conn.execute(seqs, [bank, fact])] == wanted, fact
                if fact in ids:
                    assert [e.seq for e in pgreads.history(conn, bank, fact)] == wanted
            assert conn.execute("SELECT count(*) FROM event_facts").fetchone() == (
                conn.execute("SELECT count(*) FROM events e CROSS JOIN LATERAL"
                             " memfold_event_facts(e.record)").fetchone())
            plan = str(conn.execute("EXPLAIN " + pgreads.HISTORY, [bank, ids[0]]).fetchall())
            assert "event_facts_pkey" in plan and "Seq Scan" not in plan, plan
    finally:
        pool.close()
