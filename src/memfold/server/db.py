"""PostgreSQL for the server: one connection pool, and every statement inside a transaction
scoped to one tenant.

`tenant_tx(pool, tenant)` takes a pooled connection, begins a transaction and runs
`set_config('memfold.tenant', tenant, true)` — SET LOCAL, parameterised — so the setting ends
with the transaction and a connection handed back to the pool carries no tenant into the next
request.  Row-level security (migrations/versions/0001_schema.py) does the rest: a query
that forgets its WHERE clause still sees only its tenant's rows.

Errors a retry can cure (serialization failure 40001, deadlock 40P01, a lost connection, a
database that is shutting down or starting) become `Unavailable`; `with_retries` retries a
whole transaction on them a bounded number of times — but not a wait for a connection that
timed out (an Unavailable marked `waited`): the pool already waited its whole timeout for
one, so a database that went away is answered 503 after one wait, not after one per retry
(which came to about a minute: past the client's own timeout).
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from memfold.errors import MemfoldError, Unavailable

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

LOCK_SPACE = 0x6D66  # the first key of a bank's write lock ("mf"); the second is bank_id
_T = TypeVar("_T")


class NeedsCopy(Exception):  # noqa: N818 - a signal to the replica, never an error shown
    """This request is answered from the replica's copy of the bank instead (a read or a
    write the bank's rows in PostgreSQL cannot answer alone; nothing was written)."""


RETRIES = 5
# SQLSTATE classes and codes a retry can cure: serialization and deadlock, the connection,
# the server shutting down or starting up, too many connections
_RETRIABLE = ("40001", "40P01", "08", "57P", "53300")


def connect_pool(url: str, *, size: int = 10, timeout: float = 10.0,
                 statement_timeout_ms: int | None = None) -> ConnectionPool:
    """A pool of `size` connections to `url`, opened and checked (MemfoldError if it cannot
    connect).  Connections are autocommit-off; every use goes through a transaction.
    `statement_timeout_ms` bounds every statement (the server sets it)."""
    from psycopg_pool import ConnectionPool  # the server extra

    # no JIT: memfold's statements are short, and compiling one (which PostgreSQL does
    # when a plan's estimated cost is high, as a search over a large bank's is) costs
    # hundreds of milliseconds more than running it
    options = "-c jit=off"
    if statement_timeout_ms:
        options += f" -c statement_timeout={int(statement_timeout_ms)}"
    kwargs: dict[str, Any] = {"connect_timeout": 10, "options": options}
    pool = ConnectionPool(url, min_size=1, max_size=size, timeout=timeout, open=False,
                          kwargs=kwargs, check=ConnectionPool.check_connection)
    try:
        pool.open(wait=True, timeout=timeout)
    except Exception as exc:  # the pool's own timeout, or psycopg's OperationalError
        pool.close()
        raise MemfoldError(f"cannot connect to the database: {one_line(exc)}") from None
    return pool


def one_line(exc: BaseException) -> str:
    """A database error as one line, without the password a URL may hold."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:300]


def is_retriable(exc: BaseException) -> bool:
    import psycopg  # the server extra

    if isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError):
        return True
    state = getattr(exc, "sqlstate", None) or ""
    return any(state.startswith(code) for code in _RETRIABLE)


@contextlib.contextmanager
def tenant_tx(pool: ConnectionPool, tenant: str | None, *, token_hash: str | None = None,
              snapshot: bool = False) -> Iterator[psycopg.Connection[Any]]:
    """One transaction on a pooled connection, scoped to `tenant` (SET LOCAL).  With no
    tenant, only `token_hash` is set: the transaction sees the token row with that hash and
    nothing else.  `snapshot` reads one consistent snapshot (REPEATABLE READ).  Retriable
    database errors come out as Unavailable."""
    import psycopg
    from psycopg_pool import PoolTimeout  # the server extra

    try:
        with pool.connection() as conn, _begun(conn, snapshot):
            conn.execute("SELECT set_config('memfold.tenant', %s, true), "
                         "set_config('memfold.token_hash', %s, true)",
                         [tenant or "", token_hash or ""])
            yield conn
    except PoolTimeout:
        # no connection came within the pool's timeout (the database is down, or every
        # connection busy): not retried, the wait was the retry
        waited = Unavailable("the database is busy or unreachable; try again")
        waited.waited = True  # type: ignore[attr-defined]
        raise waited from None
    except psycopg.Error as exc:
        if is_retriable(exc):
            raise Unavailable(f"the database could not finish this: {one_line(exc)}; "
                              "try again") from None
        raise


@contextlib.contextmanager
def _begun(conn: psycopg.Connection[Any], snapshot: bool) -> Iterator[None]:
    """A transaction on `conn`; with `snapshot`, begun REPEATABLE READ in its BEGIN (no
    statement of its own), the connection's default restored before the pool has it back."""
    import psycopg

    if not snapshot:
        with conn.transaction():
            yield
        return
    conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
    try:
        with conn.transaction():
            yield
    finally:
        with contextlib.suppress(psycopg.Error):  # a broken connection: the pool drops it
            conn.isolation_level = None


def with_retries(work: Callable[[], _T], *, attempts: int = RETRIES) -> _T:
    """Run `work` (one whole transaction) again when it raises Unavailable, up to `attempts`
    times with a short randomised backoff; the last Unavailable goes to the caller."""
    for attempt in range(attempts):
        try:
            return work()
        except Unavailable as exc:
            if attempt == attempts - 1 or getattr(exc, "waited", False):
                raise
            time.sleep(min(2.0, 0.05 * 2 ** attempt) * (0.5 + random.random()))  # noqa: S311
    raise AssertionError("unreachable")


def check_role(pool: ConnectionPool) -> str | None:
    """Why the pool's role may not serve, or None when row-level security binds it: a
    superuser or BYPASSRLS role would see every tenant's rows; the tables' owner (or a member
    of it) could turn forced row-level security off; a role outside memfold_app lacks the
    grants and would answer every request with an error."""
    with tenant_tx(pool, None) as conn:
        row = conn.execute(_ROLE).fetchone()
    if row is None:
        return "cannot read the connecting role"
    user, superuser, bypass, owner, app = row
    if superuser or bypass:
        what = "a superuser" if superuser else "a BYPASSRLS role"
        return (f"the database role {user!r} is {what}, so row-level security would not bind "
                "it; connect as a member of memfold_app (see docs/server.md)")
    if owner:
        return (f"the database role {user!r} owns memfold's tables (or may act as their "
                "owner), so it could turn row-level security off; connect as a member of "
                "memfold_app that owns nothing (see docs/server.md)")
    if not app:
        return (f"the database role {user!r} is not a member of memfold_app, so it may not "
                "read or write banks; grant it (GRANT memfold_app TO ...) or connect as one")
    return None


# who connects: superuser, BYPASSRLS, whether it is (or may become) the owner of the table
# `banks`, whether it holds memfold_app's privileges
_ROLE = """
SELECT r.rolname, r.rolsuper, r.rolbypassrls,
       COALESCE((SELECT pg_has_role(r.oid, c.relowner, 'MEMBER') FROM pg_class c
                 WHERE c.oid = to_regclass('banks')), false),
       COALESCE((SELECT pg_has_role(r.oid, a.oid, 'USAGE') FROM pg_roles a
                 WHERE a.rolname = 'memfold_app'), false)
FROM pg_roles r WHERE r.rolname = current_user
"""
