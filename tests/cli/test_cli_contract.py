"""The CLI contract a newcomer relies on: global options on either side of the verb, --json on
every verb, notes that keep their history, no silent far-future --date, symbol queries, and
one status and decay for a fact at one moment whichever command reports it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import Cli

NOW = {"MEMFOLD_NOW": "2025-06-01T12:00:00"}


def ids_of(result_stdout: str) -> list[str]:
    return [line.split("\t")[0] for line in result_stdout.splitlines()]


def retained(run: Cli, *bullets: str, day: str = "2025-05-30") -> list[str]:
    result = run("retain", "--date", day, *bullets, env=NOW)
    assert result.exit_code == 0, result.stderr
    return ids_of(result.stdout)


# -- global options before or after the verb ------------------------------------------------


def test_as_of_workspace_and_json_work_after_or_before_the_verb(
        workspace: Path, tmp_path: Path) -> None:
    run = Cli(tmp_path)  # MEMFOLD_WORKSPACE points elsewhere: -w must choose
    assert Cli(workspace)("retain", "--date", "2025-05-30", "W @Ann: Ann plays the oboe.",
                          env=NOW).exit_code == 0
    after = run("recall", "oboe", "--as-of", "2025-06-01", "-w", str(workspace), "--json")
    assert after.exit_code == 0, after.output
    before = run("-w", str(workspace), "--as-of", "2025-06-01", "recall", "oboe", "--json")
    assert json.loads(after.stdout)["results"] == json.loads(before.stdout)["results"] != []
    assert json.loads(after.stdout)["as_of"] == "2025-06-01T00:00:00+00:00"
    json_first = run("--json", "-w", str(workspace), "status")
    assert json.loads(json_first.stdout)["workspace"] == str(workspace)
    assert "--as-of" in run("recall", "--help").stdout
    # anything after `--` is data, as typed
    data = run("-w", str(workspace), "recall", "--", "--as-of", env=NOW)
    assert data.exit_code == 0


# -- every verb has --json ------------------------------------------------------------------


def test_use_supersede_and_restore_print_json(run: Cli) -> None:
    old, new = retained(run, "W @Ann: Ann lives in Rome.", "W @Bo: Bo lives in Oslo.")
    used = run("use", old, new, "--json", env=NOW)
    assert json.loads(used.stdout) == {"used": [old, new]}
    superseded = run("supersede", old, new, "--json", env=NOW)
    assert json.loads(superseded.stdout) == {"id": old, "by": new, "changed": True}
    again = run("supersede", old, new, "--json", env=NOW)
    assert json.loads(again.stdout)["changed"] is False
    restored = run("restore", old, "--json", env=NOW)
    assert json.loads(restored.stdout) == {"id": old, "restored": True}


# -- notes keep their history, and are never empty ------------------------------------------


def test_a_second_note_keeps_the_first_in_history(run: Cli) -> None:
    [fact] = retained(run, "W @Ann: Ann plays the oboe.")
    assert run("note", fact, "--rev", "0", "first: heard at the concert", env=NOW).exit_code == 0
    second = run("note", fact, "--rev", "1", "second: she teaches it too", env=NOW)
    assert "the 1 earlier notes are kept" in second.stdout
    shown = json.loads(run("show", fact, "--json", env=NOW).stdout)
    assert shown["note"] == "second: she teaches it too" and shown["rev"] == 2
    events = json.loads(run("history", fact, "--json", env=NOW).stdout)["events"]
    assert [e["note"] for e in events if e["event"] == "note"] == [
        "first: heard at the concert", "second: she teaches it too"]
    third = run("note", fact, "--rev", "2", "third", "--json", env=NOW)
    assert json.loads(third.stdout)["notes"] == 3


@pytest.mark.parametrize("text", ["", "   ", "\n"])
def test_an_empty_note_is_refused(run: Cli, text: str) -> None:
    [fact] = retained(run, "W @Ann: Ann plays the oboe.")
    result = run("note", fact, "--rev", "0", text, env=NOW)
    assert result.exit_code == 2 and "a note needs text" in result.stderr
    assert json.loads(run("show", fact, "--json", env=NOW).stdout)["rev"] == 0


# -- a far-future --date ---------------------------------------------------------------------


def test_a_date_more_than_a_day_ahead_needs_future(run: Cli, workspace: Path) -> None:
    tomorrow = run("retain", "--date", "2025-06-02", "W @Ann: Ann flies home.", env=NOW)
    assert tomorrow.exit_code == 0
    typo = run("retain", "--date", "2052-06-01", "W @Ann: Ann flies home.", env=NOW)
    assert typo.exit_code == 2 and "more than a day after today (2025-06-01)" in typo.stderr
    assert "--future" in typo.stderr and not (workspace / "memory/2052-06-01.md").exists()
    meant = run("retain", "--date", "2025-07-01", "--future", "W @Ann: Ann flies home.",
                env=NOW)
    assert meant.exit_code == 0 and (workspace / "memory/2025-07-01.md").exists()


# -- symbols in a query ---------------------------------------------------------------------


@pytest.mark.parametrize("query", ["🚀", "★", "€", "which channel uses 🚀?"])
def test_a_symbol_query_finds_the_facts_holding_it(run: Cli, query: str) -> None:
    rocket, star = retained(run, "W @Team: The deploy channel uses 🚀 for releases.",
                            "W @Shop: The mug costs 5€ and has a ★ rating.")
    result = run("recall", query, "--json", env=NOW)
    found = [h["id"] for h in json.loads(result.stdout)["results"]]
    assert found[:1] == ([rocket] if "🚀" in query else [star])


# -- one status and decay at one moment -----------------------------------------------------


def test_show_trace_and_recall_agree_on_status_and_decay(run: Cli) -> None:
    [fact] = retained(run, "O @Bun: Investigating Bun.js for the build.", day="2024-01-10")
    later = {"MEMFOLD_NOW": "2025-06-01T12:00:00"}
    [hit] = json.loads(run("recall", "Bun", "--json", "--all", env=later).stdout)["results"]
    traced = json.loads(run("trace", fact, "--json", env=later).stdout)["fact"]
    shown = json.loads(run("show", fact, "--json", env=later).stdout)
    assert hit["status"] == "archived"
    assert (traced["status"], traced["decay"]) == (hit["status"], hit["decay"])
    assert (shown["status"], shown["decay"]) == (hit["status"], hit["decay"])
    # the show was a use: from now on every command reports the fact fresh
    after = json.loads(run("show", fact, "--json", env=later).stdout)
    assert (after["status"], after["decay"]) == ("active", 1.0)


def test_every_command_that_answers_has_json() -> None:
    import click

    from memfold.cli.main import cli

    # servers and the MCP tool list (--format) print no single answer; `call` prints JSON
    # only; the benchmarks write theirs as JSON files (benchmarks/results/); a hook prints
    # the JSON its host reads (or nothing)
    exempt = {"mcp", "serve", "ui", "tools", "call", "bench", "hook"}

    def lacking(command: click.Command, path: str) -> list[str]:
        if isinstance(command, click.Group):
            return [m for name, sub in command.commands.items()
                    for m in lacking(sub, f"{path} {name}".strip())]
        names = {o for p in command.params if isinstance(p, click.Option) for o in p.opts}
        return [] if "--json" in names or path.split()[0] in exempt else [path]

    assert lacking(cli, "") == []
