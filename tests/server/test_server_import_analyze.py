"""An import leaves the tables it filled analysed (memfold.server.exchange.gather_statistics,
`memfold_analyze()` of schema 0012): the recalls after it are planned on statistics of the
tables as they are, not as they were before the import — whether the import was stored from
PostgreSQL, through a copy, or merged into a bank that held facts.  The serving role itself
may not analyse the tables it does not own; the function is the one thing it may run."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from memfold_bench.pg_cluster import Cluster, Provisioned
from server_support import app_client, bearer, make_tenant, new_database

FILLED = ("files", "events", "facts", "recall_facts", "recall_links", "recall_files",
          "recall_life", "recall_stats", "recall_terms", "recall_postings")


def _notes(first_day: int, days: int) -> dict[str, Any]:
    """Daily logs with no journal: a few facts a day about a handful of people."""
    files = []
    for n in range(first_day, first_day + days):
        text = (f"# 2026-04-{n:02d}\n\n## Retain\n"
                f"- W @Mira: Walked the dog along the canal on day {n}.\n"
                f"- B @Tomas: Fixed the bakery's oven, visit number {n}.\n"
                f"- O(c=0.7) @Mira: Prefers the early train on weekdays {n}.\n")
        files.append({"path": f"memory/2026-04-{n:02d}.md",
                      "content": base64.b64encode(text.encode()).decode()})
    return {"files": files, "journal": []}


def _analysed(db: Provisioned) -> dict[str, Any]:
    """Each filled table's last manual ANALYZE (autovacuum's is another column)."""
    import psycopg

    with psycopg.connect(db.owner) as conn:
        rows = conn.execute("SELECT relname, last_analyze FROM pg_stat_user_tables "
                            "WHERE relname = ANY(%s)", [list(FILLED)]).fetchall()
    return {str(name): when for name, when in rows}


@pytest.mark.parametrize("recall_from", ["postgres", "copy"])
def test_a_whole_import_leaves_its_tables_analysed(pg_cluster: Cluster,
                                                   recall_from: str) -> None:
    db = new_database(pg_cluster)
    token = bearer(make_tenant(db, "acme").tokens["agent"])
    assert set(_analysed(db).values()) == {None}
    with app_client(db, recall_from=recall_from) as client:
        got = client.post("/v1/banks/main/import", headers=token, json=_notes(1, 12))
        assert got.status_code == 200, got.text
        assert got.json()["stored"] == "whole"
        analysed = _analysed(db)
        assert sorted(analysed) == sorted(FILLED)
        assert None not in analysed.values(), analysed
        found = client.post("/v1/banks/main/recall", headers=token,
                            json={"query": "oven bakery Tomas", "k": 3}).json()["results"]
        assert found and "oven" in found[0]["content"]


def test_a_merged_import_analyses_again_and_one_adding_nothing_does_not(
        pg_cluster: Cluster) -> None:
    db = new_database(pg_cluster)
    token = bearer(make_tenant(db, "acme").tokens["agent"])
    with app_client(db) as client:
        assert client.post("/v1/banks/main/import", headers=token,
                           json=_notes(1, 3)).status_code == 200
        first = _analysed(db)
        merged = client.post("/v1/banks/main/import", headers=token, json=_notes(1, 9))
        assert merged.json()["stored"] == "merged" and merged.json()["added"]
        second = _analysed(db)
        assert all(second[t] > first[t] for t in ("files", "recall_facts", "recall_postings"))
        again = client.post("/v1/banks/main/import", headers=token, json=_notes(1, 9))
        assert again.json()["added"] == []
        assert _analysed(db) == second


def test_the_serving_role_runs_the_analysis_only_through_the_function(
        pg_db: Provisioned) -> None:
    import psycopg

    with psycopg.connect(pg_db.app) as conn:
        notices: list[str] = []
        conn.add_notice_handler(lambda diag: notices.append(str(diag.message_primary)))
        conn.execute("ANALYZE recall_facts")  # not the owner: PostgreSQL skips the table
        assert any("skipping" in n for n in notices), notices
        conn.execute("SELECT memfold_analyze()")
    with psycopg.connect(pg_db.owner) as conn:
        owner = conn.execute("SELECT proowner::regrole::text, prosecdef FROM pg_proc "
                             "WHERE proname = 'memfold_analyze'").fetchone()
        tables = conn.execute("SELECT tableowner FROM pg_tables WHERE tablename = "
                              "'recall_facts'").fetchone()
        assert owner is not None and tables is not None
        assert owner == (tables[0], True)
        public = conn.execute("SELECT has_function_privilege('public', "
                              "'memfold_analyze()', 'EXECUTE')").fetchone()
        assert public == (False,)


def test_an_import_from_postgres_analyses_before_it_judges(
        pg_cluster: Cluster, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its judging reads the rows just stored: planned on statistics that include them,
    gathered in the import's own transaction once they are stored."""
    import psycopg

    from memfold.server import pgimport

    db = new_database(pg_cluster)
    token = bearer(make_tenant(db, "acme").tokens["agent"])
    sent: list[tuple[str, int]] = []
    real = psycopg.Connection.execute

    def execute(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        sent.append((str(query), self.info.backend_pid))
        return real(self, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.Connection, "execute", execute)
    with app_client(db) as client:
        got = client.post("/v1/banks/main/import", headers=token, json=_notes(1, 6))
    assert got.status_code == 200 and got.json()["judged"] > 0, got.text
    analysed = [n for n, (sql, _) in enumerate(sent) if sql == pgimport.ANALYZE]
    judging = next(n for n, (sql, _) in enumerate(sent) if sql == pgimport._TRACKED)
    assert len(analysed) == 2  # in the import's transaction, and after it
    assert analysed[0] < judging < analysed[1]
    assert sent[analysed[0]][1] == sent[judging][1]  # the import's connection
