"""The tool definitions in every vendor's shape, and what each tool returns.

`memfold tools --format openai-strict | openai-responses` are checked against the vendors'
own published types (the `openai` and `anthropic` SDKs' request types) and against OpenAI's
strict-mode rules; every tool's `outputSchema` is checked against what the tool really
returns, in its compact and full forms.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from anthropic.types import ToolParam  # noqa: E402
from openai.types.chat import ChatCompletionFunctionToolParam  # noqa: E402
from openai.types.responses import FunctionToolParam  # noqa: E402
from pydantic import TypeAdapter

from conftest import Cli
from memfold import Memory
from memfold.agents import tools as at
from memfold.agents.schema import strict_schema

NOW = "2025-11-27T09:00:00+00:00"
NOT_STRICT = {"default", "minLength", "maxLength", "minItems", "maxItems", "minimum", "maximum"}


def strict_problems(schema: dict[str, Any], where: str = "$") -> list[str]:
    """What OpenAI's strict mode would refuse in `schema` (its published rules)."""
    problems = [f"{where}: {key}" for key in NOT_STRICT & set(schema)]
    if "object" in (schema.get("type") if isinstance(schema.get("type"), list)
                    else [schema.get("type")]):
        if schema.get("additionalProperties") is not False:
            problems.append(f"{where}: additionalProperties is not false")
        if sorted(schema.get("required", [])) != sorted(schema.get("properties", {})):
            problems.append(f"{where}: not every property is required")
    for name, sub in schema.get("properties", {}).items():
        problems += strict_problems(sub, f"{where}.{name}")
    if isinstance(schema.get("items"), dict):
        problems += strict_problems(schema["items"], f"{where}[]")
    return problems


@pytest.mark.parametrize("fmt, vendor_type", [
    ("openai", ChatCompletionFunctionToolParam),
    ("openai-strict", ChatCompletionFunctionToolParam),
    ("openai-responses", FunctionToolParam),
    ("anthropic", ToolParam),
])
def test_every_format_is_the_vendors_published_shape(run: Cli, fmt: str,
                                                     vendor_type: Any) -> None:
    rendered = json.loads(run("tools", "--format", fmt).stdout)
    assert rendered == at.render(fmt)
    adapter = TypeAdapter(vendor_type)
    for tool in rendered:
        adapter.validate_python(tool)  # raises on a missing or mistyped field
        parameters = (tool.get("function") or tool).get("parameters") or tool["input_schema"]
        jsonschema.Draft202012Validator.check_schema(parameters)
    names = [(t.get("function") or t)["name"] for t in rendered]
    assert names == [t.name for t in at.tools()]


@pytest.mark.parametrize("fmt", ["openai-strict", "openai-responses"])
def test_strict_formats_follow_openais_strict_rules(fmt: str) -> None:
    for tool in at.render(fmt):
        body = tool.get("function", tool)
        assert body["strict"] is True
        assert strict_problems(body["parameters"]) == [], body["name"]


def test_a_strict_call_with_nulls_means_not_given(memory: Memory) -> None:
    """A model in strict mode sends every argument, null for those it means to leave out;
    the call then runs as if they were not given, and bounds still hold."""
    memory.retain(["W @Peter: Lives in Vienna."], date="2025-11-27")
    recall = at.tool("recall")
    every = dict.fromkeys(recall.schema["properties"])
    found = at.call(memory, "recall", {**every, "query": "Peter"})
    assert [h["content"] for h in found["results"]] == ["Lives in Vienna."]
    jsonschema.validate({**every, "query": "Peter"}, strict_schema(recall.schema))
    with pytest.raises(at.BadInput, match="k must be between 1 and 200"):
        at.call(memory, "recall", {**every, "query": "Peter", "k": 1000})


def test_strict_descriptions_keep_what_the_bounds_said() -> None:
    recall = strict_schema(at.tool("recall").schema)["properties"]
    assert recall["k"]["description"].endswith("(default 10; 1 to 200)")
    assert recall["query"]["description"].endswith("(1 to 4000 chars)")
    use = strict_schema(at.tool("use").schema)["properties"]
    assert use["ids"]["description"].endswith("(not empty)")
    assert recall["mode"]["enum"][-1] is None and "null" in recall["mode"]["type"]


# -- output schemas: what each tool returns ---------------------------------------------------


def every_call(memory: Memory) -> list[tuple[str, dict[str, Any]]]:
    """A call of every tool (read tools in both forms) on a small memory; in order, so
    each finds what it needs."""
    first = memory.retain(["W @Peter: Lives in Vienna.", "O(c=0.7) @Peter: Likes tea."],
                          date="2025-11-20").facts[0].id
    second = memory.retain(["W @Peter: Works at Acme."], date="2025-11-26").facts[0].id
    memory.retain(["W @Ines: Lives in Lisbon."], date="2025-11-20")
    memory.retain(["W @Ines: Lives in Porto now."], date="2025-11-25")
    item = str(memory.review().items[0].id)  # the judge's supersede, to accept and reject
    return [
        ("recall", {"query": "Peter"}), ("recall", {"query": "Peter", "full": True}),
        ("recall", {"query": "Peter last week"}), ("about", {"name": "Peter"}),
        ("about", {"name": "Peter", "full": True}), ("show", {"id": first}),
        ("retain", {"bullets": ["B @Peter: Called about the launch."]}),
        ("use", {"ids": [first]}), ("note", {"id": first, "text": "checked", "rev": 0}),
        ("history", {"id": first}), ("trace", {"id": first}), ("entities", {}),
        ("status", {}), ("index", {}),
        ("reflect", {}), ("core_view", {}),
        ("core_append", {"block": "Human", "text": "Name: Ann"}),
        ("core_replace", {"block": "Human", "old": "Ann", "new": "Anna"}),
        ("core_insert", {"block": "Human", "line": 1, "text": "Top"}), ("core_undo", {}),
        ("context", {}), ("context", {"full": True}),
        ("supersede", {"old": first, "new": second}), ("restore", {"id": first}),
        ("forget", {"id": first}), ("review", {}), ("review_accept", {"item": item}),
        ("review_reject", {"rule": "value", "dry_run": True}),
        ("review_reject", {"item": item}),
    ]


def test_every_tool_returns_what_its_output_schema_says(workspace: Path) -> None:
    with Memory.open(workspace, now=NOW) as memory:
        calls = every_call(memory)
        assert {name for name, _ in calls} == {t.name for t in at.tools()}
        for name, arguments in calls:
            schema = at.tool(name).as_mcp()["outputSchema"]
            jsonschema.Draft202012Validator.check_schema(schema)
            assert schema["type"] == "object"  # MCP: structured content is an object
            jsonschema.validate(at.call(memory, name, arguments), schema)


def test_an_output_schema_refuses_a_result_of_another_shape() -> None:
    schema = at.tool("note").as_mcp()["outputSchema"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"id": "x", "result": "stale", "rev": 1}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"id": "x", "rev": 1}, at.tool("note").as_mcp()["outputSchema"])
