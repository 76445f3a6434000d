"""memfold's Claude Code plugin: the files of a one-plugin local marketplace in
`~/.memfold/claude-code`, which memfold owns and writes whole, and the two settings that make
Claude Code load it.

    ~/.memfold/claude-code/.claude-plugin/marketplace.json   the marketplace (`memfold`)
    ~/.memfold/claude-code/memfold/.claude-plugin/plugin.json the plugin manifest
    ~/.memfold/claude-code/memfold/.mcp.json                  `memfold mcp` as an MCP server
    ~/.memfold/claude-code/memfold/hooks/hooks.json           the four hooks (`memfold hook ...`)

The hooks: SessionStart runs `memfold hook session-start` (the session context), UserPromptSubmit
`memfold hook prompt` (a budgeted recall), PreCompact and SessionEnd `memfold hook pre-compact`
and `session-end` (the transcript captured into the day's log).  Their timeouts are in
seconds, as Claude Code reads them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memfold import __version__
from memfold.hosts.changes import DELETE, Change, edit, read
from memfold.hosts.setup import Setup

NAME = "memfold"
DESCRIPTION = ("Long-term memory from a memfold workspace: the session's context at start, "
               "cited recall for each prompt, the transcript kept in the day's log.")

# event: (memfold hook verb, timeout in seconds, matcher or None)
HOOKS = {
    "SessionStart": ("session-start", 15, "startup|resume|clear|compact"),
    "UserPromptSubmit": ("prompt", 10, None),
    "PreCompact": ("pre-compact", 60, None),
    "SessionEnd": ("session-end", 60, None),
}


def marketplace_root(home: Path) -> Path:
    return home / ".memfold" / "claude-code"


def settings_entries(root: Path) -> dict[tuple[str, ...], Any]:
    """What `~/.claude/settings.json` gets: the marketplace, and the plugin enabled."""
    return {("extraKnownMarketplaces", NAME): {"source": {"source": "directory",
                                                          "path": str(root)}},
            ("enabledPlugins", f"{NAME}@{NAME}"): True}


def _hooks(setup: Setup) -> dict[str, Any]:
    events: dict[str, Any] = {}
    for event, (verb, timeout, matcher) in HOOKS.items():
        group: dict[str, Any] = {"matcher": matcher} if matcher else {}
        group["hooks"] = [{"type": "command", "command": setup.shell("hook", verb),
                           "timeout": timeout}]
        events[event] = [group]
    return {"description": "memfold: context at session start, recall per prompt, the "
                           "transcript captured before compaction and at the end",
            "hooks": events}


def files(setup: Setup) -> dict[Path, Any]:
    """Each file of the marketplace and the plugin, with its JSON content."""
    root = marketplace_root(setup.home)
    about = {"name": NAME, "version": __version__, "description": DESCRIPTION}
    return {
        root / ".claude-plugin" / "marketplace.json": {
            "name": NAME, "owner": {"name": "memfold"},
            "plugins": [{**about, "source": f"./{NAME}"}]},
        root / NAME / ".claude-plugin" / "plugin.json": {**about, "author": {"name": "memfold"}},
        root / NAME / ".mcp.json": {"mcpServers": {NAME: setup.server()}},
        root / NAME / "hooks" / "hooks.json": _hooks(setup),
    }


def install_files(setup: Setup) -> list[Change]:
    """Write the plugin's files (memfold's own: rewritten when they differ)."""
    changes = []
    for path, content in files(setup).items():
        text = json.dumps(content, indent=2) + "\n"
        changes += edit(path, read(path), text, "memfold's Claude Code plugin file")
    return changes


def uninstall_files(setup: Setup) -> list[Change]:
    """Delete the plugin's files (and the directories they leave empty)."""
    return [Change(path, DELETE, "memfold's Claude Code plugin file")
            for path in files(setup) if path.exists()]
