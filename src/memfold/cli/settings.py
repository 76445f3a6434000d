"""`memfold config`: the settings memfold runs with here, and where each one came from.

Registered by `memfold.cli.main`.  One line per variable memfold reads (config.SETTINGS,
scope memfold): its name, its source — `flag` (a global option of this command line:
--workspace, --server, --bank, --as-of), `environment`, `workspace` (the recall mode a
workspace with vectors gets) or `default` — and its value, a token or key masked, and the
password of a URL.  `--reference` prints the settings reference that docs/configuration.md
holds, generated from SETTINGS.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from memfold import config
from memfold.cli.common import emit_json
from memfold.config import Setting

# the group's options that beat a variable, by the variable they beat
GLOBAL_FLAGS = {"MEMFOLD_WORKSPACE": "workspace", "MEMFOLD_SERVER": "server",
                "MEMFOLD_BANK": "bank", "MEMFOLD_NOW": "as_of"}
MASK = "****"
SCOPE_TITLES = {"memfold": "Read by memfold", "internal": "Between memfold's own processes",
                "tests": "Read by the test suite", "benchmarks": "Read by the benchmarks",
                "deploy": "Read by the deploy files"}
SOURCES = ("flag", "environment", "workspace", "default")


@click.command("config")
@click.option("--json", "as_json", is_flag=True, help="Print the settings as JSON.")
@click.option("--reference", is_flag=True,
              help="Print the reference of every MEMFOLD_* variable, as Markdown (the tables "
              "of docs/configuration.md).")
@click.pass_context
def config_command(ctx: click.Context, as_json: bool, reference: bool) -> None:
    """The settings memfold runs with here, and where each one came from.

    One line per MEMFOLD_* variable: its name, where its value came from (flag,
    environment, workspace or default) and the value.  Tokens and keys are masked, and so
    is a URL's password.  A flag beats a variable beats the default.

    \b
    Examples:
      memfold config
      memfold --workspace ~/notes/agent config --json
      memfold config --reference
    """
    if reference:
        click.echo(markdown_reference(), nl=False)
        return
    rows = effective(ctx.find_root())
    if as_json:
        emit_json({"settings": rows})
        return
    width = max(len(row["name"]) for row in rows)
    for row in rows:
        click.echo(f"{row['name']:<{width}}  {row['source']:<11}  {_shown(row)}")


def effective(root: click.Context) -> list[dict[str, Any]]:
    """Each setting memfold reads, with its value (masked) and where it came from; `root`
    is the `memfold` group's context, with its global options."""
    rows = []
    for setting in config.SETTINGS:
        if setting.scope != "memfold":
            continue
        value, source = _value(root, setting)
        rows.append({"name": setting.name, "source": source,
                     "value": masked(setting, value) if value else None,
                     "default": setting.default_text or None, "flag": setting.flag or None})
    return rows


def _shown(row: dict[str, Any]) -> str:
    if row["value"] is not None:
        return str(row["value"])
    return f"({row['default']})" if row["default"] else "-"


def _value(root: click.Context, setting: Setting) -> tuple[str, str]:
    if setting.name in GLOBAL_FLAGS:
        return _global(root, setting.name)
    worked_out = WORKED_OUT.get(setting.name)
    if worked_out is not None and not config.given(setting.name):
        return worked_out(root)
    value = config.choice(setting.name) if setting.type == "choice" else config.text(setting.name)
    return value, config.source(setting.name)


def _global(root: click.Context, name: str) -> tuple[str, str]:
    """A variable a global option beats: the value the `memfold` group settled on."""
    from click.core import ParameterSource

    param = GLOBAL_FLAGS[name]
    given = root.get_parameter_source(param)
    source = {ParameterSource.COMMANDLINE: "flag",
              ParameterSource.ENVIRONMENT: "environment"}.get(given, "default")  # type: ignore[arg-type]
    if param == "workspace":
        return str(config.workspace_path(root.params["workspace"])), source
    if param == "server" and root.params["server"] and not (root.obj or {}).get("server"):
        return "", "flag"  # --workspace on the command line beat MEMFOLD_SERVER
    return root.params[param] or "", source


def _recall_mode(root: click.Context) -> tuple[str, str]:
    """Hybrid when the workspace has vectors and the embed extra is installed."""
    from memfold.embed import enabled, installed

    folder = config.workspace_path(root.params.get("workspace")) / ".memory"
    if enabled(folder) and installed():
        return "hybrid", "workspace"
    return "lexical", "default"


def _warm_dir(root: click.Context) -> tuple[str, str]:
    from memfold.cli.warm_socket import runtime_dir

    return runtime_dir(), "default"


# the variables whose default memfold works out, and how (when they are not set)
WORKED_OUT: dict[str, Callable[[click.Context], tuple[str, str]]] = {
    "MEMFOLD_RECALL_MODE": _recall_mode, "MEMFOLD_WARM_DIR": _warm_dir}


def masked(setting: Setting, value: str) -> str:
    """`value` as `memfold config` shows it: a secret masked whole, a URL's password masked."""
    if setting.secret:
        return MASK
    if setting.type != "url":
        return value
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(value)
        if parts.password is None:
            return value
    except ValueError:
        return MASK  # not a URL memfold could read: it may still hold a password
    host = parts.netloc.rpartition("@")[2]
    return parts._replace(netloc=f"{parts.username or ''}:{MASK}@{host}").geturl()


def markdown_reference() -> str:
    """Every MEMFOLD_* variable, as docs/configuration.md lists them: a table per scope."""
    sections = []
    for scope in config.SCOPES:
        lines = [f"### {SCOPE_TITLES[scope]}", "",
                 "| Variable | Type | Default | Beaten by | What it does |",
                 "|---|---|---|---|---|"]
        lines += [_reference_row(setting) for setting in config.SETTINGS
                  if setting.scope == scope]
        sections.append("\n".join(lines))
    return "\n\n".join(sections) + "\n"


def _reference_row(setting: Setting) -> str:
    default = _escaped(setting.shown) or (f"`{setting.default}`" if setting.default else "-")
    flag = f"`{setting.flag}`" if setting.flag else "-"
    masked_here = setting.secret and setting.scope == "memfold"
    help_text = _escaped(setting.help) + (" Masked by `memfold config`." if masked_here else "")
    return f"| `{setting.name}` | {setting.type} | {default} | {flag} | {help_text} |"



def _escaped(text: str) -> str:
    """Text for a Markdown table cell: `<uid>` shown, not read as an HTML tag, and `*/bin`
    not as emphasis."""
    return text.replace("<", "&lt;").replace("*", "\\*")


COMMANDS = [config_command]
