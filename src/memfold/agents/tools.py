"""Tools for agents: one definition per facade verb, rendered for MCP, OpenAI and Anthropic.

Each `Tool` holds a name, a description that teaches an agent when to call it, a JSON Schema
for its arguments, hints (read-only, destructive, idempotent) and a handler — a thin function
of (Memory, arguments) returning JSON-able data, in `memfold.agents.results`.  The MCP server
(`memfold.agents.mcp`) and `memfold tools --format
openai|openai-strict|openai-responses|anthropic` all render `tools()`: one source of truth.

`call(memory, name, arguments)` checks the arguments (a dict, or OpenAI's JSON string) against
the very schema the model saw (`memfold.agents.schema`), then runs the handler.  Failures are
MemfoldError subclasses with one-line messages that name the arguments as the tool does
("recall: k must be between 1 and 200") and the tools to call, never a CLI command
(`memfold.agents.words`); an adapter turns them into its own error shape.
`dispatch(memory, tool_call)` takes a whole tool call as OpenAI (Chat Completions or
Responses) or Anthropic return it and answers in the shape that API expects
(`memfold.agents.calls`).

    >>> from memfold import Memory                                      # doctest: +SKIP
    >>> with Memory.open("~/notes/agent") as memory:
    ...     call(memory, "recall", {"query": "where does Peter live"})
    ...     dispatch(memory, {"type": "tool_use", "id": "toolu_1", "name": "recall",
    ...                       "input": {"query": "where does Peter live"}})
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memfold.agents import results as run
from memfold.agents.calls import read_call
from memfold.agents.outputs import output_schema
from memfold.agents.schema import check_object, strict_schema
from memfold.agents.words import in_tool_terms, messages_in_tool_terms
from memfold.errors import BadInput, MemfoldError, StaleRevision
from memfold.recall.query import MAX_QUERY_CHARS

if TYPE_CHECKING:
    from memfold.agents.calls import ToolCall
    from memfold.api import MemoryAPI

Handler = Callable[["MemoryAPI", dict[str, Any]], Any]
# every shape `render` gives: Chat Completions (plain and strict), Responses, Anthropic, MCP
FORMATS = ("openai", "openai-strict", "openai-responses", "anthropic", "mcp")


@dataclass(frozen=True)
class Tool:
    """One tool: what an agent sees (name, description, schema, hints) and what it runs."""

    name: str
    title: str
    description: str
    schema: dict[str, Any]
    handler: Handler
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False

    def annotations(self) -> dict[str, Any]:
        """MCP tool annotations (hints for clients; memfold never reaches the network)."""
        return {"title": self.title, "readOnlyHint": self.read_only,
                "destructiveHint": self.destructive, "idempotentHint": self.idempotent,
                "openWorldHint": False}

    def as_mcp(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "description": self.description,
                "inputSchema": self.schema, "outputSchema": output_schema(self.name),
                "annotations": self.annotations()}

    def as_openai(self) -> dict[str, Any]:
        return {"type": "function", "function": {
            "name": self.name, "description": self.description, "parameters": self.schema}}

    def as_openai_strict(self) -> dict[str, Any]:
        """Chat Completions with `strict: true` (see agents.schema.strict_schema)."""
        return {"type": "function", "function": {
            "name": self.name, "description": self.description,
            "parameters": strict_schema(self.schema), "strict": True}}

    def as_openai_responses(self) -> dict[str, Any]:
        """The Responses API's flat function tool; strict, as that API is by default."""
        return {"type": "function", "name": self.name, "description": self.description,
                "parameters": strict_schema(self.schema), "strict": True}

    def as_anthropic(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description,
                "input_schema": self.schema}


# -- schema helpers ---------------------------------------------------------------------------


def _obj(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required),
            "additionalProperties": False}


def _str(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "string", "description": description, **extra}


def _int(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "integer", "description": description, **extra}


def _bool(description: str, default: bool) -> dict[str, Any]:
    return {"type": "boolean", "description": description, "default": default}


def _strings(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "array", "items": {"type": "string"}, "description": description, **extra}


