"""The built-in capture formats, each a small reader (see `formats` for the contract).

Shapes, as the exports write them:

- ``chatgpt``: ChatGPT's `conversations.json`, a list of conversations, each with `id` (or
  `conversation_id`), `title`, `create_time` and `mapping`: node id -> {`message`,
  `parent`, `children`}; a message has `author.role`, `create_time` (epoch seconds) and
  `content.parts`.  The conversation is the path from `current_node` up to the root (the
  branch the user last saw); hidden system and tool messages are left out.
- ``claude-ai``: Claude.ai's export `conversations.json`, a list of conversations with
  `uuid`, `name`, `chat_messages`: each `uuid`, `sender` (human or assistant), `text` or
  `content` blocks, `created_at` (ISO 8601).
- ``claude-code``: a Claude Code transcript, `~/.claude/projects/<project>/<session>.jsonl`:
  one JSON object a line with `type` (user, assistant, summary, ...), `uuid`, `sessionId`,
  `timestamp` and `message` {`role`, `content`: a string or blocks}; only text blocks are
  kept (tool calls and results, meta and sub-agent lines, and the `<command-…>` /
  `<local-command-…>` echoes of slash commands are not conversation).
- ``anthropic``: an Anthropic Messages API request or transcript: {`messages`: [{`role`,
  `content`}], `system`?, `model`?}, content a string or blocks.
- ``openai``: OpenAI chat messages: a JSON list of {`role`, `content`}, {`messages`: [...]},
  or JSON Lines of either (one message a line, or one conversation a line).
- ``text``: plain `Speaker: text` lines; a line holding a date (`2025-03-02`, `# 2025-03-02`,
  `Date: 2025-03-02`, optionally with a time) sets the day of the lines after it, and a line
  may start with `[2025-03-02 14:05]`.  A line that is not `Speaker: text` continues the turn
  before it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time

from memfold.capture.formats import (
    Conversation,
    Export,
    Json,
    Loaded,
    Message,
    Unreadable,
    block_text,
    conversation,
    noon,
    positional,
    speaker_of,
    when,
)


def _dicts(loaded: Loaded) -> list[dict[str, Json]]:
    return [i for i in loaded.items if isinstance(i, dict)]


@dataclass(frozen=True)
class _Listed:
    """A format whose export is a JSON list of conversations, each holding `marker`, and
    read one by one (one that fails is listed, the others kept)."""

    name: str
    description: str
    marker: str
    read_one: Callable[[Json], Conversation]

    def detect(self, loaded: Loaded) -> bool:
        return loaded.shape == "array" and any(self.marker in i for i in _dicts(loaded))

    def read(self, loaded: Loaded, *, day: date) -> Export:
        convs, problems = [], []
        for n, item in enumerate(loaded.items, 1):
            try:
                convs.append(self.read_one(item))
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                problems.append(Unreadable(f"conversation {n}", f"not a {self.name} "
                                           f"conversation ({type(exc).__name__}: {exc})"))
        return Export(self.name, tuple(convs), tuple(problems))


# -- ChatGPT -------------------------------------------------------------------------------


def _chatgpt_one(raw: dict[str, Json]) -> Conversation:
    mapping: dict[str, Json] = raw["mapping"]
    if not isinstance(mapping, dict):
        raise TypeError("mapping is not an object")
    node = raw.get("current_node") or _last_leaf(mapping)
    path: list[dict[str, Json]] = []
    seen: set[str] = set()
    while node and node in mapping and node not in seen:
        seen.add(node)
        path.append(mapping[node])
        node = mapping[node].get("parent")
    started = when(raw.get("create_time"))
    messages = []
    for entry in reversed(path):
        msg = entry.get("message")
        if not isinstance(msg, dict) or (msg.get("metadata") or {}).get("is_visually_hidden_"
                                                                         "from_conversation"):
            continue
        speaker, role = speaker_of(str((msg.get("author") or {}).get("role", "")))
        if role == "other":
            continue
        content = msg.get("content") or {}
        parts = content.get("parts") or ([content["text"]] if "text" in content else [])
        text = "\n\n".join(p for p in parts if isinstance(p, str) and p.strip())
        at = when(msg.get("create_time")) or started
        messages.append(Message(speaker, text, at, str(msg.get("id") or entry.get("id")), role))
    key = raw.get("conversation_id") or raw.get("id")
    return conversation("chatgpt", str(raw.get("title") or ""), key and str(key), messages)


def _last_leaf(mapping: dict[str, Json]) -> str | None:
    leaves = [k for k, v in mapping.items() if isinstance(v, dict) and not v.get("children")]
    return leaves[-1] if leaves else None


# -- Claude.ai -----------------------------------------------------------------------------


def _claude_ai_one(raw: dict[str, Json]) -> Conversation:
    started = when(raw.get("created_at"))
    messages = []
    for n, msg in enumerate(raw["chat_messages"]):
        speaker, role = speaker_of(str(msg.get("sender", "")))
        text = msg.get("text") or block_text(msg.get("content"))
        key = str(msg.get("uuid") or n)
        messages.append(Message(speaker, str(text), when(msg.get("created_at")) or started,
                                key, role))
    return conversation("claude-ai", str(raw.get("name") or ""), raw.get("uuid"), messages)


_COMMAND_NOISE = re.compile(r"^\s*<(?:command-|local-command-)")


# -- Claude Code ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ClaudeCode:
    name: str = "claude-code"
    description: str = "a Claude Code transcript, JSON Lines with `sessionId` and `message`"

    def detect(self, loaded: Loaded) -> bool:
        return loaded.shape == "lines" and any(
            "sessionId" in i and "message" in i for i in _dicts(loaded))

    def read(self, loaded: Loaded, *, day: date) -> Export:
        sessions: dict[str, list[Message]] = {}
        for raw in _dicts(loaded):
            if raw.get("type") not in ("user", "assistant") or raw.get("isMeta") \
                    or raw.get("isSidechain") or not isinstance(raw.get("message"), dict):
                continue
            speaker, role = speaker_of(str(raw["message"].get("role") or raw["type"]))
            text = block_text(raw["message"].get("content"))
            if _COMMAND_NOISE.match(text):
                continue
            key = str(raw.get("uuid") or len(sessions.get(str(raw.get("sessionId")), [])))
            sessions.setdefault(str(raw.get("sessionId") or ""), []).append(
                Message(speaker, text, when(raw.get("timestamp")), key, role))
        convs = tuple(conversation(self.name, f"Claude Code session {sid[:8]}", sid or None, m)
                      for sid, m in sessions.items())
        return Export(self.name, convs)


# -- Anthropic and OpenAI chat messages ----------------------------------------------------


def _role_list(items: object) -> bool:
    return isinstance(items, list) and bool(items) and all(
        isinstance(m, dict) and "role" in m for m in items)


# the keys a chat message's own time is given under, where a log keeps one
_TIME_KEYS = ("timestamp", "created_at", "create_time", "time")


def _chat(fmt: str, raw: list[Json], day: date) -> Conversation:
    at = noon(day)
    turns = [(*speaker_of(str(m.get("role", ""))), block_text(m.get("content")),
              next((t for k in _TIME_KEYS if (t := when(m.get(k)))), at))
             for m in raw if isinstance(m, dict)]
    return conversation(fmt, "", None, positional(fmt, (t for t in turns if t[1] != "other")))


@dataclass(frozen=True)
class Anthropic:
    name: str = "anthropic"
    description: str = "Anthropic messages, {\"messages\": [...]} with `system` or `model`"

    def detect(self, loaded: Loaded) -> bool:
        return loaded.shape == "object" and _role_list(loaded.items[0].get("messages")) \
            and any(k in loaded.items[0] for k in ("system", "model", "max_tokens"))

    def read(self, loaded: Loaded, *, day: date) -> Export:
        return Export(self.name, (_chat(self.name, loaded.items[0]["messages"], day),))


@dataclass(frozen=True)
class OpenAI:
    name: str = "openai"
    description: str = "OpenAI chat messages, a JSON list (or JSONL) of {role, content}"

    def detect(self, loaded: Loaded) -> bool:
        if loaded.shape == "array":
            return _role_list(list(loaded.items))
        if loaded.shape == "object":
            return _role_list(loaded.items[0].get("messages"))
        return loaded.shape == "lines" and all(
            isinstance(i, dict) and ("role" in i or _role_list(i.get("messages")))
            for i in loaded.items)

    def read(self, loaded: Loaded, *, day: date) -> Export:
        items = list(loaded.items)
        if loaded.shape == "object":
            return Export(self.name, (_chat(self.name, items[0]["messages"], day),))
        if loaded.shape == "lines" and all(isinstance(i, dict) and "messages" in i
                                           for i in items):
            return Export(self.name, tuple(_chat(self.name, i["messages"], day)
                                           for i in items))
        return Export(self.name, (_chat(self.name, items, day),))


# -- plain text ----------------------------------------------------------------------------

_DATE_LINE = re.compile(r"^\s*(?:#+\s*|date:\s*|\[)?(\d{4}-\d{2}-\d{2})(?:[ T](\d{1,2}:\d{2}))?"
                        r"\]?\s*$", re.IGNORECASE)
_TURN = re.compile(r"^\s*(?:\[(\d{4}-\d{2}-\d{2})(?:[ T](\d{1,2}:\d{2}))?\]\s*)?"
                   r"([^\s:][^:]{0,39}?):\s+(\S.*)$")


@dataclass(frozen=True)
class Text:
    name: str = "text"
    description: str = "plain `Speaker: text` lines with a date line"

    def detect(self, loaded: Loaded) -> bool:
        lines = [line for line in loaded.text.splitlines() if line.strip()]
        turns = sum(1 for line in lines if _TURN.match(line))
        return loaded.shape == "text" and turns >= max(1, len(lines) // 2) and any(
            _DATE_LINE.match(line) or (m := _TURN.match(line)) and m.group(1) for line in lines)

    def read(self, loaded: Loaded, *, day: date) -> Export:
        turns: list[list[object]] = []  # [speaker, role, text, at]
        current = noon(day)
        for line in loaded.text.splitlines():
            dated = _DATE_LINE.match(line)
            turn = _TURN.match(line) if not dated else None
            if dated:
                current = _at(dated.group(1), dated.group(2)) or current
            elif turn:
                at = _at(turn.group(1), turn.group(2)) if turn.group(1) else current
                current = at or current
                turns.append([*_named(turn.group(3).strip()), turn.group(4), current])
            elif turns and line.strip():
                turns[-1][2] = f"{turns[-1][2]}\n{line}"
        raw = [(str(s), str(r), str(t), a if isinstance(a, datetime) else None)
               for s, r, t, a in turns]
        return Export(self.name, (conversation(self.name, "", None,
                                               positional(self.name, raw)),))


# a `text` speaker named by a chat role rather than a name: "User:" is the person whose
# memory it is (`me`), "Assistant:" the assistant, whose turns tell nothing about anyone
_USER_NAMES = frozenset({"user", "human", "me"})
_ASSISTANT_NAMES = frozenset({"assistant", "ai", "bot", "model", "chatgpt", "claude"})


def _named(name: str) -> tuple[str, str]:
    """(speaker, role) of a `text` turn's speaker."""
    folded = name.casefold()
    if folded in _USER_NAMES:
        return speaker_of("user")
    if folded in _ASSISTANT_NAMES:
        return speaker_of("assistant")
    return name, "user"


def _at(day: str | None, clock: str | None) -> datetime | None:
    if not day:
        return None
    try:
        parsed = date.fromisoformat(day)
        hours, minutes = (int(x) for x in clock.split(":")) if clock else (12, 0)
        return datetime.combine(parsed, time(hours, minutes), UTC)
    except ValueError:
        return None


ChatGPT = _Listed("chatgpt", "ChatGPT conversations.json, a list with a `mapping` tree each",
                  "mapping", _chatgpt_one)
ClaudeAI = _Listed("claude-ai", "Claude.ai export conversations.json, a list with "
                   "`chat_messages` each", "chat_messages", _claude_ai_one)
