"""`memfold install HOST` and `memfold uninstall HOST` on a scratch home directory: what each
host gets, idempotence, and an uninstall that gives back every file byte for byte (the user's
other servers and comments included); refusals that change nothing."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from memfold.cli.main import cli

HOSTS = ("claude-code", "codex", "claude-desktop", "cursor")


def invoke(*args: str, home: Path, workspace: Path | None = None) -> Result:
    env = {"MEMFOLD_WORKSPACE": str(workspace) if workspace else None, "CODEX_HOME": None,
           "HOME": str(home)}
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def snapshot(home: Path) -> dict[str, bytes | None]:
    """Every file and directory under `home`, with each file's bytes."""
    out: dict[str, bytes | None] = {}
    for path in sorted(home.rglob("*")):
        out[str(path.relative_to(home))] = path.read_bytes() if path.is_file() else None
    return out


def desktop(home: Path) -> Path:
    return home / ".config" / "Claude" / "claude_desktop_config.json"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "home"
    root.mkdir()
    monkeypatch.setenv("HOME", str(root))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.setattr("sys.platform", "linux")  # Claude Desktop's file: the Linux place
    return root


# A user's own configuration, written as people write it: other servers, comments, spacing.
CURSOR = """{
    "mcpServers": {
        "github": {
            "command": "npx",
            "args": ["-y", "@modelcontextprotocol/server-github"]
        }
    },
    "other": true
}
"""
CODEX = """# my Codex settings
model = "gpt-5-codex"   # the default model

[mcp_servers.docs]
command = "npx"
args = ["-y", "mcp-docs"]  # keep this
"""
AGENTS = "# House rules\n\nRun the tests before you commit.\n"
SETTINGS = """{
  "model": "opus",
  "enabledPlugins": {
    "formatter@tools": true
  }
}
"""


def users_files(home: Path) -> None:
    for path, text in ((home / ".cursor" / "mcp.json", CURSOR),
                       (home / ".codex" / "config.toml", CODEX),
                       (home / ".codex" / "AGENTS.md", AGENTS),
                       (desktop(home), CURSOR),
                       (home / ".claude" / "settings.json", SETTINGS)):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.mark.parametrize("host", HOSTS)
@pytest.mark.parametrize("existing", [False, True], ids=["no-files", "users-files"])
def test_install_twice_then_uninstall_gives_the_home_back(home: Path, host: str,
                                                          existing: bool) -> None:
    if existing:
        users_files(home)
    before = snapshot(home)
    first = invoke("install", host, home=home)
    assert first.exit_code == 0, first.output
    assert "created" in first.output or "updated" in first.output
    installed = snapshot(home)
    assert installed != before
    again = invoke("install", host, home=home)
    assert again.output == f"{host}: nothing to change\n"
    assert snapshot(home) == installed
    gone = invoke("uninstall", host, home=home)
    assert gone.exit_code == 0, gone.output
    assert snapshot(home) == before
    assert invoke("uninstall", host, home=home).output == f"{host}: nothing to change\n"


def test_cursor_gets_an_mcp_server_beside_the_users(home: Path, tmp_path: Path) -> None:
    users_files(home)
    result = invoke("install", "cursor", home=home, workspace=tmp_path / "ws")
    assert result.output.startswith(f"updated {home / '.cursor' / 'mcp.json'}: added "
                                    "mcpServers.memfold")
    config = json.loads((home / ".cursor" / "mcp.json").read_text())
    assert list(config["mcpServers"]) == ["github", "memfold"]
    server = config["mcpServers"]["memfold"]
    assert server["args"] == ["--workspace", str((tmp_path / "ws").resolve()), "mcp"]
    assert Path(server["command"]).name == "memfold"
    assert config["other"] is True
    # written in the file's own four-space indentation
    assert '\n        "memfold": {\n            "command": ' in \
        (home / ".cursor" / "mcp.json").read_text()


def test_codex_gets_a_table_and_an_agents_section(home: Path) -> None:
    users_files(home)
    invoke("install", "codex", home=home)
    text = (home / ".codex" / "config.toml").read_text()
    assert text.startswith(CODEX)  # appended: not a byte of the user's file rewritten
    config = tomllib.loads(text)
    assert config["mcp_servers"]["memfold"]["args"] == ["mcp"]
    assert config["mcp_servers"]["docs"]["command"] == "npx"
    agents = (home / ".codex" / "AGENTS.md").read_text()
    assert agents.startswith(AGENTS + "\n<!-- memfold-agents:start -->\n")
    assert agents.endswith("<!-- memfold-agents:end -->\n") and "`recall`" in agents


def test_claude_desktop_honours_config(home: Path, tmp_path: Path) -> None:
    given = tmp_path / "elsewhere" / "claude.json"
    result = invoke("install", "claude-desktop", "--config", str(given), home=home)
    assert result.output == f"created {given}: added mcpServers.memfold\n"
    assert "memfold" in json.loads(given.read_text())["mcpServers"]
    assert not desktop(home).exists()
    invoke("uninstall", "claude-desktop", "--config", str(given), home=home)
    assert not given.exists()