_ID = _str("A fact id, as returned by recall, about, retain or context (with or without ^).",
           minLength=1)
_BLOCK = _str("The core block's name, e.g. Persona, Human or Project (any case).", minLength=1)
_FULL = _bool("Send every field (scores, decay, origin, the index report; for context both "
              "sections and text) instead of the compact form. Rarely needed.", False)
_ITEM = ("The review item's number (`id` in review), or the id of its older fact.")
_SPEC = ("Time spec: 30d, 2w, 6m, 1y, 2025-11-27, 2025-11, today, yesterday, last week, "
         "this month.")


# -- the tools --------------------------------------------------------------------------------


def tools() -> list[Tool]:
    """Every tool, in a stable order; `reflect` only when this Memory has it."""
    from memfold.memory import Memory  # the facade: `memfold tools` prints schemas without it

    found = [t for t in _TOOLS if t.name != "reflect" or hasattr(Memory, "reflect")]
    return found


# `memfold mcp --profile`: the tools a client lists (each definition costs tokens on every
# request); "all" is every tool, those added later included
PROFILES: dict[str, tuple[str, ...] | None] = {
    "minimal": ("context", "recall", "retain", "use"),
    "standard": ("context", "recall", "about", "entities", "show", "retain", "use", "note",
                 "supersede", "forget", "restore", "core_view", "core_append", "core_replace",
                 "core_insert", "core_undo"),
    "all": None,
}


def select(*, profile: str | None = None, names: Sequence[str] | None = None) -> list[Tool]:
    """The tools of a profile (PROFILES) or of a list of names, in `tools()`'s order; every
    tool when neither is given.  BadInput for an unknown profile or name, or both given."""
    if profile is not None and names is not None:
        raise BadInput("give a profile or a list of tools, not both")
    if profile is not None:
        if profile not in PROFILES:
            raise BadInput(f"unknown profile {profile!r}; use one of: {', '.join(PROFILES)}")
        names = PROFILES[profile]
    if names is None:
        return tools()
    wanted = {name.strip() for name in names if name.strip()}
    for name in sorted(wanted):
        tool(name)  # refuses an unknown name, listing the tools
    if not wanted:
        raise BadInput(f"name at least one tool; the tools are: {_names()}")
    return [t for t in tools() if t.name in wanted]


def tool(name: str) -> Tool:
    for candidate in tools():
        if candidate.name == name:
            return candidate
    raise BadInput(f"unknown tool {name!r}; the tools are: {_names()}")


def _names() -> str:
    return ", ".join(t.name for t in tools())


def call(memory: MemoryAPI, name: str, arguments: Mapping[str, Any] | str | None = None) -> Any:
    """Check the arguments against the tool's schema, then run it; returns JSON-able data.

    `arguments` is a dict, or the JSON text of one (OpenAI sends a string).  Every refusal is
    a MemfoldError whose message names the arguments as the tool does; nothing runs before
    the arguments pass.
    """
    if not isinstance(name, str):
        raise BadInput(f"the tool call names no tool; the tools are: {_names()}")
    chosen = tool(name)
    args = check_arguments(chosen, _parsed_arguments(name, arguments))
    try:
        return messages_in_tool_terms(chosen.handler(memory, args), **_terms(chosen))
    except MemfoldError as exc:
        exc.args = (in_tool_terms(str(exc), **_terms(chosen)),)
        raise


def _terms(chosen: Tool) -> dict[str, frozenset[str]]:
    """What `agents.words` renames a library message to: this tool's arguments, the tools."""
    return {"arguments": frozenset(chosen.schema["properties"]),
            "tools": frozenset(t.name for t in _TOOLS)}


def check_arguments(chosen: Tool, arguments: Any) -> dict[str, Any]:
    """The arguments checked against the very schema the model saw, cleaned (2.0 -> 2, nulls
    dropped); BadInput for a missing, unknown, mistyped or out-of-bounds one."""
    return check_object(chosen.name, chosen.schema, arguments)


