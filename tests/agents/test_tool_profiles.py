"""Tool profiles: `memfold mcp --profile minimal|standard|all` and `--tools NAME,...` serve a
subset of the tools (each listed tool costs a client tokens on every request); a tool the
server does not serve is refused like an unknown one.  docs/agents.md lists every tool."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from conftest import ROOT, Cli
from memfold.agents import tools as at
from memfold.errors import BadInput

DOCS = ROOT / "docs/agents.md"
MEMFOLD = [sys.executable, "-c", "from memfold.cli.main import main; main()"]


def names(tools: list[at.Tool]) -> list[str]:
    return [t.name for t in tools]


def test_the_profiles_hold_what_they_say() -> None:
    assert names(at.select(profile="minimal")) == ["recall", "retain", "use", "context"]
    standard = names(at.select(profile="standard"))
    assert set(names(at.select(profile="minimal"))) < set(standard)
    assert {"history", "trace", "status", "index", "reflect"}.isdisjoint(standard)
    assert names(at.select(profile="all")) == names(at.select()) == names(at.tools())
    # a list is served in the tools' own order, duplicates and blanks ignored
    assert names(at.select(names=["context", "recall", " recall", ""])) == ["recall", "context"]


@pytest.mark.parametrize(("options", "message"), [
    ({"profile": "huge"}, "unknown profile 'huge'; use one of: minimal, standard, all"),
    ({"names": ["recall", "recal"]}, "unknown tool 'recal'; the tools are: recall, about"),
    ({"names": [" "]}, "name at least one tool"),
    ({"profile": "minimal", "names": ["recall"]}, "a profile or a list of tools, not both"),
])
def test_a_bad_selection_is_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(BadInput, match=re.escape(message)):
        at.select(**options)


@pytest.mark.parametrize(("argv", "message"), [
    (["--tools", "recall,bogus"], "memfold: error: --tools: unknown tool 'bogus'; the tools "
                                  "are: recall,"),
    (["--profile", "minimal", "--tools", "recall"], "give --profile or --tools, not both"),
    (["--profile", "huge"], "'huge' is not one of 'minimal', 'standard', 'all'"),
])
def test_the_cli_refuses_a_bad_selection_in_one_line(run: Cli, argv: list[str],
                                                     message: str) -> None:
    result = run("mcp", *argv)
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.stderr


async def listed_and_refused(root: Path, *options: str) -> tuple[list[str], Any, str]:
    params = StdioServerParameters(command=MEMFOLD[0], env={"MEMFOLD_NOW": "2025-11-27"},
                                   args=[*MEMFOLD[1:], "--workspace", str(root), "mcp",
                                         *options])
    with anyio.fail_after(60):
        async with stdio_client(params) as (read, write), \
                ClientSession(read, write) as session:
            said = (await session.initialize()).instructions
            listed = [t.name for t in (await session.list_tools()).tools]
            return listed, await session.call_tool("status", {}), said


def test_a_profile_is_what_the_client_lists_and_may_call(workspace: Path) -> None:
    listed, refused, said = anyio.run(listed_and_refused, workspace, "--profile", "minimal")
    assert listed == ["recall", "retain", "use", "context"]
    # the server's instructions name only the tools it serves
    assert set(re.findall(r"`([a-z_]+)`", said)) == {"context", "recall", "retain", "use",
                                                    "source"}
    assert refused.is_error and refused.structured_content is None
    assert refused.content[0].text == ("unknown tool 'status'; this server's tools are: "
                                       "context, recall, retain, use")
    listed, allowed, said = anyio.run(listed_and_refused, workspace, "--tools", "status,recall")
    assert listed == ["recall", "status"] and not allowed.is_error
    assert set(re.findall(r"`([a-z_]+)`", said)) == {"recall", "source"}
    _, _, said = anyio.run(listed_and_refused, workspace)
    assert {"about", "core_view", "core_insert"} <= set(re.findall(r"`([a-z_]+)`", said))


def test_the_docs_list_every_tool_and_profile() -> None:
    text = DOCS.read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `([a-z_]+)` \|", text, flags=re.MULTILINE))
    assert set(names(at.tools())) <= rows
    lines = {ln.split("|")[1].split()[0]: ln for ln in text.splitlines()
             if ln.startswith(("| minimal |", "| standard |", "| all (default) |"))}
    minimal, standard = (set(names(at.select(profile=p))) for p in ("minimal", "standard"))
    said = {"minimal": minimal, "standard": standard - minimal,  # "minimal and ..."
            "all": set(names(at.tools())) - standard}  # "every tool above, ... too"
    for profile, members in said.items():
        assert {name for name in members if f"`{name}`" not in lines[profile]} == set()


def test_memfold_tools_prints_a_profile_too(run: Cli) -> None:
    printed = json.loads(run("tools", "--format", "anthropic", "--profile", "minimal").stdout)
    assert [t["name"] for t in printed] == ["recall", "retain", "use", "context"]
    printed = json.loads(run("tools", "--format", "mcp", "--tools", "recall,status").stdout)
    assert [t["name"] for t in printed] == ["recall", "status"]
    assert len(json.loads(run("tools").stdout)) == len(at.tools())
