"""Every positional argument is data: a QUERY, BULLET, TEXT or NAME that begins with a dash
works as typed and after `--`, while the commands' real options keep working; an
interrupted command exits 130, as --help and the README say."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest

from conftest import DAILY, DAY, ROOT, Cli
from memfold import Memory
from memfold.cli.main import cli

NOW = {"MEMFOLD_NOW": f"{DAY}T12:00:00"}


def commands_with_arguments() -> list[tuple[list[str], click.Command]]:
    """Every memfold command that takes a positional argument (bench's benchmarks, which
    take file paths, and arguments that are one of a few names, such as install's HOST,
    aside)."""
    ctx = click.Context(cli)
    found: list[tuple[list[str], click.Command]] = []

    def walk(group: click.Group, prefix: list[str]) -> None:
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            assert command is not None
            if isinstance(command, click.Group):
                if name != "bench":
                    walk(command, [*prefix, name])
            elif any(isinstance(p, click.Argument) and not isinstance(p.type, click.Choice)
                     for p in command.params):
                found.append(([*prefix, name], command))

    walk(cli, [])
    return found


def dashed_values(command: click.Command) -> tuple[list[str], list[str], dict[str, object]]:
    """The options `command` requires, command-line tokens for each of its arguments, every
    one beginning with a dash, and the values the command should receive."""
    options = [token for p in command.params if isinstance(p, click.Option) and p.required
               for token in (p.opts[0], "0")]
    tokens: list[str] = []
    expected: dict[str, object] = {}
    for n, param in enumerate(p for p in command.params if isinstance(p, click.Argument)):
        assert param.name is not None
        if isinstance(param.type, click.types.IntParamType):
            tokens.append("-1")
            expected[param.name] = -1
        elif param.nargs == -1:
            tokens += [f"-a{n}", f"- b{n} -h"]
            expected[param.name] = (f"-a{n}", f"- b{n} -h")
        else:
            tokens.append(f"-the value {n}")
            expected[param.name] = f"-the value {n}"
    return options, tokens, expected


@pytest.mark.parametrize("path,command", commands_with_arguments(),
                         ids=[" ".join(p) for p, _ in commands_with_arguments()])
def test_every_argument_that_begins_with_a_dash_is_data(path: list[str],
                                                        command: click.Command) -> None:
    options, tokens, expected = dashed_values(command)
    # cli's own settings: a command caches its help option as the first context names it
    parent = click.Context(cli, info_name="memfold", **cli.context_settings)
    for args in ([*options, *tokens], [*tokens, *options], [*options, "--", *tokens]):
        with command.make_context(path[-1], list(args), parent=parent) as ctx:
            assert {k: ctx.params[k] for k in expected} == expected, args


def test_recall_a_query_that_begins_with_a_dash(run: Cli) -> None:
    # (and the commands tested above are all there are that take text)
    names = {" ".join(path) for path, _ in commands_with_arguments()}
    assert {"recall", "retain", "note", "about", "core append", "core replace",
            "core insert", "show", "history"} <= names
    assert run("retain", "W @Peter: Uses x-ray vision.", env=NOW).exit_code == 0
    for args in (["-x"], ["--", "-x"], ["-x", "--k", "5"], ["--k=5", "-x"],
                 ["-x", "--json"], ["-the x"], ["-x", "--all"]):
        result = run("recall", "--json", *args, env=NOW)
        assert result.exit_code == 0, (args, result.stderr)
        data = json.loads(result.stdout)
        assert data["query"] in ("-x", "-the x")
        assert "Uses x-ray vision." in [r["content"] for r in data["results"]]
    assert run("recall", "-x", env=NOW).stdout.count("x-ray") == 1


def test_real_options_still_work(run: Cli) -> None:
    for flag in ("-h", "--help"):
        result = run("recall", flag)
        assert result.exit_code == 0 and result.stdout.startswith("Usage: ")
        assert "recall [OPTIONS] QUERY" in result.stdout
    result = run("recall", "-x", "--k", "nope")
    assert result.exit_code == 2 and "'nope' is not a valid integer" in result.stderr
    result = run("recall", "-x", "--k")
    assert result.exit_code == 2 and "Option '--k' requires an argument" in result.stderr
    # data that is exactly an option name needs `--`
    assert json.loads(run("recall", "--json", "--", "--json").stdout)["query"] == "--json"
    assert run("recall", "-x", "surplus").exit_code == 2


def test_retain_a_bullet_that_begins_with_a_dash(run: Cli, workspace: Path) -> None:
    result = run("retain", "--date", DAY, "- W @Peter: Lives in Vienna.", env=NOW)
    assert result.exit_code == 0, result.stderr
    result = run("retain", "--date", DAY, "--", "- O(c=0.9) @Peter: Prefers tea.", env=NOW)
    assert result.exit_code == 0, result.stderr
    text = (workspace / DAILY).read_text()
    assert "- W @Peter: Lives in Vienna." in text
    assert "- O(c=0.9) @Peter: Prefers tea." in text


def test_note_about_and_core_take_text_that_begins_with_a_dash(run: Cli,
                                                               workspace: Path) -> None:
    with Memory.open(workspace, now=f"{DAY}T12:00:00") as memory:
        fact = memory.retain(["W @Peter: Lives in Vienna."], date=DAY).facts[0]
    assert run("note", fact.id, "--rev", "0", "-confirmed by phone").exit_code == 0
    assert run("note", fact.id, "--rev", "1", "--", "--json").exit_code == 0
    notes = [e.data.get("note") for e in Memory.open(workspace).history(fact.id)]
    assert "-confirmed by phone" in notes and "--json" in notes
    result = run("about", "-Nobody")
    assert result.exit_code == 0 and "no memory of '-Nobody' yet" in result.stderr
    for args in (["core", "append", "Human", "- likes green tea"],
                 ["core", "append", "Human", "--", "-x"],
                 ["core", "replace", "Human", "- likes", "-loves"],
                 ["core", "insert", "Human", "-1", "-last line"]):
        result = run(*args)
        assert result.exit_code == 0, (args, result.stderr)
    with Memory.open(workspace) as memory:
        [human] = [b for b in memory.core().blocks if b.name == "Human"]
    assert human.text.split("\n")[-3:] == ["-loves green tea", "-x", "-last line"]


def test_an_interrupted_command_exits_130_as_documented(run: Cli,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(self: Memory) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(Memory, "status", interrupted)
    result = run("status")
    assert result.exit_code == 130
    assert result.stderr == "memfold: interrupted\n"
    assert "130 interrupted" in run("--help").stdout
    assert "130 interrupted" in " ".join((ROOT / "README.md").read_text().split())