def test_claude_code_writes_a_plugin_and_enables_it(home: Path) -> None:
    users_files(home)
    result = invoke("install", "claude-code", home=home)
    assert result.exit_code == 0, result.output
    root = home / ".memfold" / "claude-code"
    plugin = root / "memfold"
    manifest = json.loads((plugin / ".claude-plugin" / "plugin.json").read_text())
    assert manifest["name"] == "memfold"
    market = json.loads((root / ".claude-plugin" / "marketplace.json").read_text())
    assert market["plugins"][0]["source"] == "./memfold"
    assert "memfold" in json.loads((plugin / ".mcp.json").read_text())["mcpServers"]
    hooks = json.loads((plugin / "hooks" / "hooks.json").read_text())["hooks"]
    assert set(hooks) == {"SessionStart", "UserPromptSubmit", "PreCompact", "SessionEnd"}
    command = hooks["UserPromptSubmit"][0]["hooks"][0]
    assert command["type"] == "command" and command["command"].endswith(" hook prompt")
    settings = json.loads((home / ".claude" / "settings.json").read_text())
    assert settings["enabledPlugins"] == {"formatter@tools": True, "memfold@memfold": True}
    assert settings["extraKnownMarketplaces"]["memfold"] == {
        "source": {"source": "directory", "path": str(root)}}
    assert settings["model"] == "opus"


def test_dry_run_changes_nothing_and_says_what_it_would(home: Path) -> None:
    users_files(home)
    before = snapshot(home)
    result = invoke("install", "codex", "--dry-run", home=home)
    assert result.output.splitlines() == [
        f"would update {home / '.codex' / 'config.toml'}: added [mcp_servers.memfold]",
        f"would update {home / '.codex' / 'AGENTS.md'}: added the memfold section "
        "(between its markers)"]
    assert snapshot(home) == before
    listed = json.loads(invoke("install", "cursor", "--dry-run", "--json", home=home).output)
    assert listed == {"host": "cursor", "dry_run": True, "changes": [
        {"file": str(home / ".cursor" / "mcp.json"), "action": "update",
         "what": "added mcpServers.memfold"}]}


def test_a_symlinked_config_is_changed_where_it_points(home: Path, tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "mcp.json"
    real.parent.mkdir()
    real.write_text(CURSOR)
    real.chmod(0o600)
    (home / ".cursor").mkdir()
    (home / ".cursor" / "mcp.json").symlink_to(real)
    invoke("install", "cursor", home=home)
    assert (home / ".cursor" / "mcp.json").is_symlink()
    assert "memfold" in json.loads(real.read_text())["mcpServers"]
    assert os.stat(real).st_mode & 0o777 == 0o600
    invoke("uninstall", "cursor", home=home)
    assert real.read_text() == CURSOR


BAD = {
    "empty": ("", "the file is empty"),
    "not-json": ('{"mcpServers": {', "not valid JSON"),
    "not-an-object": ("[1, 2]", "the top level is not a JSON object"),
    "servers-not-an-object": ('{"mcpServers": []}', "mcpServers is not a JSON object"),
    "hand-edited": ('{"mcpServers": {"memfold": {"command": "memfold", "args": ["serve"]}}}',
                    "mcpServers.memfold differs from what memfold writes"),
}


@pytest.mark.parametrize("verb", ["install", "uninstall"])
@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_json_config_is_refused_and_left_alone(home: Path, case: str, verb: str) -> None:
    text, problem = BAD[case]
    path = home / ".cursor" / "mcp.json"
    path.parent.mkdir()
    path.write_text(text)
    result = invoke(verb, "cursor", home=home)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.startswith(f"memfold: error: {path}: {problem}")
    assert len(result.stderr.splitlines()) == 1
    assert path.read_text() == text


@pytest.mark.parametrize("text, problem", [
    ("", "the file is empty"),
    ("model = \n", "not valid TOML"),
    ('[mcp_servers.memfold]\ncommand = "memfold"\nargs = ["--debug", "mcp"]\n',
     "[mcp_servers.memfold] differs from what memfold writes"),
])
def test_a_bad_codex_config_is_refused_and_left_alone(home: Path, text: str,
                                                      problem: str) -> None:
    path = home / ".codex" / "config.toml"
    path.parent.mkdir()
    path.write_text(text)
    before = snapshot(home)
    for verb in ("install", "uninstall"):
        result = invoke(verb, "codex", home=home)
        assert result.exit_code == 2 and problem in result.stderr, result.output
        assert snapshot(home) == before


def test_a_hand_edited_agents_section_is_refused(home: Path) -> None:
    invoke("install", "codex", home=home)
    agents = home / ".codex" / "AGENTS.md"
    edited = agents.read_text().replace("`retain`", "`note`")
    assert edited != agents.read_text()
    agents.write_text(edited)
    before = snapshot(home)
    result = invoke("uninstall", "codex", home=home)
    assert result.exit_code == 2 and "the memfold section differs" in result.stderr
    assert snapshot(home) == before  # config.toml kept its table too: nothing half done


def test_another_workspaces_entry_is_refused_not_replaced(home: Path, tmp_path: Path) -> None:
    invoke("install", "cursor", home=home, workspace=tmp_path / "a")
    before = snapshot(home)
    result = invoke("install", "cursor", home=home, workspace=tmp_path / "b")
    assert result.exit_code == 2 and "installed with another --workspace" in result.stderr
    assert snapshot(home) == before


def test_the_cli_names_every_host_and_hook_there_is() -> None:
    """The command line keeps its own lists (the hosts package stays off its start-up path):
    they name exactly the hosts and hooks the package has."""
    from memfold.cli.hosts import HOOK_VERBS, HOST_NAMES
    from memfold.hosts.hooks import EVENTS
    from memfold.hosts.targets import HOSTS

    assert tuple(HOSTS) == HOST_NAMES
    assert tuple(EVENTS) == HOOK_VERBS
