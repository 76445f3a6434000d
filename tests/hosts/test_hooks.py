"""Claude Code's hooks (`memfold hook ...`) run on recorded hook payloads (tests/hosts/payloads):
the output shape Claude Code reads (`hookSpecificOutput.additionalContext` for SessionStart and
UserPromptSubmit), the prompt hook's silence when it found nothing strong, the transcript
captured into the day's log, and exit 0 with nothing printed whatever goes wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from memfold.cli.main import cli
from memfold.memory import Memory

PAYLOADS = Path(__file__).parent / "payloads"
NOW = "2025-11-27T10:00:00"


def payload(name: str, **values: str) -> str:
    data = json.loads((PAYLOADS / f"{name}.json").read_text())
    data["transcript_path"] = str(PAYLOADS / "transcript.jsonl")
    data.update(values)
    return json.dumps(data)


def hook(workspace: Path, verb: str, stdin: str) -> Result:
    return CliRunner().invoke(cli, ["hook", verb], input=stdin, catch_exceptions=False,
                              env={"MEMFOLD_WORKSPACE": str(workspace), "MEMFOLD_NOW": NOW})


def context_of(result: Result, event: str) -> str:
    """The additional context, checked to be in the shape Claude Code's hooks reference
    gives: one JSON object, hookSpecificOutput with hookEventName and additionalContext."""
    assert result.exit_code == 0
    out = json.loads(result.stdout)
    assert set(out) == {"hookSpecificOutput"}
    assert set(out["hookSpecificOutput"]) == {"hookEventName", "additionalContext"}
    assert out["hookSpecificOutput"]["hookEventName"] == event
    text = out["hookSpecificOutput"]["additionalContext"]
    assert isinstance(text, str) and text
    return text


@pytest.fixture
def facts(workspace: Path) -> Path:
    with Memory.open(workspace, now=NOW) as memory:
        memory.retain(["W @Dana: Dana lives in Lisbon and works at Acme Robotics.",
                       "O(c=0.8) @Dana: Dana prefers short status updates by email."])
    return workspace


def test_session_start_injects_the_session_context(facts: Path) -> None:
    text = context_of(hook(facts, "session-start", payload("session_start")), "SessionStart")
    assert "Dana lives in Lisbon" in text and "memory/2025-11-27.md" in text


def test_session_start_on_an_empty_workspace_prints_nothing(workspace: Path) -> None:
    result = hook(workspace, "session-start", payload("session_start"))
    assert (result.exit_code, result.stdout) == (0, "")


def test_prompt_injects_what_recall_found(facts: Path) -> None:
    result = hook(facts, "prompt", payload("user_prompt_submit",
                                           prompt="Where does Dana live these days?"))
    text = context_of(result, "UserPromptSubmit")
    lines = text.splitlines()[1:]
    assert any("Lisbon" in line for line in lines)
    assert all(line.startswith("^") for line in lines)


@pytest.mark.parametrize("prompt", [
    "please run the linter again",  # shares no word with a fact
    "/compact",  # a slash command
    "",
])
def test_prompt_stays_silent_without_a_strong_match(facts: Path, prompt: str) -> None:
    result = hook(facts, "prompt", payload("user_prompt_submit", prompt=prompt))
    assert (result.exit_code, result.stdout) == (0, "")


def test_prompt_leaves_out_a_fact_sharing_one_common_word(workspace: Path) -> None:
    with Memory.open(workspace, now=NOW) as memory:
        memory.retain(["W @Marek: Marek keeps the release checklist in the wiki."])
    result = hook(workspace, "prompt", payload("user_prompt_submit",
                                               prompt="add a release note for the parser fix"))
    assert (result.exit_code, result.stdout) == (0, "")


@pytest.mark.parametrize("name, verb", [("pre_compact", "pre-compact"),
                                        ("session_end", "session-end")])
def test_capture_hooks_keep_the_transcript_in_the_day_log(workspace: Path, name: str,
                                                          verb: str) -> None:
    result = hook(workspace, verb, payload(name))
    assert (result.exit_code, result.stdout) == (0, "")
    log = (workspace / "memory" / "2025-11-27.md").read_text()
    assert "I prefer pytest over unittest" in log and "Marek reviews every pull request" in log
    again = hook(workspace, verb, payload(name))  # the same transcript: nothing new
    assert again.exit_code == 0
    assert (workspace / "memory" / "2025-11-27.md").read_text() == log


@pytest.mark.parametrize("verb, stdin", [
    ("session-start", "not json"),
    ("prompt", "[1, 2]"),
    ("pre-compact", payload("pre_compact", transcript_path="/nonexistent/t.jsonl")),
    ("session-end", json.dumps({"hook_event_name": "SessionEnd"})),
])
def test_a_failing_hook_exits_0_prints_nothing_and_logs(workspace: Path, verb: str,
                                                        stdin: str) -> None:
    result = hook(workspace, verb, stdin)
    assert (result.exit_code, result.stdout) == (0, "")
    log = (workspace / ".memory" / "hooks.log").read_text()
    assert f" hook {verb}: " in log


def test_a_hook_without_a_workspace_says_so_on_stderr(tmp_path: Path) -> None:
    result = hook(tmp_path / "missing", "session-start", payload("session_start"))
    assert (result.exit_code, result.stdout) == (0, "")
    assert result.stderr.startswith("memfold: ") and "hook session-start" in result.stderr
    assert not (tmp_path / "missing").exists()
