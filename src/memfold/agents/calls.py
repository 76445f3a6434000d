"""Tool calls in every vendor's shape: read one, and answer in the shape its API expects
(`agent_tools.dispatch` runs it between the two).

    OpenAI Chat Completions
        call:   {"id", "type": "function", "function": {"name", "arguments": "<json>"}}
        answer: {"role": "tool", "tool_call_id", "content": "<json>"}
    OpenAI Responses
        call:   {"type": "function_call", "call_id", "name", "arguments": "<json>"}
        answer: {"type": "function_call_output", "call_id", "output": "<json>"}
    Anthropic Messages
        call:   {"type": "tool_use", "id", "name", "input": {...}}
        answer: {"type": "tool_result", "tool_use_id", "content": "<json>", "is_error": true?}
    plain
        call:   {"name", "arguments" (or "input"), "id"?}
        answer: {"id"?, "name", "is_error", "result"}

`content` and `output` are JSON text: the tool's result, or on failure
`{"error", "type", "exit_code"}` whose message is written for the model to fix its call.  A
refused or failed call is answered, never raised, so a loop hands every answer back to the
model; only an object that is no tool call at all raises BadInput.  SDK objects (the OpenAI
and Anthropic Python clients' pydantic models) are read through their `model_dump()`.
`memfold call` does the same on stdin and stdout, for agents in any language.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from memfold.errors import BadInput

__all__ = ["ToolCall", "read_call"]

NOT_A_CALL = ("not a tool call: send an OpenAI Chat Completions tool call "
              "({\"id\", \"type\": \"function\", \"function\": {\"name\", \"arguments\"}}), an "
              "OpenAI Responses function_call, an Anthropic tool_use block, or "
              "{\"name\", \"arguments\"}")


@dataclass(frozen=True)
class ToolCall:
    """One tool call read from any shape: which tool, its arguments as sent, how to answer."""

    shape: str  # chat, responses, anthropic or plain
    name: Any
    arguments: Any
    call_id: Any = None

    def answer(self, data: Any, *, is_error: bool = False) -> dict[str, Any]:
        """`data` (a result, or an error_result) in the shape this call's API expects."""
        text = json.dumps(data, ensure_ascii=False)
        if self.shape == "chat":
            return {"role": "tool", "tool_call_id": self.call_id, "content": text}
        if self.shape == "responses":
            return {"type": "function_call_output", "call_id": self.call_id, "output": text}
        if self.shape == "anthropic":
            reply = {"type": "tool_result", "tool_use_id": self.call_id, "content": text}
            return {**reply, "is_error": True} if is_error else reply
        head = {} if self.call_id is None else {"id": self.call_id}
        return {**head, "name": self.name, "is_error": is_error, "result": data}

    def answer_text(self, text: str, *, is_error: bool = False) -> dict[str, Any]:
        """A plain-text answer (the Anthropic memory tool's) in this call's shape."""
        if self.shape == "plain":
            return self.answer(text, is_error=is_error)
        reply = self.answer("", is_error=is_error)
        reply["output" if self.shape == "responses" else "content"] = text
        return reply


def read_call(tool_call: Any) -> ToolCall:
    """The tool call in `tool_call` (a dict or an SDK object), or BadInput if it is none."""
    dump: Callable[[], Any] | None = getattr(tool_call, "model_dump", None)
    if dump is not None and not isinstance(tool_call, dict):
        tool_call = dump()
    if not isinstance(tool_call, dict):
        raise BadInput(NOT_A_CALL)
    kind = tool_call.get("type")
    function = tool_call.get("function")
    if kind == "function" or (kind is None and function is not None):
        if not isinstance(function, dict):
            raise BadInput("a Chat Completions tool call needs a `function` object with "
                           "`name` and `arguments`")
        return ToolCall("chat", function.get("name"), function.get("arguments"),
                        _call_id(tool_call, "id", "tool call"))
    if kind == "function_call":
        return ToolCall("responses", tool_call.get("name"), tool_call.get("arguments"),
                        _call_id(tool_call, "call_id", "function_call"))
    if kind == "tool_use":
        return ToolCall("anthropic", tool_call.get("name"), tool_call.get("input"),
                        _call_id(tool_call, "id", "tool_use block"))
    if kind is None and "name" in tool_call:
        arguments = tool_call.get("arguments", tool_call.get("input"))
        return ToolCall("plain", tool_call["name"], arguments, tool_call.get("id"))
    raise BadInput(NOT_A_CALL)


def _call_id(tool_call: dict[str, Any], key: str, what: str) -> str:
    value = tool_call.get(key)
    if not isinstance(value, str) or not value:
        raise BadInput(f"the {what} has no `{key}`: its answer must name it")
    return value
