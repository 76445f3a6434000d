"""What a tool call returns speaks in tool terms: a refusal or a warning names the tools and
arguments a model can call (`call recall to find ids`, core_replace, `old`), never a CLI
command or flag, though the library's own messages (what the CLI prints) do."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from mcp_plan import SECRET, build_workspace
from memfold import Memory
from memfold.agents import tools as at
from memfold.errors import MemfoldError

NOW = datetime(2025, 11, 27, 9, tzinfo=UTC)
CLI_WORDS = re.compile(r"`memfold|`core |(?<![\w-])--[a-z]|\b(?:OLD|NEW|TEXT|BLOCK)\b")


def refusal(memory: Memory, name: str, arguments: dict[str, Any]) -> str:
    with pytest.raises(MemfoldError) as caught:
        at.call(memory, name, arguments)
    return str(caught.value)


def core_chunk(memory: Memory) -> str:
    hits = memory.recall("Dana short answers").hits
    return next(h.fact.id for h in hits if h.fact.path == "memory.md")


CASES: list[tuple[str, dict[str, Any], str]] = [
    ("show", {"id": "nosuch"}, "no fact with id 'nosuch'; call recall to find ids"),
    ("core_replace", {"block": "Pets", "old": "a", "new": "b"},
     "memory.md has no block 'Pets' (blocks: Persona, Human, Project); core_append creates one"),
    ("core_replace", {"block": "Human", "old": "tea", "new": "coffee"},
     "old does not occur in block 'Human'; it must occur exactly once (call core_view to see "
     "the block's current text)"),
    ("core_replace", {"block": "Human", "old": "Dana", "new": "Dana"},
     "old and new are the same; nothing to change"),
    ("core_append", {"block": "Human", "text": "x" * 300},
     "Shorten it with core_replace first, or raise its limit"),
    ("recall", {"query": "Dana", "since": "2025-12-01", "until": "2025-11-01"},
     "since 2025-12-01 is after until 2025-11-01"),
    ("retain", {"bullets": [f"W: The token is {SECRET}."]},
     "memfold does not store secrets — rephrase it without the secret"),
]


@pytest.mark.parametrize(("name", "arguments", "said"), CASES)
def test_a_refusal_names_tools_and_arguments(tmp_path: Path, name: str,
                                             arguments: dict[str, Any], said: str) -> None:
    with Memory.open(build_workspace(tmp_path / "ws"), now=NOW) as memory:
        message = refusal(memory, name, arguments)
    assert said in message and not CLI_WORDS.search(message), message


def test_refusals_after_a_change_name_the_tools_to_call(tmp_path: Path) -> None:
    root = build_workspace(tmp_path / "ws")
    with Memory.open(root, now=NOW) as memory:
        chunk = core_chunk(memory)
        said = refusal(memory, "supersede", {"old": chunk, "new": "danamove"})
        assert said.endswith("is never superseded; edit it with core_replace"), said
        at.call(memory, "core_append", {"block": "Human", "text": "Dana rows."})
        core = root / "memory.md"
        core.write_text(core.read_text().replace("Dana rows.", "Dana rows daily."))
        said = refusal(memory, "core_undo", {})
        assert said.endswith("nothing was written. Use core_replace instead"), said
        log = root / "memory/2025-11-26.md"
        log.write_text(log.read_text() + "\nA line added by hand.\n")
        said = refusal(memory, "show", {"id": "danamove", "strict": True})
        assert said.endswith("changed since it was indexed; call index (or call show without "
                             "strict) to read the current version"), said


def test_warnings_in_results_name_the_tools(tmp_path: Path) -> None:
    root = build_workspace(tmp_path / "ws")
    log = root / "memory/2025-11-26.md"
    log.write_text(log.read_text() + f"- W: The deploy token is {SECRET}. ^deploytok\n")
    with Memory.open(root, now=NOW) as memory:
        indexed = at.call(memory, "index", {})["warnings"]
        secrets = at.call(memory, "status", {})["secrets"]
        library = memory.status().secrets
    assert "`memfold forget" in library[0].message  # the CLI's words, for the CLI
    assert [w for w in indexed if "looks like a secret" in w["message"]] == secrets
    said = secrets[0]["message"]
    assert said.endswith("it is indexed but redacted in outputs; forget with id deploytok and "
                         "purge=true removes it"), said


def test_a_value_the_caller_sent_is_quoted_back_as_sent(tmp_path: Path) -> None:
    with Memory.open(build_workspace(tmp_path / "ws"), now=NOW) as memory:
        for sent in ("STRICT", "--strict"):  # an argument's name, as a placeholder or a flag
            said = refusal(memory, "show", {"id": sent})
            assert said.startswith(f"no fact with id {sent!r}; call recall"), said


def test_a_refusal_the_tool_cannot_act_on_as_worded_is_reworded(tmp_path: Path) -> None:
    with Memory.open(build_workspace(tmp_path / "ws"), now=NOW) as memory:
        later = refusal(memory, "retain", {"bullets": ["W @Dana: Dana rows."],
                                           "date": "2030-01-01"})
        both = refusal(memory, "review_reject", {"item": "1", "rule": "value"})
    assert later.endswith("a typo? give the day it happened (a tool writes no later day's "
                          "log)") and not CLI_WORDS.search(later), later
    assert "rule/entities, not both" in both and not CLI_WORDS.search(both), both
