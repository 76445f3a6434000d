"""Positional arguments are data: how `memfold` commands read a QUERY, BULLET or TEXT that
begins with a dash.

Click takes every token that begins with `-` for an option, so `memfold recall "-x"` and
`memfold retain "- W @Peter: ..."` would fail with "No such option", and a token such as
"-the plan" could even be read as the cluster `-t -h -e ...` and print the help.  A
`DataCommand` reads its arguments first: a token that is exactly one of the command's own
option names (`--k`, `--json`, `-h`), or `--name=value` for one that takes a value, is an
option (with the values it takes); every other token is data.  When some data begins with a
dash, the tokens are handed to Click as the options followed by `--` and the data, in their
original order; otherwise they are handed over untouched, so a command without such data
parses exactly as Click alone would.  Data that is exactly an option name (`--json`) still
needs `--` before it, as does anything after a `--` the user typed.
"""

from __future__ import annotations

import click

DASH_NOTE = ("An argument that begins with a dash is text, as typed (memfold recall -x); put "
             "-- before one that is exactly an option name (memfold recall -- --json).")


def _values_taken(params: list[click.Parameter]) -> dict[str, int]:
    """Each option name of a command and how many value tokens it takes after it."""
    taken: dict[str, int] = {}
    for param in params:
        if isinstance(param, click.Option):
            count = 0 if param.is_flag or param.count else max(param.nargs, 1)
            taken.update((name, count) for name in param.opts)
            taken.update((name, 0) for name in param.secondary_opts)
    return taken


def data_after_options(args: list[str], params: list[click.Parameter],
                       ctx: click.Context | None = None) -> list[str]:
    """`args` with every token that is not one of these options (or an option's value)
    moved after a `--`, in order; `args` itself when no such token begins with a dash."""
    taken = _values_taken(params)
    options: list[str] = []
    data: list[str] = []
    dashed = False
    at = 0
    while at < len(args):
        token = args[at]
        at += 1
        if token == "--":
            data.extend(args[at:])
            break
        name, eq, _ = token.partition("=") if token.startswith("--") else (token, "", "")
        if name not in taken:
            dashed = dashed or (token.startswith("-") and token != "-")
            data.append(token)
            continue
        options.append(token)
        wanted = 0 if eq else taken[name]
        if at + wanted > len(args):
            # Click would read the `--` we add as this option's value; say what it says
            raise click.BadOptionUsage(name, f"Option '{name}' requires an argument.", ctx)
        options.extend(args[at:at + wanted])
        at += wanted
    return [*options, "--", *data] if dashed else args


class DataCommand(click.Command):
    """A command whose positional arguments are data even when they begin with a dash."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if any(isinstance(p, click.Argument) for p in self.params):
            args = data_after_options(args, self.get_params(ctx), ctx)
        return super().parse_args(ctx, args)


class DataGroup(click.Group):
    """A group whose commands (`@group.command()`) are DataCommands."""

    command_class = DataCommand


GLOBAL_NOTE = ("Global options (--workspace/-w, --as-of, --server, --bank) may come before or "
               "after the command: memfold recall \"where is Peter\" --as-of 2025-12-01.")


def _subtree_options(command: click.Command) -> set[str]:
    """Every option name of a command and, for a group, of the commands below it."""
    names = set(_values_taken(command.params))
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            names |= _subtree_options(sub)
    return names


def _verb_at(args: list[str], taken: dict[str, int]) -> int | None:
    """Where the command name is in `args` (after the group's own options and any
    `--json`), or None."""
    at = 0
    while at < len(args):
        token = args[at]
        name = token.partition("=")[0] if token.startswith("--") else token
        if name == "--json":
            at += 1
        elif name in taken:
            at += 1 + (0 if "=" in token else taken[name])
        else:
            return None if token.startswith("-") else at
    return None


def hoist_globals(group: click.Group, args: list[str]) -> list[str]:
    """`args` with the group's options given after the command moved before it, and a
    `--json` given before the command moved after it — so global options work on either
    side of the verb.  An option the command (or a command below it) has of its own, and
    anything after a `--`, stay where they are."""
    taken = _values_taken(group.params)
    at = _verb_at(args, taken)
    if at is None:
        return args
    command = group.commands.get(args[at])
    if command is None:
        return args
    before = [t for t in args[:at] if t != "--json"]
    moved_json = ["--json"] if len(before) < at else []
    own = _subtree_options(command)
    hoisted: list[str] = []
    rest: list[str] = []
    i = at + 1
    while i < len(args):
        token = args[i]
        if token == "--":
            rest.extend(args[i:])
            break
        name = token.partition("=")[0] if token.startswith("--") else token
        if name in taken and name not in own:
            width = 1 if "=" in token else 1 + taken[name]
            hoisted.extend(args[i:i + width])
            i += width
            continue
        rest.append(token)
        i += 1
    return [*before, *hoisted, args[at], *moved_json, *rest]
