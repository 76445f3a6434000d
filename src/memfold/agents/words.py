"""What a tool call returns, said in tool terms: the library's messages name CLI commands and
flags (what the CLI prints), a model can only call tools with arguments.

`in_tool_terms` rewrites one message: a CLI command becomes the tool that does the same
(`memfold core replace` -> core_replace, "run `memfold index`" -> "call index", "`memfold
recall` finds ids" -> "call recall to find ids"), a flag or a placeholder becomes the tool's
argument (`--k` -> k, OLD -> old, a repeatable `--entity` -> entities) when the tool has one
of that name.  A quoted value ('STRICT', the id a caller sent) is quoted back as it was sent.
Anything else is left as it was, so a message is never made wrong, at worst left in the CLI's
words.
`messages_in_tool_terms` does the same to every warning's `message` in a result.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

__all__ = ["in_tool_terms", "messages_in_tool_terms"]

# whole phrases whose tool form is not a word-for-word rename
_PHRASES = (
    ("remove it, or pass --allow-secret to keep it anyway",
     "rephrase it without the secret"),
    ("`memfold recall` finds ids", "call recall to find ids"),
    ("run `memfold forget --purge`", "call forget with purge=true"),
    ("(or get without strict)", "(or call show without strict)"),
    ("e.g. `memfold about Peter`", "e.g. Peter"),
    (" (--show-secrets shows it)", ""),
    ("a typo? pass --future (future=True) to write to a later day's log",
     "a typo? give the day it happened (a tool writes no later day's log)"),
)
_FORGET_PURGE = re.compile(r"`memfold forget (\S+) --purge`")
# `memfold core replace`, `core replace`, `memfold supersede`: the tool of that name
_COMMAND = re.compile(r"(?:\brun )?`(?:memfold )?(core(?: [a-z]+)?|[a-z]+)`")
_FLAG = re.compile(r"--([a-z][a-z-]*)")
_PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_]+\b")  # the CLI's OLD, NEW, TEXT: the arguments
# a value quoted as Python's repr quotes it ('STRICT', "it's"): what a caller sent, kept as sent
_QUOTED = re.compile(r"""((?<!\w)(?:'[^'\n]*'|"[^"\n]*")(?!\w))""")


def in_tool_terms(message: str, *, arguments: Collection[str], tools: Collection[str]) -> str:
    """`message` as a tool taking `arguments` says it, among `tools` (their names)."""
    for cli_words, tool_words in _PHRASES:
        message = message.replace(cli_words, tool_words)
    message = _FORGET_PURGE.sub(r"forget with id \1 and purge=true", message)

    def command(match: re.Match[str]) -> str:
        words = match.group(1)
        name = "core_view" if words == "core" else words.replace(" ", "_")
        if name not in tools:
            return match.group(0)
        return f"call {name}" if match.group(0).startswith("run ") else name

    def argument(match: re.Match[str]) -> str:
        name = match.group(match.lastindex or 0).replace("-", "_").lower()
        plural = f"{name[:-1]}ies" if name.endswith("y") else f"{name}s"  # a repeated flag
        return next((n for n in (name, plural) if n in arguments), match.group(0))

    def renamed(text: str) -> str:
        return _PLACEHOLDER.sub(argument, _FLAG.sub(argument, _COMMAND.sub(command, text)))

    # split with its group: the odd parts are the quoted values
    return "".join(part if n % 2 else renamed(part)
                   for n, part in enumerate(_QUOTED.split(message)))


def messages_in_tool_terms(data: Any, *, arguments: Collection[str],
                           tools: Collection[str]) -> Any:
    """`data` with the `message` of every warning in it (retain's, index's, status's) in
    tool terms."""
    if isinstance(data, dict):
        return {key: in_tool_terms(value, arguments=arguments, tools=tools)
                if key == "message" and isinstance(value, str)
                else messages_in_tool_terms(value, arguments=arguments, tools=tools)
                for key, value in data.items()}
    if isinstance(data, list):
        return [messages_in_tool_terms(item, arguments=arguments, tools=tools)
                for item in data]
    return data
