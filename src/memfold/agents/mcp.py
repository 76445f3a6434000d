"""The MCP server: memfold's tools over stdio or streamable HTTP, on the official `mcp` SDK.

The tools are `agent_tools.tools()`, registered with the SDK's low-level `Server`, so what an
MCP client lists is exactly what `memfold tools` prints — one source of truth.  A call runs
the tool's handler on one `Memory` opened for the server's life; a MemfoldError comes back as
a tool error (`isError`) with its message in tool terms, any other exception as a tool error
saying "internal error" — the server itself never goes down because of a call.  A tool error
carries no `structuredContent` (clients check any they receive against the tool's
outputSchema); its details (type, exit_code, and a stale note's current rev) are in `_meta`
under "memfold/error".  `--profile` and `--tools` serve a subset of the tools
(`agent_tools.select`).

HTTP (`memfold mcp --http HOST:PORT`) binds 127.0.0.1 unless told otherwise and refuses a
non-loopback address without `--allow-remote`.  Every request passes `check_request` first:
the path must be /mcp; the Host and Origin headers must name a loopback address (DNS
rebinding protection) unless remote access was allowed; with a token, `Authorization:
Bearer TOKEN` is required (the scheme in any case, the token compared in constant time);
serving without one takes `--no-token`, and says so loudly.  A named token's caller signs
what it writes with the token's name (a retain's `source` only adds a label after it:
`planner/claude`); a token with only the `read` scope is refused every tool that is not
read-only (`loopback.NamedTokens`).

Beside the tools it serves resources (core memory, entity pages, a fact by id) and prompts
(session start, remember this conversation) from `memfold.agents.resources`, and every tool
declares an output schema (`memfold.agents.outputs`) that its structured content follows.

The SDK (2.x: handlers passed to the low-level Server's constructor) is an optional extra,
imported only here and only when serving.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from memfold import __version__, loopback
from memfold.agents import resources as content
from memfold.agents import tools as agent_tools
from memfold.errors import AccessDenied, BadInput, MemfoldError, UnknownId

if TYPE_CHECKING:
    from memfold.api import MemoryAPI

INSTALL_HINT = "the MCP server needs the mcp extra: pip install 'memfold[mcp]'"
SERVER_NAME = "memfold"
MCP_PATH = "/mcp"
# the server's instructions: a sentence for each tool it may serve (see `instructions`)
_GUIDE = (
    ("", "memfold is this agent's long-term memory, kept as Markdown a person can read."),
    ("context", "At the start of a session call `context`."),
    ("recall", "Before answering from past sessions call `recall` and cite each fact's "
               "`source`."),
    ("about", "Call `about` for everything on a person or project."),
    ("retain", "Store what is worth keeping with `retain`."),
    ("core_*", "Keep the always-needed essentials in core memory ({})."),
    ("use", "Call `use` for facts you relied on."),
)
_CORE_EDITS = ("core_view", "core_append", "core_replace", "core_insert")


def instructions(served: Collection[str]) -> str:
    """What the server tells a client: the sentences of `_GUIDE` whose tools it serves, so
    that no tool a client cannot call is named."""
    core = ", ".join(f"`{name}`" for name in _CORE_EDITS if name in served)
    return " ".join(text.format(core) for needs, text in _GUIDE
                    if not needs or needs in served or (needs == "core_*" and core))


def require_sdk() -> None:
    """Raise MemfoldError with the install hint when the `mcp` package is missing."""
    try:
        import mcp  # noqa: F401
    except ImportError:
        raise MemfoldError(INSTALL_HINT) from None


def _sdk(module: str) -> Any:
    """A module of the SDK, untyped on purpose: its 1.x and 2.x APIs differ."""
    return importlib.import_module(module)


class ToolRunner:
    """Runs tools on one Memory and turns every outcome into (is_error, JSON-able data);
    `served` names the tools this server offers (all of them by default): any other name is
    refused like an unknown tool."""

    def __init__(self, memory: MemoryAPI, *, served: Collection[str] | None = None) -> None:
        self.memory = memory
        self.served = frozenset(served) if served is not None else None
        self._notices = 0

    def run(self, name: str, arguments: Mapping[str, Any] | None,
            source: str | None = None, *, may_write: bool = True) -> tuple[bool, Any]:
        """Run one tool; `source` (the caller's identity, e.g. an HTTP token's name) signs
        what it writes; a caller that may not write is refused every tool that is not
        read-only.  Handlers run one at a time on the server's event loop thread, so
        signing the handle for the call's length cannot reach another call."""
        try:
            if self.served is not None and name not in self.served:
                raise BadInput(f"unknown tool {name!r}; this server's tools are: "
                               f"{', '.join(sorted(self.served))}")
            if not may_write and not agent_tools.tool(name).read_only:
                raise AccessDenied(f"{name} changes memory and this token may only read; "
                                   "call the read-only tools (recall, about, context...)")
            with self.memory.signed(source):
                return False, agent_tools.call(self.memory, name, arguments)
        except Exception as exc:  # noqa: BLE001 - a bug must not take the server down
            return True, agent_tools.error_result(exc)
        finally:
            self._show_notices()

    def _show_notices(self) -> None:
        notices = self.memory.notices
        for notice in notices[self._notices:]:
            print(f"memfold: warning: {notice}", file=sys.stderr)
        self._notices = len(notices)


