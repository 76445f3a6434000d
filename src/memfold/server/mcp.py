"""MCP over streamable HTTP at /mcp: the tools `memfold mcp` serves, on a server bank.

The tool definitions are `agent_tools.tools()`, as for `memfold mcp`.  Each call is
authenticated like a REST request (`Authorization: Bearer <token>`; the tenant comes from
the token) and names its bank with the `X-Memfold-Bank` header, else the `bank` query
parameter, else the one bank a bank-restricted token is for.  A tool that changes memory runs
as a write (scope `write`, signed with the token's name — a `source` argument is ignored);
the others as reads.  A refusal or a failure comes back as a tool error with the message the
REST API gives.  Resources and prompts are served by `memfold mcp` on a local workspace only.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import parse_qs

from .. import __version__, agent_tools
from ..errors import BadInput, MemfoldError
from ..mcp_server import INSTRUCTIONS, SERVER_NAME, tool_result
from .admin import Refused

if TYPE_CHECKING:
    from .admin import Caller
    from .banks import Replica


class Server(Protocol):
    """What MCP needs of the app's state (memfold.server.app.Server)."""

    replica: Replica

    def caller(self, headers: Any) -> Caller: ...


READS = frozenset({"recall", "about", "show", "history", "trace", "status", "core_view",
                   "context", "index"})


def _bank(caller: Caller, headers: Any, query: str) -> str:
    named = headers.get("x-memfold-bank") or next(iter(parse_qs(query).get("bank", [])), None)
    bank = named or caller.bank
    if not bank:
        raise BadInput("name the bank: send the X-Memfold-Bank header or ?bank=NAME")
    return str(bank)


def call(server: Server, headers: Any, query: str, name: str,
         arguments: dict[str, Any] | None) -> tuple[bool, Any]:
    """Run one tool call for the request's caller; (is_error, JSON-able data)."""
    try:
        caller = server.caller(headers)
        bank = _bank(caller, headers, query)
        args = {k: v for k, v in (arguments or {}).items() if k != "source"}
        write = name not in READS and not (name == "reflect" and args.get("dry_run", True))
        scope = "write" if write else "read"
        if not caller.may(scope, bank):
            raise Refused(403, f"forbidden: {name} needs the {scope} scope"
                          + (f" and bank {caller.bank!r}" if caller.bank else ""))
        workspace = server.replica.bank(caller, bank)
        if write:
            data = workspace.write(caller, lambda m: agent_tools.call(m, name, args))
        else:
            data = workspace.read(lambda m: agent_tools.call(m, name, args))
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
    import importlib

    from starlette.concurrency import run_in_threadpool

    types = importlib.import_module("mcp.types")
    lowlevel = importlib.import_module("mcp.server.lowlevel")
    manager_module = importlib.import_module("mcp.server.streamable_http_manager")
    listed = [types.Tool.model_validate(t.as_mcp()) for t in agent_tools.tools()]

    async def list_tools(ctx: Any, params: Any) -> Any:
        return types.ListToolsResult(tools=listed)

    async def call_tool(ctx: Any, params: Any) -> Any:
        request = getattr(ctx, "request", None)
        headers = getattr(request, "headers", None) or {}
        query = str(getattr(getattr(request, "url", None), "query", "") or "")
        outcome = await run_in_threadpool(call, server, headers, query, params.name,
                                          params.arguments)
        return tool_result(types, *outcome)

    mcp_server = lowlevel.Server(SERVER_NAME, version=__version__, instructions=INSTRUCTIONS,
                                 on_list_tools=list_tools, on_call_tool=call_tool)
    manager = manager_module.StreamableHTTPSessionManager(app=mcp_server, stateless=True)

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            try:
                await run_in_threadpool(server.caller, _headers(scope))
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
    import json

    body = json.dumps({"error": message, "type": "Refused"}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body})
