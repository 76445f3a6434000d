"""The server's commands (registered by `memfold.cli.main`): `serve`, `db` and `server` (the
files in and out of a server bank, `export` and `import`, are in `memfold.cli.transfer`).

All of them need the `server` extra (psycopg, Starlette, uvicorn, Alembic), imported only
when one runs, as are memfold's own server and client modules (`memfold --help` loads none of
them); without the extra they say how to install it (one line, exit 1).  `--db` takes a
libpq URL and falls back to MEMFOLD_DB.  docs/server.md is the operator's guide.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

import click

from memfold.cli.args import DataGroup
from memfold.cli.common import emit_json
from memfold.errors import BadInput, MemfoldError

DB = click.option("--db", metavar="URL", envvar="MEMFOLD_DB", required=True,
                  help="PostgreSQL URL, postgresql://USER:PASSWORD@HOST:5432/DB "
                       "[env: MEMFOLD_DB]")
JSON = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
TENANT = click.option("--tenant", required=True, help="The tenant, e.g. acme.")


def _pool(url: str, size: int = 2) -> Any:
    from memfold.server import require_extra

    require_extra()
    from memfold.server.db import connect_pool

    return connect_pool(url, size=size)


def _announce(host: str, port: int, workers: int, *, vectors: bool) -> None:
    click.echo(f"memfold serve: http://{host}:{port} ({workers} worker"
               f"{'s' if workers > 1 else ''}; recall "
               f"{'hybrid, vectors in PostgreSQL' if vectors else 'lexical'})", err=True)


@click.command("serve")
@DB
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8700, show_default=True)
@click.option("--migrate", is_flag=True,
              help="Upgrade the schema first (with --db's role, which must own the schema).")
@click.option("--cache", "cache_dir", metavar="DIR",
              help="Where the workers keep the derived copies of banks that a request still "
                   "needs (with --recall-from copy, every bank a request reaches), adopted "
                   "again after a clean restart (default: a temporary directory per worker, "
                   "removed on exit).")
@click.option("--pool-size", type=click.IntRange(1, 500), default=10, show_default=True,
              help="Database connections (per worker).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Processes serving the port; each is a replica with its own cache and "
                   "pool (reads of one bank then run side by side).")
@click.option("--rate", type=click.FloatRange(0), default=50.0, show_default=True,
              help="Requests a second per token and worker (0: no limit).")
@click.option("--max-body", type=click.IntRange(1024), default=1 << 20, show_default=True,
              help="Largest request body in bytes (imports may be 256x larger).")
@click.option("--vectors/--no-vectors", default=None,
              help="Semantic and hybrid recall with the embed extra's model, vectors kept in "
                   "PostgreSQL [default: on when the embed extra is installed].")
@click.option("--cache-mb", type=click.IntRange(0), envvar="MEMFOLD_SERVER_CACHE_MB",
              default=16, show_default=True,
              help="Megabytes (estimated) each worker keeps of the banks' answers between "
                   "recalls, over all banks, least recently used bank first out (0: none) "
                   "[env: MEMFOLD_SERVER_CACHE_MB].")
@click.option("--statement-timeout", type=click.IntRange(100), default=30_000,
              show_default=True, help="Milliseconds a database statement may run.")
@click.option("--recall-from", type=click.Choice(["postgres", "copy"]), default="postgres",
              show_default=True,
              help="Where requests are answered from: the bank's rows in PostgreSQL, no copy "
                   "of the bank on this replica (the default), or `copy`, the older mode: a "
                   "local copy of each bank under --cache, built on a bank's first request "
                   "and caught up on each later one (for steady traffic on a few banks).")
def serve(db: str, host: str, port: int, migrate: bool, cache_dir: str | None,
          pool_size: int, workers: int, rate: float, max_body: int, vectors: bool | None,
          statement_timeout: int, recall_from: str, cache_mb: int) -> None:
    """Serve memory banks from PostgreSQL over HTTP: REST, MCP, health.

    \b
    /v1/banks/{bank}/{verb}  retain, recall, about, entities, show, note, use, supersede,
                             restore, forget, history, trace, status, reflect, core_*,
                             context
    /mcp                     MCP over streamable HTTP (bank: X-Memfold-Bank header)
    /healthz, /readyz        liveness and readiness; /openapi.json describes the API

    Every request carries `Authorization: Bearer TOKEN` (`memfold server token create`);
    the token names the tenant.  Connect as a member of memfold_app: a superuser or
    BYPASSRLS role is refused, since row-level security would not bind it.  Any number of
    replicas may serve one database, each holding no bank state (`--recall-from copy`, the
    older mode, keeps a derived copy of each bank under --cache).

    \b
    Examples:
      memfold db upgrade --db postgresql://memfold_owner@db/memfold
      memfold serve --db postgresql://memfold_server:PASSWORD@db/memfold --port 8700
      memfold serve --db postgresql://memfold_server:PASSWORD@db/memfold --recall-from copy
    """
    from memfold.server import require_extra

    require_extra()
    import logging

    import uvicorn

    from memfold import embed
    from memfold.server import migrate as migrations
    from memfold.server.serving import ENV, Settings, assemble, connect

    if migrate:
        before, after = migrations.upgrade(db)
        click.echo(f"memfold serve: schema {before or 'empty'} -> {after}", err=True)
    if vectors and not embed.installed():
        raise MemfoldError(f"--vectors: {embed.HINT}")
    settings = Settings(db=db, cache=cache_dir, pool_size=pool_size, rate=rate, max_body=max_body,
                        statement_timeout=statement_timeout, recall_from=recall_from,
                        cache_mb=cache_mb, vectors=vectors is not False and embed.installed())
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    if workers == 1:
        app = assemble(settings)  # also checks the database role first
    else:
        connect(settings).close()  # refuse a role RLS would not bind before any worker starts
    _announce(host, port, workers, vectors=settings.vectors)
    options: dict[str, Any] = {"host": host, "port": port, "log_level": "warning",
                               "access_log": False, "timeout_graceful_shutdown": 10}
    if workers == 1:
        # uvicorn drains the requests in flight on SIGTERM, then restores this handler and
        # raises the signal again: a stop asked for is a clean exit (0), not 143
        signal.signal(signal.SIGTERM, _stopped)
        uvicorn.run(app, **options)
        return
    os.environ[ENV] = settings.to_env()
    uvicorn.run("memfold.server.serving:from_environment", factory=True, workers=workers,
                **options)


def _stopped(signum: int, frame: object) -> None:
    raise SystemExit(0)


@click.group("db", cls=DataGroup)
def db_group() -> None:
    """The server's database schema (Alembic migrations).

    \b
    Examples:
      memfold db upgrade --db postgresql://memfold_owner:PASSWORD@db/memfold
      memfold db version --db postgresql://memfold_owner:PASSWORD@db/memfold
    """


@db_group.command("upgrade")
@DB
@JSON
def db_upgrade(db: str, as_json: bool) -> None:
    """Create or upgrade the schema to this memfold's version (idempotent).

    Run it as the role that owns (or will own) the tables; it creates the memfold_app
    role (NOLOGIN) that the server's login role joins.

    \b
    Example:
      memfold db upgrade --db postgresql://memfold_owner:PASSWORD@db/memfold
    """
    from memfold.server import require_extra

    require_extra()
    from memfold.server import migrate

    before, after = migrate.upgrade(db)
    if as_json:
        emit_json({"before": before or None, "after": after})
        return
    click.echo(f"schema {before or 'empty'} -> {after}" if before != after
               else f"schema {after} is current")


@db_group.command("version")
@DB
@JSON
def db_version(db: str, as_json: bool) -> None:
    """Print the database's schema version and this memfold's.

    \b
    Example:
      memfold db version --db postgresql://memfold_owner:PASSWORD@db/memfold
    """
    from memfold.server import require_extra

    require_extra()
    from memfold.server import migrate

    current = migrate.current(db)
    if as_json:
        emit_json({"database": current or None, "memfold": migrate.head()})
        return
    click.echo(f"database {current or 'empty'}, memfold {migrate.head()}")


@click.group("server", cls=DataGroup)
def server_group() -> None:
    """Tenants, banks and tokens of a memfold server (run with the owner's --db).

    \b
    Examples:
      export MEMFOLD_DB=postgresql://memfold_owner:PASSWORD@db/memfold
      memfold server tenant create acme
      memfold server bank create --tenant acme main
      memfold server token create --tenant acme planner --bank main
    """


@server_group.group("tenant", cls=DataGroup)
def tenant_group() -> None:
    """Tenants: each has its own banks and tokens, isolated by row-level security.

    \b
    Example:
      memfold server tenant create acme --db postgresql://memfold_owner@db/memfold
    """


@tenant_group.command("create")
@DB
@click.argument("name")
@JSON
def tenant_create(db: str, name: str, as_json: bool) -> None:
    """Create the tenant NAME (lowercase letters, digits, '-', '_').

    \b
    Example:
      memfold server tenant create acme --db postgresql://memfold_owner@db/memfold
    """
    from memfold.server import admin

    made = admin.create_tenant(_pool(db), name)
    if as_json:
        emit_json({"tenant": name, "created": made})
        return
    click.echo(f"tenant {name} {'created' if made else 'exists already'}")


@server_group.group("bank", cls=DataGroup)
def bank_group() -> None:
    """Banks: one memory each, inside a tenant.

    \b
    Examples:
      memfold server bank create --tenant acme main
      memfold server bank list --tenant acme --json
      memfold server bank check --tenant acme main
    """


@bank_group.command("create")
@DB
@TENANT
@click.argument("name")
@JSON
def bank_create(db: str, tenant: str, name: str, as_json: bool) -> None:
    """Create the bank NAME in a tenant.

    \b
    Example:
      memfold server bank create --tenant acme main --db postgresql://memfold_owner@db/memfold
    """
    from memfold.server import admin

    made = admin.create_bank(_pool(db), tenant, name)
    if as_json:
        emit_json({"tenant": tenant, "bank": name, "created": made})
        return
    click.echo(f"bank {tenant}/{name} {'created' if made else 'exists already'}")


@bank_group.command("list")
@DB
@TENANT
@JSON
def bank_list(db: str, tenant: str, as_json: bool) -> None:
    """List a tenant's banks with their facts and writes.

    \b
    Example:
      memfold server bank list --tenant acme --db postgresql://memfold_owner@db/memfold
    """
    from memfold.server import admin

    banks = admin.list_banks(_pool(db), tenant)
    if as_json:
        emit_json(banks)
        return
    for bank in banks:
        click.echo(f"{bank['bank']}\t{bank['facts']} facts\t{bank['writes']} writes\t"
                   f"created {bank['created']}")


@bank_group.command("delete")
@DB
@TENANT
@click.argument("name")
@click.option("--yes", is_flag=True, help="Delete without asking.")
@JSON
def bank_delete(db: str, tenant: str, name: str, yes: bool, as_json: bool) -> None:
    """Delete a bank and everything in it (export it first to keep a copy).

    \b
    Example:
      memfold export --server http://127.0.0.1:8700 --bank old ./old-backup
      memfold server bank delete --tenant acme old --yes
    """
    from memfold.server import admin

    if not yes:
        click.confirm(f"delete bank {tenant}/{name} and all its memory?", abort=True)
    if not admin.delete_bank(_pool(db), tenant, name):
        raise BadInput(f"no bank {name!r} in tenant {tenant!r}")
    if as_json:
        emit_json({"tenant": tenant, "bank": name, "deleted": True})
        return
    click.echo(f"bank {tenant}/{name} deleted")


@bank_group.command("check")
@DB
@TENANT
@click.argument("name")
@click.option("--repair", is_flag=True,
              help="Derive the rows that disagree again from the bank's files.")
@JSON
@click.pass_context
def bank_check(ctx: click.Context, db: str, tenant: str, name: str, repair: bool,
               as_json: bool) -> None:
    """Check that a bank's derived rows agree with its files: each file's sha256 and the
    facts rows SQL readers query, derived again from the Markdown and compared, and the
    event_facts rows (each journal event's facts) against the journal.  The files
    and the journal are the bank's truth and are never changed; with --repair the rows that
    disagree (a hand-edited table) are derived again, under the bank's write lock.  Exit
    status 0 when they agree or were repaired, 1 when they disagree.

    \b
    Examples:
      memfold server bank check --tenant acme main
      memfold server bank check --tenant acme main --repair --json
    """
    from memfold.server import admin

    found = admin.check_rows(_pool(db), tenant, name, repair=repair)
    if as_json:
        emit_json(found)
    else:
        for what, label in (("hashes", "sha256 not its content's"),
                            ("facts", "facts rows not what its Markdown gives")):
            for path in found[what]:
                click.echo(f"{path}: {label}{' (repaired)' if repair else ''}")
        for what in found["recall"]:
            click.echo(f"recall statistics: {what} disagrees with the recall rows"
                       f"{' (rebuilt)' if repair else ''}")
        for what in found["events"]:
            click.echo(f"event_facts: {what} (the journal disagrees)"
                       f"{' (repaired)' if repair else ''}")
        state = ("consistent" if found["consistent"] else
                 "repaired" if found["repaired"] else "inconsistent: run with --repair")
        click.echo(f"bank {tenant}/{name}: {state}")
    if not found["consistent"] and not found["repaired"]:
        ctx.exit(1)


@server_group.group("token", cls=DataGroup)
def token_group() -> None:
    """API tokens: shown once, stored as a hash; scopes read, write, admin.

    \b
    Examples:
      memfold server token create --tenant acme planner --scope read --scope write
      memfold server token list --tenant acme
      memfold server token revoke --tenant acme planner
    """


@token_group.command("create")
@DB
@TENANT
@click.argument("name")
@click.option("--scope", "scopes", multiple=True, default=("read", "write"),
              show_default=True, type=click.Choice(["read", "write", "admin"]),
              help="Repeat for several; write includes read.")
@click.option("--bank", help="Restrict the token to this one bank.")
@JSON
def token_create(db: str, tenant: str, name: str, scopes: tuple[str, ...],
                 bank: str | None, as_json: bool) -> None:
    """Create a token NAME (the agent's identity: it signs every write) and print it once.

    \b
    Example:
      export MEMFOLD_TOKEN=$(memfold server token create --tenant acme planner --bank main)
    """
    from memfold.server import admin

    secret = admin.create_token(_pool(db), tenant, name, scopes, bank)
    if as_json:
        emit_json({"tenant": tenant, "name": name, "scopes": list(dict.fromkeys(scopes)),
                   "bank": bank, "token": secret})
        return
    click.echo(secret)


@token_group.command("list")
@DB
@TENANT
@JSON
def token_list(db: str, tenant: str, as_json: bool) -> None:
    """List a tenant's tokens (names, scopes, banks; never the secrets).

    \b
    Example:
      memfold server token list --tenant acme --json
    """
    from memfold.server import admin

    tokens = admin.list_tokens(_pool(db), tenant)
    if as_json:
        emit_json(tokens)
        return
    for token in tokens:
        state = f"revoked {token['revoked']}" if token["revoked"] else "live"
        click.echo(f"{token['name']}\t{','.join(token['scopes'])}\t"
                   f"{token['bank'] or '(all banks)'}\t{state}")


@token_group.command("revoke")
@DB
@TENANT
@click.argument("name")
@JSON
def token_revoke(db: str, tenant: str, name: str, as_json: bool) -> None:
    """Revoke the token NAME: its next request is refused (401).

    \b
    Example:
      memfold server token revoke --tenant acme planner
    """
    from memfold.server import admin

    if not admin.revoke_token(_pool(db), tenant, name):
        raise BadInput(f"no live token {name!r} in tenant {tenant!r}")
    if as_json:
        emit_json({"tenant": tenant, "name": name, "revoked": True})
        return
    click.echo(f"token {name} revoked")


COMMANDS = (serve, db_group, server_group)
