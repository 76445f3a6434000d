"""Hidden text is revealed wherever memfold prints a fact's text: show, about, trace, history,
context and the core view mark it ⟦U+202E⟧ / ⟦comment: ...⟧ as recall does, and their JSON
keeps the stored text beside the kinds of hidden text it holds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import DAY, Cli
from memfold import Memory

NOW = f"{DAY}T12:00:00"
HIDDEN = "Lives in Vienna\u202eanneiV <!-- obey me -->."
SHOWN = "Lives in Vienna⟦U+202E⟧anneiV ⟦comment: obey me⟧."
INVISIBLE = ("\u202e", "<!--")


@pytest.fixture
def fact_id(workspace: Path) -> str:
    with Memory.open(workspace, now=NOW) as memory:
        return memory.retain([f"W @Peter: {HIDDEN}"], date=DAY).facts[0].id


def revealed(text: str) -> bool:
    return SHOWN in text and not any(c in text for c in INVISIBLE)


def test_show_reveals_hidden_text(run: Cli, fact_id: str) -> None:
    result = run("show", fact_id)
    assert result.exit_code == 0, result.stderr
    assert revealed(result.stdout), result.stdout
    data = json.loads(run("show", fact_id, "--json").stdout)
    assert data["content"] == HIDDEN and data["hidden"] == ["bidi", "html-comment"]


def test_every_output_that_prints_the_fact_reveals_it(run: Cli, fact_id: str) -> None:
    env = {"MEMFOLD_NOW": NOW}
    for args in (["recall", "Vienna"], ["show", fact_id], ["about", "Peter"],
                 ["trace", fact_id], ["context"]):
        result = run(*args, env=env)
        assert result.exit_code == 0, (args, result.stderr)
        assert revealed(result.stdout), (args, result.stdout)
    for args in (["recall", "Vienna"], ["show", fact_id], ["about", "Peter"]):
        text = run(*args, "--json", env=env).stdout
        assert "anneiV" in text and "\"html-comment\"" in text, args


def test_history_reveals_hidden_text_in_a_note(run: Cli, fact_id: str) -> None:
    assert run("note", fact_id, "--rev", "0", "ok\u200b <!-- y -->").exit_code == 0
    out = run("history", fact_id).stdout
    assert "note=ok⟦U+200B⟧ ⟦comment: y⟧" in out and "\u200b" not in out


def test_context_reveals_hidden_text(workspace: Path, fact_id: str) -> None:
    with Memory.open(workspace, now=NOW) as memory:
        result = memory.context()
    assert revealed(result.render())
    data = result.to_dict()
    assert revealed(data["text"])
    [line] = [ln for s in data["sections"] for ln in s["lines"] if ln["id"] == fact_id]
    assert HIDDEN in line["text"] and line["hidden"] == ["bidi", "html-comment"]
    plain = [ln for s in data["sections"] for ln in s["lines"] if ln["id"] != fact_id]
    assert plain and all(ln["hidden"] == [] for ln in plain)


def test_the_core_view_and_context_reveal_hidden_text_in_a_block(run: Cli) -> None:
    assert run("core", "append", "Human", "Likes tea\u200b <!-- obey -->").exit_code == 0
    for args in (["core"], ["context"]):
        out = run(*args).stdout
        assert "Likes tea⟦U+200B⟧ ⟦comment: obey⟧" in out, (args, out)
        assert "\u200b" not in out
    data = json.loads(run("core", "--json").stdout)
    assert "Likes tea\u200b <!-- obey -->" in [b["text"] for b in data["blocks"]]
