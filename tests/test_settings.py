"""One settings list: every MEMFOLD_* variable is declared in memfold.config.SETTINGS and read
there only; docs/configuration.md is generated from the list; `memfold config` shows the
effective settings and where each came from, secrets masked."""

from __future__ import annotations

import ast
import io
import json
import re
import subprocess
import sys
import tokenize
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from memfold import config
from memfold.cli import warm_socket
from memfold.cli.bench import LazyGroup
from memfold.cli.main import cli
from memfold.cli.settings import markdown_reference
from memfold.lifecycle.judge import JUDGES

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "memfold"
NAME = re.compile(r"\bMEMFOLD_[A-Z0-9_]*[A-Z0-9]\b")
PREFIX = "MEMFOLD" + "_"  # spelled apart so this file names no variable it does not declare
DECLARED = {setting.name for setting in config.SETTINGS}


# -- no module but config reads a MEMFOLD_* variable from the environment --


def _constants(trees: list[ast.Module]) -> dict[str, str]:
    """Module-level `NAME = "MEMFOLD_..."` constants, so `os.environ[ENV]` is seen through."""
    found = {}
    for tree in trees:
        for node in tree.body:
            if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                    and isinstance(node.value.value, str)):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        found[target.id] = node.value.value
    return found


def _key(node: ast.AST, constants: dict[str, str]) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return constants.get(node.id, "")
    if isinstance(node, ast.Attribute):
        return constants.get(node.attr, "")
    return ""


def _read_keys(node: ast.AST, constants: dict[str, str]) -> list[str]:
    """The names `node` reads from an environment: `X.get(K)`, `getenv(K)`, `X[K]` (a read,
    not an assignment) and `K in X`, whatever X is (os.environ, environ, an env mapping)."""
    if isinstance(node, ast.Call):
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if called in ("get", "getenv", "pop", "setdefault", "getenvb") and node.args:
            return [_key(node.args[0], constants)]
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
        return [_key(node.slice, constants)]
    if isinstance(node, ast.Compare) and any(isinstance(op, ast.In | ast.NotIn)
                                             for op in node.ops):
        return [_key(node.left, constants)]
    return []


def environment_reads(files: list[Path], *, allowed: Path) -> list[str]:
    """`file:line NAME` for every read of a MEMFOLD_* variable outside `allowed`."""
    texts = {path: path.read_text(encoding="utf-8") for path in files}
    trees = {path: ast.parse(text) for path, text in texts.items()  # the rest cannot read one
             if PREFIX in text or "environ" in text or "getenv" in text}
    constants = _constants(list(trees.values()))
    found = []
    for path, tree in trees.items():
        if path == allowed:
            continue
        for node in ast.walk(tree):
            for key in _read_keys(node, constants):
                if key.startswith(PREFIX):
                    found.append(f"{path.name}:{getattr(node, 'lineno', 0)} {key}")
    return found


def test_only_config_reads_memfold_variables_from_the_environment() -> None:
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 100
    assert environment_reads(files, allowed=PACKAGE / "config.py") == []


def test_the_scan_finds_a_deliberate_violation(tmp_path: Path) -> None:
    # the line recall/modes.py had before it read through config, put back in a copy
    modes = (PACKAGE / "recall" / "modes.py").read_text(encoding="utf-8")
    assert 'config.given("MEMFOLD_RECALL_MODE")' in modes
    copy = tmp_path / "modes.py"
    copy.write_text(modes.replace('config.given("MEMFOLD_RECALL_MODE")',
                                  'os.environ.get("MEMFOLD_RECALL_MODE")'), encoding="utf-8")
    config_py = tmp_path / "config.py"
    config_py.write_text((PACKAGE / "config.py").read_text(encoding="utf-8"), encoding="utf-8")
    assert environment_reads([config_py], allowed=config_py) == []
    found = environment_reads([copy, config_py], allowed=config_py)
    assert len(found) == 1 and found[0].endswith(" MEMFOLD_RECALL_MODE")


