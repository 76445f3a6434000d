"""Row-level security binds every tenant's rows in PostgreSQL, whatever the SQL forgets.

The server's isolation does not rest on each query's WHERE clause: every table that holds
`tenant_id` has row-level security enabled and forced, its policies read the transaction's
`memfold.tenant` (SET LOCAL, so it ends with the transaction), and `memfold serve` refuses a
role that row-level security would not bind.  These tests check each of those on a real
PostgreSQL, with two tenants' data in every table.
"""

from __future__ import annotations

import base64
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from conftest import ROOT
from memfold_bench.pg_cluster import Cluster, Provisioned, free_port
from server_support import Tenant, app_client, bearer, make_tenant

TABLES = ("tenants", "banks", "tokens", "files", "events", "facts", "vectors", "recall_facts",
          "recall_links", "recall_aliases", "recall_files", "recall_life", "recall_stats",
          "recall_terms", "recall_postings", "event_facts", "reflect_undo")
NAMES = ("acme", "globex")
SRC = ROOT / "src"


@dataclass
class Two:
    """Two tenants with data in every table, and a superuser URL to count rows by."""

    db: Provisioned
    root: str  # a superuser on the same database: row-level security does not bind it
    tenants: dict[str, Tenant]


def _database(db: Provisioned) -> str:
    return urlsplit(db.app).path.lstrip("/")


def _connect(url: str) -> Any:
    import psycopg

    return psycopg.connect(url)


def _counts(root: str, table: str) -> dict[str, int]:
    """Rows per tenant in `table`, as a superuser sees them (all of them)."""
    with _connect(root) as conn:
        rows = conn.execute(f"SELECT tenant_id, count(*) FROM {table} GROUP BY tenant_id"
                            ).fetchall()
    return {tenant: count for tenant, count in rows}


@pytest.fixture(scope="module")
def two(pg_cluster: Cluster, pg_db: Provisioned) -> Two:
    """acme and globex, each with a bank holding facts, journal events, files and tokens,
    written through the REST app as an agent would."""
    tenants = {name: make_tenant(pg_db, name, banks=("main", "pages"),
                                 tokens={f"{name}-agent": (("read", "write"), None),
                                         f"{name}-reader": (("read",), None)})
               for name in NAMES}
    from memfold.embed.base import FakeEmbedder

    with app_client(pg_db, rate=0, embedder=FakeEmbedder) as client:  # vectors too
        for name, tenant in tenants.items():
            writer = bearer(tenant.tokens[f"{name}-agent"])
            for n in range(3):
                made = client.post("/v1/banks/main/retain", headers=writer, json={
                    "bullets": [f"W @{name.title()}: The {name} office keeps ledger {n}."]})
                assert made.status_code == 200, made.text
            core = client.post("/v1/banks/main/core_append", headers=writer,
                               json={"block": "Project", "text": f"{name} core note"})
            assert core.status_code == 200, core.text
            found = client.post("/v1/banks/main/recall", headers=writer,
                                json={"query": "ledger", "mode": "semantic"})
            assert found.status_code == 200, found.text
            ran = client.post("/v1/banks/main/reflect", headers=writer,
                              json={"dry_run": False})  # reflect_undo's row too
            assert ran.status_code == 200 and ran.json()["pages"], ran.text
            page = base64.b64encode(f"---\naliases: [{name}-hq]\n---\n# {name.title()}\n\n"
                                    f"- W @{name.title()}: Has an office.\n".encode()).decode()
            loaded = client.post("/v1/banks/pages/import", headers=writer, json={
                "files": [{"path": f"bank/entities/{name.title()}.md", "content": page}],
                "journal": []})  # an entity page with an alias: recall_aliases rows too
            assert loaded.status_code == 200, loaded.text
    found = Two(pg_db, pg_cluster.url(database=_database(pg_db)), tenants)
    for table in TABLES:  # the premise: every table holds rows of both tenants
        assert set(_counts(found.root, table)) == set(NAMES), table
    return found


# -- the schema --------------------------------------------------------------------------------

