"""The server's admin commands against a real PostgreSQL: `memfold db upgrade|version`,
`memfold server tenant|bank|token ...`, and `memfold serve`'s refusal of a role that
row-level security would not bind.

They run as an operator runs them, with the owner's URL in --db; each token they make is
then tried against the app, and each refusal is one line with exit status 2 (bad input or
usage) or 1 (the database or the role).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from urllib.parse import urlsplit

import psycopg
import pytest
from click.testing import CliRunner, Result
from test_cli import one_error_line

from memfold.cli.main import cli
from memfold.server import migrate
from memfold.server.db import tenant_tx
from memfold_bench.pg_cluster import Cluster, Provisioned, free_port
from server_support import app_client, bearer, make_tenant, owner_pool

Run = Callable[..., Result]


@pytest.fixture
def admin(pg_db: Provisioned) -> Run:
    """`admin("server", "tenant", "create", "acme")`: the CLI in-process, --db the owner's."""
    def run(*args: str, db: str | None = pg_db.owner, input: str | None = None) -> Result:
        with_db = [*args, "--db", db] if db else list(args)
        return CliRunner().invoke(cli, with_db, input=input, catch_exceptions=False)
    return run


def database_of(url: str) -> str:
    return urlsplit(url).path.lstrip("/")


def test_db_upgrade_creates_the_schema_once_and_then_says_it_is_current(
        pg_cluster: Cluster, pg_db: Provisioned, admin: Run) -> None:
    fresh = f"{database_of(pg_db.owner)}_fresh"
    with psycopg.connect(pg_cluster.url(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{fresh}" OWNER memfold_owner')  # the role pg_db made
    url = pg_db.owner.replace(database_of(pg_db.owner), fresh)

    head = migrate.head()
    version = admin("db", "version", db=url)
    assert (version.exit_code, version.stdout) == (0, f"database empty, memfold {head}\n")
    first = admin("db", "upgrade", db=url)
    assert (first.exit_code, first.stdout) == (0, f"schema empty -> {head}\n")
    second = admin("db", "upgrade", db=url)
    assert (second.exit_code, second.stdout) == (0, f"schema {head} is current\n")
    version = admin("db", "version", db=url)
    assert (version.exit_code, version.stdout) == (0, f"database {head}, memfold {head}\n")
    with psycopg.connect(url) as conn:
        tables = dict(conn.execute(
            "SELECT c.relname, c.relrowsecurity AND c.relforcerowsecurity FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' "
            "AND c.relkind = 'r' AND c.relname <> 'memfold_schema_version'").fetchall())
        assert {"tenants", "banks", "tokens", "files", "events", "facts"} <= set(tables)
        assert all(tables.values()), tables  # every table: row-level security, forced
        assert conn.execute("SELECT rolcanlogin, rolbypassrls FROM pg_roles "
                            "WHERE rolname = 'memfold_app'").fetchone() == (False, False)

    unreachable = admin("db", "version", db=f"postgresql://nobody@127.0.0.1:{free_port()}/x")
    assert unreachable.exit_code == 1
    assert "cannot read the schema version" in one_error_line(unreachable.stderr)
    not_a_url = admin("db", "upgrade", db="mysql://root@db/memfold")
    assert not_a_url.exit_code == 1
    assert "--db takes a URL" in one_error_line(not_a_url.stderr)


def test_tenants_banks_and_tokens_from_the_command_line(pg_db: Provisioned, admin: Run) -> None:
    made = admin("server", "tenant", "create", "acme")
    assert (made.exit_code, made.stdout) == (0, "tenant acme created\n")
    again = admin("server", "tenant", "create", "acme")
    assert (again.exit_code, again.stdout) == (0, "tenant acme exists already\n")
    for bank in ("main", "scratch"):
        created = admin("server", "bank", "create", "--tenant", "acme", bank)
        assert (created.exit_code, created.stdout) == (0, f"bank acme/{bank} created\n")
    assert admin("server", "bank", "create", "--tenant", "acme", "main").stdout == \
        "bank acme/main exists already\n"

    token = admin("server", "token", "create", "--tenant", "acme", "planner", "--bank", "main")
    assert token.exit_code == 0, token.stderr
    secret = token.stdout.strip()
    assert token.stdout == secret + "\n"  # the token and nothing else, for $(...)
    assert secret.startswith("mf_") and len(secret) == 3 + 43  # 32 random bytes, base64url
    reader = admin("server", "token", "create", "--tenant", "acme", "reader",
                   "--scope", "read").stdout.strip()
    assert reader.startswith("mf_") and reader != secret

    with app_client(pg_db) as client:
        wrote = client.post("/v1/banks/main/retain", headers=bearer(secret),
                            json={"bullets": ["W @Peter: Lives in Vienna.",
                                              "B @warelay: Shipped 2.1."]})
        assert wrote.status_code == 200, wrote.text
        assert wrote.json()["facts"][0]["content"] == "Lives in Vienna."
        assert client.post("/v1/banks/scratch/recall", headers=bearer(secret),
                           json={"query": "Vienna"}).status_code == 403  # --bank main only
        assert client.post("/v1/banks/main/retain", headers=bearer(reader),
                           json={"bullets": ["W @Peter: Has a cat."]}).status_code == 403
        found = client.post("/v1/banks/main/recall", headers=bearer(reader),
                            json={"query": "where does Peter live"})
        assert found.json()["results"][0]["origin"] == "planner"

    listed = admin("server", "bank", "list", "--tenant", "acme", "--json")
    assert listed.exit_code == 0, listed.stderr
    banks = {bank["bank"]: bank for bank in json.loads(listed.stdout)}
    assert sorted(banks) == ["main", "scratch"]
    assert (banks["main"]["writes"], banks["main"]["facts"]) == (1, 2)
    assert (banks["scratch"]["writes"], banks["scratch"]["facts"]) == (0, 0)
    plain = admin("server", "bank", "list", "--tenant", "acme").stdout.splitlines()
    assert [line.split("\t")[:3] for line in plain] == [
        ["main", "2 facts", "1 writes"], ["scratch", "0 facts", "0 writes"]]

    tokens = admin("server", "token", "list", "--tenant", "acme", "--json")
    assert tokens.exit_code == 0, tokens.stderr
    assert [(t["name"], t["scopes"], t["bank"], t["revoked"]) for t in json.loads(tokens.stdout)
            ] == [("planner", ["read", "write"], "main", None),
                  ("reader", ["read"], None, None)]
    plain_tokens = admin("server", "token", "list", "--tenant", "acme").stdout
    assert plain_tokens.splitlines() == ["planner\tread,write\tmain\tlive",
                                         "reader\tread\t(all banks)\tlive"]
    for shown in (tokens.stdout, plain_tokens):  # never the secrets, nor a piece of them
        assert "mf_" not in shown
        assert secret[3:15] not in shown and reader[3:15] not in shown

    revoked = admin("server", "token", "revoke", "--tenant", "acme", "planner")
    assert (revoked.exit_code, revoked.stdout) == (0, "token planner revoked\n")
    with app_client(pg_db) as client:
        refused = client.post("/v1/banks/main/recall", headers=bearer(secret),
                              json={"query": "Vienna"})
        assert refused.status_code == 401
        assert "revoked" in refused.json()["error"]
        assert client.post("/v1/banks/main/recall", headers=bearer(reader),
                           json={"query": "Vienna"}).status_code == 200
    states = json.loads(admin("server", "token", "list", "--tenant", "acme", "--json").stdout)
    assert states[0]["name"] == "planner" and states[0]["revoked"] is not None
    assert "revoked " in admin("server", "token", "list", "--tenant", "acme").stdout
    twice = admin("server", "token", "revoke", "--tenant", "acme", "planner")
    assert twice.exit_code == 2
    assert "no live token 'planner'" in one_error_line(twice.stderr)

    kept = admin("server", "bank", "delete", "--tenant", "acme", "scratch", input="n\n")
    assert kept.exit_code == 1  # the operator said no: aborted, nothing deleted
    assert "scratch" in admin("server", "bank", "list", "--tenant", "acme").stdout
    gone = admin("server", "bank", "delete", "--tenant", "acme", "scratch", "--yes")
    assert (gone.exit_code, gone.stdout) == (0, "bank acme/scratch deleted\n")
    assert [b["bank"] for b in json.loads(
        admin("server", "bank", "list", "--tenant", "acme", "--json").stdout)] == ["main"]
    missing = admin("server", "bank", "delete", "--tenant", "acme", "scratch", "--yes")
    assert missing.exit_code == 2
    assert "no bank 'scratch' in tenant 'acme'" in one_error_line(missing.stderr)


@pytest.mark.parametrize("args, says", [
    (("server", "tenant", "create", "Acme!"), "tenant 'Acme!': use 1-63 lowercase letters"),
    (("server", "tenant", "create", "_x"), "tenant '_x'"),
    (("server", "bank", "create", "--tenant", "nobody", "main"), "no tenant 'nobody'"),
    (("server", "bank", "create", "--tenant", "bad-names", "../up"), "bank '../up': use 1-64"),
    (("server", "bank", "list", "--tenant", "UPPER"), "tenant 'UPPER'"),
    (("server", "token", "create", "--tenant", "bad-names", "has space"),
     "token name 'has space'"),
    (("server", "token", "create", "--tenant", "bad-names", "dup"),
     "has a token named 'dup' already"),
    (("server", "token", "create", "--tenant", "bad-names", "lost", "--bank", "nope"),
     "no bank 'nope' in tenant 'bad-names'"),
    (("server", "token", "revoke", "--tenant", "bad-names", "never"), "no live token 'never'"),
], ids=["tenant-chars", "tenant-underscore", "no-tenant", "bank-chars", "list-tenant", "token-name",
        "token-twice", "token-bank", "revoke-unknown"])
def test_bad_names_are_refused_with_one_line(admin: Run, args: tuple[str, ...],
                                             says: str) -> None:
    admin("server", "tenant", "create", "bad-names")
    admin("server", "token", "create", "--tenant", "bad-names", "dup")
    result = admin(*args)
    assert result.exit_code == 2, result.stdout
    assert says in one_error_line(result.stderr)
    assert result.stdout == ""


def test_a_missing_db_is_a_usage_error_and_memfold_db_fills_it(pg_db: Provisioned,
                                                               admin: Run) -> None:
    for args in (("db", "upgrade"), ("db", "version"), ("server", "tenant", "create", "x"),
                 ("server", "bank", "list", "--tenant", "x"),
                 ("server", "token", "create", "--tenant", "x", "y"), ("serve",)):
        result = admin(*args, db=None)
        assert result.exit_code == 2, args
        assert result.stderr.strip().splitlines()[-1] == "Error: Missing option '--db'."
        assert result.stdout == ""
    from_env = CliRunner().invoke(cli, ["db", "version"], env={"MEMFOLD_DB": pg_db.owner})
    head = migrate.head()
    assert (from_env.exit_code, from_env.stdout) == (0, f"database {head}, memfold {head}\n")
    helped = CliRunner().invoke(cli, ["server", "bank", "list", "--help"])
    assert "[env: MEMFOLD_DB]" in " ".join(helped.stdout.split())  # --help says where else


def test_serve_refuses_a_role_that_row_level_security_would_not_bind(
        pg_cluster: Cluster, pg_db: Provisioned) -> None:
    superuser = pg_cluster.url(database=database_of(pg_db.owner))
    port = free_port()
    result = subprocess.run([sys.executable, "-m", "memfold", "serve", "--db", superuser,
                             "--port", str(port)], capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode == 1
    line = one_error_line(result.stderr)
    assert "is a superuser, so row-level security would not bind it" in line
    assert "memfold_app" in line
    assert result.stdout == ""



def test_every_admin_command_answers_in_json(admin: Run) -> None:
    def answer(*args: str) -> object:
        result = admin(*args, "--json")
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    assert answer("db", "version")["memfold"] == migrate.head()  # type: ignore[index]
    assert answer("db", "upgrade")["after"] == migrate.head()  # type: ignore[index]
    assert answer("server", "tenant", "create", "jsonco") == {"tenant": "jsonco",
                                                              "created": True}
    assert answer("server", "bank", "create", "--tenant", "jsonco", "main") == {
        "tenant": "jsonco", "bank": "main", "created": True}
    made = answer("server", "token", "create", "--tenant", "jsonco", "bot", "--bank", "main")
    assert made["scopes"] == ["read", "write"] and made["token"]  # type: ignore[index]
    assert answer("server", "token", "revoke", "--tenant", "jsonco", "bot") == {
        "tenant": "jsonco", "name": "bot", "revoked": True}
    assert answer("server", "bank", "delete", "--tenant", "jsonco", "main", "--yes") == {
        "tenant": "jsonco", "bank": "main", "deleted": True}


def test_bank_check_finds_hand_edited_rows_and_repair_derives_them_again(
        pg_db: Provisioned, admin: Run) -> None:
    """The files are the truth: a facts row or a file hash edited by hand is found, and
    --repair derives exactly the rows a write would have stored; the files never change."""
    tenant = make_tenant(pg_db, "acme")
    with app_client(pg_db) as client:
        answer = client.post("/v1/banks/main/retain", headers=bearer(tenant.tokens["agent"]),
                             json={"bullets": ["W @Dana: Dana lives in Lisbon.",
                                               "O(c=0.8) @Dana: Dana prefers tea."]})
        assert answer.status_code == 200, answer.text
    clean = admin("server", "bank", "check", "--tenant", "acme", "main", "--json")
    assert clean.exit_code == 0 and json.loads(clean.stdout)["consistent"] is True

    pool = owner_pool(pg_db)

    def snapshot() -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
        with tenant_tx(pool, "acme") as conn:
            facts = conn.execute("SELECT path, line, fact_id, content FROM facts "
                                 "ORDER BY path, line").fetchall()
            files = conn.execute("SELECT path, content, sha256 FROM files "
                                 "ORDER BY path").fetchall()
        return facts, files

    try:
        facts, files = snapshot()
        day = next(str(path) for path, _, _, _ in facts)
        with tenant_tx(pool, "acme") as conn:  # an operator's hand edits
            conn.execute("UPDATE facts SET content = 'Dana lives in Porto.' "
                         "WHERE content = 'Dana lives in Lisbon.'")
            conn.execute("DELETE FROM facts WHERE content = 'Dana prefers tea.'")
            conn.execute("UPDATE files SET sha256 = repeat('0', 64) WHERE path = %s", [day])
        check_and_repair(admin, day)
        assert snapshot() == (facts, files)  # what the write stored, and the files untouched
    finally:
        pool.close()
    again = admin("server", "bank", "check", "--tenant", "acme", "main")
    assert (again.exit_code, again.stdout) == (0, "bank acme/main: consistent\n")
    unknown = admin("server", "bank", "check", "--tenant", "acme", "nope")
    assert unknown.exit_code == 2 and "no bank 'nope'" in one_error_line(unknown.stderr)


def check_and_repair(admin: Run, day: str) -> None:
    """`bank check` finds what was edited in `day`'s rows; `--repair` derives them again."""
    found = admin("server", "bank", "check", "--tenant", "acme", "main")
    assert found.exit_code == 1
    assert found.stdout.splitlines() == [
        f"{day}: sha256 not its content's", f"{day}: facts rows not what its Markdown gives",
        "bank acme/main: inconsistent: run with --repair"]
    repaired = admin("server", "bank", "check", "--tenant", "acme", "main", "--repair", "--json")
    assert repaired.exit_code == 0
    report = json.loads(repaired.stdout)
    assert (report["hashes"], report["facts"], report["repaired"]) == ([day], [day], True)


def test_bank_check_finds_hand_edited_event_facts_and_repair_rebuilds_them(
        pg_db: Provisioned, admin: Run) -> None:
    """`event_facts` (the facts each journal event is about, schema 0008) is derived from the
    journal: a row deleted or inserted by hand is found, and --repair makes it the rows the
    journal gives again; the events never change."""
    tenant = make_tenant(pg_db, "evco")
    with app_client(pg_db) as client:
        answer = client.post("/v1/banks/main/retain", headers=bearer(tenant.tokens["agent"]),
                             json={"bullets": ["W @Dana: Dana lives in Lisbon."]})
        assert answer.status_code == 200, answer.text
    pool = owner_pool(pg_db)

    def rows() -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
        with tenant_tx(pool, "evco") as conn:
            return (conn.execute("SELECT fact_id, seq FROM event_facts ORDER BY seq, fact_id")
                    .fetchall(),
                    conn.execute("SELECT seq, line FROM events ORDER BY seq").fetchall())

    try:
        kept, events = rows()
        fact, seq = kept[0]
        with tenant_tx(pool, "evco") as conn:  # an operator's hand edits
            conn.execute("DELETE FROM event_facts WHERE fact_id = %s AND seq = %s", [fact, seq])
            conn.execute("INSERT INTO event_facts SELECT tenant_id, bank_id, 'nosuchfact1', %s"
                         " FROM banks WHERE name = 'main'", [seq])
        found = admin("server", "bank", "check", "--tenant", "evco", "main")
        assert found.exit_code == 1
        # in seq order, then by fact id (the retained fact's id is random)
        problems = [p for _, p in sorted([(str(fact), f"missing {fact}@{seq}"),
                                          ("nosuchfact1", f"extra nosuchfact1@{seq}")])]
        assert found.stdout.splitlines() == [
            *(f"event_facts: {p} (the journal disagrees)" for p in problems),
            "bank evco/main: inconsistent: run with --repair"]
        repaired = admin("server", "bank", "check", "--tenant", "evco", "main", "--repair",
                         "--json")
        assert repaired.exit_code == 0
        report = json.loads(repaired.stdout)
        assert report["events"] == problems
        assert report["repaired"] is True
        assert rows() == (kept, events)
    finally:
        pool.close()
    again = admin("server", "bank", "check", "--tenant", "evco", "main")
    assert (again.exit_code, again.stdout) == (0, "bank evco/main: consistent\n")


def test_serve_refuses_a_cache_budget_that_is_no_size() -> None:
    """`--cache-mb` (MEMFOLD_SERVER_CACHE_MB): a whole number of megabytes, 0 or more; else
    one line and exit 2, before any connection is tried."""
    for args, env in ((["--cache-mb", "-1"], {}), ([], {"MEMFOLD_SERVER_CACHE_MB": "lots"})):
        result = CliRunner().invoke(cli, ["serve", "--db", "postgresql://nobody@nowhere/x",
                                          *args], env=env)
        assert result.exit_code == 2, result.output
        assert "Invalid value for '--cache-mb'" in result.stderr.strip().splitlines()[-1]
    helped = CliRunner().invoke(cli, ["serve", "--help"])
    assert "[env: MEMFOLD_SERVER_CACHE_MB]" in " ".join(helped.stdout.split())
