"""The README's promises: its test command is what CI runs, and its agent loop runs."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from memfold import Memory

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_ci_runs_the_readme_test_command() -> None:
    commands = re.findall(r"```sh\n(python3 -m venv .venv[^\n]*)\n```", README)
    assert len(commands) == 2  # exactly two set-up commands: quickstart, tests
    assert commands[1] in (ROOT / ".ci/run").read_text()
    assert "examples/quickstart.sh" in commands[0]


def test_the_agent_loop_runs(tmp_path: Path) -> None:
    [code] = re.findall(r"```python\n(import json\nfrom memfold import MemfoldError.*?)```",
                        README, re.S)
    namespace: dict[str, Any] = {}
    exec(code, namespace)  # noqa: S102 - the README's own example
    Memory.init(tmp_path / "ws")
    replies = [
        {"content": None, "tool_calls": [{"id": "1", "name": "retain", "arguments": {
            "bullets": ["W @Peter: Lives in Vienna."]}}]},
        {"content": None, "tool_calls": [{"id": "2", "name": "recall", "arguments": {
            "query": "where does Peter live"}}]},
        {"content": "Vienna.", "tool_calls": []},
    ]
    messages = namespace["run_session"](lambda messages, tools: replies.pop(0),
                                        ["Where does Peter live?"],
                                        workspace=str(tmp_path / "ws"))
    assert '"content": "Lives in Vienna."' in messages[-2]["content"]
    assert messages[-1] == {"role": "assistant", "content": "Vienna."}