def test_every_tenant_table_is_forced_under_row_level_security(two: Two) -> None:
    """Every public table with a tenant_id column has RLS enabled and forced and a policy
    that reads memfold.tenant; the only table without tenant_id is the schema version."""
    with _connect(two.db.owner) as conn:
        tables = conn.execute(
            "SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity, "
            "EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid "
            "        AND a.attname = 'tenant_id' AND NOT a.attisdropped) "
            "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')").fetchall()
        policies = conn.execute(
            "SELECT c.relname, p.polname, p.polcmd, p.polpermissive, "
            "pg_get_expr(p.polqual, p.polrelid), pg_get_expr(p.polwithcheck, p.polrelid) "
            "FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid").fetchall()
        app = conn.execute("SELECT rolsuper, rolbypassrls, rolcanlogin FROM pg_roles "
                           "WHERE rolname = 'memfold_app'").fetchone()
    tenant_tables = {name for name, _, _, has_tenant in tables if has_tenant}
    assert tenant_tables == set(TABLES)
    assert {name for name, _, _, has_tenant in tables if not has_tenant} == {
        "memfold_schema_version"}
    for name, enabled, forced, has_tenant in tables:
        if has_tenant:
            assert enabled and forced, f"{name}: rowsecurity={enabled} force={forced}"
    by_table: dict[str, list[tuple[Any, ...]]] = {}
    for table, *policy in policies:
        by_table.setdefault(table, []).append(tuple(policy))
    for table in TABLES:
        assert by_table.get(table), f"{table} has no policy"
        rows = {name: (cmd, qual, check) for name, cmd, _, qual, check in by_table[table]}
        cmd, qual, check = rows["tenant_rows"]
        assert cmd == "*"  # every command: SELECT, INSERT, UPDATE, DELETE
        for expression in (qual, check):
            assert re.fullmatch(r"\(tenant_id = current_setting\('memfold\.tenant'::text, "
                                r"true\)\)", expression), expression
        for name, (_, qual, _) in rows.items():  # no policy lets rows through unconditioned
            assert "current_setting('memfold." in qual, (table, name, qual)
    assert set(by_table) == set(TABLES)
    assert by_table["tokens"] and {p[0] for p in by_table["tokens"]} == {"tenant_rows",
                                                                          "token_by_hash"}
    assert app == (False, False, False)


# -- reading -----------------------------------------------------------------------------------

@pytest.mark.parametrize("role", ["app", "owner"])
def test_without_a_tenant_every_table_reads_empty(two: Two, role: str) -> None:
    """Connected as the server's role (or the owner, bound by FORCE) with memfold.tenant
    never set, or set empty, every tenant table returns no rows, though both tenants have
    rows in all of them."""
    url = two.db.app if role == "app" else two.db.owner
    with _connect(url) as conn:
        assert conn.execute("SELECT current_setting('memfold.tenant', true)"
                            ).fetchone() == (None,)
        for table in TABLES:
            assert conn.execute(f"SELECT * FROM {table}").fetchall() == [], table
        conn.execute("SELECT set_config('memfold.tenant', '', true)")
        for table in TABLES:
            assert conn.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,), table
        conn.rollback()


@pytest.mark.parametrize("tenant", NAMES)
def test_a_query_without_where_sees_only_its_tenant(two: Two, tenant: str) -> None:
    """Inside a transaction scoped to one tenant, `SELECT *` with no WHERE clause returns
    exactly that tenant's rows of each table: all of them, and none of the other's."""
    with _connect(two.db.app) as conn, conn.transaction():
        conn.execute("SELECT set_config('memfold.tenant', %s, true)", [tenant])
        for table in TABLES:
            cursor = conn.execute(f"SELECT * FROM {table}")
            column = [d.name for d in cursor.description or ()].index("tenant_id")
            rows = cursor.fetchall()
            assert {row[column] for row in rows} == {tenant}, table
            assert len(rows) == _counts(two.root, table)[tenant], table
    other = next(name for name in NAMES if name != tenant)
    with _connect(two.db.app) as conn, conn.transaction():
        conn.execute("SELECT set_config('memfold.tenant', %s, true)", [tenant])
        text = " ".join(str(row) for table in ("facts", "files", "events")
                        for row in conn.execute(f"SELECT * FROM {table}").fetchall())
    assert f"{tenant} office" in text and f"{other} office" not in text


def test_a_token_hash_alone_shows_that_token_row_and_nothing_else(two: Two) -> None:
    """How a request finds its tenant: with only memfold.token_hash set, the one token row
    with that hash is visible, and no other row of any table."""
    from memfold.server.admin import hash_token

    secret = two.tenants["acme"].tokens["acme-agent"]
    with _connect(two.db.app) as conn, conn.transaction():
        conn.execute("SELECT set_config('memfold.token_hash', %s, true)", [hash_token(secret)])
        assert conn.execute("SELECT tenant_id, name FROM tokens").fetchall() == [
            ("acme", "acme-agent")]
        for table in ("tenants", "banks", "files", "events", "facts"):
            assert conn.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,), table


# -- writing -----------------------------------------------------------------------------------

