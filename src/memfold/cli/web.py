"""`memfold ui`: the local web view (registered by `memfold.cli.main`).

The web stack is the optional `web` extra, imported only when the command runs; without it
the command says how to install it (one line, exit 1).
"""

from __future__ import annotations

import click


@click.command("ui")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port on 127.0.0.1 (0: any free port).")
@click.option("--no-open", is_flag=True, help="Print the sign-in link; do not open a browser.")
@click.pass_context
def ui(ctx: click.Context, port: int, no_open: bool) -> None:
    """Browse and curate this memory in a web browser, on this machine only.

    Pages: Search (recall with its options, each hit linked to its line), Timeline (facts
    per day by kind), Entities (facts, page, opinions, supersede chains), Opinions
    (confidence over time with its evidence), Lifecycle (superseded, archived, expired and
    soon-to-fade facts; restore, supersede, note, forget), Health (freshness, warnings,
    integrity, reflect's dry-run diff).  Writes journal the same events as the CLI.

    Serves 127.0.0.1 only.  The link printed on stdout (and opened in the browser unless
    --no-open) carries a one-time token: it signs one browser in, once.  Needs the `web`
    extra: pip install 'memfold[web]'.

    \b
    Examples:
      memfold ui
      memfold ui --port 8780 --no-open
    """
    from memfold.memory import Memory
    from memfold.web import require_extra

    require_extra()
    from memfold.web.serve import serve

    workspace, as_of = ctx.obj["workspace"], ctx.obj["as_of"]
    Memory.open(workspace, now=as_of, watch=False).close()  # a missing workspace fails here

    def open_memory() -> Memory:
        return Memory.open(workspace, now=as_of, source="web")

    serve(open_memory, port=port, open_browser=not no_open)


COMMANDS = [ui]
