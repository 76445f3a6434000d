"""Warnings you can list again: `status` and `status --json` list every open warning (parse,
hidden text, secret, link) with path:line and what to do, until it is fixed; `index` says how
many are open, not only the new ones; recall's own sync shows what it found."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import Cli, write

DAY = "memory/2025-03-09.md"
ENV = {"MEMFOLD_NOW": "2025-03-10T12:00:00"}
BROKEN = ("# 2025-03-09\n\n## Retain\n"
          "- Q @Bob: a kind that does not exist\n"                      # 4: parse
          "- W @Bob: the wifi password is purple-Otter-42 he said\n"   # 5: secret
          "- W @Ann: Ann likes te\u200ba\n"                            # 6: hidden text
          "- W(c=7) @Ann: Ann has a bike.\n"                            # 7: parse
          "- W @Cy: Cy has a car. ^dupid001\n"                          # 8: link
          "- W @Cy: Cy has a van. ^dupid001\n")                         # 9: link


def status(run: Cli) -> dict[str, object]:
    result = run("status", "--json", env=ENV)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_status_json_lists_every_open_warning_after_the_sync_that_saw_it(
        run: Cli, workspace: Path) -> None:
    write(workspace, DAY, BROKEN)
    assert run("index", env=ENV).exit_code == 0
    assert run("index", env=ENV).exit_code == 0  # nothing new: the warnings are still open
    report = status(run)
    opened = [(w["kind"], w["path"], w["line"]) for w in report["open_warnings"]]  # type: ignore[index]
    assert opened == [("parse", DAY, 4), ("parse", DAY, 7), ("hidden", DAY, 6),
                      ("secret", DAY, 5), ("link", DAY, 8), ("link", DAY, 9)]
    assert report["warnings"] == 6
    parse = report["parse_warnings"]
    assert [w["line"] for w in parse] == [4, 7]  # type: ignore[index]
    assert all("edit the line" in w["message"] for w in parse)  # type: ignore[index]
    [hidden] = report["hidden_text"]  # type: ignore[misc]
    assert "zero-width" in hidden["message"] and "remove it" in hidden["message"]


def test_status_text_lists_them_and_fixing_the_line_clears_it(
        run: Cli, workspace: Path) -> None:
    write(workspace, DAY, BROKEN)
    run("index", env=ENV)
    shown = run("status", env=ENV).stdout
    assert "(2 parse, 1 hidden, 1 secret, 2 link)" in shown
    assert f"parse      {DAY}:4: unknown kind 'Q'" in shown
    assert f"parse      {DAY}:7: confidence c=7" in shown
    assert f"hidden     {DAY}:6: holds hidden text" in shown
    write(workspace, DAY, BROKEN.replace("W(c=7)", "W(c=0.7)").replace("te\u200ba", "tea"))
    run("index", env=ENV)
    assert [w["line"] for w in status(run)["open_warnings"]] == [4, 5, 8, 9]  # type: ignore[index]


def test_index_says_how_many_warnings_are_open(run: Cli, workspace: Path) -> None:
    write(workspace, DAY, BROKEN)
    run("index", env=ENV)
    again = run("index", env=ENV)
    assert "0 warnings" in again.stdout  # none new
    assert "6 warnings open" in again.stderr
    assert json.loads(run("index", "--json", env=ENV).stdout)["open_warnings"] == 6


def test_recall_shows_what_its_own_sync_found(run: Cli, workspace: Path) -> None:
    run("index", env=ENV)
    write(workspace, DAY, BROKEN)
    result = run("recall", "Bob", env=ENV)
    assert f"memfold: warning: {DAY}:4: unknown kind 'Q'" in result.stderr
    assert "`memfold status` lists every open warning" in result.stderr
