"""memfold's shared memory server: many agents and tenants on one PostgreSQL database.

    db        the connection pool, tenant-scoped transactions (SET LOCAL), retries
    migrate   the schema's versions (Alembic): `memfold db upgrade`, `memfold serve --migrate`
    admin     tenants, banks and tokens, for `memfold server ...`
    banks     a bank's truth in PostgreSQL and the replica's derived workspace for it
    verbs     the REST verbs: arguments in, the CLI's --json out
    vectors   fact embeddings kept in PostgreSQL, shared by every replica
    app       the ASGI app: /v1/banks/{bank}/..., /mcp, /healthz, /readyz, /openapi.json
    mcp       MCP over streamable HTTP at /mcp, on the caller's bank
    openapi   the REST API described, from the verbs
    exchange  export a bank as a workspace, import a workspace into a bank
    serving   one `memfold serve` process, or one per `--workers`
    pgrecall  `--recall-from postgres`: recall and the other reads answered from the bank's
              rows (pgindex, pgcache, pgreview, pgreads, pgstatus), no copy of the bank
    pgretain  `--recall-from postgres`: a retain appended, journaled and judged in the
              bank's rows, no copy of the bank
    pgledger  `--recall-from postgres`: use, supersede, restore, note, forget (an archive),
              review accept and reject decided and journaled in the bank's rows
    pgcore    `--recall-from postgres`: the core memory edits (memory.md and its journal line)
    pgpurge   `--recall-from postgres`: forget --purge and its dry run over the bank's rows
    pgreflect `--recall-from postgres`: reflect (its dry run too) and reflect --undo planned
              over the bank's rows and stored to them; the undo manifest every path keeps
    pgwrite   the transaction such a write runs in, and its journal lines

Every import of psycopg, Starlette or Alembic sits in this package, which only
`memfold serve`, `memfold db` and `memfold server` load (`memfold export` and `import` are
clients: memfold.client.http and memfold.client.files).  docs/server.md is the operator's
guide.
"""

from __future__ import annotations

from memfold.errors import MemfoldError

INSTALL_HINT = "the server needs the server extra: pip install 'memfold[server]'"


def require_extra() -> None:
    """Raise MemfoldError with the install hint when the server's packages are missing."""
    try:
        import alembic  # noqa: F401
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise MemfoldError(INSTALL_HINT) from None
