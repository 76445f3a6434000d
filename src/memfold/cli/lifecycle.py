"""The lifecycle and review verbs of `memfold`: note, use, supersede, restore, history,
trace, reflect and forget (registered by `memfold.cli.main`, which they do not import back).

The same thin skin as `cli.main`: parse, call one Memory method, format.  Errors are
MemfoldError subclasses, mapped to exit statuses by the `memfold` group.  Only Click is
imported at start-up; everything else inside the commands.
"""

from __future__ import annotations

import click

from memfold.cli.args import DataCommand
from memfold.cli.common import SHOW_SECRETS, emit_json, open_memory, show_notices
from memfold.errors import StaleRevision


@click.command(cls=DataCommand)
@click.argument("fact_id", metavar="ID")
@click.argument("text")
@click.option("--rev", required=True, type=int, metavar="N",
              help="The revision you read (from `memfold show`); the note applies only if "
              "it is still N.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def note(ctx: click.Context, fact_id: str, text: str, rev: int, as_json: bool) -> None:
    """Attach a note to a fact, compare-and-set on its revision.

    Prints `applied` and the new revision N+1; if the revision moved on since you read it,
    prints `stale` with the current revision and exits with status 3 (nothing written).
    A fact keeps every note: `show` gives the newest, `history` all of them (--json:
    `notes`, how many).  An empty TEXT is refused (exit 2); one that begins with a dash is
    taken as typed.

    \b
    Example:
      memfold note k3x9q2ma --rev 0 "Confirmed with Peter on the phone."
    """
    memory = open_memory(ctx)
    try:
        new_rev = memory.note(fact_id, text, rev=rev)
    except StaleRevision as exc:
        if as_json:
            emit_json({"id": fact_id, "result": "stale", "rev": exc.current})
        else:
            click.echo(f"stale (current revision {exc.current})")
        ctx.exit(3)
    notes = sum(e.event == "note" for e in memory.history(fact_id))
    show_notices(memory)
    if as_json:
        emit_json({"id": fact_id, "result": "applied", "rev": new_rev, "notes": notes})
    else:
        kept = (f"; the {notes - 1} earlier notes are kept (`memfold history {fact_id}`)"
                if notes > 1 else "")
        click.echo(f"applied (revision {new_rev}){kept}")


@click.command(cls=DataCommand)
@click.argument("fact_ids", nargs=-1, required=True, metavar="ID...")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def use(ctx: click.Context, fact_ids: tuple[str, ...], as_json: bool) -> None:
    """Acknowledge that facts were used, so they stay fresh (their decay restarts).

    Appearing in a recall result is not a use; an agent calls this for what it relied on.
    Prints nothing; --json prints {"used": [ID, ...]}.

    \b
    Example:
      memfold use k3x9q2ma 7hq2x0pa --json
    """
    memory = open_memory(ctx)
    for fact_id in fact_ids:
        memory.use(fact_id)
    show_notices(memory)
    if as_json:
        from memfold import names

        emit_json({"used": [names.fact_id(i) for i in fact_ids]})


@click.command(cls=DataCommand)
@click.argument("old_id", metavar="OLD")
@click.argument("new_id", metavar="NEW")
@click.option("--reason", default="superseded by hand", show_default=True,
              help="Why, recorded in the journal.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def supersede(ctx: click.Context, old_id: str, new_id: str, reason: str,
              as_json: bool) -> None:
    """Mark fact OLD as superseded by fact NEW; nothing is deleted.

    Recall then leaves OLD out (unless --all, or a question about its own time); `show`
    and `trace` keep the pointers both ways.  memfold also supersedes by itself when a new
    fact contradicts an older one.

    --json prints {"id", "by", "changed"} (changed false: it already was).

    \b
    Example:
      memfold supersede 3ab9xk2c 9zz81ppq --reason "moved to Berlin"
    """
    memory = open_memory(ctx)
    changed = memory.supersede(old_id, new_id, reason=reason)
    show_notices(memory)
    if as_json:
        from memfold import names

        emit_json({"id": names.fact_id(old_id), "by": names.fact_id(new_id),
                   "changed": changed})
        return
    click.echo(f"{old_id} superseded by {new_id}" if changed else
               f"{old_id} was already superseded by {new_id}")


@click.command(cls=DataCommand)
@click.argument("fact_id", metavar="ID")
@click.option("--reason", default="restored by hand", show_default=True,
              help="Why, recorded in the journal.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def restore(ctx: click.Context, fact_id: str, reason: str, as_json: bool) -> None:
    """Make a superseded or archived fact active (and fresh) again.

    --json prints {"id", "restored": true}.

    \b
    Example:
      memfold restore 3ab9xk2c --json
    """
    memory = open_memory(ctx)
    memory.restore(fact_id, reason=reason)
    show_notices(memory)
    if as_json:
        from memfold import names

        emit_json({"id": names.fact_id(fact_id), "restored": True})
        return
    click.echo(f"{fact_id} restored")


@click.command(cls=DataCommand)
@click.argument("fact_id", metavar="ID")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def history(ctx: click.Context, fact_id: str, as_json: bool) -> None:
    """A fact's journal events, oldest first: notes, uses, supersedes, revisions.

    \b
    Example:
      memfold history k3x9q2ma
    """
    from memfold.values import reveal

    memory = open_memory(ctx)
    events = memory.history(fact_id)
    show_notices(memory)
    if as_json:
        emit_json({"id": fact_id, "events": [e.to_dict() for e in events]})
        return
    for event in events:
        extra = ", ".join(f"{k}={v}" for k, v in event.data.items() if k != "sha")
        click.echo(reveal(f"{event.ts}  #{event.seq} {event.event} {event.id}  {extra}")
                   .rstrip())
    if not events:
        click.echo("no events yet", err=True)


@click.command(cls=DataCommand)
@click.argument("fact_id", metavar="ID")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@SHOW_SECRETS
@click.pass_context
def trace(ctx: click.Context, fact_id: str, as_json: bool, show_secrets: bool) -> None:
    """A fact's lineage both ways: what it superseded, what superseded it, its sources.

    \b
    Example:
      memfold trace k3x9q2ma
    """
    from memfold.values import render_hit

    memory = open_memory(ctx)
    result = memory.trace(fact_id, show_secrets=show_secrets)
    show_notices(memory)
    if as_json:
        emit_json(result.to_dict())
        return
    click.echo(render_hit(result.root))
    for label, hits in (("supersedes", result.supersedes),
                        ("superseded by", result.superseded_by),
                        ("derived from", result.derived_from)):
        for hit in hits:
            click.echo(f"  {label}: {render_hit(hit)}")


@click.command(cls=DataCommand)
@click.option("--since", default="7d", show_default=True, metavar="SPEC",
              help="Reflect on facts from this time on (30d, 2w, 2025-11, last week, ...).")
@click.option("--dry-run", is_flag=True, help="Print the diff it would write; write nothing.")
@click.option("--undo", is_flag=True, help="Restore the pages of the last run and take "
              "back its decisions.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def reflect(ctx: click.Context, since: str, dry_run: bool, undo: bool, as_json: bool) -> None:
    """Turn recent facts into reviewable pages: consolidate near-duplicates, move opinion
    confidence with new evidence, refresh entity pages, journal expiry and decay.

    Only generated regions of bank pages are written (everything a person wrote stays byte
    for byte); daily logs are never touched.  Running it twice changes nothing the second
    time.  Proposed edits to memory.md are printed, never applied.

    \b
    Examples:
      memfold reflect --dry-run
      memfold reflect --since 30d
      memfold reflect --undo
    """
    memory = open_memory(ctx)
    if undo:
        pages = memory.reflect_undo()
        show_notices(memory)
        if as_json:
            emit_json({"undone": pages})
        else:
            click.echo("restored " + (", ".join(pages) or "no pages") + " and took back the "
                       "last run's decisions")
        return
    plan = memory.reflect(since=since, dry_run=dry_run)
    show_notices(memory)
    if as_json:
        emit_json(plan.to_dict(dry_run=dry_run))
        return
    if dry_run:
        click.echo(plan.diff(), nl=False)
    for new_id, old in plan.merges:
        click.echo(f"merged {', '.join(old)} into {new_id}", err=dry_run)
    for fact_id, before, after in plan.confidence:
        click.echo(f"confidence of {fact_id}: {before:.2f} -> {after:.2f}", err=dry_run)
    for old_id, new_id in plan.superseded:
        click.echo(f"{old_id} superseded by {new_id} (the opinion reversed)", err=dry_run)
    for fact_id, status in plan.swept:
        click.echo(f"{fact_id} {status}", err=dry_run)
    for proposal in plan.proposals:
        click.echo(f"proposal: {proposal}", err=dry_run)
    verb = "would write" if dry_run else "wrote"
    click.echo(f"{verb} {len(plan.pages)} pages, {len(plan.events)} journal events",
               err=dry_run)


@click.command(cls=DataCommand)
@click.argument("fact_id", metavar="ID")
@click.option("--purge", is_flag=True,
              help="Remove every copy of it from the workspace and its derived stores.")
@click.option("--dry-run", is_flag=True,
              help="With --purge: list every place it would change; change nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def forget(ctx: click.Context, fact_id: str, purge: bool, dry_run: bool,
           as_json: bool) -> None:
    """Forget a fact: archive it, or with --purge remove every copy of its text.

    --purge removes every bullet with the fact's id or text (in any file) and the generated
    lines citing them, replaces each secret token of its text with [purged] wherever it
    occurs (bullets, prose, bank pages, memory.md, the journal's notes and edits), scrubs
    the index (secure delete, full-text optimize, VACUUM, WAL truncate) and the vectors,
    deletes reflect's undo snapshot, and keeps only a SHA-256 of the text in the journal.
    Use it for a secret stored by mistake; --dry-run first lists every place (path:line).
    Git history is out of its reach.

    \b
    Examples:
      memfold forget k3x9q2ma
      memfold forget k3x9q2ma --purge --dry-run
      memfold forget k3x9q2ma --purge
    """
    if dry_run and not purge:
        raise click.UsageError("--dry-run goes with --purge (archiving changes no file)")
    memory = open_memory(ctx)
    if not purge:
        memory.forget(fact_id)
        show_notices(memory)
        if as_json:
            from memfold import names

            emit_json({"id": names.fact_id(fact_id), "archived": True})
        else:
            click.echo(f"{fact_id} archived (still findable with --all; --purge removes it)")
        return
    plan = memory.purge(fact_id, dry_run=dry_run)
    show_notices(memory)
    if as_json:
        emit_json(plan.to_dict())
        return
    for place in plan.places:
        click.echo(f"{'would ' if dry_run else ''}{place.action}: {place.where}: {place.detail}")
    verb = "would purge" if dry_run else "purged"
    click.echo(f"{verb} {plan.id} from {', '.join(plan.files)} "
               f"({len(plan.places)} places)")


COMMANDS = [note, use, supersede, restore, history, trace, reflect, forget]
