"""The importers known here: the built-ins, then those plugins register in the entry-point
group `memfold.importers` (loaded as every plugin group is: `memfold.plugins`), and the
choice of one for a source (named with `--format`, else detected, in order).

A capture format's name (`chatgpt`, a `memfold.capture_formats` plugin's) is also taken:
the chat importer then reads the source as that format.
"""

from __future__ import annotations

from typing import Any

from memfold.capture.registry import registered as capture_formats
from memfold.errors import BadInput
from memfold.importing.chats import Chat
from memfold.importing.sources import Importer, Source
from memfold.plugins import Group

IMPORTERS = Group("memfold.importers", "importer", (
    ("vault", "memfold.importing.vault:Vault"),
    ("mem0", "memfold.importing.facts:Mem0"),
    ("jsonl", "memfold.importing.facts:FactsJSONL"),
    ("chat", "memfold.importing.chats:Chat"),
))


def registered() -> dict[str, Importer]:
    """Every importer by name, built-ins first (one that cannot be made is left out)."""
    importers: dict[str, Importer] = {}
    for name, found in IMPORTERS.loaded().items():
        try:
            importers[name] = _made(found)
        except Exception as exc:  # noqa: BLE001 - a broken plugin must not stop an import
            IMPORTERS.left_out(name, f"{type(exc).__name__}: {exc}")
    return importers


def _made(found: Any) -> Importer:
    made: Importer = found() if isinstance(found, type) or (
        callable(found) and not hasattr(found, "detect")) else found
    return made


def choose(source: Source, format: str | None = None) -> Importer:  # noqa: A002
    """The importer `format` names, else the first that recognises the source.  Raises
    BadInput (one line naming what was expected) when none does."""
    importers = registered()
    if format is not None:
        if format in importers:
            return importers[format]
        if format in capture_formats():
            return Chat(format)
        raise BadInput(f"unknown format {format!r}; expected one of: "
                       + ", ".join([*importers, *capture_formats()]))
    for importer in importers.values():
        if importer.detect(source):
            return importer
    raise BadInput(f"{source.name}: not a source memfold imports; expected "
                   + "; ".join(f"{i.name} ({i.description})" for i in importers.values())
                   + " (or name it with --format)")
