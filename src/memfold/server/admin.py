"""Tenants, banks and tokens: what `memfold server tenant|bank|token ...` does, and how a
request's token becomes its tenant, scopes and name.

A token is `mf_` plus 43 URL-safe characters (32 random bytes, 256 bits) from `secrets`; it is
shown once, at creation, and only its SHA-256 is stored.  A request finds its token through
the `token_by_hash` policy (it sees the one row whose hash it names), and from then on works
inside its tenant: the tenant always comes from the token, never from the path or the body.

Every function here runs inside `tenant_tx`, so row-level security binds the operator's
commands as it binds the server; each query also names its tenant, so an operator who runs
them as a superuser (whom row-level security does not bind) still reaches only that tenant.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memfold.errors import BadInput
from memfold.server import rows
from memfold.server.db import LOCK_SPACE, tenant_tx

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

SCOPES = ("read", "write", "admin")
TOKEN_PREFIX = "mf_"
_TENANT = re.compile(r"^[a-z0-9][a-z0-9_-]{0,62}$")
_BANK = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_TOKEN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$")


@dataclass(frozen=True)
class Caller:
    """Who a request is: the token's tenant, name (signs every write), scopes and bank."""

    tenant: str
    name: str
    scopes: frozenset[str]
    bank: str | None  # the one bank this token may use, or None for all of its tenant's

    def may(self, scope: str, bank: str) -> bool:
        granted = scope in self.scopes or "admin" in self.scopes or (
            scope == "read" and "write" in self.scopes)
        return granted and self.bank in (None, bank)