ERROR_META = "memfold/error"  # the _meta key of a refusal's details (type, exit_code, rev)


def tool_result(types: Any, is_error: bool, data: Any) -> Any:
    """A CallToolResult: the data as JSON text plus `structuredContent`, which follows the
    tool's outputSchema.  A refusal is `isError` with its message as the text and no
    structuredContent (clients check any they get against the outputSchema, and a refusal
    does not have that shape); its details go in `_meta` under ERROR_META."""
    if is_error:
        return types.CallToolResult.model_validate({
            "content": [{"type": "text", "text": data["error"]}], "isError": True,
            "_meta": {ERROR_META: data}})
    text = json.dumps(data, ensure_ascii=False)
    payload: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": False}
    if isinstance(data, dict):
        payload["structuredContent"] = data
    return types.CallToolResult.model_validate(payload)


def build_server(memory: MemoryAPI, *, tokens: loopback.NamedTokens | None = None,
                 tools: Sequence[agent_tools.Tool] | None = None) -> Any:
    """The SDK's low-level Server with memfold's tools (`tools`, default every one),
    resources and prompts registered; over HTTP, `tokens` name the caller whose writes a
    call signs, and what it may do."""
    served = agent_tools.tools() if tools is None else list(tools)
    runner = ToolRunner(memory, served=[t.name for t in served])
    named = tokens or loopback.NamedTokens()

    async def run(request: Any, name: str, arguments: Any) -> tuple[bool, Any]:
        headers = getattr(request, "headers", None) or {}
        caller = loopback.identify(headers, named.secrets)
        return runner.run(name, arguments, caller, may_write=named.may_write(caller))

    return tool_server(run, tools=served, **_content_handlers(_sdk("mcp.types"), runner))


ToolCall = Callable[[Any, str, Any], Awaitable[tuple[bool, Any]]]


def tool_server(run: ToolCall, *, tools: Sequence[agent_tools.Tool] | None = None,
                **handlers: Any) -> Any:
    """The SDK's low-level Server listing memfold's tools (`tools`, default
    `agent_tools.tools()`), each call answered by `run(request, name, arguments)` as
    (is_error, data); `handlers` add resources and prompts.  `memfold mcp` and the memory
    server's /mcp both serve this."""
    types = _sdk("mcp.types")
    served = agent_tools.tools() if tools is None else list(tools)
    listed = [types.Tool.model_validate(t.as_mcp()) for t in served]

    async def list_tools(ctx: Any, params: Any) -> Any:
        return types.ListToolsResult(tools=listed)

    async def call_tool(ctx: Any, params: Any) -> Any:
        outcome = await run(getattr(ctx, "request", None), params.name, params.arguments)
        return tool_result(types, *outcome)

    return _sdk("mcp.server.lowlevel").Server(
        SERVER_NAME, version=__version__, instructions=instructions({t.name for t in served}),
        on_list_tools=list_tools, on_call_tool=call_tool, **handlers)


