"""The server's ASGI app (Starlette): REST verbs, MCP, health, the OpenAPI document.

    GET  /healthz                       the process is up (no database call)
    GET  /readyz                        the database answers and its schema is current
    GET  /openapi.json                  the REST API, described
    GET  /v1/banks                      the token's tenant's banks it may use
    POST /v1/banks/{bank}/{verb}        a verb (memfold.server.verbs): JSON in, --json out;
                                        review, review_accept and review_reject among them
    GET  /v1/banks/{bank}/export        the bank as files and journal lines (memfold export)
    POST /v1/banks/{bank}/import        load a workspace's files and journal (memfold import)
    POST /mcp                           MCP over streamable HTTP (memfold.server.mcp)

Every /v1 and /mcp request carries `Authorization: Bearer <token>`; the token alone names the
tenant.  Refusals, in the order they are checked, each a JSON body {"error", "type"}:

    401  no token, an unknown one or a revoked one
    404  an unknown verb, or a /v1/banks path of no route's shape
    403  a token restricted to another bank, or without the scope the verb needs
    400  arguments that do not fit the verb's schema, or a body that is not JSON
    413  a body over the size limit;  429  over the token's request rate (Retry-After)
    404  no such bank in the token's tenant (another tenant's bank looks the same)
    409  `note` lost its compare-and-set: {"id", "result": "stale", "rev": current}
    503  the database cannot answer now; retry (Retry-After).  Nothing was half-written.

The access log (logger `memfold.access`, one JSON object a line) holds the time, method,
path, status, duration, tenant, token name, bank, verb and sizes — never a fact's text.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memfold import __version__
from memfold.errors import (
    AccessDenied,
    BadInput,
    MemfoldError,
    StaleRevision,
    Unavailable,
    UnknownBank,
    UnknownId,
)
from memfold.server import admin, migrate
from memfold.server.admin import Refused, check_bank
from memfold.server.db import tenant_tx, with_retries
from memfold.server.exchange import export_bank, import_bank
from memfold.server.openapi import document
from memfold.server.replica import Replica
from memfold.server.verbs import VERBS, arguments, verb

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

ACCESS = logging.getLogger("memfold.access")
log = logging.getLogger("memfold.server")


@dataclass
class Limits:
    """What one request may ask for; `memfold serve` options set them."""

    body_bytes: int = 1 << 20  # a verb's JSON body
    import_bytes: int = 256 << 20  # an import's body
    max_k: int = 200  # recall's and about's k
    max_budget: int = 64_000  # context's budget, in tokens
    rate: float = 50.0  # requests a second per token, sustained
    burst: int = 100  # requests a token may send at once
    _buckets: dict[tuple[str, str], tuple[float, float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, caller: admin.Caller) -> float:
        """Take one request from the caller's bucket; 0, or the seconds until one is free."""
        if self.rate <= 0:
            return 0.0
        key = (caller.tenant, caller.name)
        now = time.monotonic()
        with self._lock:
            tokens, then = self._buckets.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - then) * self.rate)
            if tokens < 1.0:
                self._buckets[key] = (tokens, now)
                return (1.0 - tokens) / self.rate
            self._buckets[key] = (tokens - 1.0, now)
        return 0.0

    def check(self, name: str, args: dict[str, Any]) -> None:
        if args.get("k", 0) > self.max_k:
            raise BadInput(f"{name}: k is at most {self.max_k} on this server")
        if args.get("budget", 0) > self.max_budget:
            raise BadInput(f"{name}: budget is at most {self.max_budget} on this server")


def _status(exc: BaseException) -> int:
    if isinstance(exc, Refused):
        return exc.status
    if isinstance(exc, AccessDenied):
        return exc.status
    if isinstance(exc, UnknownBank | UnknownId):
        return 404
    if isinstance(exc, BadInput):
        return 400
    if isinstance(exc, StaleRevision):
        return 409
    if isinstance(exc, Unavailable):
        return 503
    return 500


