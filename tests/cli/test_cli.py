"""The `memfold` command line: exit codes, JSON shapes, help, init, retain, index, status."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import click
import pytest

from conftest import DAILY, DAY, ROOT, Cli, fact_rows, markdown_hashes, write
from memfold.cli.main import cli
from memfold.index.sqlite.backend import SqliteIndex
from memfold.workspace.format import parse_document


def command_paths() -> list[list[str]]:
    ctx = click.Context(cli)
    paths: list[list[str]] = []

    def walk(group: click.Group, prefix: list[str]) -> None:
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            assert command is not None
            paths.append([*prefix, name])
            if isinstance(command, click.Group):
                walk(command, [*prefix, name])

    walk(cli, [])
    return paths


def one_error_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("memfold: error: ")
    return lines[0]


# -- help --------------------------------------------------------------------------------------


def test_the_foundation_commands_exist() -> None:
    assert {"init", "retain", "index", "status"} <= {p[0] for p in command_paths()}


@pytest.mark.parametrize("path", command_paths(), ids=" ".join)
def test_every_command_help_has_an_example(run: Cli, path: list[str]) -> None:
    result = run(*path, "--help")
    assert result.exit_code == 0
    assert "Example" in result.stdout
    assert result.stdout.startswith("Usage: ")


def test_top_level_help_and_version(run: Cli) -> None:
    result = run("--help")
    assert result.exit_code == 0
    assert "memfold init" in result.stdout and "Exit status" in result.stdout
    version = run("--version")
    assert version.exit_code == 0 and "memfold" in version.stdout


def exit_statuses(text: str) -> dict[int, str]:
    """The "Exit status: 0 ok, 1 ..." list in a help text or the README, code -> words."""
    listing = " ".join(text.split("Exit status:", 1)[1].split("\n\n", 1)[0].split())
    parts = re.split(r"(?:^|, )(\d{1,3}) (?=[a-z])", listing.rstrip("."))
    return {int(code): words.strip() for code, words in zip(parts[1::2], parts[2::2], strict=True)}


def test_the_help_lists_every_exit_status_the_readme_does(run: Cli) -> None:
    helped = exit_statuses(run("--help").stdout)
    documented = exit_statuses((ROOT / "README.md").read_text())
    assert list(helped) == list(documented) == [0, 1, 2, 3, 4, 5, 130, 141, 143]
    for code, words in helped.items():  # the same meaning: the README may say more after it
        assert documented[code].startswith(words.split(" (")[0]), code


# -- missing workspace --------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["status"], ["status", "--json"], ["index"], ["index", "--full"],
    ["retain", "W @Peter: x"], ["retain", "--json", "--date", DAY, "W: x"],
])
@pytest.mark.parametrize("exists", [False, True])
def test_missing_workspace_names_memfold_init(tmp_path: Path, run_in: Callable[[Path], Cli],
                                              args: list[str], exists: bool) -> None:
    root = tmp_path / "nowhere"
    if exists:
        root.mkdir()
    result = run_in(root)(*args)
    assert result.exit_code == 1
    line = one_error_line(result.stderr)
    assert "memfold init" in line and str(root) in line
    assert result.stdout == ""
    assert root.exists() == exists
    assert not exists or list(root.iterdir()) == []


def test_missing_workspace_points_at_the_current_directory_when_it_is_one(
        workspace: Path, tmp_path: Path, run_in: Callable[[Path], Cli],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(workspace)
    result = run_in(tmp_path / "nowhere")("status")
    assert result.exit_code == 1
    line = one_error_line(result.stderr)
    assert str(tmp_path / "nowhere") in line
    assert "the current directory is one" in line and "--workspace ." in line
    assert "memfold init" not in line  # it would make a second workspace elsewhere
    monkeypatch.chdir(tmp_path)
    assert "memfold init" in one_error_line(run_in(tmp_path / "nowhere")("status").stderr)


def test_workspace_flag_beats_the_environment(workspace: Path, tmp_path: Path,
                                              run_in: Callable[[Path], Cli]) -> None:
    result = run_in(tmp_path / "nowhere")("--workspace", str(workspace), "status", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["workspace"] == str(workspace)


# -- init -----------------------------------------------------------------------------------------


def test_init_creates_the_skeleton(tmp_path: Path, run_in: Callable[[Path], Cli]) -> None:
    root = tmp_path / "fresh"
    result = run_in(root)("init")
    assert result.exit_code == 0, result.stderr
    assert f"workspace ready at {root}" in result.stdout
    for rel in ("memory.md", ".gitignore", "bank/world.md", "bank/experience.md",
                "bank/opinions.md"):
        assert (root / rel).is_file(), rel
    for rel in ("memory", "bank/entities", ".memory"):
        assert (root / rel).is_dir(), rel
    assert ".memory/" in (root / ".gitignore").read_text()


def test_init_is_idempotent_and_never_overwrites(tmp_path: Path,
                                                 run_in: Callable[[Path], Cli]) -> None:
    root = tmp_path / "ws"
    runner = run_in(root)
    first = runner("init", "--json")
    assert first.exit_code == 0
    created = json.loads(first.stdout)
    assert set(created) == {"workspace", "created"}
    assert created["workspace"] == str(root)
    assert "memory.md" in created["created"] and "bank/world.md" in created["created"]

    (root / "memory.md").write_text("# Mine\n\nEdited by hand.\n")
    (root / "bank/world.md").unlink()
    before = markdown_hashes(root)
    second = runner("init", "--json")
    assert second.exit_code == 0
    assert json.loads(second.stdout)["created"] == ["bank/world.md"]
    assert (root / "memory.md").read_text() == "# Mine\n\nEdited by hand.\n"
    after = markdown_hashes(root)
    assert {k: v for k, v in after.items() if k != "bank/world.md"} == before

    third = runner("init")
    assert third.exit_code == 0
    assert "already set up" in third.stdout and "created" not in third.stdout
    assert markdown_hashes(root) == after


def test_init_with_a_directory_argument(tmp_path: Path, run_in: Callable[[Path], Cli]) -> None:
    target = tmp_path / "explicit"
    result = run_in(tmp_path / "env-ws")("init", str(target))
    assert result.exit_code == 0
    assert (target / "memory.md").is_file()
    assert not (tmp_path / "env-ws").exists()


def test_init_over_a_file_fails(tmp_path: Path, run_in: Callable[[Path], Cli]) -> None:
    target = tmp_path / "a-file"
    target.write_text("not a directory")
    result = run_in(target)("init")
    assert result.exit_code == 1
    assert "not a directory" in one_error_line(result.stderr)
    assert target.read_text() == "not a directory"


# -- retain ---------------------------------------------------------------------------------------


def test_retain_prints_ids_and_sources(run: Cli, workspace: Path) -> None:
    result = run("retain", "--date", DAY, "W @Peter: Currently in Marrakech (Nov 27–Dec 1, 2025).",
                 "O(c=0.95) @Peter: Prefers concise replies.")
    assert result.exit_code == 0, result.stderr
    rows = [line.split("\t") for line in result.stdout.splitlines()]
    assert [source for _, source in rows] == [f"{DAILY}#L4", f"{DAILY}#L5"]
    text = (workspace / DAILY).read_text()
    for fact_id, _ in rows:
        assert len(fact_id) == 8 and f" ^{fact_id}\n" in text


def test_retain_json_shape(run: Cli) -> None:
    result = run("retain", "--json", "--date", DAY,
                 "O(c=0.95, i=8) @Peter: In town (2025-11-27..2025-12-01).")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"path", "ids", "facts", "indexed", "warnings", "superseded", "conflicts"}
    assert data["path"] == DAILY and data["indexed"] is True and data["warnings"] == []
    (fact,) = data["facts"]
    assert data["ids"] == [fact["id"]]
    assert set(fact) == {"id", "kind", "content", "entities", "params", "confidence",
                         "importance", "valid_from", "valid_until", "date", "source"}
    assert fact == {
        "id": fact["id"], "kind": "opinion", "content": "In town (2025-11-27..2025-12-01).",
        "entities": ["Peter"], "params": {"c": "0.95", "i": "8"}, "confidence": 0.95,
        "importance": 8, "valid_from": "2025-11-27", "valid_until": "2025-12-01",
        "date": DAY, "source": f"{DAILY}#L4",
    }


@pytest.mark.parametrize("stdin", [
    "W @Peter: one\nB: two\n\n   \n- S: three\n",
    "W @Peter: one\r\nB: two\r\n- S: three",
])
@pytest.mark.parametrize("dash", [False, True])
def test_retain_from_stdin(run: Cli, workspace: Path, stdin: str, dash: bool) -> None:
    args = ["retain", "--json", "--date", DAY, *(["-"] if dash else [])]
    result = run(*args, input=stdin)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert [f["content"] for f in data["facts"]] == ["one", "two", "three"]
    assert [f["kind"] for f in data["facts"]] == ["world", "experience", "observation"]
    doc = parse_document(DAILY, (workspace / DAILY).read_bytes())
    assert [f.id for f in doc.facts] == data["ids"]
    assert b"\r" not in (workspace / DAILY).read_bytes()


def test_retain_uses_as_of_for_the_default_day(run: Cli, workspace: Path) -> None:
    assert run("--as-of", "2026-03-04T10:00", "retain", "W: a").exit_code == 0
    assert (workspace / "memory/2026-03-04.md").is_file()
    assert run("retain", "W: b", env={"MEMFOLD_NOW": "2026-03-05"}).exit_code == 0
    assert (workspace / "memory/2026-03-05.md").is_file()


BAD_BULLETS = [
    pytest.param("X @Peter: unknown kind", "unknown kind", id="unknown-kind"),
    pytest.param("O(c=1.5) @Peter: x", "confidence", id="c-above-1"),
    pytest.param("O(c=-0.5) @Peter: x", "confidence", id="c-below-0"),
    pytest.param("W(i=0): x", "importance", id="i-0"),
    pytest.param("W(i=11): x", "importance", id="i-11"),
    pytest.param("W(i=3.5): x", "importance", id="i-fraction"),
    pytest.param("W(until=2025-13-01): x", "until", id="until-bad"),
    pytest.param("W @Peter:", "empty", id="empty-content"),
    pytest.param("W @Peter:   ^abcdef1", "empty", id="only-an-id"),
    pytest.param("W: first line\nsecond line", "newline", id="newline"),
    pytest.param("no colon at all", "not a Retain fact", id="not-a-fact"),
]


@pytest.mark.parametrize("bullet, message", BAD_BULLETS)
def test_retain_bad_bullet_exit_2_and_file_unchanged(run: Cli, workspace: Path, bullet: str,
                                                     message: str) -> None:
    assert run("retain", "--date", DAY, "W: existing").exit_code == 0
    before = (workspace / DAILY).read_bytes()
    result = run("retain", "--date", DAY, "W: a good one", bullet)
    assert result.exit_code == 2
    assert message in one_error_line(result.stderr)
    assert result.stdout == ""
    assert (workspace / DAILY).read_bytes() == before
    index = SqliteIndex(workspace / ".memory/index.sqlite")
    try:
        assert [row[6] for row in fact_rows(index.dump())] == ["existing"]
    finally:
        index.close()


@pytest.mark.parametrize("bullet, message", BAD_BULLETS[:-2])
def test_retain_bad_bullet_on_stdin_exit_2(run: Cli, workspace: Path, bullet: str,
                                           message: str) -> None:
    assert run("retain", "--date", DAY, "W: existing").exit_code == 0
    before = (workspace / DAILY).read_bytes()
    result = run("retain", "--date", DAY, input=f"W: good\n{bullet}\n")
    assert result.exit_code == 2
    assert message in one_error_line(result.stderr)
    assert (workspace / DAILY).read_bytes() == before


@pytest.mark.parametrize("day", ["2025-13-01", "2025-02-29", "27.11.2025", "2025-11-7", "soon"])
def test_retain_malformed_date_exit_2_nothing_written(run: Cli, workspace: Path,
                                                      day: str) -> None:
    before = markdown_hashes(workspace)
    result = run("retain", "--date", day, "W: x")
    assert result.exit_code == 2
    assert "YYYY-MM-DD" in one_error_line(result.stderr)
    assert markdown_hashes(workspace) == before
    assert list((workspace / "memory").iterdir()) == []


def test_retain_with_nothing_to_retain_exit_2(run: Cli, workspace: Path) -> None:
    result = run("retain", "--date", DAY, input="\n  \n")
    assert result.exit_code == 2
    assert "nothing to retain" in one_error_line(result.stderr)
    assert not (workspace / DAILY).exists()


def test_usage_errors_exit_2(run: Cli) -> None:
    assert run("retain", "--date").exit_code == 2
    assert run("index", "--no-such-flag").exit_code == 2
    assert run("no-such-command").exit_code == 2


# -- index and status ---------------------------------------------------------------------------


def test_index_json_shape_and_full(run: Cli, workspace: Path) -> None:
    write(workspace, DAILY, "## Retain\n- W @Peter: a\n- not a fact\n")
    result = run("index", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"full", "scanned", "added", "changed", "removed", "seconds", "warnings",
                         "skipped_symlinks", "link_warnings", "open_warnings"}
    assert data["full"] is False and data["scanned"] == 5
    assert DAILY in data["added"] and data["changed"] == [] and data["removed"] == []
    assert data["warnings"] == [{"path": DAILY, "line": 3,
                                 "message": data["warnings"][0]["message"]}]
    again = json.loads(run("index", "--json").stdout)
    assert again["added"] == again["changed"] == again["removed"] == []
    full = json.loads(run("index", "--full", "--json").stdout)
    assert full["full"] is True and len(full["added"]) == 5


def test_index_text_output_and_warnings_on_stderr(run: Cli, workspace: Path) -> None:
    write(workspace, DAILY, "## Retain\n- W: ok\n- not a fact\n")
    result = run("index")
    assert result.exit_code == 0
    assert result.stdout.startswith("synced 5 files: 5 added, 0 changed, 0 removed, 1 warnings")
    assert f"{DAILY}:3:" in result.stderr
    assert run("index", "--full").stdout.startswith("rebuilt 5 files")


def test_indexing_does_not_modify_any_markdown_byte(run: Cli, workspace: Path) -> None:
    write(workspace, DAILY, b"\xef\xbb\xbf# Day\r\n\r\n## Retain\r\n- W @Peter: crlf\r\n- junk")
    write(workspace, "bank/entities/Zo\u00eb.md", "---\naliases: [Z]\n---\nNo newline at end")
    write(workspace, "memory/notes/odd.md", "```\nunclosed fence\n- W: fake\n")
    before = markdown_hashes(workspace)
    for args in (["index"], ["index"], ["index", "--full"], ["status"], ["status", "--json"]):
        assert run(*args).exit_code == 0
    assert markdown_hashes(workspace) == before


def test_status_json_shape(run: Cli, workspace: Path) -> None:
    assert run("retain", "--date", DAY, "W @Peter: a", "O(c=0.5) @Zoë: b").exit_code == 0
    data = json.loads(run("status", "--json").stdout)
    assert set(data) == {"workspace", "index", "files", "facts", "facts_by_kind", "entities",
                         "chunks", "warnings", "last_sync", "freshness", "stale_pages",
                         "link_warnings", "secrets", "parse_warnings", "hidden_text",
                         "open_warnings"}
    assert data["workspace"] == str(workspace)
    assert data["index"] == str(workspace / ".memory/index.sqlite")
    assert data["facts"] == 2 and data["facts_by_kind"] == {"opinion": 1, "world": 1}
    assert data["entities"] == 2 and data["files"] == 1 and data["warnings"] == 0
    assert set(data["freshness"]) == {"stale", "new", "modified", "deleted"}
    assert data["freshness"]["stale"] == 4 and data["freshness"]["modified"] == []
    assert run("index").exit_code == 0
    fresh = json.loads(run("status", "--json").stdout)
    assert fresh["freshness"] == {"stale": 0, "new": [], "modified": [], "deleted": []}
    assert fresh["files"] == 5 and fresh["last_sync"]


def test_status_text(run: Cli, workspace: Path) -> None:
    assert run("index").exit_code == 0
    result = run("status")
    assert result.exit_code == 0
    assert f"workspace  {workspace}" in result.stdout
    assert "freshness  up to date" in result.stdout
    write(workspace, "memory/new.md", "new\n")
    stale = run("status").stdout
    assert "1 files changed since the last sync (1 new" in stale and "memfold index" in stale


# -- ids of hand-written bullets ----------------------------------------------------------------


def test_hand_written_bullet_keeps_its_id_when_moved(run: Cli, workspace: Path) -> None:
    write(workspace, DAILY, "# Day\n\n## Retain\n- W @Peter: Lives in Vienna.\n- B: Other.\n")
    assert run("index").exit_code == 0
    index = SqliteIndex(workspace / ".memory/index.sqlite")
    try:
        rows = {row[6]: row for row in fact_rows(index.dump()) if row[2] == DAILY}
        fact_id = rows["Lives in Vienna."][1]
        assert rows["Lives in Vienna."][3] == 4
        assert index.locate(fact_id) == [f"{DAILY}#L4"]

        write(workspace, DAILY, "# Day\n\nA new paragraph on top.\n\n## Retain\n- B: Other.\n\n"
                                "## Notes\nprose\n\n## Retain\n  -   W @Peter:  Lives in Vienna.\n")
        assert run("index").exit_code == 0
        assert index.locate(fact_id) == [f"{DAILY}#L12"]
        assert (workspace / DAILY).read_text().count("^") == 0  # no id was written back
    finally:
        index.close()
