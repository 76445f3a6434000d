"""What every command module of the `memfold` command shares: the workspace (or server
bank) for one command, JSON on stdout and the caller's notices on stderr.

`memfold.cli.main` (the group and the core verbs) and `memfold.cli.agent` (the commands for
agents, registered by `memfold.cli.main`) both build on this module, so neither imports the other
back.  Only Click is imported at start-up, as in both.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from typing import TYPE_CHECKING, Any

import click

from memfold.errors import BadInput

if TYPE_CHECKING:
    from collections.abc import Callable

    from memfold.api import MemoryAPI
    from memfold.values import RecallResult, StatusReport
    from memfold.workspace.watch import Watcher

# The warm process (memfold.cli.warm_process) sets this: the change feed it keeps for the
# workspace a command names (None: the command stats every file, as a new process does).
change_feed: Callable[[str | None], Watcher | None] | None = None


# recall, show, about, trace and context redact likely secrets unless this is given
SHOW_SECRETS = click.option(
    "--show-secrets", is_flag=True,
    help="Print text that looks like a secret as stored, instead of [REDACTED:<kind>].")


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def printed_tokens(data: Any) -> int:
    """The tokens of `data` as `emit_json` prints it (MEMFOLD_TOKENIZER's count, else the
    conservative estimate): what `--json --budget` holds to."""
    from memfold import config

    return config.token_counter()(json.dumps(data, ensure_ascii=False, indent=2))


def recall_json(result: RecallResult, budget: int | None) -> dict[str, Any]:
    """`recall --json`: the full result, its first hits that fit `budget` as printed."""
    if budget is None:
        return result.to_dict()
    from memfold.agents.results import recall_result

    return recall_result(result, budget=budget, full=True, measure=printed_tokens,
                         fallback=False)


def open_memory(ctx: click.Context, *, watch: bool = False,
                source: str | None = None) -> MemoryAPI:
    """The workspace for one command; `watch` for long-lived servers, `source` for who
    writes through it (see Memory.open).

    With a server chosen (`memfold --server URL`, MEMFOLD_SERVER), the bank of that server
    instead: a memfold.client.remote.RemoteMemory.  Both are a memfold.api.MemoryAPI: the
    same verbs, arguments and result types (mypy holds them to it); a server's bank signs
    writes with the token's name instead of `source`."""
    obj = ctx.obj or {}
    if obj.get("server"):
        from memfold.client.remote import connect

        if obj.get("as_of"):
            raise BadInput("--as-of (MEMFOLD_NOW) is not available against a server: it "
                           "answers as of its own clock")
        return connect(obj["server"], bank=obj.get("bank"))
    from memfold.memory import Memory

    feed = change_feed(ctx.obj["workspace"]) if change_feed is not None else None
    memory = Memory.open(ctx.obj["workspace"], now=ctx.obj["as_of"], watch=watch,
                         source=source, watcher=feed)
    ctx.call_on_close(memory.close)
    return memory


def cli_source() -> str:
    """Who writes through the command line, as the journal records it: cli:<login name>."""
    import getpass  # imported when a command writes: start-up

    try:
        return f"cli:{getpass.getuser()}"
    except (KeyError, OSError):
        return "cli"


def show_notices(memory: MemoryAPI) -> None:
    for notice in memory.notices:
        click.echo(f"memfold: warning: {notice}", err=True)


def read_utf8_lines(data: bytes, where: str) -> list[str]:
    """The non-blank lines of `data`, which must be UTF-8: a byte that is not is refused with
    one line naming its position (BadInput, exit 2), before anything is stored."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadInput(f"{where} is not UTF-8: byte 0x{data[error.start]:02x} at offset "
                       f"{error.start} (save it as UTF-8 and try again)") from None
    return [line for line in text.splitlines() if line.strip()]


def utf8_arguments(items: list[str]) -> list[str]:
    """Command-line arguments, refused with one line (BadInput, exit 2) when one holds bytes
    that are not UTF-8 (Python keeps them as lone surrogates, which cannot be stored)."""
    for number, item in enumerate(items, 1):
        for offset, char in enumerate(item):
            if "\ud800" <= char <= "\udfff":
                raise BadInput(f"argument {number} is not UTF-8: byte 0x{ord(char) & 0xff:02x} "
                               f"at character {offset}")
    return items


# -- warnings, as status, index and recall print them ----------------------------------------


def synced_warnings(result: RecallResult) -> None:
    """What recall's own sync of edited files found wrong in them, on stderr, as `memfold
    index` shows it (--json has them under index.warnings)."""
    found = result.sync.warnings if result.sync else ()
    for warning in found[:LINKS_SHOWN]:
        click.echo(f"memfold: warning: {warning}", err=True)
    if found:
        click.echo(f"memfold: {len(found)} warnings in the files recall read again; "
                   "`memfold status` lists every open warning", err=True)


LINKS_SHOWN = 20  # warnings of each kind listed by `memfold status` (--json lists all)


def warning_counts(report: StatusReport) -> str:
    kinds = Counter(kind for kind, _ in report.open_warnings())
    counted = ", ".join(f"{n} {kind}" for kind, n in kinds.items())
    return f"{report.warnings} ({counted})" if counted else str(report.warnings)


def warning_rows(report: StatusReport) -> list[tuple[str, str]]:
    """Every open warning, by kind, with its path:line and what to do (the first
    LINKS_SHOWN of each kind; `--json` lists them all)."""
    rows: list[tuple[str, str]] = []
    for kind, group in itertools.groupby(report.open_warnings(), key=lambda kw: kw[0]):
        found = [str(warning) for _, warning in group]
        rows += [(kind, text) for text in found[:LINKS_SHOWN]]
        if len(found) > LINKS_SHOWN:
            rows.append((kind, f"... {len(found) - LINKS_SHOWN} more; "
                         "`memfold status --json` lists them all"))
    return rows
