"""Recall from PostgreSQL reads the open conflicts the judge journaled about its best results
as local recall does (memfold.recall.offered, memfold.server.pgreview): the newer fact of an
open conflict ranks first and the older says it is possibly outdated by it, a dismissed
conflict changes nothing, and the events are read once per bank version, in one statement,
from their index — not at all from a bank that holds no conflict."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from memfold.memory import Memory
from memfold.server.pgreview import ABOUT
from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, counted_recall, make_tenant

SWIM_OLD = "W @me: The kids' swimming lessons are on Saturday mornings at Fernhill pool."
SWIM_NEW = ("W @Fernhill-Pool: At Fernhill pool the kids' swimming lessons are on Sunday"
            " afternoons.")
QUESTIONS = ("When are the kids' swimming lessons?", "When does the book club meet?",
             "Fernhill pool", "who sails on the lake", "swimming lessons Sunday")
READS_EVENTS = "FROM events WHERE bank_id = %s AND record ->> 'event'"


def _retain(memory: Memory, day: str, bullet: str) -> str:
    [fact] = memory.retain([bullet], date=day, now=f"{day}T00:00:00").facts
    return fact.id


def _workspace(root: Path) -> dict[str, str]:
    """A bank with an open conflict (the judge would not retire the older lessons: written
    under another entity) and a conflict a person dismissed (the book club)."""
    Memory.init(root)
    with Memory.open(root, watch=False) as memory:
        made = {"swim_old": _retain(memory, "2024-03-01", SWIM_OLD),
                "swim_new": _retain(memory, "2025-03-01", SWIM_NEW),
                "club_old": _retain(memory, "2024-04-01", "W @me: The book club meets on"
                                    " Monday evenings at the Elm Street library."),
                "club_new": _retain(memory, "2025-04-01", "W @Elm-Street-Library: At the Elm"
                                    " Street library the book club meets on Thursday"
                                    " mornings.")}
        _retain(memory, "2024-05-02", "W @Ann: Sails on the lake every Sunday.")
        [club] = [i for i in memory.review().items if i.older.id == made["club_old"]]
        memory.reject(club.id)
        assert {i.older.id for i in memory.review().items} == {made["swim_old"]}
    return made


def _hits(results: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(h["id"], h["source"], h["score"], h.get("status"), h["possibly_outdated_by"])
            for h in results]


def test_a_bank_with_an_open_conflict_ranks_through_postgres_as_locally(
        pg_db: Provisioned) -> None:
    from memfold.client.files import read_workspace

    token = bearer(make_tenant(pg_db, "offered").tokens["agent"])
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "ws"
        made = _workspace(root)
        with Memory.open(root, watch=False) as memory:
            local = {q: _hits([h.to_dict() for h in memory.recall(q).hits]) for q in QUESTIONS}
        with app_client(pg_db, recall_from="copy") as copy:
            assert copy.post("/v1/banks/main/import", headers=token,
                             json=read_workspace(root)).status_code == 200
        with app_client(pg_db, recall_from="postgres") as replica:
            got = {q: _hits(replica.post("/v1/banks/main/recall", headers=token,
                                         json={"query": q}).json()["results"])
                   for q in QUESTIONS}
    assert got == local
    swim = got["When are the kids' swimming lessons?"]
    assert [h[0] for h in swim[:2]] == [made["swim_new"], made["swim_old"]]
    assert swim[1][4] == [made["swim_new"]]  # the older: possibly outdated by the newer
    club = got["When does the book club meet?"]
    # dismissed: neither is flagged (their order is recall's, as for any two facts)
    assert {h[0] for h in club[:2]} == {made["club_old"], made["club_new"]}
    assert not any(h[4] for h in club)


def _recall(pool: Any, tenant: str, query: str) -> tuple[list[tuple[Any, ...]], list[str]]:
    """A recall from PostgreSQL: its hits and the statements its ranking ran."""
    hits, statements = counted_recall(pool, tenant, query)
    return [(h.fact.id, h.score, h.possibly_outdated_by) for h in hits], statements


def test_a_conflict_journaled_by_a_write_is_read_once_per_bank_version(
        pg_db: Provisioned) -> None:
    import psycopg

    from memfold.server.db import connect_pool

    token = bearer(make_tenant(pg_db, "judged").tokens["agent"])
    question = "When are the kids' swimming lessons?"

    def retain(client: Any, bullet: str, day: str) -> str:
        made = client.post("/v1/banks/main/retain", headers=token,
                           json={"bullets": [bullet], "date": day})
        assert made.status_code == 200, made.text
        return str(made.json()["facts"][0]["id"])

    pool = connect_pool(pg_db.app, size=1)
    try:
        with app_client(pg_db, recall_from="copy") as copy:
            old = retain(copy, SWIM_OLD, "2024-03-01")
            retain(copy, "W @Ann: Sails on the lake every Sunday.", "2024-05-02")
            before, statements = _recall(pool, "judged", question)
            # a bank that holds no conflict: no event is read
            assert not any(READS_EVENTS in s for s in statements)
            assert not any(h[2] for h in before)
            new = retain(copy, SWIM_NEW, "2025-03-01")  # the judge journals a conflict
            wanted = copy.post("/v1/banks/main/recall", headers=token,
                               json={"query": question}).json()["results"]
        first, statements = _recall(pool, "judged", question)
        assert [h[0] for h in first[:2]] == [new, old] and first[1][2] == (new,)
        assert [h[0] for h in first] == [h["id"] for h in wanted]
        assert sum(READS_EVENTS in s for s in statements) == 1  # every id in one statement
        again, statements = _recall(pool, "judged", question)
        assert again == first and not any(READS_EVENTS in s for s in statements)
    finally:
        pool.close()
    with psycopg.connect(pg_db.owner) as conn:  # read from their index, not the table whole
        conn.execute("SELECT set_config('memfold.tenant', 'judged', false)")
        conn.execute("SET enable_seqscan = off")
        from memfold.server.pgreview import ANY_CONFLICT, EVENTS

        plan = "\n".join(r[0] for r in conn.execute(
            f"EXPLAIN {EVENTS}", [1, [old], 1]).fetchall())  # noqa: S608
        # the events about the facts through event_facts; the bank's resets from their own
        # index (schema 0013), not from every review event of the bank (`events_reviewed`)
        assert "events_resets" in plan and "events_reviewed" not in plan, plan
        assert "Seq Scan" not in plan, plan
        plan = "\n".join(r[0] for r in conn.execute(
            f"EXPLAIN SELECT {ANY_CONFLICT}", [1]).fetchall())  # noqa: S608
        assert "events_reviewed" in plan, plan


# the statement pgreview read the events with before schema 0008: by `record ->> 'id'`,
# which row-level security keeps PostgreSQL from narrowing by an index
OLD_EVENTS = f"""
SELECT seq, record FROM events WHERE bank_id = %s AND record ->> 'event' IN ({ABOUT})
    AND record ->> 'id' = ANY(%s)
