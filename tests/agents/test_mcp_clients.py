"""The official MCP clients against `memfold mcp`: the Python SDK over stdio and streamable
HTTP, the TypeScript SDK (tests/mcp_ts_client, installed by `npm ci`) over stdio and HTTP.

Every tool is called with ordinary and with refused arguments (tests/mcp_plan.py) on a
workspace with prose, core blocks, a bank page and Retain bullets.  Each answer must be a
result — never an exception in the client, which checks every structuredContent against the
tool's outputSchema — ordinary calls answered, refusals `isError` with a text a model can act
on, in tool terms.  `pytest -s` prints the tool-by-tool table.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import jsonschema
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from conftest import ROOT
from mcp_plan import NOW, PLAN, Step, build_workspace
from memfold.agents.outputs import output_schema
from system_support import missing

TIMEOUT = 120
# the `memfold` command
MEMFOLD = [sys.executable, "-c", "from memfold.cli.main import main; main()"]
TS_CLIENT = ROOT / "tests" / "mcp_ts_client"
CLI_WORDS = re.compile(r"`memfold|\bmemfold (?:core|recall|index|forget|show)\b|(?<![\w-])--[a-z]")


@dataclass(frozen=True)
class Answer:
    """What a client made of one call: a result (is_error, text, structured) or an exception."""

    step: Step
    exception: str | None = None
    is_error: bool = False
    text: str = ""
    structured: Any = None

    def problem(self) -> str | None:
        """Why this answer is wrong, or None."""
        if self.exception is not None:
            return f"the client raised: {self.exception}"
        if self.step.refusal is None:
            if self.is_error:
                return f"refused an ordinary call: {self.text}"
            try:
                jsonschema.validate(self.structured, output_schema(self.step.tool))
            except jsonschema.ValidationError as exc:
                return f"structuredContent does not match the outputSchema: {exc.message}"
            return None
        if not self.is_error:
            return f"answered a call it should refuse: {self.text[:200]}"
        if self.structured is not None:
            return f"a refusal carries structuredContent: {self.structured}"
        if self.step.refusal not in self.text:
            return f"the refusal does not say {self.step.refusal!r}: {self.text}"
        if CLI_WORDS.search(self.text):
            return f"the refusal speaks in CLI terms: {self.text}"
        return None


def server_env() -> dict[str, str]:
    env = {"MEMFOLD_NOW": NOW, "PATH": os.environ.get("PATH", "")}
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


# -- the Python SDK client ---------------------------------------------------------------------


async def _run_plan(session: ClientSession) -> list[Answer]:
    await session.initialize()
    await session.list_tools()  # the client then checks each result against its outputSchema
    answers = []
    for step in PLAN:
        try:
            result = await session.call_tool(step.tool, step.arguments)
        except Exception as exc:  # noqa: BLE001 - a client-side exception is the failure
            answers.append(Answer(step, exception=f"{type(exc).__name__}: {exc}"))
            continue
        text = "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")
        answers.append(Answer(step, is_error=bool(result.is_error), text=text,
                              structured=result.structured_content))
    return answers


def python_stdio(root: Path, errlog: Any) -> list[Answer]:
    params = StdioServerParameters(command=MEMFOLD[0], env=server_env(),
                                   args=[*MEMFOLD[1:], "--workspace", str(root), "mcp"])

    async def main() -> list[Answer]:
        with anyio.fail_after(TIMEOUT):
            async with stdio_client(params, errlog=errlog) as (read, write), \
                    ClientSession(read, write) as session:
                return await _run_plan(session)

    return anyio.run(main)


def python_http(url: str) -> list[Answer]:
    async def main() -> list[Answer]:
        with anyio.fail_after(TIMEOUT):
            async with streamable_http_client(url) as (read, write, *_), \
                    ClientSession(read, write) as session:
                return await _run_plan(session)

    return anyio.run(main)


@contextmanager
def http_server(root: Path) -> Iterator[str]:
    """`memfold mcp --http` on a free loopback port (no token: the tests' own clients)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.Popen(
        [*MEMFOLD, "--workspace", str(root), "mcp", "--http", f"127.0.0.1:{port}",
         "--no-token"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
        env={**os.environ, **server_env()})
    try:
        assert proc.stderr is not None
        line = ""
        while "serving http://" not in line:
            line = proc.stderr.readline()
            assert line, "the server stopped before serving"
        yield line.split("serving ", 1)[1].split()[0]
    finally:
        proc.terminate()
        proc.wait(10)


# -- the TypeScript SDK client -----------------------------------------------------------------


def ts_client_ready() -> str:
    """The node executable, once tests/mcp_ts_client is installed; else the test fails."""
    node = shutil.which("node")
    if node is None or shutil.which("npm") is None:
        missing("the TypeScript MCP client tests need Node.js 20+ and npm")
    if not (TS_CLIENT / "node_modules/@modelcontextprotocol/sdk").is_dir():
        missing("the TypeScript MCP client is not installed")
    return str(node)


def typescript(plan: dict[str, Any], tmp_path: Path) -> list[Answer]:
    node = ts_client_ready()
    calls = [{"label": step.name, "name": step.tool, "arguments": step.arguments}
             for step in PLAN]
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(json.dumps({**plan, "calls": calls}), encoding="utf-8")
    done = subprocess.run([node, str(TS_CLIENT / "client.mjs"), str(plan_file)],
                          capture_output=True, text=True, timeout=TIMEOUT, cwd=TS_CLIENT)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    by_label = {line["label"]: line for line in lines}
    answers = []
    for step in PLAN:
        seen = by_label.get(step.name, {"exception": "no answer printed"})
        answers.append(Answer(step, exception=seen.get("exception"),
                              is_error=seen.get("isError", False), text=seen.get("text", ""),
                              structured=seen.get("structuredContent")))
    return answers


def ts_stdio(root: Path, tmp_path: Path) -> list[Answer]:
    return typescript({"command": MEMFOLD[0], "env": server_env(),
                       "args": [*MEMFOLD[1:], "--workspace", str(root), "mcp"]}, tmp_path)


# -- the table ---------------------------------------------------------------------------------


def table(results: dict[str, list[Answer]]) -> str:
    """tool | per client: ordinary ok, refusal ok (n/m where a tool has several calls)."""
    tools = list(dict.fromkeys(step.tool for step in PLAN))
    head = "| tool | " + " | ".join(f"{c} ordinary | {c} refusal" for c in results) + " |"
    rows = [head, "|" + "---|" * (1 + 2 * len(results))]
    for name in tools:
        cells = []
        for answers in results.values():
            for refused in (False, True):
                mine = [a for a in answers
                        if a.step.tool == name and (a.step.refusal is not None) == refused]
                good = sum(a.problem() is None for a in mine)
                cells.append(("ok" if good == len(mine) else "FAIL") +
                             (f" {good}/{len(mine)}" if len(mine) != 1 else ""))
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def check(client: str, answers: list[Answer]) -> None:
    print(f"\n{client}:\n{table({client: answers})}")
    problems = [f"{a.step.name}: {p}" for a in answers if (p := a.problem())]
    assert not problems, "\n".join(problems)
    prose = next(a for a in answers if a.step.name == "recall/ordinary").structured
    assert any(hit["date"] is None for hit in prose["results"])  # a page or core block's
    stale = next(a for a in answers if a.step.name == "note/refused")
    assert stale.text == "stale: danamove is at revision 1, not 0"


def test_the_python_client_over_stdio(tmp_path: Path) -> None:
    root = build_workspace(tmp_path / "ws")
    with open(tmp_path / "server.stderr", "w") as errlog:
        answers = python_stdio(root, errlog)
    check("python stdio", answers)
    assert "Traceback" not in (tmp_path / "server.stderr").read_text()


def test_the_python_client_over_http(tmp_path: Path) -> None:
    root = build_workspace(tmp_path / "ws")
    with http_server(root) as url:
        answers = python_http(url)
    check("python http", answers)


def test_the_typescript_client_over_stdio(tmp_path: Path) -> None:
    ts_client_ready()
    root = build_workspace(tmp_path / "ws")
    check("typescript stdio", ts_stdio(root, tmp_path))


def test_the_typescript_client_over_http(tmp_path: Path) -> None:
    ts_client_ready()
    root = build_workspace(tmp_path / "ws")
    with http_server(root) as url:
        answers = typescript({"url": url}, tmp_path)
    check("typescript http", answers)


def test_a_refusal_carries_no_structured_content() -> None:
    import mcp.types as types

    from memfold.agents.mcp import ERROR_META, tool_result

    details = {"error": "stale: x is at revision 1, not 0", "type": "StaleRevision",
               "exit_code": 3, "result": "stale", "rev": 1}
    refused = tool_result(types, True, details)
    assert refused.is_error and refused.structured_content is None
    assert refused.content[0].text == details["error"] and refused.meta == {ERROR_META: details}
    answered = tool_result(types, False, {"used": ["x"]})
    assert not answered.is_error and answered.structured_content == {"used": ["x"]}
    assert json.loads(answered.content[0].text) == {"used": ["x"]}
