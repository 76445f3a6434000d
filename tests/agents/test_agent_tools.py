"""Tool definitions for agents: one source for MCP, OpenAI and Anthropic; calls on Memory."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conftest import ROOT, Cli
from memfold import BadInput, Memory, StaleRevision, loopback
from memfold.agents import mcp as mcp_server
from memfold.agents import tools as at

NOW = "2025-11-27T09:00:00+00:00"
SPEC_TOOLS = ["recall", "about", "show", "retain", "use", "note", "supersede", "forget",
              "restore", "review", "review_accept", "review_reject", "history", "trace",
              "entities", "status", "index",
              "core_view", "core_append", "core_replace", "core_insert", "core_undo", "context"]
META_SCHEMAS = (jsonschema.Draft202012Validator, jsonschema.Draft7Validator)

# arguments a careful agent would send to each tool (ids filled in by the test)
EXAMPLES: dict[str, dict[str, Any]] = {
    "recall": {"query": "where does Peter live", "k": 5, "since": "30d", "kinds": ["W"],
               "entities": ["Peter"], "include_all": False, "budget": 200,
               "mode": "lexical"},
    "about": {"name": "Peter", "k": 5},
    "show": {"id": "ID"},
    "retain": {"bullets": ["W @Peter: Works at Acme."], "date": "2025-11-27",
               "source": "agent:planner"},
    "use": {"ids": ["ID"]},
    "note": {"id": "ID", "text": "checked", "rev": 0},
    "supersede": {"old": "ID", "new": "ID2", "reason": "moved"},
    "forget": {"id": "ID", "purge": False},
    "restore": {"id": "ID", "reason": "the judge was wrong"},
    "review": {"since": "30d", "entities": ["Peter"], "rule": "value", "settled": False,
               "limit": 20},
    "review_accept": {"item": "412", "reason": "she did move"},
    "review_reject": {"rule": "ended", "since": "30d", "entities": ["Peter"],
                      "reason": "not a change", "dry_run": True},
    "history": {"id": "ID"},
    "trace": {"id": "ID"},
    "entities": {"limit": 5},
    "status": {},
    "index": {"full": False},
    "reflect": {"since": "7d", "dry_run": True},
    "core_view": {},
    "core_append": {"block": "Human", "text": "Peter."},
    "core_replace": {"block": "Human", "old": "Peter.", "new": "Peter, in Vienna."},
    "core_insert": {"block": "Human", "line": 1, "text": "Name:"},
    "core_undo": {},
    "context": {"budget": 500},
}


def expected_names() -> list[str]:
    names = list(SPEC_TOOLS)
    if hasattr(Memory, "reflect"):
        names.insert(names.index("index") + 1, "reflect")
    return names


def test_one_tool_per_verb_with_description_schema_and_hints() -> None:
    tools = at.tools()
    assert [t.name for t in tools] == expected_names()
    for tool in tools:
        assert len(tool.description) > 80, tool.name  # says when to call it
        assert tool.schema["type"] == "object" and tool.schema["additionalProperties"] is False
        assert set(tool.schema["required"]) <= set(tool.schema["properties"])
        for prop in tool.schema["properties"].values():
            assert prop.get("description"), tool.name
        hints = tool.annotations()
        assert set(hints) == {"title", "readOnlyHint", "destructiveHint", "idempotentHint",
                              "openWorldHint"}
        assert not (tool.read_only and tool.destructive)
    by_name = {t.name: t for t in tools}
    assert all(by_name[n].read_only for n in ("recall", "about", "show", "core_view",
                                              "context", "history", "trace", "status",
                                              "entities"))
    assert not any(by_name[n].read_only for n in ("retain", "use", "note", "supersede",
                                                  "core_append", "core_replace",
                                                  "core_insert", "restore", "index",
                                                  "core_undo"))
    assert by_name["core_replace"].destructive and not by_name["core_append"].destructive
    assert by_name["note"].destructive and not by_name["retain"].destructive


@pytest.mark.parametrize("tool", at.tools(), ids=lambda t: t.name)
def test_every_schema_is_valid_json_schema_and_accepts_its_example(tool: at.Tool) -> None:
    for meta in META_SCHEMAS:
        meta.check_schema(tool.schema)
        meta(tool.schema).validate(EXAMPLES[tool.name])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**EXAMPLES[tool.name], "unexpected": 1}, tool.schema)


@pytest.mark.parametrize("fmt", ["openai", "anthropic"])
def test_cli_prints_the_same_tools_as_valid_schemas(run: Cli, fmt: str) -> None:
    result = run("tools", "--format", fmt)
    assert result.exit_code == 0
    printed = json.loads(result.stdout)
    tools = {t.name: t for t in at.tools()}
    assert len(printed) == len(tools)
    for entry in printed:
        if fmt == "openai":
            assert entry["type"] == "function"
            function = entry["function"]
            name, schema = function["name"], function["parameters"]
            description = function["description"]
        else:
            name, schema, description = entry["name"], entry["input_schema"], entry["description"]
        assert schema == tools[name].schema and description == tools[name].description
        for meta in META_SCHEMAS:
            meta.check_schema(schema)
    assert printed == at.render(fmt)
    assert json.loads(run("tools").stdout) == at.render("openai")  # openai by default
    assert run("tools", "--format", "yaml").exit_code == 2


def test_mcp_listing_is_rendered_from_the_same_definitions() -> None:
    for tool, listed in zip(at.tools(), at.render("mcp"), strict=True):
        assert listed["inputSchema"] is tool.schema
        assert listed["annotations"]["readOnlyHint"] is tool.read_only


# -- calls ----------------------------------------------------------------------------------------


def test_calls_are_thin_calls_on_memory(workspace: Path) -> None:
    with Memory.open(workspace, now=NOW) as memory:
        stored = at.call(memory, "retain", {"bullets": ["W @Peter: Lives in Vienna."]})
        [fact_id] = stored["ids"]
        found = at.call(memory, "recall", {"query": "where does Peter live"})
        assert found["results"][0]["id"] == fact_id
        assert found["results"][0]["source"] == "memory/2025-11-27.md#L4"
        shown = at.call(memory, "show", {"id": fact_id})
        assert shown["rev"] == 0 and shown["line"] == 4 and shown["sha256"]
        assert at.call(memory, "note", {"id": fact_id, "text": "ok", "rev": 0})["rev"] == 1
        with pytest.raises(StaleRevision) as stale:
            at.call(memory, "note", {"id": fact_id, "text": "late", "rev": 0})
        assert at.error_result(stale.value) == {
            "error": str(stale.value), "type": "StaleRevision", "exit_code": 3,
            "result": "stale", "rev": 1}
        assert at.call(memory, "use", {"ids": [fact_id]}) == {"used": [fact_id]}
        newer = at.call(memory, "retain", {"bullets": ["W @Peter: Lives in Graz."]})["ids"][0]
        assert at.call(memory, "supersede", {"old": fact_id, "new": newer}) == {
            "old": fact_id, "new": newer, "changed": False}  # the judge already did it
        assert at.call(memory, "about", {"name": "peter"})["results"][0]["id"] == newer
        edit = at.call(memory, "core_append", {"block": "Human", "text": "Peter."})
        assert edit["text"] == "Peter." and edit["limit"] == 1000
        at.call(memory, "core_replace", {"block": "Human", "old": "Peter.", "new": "Peter!"})
        at.call(memory, "core_insert", {"block": "Human", "line": -1, "text": "Graz."})
        view = at.call(memory, "core_view", {})
        assert view["blocks"][1]["text"] == "Peter!\nGraz."
        context = at.call(memory, "context", {"budget": 300})
        assert "Peter!  memory.md#L" in context["text"] and context["tokens"] <= 300
        json.dumps([stored, found, shown, view, context])  # all JSON-able


@pytest.mark.parametrize(("name", "args", "message"), [
    ("recall", {"query": "x", "bogus": 1}, "recall: unknown argument 'bogus'"),
    ("recall", {}, "recall: argument 'query' is required"),
    ("recall", {"query": "x", "k": "5"}, "recall: k must be an integer"),
    ("recall", {"query": "x", "k": True}, "recall: k must be an integer"),
    ("retain", {"bullets": "W: x"}, "retain: bullets must be an array"),
    ("retain", {"bullets": [1]}, "retain: bullets[0] must be a string"),
    ("note", {"id": "x", "text": "t"}, "note: argument 'rev' is required"),
    ("nope", {}, "unknown tool 'nope'"),
])
def test_bad_arguments_are_refused_before_anything_runs(memory: Memory, name: str,
                                                        args: dict[str, Any],
                                                        message: str) -> None:
    with pytest.raises(BadInput, match=message.replace("[", r"\[").replace("]", r"\]")):
        at.call(memory, name, args)


def test_tool_errors_carry_the_cli_messages_in_tool_terms(run: Cli, workspace: Path) -> None:
    runner = mcp_server.ToolRunner(Memory.open(workspace, now=NOW))
    cases = [  # the CLI's words -> the tool's words
        ("recall", {"query": "  "}, ["recall", "  "], {}),
        ("show", {"id": "zzzzzzzz"}, ["show", "zzzzzzzz"],
         {"`memfold recall` finds ids": "call recall to find ids"}),
        ("core_append", {"block": "Persona", "text": "x" * 1001},
         ["core", "append", "Persona", "x" * 1001], {"`core replace`": "core_replace"}),
        ("core_replace", {"block": "Persona", "old": "nope", "new": "x"},
         ["core", "replace", "Persona", "nope", "x"],
         {"OLD": "old", "run `memfold core`": "call core_view"}),
    ]  # where the CLI names a flag (--k), the tool names its argument: see test_dispatch.py
    for name, args, argv, words in cases:
        is_error, data = runner.run(name, args)
        cli = run(*argv)
        assert is_error and cli.exit_code == data["exit_code"] == 2
        expected = cli.stderr.strip().removeprefix("memfold: error: ")
        for cli_words, tool_words in words.items():
            assert cli_words in expected
            expected = expected.replace(cli_words, tool_words)
        assert data["error"] == expected
    runner.memory.close()


def test_a_bug_in_a_handler_is_a_tool_error(workspace: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: Memory) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(Memory, "core", broken)
    with Memory.open(workspace) as memory:
        is_error, data = mcp_server.ToolRunner(memory).run("core_view", {})
    assert is_error and data["error"] == "internal error: RuntimeError: boom"


def test_reflect_is_offered_only_where_memory_has_it(monkeypatch: pytest.MonkeyPatch) -> None:
    if hasattr(Memory, "reflect"):
        assert "reflect" in [t.name for t in at.tools()]
        monkeypatch.delattr(Memory, "reflect")
    assert "reflect" not in [t.name for t in at.tools()]
    with pytest.raises(BadInput, match="unknown tool .reflect."):
        at.tool("reflect")


# -- the MCP command without the SDK, and its HTTP guards -----------------------------------------


def test_mcp_without_the_extra_prints_the_install_hint(run: Cli,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "mcp", None)  # `import mcp` now raises ImportError
    result = run("mcp")
    assert result.exit_code == 1
    assert result.stderr.strip() == ("memfold: error: the MCP server needs the mcp extra: "
                                     "pip install 'memfold[mcp]'")


@pytest.mark.parametrize(("target", "expected"), [
    ("8765", ("127.0.0.1", 8765)), (":8765", ("127.0.0.1", 8765)),
    ("localhost:9000", ("localhost", 9000)), ("[::1]:9000", ("::1", 9000)),
    ("127.0.0.2:1", ("127.0.0.2", 1)),
])
def test_http_targets(target: str, expected: tuple[str, int]) -> None:
    assert loopback.parse_target(target) == expected


@pytest.mark.parametrize("target", ["0.0.0.0:8765", "192.168.1.5:80", "example.com:80",
                                    "[::]:8765"])
def test_non_loopback_hosts_need_allow_remote(target: str) -> None:
    with pytest.raises(BadInput, match="--allow-remote"):
        loopback.parse_target(target)
    assert loopback.parse_target(target, allow_remote=True)[1] in (8765, 80)


@pytest.mark.parametrize("target", ["127.0.0.1", "127.0.0.1:0", "127.0.0.1:70000", "host:x"])
def test_bad_http_targets(target: str) -> None:
    with pytest.raises(BadInput, match="HOST:PORT"):
        loopback.parse_target(target)


def test_requests_are_checked_for_path_host_origin_and_token() -> None:
    def check(path: str = "/mcp", token: str | None = "t", allow_remote: bool = False,
              **headers: str) -> int | None:
        sent = {"host": "127.0.0.1:8765", "authorization": "Bearer t"}
        sent.update({k.replace("_", "-"): v for k, v in headers.items()})
        refused = mcp_server.check_request(path, sent, token=token, allow_remote=allow_remote)
        return refused[0] if refused else None

    assert check() is None
    assert check(host="localhost:8765") is None and check(host="[::1]:8765") is None
    assert check(path="/other") == 404
    assert check(host="evil.example") == 403 and check(host="attacker.test:8765") == 403
    assert check(origin="http://evil.example") == 403
    assert check(origin="http://localhost:3000") is None
    assert check(authorization="Bearer wrong") == 401 and check(authorization="") == 401
    assert check(token=None, authorization="") is None
    assert check(allow_remote=True, host="memory.example.org") is None
    assert check(allow_remote=True, host="memory.example.org", authorization="x") == 401


# -- docs/agents.md: the examples run ------------------------------------------------------------


def python_blocks(path: Path) -> list[str]:
    parts = path.read_text().split("```python\n")[1:]
    return [part.split("\n```", 1)[0] for part in parts]


def test_the_loop_without_tool_calling_in_the_docs_runs(
        workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the loops with tool calling, one per vendor API, are run by test_dispatch.py
    plain = python_blocks(ROOT / "docs" / "agents.md")[-1]
    with Memory.open(workspace, now=NOW) as memory:
        memory.retain("W @Peter: Lives in Graz.")
    exec(plain.replace("~/notes/agent", str(workspace)), {})  # noqa: S102
    assert "Lives in Graz." in capsys.readouterr().out