UNION ALL
SELECT seq, record FROM events WHERE bank_id = %s AND record ->> 'event' = 'reset'
ORDER BY seq
"""  # noqa: S608 - constants only


def test_review_events_are_read_through_event_facts_as_the_old_statement_read_them(
        pg_db: Provisioned) -> None:
    """On a bank with an open and a dismissed conflict and a long journal of review-kind
    events besides (other facts' and, under a supersede's `by` or a retain's `ids`, these
    facts'), the events read through `event_facts` are the old statement's, row for row, and
    the facts' events are one index range each, not the bank's review-kind events (here,
    0.02-0.2 ms against the old statement's 4.7-6.0 ms for the facts' events)."""
    import psycopg

    from memfold.client.files import read_workspace
    from memfold.server import pgreview
    from memfold.server.db import connect_pool, tenant_tx

    token = bearer(make_tenant(pg_db, "parity").tokens["agent"])
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "ws"
        made = _workspace(root)
        with app_client(pg_db, recall_from="copy") as copy:
            assert copy.post("/v1/banks/main/import", headers=token,
                             json=read_workspace(root)).status_code == 200
    with psycopg.connect(pg_db.owner, autocommit=True) as owner:
        owner.execute("SELECT set_config('memfold.tenant', 'parity', false)")
        owner.execute(  # review-kind events of other facts, some naming these facts too
            "INSERT INTO events SELECT tenant_id, bank_id, 100000 + n, '{}', jsonb_build_object("
            "'event', (ARRAY['conflict', 'supersede', 'dismiss', 'retain', 'reset'])[n %% 5 + 1],"
            " 'id', 'f' || n, 'by', CASE WHEN n %% 500 = 1 THEN %s ELSE 'g' || n END,"
            " 'ids', jsonb_build_array('f' || n, CASE WHEN n %% 500 = 3 THEN %s ELSE 'h' || n"
            " END),"
            " 'seqs', jsonb_build_array(n)), 0 FROM banks, generate_series(1, 20000) n",
            [made["swim_old"], made["club_old"]])
        owner.execute("ANALYZE")
    asked = [[made["swim_old"]], [made["club_old"], made["swim_new"]], list(made.values()),
             ["f7", "f8", made["club_new"]], ["nosuchfact1"]]
    pool = connect_pool(pg_db.app, size=1)
    try:
        with tenant_tx(pool, "parity") as conn:
            bank = int(conn.execute("SELECT bank_id FROM banks").fetchone()[0])
            for ids in asked:
                old = conn.execute(OLD_EVENTS, [bank, ids, bank]).fetchall()
                assert conn.execute(pgreview.EVENTS, [bank, ids, bank]).fetchall() == old, ids
            about = [r for r in conn.execute(pgreview.EVENTS, [bank, list(made.values()), bank])
                     if r[1]["event"] != "reset"]
            # a conflict is about its older fact
            assert {r[1]["id"] for r in about} == {made["swim_old"], made["club_old"]}
            for ids in asked:  # each fact's range, then each event by its key
                plan = str(conn.execute("EXPLAIN " + pgreview.EVENTS.split("UNION ALL")[0],
                                        [bank, ids]).fetchall())
                assert "event_facts_pkey" in plan and "events_pkey" in plan, plan
                assert "Seq Scan" not in plan and "events_reviewed" not in plan, plan
    finally:
        pool.close()
