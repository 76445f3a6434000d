"""What a model held to a strict schema sends: every argument, with "" or null for the ones it
means to leave out (the OpenAI Agents SDK's strict conversion makes every argument required).
memfold reads those as "not given" — through `agent_tools.call`, `dispatch` and MCP
(tests/agents/test_mcp_clients.py's strict rows) — and keeps a required argument's "".
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from mcp_plan import PLAN, build_workspace
from memfold import Memory
from memfold.agents import tools as at
from memfold.agents.outputs import output_schema

NOW = datetime(2025, 11, 27, 9, tzinfo=UTC)


def _blank(schema: dict[str, Any]) -> Any:
    return "" if schema.get("type") == "string" else None


def _null(schema: dict[str, Any]) -> Any:
    return None


def filled(tool: at.Tool, arguments: dict[str, Any],
           blank: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    """`arguments` with every argument the call leaves out sent as `blank(its schema)`."""
    properties = tool.schema["properties"]
    return {**{name: blank(sub) for name, sub in properties.items()}, **arguments}


@pytest.mark.parametrize("blank", [_blank, _null], ids=["empty-strings", "nulls"])
def test_every_tool_takes_blanks_for_what_it_leaves_out(tmp_path: Path,
                                                        blank: Callable[..., Any]) -> None:
    root = build_workspace(tmp_path / "ws")
    with Memory.open(root, now=NOW) as memory:
        for step in PLAN:
            if step.refusal is not None or step.label:
                continue
            chosen = at.tool(step.tool)
            sent = filled(chosen, step.arguments, blank)
            call = {"id": f"call_{step.tool}", "type": "function",
                    "function": {"name": step.tool, "arguments": json.dumps(sent)}}
            answer = json.loads(at.dispatch(memory, call)["content"])
            assert "error" not in answer, (step.tool, sent, answer)
            jsonschema.validate(answer, output_schema(step.tool))  # as MCP sends it


def test_a_blank_means_the_default(tmp_path: Path) -> None:
    root = build_workspace(tmp_path / "ws")
    with Memory.open(root, now=NOW) as memory:
        plain = at.call(memory, "recall", {"query": "Dana"})
        blank = at.call(memory, "recall", {"query": "Dana", "since": "", "until": "",
                                           "mode": "", "k": None, "budget": None})
        assert blank == plain
        retained = at.call(memory, "retain", {"bullets": ["W @Dana: Dana rows."],
                                              "date": "", "source": ""})
        assert retained["path"] == "memory/2025-11-27.md"  # today's log, as without a date
        reflected = at.call(memory, "reflect", {"since": ""})
        assert reflected["since"] == "2025-11-20"  # the default 7d


def test_a_required_empty_string_is_kept(tmp_path: Path) -> None:
    root = build_workspace(tmp_path / "ws")
    with Memory.open(root, now=NOW) as memory:
        edit = at.call(memory, "core_replace", {"block": "Human", "old": " she prefers short "
                                                "answers.", "new": ""})
        assert edit["text"] == "Dana is the user;"
        with pytest.raises(Exception, match="name must not be empty"):
            at.call(memory, "about", {"name": ""})