class Refused(Exception):
    """A request refused before any work: HTTP status and message."""

    def __init__(self, status: int, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def identify(pool: ConnectionPool, token: str) -> Caller | None:
    """The live token with this secret, or None (unknown, malformed or revoked)."""
    if not token.startswith(TOKEN_PREFIX) or len(token) > 200:
        return None
    digest = hash_token(token)
    with tenant_tx(pool, None, token_hash=digest) as conn:
        row = conn.execute("SELECT tenant_id, name, scopes, bank FROM tokens "
                           "WHERE hash = decode(%s, 'hex') AND revoked_at IS NULL",
                           [digest]).fetchone()
    if row is None:
        return None
    return Caller(tenant=row[0], name=row[1], scopes=frozenset(row[2]), bank=row[3])


def check_tenant(tenant: str) -> str:
    if not _TENANT.fullmatch(tenant):
        raise BadInput(f"tenant {tenant!r}: use 1-63 lowercase letters, digits, '-' or '_', "
                       "starting with a letter or digit")
    return tenant


def check_bank(bank: str) -> str:
    if not _BANK.fullmatch(bank):
        raise BadInput(f"bank {bank!r}: use 1-64 letters, digits, '.', '-' or '_', starting "
                       "with a letter or digit")
    return bank


def create_tenant(pool: ConnectionPool, tenant: str) -> bool:
    """Create a tenant; False when it already exists."""
    with tenant_tx(pool, check_tenant(tenant)) as conn:
        made = conn.execute("INSERT INTO tenants (tenant_id) VALUES (%s) ON CONFLICT DO NOTHING",
                            [tenant]).rowcount
    return bool(made)


def _require_tenant(conn: Any, tenant: str) -> None:
    if conn.execute("SELECT 1 FROM tenants WHERE tenant_id = %s", [tenant]).fetchone() is None:
        raise BadInput(f"no tenant {tenant!r}; create it with `memfold server tenant create`")


def create_bank(pool: ConnectionPool, tenant: str, bank: str) -> bool:
    """Create a bank in a tenant; False when it already exists."""
    with tenant_tx(pool, check_tenant(tenant)) as conn:
        _require_tenant(conn, tenant)
        made = conn.execute("INSERT INTO banks (tenant_id, name) VALUES (%s, %s) "
                            "ON CONFLICT DO NOTHING", [tenant, check_bank(bank)]).rowcount
    return bool(made)


def list_banks(pool: ConnectionPool, tenant: str) -> list[dict[str, Any]]:
    with tenant_tx(pool, check_tenant(tenant)) as conn:
        rows = conn.execute(
            "SELECT b.name, b.head, b.created_at, "
            "(SELECT count(*) FROM facts f WHERE f.bank_id = b.bank_id) "
            "FROM banks b WHERE b.tenant_id = %s ORDER BY b.name", [tenant]).fetchall()
    return [{"bank": name, "writes": head, "facts": facts,
             "created": created.isoformat(timespec="seconds")}
            for name, head, created, facts in rows]


def delete_bank(pool: ConnectionPool, tenant: str, bank: str) -> bool:
    """Delete a bank and everything in it (files, journal, facts); False when there is none."""
    with tenant_tx(pool, check_tenant(tenant)) as conn:
        gone = conn.execute("DELETE FROM banks WHERE tenant_id = %s AND name = %s",
                            [tenant, bank]).rowcount
    return bool(gone)


def create_token(pool: ConnectionPool, tenant: str, name: str, scopes: tuple[str, ...],
                 bank: str | None = None) -> str:
    """Create a token and return its secret (the only time it is seen)."""
    if not _TOKEN_NAME.fullmatch(name):
        raise BadInput(f"token name {name!r}: use 1-64 letters, digits, '.', '@', '-' or '_'")
    unknown = sorted(set(scopes) - set(SCOPES))
    if unknown or not scopes:
        raise BadInput(f"scopes {', '.join(unknown) or '(none)'}: choose from "
                       f"{', '.join(SCOPES)}")
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    with tenant_tx(pool, check_tenant(tenant)) as conn:
        _require_tenant(conn, tenant)
        if bank is not None and conn.execute(
                "SELECT 1 FROM banks WHERE tenant_id = %s AND name = %s",
                [tenant, bank]).fetchone() is None:
            raise BadInput(f"no bank {bank!r} in tenant {tenant!r}")
        if conn.execute("SELECT 1 FROM tokens WHERE tenant_id = %s AND name = %s",
                        [tenant, name]).fetchone():
            raise BadInput(f"tenant {tenant!r} has a token named {name!r} already "
                           "(revoked tokens keep their names)")
        conn.execute("INSERT INTO tokens (tenant_id, name, hash, scopes, bank) "
                     "VALUES (%s, %s, decode(%s, 'hex'), %s, %s)",
                     [tenant, name, hash_token(secret), sorted(set(scopes)), bank])
    return secret


def list_tokens(pool: ConnectionPool, tenant: str) -> list[dict[str, Any]]:
    with tenant_tx(pool, check_tenant(tenant)) as conn:
        rows = conn.execute("SELECT name, scopes, bank, created_at, revoked_at FROM tokens "
                            "WHERE tenant_id = %s ORDER BY name", [tenant]).fetchall()
    return [{"name": name, "scopes": list(scopes), "bank": bank,
             "created": created.isoformat(timespec="seconds"),
             "revoked": revoked.isoformat(timespec="seconds") if revoked else None}
            for name, scopes, bank, created, revoked in rows]


def revoke_token(pool: ConnectionPool, tenant: str, name: str) -> bool:
    """Revoke a token by name; False when there is no live token of that name."""
    with tenant_tx(pool, check_tenant(tenant)) as conn:
        done = conn.execute("UPDATE tokens SET revoked_at = now() WHERE tenant_id = %s "
                            "AND name = %s AND revoked_at IS NULL", [tenant, name]).rowcount
    return bool(done)


def check_rows(pool: ConnectionPool, tenant: str, bank: str, *,
               repair: bool = False) -> dict[str, Any]:
    """The bank's derived rows checked against its files (`rows.check`): the paths whose
    sha256 or facts rows disagree, the recall statistics that disagree with the recall
    rows and the `event_facts` rows that disagree with the journal, and with `repair` those
    rows derived again, under the
    bank's write lock (a replica's write waits for it).  BadInput for an unknown bank."""
    with tenant_tx(pool, check_tenant(tenant)) as conn:
        row = conn.execute("SELECT bank_id FROM banks WHERE tenant_id = %s AND name = %s",
                           [tenant, check_bank(bank)]).fetchone()
        if row is None:
            raise BadInput(f"no bank {bank!r} in tenant {tenant!r}")
        if repair:
            conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_SPACE, row[0]])
        with conn.cursor() as cur:
            found = rows.check(cur, tenant, int(row[0]), repair=repair)
    problems = bool(found["hashes"] or found["facts"] or found["recall"] or found["events"])
    return {"tenant": tenant, "bank": bank, **found, "consistent": not problems,
            "repaired": repair and problems}
