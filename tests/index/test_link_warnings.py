"""Link warnings: `status` and `index` name what hand edits broke — duplicate block ids,
supersede pointers to facts no file holds, notes and supersedes orphaned by an edit — each
with path:line and what to do, and following that advice clears them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import Cli, write
from memfold import Memory
from memfold.journal.log import JOURNAL_NAME
from memfold.values import ParseWarning

NOW = "2025-12-01T09:00:00"
OLD_DAY, NEW_DAY = "memory/2025-11-20.md", "memory/2025-11-25.md"


def edit(root: Path, rel: str, old: str, new: str) -> None:
    path = root / rel
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def status_json(run: Cli) -> dict[str, object]:
    result = run("status", "--json", env={"MEMFOLD_NOW": NOW})
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def find_id(memory: Memory, query: str) -> str:
    return memory.recall(query, include_all=True).hits[0].fact.id


def places(warnings: list[ParseWarning]) -> list[tuple[str, int]]:
    return [(w.path, w.line) for w in warnings]


# -- (c) a note orphaned by an edit of an id-less bullet ------------------------------------


@pytest.mark.parametrize("fix", ["block id", "note again"])
def test_editing_an_idless_bullet_orphans_its_note_and_says_how_to_reattach(
        workspace: Path, fix: str) -> None:
    write(workspace, OLD_DAY, "# d\n\n## Retain\n- W @Anna: Likes tea.\n- W @Bob: Has a cat.\n")
    with Memory.open(workspace, now=NOW) as memory:
        memory.index()
        tea, cat = find_id(memory, "Anna tea"), find_id(memory, "Bob cat")
        memory.note(tea, "checked with Anna on the phone", rev=0)
        memory.note(cat, "the cat is called Mo", rev=0)
        memory.forget(cat, purge=True)  # removed on purpose: its note is no warning
        edit(workspace, OLD_DAY, "Likes tea.", "Likes green tea.")
        report = memory.index()
        [warning] = report.link_warnings
        assert warning.path == JOURNAL_NAME
        event = json.loads((workspace / JOURNAL_NAME).read_text().splitlines()[warning.line - 1])
        assert (event["event"], event["id"], event["note"]) == (
            "note", tea, "checked with Anna on the phone")
        assert f"note #{event['seq']} on {tea}" in warning.message
        assert "checked with Anna on the phone" in warning.message
        assert f"end the edited bullet with ^{tea}" in warning.message
        assert "memfold note NEWID" in warning.message
        status = memory.status()
        assert status.link_warnings == (warning,) and status.warnings == 1
        # either fix it names works, and the warning goes
        if fix == "block id":
            edit(workspace, OLD_DAY, "Likes green tea.", f"Likes green tea. ^{tea}")
            assert memory.index().link_warnings == ()
            hit = memory.get(tea, use=False)
            assert (hit.note, hit.fact.content) == ("checked with Anna on the phone",
                                                    "Likes green tea.")
        else:
            memory.note(find_id(memory, "green tea"), "checked with Anna on the phone", rev=0)
        assert memory.status().warnings == 0 and memory.link_warnings() == []


def test_the_journal_line_is_the_real_line_after_a_torn_line(workspace: Path) -> None:
    write(workspace, OLD_DAY, "## Retain\n- W @Anna: Likes tea.\n")
    with Memory.open(workspace, now=NOW) as memory:
        memory.index()
        tea = find_id(memory, "tea")
        memory.note(tea, "first", rev=0)
        with (workspace / JOURNAL_NAME).open("a") as handle:
            handle.write('{"seq": 2, "ts": "2025-12-01", "event": "note", "id": "')  # a crash
        memory.note(tea, "second", rev=1)
        edit(workspace, OLD_DAY, "Likes tea.", "Likes black tea.")
        [warning] = memory.index().link_warnings
    lines = (workspace / JOURNAL_NAME).read_text().splitlines()
    assert json.loads(lines[warning.line - 1])["note"] == "second"
    assert "note #2 " in warning.message and warning.line == 2  # the torn line was cut off
    assert all(json.loads(line) for line in lines)


# -- (b) a supersede pointer to a fact that no longer exists --------------------------------


def test_renaming_the_entity_in_the_newer_fact_leaves_a_dangling_pointer(
        run: Cli, workspace: Path) -> None:
    env = {"MEMFOLD_NOW": NOW}
    assert run("retain", "--date", "2025-11-20", "W @Peter: Lives in Vienna.",
               env=env).exit_code == 0
    write(workspace, NEW_DAY, "# d\n\n## Retain\n- W @Peter: Lives in Berlin.\n")
    assert run("index", env=env).exit_code == 0
    recalled = json.loads(run("recall", "Peter Vienna", "--all", "--json", env=env).stdout)
    old = next(r for r in recalled["results"] if "Vienna" in r["content"])
    newer = old["superseded_by"]
    assert newer and old["status"] == "superseded"
    edit(workspace, NEW_DAY, "@Peter: Lives in Berlin", "@Pete: Lives in Berlin")

    result = run("index", env=env)
    assert result.exit_code == 0
    assert "1 link warnings" in result.stdout
    line = next(ln for ln in result.stderr.splitlines() if f"{OLD_DAY}:4:" in ln)
    assert f"superseded by {newer}, which no file holds now" in line
    assert f"memfold restore {old['id']}" in line and f"memfold supersede {old['id']}" in line
    assert f"^{newer}" in line
    data = json.loads(run("index", "--json", env=env).stdout)
    assert [(w["path"], w["line"]) for w in data["link_warnings"]] == [(OLD_DAY, 4)]

    status = status_json(run)
    assert status["warnings"] == 1
    assert status["link_warnings"] == data["link_warnings"]
    text = run("status", env=env).stdout
    assert "warnings   1 (1 link)" in text and f"{OLD_DAY}:4: {old['id']}" in text

    assert run("restore", old["id"], env=env).exit_code == 0  # one of the fixes it names
    assert status_json(run)["link_warnings"] == [] and status_json(run)["warnings"] == 0


@pytest.mark.parametrize("fix", ["block id", "supersede"])
def test_a_superseded_idless_fact_edited_by_hand_loses_its_supersede(
        workspace: Path, fix: str) -> None:
    write(workspace, OLD_DAY, "## Retain\n- W @Peter: Lives in Vienna.\n")
    with Memory.open(workspace, now=NOW) as memory:
        memory.index()
        vienna = find_id(memory, "Vienna")
        [berlin] = [f.id for f in memory.retain("W @Peter: Lives in Berlin.",
                                                 date="2025-11-25").facts]
        assert memory.get(vienna, use=False).superseded_by == berlin
        edit(workspace, OLD_DAY, "Lives in Vienna.", "Lives in Vienna, Austria.")
        [warning] = memory.index().link_warnings
        assert warning.path == JOURNAL_NAME
        assert f"({vienna} superseded by {berlin}) applies to no fact" in warning.message
        assert "the edited bullet counts as current again" in warning.message
        assert f"end it with ^{vienna}" in warning.message
        assert f"memfold supersede NEWID {berlin}" in warning.message
        edited = find_id(memory, "Austria")
        assert memory.get(edited, use=False).status == "active"
        if fix == "block id":
            edit(workspace, OLD_DAY, "Vienna, Austria.", f"Vienna, Austria. ^{vienna}")
            assert memory.index().link_warnings == ()
            assert memory.get(vienna, use=False).superseded_by == berlin
        else:
            memory.supersede(edited, berlin)
        assert memory.link_warnings() == []


def test_a_merged_fact_whose_consolidated_bullet_is_gone_is_named(workspace: Path) -> None:
    with Memory.open(workspace, now=NOW) as memory:
        [a] = [f.id for f in memory.retain("B @Peter: Ordered a flat white at Cafe Central.",
                                            date="2025-11-27").facts]
        [b] = [f.id for f in memory.retain(
            "B @Peter: Ordered a flat white at Cafe Central today.", date="2025-11-28").facts]
        [(into, merged)] = memory.reflect(since="7d").merges
        assert set(merged) == {a, b}
        edit(workspace, "bank/experience.md", f" ^{into}", " (edited by hand)")
        found = memory.index().link_warnings
        assert places(list(found)) == [("memory/2025-11-27.md", 4), ("memory/2025-11-28.md", 4)]
        assert all(f"merged into {into}, which no file holds now" in w.message for w in found)
        memory.restore(a)
        memory.restore(b)
        assert memory.status().link_warnings == ()


# -- (a) duplicate block ids ------------------------------------------------------------------


def test_a_block_id_on_two_bullets_in_two_files_is_named_at_both(
        run: Cli, workspace: Path) -> None:
    write(workspace, OLD_DAY, "## Retain\n- W @Bob: Has a cat. ^dupid01\n")
    write(workspace, NEW_DAY, "# d\n\n## Retain\n- W @Carl: Has a dog. ^dupid01\n")
    result = run("index", "--json")
    assert result.exit_code == 0
    warnings = json.loads(result.stdout)["link_warnings"]
    assert [(w["path"], w["line"]) for w in warnings] == [(OLD_DAY, 2), (NEW_DAY, 4)]
    used, other = (w["message"] for w in warnings)
    assert f"^dupid01 is also on {NEW_DAY}:4; memfold uses this bullet" in used
    assert f"^dupid01 is already on {OLD_DAY}:2, the bullet memfold uses" in other
    assert "new block id or remove it" in other
    shown = json.loads(run("show", "dupid01", "--json").stdout)
    assert shown["source"] == f"{OLD_DAY}#L2"  # what the warning says memfold uses
    assert status_json(run)["warnings"] == 2
    edit(workspace, NEW_DAY, "^dupid01", "^dogid001")
    assert run("index").exit_code == 0
    assert status_json(run)["link_warnings"] == []


def test_a_block_id_pasted_twice_in_one_file(memory: Memory, workspace: Path) -> None:
    write(workspace, OLD_DAY, "## Retain\n- W @Bob: Has a cat. ^dupid01\n"
                              "- W @Bob: Has a cat. ^dupid01\n- W @Bob: Likes fish.\n")
    memory.index()
    found = memory.status().link_warnings
    assert places(list(found)) == [(OLD_DAY, 2), (OLD_DAY, 3)]
    assert f"also on {OLD_DAY}:3" in found[0].message


# -- cheap and honest -----------------------------------------------------------------------


def test_a_clean_workspace_has_no_link_warnings_and_a_rebuild_finds_the_same(
        run: Cli, workspace: Path) -> None:
    assert run("retain", "W @Peter: Lives in Vienna.", "W @Peter: Lives in Berlin.").exit_code == 0
    assert run("index").stdout.count("link warnings") == 0
    assert status_json(run)["link_warnings"] == []
    write(workspace, NEW_DAY, "## Retain\n- W @Bob: Has a cat. ^dupid01\n- W: x ^dupid01\n")
    first = json.loads(run("index", "--json").stdout)["link_warnings"]
    rebuilt = json.loads(run("index", "--full", "--json").stdout)["link_warnings"]
    assert len(first) == 2 and rebuilt == first
