"""memfold in the agent hosts people use: `install` and `uninstall` write and take back each
host's configuration (`targets`: Claude Code's plugin, Codex CLI, Claude Desktop, Cursor), and
`hooks` runs Claude Code's hooks.  An adapter over the facade, like the command line: the
`memfold install|uninstall|hook` commands (`memfold.cli.hosts`) only parse and print.

Both verbs plan every change before writing any, so a refusal (a host file that is empty, not
JSON or TOML, or holds a memfold entry that memfold did not write) changes nothing, and both
are idempotent: a second run plans no change.
"""

from __future__ import annotations

from memfold.errors import BadInput
from memfold.hosts.changes import Change, apply
from memfold.hosts.setup import Setup
from memfold.hosts.targets import HOSTS

__all__ = ["HOSTS", "Change", "Setup", "install", "uninstall"]


def _host(name: str) -> str:
    if name not in HOSTS:
        raise BadInput(f"unknown host {name!r}: choose one of {', '.join(HOSTS)}")
    return name


def install(host: str, setup: Setup, *, dry_run: bool = False) -> list[Change]:
    """Add memfold to `host`'s configuration; the changes made (planned, with `dry_run`)."""
    changes = HOSTS[_host(host)].install(setup)
    if not dry_run:
        apply(changes, home=setup.home)
    return changes


def uninstall(host: str, setup: Setup, *, dry_run: bool = False) -> list[Change]:
    """Take out of `host`'s configuration exactly what `install` added."""
    changes = HOSTS[_host(host)].uninstall(setup)
    if not dry_run:
        apply(changes, home=setup.home)
    return changes
