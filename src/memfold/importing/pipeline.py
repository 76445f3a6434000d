"""An import from start to end: choose the importer, read the source, then hand its facts,
notes and chats to the steps that write them (`run`, `notes`)."""

from __future__ import annotations

from pathlib import Path

from memfold.errors import BadInput
from memfold.importing.notes import import_notes
from memfold.importing.registry import choose
from memfold.importing.run import ImportResult, Options, Tally, Target, import_chats, import_facts
from memfold.importing.sources import Source


def import_source(target: Target, path: str | Path, *, format: str | None = None,  # noqa: A002
                  dry_run: bool = False, in_place: bool = False, follow_links: bool = False,
                  judge: bool = True, source: str | None = None) -> ImportResult:
    """Import the file or folder at `path` into `target` (a `Memory`)."""
    where = Path(path).expanduser()
    if not where.exists() and not where.is_symlink():
        raise BadInput(f"{path}: no such file or folder")
    chosen_source = Source(where, str(path), follow_links=follow_links)
    importer = choose(chosen_source, format)
    batch = importer.read(chosen_source)
    result = Tally(batch.format, dry_run=dry_run, problems=list(batch.problems),
                   left_out=list(batch.left_out))
    options = Options(dry_run=dry_run, judge=judge, source=source)
    if in_place and not batch.notes:
        raise BadInput("--in-place is for a vault inside the workspace")
    if batch.facts:
        result.read += len(batch.facts)
        import_facts(target, batch, result, options)
    if batch.notes:
        import_notes(target, batch, result, options, in_place=in_place)
    if batch.chats:
        capture_format = getattr(importer, "capture_format", None)
        import_chats(target, batch, result, options, capture_format)
    return result.result()
