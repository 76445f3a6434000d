"""MCP over streamable HTTP at /mcp: the tools `memfold mcp` serves, on a server bank.

The server is `agents.mcp.tool_server`, as for `memfold mcp`.  Each request is authenticated
once, like a REST request (`Authorization: Bearer <token>`; the tenant comes from the token),
before any MCP traffic, and a call names its bank with the `X-Memfold-Bank` header, else the
`bank` query parameter, else the one bank a bank-restricted token is for.  A tool runs as a
read or a write as its REST verb does (a write needs the `write` scope and is signed with the
token's name — a retain's `source` argument is only a label after it: `planner/claude`), a
tool without a verb as a read only when it changes nothing (`needs`: a read-only token cannot
rebuild an index through `index`).  A
refusal or a failure comes back as a tool error with the message the REST API gives.
Resources and prompts are served by `memfold mcp` on a local workspace only.
"""

from __future__ import annotations

import contextlib
import importlib
import json
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import parse_qs

from memfold.agents import tools as agent_tools
from memfold.agents.mcp import tool_server
from memfold.errors import BadInput, MemfoldError
from memfold.server.admin import Refused
from memfold.server.verbs import VERBS

if TYPE_CHECKING:
    from memfold.server.admin import Caller
    from memfold.server.replica import Replica


class Server(Protocol):
    """What MCP needs of the app's state (memfold.server.app.Server)."""

    replica: Replica

    def caller(self, headers: Any) -> Caller: ...


CALLER = "memfold.caller"  # the ASGI scope key `app` leaves the request's Caller under


def _bank(caller: Caller, headers: Any, query: str) -> str:
    named = headers.get("x-memfold-bank") or next(iter(parse_qs(query).get("bank", [])), None)
    bank = named or caller.bank
    if not bank:
        raise BadInput("name the bank: send the X-Memfold-Bank header or ?bank=NAME")
    return str(bank)


def needs(name: str, args: dict[str, Any]) -> str:
    """The scope a tool call needs: its REST verb's (review reads; review_accept and
    review_reject write); for a tool without one, `read` only when the tool changes nothing,
    else `write` (`index`, which rebuilds the bank's index with `full` and syncs it
    without)."""
    verb = VERBS.get(name)
    if verb is not None:
        return verb.needs(args)
    return "read" if agent_tools.tool(name).read_only else "write"


def call(server: Server, caller: Caller, headers: Any, query: str, name: str,
         arguments: dict[str, Any] | None) -> tuple[bool, Any]:
    """Run one tool call for the request's caller; (is_error, JSON-able data), as a read or
    a write as `needs` says."""
    try:
        bank = _bank(caller, headers, query)
        args = dict(arguments or {})
        scope = needs(name, args)
        data = server.replica.run(caller, bank, scope,
                                  lambda m: agent_tools.call(m, name, args), what=name)
        return False, data
    except Refused as exc:
        return True, {"error": str(exc), "type": "Refused", "status": exc.status}
    except MemfoldError as exc:
        return True, agent_tools.error_result(exc)
    except Exception as exc:  # a bug must not take the server down: report it
        return True, {"error": f"internal error: {type(exc).__name__}", "type": "InternalError",
                      "exit_code": 1}


def mcp_app(server: Server) -> tuple[Any, Any]:
    """The ASGI app for /mcp and the lifespan that runs its session manager."""
    from starlette.concurrency import run_in_threadpool  # the server extra

    manager_module = importlib.import_module("mcp.server.streamable_http_manager")

    async def run(request: Any, name: str, arguments: Any) -> tuple[bool, Any]:
        scope = request.scope  # the caller, authenticated once by `app` below
        return await run_in_threadpool(call, server, scope[CALLER], request.headers,
                                       str(request.url.query), name, arguments)

    mcp_server = tool_server(run)
    manager = manager_module.StreamableHTTPSessionManager(app=mcp_server, stateless=True)

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            try:
                scope[CALLER] = await run_in_threadpool(server.caller, _headers(scope))
            except Exception as exc:  # refused before any MCP traffic
                await _refuse(send, getattr(exc, "status", 401), str(exc))
                return
        await manager.handle_request(scope, receive, send)

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        async with manager.run():
            yield

    return app, lifespan


def _headers(scope: Any) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}


async def _refuse(send: Any, status: int, message: str) -> None:
    body = json.dumps({"error": message, "type": "Refused"}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body})
