"""`memfold capture FILE|-`: a chat export into the day logs (registered by `memfold.cli.main`).

The same thin skin as the other command modules: read the bytes, call `Memory.capture` once
per file, print the summary.  A directory (a Claude Code project folder) is captured file by
file, its `*.jsonl` in name order.  Exit status 1 when part of the input could not be read
(the rest is captured), 2 when the input is in no known format (nothing is written).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from memfold.cli.args import DataCommand
from memfold.cli.common import emit_json, open_memory, show_notices
from memfold.errors import BadInput, MemfoldError

if TYPE_CHECKING:
    from memfold.capture import CaptureResult


@click.command(cls=DataCommand)
@click.argument("source", metavar="FILE|-")
@click.option("--format", "fmt", metavar="NAME",
              help="The export's format (chatgpt, claude-ai, claude-code, anthropic, openai, "
                   "text, or a plugin's); detected when not given.")
@click.option("--date", "day", metavar="YYYY-MM-DD",
              help="The day of messages that carry no time (default: today).")
@click.option("--no-extract", is_flag=True, help="Write the turns only, no Retain bullets.")
@click.option("--dry-run", is_flag=True, help="Print what would be written; write nothing.")
@click.option("--no-judge", is_flag=True,
              help="Do not weigh the new facts against older ones for contradictions (fast "
                   "bulk capture of a large export).")
@click.option("--source", "origin", metavar="NAME",
              help="Who captures, journaled with the facts (default: capture:<format>).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.pass_context
def capture(ctx: click.Context, source: str, fmt: str | None, day: str | None,
            no_extract: bool, dry_run: bool, no_judge: bool, origin: str | None,
            as_json: bool) -> None:
    """Capture conversations from a chat export into memory, offline.

    Each turn is written verbatim into its day's log (memory/YYYY-MM-DD.md) with speaker,
    time and a turn key; the facts people state about themselves, others and their
    preferences become Retain bullets citing the turn's line.  Capturing the same export
    again adds nothing; a conversation that grew adds its new turns.  A message that looks
    like it holds a secret is kept out and listed.  FILE may be a Claude Code project
    folder (its *.jsonl transcripts); - reads standard input.

    \b
    Examples:
      memfold capture ~/Downloads/chatgpt/conversations.json
      memfold capture ~/.claude/projects/-home-me-src-app --dry-run
      memfold capture chat.txt --format text --date 2025-03-02 --json
    """
    memory = open_memory(ctx)
    if not hasattr(memory, "capture"):
        raise MemfoldError("capture writes a local workspace's day logs; it is not "
                           "available against a server (capture into a local workspace, "
                           "then `memfold import` it)")
    results = []
    inputs = list(_inputs(source))
    bar = _bar(len(inputs) > 1 or not as_json)
    for name, data in inputs:
        results.append((name, memory.capture(data, format=fmt, name=name, date=day,
                                             extract=not no_extract, dry_run=dry_run,
                                             judge=not no_judge, source=origin,
                                             progress=bar)))
    show_notices(memory)
    summary = _merged(results)
    if as_json:
        emit_json(summary)
    else:
        _print(summary)
    if summary["problems"]:
        ctx.exit(1)


def _inputs(source: str) -> list[tuple[str, bytes]]:
    if source == "-":
        return [("-", sys.stdin.buffer.read())]
    path = Path(source).expanduser()
    try:
        if path.is_dir():
            files = sorted(p for p in path.glob("*.jsonl") if p.is_file())
            if not files:
                raise BadInput(f"{source}: a folder without *.jsonl transcripts")
            return [(str(p), p.read_bytes()) for p in files]
        return [(source, path.read_bytes())]
    except FileNotFoundError:
        raise BadInput(f"{source}: no such file") from None
    except OSError as exc:
        raise BadInput(f"{source}: cannot read it ({exc.strerror or exc})") from None


def _bar(wanted: bool) -> Any:
    if not wanted or not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        click.echo(f"\rcapturing: {done}/{total} days", nl=total == done, err=True)

    return show


def _merged(results: list[tuple[str, CaptureResult]]) -> dict[str, Any]:
    """One summary for the files captured (one, unless a folder was given)."""
    dicts = [r.to_dict() for _, r in results]
    if len(results) > 1:  # say which file each problem is in
        for (name, _), d in zip(results, dicts, strict=True):
            d["problems"] = [dict(p, where=f"{name}: {p['where']}") for p in d["problems"]]
    out = dict(dicts[0])
    for key in ("conversations", "turns", "facts", "skipped"):
        out[key] = sum(d[key] for d in dicts)
    for key in ("files", "secrets_refused", "problems", "preview"):
        if key in out:
            out[key] = [item for d in dicts for item in d[key]]
    out["format"] = ",".join(dict.fromkeys(d["format"] for d in dicts))
    return out


def _print(summary: dict[str, Any]) -> None:
    for item in summary.get("preview", []):
        click.echo(f"==> {item['path']} (appended) <==")
        click.echo(item["text"], nl=False)
    verb = "would capture" if summary["dry_run"] else "captured"
    click.echo(f"{verb} {summary['conversations']} conversations ({summary['format']}): "
               f"{summary['turns']} turns, {summary['facts']} facts, {summary['skipped']} "
               f"skipped (captured before), {len(summary['secrets_refused'])} secrets refused")
    for s in summary["secrets_refused"]:
        click.echo(f"  kept out: {s['path']}:{s['line']} ({s['kind']}) in {s['conversation']}")
    for p in summary["problems"]:
        click.echo(f"memfold: not captured: {p['where']}: {p['reason']}", err=True)


COMMANDS = [capture]
