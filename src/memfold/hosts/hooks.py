"""Claude Code's hooks, run as `memfold hook EVENT` with the host's hook JSON on stdin.

- `session-start` (SessionStart): the session context (`Memory.context`) as
  `hookSpecificOutput.additionalContext`;
- `prompt` (UserPromptSubmit): a budgeted recall for the prompt, injected the same way only
  when it found a fact that is not weak (below);
- `pre-compact` (PreCompact) and `session-end` (SessionEnd): the transcript at
  `transcript_path` (Claude Code's JSON Lines) captured into the day's log through the
  capture engine (format claude-code); capturing it again adds only the new turns.  They print
  nothing: Claude Code shows these hooks' output to no model.

A hook never blocks the session: `run` catches every error, writes it to
`.memory/hooks.log` in the workspace (stderr when there is no workspace to write to), prints
nothing and lets the caller exit 0, which Claude Code treats as success.

A recalled fact is weak, and left out, when it is not active or when it shares fewer than two
of the prompt's words (stop words aside) with the prompt and is about no entity the prompt
names: one common word in common is how an unrelated note matches a prompt.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from memfold import config
from memfold.memory import Memory
from memfold.names import entity_key, find_words, fold
from memfold.recall.query import plan_query, word_stem
from memfold.values import Hit
from memfold.values.results import render_hit

CONTEXT_BUDGET = 1500  # tokens of session context at start
PROMPT_BUDGET = 400  # tokens of recalled facts per prompt
PROMPT_RESULTS = 5
MAX_PROMPT_CHARS = 2000  # the first part of a long prompt carries its question
MAX_PAYLOAD_BYTES = 1 << 20
LOG = Path(".memory") / "hooks.log"
SOURCE = "claude-code"


def _context(memory: Memory, payload: dict[str, Any]) -> str | None:
    found = memory.context(budget=CONTEXT_BUDGET)
    core_text = any(block.text.strip() for block in memory.core().blocks)
    if not core_text and all(s.name == "core" or not s.lines for s in found.sections):
        return None  # a new workspace: empty core blocks, nothing else to tell
    text = found.render()
    return "memfold memory for this session (each line cites its source):\n" + text


def strong(hit: Hit, terms: set[str], named: set[str]) -> bool:
    """Whether a recalled fact is worth showing for a prompt (not weak: see above), given
    the stems of the prompt's words and the keys of the entities it names."""
    if hit.status != "active":
        return False
    if named & {entity_key(e) for e in hit.fact.entities}:
        return True
    held = {word_stem(w) for w in find_words(fold(hit.fact.content))}
    return len(terms & held) >= min(2, len(terms)) > 0


def _prompt(memory: Memory, payload: dict[str, Any]) -> str | None:
    prompt = str(payload.get("prompt") or "").strip()[:MAX_PROMPT_CHARS]
    if not prompt or prompt.startswith("/"):  # nothing asked, or a slash command
        return None
    found = memory.recall(prompt, k=PROMPT_RESULTS, budget=PROMPT_BUDGET)
    named = {entity_key(e) for e in found.entities}
    plan = plan_query(prompt, today=memory.now().date())
    terms = {word_stem(fold(t)) for t in plan.terms}
    hits = [h for h in found.hits if strong(h, terms, named)]
    if not hits:
        return None
    lines = [f"^{h.fact.id} {render_hit(h)}" for h in hits]
    return "memfold recalled (cite the ^ids you rely on):\n" + "\n".join(lines)


def _capture(memory: Memory, payload: dict[str, Any]) -> str | None:
    path = payload.get("transcript_path")
    if not isinstance(path, str) or not path:
        raise ValueError("the hook input has no transcript_path")
    data = Path(path).expanduser().read_bytes()
    if data.strip():
        memory.capture(data, format="claude-code", name=path, source=SOURCE)
    return None


# verb: (Claude Code's event name, what the hook does: the context to add, or None)
EVENTS: dict[str, tuple[str, Callable[[Memory, dict[str, Any]], str | None]]] = {
    "session-start": ("SessionStart", _context),
    "prompt": ("UserPromptSubmit", _prompt),
    "pre-compact": ("PreCompact", _capture),
    "session-end": ("SessionEnd", _capture),
}


def output(event: str, context: str) -> str:
    """The JSON Claude Code reads from a hook's stdout to add context for the model."""
    return json.dumps({"hookSpecificOutput": {"hookEventName": event,
                                              "additionalContext": context}},
                      ensure_ascii=False)


def payload_of(raw: bytes) -> dict[str, Any]:
    if len(raw) > MAX_PAYLOAD_BYTES:
        raise ValueError(f"the hook input is over {MAX_PAYLOAD_BYTES} bytes")
    loaded = json.loads(raw.decode("utf-8")) if raw.strip() else {}
    if not isinstance(loaded, dict):
        raise ValueError("the hook input is not a JSON object")
    return loaded


def run(verb: str, raw: bytes, *, workspace: str | None = None, now: str | None = None,
        stderr: TextIO | None = None) -> str:
    """Run the hook `verb` on the hook input `raw`; the text to print (empty: nothing).
    Never raises: an error is logged (see the module's docstring) and nothing is printed."""
    event, act = EVENTS[verb]
    try:
        with Memory.open(workspace, now=now, watch=False, source=SOURCE) as memory:
            context = act(memory, payload_of(raw))
        return output(event, context) if context else ""
    except Exception as exc:  # the session goes on whatever happened here
        _log(workspace, verb, exc, stderr)
        return ""


def _log(workspace: str | None, verb: str, exc: Exception, stderr: TextIO | None) -> None:
    line = f"{datetime.now().isoformat(timespec='seconds')} hook {verb}: " \
           f"{type(exc).__name__}: {exc}\n"
    if config.given("MEMFOLD_DEBUG"):
        line += traceback.format_exc()
    try:
        root = config.workspace_path(workspace)
        if not (root / ".memory").is_dir():
            raise FileNotFoundError(root / ".memory")
        with open(root / LOG, "a", encoding="utf-8") as log:
            log.write(line)
    except Exception:
        if stderr is not None:
            stderr.write("memfold: " + line)