def _content_handlers(types: Any, runner: ToolRunner) -> dict[str, Any]:
    """Handlers for resources and prompts (memfold.agents.resources); a MemfoldError becomes
    a protocol error with its message (an unknown fact: resource not found)."""
    memory = runner.memory

    async def list_resources(ctx: Any, params: Any) -> Any:
        return types.ListResourcesResult.model_validate(
            {"resources": _answer(lambda: content.resources(memory))})

    async def list_templates(ctx: Any, params: Any) -> Any:
        return types.ListResourceTemplatesResult.model_validate(
            {"resourceTemplates": content.templates()})

    async def read_resource(ctx: Any, params: Any) -> Any:
        found = _answer(lambda: content.read(memory, str(params.uri)))
        return types.ReadResourceResult.model_validate({"contents": [
            {"uri": found.uri, "mimeType": found.mime_type, "text": found.text}]})

    async def list_prompts(ctx: Any, params: Any) -> Any:
        return types.ListPromptsResult.model_validate(
            {"prompts": [p.to_dict() for p in content.prompts()]})

    async def get_prompt(ctx: Any, params: Any) -> Any:
        description, text = _answer(
            lambda: content.get_prompt(memory, params.name, params.arguments))
        return types.GetPromptResult.model_validate({"description": description, "messages": [
            {"role": "user", "content": {"type": "text", "text": text}}]})

    return {"on_list_resources": list_resources, "on_list_resource_templates": list_templates,
            "on_read_resource": read_resource, "on_list_prompts": list_prompts,
            "on_get_prompt": get_prompt}


RESOURCE_NOT_FOUND, INVALID_PARAMS = -32002, -32602  # MCP's and JSON-RPC's error codes


def _answer(produce: Callable[[], Any]) -> Any:
    """produce(), with a MemfoldError raised as the SDK's protocol error."""
    try:
        return produce()
    except MemfoldError as exc:
        code = RESOURCE_NOT_FOUND if isinstance(exc, UnknownId) else INVALID_PARAMS
        raise _sdk("mcp.shared.exceptions").MCPError(code, str(exc)) from None


def serve_stdio(memory: MemoryAPI, *, tools: Sequence[agent_tools.Tool] | None = None) -> None:
    """Serve `tools` (default every one) over this process's stdin and stdout until the
    client closes them."""
    import anyio

    server = build_server(memory, tools=tools)

    async def main() -> None:
        async with _sdk("mcp.server.stdio").stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)


# -- HTTP ---------------------------------------------------------------------------------------


def check_request(path: str, headers: Mapping[str, str], *, token: str | None,
                  allow_remote: bool,
                  tokens: loopback.NamedTokens | None = None) -> tuple[int, str] | None:
    """None when the request may reach the MCP endpoint, else (HTTP status, reason).

    `headers` are lower-cased names."""
    if path.rstrip("/") != MCP_PATH:
        return 404, f"not found: the MCP endpoint is {MCP_PATH}"
    if not allow_remote:
        foreign = loopback.foreign(headers)
        if foreign:
            return 403, f"forbidden: {foreign} is not a loopback address"
    secrets = tokens.secrets if tokens else {}
    if (token or secrets) and not loopback.authorized(headers, token, secrets):
        return 401, "unauthorized: send Authorization: Bearer <token>"
    return None


async def _refuse(send: Any, status: int, reason: str) -> None:
    body = json.dumps({"error": reason}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length",
                                                        str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="memfold"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def serve_http(memory: MemoryAPI, host: str, port: int, *, token: str | None,
               allow_remote: bool, tokens: loopback.NamedTokens | None = None,
               tools: Sequence[agent_tools.Tool] | None = None) -> None:
    """Serve `tools` (default every one) as streamable HTTP at http://HOST:PORT/mcp until
    interrupted."""
    import anyio
    import uvicorn

    manager = _sdk("mcp.server.streamable_http_manager").StreamableHTTPSessionManager(
        app=build_server(memory, tokens=tokens, tools=tools))

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        refused = check_request(scope.get("path", ""), headers, token=token,
                                allow_remote=allow_remote, tokens=tokens)
        if refused:
            await _refuse(send, *refused)
            return
        await manager.handle_request(scope, receive, send)

    sock = loopback.listen(host, port)
    shown = f"[{host}]" if ":" in host else host

    async def main() -> None:
        config = uvicorn.Config(app, log_level="warning", lifespan="off")
        async with manager.run():
            print(f"memfold mcp: serving http://{shown}:{port}{MCP_PATH}"
                  f"{' (bearer token required)' if token or tokens else ''}", file=sys.stderr,
                  flush=True)
            await uvicorn.Server(config).serve(sockets=[sock])

    try:
        anyio.run(main)
    finally:
        sock.close()
