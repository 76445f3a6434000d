"""The capture formats known here: the built-ins, then those plugins register, and the
choice of one for an input (named, or detected).

A plugin is an entry point in the group `memfold.capture_formats` (`FORMATS`, loaded as
every plugin group is, see `memfold.plugins`) whose object is a reader (see
`formats.Format`) or a class or function returning one.  The built-ins are declared the
same way in pyproject and come first, in the order detection asks them.  A plugin that fails
to load is left out with a notice; a plugin never replaces a built-in of the same name.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from memfold.capture.formats import Conversation, Export, Format, Loaded, Unreadable, load
from memfold.errors import BadInput
from memfold.plugins import Group
from memfold.screening import refuse_undecodable

# The group keeps the name it was published under (docs/capture.md); `memfold import` reads
# every capture format through its `chat` importer (memfold.importing.chats).
FORMATS = Group("memfold.capture_formats", "capture format", tuple(
    (name, f"memfold.capture.readers:{attribute}") for name, attribute in (
        ("chatgpt", "ChatGPT"), ("claude-ai", "ClaudeAI"), ("claude-code", "ClaudeCode"),
        ("anthropic", "Anthropic"), ("openai", "OpenAI"), ("text", "Text"))))


def registered() -> dict[str, Format]:
    """Every capture format by name: the built-ins, then those of installed plugins (one
    that cannot be made is left out, with a notice)."""
    formats: dict[str, Format] = {}
    for name, found in FORMATS.loaded().items():
        try:
            formats[name] = _reader(found)
        except Exception as exc:  # noqa: BLE001 - a broken plugin must not stop capture
            FORMATS.left_out(name, f"{type(exc).__name__}: {exc}")
    return formats


def _reader(found: Any) -> Format:
    """A registered object as a reader: a class or function returning one is called."""
    made: Format = found() if isinstance(found, type) or (
        callable(found) and not hasattr(found, "detect")) else found
    return made


def read_export(data: bytes | str, *, format: str | None = None, day: date,
                name: str = "-") -> Export:
    """Read an export: `format` by name, else detected.  Raises BadInput (one line naming
    what was expected) when the format is unknown or none matches."""
    formats = registered()
    if format is not None and format not in formats:
        raise BadInput(f"unknown format {format!r}; expected one of: {', '.join(formats)}")
    loaded = load(data, name=name)
    chosen = formats[format] if format else _detect(loaded, formats)
    export = chosen.read(loaded, day=day)
    kept, undecodable = _writable(export.conversations)
    return Export(export.format, kept, (*loaded.problems, *export.problems, *undecodable))


def _writable(conversations: tuple[Conversation, ...]
              ) -> tuple[tuple[Conversation, ...], tuple[Unreadable, ...]]:
    """Split off the conversations holding text that cannot be written as UTF-8 (a lone
    surrogate, from a JSON `\\ud800` escape): each becomes a problem naming the message and
    the character, and the rest are captured."""
    kept: list[Conversation] = []
    problems: list[Unreadable] = []
    for conversation in conversations:
        try:
            refuse_undecodable(conversation.title, "the title")
            for number, message in enumerate(conversation.messages, 1):
                refuse_undecodable(message.speaker, f"message {number}'s speaker")
                refuse_undecodable(message.text, f"message {number}")
        except BadInput as refused:
            problems.append(Unreadable(f"conversation {conversation.key!r}", str(refused)))
            continue
        kept.append(conversation)
    return tuple(kept), tuple(problems)


def _detect(loaded: Loaded, formats: dict[str, Format]) -> Format:
    for fmt in formats.values():
        if fmt.detect(loaded):
            return fmt
    raise BadInput(f"{loaded.name}: not a chat export memfold knows; expected one of: "
                   + "; ".join(f"{f.name} ({f.description})" for f in formats.values())
                   + " (or name it with --format)")
