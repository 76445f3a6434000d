"""The facade's import and export methods, kept beside what they call: `Memory` inherits
them (`memfold.memory` is the facade; this keeps it within its size)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from datetime import datetime

    from memfold.importing.run import ImportResult, Target


class ImportExport:
    """`Memory.import_source` and `Memory.export_facts`."""

    def import_source(self, path: str | os.PathLike[str], *, format: str | None = None,  # noqa: A002
                      dry_run: bool = False, in_place: bool = False,
                      follow_links: bool = False, judge: bool = True,
                      source: str | None = None) -> ImportResult:
        """Import an existing memory store at `path` (docs/import.md): an Obsidian or
        basic-memory vault (notes become bank pages — or stay where they are with
        `in_place`, the vault inside the workspace — and their titles, aliases, links and
        tags entity pages), a Mem0 export or a JSONL of facts (each fact through `retain`
        on its date: checked, screened for secrets, journaled, judged), or a chat export
        (through `capture`; `judge=False` skips the judge there).  `format` names the
        importer (or a capture format), else it is detected; `follow_links` follows
        symbolic links.  Idempotent: what was imported before is skipped.  Raises BadInput,
        writing nothing, for a source of no known kind; what could not be read is in
        `problems`, the rest imported.  `source` is who imports (default import:<format>).
        """
        from memfold.importing.pipeline import import_source

        return import_source(cast("Target", self), os.fspath(path), format=format,
                             dry_run=dry_run, in_place=in_place, follow_links=follow_links,
                             judge=judge, source=source)

    def export_facts(self, *, format: str = "jsonl", now: datetime | str | None = None,  # noqa: A002
                     show_secrets: bool = False) -> str:
        """Every typed fact, as JSON Lines (`jsonl`) or a Mem0 export (`mem0`), with its id,
        kind, entities, date, status and supersede links, source, confidence, text and
        citation as of `now` (docs/import.md); likely secrets redacted unless
        `show_secrets`.  Importing the JSONL again gives back every field but `citation`."""
        from memfold.importing.export import export_facts

        target = cast("Target", self)
        target.refresh()
        return export_facts(target.index_backend, target.now(now).date(), format=format,
                            show_secrets=show_secrets)
