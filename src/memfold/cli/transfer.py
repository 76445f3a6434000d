"""`memfold import` and `memfold export` (registered by `memfold.cli.main`): existing memory
stores in, and the facts out, for a local workspace; and a workspace into or out of a server
bank with `--server` (the server commands' import and export, unchanged).

Thin: each command calls `Memory.import_source` or `Memory.export_facts` once and prints the
summary, or for a server bank moves the workspace's files over HTTP.  Exit status 1 when part
of a source could not be read (the rest is imported), 2 for a source of no known kind.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from memfold.cli.args import DataCommand
from memfold.cli.common import SHOW_SECRETS, emit_json, open_memory, show_notices
from memfold.errors import BadInput, MemfoldError

JSON = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
SERVER = click.option("--server", metavar="URL",
                      help="A memfold server: move a workspace into or out of its bank. "
                           "[env: MEMFOLD_SERVER]")
BANK = click.option("--bank", help="The bank on the server (with --server).")


def _server(ctx: click.Context, server: str | None, bank: str | None) -> str | None:
    """The server chosen (this command's --server, else memfold's: MEMFOLD_SERVER unless a
    --workspace was typed), checked to come with a bank."""
    chosen = server or ctx.find_root().obj.get("server")
    if chosen and not bank:
        raise BadInput("--bank NAME is needed with --server (the bank to move the "
                       "workspace into or out of)")
    if bank and not chosen:
        raise BadInput("--bank goes with --server URL (or MEMFOLD_SERVER)")
    return chosen or None


@click.command("import", cls=DataCommand)
@click.argument("source", metavar="SOURCE")
@SERVER
@BANK
@click.option("--format", "fmt", metavar="NAME",
              help="What SOURCE is: vault, mem0, jsonl, chat, a capture format (chatgpt, "
                   "claude-ai, claude-code, anthropic, openai, text) or a plugin's; detected "
                   "when not given.")
@click.option("--dry-run", is_flag=True, help="Count what would be imported; write nothing.")
@click.option("--in-place", is_flag=True,
              help="A vault inside the workspace: leave its notes where they are (memfold "
                   "reads those under memory/ and bank/) and add only entity pages.")
@click.option("--follow-links", is_flag=True,
              help="Follow symbolic links: a symlinked vault, and links inside it.")
@click.option("--no-judge", is_flag=True,
              help="Chat exports: do not weigh the captured facts against older ones.")
@click.option("--source", "origin", metavar="NAME",
              help="Who imports, journaled with each fact that does not name its own "
                   "source (default: import:<format>).")
@JSON
@click.pass_context
def import_(ctx: click.Context, source: str, server: str | None, bank: str | None,
            fmt: str | None, dry_run: bool, in_place: bool, follow_links: bool, no_judge: bool,
            origin: str | None, as_json: bool) -> None:
    """Import an existing memory store into the workspace; idempotent.

    SOURCE is an Obsidian or basic-memory vault (its notes become bank pages; titles,
    front-matter aliases, [[links]] and #tags become entity pages with their aliases), a
    Mem0 export or a JSON Lines file of facts ({"text", "date", "kind"?, "entities"?,
    "confidence"?}; each fact is retained on its date: checked, screened for secrets,
    journaled, judged), or a chat export `memfold capture` reads.  Importing the same
    source again adds nothing.  Exit status 1 when part of it could not be read (the rest
    is imported), 2 when it is of no known kind.

    With --server URL --bank B, SOURCE is a local workspace loaded into that server bank,
    idempotent by block id (into an empty bank it is stored whole, files byte for byte and
    the journal replayed; else only the Retain bullets the bank lacks are added; needs the
    write scope).

    \b
    Examples:
      memfold import ~/Documents/Obsidian --dry-run
      memfold import mem0-export.json --json
      memfold import facts.jsonl --source import:crm
      memfold import ~/.memfold/workspace --server http://127.0.0.1:8700 --bank main
    """
    chosen = _server(ctx, server, bank)
    if chosen:
        if fmt or dry_run or in_place or follow_links or no_judge or origin:
            raise BadInput("--format, --dry-run, --in-place, --follow-links, --no-judge and "
                           "--source are for a local import; drop --server to use them")
        _import_to_server(source, chosen, str(bank), as_json)
        return
    memory = open_memory(ctx)
    if not hasattr(memory, "import_source"):
        raise MemfoldError("import writes a local workspace")
    result = memory.import_source(source, format=fmt, dry_run=dry_run, in_place=in_place,
                                  follow_links=follow_links, judge=not no_judge, source=origin)
    show_notices(memory)
    summary = result.to_dict()
    if as_json:
        emit_json(summary)
    else:
        _print(summary)
    if summary["problems"]:
        ctx.exit(1)


def _print(summary: dict[str, Any]) -> None:
    verb = "would import" if summary["dry_run"] else "imported"
    click.echo(f"{verb} {summary['format']} ({summary['read']} read): {summary['facts']} "
               f"facts, {summary['pages']} pages ({summary['updated']} updated), "
               f"{summary['entities']} entity pages, {summary['turns']} turns; "
               f"{summary['skipped']} skipped (imported before), "
               f"{len(summary['secrets_refused'])} secrets refused")
    for s in summary["secrets_refused"]:
        click.echo(f"  kept out: {s['where']} (looks like a secret: {s['kind']})")
    for item in summary["left_out"]:
        click.echo(f"  left out: {item['where']}: {item['reason']}")
    for p in summary["problems"]:
        click.echo(f"memfold: not imported: {p['where']}: {p['reason']}", err=True)


IMPORT_TIMEOUT = 1800.0  # seconds: a 1,000-file bank's import and judging took 4-10 min here


def _import_to_server(directory: str, server: str, bank: str, as_json: bool) -> None:
    from memfold.client.files import read_workspace
    from memfold.client.http import bank_path, request, server_settings

    if not Path(directory).is_dir():
        raise BadInput(f"{directory}: with --server, SOURCE is a workspace folder")
    url, token = server_settings(server)
    body = read_workspace(directory)
    # A whole import into an empty bank also judges every fact once, in date order (the
    # server does it in the import, so no later write waits for it): allow for a large bank.
    result = request(url, token, "POST", bank_path(bank, "import"), body, timeout=IMPORT_TIMEOUT)
    if as_json:
        emit_json(result)
    elif result["stored"] == "whole":
        n = result.get("judged") or 0
        judged = f", {n} decision{'s' * (n != 1)} of the judge" if n else ""
        click.echo(f"imported {directory} into {bank}: {result['files']} files, "
                   f"{result['journal']} journal events{judged}")
    else:
        click.echo(f"imported {directory} into {bank}: {len(result['added'])} bullets added, "
                   f"{result['skipped']} already there")


@click.command("export", cls=DataCommand)
@click.argument("target", required=False, metavar="[DIRECTORY|FILE]")
@SERVER
@BANK
@click.option("--format", "fmt", type=click.Choice(["workspace", "jsonl", "mem0"]),
              help="workspace: a server bank as a local workspace in DIRECTORY (with "
                   "--server); jsonl: one fact a line; mem0: a Mem0 export.  [default: "
                   "workspace with --server, else jsonl]")
@SHOW_SECRETS
@JSON
@click.pass_context
def export(ctx: click.Context, target: str | None, server: str | None, bank: str | None,
           fmt: str | None, show_secrets: bool, as_json: bool) -> None:
    """Export the facts as JSON Lines or a Mem0 export, or a server bank as a workspace.

    --format jsonl writes one fact a line (id, kind, entities, date, status, supersedes,
    superseded_by, source, confidence, text, citation) to FILE, or standard output when
    FILE is - or not given; `memfold import` reads it back with every field but citation.
    --format mem0 writes {"results": [...]} as Mem0's get_all returns.  Both work on the
    local workspace (jsonl and mem0 are local only).  With --server URL --bank B (format
    workspace), the bank is written into DIRECTORY as an ordinary local workspace: daily
    logs, memory.md, bank/ pages and journal.jsonl, byte for byte; the token needs the
    read scope.

    \b
    Examples:
      memfold export --format jsonl facts.jsonl
      memfold export --format mem0 > memories.json
      memfold export --server http://127.0.0.1:8700 --bank main ./main-backup
    """
    chosen = _server(ctx, server, bank)
    fmt = fmt or ("workspace" if chosen else "jsonl")
    if fmt == "workspace":
        if not chosen or not target:
            raise BadInput("--format workspace writes a server bank into a DIRECTORY: give "
                           "--server URL --bank B DIRECTORY")
        _export_from_server(target, chosen, str(bank), as_json)
        return
    if chosen:
        raise BadInput(f"--format {fmt} exports the local workspace; drop --server (export "
                       "the bank as a workspace first, then export from it)")
    memory = open_memory(ctx)
    if not hasattr(memory, "export_facts"):
        raise MemfoldError("export --format jsonl reads a local workspace")
    text = memory.export_facts(format=fmt, show_secrets=show_secrets)
    show_notices(memory)
    _write(text, target)
    if as_json and target not in (None, "-"):
        emit_json({"format": fmt, "file": target, "facts": _count(text, fmt)})


def _count(text: str, fmt: str) -> int:
    import json

    return len(json.loads(text)["results"]) if fmt == "mem0" else text.count("\n")


def _write(text: str, target: str | None) -> None:
    if target in (None, "-"):
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    from memfold.workspace.files import replace_atomically

    path = Path(str(target)).expanduser()
    if path.is_dir():
        raise BadInput(f"{target} is a folder; give a file name for the export")
    try:
        replace_atomically(path, text.encode("utf-8"))
    except OSError as exc:
        raise MemfoldError(f"cannot write {target}: {exc.strerror or exc}") from exc


def _export_from_server(directory: str, server: str, bank: str, as_json: bool) -> None:
    from memfold.client.files import write_workspace
    from memfold.client.http import bank_path, request, server_settings

    url, token = server_settings(server)
    exported = request(url, token, "GET", bank_path(bank, "export"))
    written = write_workspace(directory, exported)
    if as_json:
        emit_json({"bank": bank, "head": exported["head"], "directory": str(directory),
                   "files": written})
    else:
        click.echo(f"exported {bank} (version {exported['head']}): {len(written)} files "
                   f"into {directory}")


COMMANDS = (import_, export)
