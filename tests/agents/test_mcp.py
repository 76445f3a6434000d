"""`memfold mcp`: a real MCP client session from the SDK against the server in a subprocess."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from memfold import Memory

NOW = "2025-11-27T09:00:00+00:00"
TIMEOUT = 60
SECRET = "5e" * 32  # a token of 32 bytes, as `openssl rand -hex 32` prints one
# the `memfold` command
MEMFOLD = [sys.executable, "-c", "from memfold.cli.main import main; main()"]


def server_env(**extra: str) -> dict[str, str]:
    env = {"MEMFOLD_NOW": NOW, **extra}
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


def is_error(result: Any) -> bool:
    return bool(getattr(result, "is_error", getattr(result, "isError", False)))


def payload(result: Any) -> Any:
    text = result.content[0].text
    return text if is_error(result) else json.loads(text)


def hint(tool: Any, name: str) -> Any:
    annotations = tool.annotations
    snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in name)
    return getattr(annotations, snake, getattr(annotations, name, None))


def cited_line(root: Path, source: str) -> str:
    path, _, number = source.partition("#L")
    return (root / path).read_text().split("\n")[int(number) - 1]


async def session_script(root: Path, errlog: Any) -> dict[str, Any]:
    params = StdioServerParameters(command=MEMFOLD[0],
                                   args=[*MEMFOLD[1:], "--workspace", str(root), "mcp"],
                                   env=server_env())
    seen: dict[str, Any] = {}
    with anyio.fail_after(TIMEOUT):
        async with stdio_client(params, errlog=errlog) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            seen["tools"] = (await session.list_tools()).tools
            call = session.call_tool
            seen["retain"] = await call("retain", {"bullets": [
                "W @Peter: Lives in Vienna.", "O(c=0.9) @Peter: Prefers short replies."]})
            seen["recall"] = await call("recall", {"query": "where does Peter live"})
            seen["core_append"] = await call("core_append", {"block": "Human",
                                                             "text": "Peter, in Vienna."})
            seen["over_limit"] = await call("core_append", {"block": "Persona",
                                                            "text": "x" * 1001})
            fact_id = payload(seen["retain"])["ids"][0]
            seen["note"] = await call("note", {"id": fact_id, "text": "confirmed", "rev": 0})
            seen["stale"] = await call("note", {"id": fact_id, "text": "late", "rev": 0})
            seen["bad_args"] = await call("recall", {"query": "x", "k": "many"})
            seen["core_view"] = await call("core_view", {})
            seen["context"] = await call("context", {"budget": 400})
            if any(t.name == "reflect" for t in seen["tools"]):
                seen["reflect"] = await call("reflect", {})
    return seen


def test_a_real_client_session_over_stdio(workspace: Path, tmp_path: Path) -> None:
    before_core = (workspace / "memory.md").read_text()
    with open(tmp_path / "server.stderr", "w") as errlog:
        seen = anyio.run(session_script, workspace, errlog)
    tools = {t.name: t for t in seen["tools"]}
    assert {"recall", "about", "show", "retain", "use", "note", "supersede", "core_view",
            "core_append", "core_replace", "core_insert", "context"} <= set(tools)
    assert ("reflect" in tools) == hasattr(Memory, "reflect")
    assert hint(tools["recall"], "readOnlyHint") is True
    assert hint(tools["core_replace"], "destructiveHint") is True
    assert hint(tools["retain"], "readOnlyHint") is False
    schema = getattr(tools["note"], "input_schema", None) or tools["note"].inputSchema
    assert schema["required"] == ["id", "text", "rev"]

    retained = payload(seen["retain"])
    assert not is_error(seen["retain"]) and len(retained["ids"]) == 2
    hits = payload(seen["recall"])["results"]
    assert hits and hits[0]["id"] == retained["ids"][0]
    for hit in hits:  # every result cites the line that holds it
        assert hit["content"] in cited_line(workspace, hit["source"])

    edit = payload(seen["core_append"])
    assert edit["text"] == "Peter, in Vienna." and edit["block"] == "Human"
    core_text = (workspace / "memory.md").read_text()
    assert core_text == before_core.replace("## Human\n", "## Human\n\nPeter, in Vienna.\n")

    assert is_error(seen["over_limit"])
    assert payload(seen["over_limit"]) == ("block 'Persona' would be 1001 characters; its limit "
                                           "is 1000 (0 used). Shorten it with core_replace "
                                           "first, or raise its limit in memory.md's front "
                                           "matter")
    assert "x" * 1001 not in (workspace / "memory.md").read_text()

    assert payload(seen["note"]) == {"id": retained["ids"][0], "result": "applied", "rev": 1}
    assert is_error(seen["stale"]) and "is at revision 1, not 0" in payload(seen["stale"])
    # a refusal has no structuredContent (it would not match the outputSchema): its details
    # are in _meta
    assert seen["stale"].structured_content is None
    details = seen["stale"].meta["memfold/error"]
    assert details["result"] == "stale" and details["rev"] == 1 and details["exit_code"] == 3
    assert is_error(seen["bad_args"]) and "k must be an integer" in payload(seen["bad_args"])

    blocks = {b["name"]: b for b in payload(seen["core_view"])["blocks"]}
    assert blocks["Human"]["chars"] == len("Peter, in Vienna.")
    context = payload(seen["context"])
    assert "Peter, in Vienna.  memory.md#L" in context["text"]
    assert "Lives in Vienna." in context["text"] and context["tokens"] <= 400
    if "reflect" in seen:
        assert not is_error(seen["reflect"]), payload(seen["reflect"])
    assert "Traceback" not in (tmp_path / "server.stderr").read_text()


# -- streamable HTTP, minimally: loopback only, bounded ---------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def post(url: str, headers: dict[str, str]) -> tuple[int, str]:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "memfold-test", "version": "1"}}}).encode()
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
        **headers})
    try:
        with urllib.request.urlopen(request, timeout=15) as response:  # noqa: S310
            return response.status, response.read(4096).decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_http_requires_the_token_and_a_loopback_host(workspace: Path) -> None:
    port = free_port()
    env = {**os.environ, **server_env(MEMFOLD_MCP_TOKEN=SECRET)}
    proc = subprocess.Popen(
        [*MEMFOLD, "--workspace", str(workspace), "mcp", "--http", f"127.0.0.1:{port}"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env)
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()  # printed once the socket listens
        assert first.startswith(f"memfold mcp: serving http://127.0.0.1:{port}/mcp"), first
        url = f"http://127.0.0.1:{port}/mcp"
        assert post(url, {})[0] == 401
        assert post(url, {"Authorization": "Bearer wrong"})[0] == 401
        token = {"Authorization": f"Bearer {SECRET}"}
        assert post(url, {**token, "Host": "evil.example"})[0] == 403
        assert post(url, {**token, "Origin": "http://evil.example"})[0] == 403
        assert post(f"http://127.0.0.1:{port}/other", token)[0] == 404
        status, body = post(url, token)
        assert status == 200 and '"serverInfo"' in body and '"memfold"' in body
    finally:
        proc.terminate()
        proc.wait(10)


def test_http_refuses_a_public_address_without_allow_remote(workspace: Path) -> None:
    result = subprocess.run(
        [*MEMFOLD, "--workspace", str(workspace), "mcp", "--http", "0.0.0.0:8765"],
        capture_output=True, text=True, timeout=TIMEOUT, env={**os.environ, **server_env()})
    assert result.returncode == 2
    assert "not a loopback address" in result.stderr and "--allow-remote" in result.stderr


def test_the_bearer_scheme_is_case_insensitive() -> None:
    from memfold.agents.mcp import check_request

    host = {"host": "127.0.0.1:8765"}
    for header in ("Bearer s3cret", "bearer s3cret", "BEARER  s3cret"):
        assert check_request("/mcp", {**host, "authorization": header}, token="s3cret",
                             allow_remote=False) is None, header
    for header in ("Bearer wrong", "Basic s3cret", "s3cret", ""):
        assert check_request("/mcp", {**host, "authorization": header}, token="s3cret",
                             allow_remote=False) == (401, "unauthorized: send Authorization: "
                                                          "Bearer <token>"), header


def test_http_without_a_token_needs_no_token_and_says_so(workspace: Path) -> None:
    refused = subprocess.run(
        [*MEMFOLD, "--workspace", str(workspace), "mcp", "--http", "127.0.0.1:1"],
        capture_output=True, text=True, timeout=TIMEOUT, env={**os.environ, **server_env()})
    assert refused.returncode == 2 and "--no-token" in refused.stderr
    port = free_port()
    proc = subprocess.Popen(
        [*MEMFOLD, "--workspace", str(workspace), "mcp", "--http", f"127.0.0.1:{port}",
         "--no-token"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
        env={**os.environ, **server_env()})
    try:
        assert proc.stderr is not None
        warning = proc.stderr.readline()
        assert "WITHOUT A TOKEN" in warning, warning
        assert proc.stderr.readline().startswith("memfold mcp: serving http://")
        status, _ = post(f"http://127.0.0.1:{port}/mcp", {})
        assert status == 200
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.mark.parametrize("token, said", [
    ("s3cret", "43 or more characters, not 6"),
    ("ab" * 31, "64 or more hex digits, not 62"),
])
def test_http_refuses_a_short_token(workspace: Path, token: str, said: str) -> None:
    result = subprocess.run(
        [*MEMFOLD, "--workspace", str(workspace), "mcp", "--http", "127.0.0.1:1",
         "--token", token],
        capture_output=True, text=True, timeout=TIMEOUT, env={**os.environ, **server_env()})
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr == ("memfold: error: --token: a token must hold at least 32 random "
                             f"bytes ({said}); make one with `openssl rand -hex 32`\n")
