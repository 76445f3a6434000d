"""The capture formats known here: the built-ins, then those plugins register, and the
choice of one for an input (named, or detected).

A plugin is an entry point in the group `memfold.capture_formats` whose object is a reader
(see `formats.Format`) or a class or function returning one.  A plugin that fails to load is
left out; a plugin never replaces a built-in of the same name.
"""

from __future__ import annotations

from datetime import date

from memfold.capture.formats import Conversation, Export, Format, Loaded, Unreadable, load
from memfold.capture.readers import BUILTIN
from memfold.errors import BadInput
from memfold.screening import refuse_undecodable

ENTRY_POINT_GROUP = "memfold.capture_formats"


def registered() -> dict[str, Format]:
    """Every capture format by name: the built-ins, then those of installed plugins."""
    found: dict[str, Format] = {f.name: f for f in BUILTIN}
    try:
        from importlib.metadata import entry_points

        for entry in entry_points(group=ENTRY_POINT_GROUP):
            if entry.name in found:
                continue
            try:
                plugin = entry.load()
                found[entry.name] = plugin() if isinstance(plugin, type) or (
                    callable(plugin) and not hasattr(plugin, "detect")) else plugin
            except Exception:  # noqa: BLE001 - a broken plugin must not stop capture
                continue
    except Exception:  # noqa: BLE001 - no metadata: the built-ins only
        pass
    return found


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
