"""What an MCP client can read and ask for beside the tools: resources and prompts.

Resources (read-only views a client may attach to a conversation):

    memfold://core              core memory, every block of memory.md (Markdown)
    memfold://core/{block}      one core block's text (Markdown)
    memfold://entity/{name}     an entity's page and its current facts (JSON, as `about`)
    memfold://fact/{id}         one fact with its provenance (JSON, as `show`)

Prompts (messages a client offers its user to start a turn with):

    session-start               the session context (`context`) and how to use the memory
    remember-conversation       ask the model to retain what the conversation taught it

Each is a thin call on `Memory`, through the same tool handlers where one exists, so a
resource says exactly what the matching tool would.  Failures are MemfoldError subclasses
(an unknown URI or block is BadInput; an unknown fact UnknownId), which the MCP server turns
into protocol errors.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote

from memfold.agents import tools as agent_tools
from memfold.errors import BadInput

if TYPE_CHECKING:
    from memfold.api import MemoryAPI

__all__ = ["Content", "Prompt", "get_prompt", "prompts", "read", "resources", "templates"]

SCHEME = "memfold://"
MARKDOWN, JSON = "text/markdown", "application/json"


@dataclass(frozen=True)
class Content:
    """A resource's text and its MIME type."""

    uri: str
    mime_type: str
    text: str


def resources(memory: MemoryAPI) -> list[dict[str, Any]]:
    """The concrete resources: core memory and each of its blocks."""
    found = [{"uri": f"{SCHEME}core", "name": "core", "title": "Core memory",
              "description": "Every block of memory.md: what matters in every session.",
              "mimeType": MARKDOWN}]
    for block in memory.core().blocks:
        found.append({"uri": f"{SCHEME}core/{quote(block.name)}", "name": f"core/{block.name}",
                      "title": f"Core block {block.name}",
                      "description": f"{block.chars}/{block.limit} characters "
                                     f"({block.source}).",
                      "mimeType": MARKDOWN})
    return found


def templates() -> list[dict[str, Any]]:
    """The parameterised resources: an entity by name and a fact by id."""
    return [
        {"uriTemplate": f"{SCHEME}entity/{{name}}", "name": "entity",
         "title": "An entity's page and facts",
         "description": "A person, project or place: its bank page and its current facts, "
                        "newest first (as the about tool).", "mimeType": JSON},
        {"uriTemplate": f"{SCHEME}fact/{{id}}", "name": "fact", "title": "One fact",
         "description": "One fact by id with its source file and line, status, revision "
                        "and note (as the show tool).", "mimeType": JSON},
    ]


def read(memory: MemoryAPI, uri: str) -> Content:
    """The text behind a memfold:// URI."""
    kind, _, rest = uri.removeprefix(SCHEME).partition("/") if uri.startswith(SCHEME) \
        else ("", "", "")
    name = unquote(rest)
    if kind == "core" and not rest:
        return Content(uri, MARKDOWN, memory.core().render())
    if kind == "core":
        for block in memory.core().blocks:
            if block.name.lower() == name.lower():
                return Content(uri, MARKDOWN, block.text)
        raise BadInput(f"{uri}: memory.md has no block {name!r}; read {SCHEME}core for all")
    if kind in ("entity", "fact") and name:
        tool, arguments = ("about", {"name": name}) if kind == "entity" else ("show", {"id": name})
        data = agent_tools.call(memory, tool, arguments)
        return Content(uri, JSON, json.dumps(data, ensure_ascii=False))
    raise BadInput(f"unknown resource {uri!r}; memfold serves {SCHEME}core, "
                   f"{SCHEME}core/BLOCK, {SCHEME}entity/NAME and {SCHEME}fact/ID")


@dataclass(frozen=True)
class Prompt:
    """A prompt a client can offer: its name, what it is for and its arguments."""

    name: str
    title: str
    description: str
    arguments: tuple[tuple[str, str, bool], ...] = ()  # (name, description, required)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "description": self.description,
                "arguments": [{"name": n, "description": d, "required": r}
                              for n, d, r in self.arguments]}


_PROMPTS = (
    Prompt("session-start", "Start a session with memory",
           "The session context (core memory, recent notes, what expires soon), with how to "
           "use the memory tools in this session.",
           (("budget", "Tokens the context may take (default 2000).", False),)),
    Prompt("remember-conversation", "Remember this conversation",
           "Ask the model to store what this conversation taught it as memfold facts.",
           (("focus", "What to pay attention to, e.g. 'decisions about the launch'.",
             False),)),
)

_RETAIN_HOW = (
    "Store what this conversation taught you that will matter in later sessions, with the "
    "retain tool: one self-contained fact per bullet, `KIND @Entity: content` — W for a "
    "fact about the world, B for what happened, O(c=0.0-1.0) for an opinion or preference, "
    "S for a summary. Leave out what is already in memory (recall first if unsure) and "
    "anything secret. If a new fact makes an older one untrue, retain reports it as a "
    "conflict: supersede the old one."
)


def prompts() -> list[Prompt]:
    return list(_PROMPTS)


def get_prompt(memory: MemoryAPI, name: str,
               arguments: dict[str, str] | None = None) -> tuple[str, str]:
    """(description, the user message's text) of a prompt, filled in."""
    args = arguments or {}
    if name == "session-start":
        budget = _budget(args.get("budget"))
        context = agent_tools.call(memory, "context", {"budget": budget})
        return _PROMPTS[0].description, (
            "Here is what your long-term memory holds for this session; each line cites "
            "its source.\n\n" + context["text"] + "\n\nBefore answering from past sessions, "
            "call recall (or about for a person or project) and cite each fact's source. "
            "Store what is worth keeping with retain; call use for facts you relied on.")
    if name == "remember-conversation":
        focus = (args.get("focus") or "").strip()
        text = _RETAIN_HOW + (f"\n\nFocus on: {focus}" if focus else "")
        return _PROMPTS[1].description, text
    raise BadInput(f"unknown prompt {name!r}; the prompts are: "
                   f"{', '.join(p.name for p in _PROMPTS)}")


def _budget(value: str | None) -> int:
    if value is None or not str(value).strip():
        return 2000
    text = str(value).strip()
    if not text.isdigit() or int(text) < 1:
        raise BadInput(f"session-start: budget must be a whole number of tokens, not {text!r}")
    return int(text)
