"""Whole blocks of text that memfold appends to a file it does not own and cuts out again:
the `[mcp_servers.memfold]` table at the end of Codex's config.toml and the section between
`<!-- memfold-agents:start -->` and `<!-- memfold-agents:end -->` in AGENTS.md.

`append` adds the block after a blank line; `cut` takes out the block and that blank line, so
an install and an uninstall give the file back byte for byte (a file that did not end in a
newline gets one).  Nothing else in the file is parsed into objects and written back: the
user's comments, order and spacing are never touched.  TOML is read with the standard
library's `tomllib`, only to check a file and what the block does to it.
"""

from __future__ import annotations

import json
import tomllib
from typing import Any

from memfold.errors import BadInput


def append(text: str, block: str) -> str:
    """`text` with `block` at its end, after a blank line (nothing before it in an empty file)."""
    if not text:
        return block
    return text + ("\n" if text.endswith("\n") else "\n\n") + block


def cut(text: str, block: str) -> str:
    """`text` without `block` and the blank line `append` put before it."""
    at = text.index(block)
    before, after = text[:at], text[at + len(block):]
    if before.endswith("\n\n"):
        before = before[:-1]
    return before + after


def toml_value(value: Any) -> str:
    """A string, list of strings or table of strings as TOML (JSON's escapes are TOML's)."""
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {toml_value(v)}"
                                for k, v in value.items()) + " }"
    return json.dumps(value)


def toml_table(name: str, entry: dict[str, Any]) -> str:
    """`[name]` and a line for each of `entry`'s keys."""
    lines = [f"[{name}]"] + [f"{key} = {toml_value(v)}" for key, v in entry.items()]
    return "\n".join(lines) + "\n"


def parse_toml(text: str, where: str) -> dict[str, Any]:
    """The TOML document, or BadInput naming `where` and the problem (an empty file too)."""
    if not text.strip():
        raise BadInput(f"{where}: the file is empty; fix or remove it, then rerun")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BadInput(f"{where}: not valid TOML ({exc}); fix it, then rerun") from None


def between(text: str, start: str, end: str, where: str) -> str | None:
    """The text from `start` through `end` (and its newline), None when neither marker is
    there; BadInput when only one is, or they are out of order or doubled."""
    first, last = text.find(start), text.find(end)
    if first < 0 and last < 0:
        return None
    if first < 0 or last < first or text.count(start) > 1 or text.count(end) > 1:
        raise BadInput(f"{where}: the memfold section's markers ({start} ... {end}) are "
                       "broken (edited by hand?); fix them, then rerun")
    stop = last + len(end)
    return text[first:stop + 1 if text[stop:stop + 1] == "\n" else stop]
