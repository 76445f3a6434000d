"""Core memory (memory.md blocks) and the session-start context: library and CLI."""

from __future__ import annotations

import json
import multiprocessing
from datetime import date, timedelta
from pathlib import Path

import pytest

from conftest import Cli
from memfold import BadInput, MemfoldError, Memory
from memfold.journal.log import JOURNAL_NAME
from memfold.session import core as core_module
from memfold.session.context import SessionContext

NOW = "2025-11-27T09:00:00+00:00"

HAND_WRITTEN = """---
limits: {Persona: 60, Human: 200}
---
# Core memory

A preamble memfold never edits.

## Persona

I answer briefly.

## Human
Peter, in Vienna.
```text
## not a heading: inside a fence
```
### Likes
- tea

## Retain
- W @Peter: A Retain section in memory.md is not a block.
"""


def core_file(root: Path) -> Path:
    return root / "memory.md"


def journal_lines(root: Path) -> list[dict[str, object]]:
    path = root / JOURNAL_NAME
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture
def hand(workspace: Path) -> Path:
    core_file(workspace).write_text(HAND_WRITTEN)
    return workspace


def check_citations(root: Path, context: SessionContext) -> None:
    """Every line of context cites a file line that holds what it says."""
    for section in context.sections:
        for line in section.lines:
            path, _, number = line.source.partition("#L")
            text = (root / path).read_text().split("\n")[int(number) - 1]
            if line.id:
                assert line.id in text or section.name != "core"
            elif line.text.startswith("### "):
                assert text.startswith("## ")
            else:
                assert line.text.removeprefix("- [ ] ") in text, (line, text)


# -- the blocks ------------------------------------------------------------------------------


def test_a_new_workspace_has_the_three_blocks_with_limits(memory: Memory) -> None:
    view = memory.core()
    assert [(b.name, b.limit, b.text) for b in view.blocks] == [
        ("Persona", 1000, ""), ("Human", 1000, ""), ("Project", 2000, "")]
    assert view.to_dict()["blocks"][0] == {"name": "Persona", "limit": 1000, "chars": 0,
                                           "free": 1000, "text": "",
                                           "source": view.blocks[0].source}


def test_blocks_are_level_two_headings_outside_fences(hand: Path) -> None:
    with Memory.open(hand) as memory:
        view = memory.core()
    assert [b.name for b in view.blocks] == ["Persona", "Human"]  # Retain is not a block
    human = view.block("human")
    assert human is not None and human.limit == 200 and human.line == 12
    assert human.text.startswith("Peter, in Vienna.\n```text\n## not a heading")
    assert human.text.endswith("### Likes\n- tea")
    assert view.block("Persona").limit == 60  # type: ignore[union-attr]


def test_edits_change_only_their_block(hand: Path) -> None:
    before = core_file(hand).read_text()
    with Memory.open(hand, now=NOW) as memory:
        edit = memory.core_append("persona", "I cite sources.")
        assert (edit.block, edit.op, edit.previous, edit.text) == (
            "Persona", "append", "I answer briefly.", "I answer briefly.\nI cite sources.")
        memory.core_replace("Human", "Vienna", "Berlin")
        memory.core_insert("Human", 1, "Name: Peter")
        memory.core_insert("Human", -1, "- coffee")
        after = core_file(hand).read_text()
        assert memory.core().block("Human").text == (  # type: ignore[union-attr]
            "Name: Peter\nPeter, in Berlin.\n```text\n## not a heading: inside a fence\n```\n"
            "### Likes\n- tea\n- coffee")
    assert after == before.replace("I answer briefly.\n", "I answer briefly.\nI cite sources.\n")\
        .replace("## Human\nPeter, in Vienna.", "## Human\nName: Peter\nPeter, in Berlin.")\
        .replace("- tea\n", "- tea\n- coffee\n")
    events = journal_lines(hand)
    assert [(e["event"], e["id"], e["op"]) for e in events] == [
        ("core", "core:Persona", "append"), ("core", "core:Human", "replace"),
        ("core", "core:Human", "insert"), ("core", "core:Human", "insert")]
    assert events[1]["before"] == "Peter, in Vienna.\n```text\n## not a heading: inside a " \
        "fence\n```\n### Likes\n- tea"


