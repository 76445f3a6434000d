"""memfold's tools as the OpenAI Agents SDK's function tools (`pip install openai-agents`).

    from agents import Agent, Runner
    from memfold import Memory
    from memfold.agents.openai_agents import function_tools

    with Memory.open("~/notes/agent") as memory:
        agent = Agent(name="assistant", instructions="Use memory: recall before you answer.",
                      tools=function_tools(memory, profile="standard"))
        result = Runner.run_sync(agent, "Where does Dana live now?")

Each tool is a `FunctionTool` with memfold's own name, description and schema, in the strict
form the SDK sends to the model by default (`agents.schema.strict_schema`: every property
required, an optional one nullable).  A model held to it sends every argument, `null` or
`""` for the ones it leaves out, and memfold reads those as not given.  A call runs through
`agents.tools.call`, as MCP and `memfold call` do; its answer is the result as JSON text,
and a refused call is answered too — `{"error", "type", "exit_code"}` as JSON text, with a
message in tool terms ("call recall to find ids") — never raised, so the run goes on and the
model can fix its call.  The Anthropic memory tool has a backend of its own
(`agents.memtool`).

The SDK is imported only when `function_tools` is called.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from memfold.agents import tools as agent_tools
from memfold.agents.schema import strict_schema

if TYPE_CHECKING:
    from memfold.api import MemoryAPI

__all__ = ["answer", "function_tools"]


def answer(memory: MemoryAPI, name: str, arguments: str) -> str:
    """One call of tool `name` with the JSON text the model sent: the result as JSON text,
    or the error result (`agents.tools.error_result`) as JSON text."""
    return json.dumps(agent_tools.outcome(memory, name, arguments)[0], ensure_ascii=False)


def function_tools(memory: MemoryAPI, *, profile: str | None = None,
                   names: Sequence[str] | None = None) -> list[Any]:
    """memfold's tools (a profile's, or the ones named; every tool by default, as
    `agents.tools.select` chooses) as `agents.FunctionTool`s answering from `memory`."""
    try:
        from agents import FunctionTool
    except ImportError:
        from memfold.errors import BadInput

        raise BadInput("the OpenAI Agents SDK is not installed: pip install openai-agents") \
            from None

    def made(tool: agent_tools.Tool) -> Any:
        async def invoke(_context: Any, arguments: str) -> str:
            return answer(memory, tool.name, arguments)

        return FunctionTool(name=tool.name, description=tool.description,
                            params_json_schema=strict_schema(tool.schema),
                            on_invoke_tool=invoke, strict_json_schema=True)

    return [made(tool) for tool in agent_tools.select(profile=profile, names=names)]
