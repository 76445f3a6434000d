"""Commands for agents: `core`, `context`, `mcp`, `tools` and `call` (registered by
`memfold.cli.main`; this module does not import it back: the helpers both use live in
`memfold.cli.common`).

The same thin skin as `cli.main`: parse, call one Memory method (or render the tool
definitions), format.  Errors are MemfoldError subclasses, mapped to exit statuses by the
`memfold` group.  Only Click is imported at start-up; everything else inside the commands.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from memfold.cli.args import DataGroup
from memfold.cli.common import SHOW_SECRETS, emit_json, open_memory, printed_tokens, show_notices
from memfold.errors import BadInput

if TYPE_CHECKING:
    from memfold.agents.tools import Tool
    from memfold.session.core import CoreEdit


def _show_edit(edit: CoreEdit, as_json: bool) -> None:
    if as_json:
        emit_json(edit.to_dict())
        return
    if edit.text is None:
        click.echo(f"{edit.op}: removed block {edit.block} (event #{edit.seq})")
        return
    click.echo(f"{edit.op}: {edit.block} now {len(edit.text)}/{edit.limit} chars "
               f"(event #{edit.seq}; `memfold core undo` reverts it)")


_JSON = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")


@click.group(cls=DataGroup, invoke_without_command=True)
@_JSON
@click.pass_context
def core(ctx: click.Context, as_json: bool) -> None:
    """Core memory: the named blocks of memory.md an agent sees in every session.

    With no subcommand, prints every block with its size and character limit.  Each block
    is a `## Name` heading in memory.md; limits are in its front matter (`limits:`).  An
    edit past a block's limit, or a replace whose OLD does not occur exactly once, is
    refused with exit status 2 and writes nothing.  Every edit is a journal event: see it
    with `memfold history core:NAME`, revert the last one with `memfold core undo`.
    A TEXT that begins with a dash is taken as typed; so is anything after `--`.  Hidden
    text in a block (zero-width characters, HTML comments...) is shown as ⟦...⟧ markers.

    \b
    Examples:
      memfold core
      memfold core append Human "Prefers concise replies."
      memfold core append Human "- likes green tea"
      memfold core replace Human "concise replies" "replies under 1500 characters"
      memfold core insert Persona 1 "You are Peter's assistant."
      memfold core undo
    """
    if ctx.invoked_subcommand is not None:
        return
    from memfold.values import reveal

    memory = open_memory(ctx)
    view = memory.core()
    for warning in view.warnings:
        click.echo(f"memfold: warning: {warning}", err=True)
    if as_json:
        emit_json(view.to_dict())
    elif view.blocks:
        click.echo(reveal(view.render()))
    else:
        click.echo("memory.md has no blocks yet; `memfold core append Persona TEXT` adds one",
                   err=True)


@core.command()
@click.argument("block")
@click.argument("text")
@_JSON
@click.pass_context
def append(ctx: click.Context, block: str, text: str, as_json: bool) -> None:
    """Add TEXT as a new line at the end of BLOCK (created if missing).

    \b
    Example:
      memfold core append Human "Lives in Vienna; prefers German on weekends."
    """
    memory = open_memory(ctx)
    _show_edit(memory.core_append(block, text), as_json)
    show_notices(memory)


@core.command()
@click.argument("block")
@click.argument("old")
@click.argument("new")
@_JSON
@click.pass_context
def replace(ctx: click.Context, block: str, old: str, new: str, as_json: bool) -> None:
    """Replace OLD, which must occur exactly once in BLOCK, with NEW ("" deletes it).

    \b
    Example:
      memfold core replace Project "v0.1" "v0.2"
    """
    memory = open_memory(ctx)
    _show_edit(memory.core_replace(block, old, new), as_json)
    show_notices(memory)


@core.command()
@click.argument("block")
@click.argument("line", type=int)
@click.argument("text")
@_JSON
@click.pass_context
def insert(ctx: click.Context, block: str, line: int, text: str, as_json: bool) -> None:
    """Insert TEXT so that it becomes line LINE of BLOCK (1 = first; -1 = after the last).

    \b
    Example:
      memfold core insert Persona 1 "Answer in English unless asked otherwise."
    """
    memory = open_memory(ctx)
    _show_edit(memory.core_insert(block, line, text), as_json)
    show_notices(memory)


@core.command()
@_JSON
@click.pass_context
def undo(ctx: click.Context, as_json: bool) -> None:
    """Revert the last core edit not yet undone (its block gets its previous text back).

    Refused, writing nothing, if the block changed since that edit (say, by hand).

    \b
    Example:
      memfold core undo
    """
    memory = open_memory(ctx)
    _show_edit(memory.core_undo(), as_json)
    show_notices(memory)


@click.command()
@click.option("--budget", type=int, metavar="TOKENS",
              help="How many tokens to fill at most (a conservative count; with --json, "
              "counted on the JSON). [default: 2000]")
@_JSON
@SHOW_SECRETS
@click.pass_context
def context(ctx: click.Context, budget: int | None, as_json: bool, show_secrets: bool) -> None:
    """What an agent should see at the start of a session, each line citing its source.

    The core blocks, today's and yesterday's Retain bullets, active facts that expire
    within 7 days, and open task items (`- [ ] ...`) from the last 14 days' logs and the
    bank pages, packed into the budget: core first, the rest shared round-robin.  Likely
    secrets are shown as [REDACTED:<kind>] unless --show-secrets.

    \b
    Examples:
      memfold context
      memfold context --budget 800 --json
    """
    memory = open_memory(ctx)
    if as_json:  # the budget holds for the JSON printed, sections and text
        from memfold.agents.results import context_result
        from memfold.session.context import DEFAULT_BUDGET

        emit_json(context_result(lambda inner: memory.context(budget=inner,
                                                              show_secrets=show_secrets),
                                 budget=DEFAULT_BUDGET if budget is None else budget, full=True,
                                 measure=printed_tokens, fallback=False))
        show_notices(memory)
        return
    result = memory.context(budget=budget, show_secrets=show_secrets)
    show_notices(memory)
    text = result.render()
    if text:
        click.echo(text)
    left_out = sum(s.omitted for s in result.sections)
    if left_out:
        click.echo(f"({left_out} lines left out to fit --budget {result.budget})", err=True)
    elif not text:
        click.echo("nothing to show yet: memory.md has no blocks and there are no recent "
                   "notes", err=True)


@click.command()
@click.option("--limit", type=click.IntRange(min=1), metavar="N",
              help="Only the N most named entities.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def entities(ctx: click.Context, limit: int | None, as_json: bool) -> None:
    """List the entities facts name, each with how many facts name it, most named first.

    \b
    Examples:
      memfold entities --limit 20
      memfold entities --json
    """
    memory = open_memory(ctx)
    found = memory.entities()
    show_notices(memory)
    shown = found[:limit] if limit else found
    if as_json:
        from memfold.agents.results import entities_page

        emit_json(entities_page(found, limit or len(found)))
        return
    for name, count in shown:
        click.echo(f"{count}\t@{name}")
    if not found:
        click.echo("no entities yet: name one in a bullet, e.g. W @Peter: ...", err=True)


@click.command("mcp")
@click.option("--http", "target", metavar="HOST:PORT",
              help="Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio; HOST "
              "defaults to 127.0.0.1.")
@click.option("--allow-remote", is_flag=True,
              help="Allow a non-loopback HOST and any Host/Origin header (use a --token).")
@click.option("--token", envvar="MEMFOLD_MCP_TOKEN", metavar="TOKEN",
              help="With --http, require `Authorization: Bearer TOKEN` (32 random bytes or "
              "more: `openssl rand -hex 32`). [env: MEMFOLD_MCP_TOKEN]")
@click.option("--tokens", "tokens_file", envvar="MEMFOLD_MCP_TOKENS", metavar="FILE",
              help="With --http, named tokens: a file of `NAME TOKEN [read|write]` lines.  A "
              "request with any of them is let in, what it writes is signed with its NAME "
              "(journal `source`, retain `by`), and a `read` token may call only read-only "
              "tools. [env: MEMFOLD_MCP_TOKENS]")
@click.option("--no-token", is_flag=True,
              help="With --http, serve without a token: any process that can reach the port "
              "can read and change this memory.")
@click.option("--source", metavar="NAME", envvar="MEMFOLD_SOURCE", default="mcp",
              show_default=True,
              help="Who writes through this server, recorded with every retained bullet "
              "(a retain call's `source` is a label after it: mcp/planner). "
              "[env: MEMFOLD_SOURCE]")
@click.option("--profile", type=click.Choice(["minimal", "standard", "all"]),
              envvar="MEMFOLD_MCP_PROFILE",
              help="Serve a set of tools: minimal (context, recall, retain, use), standard "
              "(minimal, about, entities, show, note, supersede, forget, restore and the "
              "core_* tools) or all (default). [env: MEMFOLD_MCP_PROFILE]")
@click.option("--tools", "tool_names", metavar="NAME,...", envvar="MEMFOLD_MCP_TOOLS",
              help="Serve only these tools, e.g. recall,retain,context. "
              "[env: MEMFOLD_MCP_TOOLS]")
@click.pass_context
def mcp(ctx: click.Context, target: str | None, allow_remote: bool, token: str | None,
        tokens_file: str | None, no_token: bool, source: str, profile: str | None,
        tool_names: str | None) -> None:
    """Serve memfold's tools to an MCP client, over stdio (default) or streamable HTTP.

    One tool per verb: recall, about, entities, show, retain, use, note, supersede, forget,
    restore, review, review_accept, review_reject, history, trace, status, index, reflect,
    core_view, core_append, core_replace, core_insert, core_undo, context.  Each listed
    tool costs the client tokens on every request: --profile or --tools serves fewer.
    Needs the `mcp` extra: pip install 'memfold[mcp]'.  With --server (MEMFOLD_SERVER),
    the stdio server proxies every call to that server's bank, as the token's name.

    \b
    Examples:
      memfold --workspace ~/notes/agent mcp
      memfold mcp --profile minimal
      memfold mcp --tools recall,retain,context,core_view,core_append
      memfold mcp --http 127.0.0.1:8765 --token "$(openssl rand -hex 32)"
      memfold mcp --http 127.0.0.1:8765 --tokens ~/.config/memfold/tokens
    """
    from memfold import loopback
    from memfold.agents import mcp as mcp_server

    served = _selected(profile, tool_names)
    mcp_server.require_sdk()
    if target is None:
        if allow_remote:
            raise BadInput("--allow-remote applies only with --http")
        memory = open_memory(ctx, watch=True, source=source)
        mcp_server.serve_stdio(memory, tools=served)
        return
    if ctx.obj.get("server"):
        raise BadInput("memfold mcp --http is not available against a server: the server "
                       f"serves MCP itself at {ctx.obj['server'].rstrip('/')}/mcp")
    host, port = loopback.parse_target(target, allow_remote=allow_remote)
    tokens = loopback.read_tokens(tokens_file) if tokens_file else None
    if token:
        loopback.check_token(token, "--token")
    if not token and not tokens and not no_token:
        raise BadInput("--http needs --token TOKEN (or MEMFOLD_MCP_TOKEN), --tokens FILE, or "
                       "--no-token to serve without one")
    if not token and not tokens:
        where = "beyond this machine" if allow_remote else "on this machine"
        click.echo(f"memfold: warning: serving WITHOUT A TOKEN {where}: any process that can "
                   "reach the port can read and change this memory", err=True)
    memory = open_memory(ctx, watch=True, source=source)
    mcp_server.serve_http(memory, host, port, token=token, allow_remote=allow_remote,
                          tokens=tokens, tools=served)


def _selected(profile: str | None, tool_names: str | None) -> list[Tool]:
    """The tools `--profile` or `--tools` name (every tool without either)."""
    from memfold.agents.tools import select

    if profile is not None and tool_names is not None:
        raise BadInput("give --profile or --tools, not both")
    try:
        return select(profile=profile,
                      names=tool_names.split(",") if tool_names is not None else None)
    except BadInput as exc:
        raise BadInput(f"--tools: {exc}") from None


@click.command()
# agent_tools.FORMATS, spelled out so that `memfold --help` need not import agent_tools
@click.option("--format", "fmt", default="openai", show_default=True,
              type=click.Choice(["openai", "openai-strict", "openai-responses", "anthropic",
                                 "mcp"]),
              help="Which dialect to print: openai (Chat Completions), openai-strict (the "
              "same with strict: true: every property required, optional ones nullable), "
              "openai-responses (the Responses API's function tools, strict), anthropic "
              "(Messages), mcp (tools/list, with output schemas).")
@click.option("--profile", type=click.Choice(["minimal", "standard", "all"]),
              help="Print a set of tools, as `memfold mcp --profile` serves it.")
@click.option("--tools", "tool_names", metavar="NAME,...",
              help="Print only these tools, e.g. recall,retain,context.")
def tools(fmt: str, profile: str | None, tool_names: str | None) -> None:
    """Print memfold's tools as function-calling JSON schemas, for agents without MCP.

    The same names, descriptions and argument schemas as `memfold mcp` lists; run the
    model's tool calls with `memfold call` or `memfold.agents.tools.dispatch(memory, call)`.

    \b
    Examples:
      memfold tools --format openai > tools.json
      memfold tools --format openai-responses --profile minimal
      memfold tools --format anthropic --tools recall,retain,context
    """
    from memfold.agents.tools import render

    emit_json(render(fmt, only=_selected(profile, tool_names)))


@click.command("call")
@click.option("--source", metavar="NAME", envvar="MEMFOLD_SOURCE", default="call",
              show_default=True,
              help="Who is writing, recorded with every retained bullet (a retain call's "
              "`source` is a label after it: call/planner). [env: MEMFOLD_SOURCE]")
@click.pass_context
def call_tool(ctx: click.Context, source: str) -> None:
    """Run the tool call on stdin and print the answer to hand back to the model, as JSON.

    Stdin holds one tool call (or a JSON array of them) as the model's API returned it:
    an OpenAI Chat Completions tool call, an OpenAI Responses `function_call`, an
    Anthropic `tool_use` block, or {"name", "arguments"}.  The answer comes in the shape
    that API expects back (a `tool` message, a `function_call_output`, a `tool_result`;
    {"name", "is_error", "result"} for the plain form).  A refused call (a bad argument,
    an unknown id) is still an answer, for the model to fix its call: exit status 0.
    Input that is no tool call prints nothing to stdout and exits with status 2.

    \b
    Examples:
      echo '{"name": "recall", "arguments": {"query": "Peter"}}' | memfold call
      echo '{"type": "tool_use", "id": "toolu_1", "name": "recall",
             "input": {"query": "where does Peter live"}}' | memfold call
    """
    from memfold.agents.calls import read_call
    from memfold.agents.tools import parse_json, run_call

    data = parse_json(sys.stdin.buffer.read(), "stdin")
    if isinstance(data, list) and not data:
        raise BadInput("no tool call on stdin: the array is empty")
    calls = [read_call(item) for item in (data if isinstance(data, list) else [data])]
    memory = open_memory(ctx, source=source)
    answers = [run_call(memory, parsed) for parsed in calls]
    show_notices(memory)
    emit_json(answers if isinstance(data, list) else answers[0])


COMMANDS: list[click.Command] = [core, context, entities, mcp, tools, call_tool]
