"""`memfold install HOST`, `memfold uninstall HOST` and `memfold hook EVENT`: memfold in the
agent hosts (registered by `memfold.cli.main`).  Thin: the library is `memfold.hosts`.

install and uninstall print each file they change and what they add or take out (`--json`:
the same as a list); a refusal is one line and exit status 2 with nothing changed.  The hooks
always exit 0 (Claude Code's hooks must never block a session), printing the host's JSON or
nothing.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from memfold.cli.common import emit_json

if TYPE_CHECKING:
    from memfold.hosts import Change, Setup

HOST_NAMES = ("claude-code", "codex", "claude-desktop", "cursor")
HOOK_VERBS = ("session-start", "prompt", "pre-compact", "session-end")
_HOME = click.option("--home", metavar="DIR", type=click.Path(file_okay=False),
                     help="The home directory whose configuration to change. [default: ~]")
_DRY = click.option("--dry-run", is_flag=True, help="Print what would change; change nothing.")
_CONFIG = click.option("--config", "config_file", metavar="PATH",
                       type=click.Path(dir_okay=False),
                       help="claude-desktop: its configuration file, in place of the usual "
                            "one for this OS.")
_JSON = click.option("--json", "as_json", is_flag=True, help="Print the changes as JSON.")
_HOST = click.argument("host", type=click.Choice(HOST_NAMES))
_EPILOG = ("Writes only memfold's own entries; refuses (exit 2, nothing changed) a host file "
           "that is empty, not valid JSON/TOML, or holds a memfold entry edited by hand.  "
           "See docs/hosts.md.")


def memfold_command() -> str:
    """The memfold executable hosts should run: this one (when run as `memfold`), else the
    one on PATH, as an absolute path (a host started from a desktop has a PATH of its own)."""
    script = Path(sys.argv[0])
    if script.name == "memfold" and script.is_file():
        return os.path.realpath(script)
    found = shutil.which("memfold")
    return os.path.realpath(found) if found else "memfold"


def _path(given: str | None) -> Path | None:
    return Path(given).expanduser().resolve() if given else None


def _setup(ctx: click.Context, home: str | None, config_file: str | None) -> Setup:
    from memfold.hosts import Setup

    workspace = _path(ctx.find_root().obj.get("workspace"))
    return Setup(home=_path(home) or Path.home(), command=memfold_command(),
                 workspace=str(workspace) if workspace else None, config=_path(config_file))


def _report(host: str, changes: list[Change], *, dry_run: bool, as_json: bool) -> None:
    if as_json:
        emit_json({"host": host, "dry_run": dry_run,
                   "changes": [c.to_dict() for c in changes]})
        return
    if not changes:
        click.echo(f"{host}: nothing to change")
    for change in changes:
        click.echo(change.describe(dry_run=dry_run))


@click.command(epilog=_EPILOG)
@_HOST
@_DRY
@_HOME
@_CONFIG
@_JSON
@click.pass_context
def install(ctx: click.Context, host: str, dry_run: bool, home: str | None,
            config_file: str | None, as_json: bool) -> None:
    """Add memfold to an agent host's configuration: claude-code (a plugin: MCP server and
    hooks), codex (an MCP server and an AGENTS.md section), claude-desktop or cursor (an MCP
    server).  Idempotent: a second run changes nothing.  The host runs `memfold mcp` on the
    workspace given with --workspace (else memfold's default).

    \b
    Examples:
      memfold --workspace ~/notes/agent install claude-code
      memfold install codex --dry-run
      memfold install claude-desktop --config ~/claude_desktop_config.json
    """
    from memfold import hosts

    changes = hosts.install(host, _setup(ctx, home, config_file), dry_run=dry_run)
    _report(host, changes, dry_run=dry_run, as_json=as_json)


@click.command(epilog=_EPILOG)
@_HOST
@_DRY
@_HOME
@_CONFIG
@_JSON
@click.pass_context
def uninstall(ctx: click.Context, host: str, dry_run: bool, home: str | None,
              config_file: str | None, as_json: bool) -> None:
    """Take memfold out of an agent host's configuration: exactly what `memfold install`
    wrote, nothing else (files it created and left as it found them are deleted).

    \b
    Examples:
      memfold uninstall cursor
      memfold uninstall claude-code --dry-run
    """
    from memfold import hosts

    changes = hosts.uninstall(host, _setup(ctx, home, config_file), dry_run=dry_run)
    _report(host, changes, dry_run=dry_run, as_json=as_json)


@click.command("hook")
@click.argument("verb", type=click.Choice(HOOK_VERBS))
@click.pass_context
def hook(ctx: click.Context, verb: str) -> None:
    """Run one of Claude Code's hooks on its hook JSON (stdin): session-start (the session
    context), prompt (recall for the prompt), pre-compact and session-end (capture the
    transcript into the day's log).  Prints Claude Code's hook JSON or nothing; always exits
    0 and logs errors to .memory/hooks.log.  Installed by `memfold install claude-code`.

    \b
    Example:
      echo '{"hook_event_name": "UserPromptSubmit", "prompt": "where does Dana live"}' \\
        | memfold hook prompt
    """
    from memfold.hosts import hooks

    obj = ctx.find_root().obj
    out = hooks.run(verb, sys.stdin.buffer.read(), workspace=obj.get("workspace"),
                    now=obj.get("as_of"), stderr=sys.stderr)
    if out:
        click.echo(out)


COMMANDS = (install, uninstall, hook)