@pytest.mark.parametrize(("op", "args", "message"), [
    ("append", ("Persona", "x" * 60), "would be 78 characters; its limit is 60"),
    ("replace", ("Persona", "briefly", "b" * 60), "its limit is 60"),
    ("insert", ("Persona", 1, "y" * 50), "its limit is 60"),
    ("replace", ("Human", "zebra", "x"), "OLD does not occur in block 'Human'"),
    ("replace", ("Human", "e", "E"), "OLD occurs 10 times in block 'Human'"),
    ("replace", ("Human", "", "E"), "OLD is empty"),
    ("replace", ("Nope", "a", "b"), "memory.md has no block 'Nope'"),
    ("insert", ("Human", 0, "x"), "LINE 0 is outside block 'Human'"),
    ("insert", ("Human", 9, "x"), "use 1 to 7"),
    ("append", ("Human", "## Sneaky"), "would end the block"),
    ("append", ("Human", "```\nopen fence"), "never closes it"),
    ("append", ("Human", "bell\x07"), "control character"),
    ("append", ("Retain", "x"), "not a core block"),
    ("append", ("", "x"), "is not a name"),
    ("append", ("Human", "   "), "is empty"),
])
def test_refused_edits_write_nothing(hand: Path, op: str, args: tuple[object, ...],
                                     message: str) -> None:
    before = core_file(hand).read_bytes()
    with Memory.open(hand, now=NOW) as memory, pytest.raises(BadInput) as caught:
        getattr(memory, f"core_{op}")(*args)
    assert message in str(caught.value)
    assert core_file(hand).read_bytes() == before
    assert journal_lines(hand) == []


def test_a_block_already_over_its_limit_may_shrink(hand: Path) -> None:
    text = core_file(hand).read_text().replace("I answer briefly.", "a" * 40 + "b" * 40)
    core_file(hand).write_text(text)
    with Memory.open(hand, now=NOW) as memory:
        with pytest.raises(BadInput):
            memory.core_append("Persona", "more")
        with pytest.raises(BadInput):
            memory.core_replace("Persona", "b" * 40, "c" * 41)
        assert memory.core_replace("Persona", "a" + "b" * 30, "").text == "a" * 39 + "b" * 10


def test_append_creates_a_block_and_undo_removes_it(workspace: Path) -> None:
    original = core_file(workspace).read_bytes()
    with Memory.open(workspace, now=NOW) as memory:
        memory.core_append("Persona", "I am brief.")
        created = memory.core_append("Goals", "Ship v0.2.")
        assert created.previous is None and created.limit == core_module.DEFAULT_LIMIT
        assert core_file(workspace).read_text().endswith("## Project\n\n## Goals\n\nShip v0.2.\n")
        memory.core_replace("Persona", "brief", "concise")
        assert memory.core_undo().text == "I am brief."
        assert memory.core_undo().text is None  # Goals removed, heading and all
        assert memory.core_undo().text == ""
        assert core_file(workspace).read_bytes() == original
        with pytest.raises(BadInput, match="nothing to undo"):
            memory.core_undo()
        ops = [(e.event, e.data["op"]) for e in memory.history("core:Persona")]
    assert ops == [("core", "append"), ("core", "replace"), ("core", "undo"), ("core", "undo")]


def test_undo_refuses_to_lose_a_hand_edit(workspace: Path) -> None:
    with Memory.open(workspace, now=NOW) as memory:
        memory.core_append("Human", "Peter.")
        path = core_file(workspace)
        path.write_text(path.read_text().replace("Peter.", "Peter, edited by hand."))
        before = path.read_bytes()
        with pytest.raises(MemfoldError, match="changed since the edit to undo"):
            memory.core_undo()
        assert path.read_bytes() == before


def test_crlf_files_keep_their_line_endings(workspace: Path) -> None:
    core_file(workspace).write_bytes(b"# Core\r\n\r\n## Human\r\nPeter.\r\n\r\n## Persona\r\n")
    with Memory.open(workspace, now=NOW) as memory:
        memory.core_append("Human", "Vienna.")
        memory.core_append("Persona", "Brief.")
    assert core_file(workspace).read_bytes() == (
        b"# Core\r\n\r\n## Human\r\nPeter.\r\nVienna.\r\n\r\n## Persona\r\n\r\nBrief.\r\n")


