"""The README's promises: its test command is what CI runs, and its agent loop runs."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT
from memfold import Memory

README_PATH = ROOT / "README.md"
README = README_PATH.read_text()


def test_ci_runs_the_readme_test_command() -> None:
    commands = re.findall(r"```sh\n((?:sh tests/install-system-deps.sh && )?python3 -m venv "
                          r"\.venv[^\n]*)\n```", README)
    assert len(commands) == 2  # exactly two set-up commands: quickstart, tests
    assert commands[1] in (ROOT / ".ci/run").read_text()
    assert "examples/quickstart.sh" in commands[0]


def test_the_agent_loop_runs(tmp_path: Path) -> None:
    from test_dispatch import TURNS, answers_in, check_outcome, doc_block, fake_client

    Memory.init(tmp_path / "ws")
    session = doc_block(README_PATH, "run_session")["run_session"]
    requests: list[dict[str, Any]] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MEMFOLD_NOW", "2025-11-27T09:00:00+00:00")
        messages = session(fake_client("chat", requests), TURNS,
                           workspace=str(tmp_path / "ws"))
    check_outcome("chat", answers_in("chat", messages), tmp_path / "ws")
    assert messages[-1] == {"role": "assistant",
                            "content": "Done: Porto it is, and the Friday calls are forgotten."}


def test_a_missing_system_package_fails_the_test_and_says_how_to_get_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from system_support import missing

    for ci in (None, "true"):  # never a skip, in CI or out of it
        if ci is None:
            monkeypatch.delenv("CI", raising=False)
        else:
            monkeypatch.setenv("CI", ci)
        with pytest.raises(pytest.fail.Exception,
                           match="need Chromium .sh tests/install-system-deps.sh installs it"):
            missing("the browser tests need Chromium")


def test_the_readme_test_command_installs_what_the_tests_need_first() -> None:
    command = re.findall(r"```sh\n(.*?)\n```", README, re.S)[1]
    assert command.startswith("sh tests/install-system-deps.sh && ")
    script = (ROOT / "tests/install-system-deps.sh").read_text()
    for needed in ("chromium", "postgresql", "npm ci --prefix tests/mcp_ts_client"):
        assert needed in script
    # the benchmarks are a distribution of their own (bench/), and the tests drive them
    assert " -e ./bench " in command