ROWS = {  # a row of each table for tenant_id = %s (bank_id filled in per test)
    "tenants": ("INSERT INTO tenants (tenant_id) VALUES (%(t)s)", False),
    "banks": ("INSERT INTO banks (tenant_id, name) VALUES (%(t)s, 'stolen')", False),
    "tokens": ("INSERT INTO tokens (tenant_id, name, hash, scopes) "
               "VALUES (%(t)s, 'stolen', '\\x00'::bytea, ARRAY['read'])", False),
    "files": ("INSERT INTO files (tenant_id, bank_id, path, content, sha256, version) "
              "VALUES (%(t)s, %(bank)s, 'memory/stolen.md', 'x', 'x', 99)", True),
    "events": ("INSERT INTO events (tenant_id, bank_id, seq, line, record, version) "
               "VALUES (%(t)s, %(bank)s, 9999, '{}', '{}', 99)", True),
    "facts": ("INSERT INTO facts (tenant_id, bank_id, path, line, end_line, fact_id, kind, "
              "entities, params, content, raw) VALUES (%(t)s, %(bank)s, 'memory/stolen.md', "
              "1, 1, 'stolen00', 'world', '{}', '{}', 'x', 'x')", True),
    "vectors": ("INSERT INTO vectors (tenant_id, bank_id, embedder, key, vector) "
                "VALUES (%(t)s, %(bank)s, 'stolen', '\\x00'::bytea, '\\x00'::bytea)", True),
    "recall_facts": ("INSERT INTO recall_facts (tenant_id, bank_id, path, fact_id, line, "
                     "end_line, kind, content, entities, explicit, terms, length) VALUES "
                     "(%(t)s, %(bank)s, 'memory/stolen.md', 'stolen00', 1, 1, 'world', 'x', "
                     "'[]', 0, '', 0)", True),
    "recall_links": ("INSERT INTO recall_links (tenant_id, bank_id, fact, key, name) SELECT "
                     "%(t)s, %(bank)s, rowid, 'stolen', 'stolen' FROM recall_facts LIMIT 1",
                     True),
    "recall_aliases": ("INSERT INTO recall_aliases VALUES (%(t)s, %(bank)s, 'bank/x.md', 99, "
                       "'stolen', 'stolen', 'stolen')", True),
    "recall_files": ("INSERT INTO recall_files VALUES (%(t)s, %(bank)s, 'memory/stolen.md', 0)",
                     True),
    "recall_life": ("INSERT INTO recall_life (tenant_id, bank_id, id, state) VALUES "
                    "(%(t)s, %(bank)s, 'stolen00', '{}')", True),
    "recall_stats": ("INSERT INTO recall_stats VALUES (%(t)s, %(bank)s, 0, 0, 0)", True),
    "recall_terms": ("INSERT INTO recall_terms VALUES (%(t)s, %(bank)s, 'stolen', 1)", True),
    "recall_postings": ("INSERT INTO recall_postings VALUES (%(t)s, %(bank)s, 'stolen', 1, 1, "
                        "1)", True),
    "event_facts": ("INSERT INTO event_facts VALUES (%(t)s, %(bank)s, 'stolen00', 9999)", True),
    "reflect_undo": ("INSERT INTO reflect_undo VALUES (%(t)s, %(bank)s, 99, '{}'::bytea)", True),
}


def _bank_id(two: Two, tenant: str) -> int:
    with _connect(two.root) as conn:
        row = conn.execute("SELECT bank_id FROM banks WHERE tenant_id = %s AND name = 'main'",
                           [tenant]).fetchone()
    assert row is not None
    return int(row[0])


def _refused(url: str, tenant: str, statement: str, params: dict[str, Any]) -> Any:
    """Run `statement` in a transaction scoped to `tenant`; the error it raises."""
    import psycopg

    with _connect(url) as conn, pytest.raises(psycopg.Error) as caught, conn.transaction():
        conn.execute("SELECT set_config('memfold.tenant', %s, true)", [tenant])
        conn.execute(statement, params)
    return caught.value


@pytest.mark.parametrize("table", TABLES)
def test_a_cross_tenant_insert_is_refused_by_with_check(two: Two, table: str) -> None:
    """acme's transaction inserting a row that says tenant_id = globex is refused by the
    policy's WITH CHECK (SQLSTATE 42501), for the server's role on the tables it may write
    and for the owner on every table; nothing of it is stored."""
    statement, app_writes = ROWS[table]
    before = _counts(two.root, table)
    params = {"t": "globex", "bank": _bank_id(two, "globex")}
    for url in ([two.db.app] if app_writes else []) + [two.db.owner]:
        error = _refused(url, "acme", statement, params)
        assert error.sqlstate == "42501"
        assert "row-level security" in str(error), str(error)
    assert _counts(two.root, table) == before