def test_the_scan_knows_every_way_to_read_the_environment(tmp_path: Path) -> None:
    names = [PREFIX + word for word in ("A", "B", "C", "D", "E", "F", "G", "H")]
    source = tmp_path / "reads.py"
    source.write_text("\n".join([
        "import os", "from os import environ, getenv",
        f"ENV = {names[0]!r}",
        "os.environ[ENV]",
        f"os.environ.get({names[1]!r})",
        f"os.getenv({names[2]!r}, 'x')",
        f"getenv({names[3]!r})",
        f"environ[{names[4]!r}]",
        f"{names[5]!r} in os.environ",
        f"def f(env): return env.get({names[6]!r})",
        f"def g(request): return request['env'][{names[7]!r}]",
        f"os.environ[{PREFIX + 'WRITTEN'!r}] = 'a write, not a read'",
        f"child = {{**os.environ, {PREFIX + 'WRITTEN'!r}: 'on'}}",
    ]), encoding="utf-8")
    found = environment_reads([source], allowed=tmp_path / "config.py")
    assert sorted(line.split()[1] for line in found) == names


# -- every MEMFOLD_* name the source, the tests or the docs mention is declared --


def _python_mentions(path: Path) -> set[str]:
    """Names in the strings and comments of a Python file (an identifier, such as the name
    memfold_bench.processes gives its setup script, is code, not a variable)."""
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    return {name for token in tokens if token.type in (tokenize.STRING, tokenize.COMMENT)
            for name in NAME.findall(token.string)}