class Server:
    """The app's state: the pool, this replica's banks, the limits."""

    def __init__(self, pool: Any, replica: Replica, limits: Limits | None = None) -> None:
        self.pool = pool
        self.replica = replica
        self.limits = limits or Limits()

    # -- authentication ---------------------------------------------------------------

    def caller(self, headers: Any) -> admin.Caller:
        scheme, _, token = str(headers.get("authorization", "")).partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Refused(401, "unauthorized: send Authorization: Bearer <token>")
        found = with_retries(lambda: admin.identify(self.pool, token.strip()))
        if found is None:
            raise Refused(401, "unauthorized: the token is unknown or revoked")
        wait = self.limits.take(found)
        if wait:
            raise Refused(429, "too many requests for this token; slow down",
                          retry_after=wait)
        return found

    # -- the verbs --------------------------------------------------------------------

    def run_verb(self, caller: admin.Caller, bank: str, name: str, body: Any) -> Any:
        chosen = verb(name) if name in VERBS else None
        if chosen is None:
            raise Refused(404, f"unknown verb {name!r}; the verbs are: {', '.join(VERBS)}")
        if caller.bank not in (None, bank):
            raise Refused(403, f"forbidden: this token is for bank {caller.bank!r} only")
        args = arguments(chosen, body)
        self.limits.check(name, args)
        result = self.replica.run(caller, bank, chosen.needs(args),
                                  lambda memory: chosen.run(memory, args), what=name)
        if name == "status":  # the bank, not where this replica happens to keep its copy
            result.update(workspace=f"{caller.tenant}/{bank}", index="server")
        return result

    def banks(self, caller: admin.Caller) -> list[str]:
        def names() -> list[str]:
            with tenant_tx(self.pool, caller.tenant) as conn:
                rows = conn.execute("SELECT name FROM banks ORDER BY name").fetchall()
            return [str(row[0]) for row in rows if caller.bank in (None, row[0])]
        return with_retries(names)

    def ready(self) -> tuple[bool, str]:
        try:
            with tenant_tx(self.pool, None) as conn:
                version = conn.execute("SELECT version_num FROM memfold_schema_version"
                                       ).fetchone()
        except Exception as exc:  # any failure means not ready; say which
            return False, f"database unavailable: {type(exc).__name__}"
        wanted = migrate.head()
        if version is None or version[0] != wanted:
            return False, f"schema at {version[0] if version else None}, wanted {wanted}"
        return True, "ready"


def build_app(server: Server, *, on_close: Callable[[], None] | None = None) -> Any:
    """The Starlette app serving `server`; `on_close` runs when it shuts down."""
    from starlette.applications import Starlette
    from starlette.routing import Route

    from memfold.server.mcp import mcp_app

    endpoints = _Endpoints(server)
    routes: list[Route] = [
        Route("/healthz", endpoints.healthz), Route("/readyz", endpoints.readyz),
        Route("/openapi.json", endpoints.openapi),
        Route("/v1/banks", endpoints.banks, methods=["GET"]),
        Route("/v1/banks/{bank}/export", endpoints.export, methods=["GET"]),
        Route("/v1/banks/{bank}/import", endpoints.load, methods=["POST"]),
        Route("/v1/banks/{bank}/{verb}", endpoints.run, methods=["POST"]),
        Route("/v1/banks/{rest:path}", endpoints.stray, methods=["GET", "POST"]),
    ]
    mcp, mcp_lifespan = mcp_app(server)
    routes += [Route("/mcp", _Asgi(mcp)), Route("/mcp/", _Asgi(mcp))]  # no redirect between

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        try:
            async with mcp_lifespan(app):
                yield
        finally:
            if on_close is not None:
                on_close()

    return Starlette(routes=routes, lifespan=lifespan)