def test_moving_a_row_to_another_tenant_is_refused(two: Two) -> None:
    """UPDATE ... SET tenant_id = the other tenant fails WITH CHECK too (42501); UPDATE and
    DELETE aimed at the other tenant's rows touch nothing, with no error to learn from."""
    for url, table in ((two.db.app, "banks"), (two.db.app, "facts"), (two.db.owner, "tokens")):
        error = _refused(url, "acme", f"UPDATE {table} SET tenant_id = %(t)s", {"t": "globex"})
        assert error.sqlstate == "42501", (table, error)
    before = {table: _counts(two.root, table) for table in ("facts", "banks")}
    with _connect(two.db.app) as conn, conn.transaction():
        conn.execute("SELECT set_config('memfold.tenant', 'acme', true)")
        assert conn.execute("UPDATE banks SET head = head + 100 WHERE tenant_id = 'globex'"
                            ).rowcount == 0
        assert conn.execute("DELETE FROM facts WHERE tenant_id = 'globex'").rowcount == 0
        assert conn.execute("UPDATE facts SET content = 'x' WHERE bank_id = %s",
                            [_bank_id(two, "globex")]).rowcount == 0
    assert {table: _counts(two.root, table) for table in ("facts", "banks")} == before


# -- the pool ----------------------------------------------------------------------------------