def test_an_editor_saving_mid_edit_is_not_overwritten(workspace: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    path = core_file(workspace)
    real_read = core_module._read
    calls = []

    def read(target: Path) -> bytes | None:
        calls.append(target)
        if len(calls) == 2:  # between memfold's read and its write, an editor saves
            path.write_text(path.read_text().replace("## Human\n", "## Human\n\nBy hand.\n"))
        return real_read(target)

    monkeypatch.setattr(core_module, "_read", read)
    with Memory.open(workspace, now=NOW) as memory:
        edit = memory.core_append("Human", "By memfold.")
    assert edit.text == "By hand.\nBy memfold."
    assert "By hand.\nBy memfold.\n" in path.read_text()


def _append_many(root: str, who: str, count: int) -> None:
    with Memory.open(root, now=NOW) as memory:
        for n in range(count):
            memory.core_append("Human", f"{who} line {n}")


@pytest.mark.slow
def test_two_processes_editing_at_once_lose_nothing(workspace: Path) -> None:
    path = core_file(workspace)
    path.write_text(path.read_text().replace("Human: 1000", "Human: 100000"))
    context = multiprocessing.get_context("spawn")
    procs = [context.Process(target=_append_many, args=(str(workspace), who, 25))
             for who in ("a", "b")]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(60)
        assert proc.exitcode == 0
    with Memory.open(workspace) as memory:
        lines = memory.core().block("Human").text.split("\n")  # type: ignore[union-attr]
    assert sorted(lines) == sorted(f"{w} line {n}" for w in "ab" for n in range(25))
    for who in "ab":  # each writer's lines stay in its order
        mine = [ln for ln in lines if ln.startswith(who)]
        assert mine == [f"{who} line {n}" for n in range(25)]
    assert len(journal_lines(workspace)) == 50


# -- the lifecycle leaves core memory alone -------------------------------------------------


def test_recall_never_decays_or_supersedes_core_blocks(workspace: Path) -> None:
    with Memory.open(workspace, now=NOW) as memory:
        memory.core_append("Human", "Peter lives in Vienna.")
        newer = memory.retain("W @Peter: Peter lives in Berlin.", date="2025-11-27").facts[0]
        later = memory.recall("where does Peter live", now="2027-06-01", include_all=True)
        core_hits = [h for h in later.hits if h.fact.path == "memory.md"]
        assert core_hits and all(h.status == "active" and h.decay == 1.0 for h in core_hits)
        with pytest.raises(BadInput, match="never superseded"):
            memory.supersede(core_hits[0].fact.id, newer.id)


# -- the session context -----------------------------------------------------------------------


def session_workspace(root: Path) -> None:
    today = date(2025, 11, 27)
    with Memory.open(root, now=NOW) as memory:
        memory.core_append("Persona", "Answer briefly; cite sources.")
        memory.core_append("Human", "Peter, in Vienna.\nPrefers German on weekends.")
        memory.retain(["B @warelay: Fixed the WS crash.", "W @Peter: Back from Marrakech."],
                      date=today - timedelta(days=1))
        memory.retain(["W @Peter: In Berlin until Dec 1 (2025-11-25..2025-12-01).",
                       "W @shop: The main database is MySQL."], date=today)
        memory.retain(["W(until=2025-11-30) @Peter: Passport valid.",
                       "W(until=2025-12-20) @Peter: Visa valid.",
                       "W(until=2025-11-01) @Peter: Old address, long expired."],
                      date="2025-10-01")
    (root / "memory" / "2025-11-20.md").write_text(
        "# 2025-11-20\n\n- [ ] Call the plumber\n- [x] Done already\n```\n- [ ] in a fence\n```\n")
    (root / "bank" / "world.md").write_text("# World\n\n- [ ] Renew the domain\n")
    (root / "memory" / "2025-10-01.md").write_text(
        (root / "memory" / "2025-10-01.md").read_text() + "\n- [ ] Too old to show\n")


def test_context_has_every_section_each_line_cited(workspace: Path) -> None:
    session_workspace(workspace)
    with Memory.open(workspace, now=NOW) as memory:
        result = memory.context()
    names = [s.name for s in result.sections]
    assert names == ["core", "today", "yesterday", "expiring", "open"]
    text = result.render()
    assert "### Persona (29/1000 chars)  memory.md#L" in text
    assert "Prefers German on weekends.  memory.md#L" in text
    sections = {s.name: s for s in result.sections}
    assert [ln.text for ln in sections["yesterday"].lines] == [
        f"- B @warelay: Fixed the WS crash. ^{sections['yesterday'].lines[0].id}",
        f"- W @Peter: Back from Marrakech. ^{sections['yesterday'].lines[1].id}"]
    expiring = [ln.text for ln in sections["expiring"].lines]
    assert len(expiring) == 1 and "Passport" in expiring[0] and "(ends 2025-11-30)" in expiring[0]
    assert [ln.text for ln in sections["open"].lines] == ["- [ ] Call the plumber",
                                                          "- [ ] Renew the domain"]
    assert "Berlin until Dec 1" in text  # today's bullet, shown once (not again as expiring)
    assert text.count("Berlin until Dec 1") == 1
    assert result.tokens <= result.budget and all(s.omitted == 0 for s in result.sections)
    check_citations(workspace, result)


def test_context_fits_the_budget_core_first_then_round_robin(workspace: Path) -> None:
    session_workspace(workspace)
    with Memory.open(workspace, now=NOW) as memory:
        for budget in (1, 20, 60, 90, 130, 400):
            result = memory.context(budget=budget)
            assert result.tokens <= budget
            check_citations(workspace, result)
        # core (about 140 tokens, counted conservatively) fits; the rest does not
        small = {s.name: s for s in memory.context(budget=160).sections}
        assert small["core"].omitted == 0
        assert sum(s.omitted for s in small.values()) > 0
        with pytest.raises(BadInput, match="budget"):
            memory.context(budget=0)


def test_context_leaves_out_superseded_facts(workspace: Path) -> None:
    with Memory.open(workspace, now=NOW) as memory:
        old = memory.retain("W @Peter: Lives in Vienna.", date="2025-11-27").facts[0].id
        memory.retain("W @Peter: Moved from Vienna to Berlin.", date="2025-11-27")
        text = memory.context().render()
    assert f"^{old}" not in text and "Moved from Vienna to Berlin" in text


# -- CLI ----------------------------------------------------------------------------------------


def test_cli_core_view_edit_undo(run: Cli, workspace: Path) -> None:
    shown = run("core")
    assert shown.exit_code == 0 and "## Persona  (0/1000 chars)  memory.md#L" in shown.stdout
    appended = run("core", "append", "Human", "Peter.", "--json")
    assert appended.exit_code == 0
    data = json.loads(appended.stdout)
    assert data["block"] == "Human" and data["text"] == "Peter." and data["limit"] == 1000
    assert data["history_id"] == "core:Human"
    view = json.loads(run("core", "--json").stdout)
    assert [b["name"] for b in view["blocks"]] == ["Persona", "Human", "Project"]
    assert view["blocks"][1]["chars"] == 6
    assert run("core", "replace", "Human", "Peter.", "Peter, in Vienna.").exit_code == 0
    assert run("core", "insert", "Human", "1", "Name:").exit_code == 0
    history = run("history", "core:Human", "--json")
    assert [e["op"] for e in json.loads(history.stdout)["events"]] == [
        "append", "replace", "insert"]
    undone = json.loads(run("core", "undo", "--json").stdout)
    assert undone["op"] == "undo" and undone["text"] == "Peter, in Vienna."


def test_cli_refusals_exit_2_with_one_line(run: Cli, workspace: Path) -> None:
    before = core_file(workspace).read_bytes()
    for args in (["core", "append", "Persona", "x" * 1001],
                 ["core", "replace", "Persona", "missing", "x"],
                 ["core", "insert", "Persona", "5", "x"]):
        result = run(*args)
        assert result.exit_code == 2, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("memfold: error: ")
    assert core_file(workspace).read_bytes() == before
    assert run("core", "undo").exit_code == 2


def test_cli_context(run: Cli, workspace: Path) -> None:
    session_workspace(workspace)
    env = {"MEMFOLD_NOW": NOW}
    text = run("context", env=env)
    assert text.exit_code == 0 and text.stdout.startswith("## Core memory\n")
    data = json.loads(run("context", "--budget", "120", "--json", env=env).stdout)
    assert data["budget"] == 120 and data["tokens"] <= 120
    assert {"as_of", "sections", "text"} <= set(data)
    for section in data["sections"]:
        assert set(section) == {"name", "title", "lines", "omitted"}
        for line in section["lines"]:
            assert set(line) == {"text", "source", "id", "hidden"} and "#L" in line["source"]
    short = run("context", "--budget", "30", env=env)
    assert "left out to fit --budget 30" in short.stderr
    assert run("context", "--budget", "0").exit_code == 2
