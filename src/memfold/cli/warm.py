"""`memfold warm start|stop|status`: the warm process that answers reads (memfold.cli.warm_process).

Registered by `memfold.cli.main`.  The warm process is optional: without it every command runs
in its own process, as it always has, and with MEMFOLD_WARM=auto (the default) the first
read starts one on demand.  These commands start it ahead of time, stop it and show it.
"""

from __future__ import annotations

import click

from memfold.cli.common import emit_json

JSON = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")


@click.group("warm")
def warm() -> None:
    """The warm process: a memfold that stays loaded and answers reads in milliseconds.

    A read (recall, about, show, history, trace, status, context) run as a new process
    spends most of its time importing memfold and stat-ing every file for edits.  A warm
    process has imported memfold once and asks the kernel (inotify) which files changed
    since its last read of a workspace: each `memfold` read hands it the arguments,
    directory and environment, and it answers exactly as a new process would.  Writes
    always run in their own process.

    \b
    MEMFOLD_WARM=auto  (default) use a running warm process; a read that finds none starts
                       one for the next read
    MEMFOLD_WARM=on    use one when running, never start one
    MEMFOLD_WARM=off   never use one
    MEMFOLD_WARM_IDLE  seconds without a request before it exits (default 600)
    MEMFOLD_WARM_DIR   where its socket lives (default $XDG_RUNTIME_DIR/memfold, else
                       /tmp/memfold-<uid>); must be this user's, mode 0700

    \b
    Examples:
      memfold warm start
      memfold warm status --json
      memfold warm stop
    """


@warm.command("start")
@click.option("--idle", type=click.IntRange(1), metavar="SECONDS",
              help="Exit after this many seconds without a request. [default: "
                   "MEMFOLD_WARM_IDLE, else 600]")
@JSON
def warm_start(idle: int | None, as_json: bool) -> None:
    """Start the warm process (if none runs) and wait until it answers.

    \b
    Example:
      memfold warm start --idle 3600
    """
    from memfold.cli.warm_control import start  # start-up: dataclasses

    found = start(idle=idle)
    if as_json:
        emit_json(found.to_dict())
    else:
        click.echo(f"warm process {found.pid} listening on {found.socket}")


@warm.command("stop")
@JSON
def warm_stop(as_json: bool) -> None:
    """Stop the warm process; nothing happens when none runs.

    \b
    Example:
      memfold warm stop
    """
    from memfold.cli.warm_control import stop  # start-up

    found = stop()
    if as_json:
        emit_json({**found.to_dict(), "stopped": found.running})
    elif found.running:
        click.echo(f"stopped warm process {found.pid}")
    else:
        click.echo("no warm process was running")


@warm.command("status")
@JSON
def warm_status(as_json: bool) -> None:
    """Whether a warm process runs for this memfold, its pid and how many reads it served.

    \b
    Example:
      memfold warm status --json
    """
    from memfold.cli.warm_control import status  # start-up

    found = status()
    if as_json:
        emit_json(found.to_dict())
    elif found.running:
        click.echo(f"warm process {found.pid} on {found.socket}: {found.served} reads served, "
                   f"exits after {found.idle_seconds} s idle")
    else:
        click.echo(f"no warm process (socket {found.socket})")


COMMANDS = [warm]