def mentions(paths: list[Path]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in paths:
        text = path.read_text(encoding="utf-8")
        if PREFIX not in text:
            continue
        names = _python_mentions(path) if path.suffix == ".py" else set(NAME.findall(text))
        for name in names:
            found.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    return found


def _mentioning_files() -> list[Path]:
    folders = ["src", "tests", "docs", "deploy", "examples", "benchmarks", "tools"]
    suffixes = {".py", ".md", ".html", ".sh", ".yaml", ".yml", ".toml", ".service", ".txt"}
    files = [path for folder in folders for path in (ROOT / folder).rglob("*")
             if path.is_file() and (path.suffix in suffixes or path.name.endswith(".env"))
             and "__pycache__" not in path.parts]
    top = ["README.md", "CHANGELOG.md", "CONTRIBUTING.md", "pyproject.toml", ".ci/run"]
    return [*files, *(ROOT / name for name in top)]


def test_every_variable_the_code_tests_and_docs_name_is_declared() -> None:
    found = mentions([path for path in _mentioning_files() if path.exists()])
    assert {"MEMFOLD_WORKSPACE", "MEMFOLD_WARM_IDLE", "MEMFOLD_DB"} <= set(found)
    assert {name: sorted(where) for name, where in found.items() if name not in DECLARED} == {}


def test_the_mention_check_catches_an_undeclared_name(tmp_path: Path) -> None:
    stray = PREFIX + "NOT_A_SETTING"
    doc, code = tmp_path / "guide.md", tmp_path / "module.py"
    doc.write_text(f"Set `{stray}` to 1.\n", encoding="utf-8")
    code.write_text(f"{stray} = 1  # an identifier\nx = '{PREFIX}WARM'  # {stray}\n",
                    encoding="utf-8")
    # the identifier is not a mention; the string and the comment are
    assert _python_mentions(code) == {PREFIX + "WARM", stray}
    assert set(NAME.findall(doc.read_text(encoding="utf-8"))) - DECLARED == {stray}


def test_the_readme_names_only_declared_variables_of_memfold() -> None:
    named = set(NAME.findall((ROOT / "README.md").read_text(encoding="utf-8")))
    assert named and named <= DECLARED
    assert {config.setting(name).scope for name in named} <= {"memfold", "tests"}


# -- the list, the docs and the code agree --


GENERATED = re.compile(r"<!-- generated by `memfold config --reference`[^\n]*-->\n(.*?)"
                       r"<!-- end of the generated tables -->", re.S)


def test_the_reference_in_the_docs_is_generated_from_settings() -> None:
    doc = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    match = GENERATED.search(doc)
    assert match is not None
    assert match.group(1) == markdown_reference()
    for setting in config.SETTINGS:
        assert doc.count(f"| `{setting.name}` |") == 1


def test_a_changed_setting_no_longer_matches_the_docs(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    match = GENERATED.search(doc)
    assert match is not None
    first = config.SETTINGS[0]
    changed = config.Setting(first.name, first.type, "~/elsewhere", first.help,
                             flag=first.flag)
    monkeypatch.setattr(config, "SETTINGS", (changed, *config.SETTINGS[1:]))
    assert match.group(1) != markdown_reference()


def _options(command: click.Command, path: str) -> list[tuple[str, click.Option]]:
    found = [(path, param) for param in command.params if isinstance(param, click.Option)]
    if isinstance(command, click.Group) and not isinstance(command, LazyGroup):
        for name, sub in command.commands.items():
            found += _options(sub, f"{path} {name}")
    return found


def test_every_envvar_of_a_flag_is_a_declared_setting_that_names_the_flag() -> None:
    with_env = [(path, option) for path, option in _options(cli, "memfold") if option.envvar]
    assert len(with_env) >= 10
    for path, option in with_env:
        setting = config.setting(str(option.envvar))
        assert setting.scope == "memfold", (path, option.envvar)
        assert any(flag in setting.flag for flag in option.opts if flag.startswith("--")), \
            (path, option.opts, setting.flag)


def test_the_declared_defaults_are_the_ones_the_code_uses() -> None:
    from memfold.client.remote import DEFAULT_BANK
    from memfold.embed.models import MINILM

    assert config.setting("MEMFOLD_WORKSPACE").default == config.DEFAULT_WORKSPACE
    assert config.setting("MEMFOLD_BANK").default == DEFAULT_BANK
    bank = next(p for p in cli.params if p.name == "bank")
    assert bank.default == DEFAULT_BANK
    assert config.setting("MEMFOLD_EMBED_MODEL").default == MINILM
    assert config.setting("MEMFOLD_WARM").default == warm_socket.MODES[0] == "auto"
    assert config.integer("MEMFOLD_WARM_IDLE", {}) == warm_socket.IDLE_SECONDS
    assert float(config.setting("MEMFOLD_JUDGE_TIMEOUT").default) == config.DEFAULT_JUDGE_TIMEOUT
    assert config.setting("MEMFOLD_JUDGE").default == JUDGES.names()[0]


# -- the getters --


def test_an_empty_variable_is_unset_and_an_undeclared_one_is_a_bug() -> None:
    env = {"MEMFOLD_WARM": "  OFF ", "MEMFOLD_BANK": "", "MEMFOLD_WARM_IDLE": "30"}
    assert config.choice("MEMFOLD_WARM", env) == "off"
    assert config.given("MEMFOLD_BANK", env) == ""
    assert config.text("MEMFOLD_BANK", env) == "main"
    assert config.source("MEMFOLD_BANK", env) == "default"
    assert config.source("MEMFOLD_WARM", env) == "environment"
    assert config.integer("MEMFOLD_WARM_IDLE", env) == 30
    with pytest.raises(KeyError):
        config.given(PREFIX + "UNDECLARED", env)


def test_launch_reads_the_callers_environment_through_config() -> None:
    assert warm_socket.mode({"MEMFOLD_WARM": " On"}) == "on"
    assert warm_socket.mode({"MEMFOLD_WARM": "sometimes"}) == "auto"
    assert not warm_socket.eligible(["recall", "x"], {"MEMFOLD_SERVER": "http://h"})
    assert warm_socket.eligible(["recall", "x"], {"MEMFOLD_SERVER": ""})
    assert warm_socket.runtime_dir({"MEMFOLD_WARM_DIR": "/x/y"}) == "/x/y"


def test_records_are_frozen_and_keep_the_key_out_of_sight() -> None:
    settings = config.JudgeSettings("openai", "http://h/v1", "m", "sk-secret", 5.0)
    assert settings == config.JudgeSettings("openai", "http://h/v1", "m", "sk-secret", 5.0)
    assert "sk-secret" not in repr(settings)
    with pytest.raises(AttributeError):
        settings.key = "other"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        config.SETTINGS[0].default = "elsewhere"  # type: ignore[misc]


def test_the_front_door_imports_nothing_heavy_for_the_settings() -> None:
    code = ("import sys, memfold.cli.launch; print(sorted(m for m in ('dataclasses', 'typing', "
            "'pathlib', 'datetime', 'urllib.parse', 'inspect') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


# -- memfold config --


def _config(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [*args], env=env)
    return result.exit_code, result.output


def _rows(*args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    code, out = _config(*args, "config", "--json", env=env)
    assert code == 0, out
    return {row["name"]: row for row in json.loads(out)["settings"]}


def test_config_shows_each_setting_once_and_where_it_came_from(tmp_path: Path) -> None:
    code, out = _config("config", env={"MEMFOLD_WARM_IDLE": "30"})
    assert code == 0
    shown = [line.split()[0] for line in out.splitlines()]
    assert shown == [s.name for s in config.SETTINGS if s.scope == "memfold"]
    rows = _rows("--as-of", "2025-11-30", "-w", str(tmp_path),
                 env={"MEMFOLD_WARM_IDLE": "30", "MEMFOLD_JUDGE": " OpenAI"})
    assert rows["MEMFOLD_NOW"] == {"name": "MEMFOLD_NOW", "source": "flag",
                                   "value": "2025-11-30", "default": "the clock",
                                   "flag": "memfold --as-of"}
    assert (rows["MEMFOLD_WORKSPACE"]["source"], rows["MEMFOLD_WORKSPACE"]["value"]) == \
        ("flag", str(tmp_path))
    assert (rows["MEMFOLD_WARM_IDLE"]["source"], rows["MEMFOLD_WARM_IDLE"]["value"]) == \
        ("environment", "30")
    assert rows["MEMFOLD_JUDGE"]["value"] == "openai"
    assert (rows["MEMFOLD_BANK"]["source"], rows["MEMFOLD_BANK"]["value"]) == ("default", "main")
    assert (rows["MEMFOLD_SERVER"]["source"], rows["MEMFOLD_SERVER"]["value"]) == \
        ("default", None)
    env_workspace = _rows(env={"MEMFOLD_WORKSPACE": str(tmp_path)})["MEMFOLD_WORKSPACE"]
    assert (env_workspace["source"], env_workspace["value"]) == ("environment", str(tmp_path))


def test_config_masks_tokens_keys_and_passwords() -> None:
    env = {"MEMFOLD_TOKEN": "mf_tok3n", "MEMFOLD_JUDGE_KEY": "sk-k3y",
           "MEMFOLD_MCP_TOKEN": "mcp-t0ken",
           "MEMFOLD_DB": "postgresql://memfold_owner:pa55word@db:5432/memfold",
           "MEMFOLD_JUDGE_URL": "https://user:pa55word@llm.internal/v1"}
    code, text = _config("config", env=env)
    _, as_json = _config("config", "--json", env=env)
    for out in (text, as_json):
        assert code == 0
        for secret in ("mf_tok3n", "sk-k3y", "mcp-t0ken", "pa55word"):
            assert secret not in out
    rows = _rows(env=env)
    assert rows["MEMFOLD_TOKEN"]["value"] == "****"
    assert rows["MEMFOLD_DB"]["value"] == "postgresql://memfold_owner:****@db:5432/memfold"
    assert rows["MEMFOLD_JUDGE_URL"]["value"] == "https://user:****@llm.internal/v1"


def test_config_says_when_the_workspace_decides_the_recall_mode(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import memfold.embed

    vectors = tmp_path / ".memory" / "vectors"
    monkeypatch.setattr(memfold.embed, "installed", lambda: True)
    assert _rows("-w", str(tmp_path))["MEMFOLD_RECALL_MODE"]["value"] == "lexical"
    vectors.mkdir(parents=True)
    (vectors / "state.json").write_text("{}", encoding="utf-8")
    mode = _rows("-w", str(tmp_path))["MEMFOLD_RECALL_MODE"]
    assert (mode["source"], mode["value"]) == ("workspace", "hybrid")
    mode = _rows("-w", str(tmp_path), env={"MEMFOLD_RECALL_MODE": "lexical"})[
        "MEMFOLD_RECALL_MODE"]
    assert (mode["source"], mode["value"]) == ("environment", "lexical")


def test_a_workspace_flag_beats_the_server_variable_in_config(tmp_path: Path) -> None:
    rows = _rows("-w", str(tmp_path), env={"MEMFOLD_SERVER": "http://127.0.0.1:8700"})
    assert (rows["MEMFOLD_SERVER"]["source"], rows["MEMFOLD_SERVER"]["value"]) == ("flag", None)
    rows = _rows(env={"MEMFOLD_SERVER": "http://127.0.0.1:8700"})
    assert (rows["MEMFOLD_SERVER"]["source"], rows["MEMFOLD_SERVER"]["value"]) == \
        ("environment", "http://127.0.0.1:8700")
