"""`memfold review`: the judge's decisions listed, accepted and rejected (registered by
`memfold.cli.main`, which it does not import back).

The same thin skin as `cli.main`: parse, call one Memory method (review, accept, reject),
format.  Only Click is imported at start-up; everything else inside the commands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from memfold.cli.args import DataCommand
from memfold.cli.common import cli_source, emit_json, open_memory, show_notices

if TYPE_CHECKING:
    from memfold.lifecycle.review import ReviewItem, ReviewOutcome

SINCE = click.option("--since", metavar="SPEC",
                     help="Only what was judged since then: 30d, 2w, 2026-01, yesterday.")
ENTITY = click.option("--entity", "entities", multiple=True, metavar="NAME",
                      help="Only items whose facts name this entity (repeatable).")
RULE = click.option("--rule", metavar="RULE",
                    help="Only items of this rule (value, moved, ended, renamed, status, "
                    "opinion, changes, topic, meaning) or judge (rules, reflect, openai:MODEL).")
REASON = click.option("--reason", metavar="TEXT", help="Why, recorded in the journal.")
JSON = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")


@click.group(invoke_without_command=True)
@SINCE
@ENTITY
@RULE
@click.option("--all", "settled", is_flag=True, help="Also the items already settled.")
@click.option("--limit", type=click.IntRange(min=1), default=50, show_default=True,
              help="At most this many items.")
@JSON
@click.pass_context
def review(ctx: click.Context, since: str | None, entities: tuple[str, ...],
           rule: str | None, settled: bool, limit: int, as_json: bool) -> None:
    """The judge's decisions waiting for a word, newest first.

    Each item is one decision the judge journaled when a newer fact met an older one: an
    open conflict (both left active) or an automatic supersede in force.  ID is the item's
    number (or the older fact's id); `accept ID` makes a conflict's supersede, `reject ID`
    dismisses a conflict or makes a superseded fact active again.  Both are journaled, so
    a rebuilt index keeps them.

    \b
    Examples:
      memfold review
      memfold review --entity Kenji --json
      memfold review accept 412 --reason "she did move"
      memfold review reject --rule ended --since 30d --dry-run
    """
    if ctx.invoked_subcommand is not None:
        return
    memory = open_memory(ctx)
    found = memory.review(since=since, entity=entities, rule=rule, settled=settled,
                          limit=limit)
    show_notices(memory)
    if as_json:
        emit_json(found.to_dict())
        return
    if not found.items:
        click.echo("nothing to review")
        return
    for item in found.items:
        _show(item)
    if found.total > len(found.items):
        click.echo(f"memfold: {len(found.items)} of {found.total} shown (--limit N for more)",
                   err=True)


@review.command(cls=DataCommand)
@click.argument("item", metavar="ID")
@REASON
@JSON
@click.pass_context
def accept(ctx: click.Context, item: str, reason: str | None, as_json: bool) -> None:
    """Accept review item ID: the conflict's newer fact supersedes the older one.

    An item already settled is left as it is (the line says by whom and when).

    \b
    Example:
      memfold review accept 412 --reason "confirmed with Kenji"
    """
    memory = open_memory(ctx)
    outcome = memory.accept(item, reason=reason, source=cli_source())
    show_notices(memory)
    _report(outcome, as_json)


@review.command(cls=DataCommand)
@click.argument("item", metavar="[ID]", required=False)
@RULE
@SINCE
@ENTITY
@REASON
@click.option("--dry-run", is_flag=True, help="List what would be rejected; write nothing.")
@JSON
@click.pass_context
def reject(ctx: click.Context, item: str | None, rule: str | None, since: str | None,
           entities: tuple[str, ...], reason: str | None, dry_run: bool,
           as_json: bool) -> None:
    """Reject review item ID, or with --rule every item of a rule waiting for a word.

    A conflict is dismissed (the older fact holds); an automatic supersede is undone (the
    older fact active again).

    \b
    Examples:
      memfold review reject 413 --reason "a plan, not a move"
      memfold review reject --rule ended --since 30d --dry-run
    """
    memory = open_memory(ctx)
    outcome = memory.reject(item, rule=rule, since=since, entity=entities, reason=reason,
                            dry_run=dry_run, source=cli_source())
    show_notices(memory)
    _report(outcome, as_json)


def _show(item: ReviewItem) -> None:
    from memfold.values import reveal

    when = item.settled.describe() if item.settled else item.ts
    click.echo(f"{item.id}\t{item.kind} {item.state}\t{item.judge}/{item.rule}\t{when}")
    for label, side in (("older", item.older), ("newer", item.newer)):
        text = reveal(side.content) if side.content is not None else "(no file holds it)"
        click.echo(f"  {label} {side.id} ({side.source or '-'}, {side.status or '-'}): {text}")
    click.echo(f"  {reveal(item.reason)}")


_SAID = {  # what an item's settling did (or would do), by its state after
    "accepted": "{old} superseded by {new}",
    "dismissed": "{old} stays active beside {new}",
    "restored": "{old} active again ({new} no longer supersedes it)",
}
_WOULD = {("reject", "conflict"): "dismissed", ("reject", "supersede"): "restored",
          ("accept", "conflict"): "accepted"}


def _report(outcome: ReviewOutcome, as_json: bool) -> None:
    if as_json:
        emit_json(outcome.to_dict())
        return
    if not outcome.settled and not outcome.unchanged:
        click.echo(f"no review item matches: nothing {outcome.action}ed")
        return
    for item in outcome.settled:
        state = _WOULD.get((outcome.action, item.kind), item.state) if outcome.dry_run \
            else item.state
        said = _SAID.get(state, "{old} / {new}").format(old=item.older.id, new=item.newer.id)
        click.echo(f"{'would be ' if outcome.dry_run else ''}{state} {item.id}: {said}")
    for item in outcome.unchanged:
        said = item.settled.describe() if item.settled else \
            f"a supersede in force since {item.ts} ({item.judge})"
        click.echo(f"{item.id} already {item.state}: {said}; nothing written")
    if outcome.dry_run:
        click.echo(f"memfold: {len(outcome.settled)} items; run again without --dry-run to "
                   f"{outcome.action} them", err=True)


COMMANDS = [review]