def parse_json(text: str | bytes, what: str) -> Any:
    """JSON text as data, or BadInput saying where it broke (for arguments and stdin)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(f"{what} {_is(what)} not valid JSON ({exc.msg} at character "
                       f"{exc.pos + 1}); send one JSON object") from None
    except UnicodeDecodeError as exc:
        raise BadInput(f"{what} {_is(what)} not UTF-8: byte 0x{exc.object[exc.start]:02x} at "
                       f"offset {exc.start}; send UTF-8 JSON") from None
    except RecursionError:
        raise BadInput(f"{what} {_is(what)} not valid JSON (nested too deeply); send one "
                       "JSON object") from None


def _is(what: str) -> str:
    return "are" if what.endswith("s") else "is"


def _parsed_arguments(name: str, arguments: Mapping[str, Any] | str | None) -> Any:
    if arguments is None:
        return {}
    if isinstance(arguments, str):
        return parse_json(arguments, f"{name}: the arguments") if arguments.strip() else {}
    return dict(arguments) if isinstance(arguments, Mapping) else arguments


def dispatch(memory: MemoryAPI, tool_call: Any) -> dict[str, Any]:
    """Run a tool call in any vendor's shape and answer in that shape (see memfold.agents.calls):
    a refused call is an error answer for the model, never an exception."""
    return run_call(memory, read_call(tool_call))


def run_call(memory: MemoryAPI, tool_call: ToolCall) -> dict[str, Any]:
    """Run a call read by `agents.calls.read_call` and answer in its shape; every failure is
    an answer (an error result), never an exception."""
    if tool_call.name == "memory":  # the Anthropic memory tool: its own commands and texts
        from memfold.agents.memtool import answer_call

        return answer_call(memory, tool_call)
    data, failed = outcome(memory, tool_call.name, tool_call.arguments)
    return tool_call.answer(data, is_error=failed)


def outcome(memory: MemoryAPI, name: str, arguments: Mapping[str, Any] | str | None,
            ) -> tuple[Any, bool]:
    """(the result, False) of a tool call, or (its error result, True): every failure is
    an answer for the model, never an exception."""
    try:
        return call(memory, name, arguments), False
    except Exception as exc:  # noqa: BLE001 - the model gets every failure as an answer
        return error_result(exc), True


def error_result(exc: BaseException) -> dict[str, Any]:
    """The structured form of a failed call: its message, exit status and kind (a bug is
    an "internal error", so a loop that reports it keeps running)."""
    if not isinstance(exc, MemfoldError):
        return {"error": f"internal error: {type(exc).__name__}: {exc}",
                "type": "InternalError", "exit_code": 1}
    data: dict[str, Any] = {"error": str(exc), "type": type(exc).__name__,
                            "exit_code": exc.exit_code}
    if isinstance(exc, StaleRevision):
        data.update(result="stale", rev=exc.current)
    return data


def render(fmt: str, *, only: Sequence[Tool] | None = None) -> list[dict[str, Any]]:
    """The tools (`only` these, e.g. a profile's from `select`) as function-calling schemas
    in one of FORMATS (mcp: the tools/list form)."""
    if fmt not in FORMATS:
        raise BadInput(f"unknown format {fmt!r}; use one of: {', '.join(FORMATS)}")
    return [getattr(t, f"as_{fmt.replace('-', '_')}")() for t in (only or tools())]


_TOOLS: tuple[Tool, ...] = (
    Tool(
        "recall", "Recall memories",
        "Search long-term memory. Call it before answering anything that may depend on "
        "earlier sessions: people, projects, preferences, decisions, what happened when. "
        "The query is plain text and may name @entities and times ('what did Peter decide "
        "last week'). Returns ranked facts, each with `source` (file#line: cite it) and "
        "`id` (for use, note, supersede). Superseded and expired facts are left out unless "
        "include_all; a superseded match brings the fact that replaced it. A result with "
        "`possibly_outdated_by` may have been changed by those newer facts: read them, and "
        "supersede it if they replace it.",
        _obj({"query": _str("What to recall, in plain words.", minLength=1,
                            maxLength=MAX_QUERY_CHARS),
              "k": _int("How many results at most.", minimum=1, maximum=200, default=10),
              "since": _str(f"Only facts from this time on. {_SPEC}"),
              "until": _str(f"Only facts up to this time. {_SPEC}"),
              "kinds": _strings("Only these kinds: W (world), B (experience), O (opinion), "
                                "S (observation), or their names, or text."),
              "entities": _strings("Only facts linked to one of these entities."),
              "include_all": _bool("Include superseded and expired facts, flagged.", False),
              "budget": _int("Send at most this many tokens (counted on the JSON sent): "
                             "whole results, best first; omitted_for_budget says how many "
                             "were left out.", minimum=1),
              "mode": _str("How to match: lexical (words), semantic (meaning; needs the "
                           "embed extra) or hybrid (both). Default: the workspace's.",
                           enum=["lexical", "semantic", "hybrid"]),
              "strict": _bool("Answer with the best results that are not weak matches "
                              "(results that miss what the question asks); `answered` "
                              "false then means memory holds no answer.", False),
              "full": _FULL},
             ("query",)),
        run.recall, read_only=True, idempotent=True),
    Tool(
        "about", "Everything about an entity",
        "Everything memory holds about one entity (a person, project, place): its page and "
        "its facts, newest first. Call it when a name comes up that you need background on.",
        _obj({"name": _str("The entity's name, with or without @; aliases work.",
                           minLength=1, maxLength=MAX_QUERY_CHARS),
              "k": _int("How many facts at most.", minimum=1, maximum=500, default=20),
              "include_all": _bool("Include superseded and expired facts, flagged.", False),
              "full": _FULL},
             ("name",)),
        run.about, read_only=True, idempotent=True),
    Tool(
        "show", "Show one fact",
        "One fact by id with its full provenance: file, line, file hash, status, confidence, "
        "revision and note. Call it to check a fact's source, or to read its current `rev` "
        "before `note`. Reading is not a use: call `use` for facts you relied on.",
        _obj({"id": _ID,
              "strict": _bool("Fail if the fact's file changed since it was indexed.", False)},
             ("id",)),
        run.show, read_only=True, idempotent=True),
    Tool(
        "retain", "Remember new facts",
        "Store new memories in today's log. Call it when you learn something worth keeping "
        "across sessions. One self-contained fact per bullet: `KIND[(params)] [@Entity ...]: "
        "content`, KIND W = world fact, B = what happened (experience), O = opinion or "
        "preference (add c=0..1 confidence, e.g. O(c=0.8)), S = summary; i=1..10 importance, "
        "until=YYYY-MM-DD when it stops being true. Invalid bullets store nothing. Returns "
        "each fact's id and source, the older facts the new ones superseded (`superseded`), "
        "and `conflicts`: older facts on the same entity and topic that memfold's judge "
        "weighed and left active. Read each conflict: if the new fact makes it no longer "
        "true, call supersede with old=its id and new=the new fact's id.",
        _obj({"bullets": _strings("The facts, e.g. \"W @Peter: Lives in Vienna.\"",
                                  minItems=1),
              "date": _str("The day's log to write to, YYYY-MM-DD (default today)."),
              "source": _str("A label for who is writing (e.g. planner), recorded after "
                             "this server's identity with every bullet (mcp/planner).",
                             minLength=1, maxLength=40),
              "idempotency_key": _str("A key of your own for this retain (e.g. a UUID); "
                                      "retrying with the same key stores nothing new and "
                                      "answers the first call's facts.",
                                      minLength=1, maxLength=200)},
             ("bullets",)),
        run.retain),
    Tool(
        "use", "Mark facts used",
        "Mark facts you actually relied on in an answer, so they stay fresh: facts nobody "
        "uses fade and are archived after months. Appearing in a recall result is not a use.",
        _obj({"ids": _strings("The ids of the facts you used.", minItems=1)}, ("ids",)),
        run.use),
    Tool(
        "note", "Annotate a fact",
        "Attach a note to a fact (e.g. 'confirmed with Peter on 2025-12-01'), replacing its "
        "previous note. Compare-and-set: pass the `rev` you read from show or recall; if the "
        "fact changed since, the call fails as stale with the current revision — read it "
        "again, then retry.",
        _obj({"id": _ID, "text": _str("The note."),
              "rev": _int("The revision you read; the note applies only if it is current.",
                          minimum=0)},
             ("id", "text", "rev")),
        run.note, destructive=True),
    Tool(
        "supersede", "Replace an old fact",
        "Mark an older fact as replaced by a newer one (the user moved, a decision changed). "
        "Nothing is deleted: recall stops serving the old fact and both keep pointers to "
        "each other. memfold already does this for clear changes ('moved from X to Y'); call "
        "it when it did not.",
        _obj({"old": _str("The id of the fact that is no longer true.", minLength=1),
              "new": _str("The id of the fact that replaces it.", minLength=1),
              "reason": _str("Why, recorded in the journal.")},
             ("old", "new")),
        run.supersede, destructive=True, idempotent=True),
    Tool(
        "forget", "Forget a fact",
        "Forget a fact that is wrong or no longer wanted: it is archived — recall stops "
        "serving it, it stays in its file and include_all still finds it. For a fact that "
        "is only outdated, prefer supersede. purge=true instead deletes its text from the "
        "Markdown and the index for good (a secret stored by mistake); that cannot be undone.",
        _obj({"id": _ID,
              "purge": _bool("Delete the text everywhere instead of archiving it.", False)},
             ("id",)),
        run.forget, destructive=True),
    Tool(
        "restore", "Restore a fact",
        "Make a superseded, archived or forgotten fact current again (the judge or a forget "
        "was wrong). The journal keeps both decisions.",
        _obj({"id": _ID, "reason": _str("Why, recorded in the journal.")}, ("id",)),
        run.restore, destructive=True, idempotent=True),
    Tool(
        "review", "Decisions to review",
        "The judge's decisions waiting for a word, newest first: open conflicts (an older "
        "fact left active beside a newer one that may replace it) and automatic supersedes "
        "in force. Each item has a number (`id`), both facts, the judge, its `rule` and its "
        "reason. Call it when a user asks what memory is unsure about, then settle items "
        "with review_accept or review_reject.",
        _obj({"since": _str(f"Only decisions made since then. {_SPEC}"),
              "entities": _strings("Only items whose facts name one of these entities."),
              "rule": _str("Only one rule's items (value, moved, ended, renamed, status, "
                           "opinion, changes, topic, meaning) or one judge's (rules, reflect)."),
              "settled": _bool("Also the items already settled.", False),
              "limit": _int("How many items at most.", minimum=1, maximum=500, default=20)}),
        run.review, read_only=True, idempotent=True),
    Tool(
        "review_accept", "Accept a conflict",
        "Accept a review item: the conflict's newer fact supersedes the older one (the "
        "older stops being served). An item already settled is left as it is: `unchanged` "
        "says by whom and when.",
        _obj({"item": _str(_ITEM, minLength=1),
              "reason": _str("Why, recorded in the journal.")},
             ("item",)),
        run.review_accept, destructive=True, idempotent=True),
    Tool(
        "review_reject", "Reject a decision",
        "Reject a review item: a conflict is dismissed (the older fact holds), an automatic "
        "supersede undone (the older fact served again). Or, with `rule` instead of an item, "
        "every waiting item of that rule (narrowed by since and entities); dry_run=true "
        "lists them first.",
        _obj({"item": _str(_ITEM, minLength=1),
              "rule": _str("Reject every waiting item of this rule (or judge)."),
              "since": _str(f"With rule: only decisions made since then. {_SPEC}"),
              "entities": _strings("With rule: only items about these entities."),
              "reason": _str("Why, recorded in the journal."),
              "dry_run": _bool("Only list what would be rejected.", False)}),
        run.review_reject, destructive=True, idempotent=True),
    Tool(
        "history", "A fact's history",
        "Every journal event about a fact, oldest first: who retained it, notes, uses, "
        "supersedes with the judge and its reason, confidence changes. Call it to find out "
        "why memory says what it says.",
        _obj({"id": _ID}, ("id",)),
        run.history, read_only=True, idempotent=True),
    Tool(
        "trace", "A fact's lineage",
        "What a fact superseded, what superseded it (the chain to the current fact) and "
        "what it was derived from, each with its source.",
        _obj({"id": _ID}, ("id",)),
        run.trace, read_only=True, idempotent=True),
    Tool(
        "entities", "List entities",
        "The entities memory knows (people, projects, places), each with how many facts "
        "name it, most named first. Call it to see who and what memory holds before "
        "calling about or recall with entities.",
        _obj({"limit": _int("How many entities at most.", minimum=1, maximum=1000,
                            default=100)}),
        run.entities, read_only=True, idempotent=True),
    Tool(
        "status", "Memory status",
        "Counts of facts by kind, entities, warnings (with path:line), files changed since "
        "the last sync and generated pages gone stale.",
        _obj({}),
        run.status, read_only=True, idempotent=True),
    Tool(
        "index", "Sync the index",
        "Bring the index up to date with the Markdown files (only what changed), or rebuild "
        "it from the files with full=true. Recall already syncs what changed; call this "
        "after large hand edits.",
        _obj({"full": _bool("Rebuild from nothing instead of syncing changes.", False)}),
        run.index, idempotent=True),
    Tool(
        "reflect", "Reflect on recent memories",
        "Review recent memories: update entity pages and opinion confidence from new evidence, "
        "in small explained steps. A dry run by default: it reports what would change; pass "
        "dry_run=false to apply. Call it at the end of a long session or once a day.",
        _obj({"since": _str(f"How far back to look. {_SPEC}", default="7d"),
              "dry_run": _bool("Only report what would change.", True)}),
        run.reflect, destructive=True),
    Tool(
        "core_view", "View core memory",
        "Show core memory: the small blocks (Persona, Human, Project, ...) that matter in "
        "every session, each with its text, size and character limit. Call it before "
        "editing a block, to copy the exact text to replace.",
        _obj({}),
        run.core_view, read_only=True, idempotent=True),
    Tool(
        "core_append", "Append to a core block",
        "Add a line to a core block (the block is created if missing). Use it for what you "
        "must know in every session — who the user is, how to behave, the current project; "
        "everything else goes to retain. Refused past the block's limit: tighten the block "
        "with core_replace first.",
        _obj({"block": _BLOCK, "text": _str("The text to add.", minLength=1)},
             ("block", "text")),
        run.core_append),
    Tool(
        "core_replace", "Edit a core block",
        "Replace text in a core block: `old` must occur exactly once in the block (copy it "
        "from core_view); `new` may be empty to delete it. Refused, changing nothing, when "
        "`old` is missing or ambiguous or the result passes the block's limit.",
        _obj({"block": _BLOCK, "old": _str("The exact text to replace.", minLength=1),
              "new": _str("The replacement (empty to delete).")},
             ("block", "old", "new")),
        run.core_replace, destructive=True),
    Tool(
        "core_insert", "Insert into a core block",
        "Insert a line into a core block so that it becomes line `line` (1 = first, -1 = "
        "after the last). Refused past the block's limit.",
        _obj({"block": _BLOCK,
              "line": _int("The line number the text will have (1-based; -1 = the end).",
                           minimum=-1),
              "text": _str("The text to insert.", minLength=1)},
             ("block", "line", "text")),
        run.core_insert),
    Tool(
        "core_undo", "Undo a core edit",
        "Put back the core block text from before the last core edit not yet undone, when "
        "an edit went wrong (each call undoes one more edit).",
        _obj({}),
        run.core_undo, destructive=True),
    Tool(
        "context", "Session-start context",
        "What to know at the start of a session: core memory, today's and yesterday's "
        "notes, facts that expire soon and open items — each line citing its source, within "
        "a token budget. Call it once when a session starts.",
        _obj({"budget": _int("Send at most this many tokens (counted on the JSON sent).",
                             minimum=1, default=2000),
              "full": _FULL}),
        run.context, read_only=True, idempotent=True),
)