class _Endpoints:
    """The app's request handlers over one `Server`: each /v1 request goes through `guarded`
    (the token, the body, the work in a thread, every outcome a JSON answer, one access-log
    line).  Starlette (the server extra) is imported where it is used."""

    def __init__(self, server: Server) -> None:
        self.server = server

    async def guarded(self, request: Request, work: Callable[[admin.Caller, Any], Any], *,
                      limit: int, verb_name: str | None = None) -> Response:
        from starlette.concurrency import run_in_threadpool

        started = time.perf_counter()
        caller: admin.Caller | None = None
        status, size, payload = 500, 0, None
        try:
            caller = await run_in_threadpool(self.server.caller, request.headers)
            body = await _read_body(request, limit)
            size = len(body)
            payload = _parse(body) if body else None
            result = await run_in_threadpool(work, caller, payload)
            status = 200
            return _answer(200, result)
        except Exception as exc:  # every outcome becomes a JSON answer; 500s are logged
            status = _status(exc)
            return _failure(exc, status, request, payload, verb_name)
        finally:
            _log_access(request, caller, status=status, started=started, verb_name=verb_name,
                        size=size)

    async def run(self, request: Request) -> Response:
        bank, name = request.path_params["bank"], request.path_params["verb"]
        return await self.guarded(request, lambda caller, body: self.server.run_verb(
            caller, bank, name, body), limit=self.server.limits.body_bytes, verb_name=name)

    async def banks(self, request: Request) -> Response:
        return await self.guarded(
            request, lambda caller, body: {"banks": self.server.banks(caller)}, limit=0)

    async def export(self, request: Request) -> Response:
        bank, pool = request.path_params["bank"], self.server.pool
        return await self.guarded(request, lambda caller, body: export_bank(pool, caller, bank),
                                  limit=0, verb_name="export")

    async def load(self, request: Request) -> Response:
        bank, replica = request.path_params["bank"], self.server.replica
        return await self.guarded(
            request, lambda caller, body: import_bank(replica, caller, bank, body),
            limit=self.server.limits.import_bytes, verb_name="import")

    async def stray(self, request: Request) -> Response:
        """A /v1/banks path no route above takes: a bank name with an encoded slash
        (`x%2Fy`, which the path arrives decoded as two segments) is the 400 every other
        bad bank name gets; any other shape is a JSON 404."""
        return await self.guarded(request, lambda caller, body: _stray(request),
                                  limit=self.server.limits.body_bytes)

    async def healthz(self, request: Request) -> Response:
        return _answer(200, {"status": "ok", "version": __version__})

    async def readyz(self, request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        ok, why = await run_in_threadpool(self.server.ready)
        return _answer(200 if ok else 503, {"status": why})

    async def openapi(self, request: Request) -> Response:
        return _answer(200, document())


def _stray(request: Request) -> Any:
    """Refuse a /v1/banks path no route takes (`_Endpoints.stray`), by its path as sent."""
    from urllib.parse import unquote

    raw = request.scope.get("raw_path") or request.url.path.encode()
    tail = raw.decode("latin-1").split("?", 1)[0].partition("/v1/banks/")[2]
    parts = tail.split("/")
    if len(parts) == 2 and parts[0] and parts[1]:
        check_bank(unquote(parts[0]))  # BadInput, 400: a bank name with a slash in it
    raise Refused(404, f"no such path: {request.url.path}; POST /v1/banks/BANK/VERB, GET "
                  "/v1/banks/BANK/export or POST /v1/banks/BANK/import")


def _answer(status: int, data: Any, *, retry_after: float | None = None) -> Response:
    from starlette.responses import JSONResponse

    headers = {"Retry-After": str(max(1, round(retry_after)))} if retry_after else None
    return JSONResponse(data, status_code=status, headers=headers)


def _failure(exc: Exception, status: int, request: Request, payload: Any,
             verb_name: str | None) -> Response:
    """The JSON answer to a request that failed with `exc`."""
    if isinstance(exc, StaleRevision) and verb_name == "note":
        return _answer(409, {"id": (payload or {}).get("id"), "result": "stale",
                             "rev": exc.current})
    if status == 500 and not isinstance(exc, MemfoldError):
        log.exception("internal error on %s", request.url.path)
        message = "internal error; the server's log has the details"
    else:
        message = str(exc)
    retry = getattr(exc, "retry_after", None) or (1.0 if status == 503 else None)
    return _answer(status, {"error": message, "type": type(exc).__name__}, retry_after=retry)


def _log_access(request: Request, caller: admin.Caller | None, *, status: int, started: float,
                verb_name: str | None, size: int) -> None:
    """One access-log line: never a fact's text."""
    ACCESS.info(json.dumps({
        "ts": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "method": request.method, "path": request.url.path, "status": status,
        "ms": round((time.perf_counter() - started) * 1000, 1),
        "tenant": caller.tenant if caller else None,
        "token": caller.name if caller else None,
        "bank": request.path_params.get("bank"), "verb": verb_name,
        "bytes_in": size}))


class _Asgi:
    """An ASGI callable as a Route's endpoint (Starlette treats a plain function as a
    request handler)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.app(scope, receive, send)


async def _read_body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise Refused(413, f"the body is over this server's limit of {limit} bytes")
    chunks: list[bytes] = []
    total = 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > limit:
            raise Refused(413, f"the body is over this server's limit of {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def _parse(body: bytes) -> Any:
    try:
        return json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadInput(f"the body is not JSON: {exc}") from None

