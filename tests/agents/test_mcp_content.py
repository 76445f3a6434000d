"""`memfold mcp` beyond tools: resources, prompts and structured results, through the SDK's
own client against the server in a subprocess."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError
from test_mcp import MEMFOLD, NOW, TIMEOUT, server_env

from memfold import Memory
from memfold.agents.resources import read


def seed(root: Path) -> str:
    with Memory.open(root, now=NOW) as memory:
        memory.core_append("Human", "Ann, who runs the Acme launch.")
        return memory.retain(["W @Peter: Lives in Vienna.", "B @Peter: Called about Acme."],
                             date="2025-11-26").facts[0].id


async def script(root: Path, fact_id: str, errlog: Any) -> dict[str, Any]:
    params = StdioServerParameters(command=MEMFOLD[0],
                                   args=[*MEMFOLD[1:], "--workspace", str(root), "mcp"],
                                   env=server_env())
    seen: dict[str, Any] = {}
    with anyio.fail_after(TIMEOUT):
        async with stdio_client(params, errlog=errlog) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            seen["resources"] = (await s.list_resources()).resources
            seen["templates"] = (await s.list_resource_templates()).resource_templates
            for name, uri in (("core", "memfold://core"), ("human", "memfold://core/human"),
                              ("fact", f"memfold://fact/{fact_id}"),
                              ("entity", "memfold://entity/Peter")):
                seen[name] = (await s.read_resource(uri)).contents[0]
            for name, uri in (("no_fact", "memfold://fact/zzzzzzzz"),
                              ("no_block", "memfold://core/Nope"),
                              ("elsewhere", "file:///etc/passwd")):
                try:
                    await s.read_resource(uri)
                except MCPError as exc:
                    seen[name] = exc
            seen["prompts"] = (await s.list_prompts()).prompts
            seen["start"] = await s.get_prompt("session-start", {"budget": "300"})
            seen["remember"] = await s.get_prompt("remember-conversation",
                                                  {"focus": "the launch"})
            try:
                await s.get_prompt("session-start", {"budget": "lots"})
            except MCPError as exc:
                seen["bad_budget"] = exc
            # the SDK's client checks structured content against each tool's outputSchema
            seen["recall"] = await s.call_tool("recall", {"query": "Peter"})
    return seen


def test_resources_and_prompts_over_a_real_session(workspace: Path, tmp_path: Path) -> None:
    fact_id = seed(workspace)
    with open(tmp_path / "server.stderr", "w") as errlog:
        seen = anyio.run(script, workspace, fact_id, errlog)

    uris = [str(r.uri) for r in seen["resources"]]
    assert uris[0] == "memfold://core" and "memfold://core/Human" in uris
    assert {t.uri_template for t in seen["templates"]} == {"memfold://entity/{name}",
                                                           "memfold://fact/{id}"}
    assert "Ann, who runs the Acme launch." in seen["core"].text
    assert seen["human"].text == "Ann, who runs the Acme launch."
    assert seen["human"].mime_type == "text/markdown"
    fact = json.loads(seen["fact"].text)
    assert fact["id"] == fact_id and fact["content"] == "Lives in Vienna."
    assert fact["source"].startswith("memory/2025-11-26.md#L")
    entity = json.loads(seen["entity"].text)
    assert entity["found"] is True
    assert {h["content"] for h in entity["results"]} == {"Lives in Vienna.",
                                                         "Called about Acme."}

    assert seen["no_fact"].code == -32002 and "zzzzzzzz" in seen["no_fact"].message
    assert seen["no_block"].code == -32602 and "no block 'Nope'" in seen["no_block"].message
    assert "unknown resource" in seen["elsewhere"].message

    assert [p.name for p in seen["prompts"]] == ["session-start", "remember-conversation"]
    start = seen["start"].messages[0].content.text
    assert "Ann, who runs the Acme launch." in start and "recall" in start
    remember = seen["remember"].messages[0].content.text
    assert "retain" in remember and remember.endswith("Focus on: the launch")
    assert "budget must be a whole number" in seen["bad_budget"].message

    assert not seen["recall"].is_error
    assert seen["recall"].structured_content["results"][0]["content"] == "Lives in Vienna."
    assert "Traceback" not in (tmp_path / "server.stderr").read_text()


def test_a_resource_says_what_the_matching_tool_says(memory: Memory) -> None:
    fact_id = memory.retain(["W @Peter: Lives in Vienna."]).facts[0].id
    shown = json.loads(read(memory, f"memfold://fact/%5E{fact_id}").text)  # ^id, quoted
    assert shown["id"] == fact_id and shown["status"] == "active"
    assert read(memory, "memfold://core").text == memory.core().render()
