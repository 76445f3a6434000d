"""memfold's tools in the OpenAI Agents SDK (issue 33, item 5): `function_tools` gives the
SDK's FunctionTools with strict schemas, and a real `Runner` loop — its model scripted, so
nothing leaves this machine — calls them with what strict conversion sends (every argument,
null or "" for the ones left out) and hands refusals back to the model as answers."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("agents", reason="the OpenAI Agents SDK is in the test extra")

from agents.items import ModelResponse, ToolCallOutputItem  # noqa: E402
from agents.models.interface import Model  # noqa: E402
from agents.strict_schema import ensure_strict_json_schema  # noqa: E402
from openai.types.responses import (  # noqa: E402
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from agents import Agent, FunctionTool, ModelSettings, RunConfig, Runner, Usage  # noqa: E402
from memfold import Memory  # noqa: E402
from memfold.agents import tools as agent_tools  # noqa: E402
from memfold.agents.openai_agents import function_tools  # noqa: E402

NOW = "2025-11-27T09:00:00+00:00"


class Scripted(Model):
    """A model that answers each turn with the next scripted output, and keeps the tools
    and input it was sent."""

    def __init__(self, turns: list[list[Any]]) -> None:
        self.turns = turns
        self.seen_tools: list[Any] = []
        self.inputs: list[Any] = []

    async def get_response(self, system_instructions: Any, input: Any,  # noqa: A002
                           model_settings: ModelSettings, tools: list[Any], output_schema: Any,
                           handoffs: Any, tracing: Any, **_: Any) -> ModelResponse:
        self.seen_tools = tools
        self.inputs.append(input)
        return ModelResponse(output=self.turns.pop(0), usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError


def call(name: str, arguments: dict[str, Any], n: int) -> ResponseFunctionToolCall:
    return ResponseFunctionToolCall(type="function_call", call_id=f"call_{n}", name=name,
                                    arguments=json.dumps(arguments), id=f"fc_{n}")


def said(text: str) -> ResponseOutputMessage:
    return ResponseOutputMessage(
        type="message", id="msg_1", role="assistant", status="completed",
        content=[ResponseOutputText(type="output_text", text=text, annotations=[])])


@pytest.fixture
def memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Memory]:
    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    Memory.init(tmp_path / "ws")
    with Memory.open(tmp_path / "ws") as opened:
        opened.retain(["W @Dana: Dana moved to Lisbon in 2024.",
                       "O(c=0.8) @Dana: Dana prefers tea over coffee."], now=NOW)
        yield opened


def test_every_tool_is_a_strict_function_tool(memory: Memory) -> None:
    made = function_tools(memory)
    assert [t.name for t in made] == [t.name for t in agent_tools.tools()]
    for tool in made:
        assert isinstance(tool, FunctionTool) and tool.strict_json_schema
        assert ensure_strict_json_schema(tool.params_json_schema) == tool.params_json_schema
        schema = tool.params_json_schema
        assert set(schema["required"]) == set(schema["properties"])  # strict: all required
    assert [t.name for t in function_tools(memory, profile="minimal")] == [
        "recall", "retain", "use", "context"]
    assert [t.name for t in function_tools(memory, names=["recall"])] == ["recall"]


def test_a_runner_loop_recalls_retains_and_gets_refusals_as_answers(memory: Memory) -> None:
    strict_recall = {"query": "where does Dana live", "k": None, "since": "", "until": "",
                     "kinds": None, "entities": None, "include_all": None, "budget": None,
                     "mode": None, "strict": None, "full": None}
    model = Scripted([
        [call("recall", strict_recall, 1),
         call("show", {"id": "nosuchfact", "strict": None}, 2)],
        [call("retain", {"bullets": ["W @Dana: Dana started sailing lessons."], "date": "",
                         "source": "", "idempotency_key": None}, 3)],
        [said("Dana lives in Lisbon.")],
    ])
    agent = Agent(name="assistant", instructions="Use memory.", model=model,
                  tools=function_tools(memory))
    result = Runner.run_sync(agent, "Where does Dana live?",
                             run_config=RunConfig(tracing_disabled=True))
    assert result.final_output == "Dana lives in Lisbon."
    outputs = [json.loads(item.output) for item in result.new_items
               if isinstance(item, ToolCallOutputItem)]
    recalled, refused, retained = outputs
    assert recalled["results"][0]["content"] == "Dana moved to Lisbon in 2024."
    assert "answered" in recalled and "query" not in recalled  # the compact form
    assert refused["type"] == "UnknownId" and "call recall to find ids" in refused["error"]
    assert retained["ids"] and memory.recall("sailing lessons").hits[0].fact.content == (
        "Dana started sailing lessons.")
    assert {t.name for t in model.seen_tools} == {t.name for t in agent_tools.tools()}