def test_set_local_does_not_leak_across_pooled_connections(two: Two) -> None:
    """1,000 transactions alternating between the two tenants, from four threads through a
    pool of two connections (some of them failing half-way): each sees only its own tenant's
    rows in every table, and a connection handed back holds no tenant."""
    from memfold.server.db import connect_pool, tenant_tx

    expected = {tenant: {table: _counts(two.root, table)[tenant] for table in TABLES}
                for tenant in NAMES}
    pool = connect_pool(two.db.app, size=2)
    seen: list[str] = []  # a description of each wrong sight; must stay empty
    pids: set[int] = set()
    done = [0]
    lock = threading.Lock()
    union = " UNION ALL ".join(f"SELECT '{t}', tenant_id, count(*) FROM {t} GROUP BY tenant_id"
                               for t in TABLES)

    def one(n: int) -> None:
        tenant = NAMES[n % 2]
        try:
            with tenant_tx(pool, tenant) as conn:
                pid = conn.execute("SELECT pg_backend_pid()").fetchone()
                rows = conn.execute(union).fetchall()
                if n % 7 == 0:  # a request that fails mid-transaction rolls back
                    conn.execute("SELECT 1 / 0")
        except Exception as exc:
            if n % 7 != 0 or "division by zero" not in str(exc):
                raise
        counts = {table: count for table, owner, count in rows if owner == tenant}
        wrong = [f"{n}: {tenant} saw {owner}'s {table}" for table, owner, _ in rows
                 if owner != tenant]
        if counts != expected[tenant]:
            wrong.append(f"{n}: {tenant} saw {counts}, not {expected[tenant]}")
        with lock:
            seen.extend(wrong)
            pids.add(int(pid[0]) if pid else -1)
            done[0] += 1

    def worker(start: int) -> None:
        for n in range(start, 1000, 4):
            one(n)

    try:
        with pool.connection(), pool.connection():
            pass  # both connections open before the threads start
        threads = [threading.Thread(target=worker, args=(s,)) for s in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert done[0] == 1000
        assert seen == []
        assert len(pids) == 2  # both pooled connections were reused, again and again
        for _ in range(4):  # whichever connection the pool hands out next: no tenant on it
            with pool.connection() as conn:
                setting = conn.execute("SELECT current_setting('memfold.tenant', true), "
                                       "current_setting('memfold.token_hash', true)"
                                       ).fetchone()
                assert setting in (("", ""), (None, None))
                assert conn.execute("SELECT count(*) FROM facts").fetchone() == (0,)
                conn.rollback()
    finally:
        pool.close()


def test_rest_requests_alternating_tenants_through_a_small_pool(two: Two) -> None:
    """400 REST requests (recall and export) alternating acme and globex on one app whose
    pool has two connections: every answer holds its own tenant's facts, never the other's."""
    from starlette.testclient import TestClient

    from memfold.server.app import Limits, Server, build_app
    from memfold.server.db import connect_pool
    from memfold.server.replica import Replica

    pool = connect_pool(two.db.app, size=2)
    cache = Path(tempfile.mkdtemp(prefix="memfold-rls-"))
    replica = Replica(pool, cache)
    leaks: list[int] = []
    try:
        with TestClient(build_app(Server(pool, replica, Limits(rate=0)))) as client:
            for n in range(400):
                tenant, other = NAMES[n % 2], NAMES[(n + 1) % 2]
                headers = bearer(two.tenants[tenant].tokens[f"{tenant}-reader"])
                if n % 4 == 3:
                    answer = client.get("/v1/banks/main/export", headers=headers)
                    text = " ".join([base64.b64decode(f["content"]).decode()
                                     for f in answer.json()["files"]]
                                    + answer.json()["journal"])
                else:
                    answer = client.post("/v1/banks/main/recall", headers=headers,
                                         json={"query": "office ledger"})
                    text = answer.text
                assert answer.status_code == 200, answer.text
                assert f"{tenant} office" in text
                if f"{other} office" in text or f"{other}-agent" in text:
                    leaks.append(n)
    finally:
        replica.close()
        pool.close()
        shutil.rmtree(cache, ignore_errors=True)
    assert leaks == []


# -- the role ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def bypass(two: Two, pg_cluster: Cluster) -> Iterator[str]:
    """The URL of a login role in memfold_app with BYPASSRLS, dropped afterwards."""
    role = f"memfold_bypass_{os.getpid()}"
    with _connect(two.root) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN BYPASSRLS PASSWORD 'memfold' IN ROLE memfold_app")
        conn.commit()
    try:
        yield pg_cluster.url(role, _database(two.db), "memfold")
    finally:
        with _connect(two.root) as conn:
            conn.execute(f"DROP ROLE {role}")
            conn.commit()


def test_check_role_refuses_superusers_and_bypassrls(two: Two, bypass: str) -> None:
    from memfold.server.db import check_role, connect_pool

    for url, what in ((two.root, "a superuser"), (bypass, "a BYPASSRLS role")):
        pool = connect_pool(url, size=1)
        try:
            reason = check_role(pool)
        finally:
            pool.close()
        assert reason is not None and what in reason and "row-level security" in reason
    pool = connect_pool(two.db.app, size=1)  # bound by row-level security: accepted
    try:
        assert check_role(pool) is None
    finally:
        pool.close()
    pool = connect_pool(two.db.owner, size=1)  # bound too, but it could turn RLS off
    try:
        reason = check_role(pool)
    finally:
        pool.close()
    assert reason is not None and "owns memfold's tables" in reason
    with _connect(bypass) as conn:  # the reason it is refused: it would see every tenant
        assert {row[0] for row in conn.execute("SELECT tenant_id FROM tenants")} == set(NAMES)


@pytest.mark.parametrize("who", ["superuser", "bypassrls"])
def test_serve_refuses_a_role_rls_does_not_bind(two: Two, bypass: str, who: str) -> None:
    """`memfold serve` on such a role exits 1 at once with one line, before listening."""
    url = two.root if who == "superuser" else bypass
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    env.pop("MEMFOLD_DEBUG", None)
    done = subprocess.run([sys.executable, "-m", "memfold", "serve", "--db", url,
                           "--port", str(port)], capture_output=True, text=True, env=env,
                          timeout=60)
    assert done.returncode == 1, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("memfold: error: the database role")
    assert ("a superuser" if who == "superuser" else "a BYPASSRLS role") in lines[0]
    assert "Traceback" not in done.stderr and done.stdout == ""


@pytest.mark.parametrize("table", ("files", "events", "facts", "vectors", "recall_facts",
                                   "recall_aliases", "recall_files", "recall_life",
                                   "recall_terms", "recall_postings", "event_facts",
                                   "reflect_undo"))
def test_a_row_cannot_name_another_tenants_bank(two: Two, table: str) -> None:
    """acme's row (its own tenant_id) pointing at globex's bank is refused by the foreign key
    on (tenant_id, bank_id), exactly as a bank id that exists nowhere: no oracle."""
    statement, _ = ROWS[table]
    before = _counts(two.root, table)
    theirs = _refused(two.db.app, "acme", statement,
                      {"t": "acme", "bank": _bank_id(two, "globex")})
    nowhere = _refused(two.db.app, "acme", statement, {"t": "acme", "bank": 987654})
    assert theirs.sqlstate == nowhere.sqlstate == "23503"
    shown = re.sub(r"\d+", "N", str(theirs).split("DETAIL")[0])
    assert shown == re.sub(r"\d+", "N", str(nowhere).split("DETAIL")[0])
    assert _counts(two.root, table) == before
