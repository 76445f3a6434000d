"""Each host's configuration: which files memfold adds itself to, what it writes there, and
how it takes that out again.

- Claude Code: a plugin (manifest, `.mcp.json`, `hooks/hooks.json`) in a local marketplace
  that memfold owns (`~/.memfold/claude-code`), registered and enabled in
  `~/.claude/settings.json` (`extraKnownMarketplaces.memfold`, `enabledPlugins."memfold@memfold"`).
- Codex CLI: `[mcp_servers.memfold]` in `$CODEX_HOME/config.toml` (default `~/.codex`) and a
  section between markers in `$CODEX_HOME/AGENTS.md`.
- Claude Desktop: `mcpServers.memfold` in `claude_desktop_config.json` (its per-OS place, or
  the file given).
- Cursor: `mcpServers.memfold` in `~/.cursor/mcp.json`.

In a file memfold does not own, an entry that is there and differs from what memfold writes
(edited by hand, or written for another workspace) is refused: install and uninstall name the
file and change nothing.  Missing files are created, and removed again by an uninstall that
leaves them as memfold found them (no file).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memfold.errors import BadInput
from memfold.hosts import jsonedit, plugin, textedit
from memfold.hosts.changes import DELETE, Change, edit, read
from memfold.hosts.setup import SERVER, Setup

_MISSING = object()


# -- JSON files with an mcpServers object (Claude Desktop, Cursor) --------------------------


def _lookup(root: dict[str, Any], path: tuple[str, ...], where: str) -> Any:
    node: Any = root
    for depth, name in enumerate(path):
        if not isinstance(node, dict):
            raise BadInput(f"{where}: {'.'.join(path[:depth])} is not a JSON object")
        node = node.get(name, _MISSING)
        if node is _MISSING:
            return _MISSING
    return node


def _differs(where: str, dotted: str) -> BadInput:
    return BadInput(f"{where}: {dotted} differs from what memfold writes (edited by hand, or "
                    "installed with another --workspace: uninstall with that one first)")


def json_install(path: Path, entries: dict[tuple[str, ...], Any]) -> list[Change]:
    """Add each entry (its path of keys: its value) that is not in the JSON file yet."""
    before = read(path)
    text = "{}\n" if before is None else before
    root = jsonedit.parse(text, str(path))
    added = []
    for keys, value in entries.items():
        found = _lookup(root, keys, str(path))
        if found is _MISSING:
            text = jsonedit.add(text, keys, value)
            added.append(".".join(keys))
        elif found != value:
            raise _differs(str(path), ".".join(keys))
    return edit(path, before, text, "added " + ", ".join(added))


def json_uninstall(path: Path, entries: dict[tuple[str, ...], Any]) -> list[Change]:
    """Take out each entry that is in the JSON file as memfold writes it."""
    text = read(path)
    if text is None:
        return []
    before, root = text, jsonedit.parse(text, str(path))
    removed = []
    for keys, value in entries.items():
        found = _lookup(root, keys, str(path))
        if found is _MISSING:
            continue
        if found != value:
            raise _differs(str(path), ".".join(keys))
        text = jsonedit.remove(text, keys)
        removed.append(".".join(keys))
    if not removed:
        return []
    what = "removed " + ", ".join(removed)
    if text == "{}\n":  # what install created from no file
        return [Change(path, DELETE, what + " (the file memfold created)")]
    return edit(path, before, text, what)


def _servers(setup: Setup) -> dict[tuple[str, ...], Any]:
    return {("mcpServers", SERVER): setup.server()}


def desktop_config(setup: Setup) -> Path:
    """Claude Desktop's configuration file on this OS (or the one given)."""
    if setup.config is not None:
        return setup.config
    if sys.platform == "darwin":
        base = setup.home / "Library" / "Application Support"
    elif sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or setup.home / "AppData" / "Roaming")
    else:
        base = setup.home / ".config"
    return base / "Claude" / "claude_desktop_config.json"


# -- Codex CLI -------------------------------------------------------------------------------

AGENTS_START, AGENTS_END = "<!-- memfold-agents:start -->", "<!-- memfold-agents:end -->"
AGENTS_SECTION = f"""{AGENTS_START}
## Memory (memfold)

You have long-term memory through the `memfold` MCP server.  At the start of a task call
`context`; before answering about the user, their people, projects or earlier decisions,
call `recall` and cite the ids it returns; when you learn a durable fact or preference, call
`retain` with a typed bullet (`W @Entity: ...`, `O(c=0.8) @Entity: ...`).
{AGENTS_END}
"""


def codex_home(setup: Setup) -> Path:
    given = os.environ.get("CODEX_HOME")
    return Path(given) if given else setup.home / ".codex"


def _codex_table(setup: Setup) -> str:
    return textedit.toml_table(f"mcp_servers.{SERVER}", setup.server())


def codex_install(setup: Setup) -> list[Change]:
    path = codex_home(setup) / "config.toml"
    before = read(path)
    text = before or ""
    if before is not None:
        found = textedit.parse_toml(before, str(path)).get("mcp_servers", {})
        if not isinstance(found, dict):
            raise BadInput(f"{path}: mcp_servers is not a table")
        if SERVER in found and found[SERVER] != setup.server():
            raise _differs(str(path), f"[mcp_servers.{SERVER}]")
        if SERVER in found:
            return _agents_install(setup)
    text = textedit.append(text, _codex_table(setup))
    if textedit.parse_toml(text, str(path)).get("mcp_servers", {}).get(SERVER) \
            != setup.server():  # e.g. mcp_servers written as an inline table
        raise BadInput(f"{path}: cannot add [mcp_servers.{SERVER}] to its mcp_servers; "
                       "add the table by hand (docs/hosts.md)")
    return [*edit(path, before, text, f"added [mcp_servers.{SERVER}]"),
            *_agents_install(setup)]


def codex_uninstall(setup: Setup) -> list[Change]:
    path = codex_home(setup) / "config.toml"
    before = read(path)
    changes = []
    if before is not None:
        found = textedit.parse_toml(before, str(path)).get("mcp_servers", {})
        if isinstance(found, dict) and SERVER in found:
            table = _codex_table(setup)
            if found[SERVER] != setup.server() or table not in before:
                raise _differs(str(path), f"[mcp_servers.{SERVER}]")
            text = textedit.cut(before, table)
            what = f"removed [mcp_servers.{SERVER}]"
            changes = [Change(path, DELETE, what + " (the file memfold created)")] \
                if not text else edit(path, before, text, what)
    return changes + _agents_uninstall(setup)


def _agents_install(setup: Setup) -> list[Change]:
    path = codex_home(setup) / "AGENTS.md"
    raw = read(path)
    before = raw or ""
    found = textedit.between(before, AGENTS_START, AGENTS_END, str(path))
    if found is not None and found != AGENTS_SECTION:
        raise _differs(str(path), "the memfold section")
    if found is not None:
        return []
    return edit(path, raw, textedit.append(before, AGENTS_SECTION),
                "added the memfold section (between its markers)")


def _agents_uninstall(setup: Setup) -> list[Change]:
    path = codex_home(setup) / "AGENTS.md"
    before = read(path)
    found = None if before is None else \
        textedit.between(before, AGENTS_START, AGENTS_END, str(path))
    if before is None or found is None:
        return []
    if found != AGENTS_SECTION:
        raise _differs(str(path), "the memfold section")
    text = textedit.cut(before, AGENTS_SECTION)
    what = "removed the memfold section"
    if not text:
        return [Change(path, DELETE, what + " (the file memfold created)")]
    return edit(path, before, text, what)


# -- the hosts --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Host:
    name: str
    install: Callable[[Setup], list[Change]]
    uninstall: Callable[[Setup], list[Change]]


def _json_host(name: str, where: Callable[[Setup], Path]) -> Host:
    return Host(name,
                lambda s: json_install(where(s), _servers(s)),
                lambda s: json_uninstall(where(s), _servers(s)))


def _claude_settings(setup: Setup) -> dict[tuple[str, ...], Any]:
    return plugin.settings_entries(plugin.marketplace_root(setup.home))


def _claude_code_install(setup: Setup) -> list[Change]:
    path = setup.home / ".claude" / "settings.json"
    return [*plugin.install_files(setup), *json_install(path, _claude_settings(setup))]


def _claude_code_uninstall(setup: Setup) -> list[Change]:
    path = setup.home / ".claude" / "settings.json"
    return [*json_uninstall(path, _claude_settings(setup)), *plugin.uninstall_files(setup)]


HOSTS: dict[str, Host] = {h.name: h for h in (
    Host("claude-code", _claude_code_install, _claude_code_uninstall),
    Host("codex", codex_install, codex_uninstall),
    _json_host("claude-desktop", desktop_config),
    _json_host("cursor", lambda s: s.home / ".cursor" / "mcp.json"),
)}
