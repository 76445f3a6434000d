"""Writing a reflect run's pages as one set (`workspace.files`' staged sets): every page
staged first, each compare-and-set against the bytes it was planned from, then committed
together, so a run killed while writing them leaves every page old, or, once the next memfold
command has finished it (`finish_pages`), every page new.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from memfold.errors import MemfoldError
from memfold.reflect.draft import PageChange
from memfold.workspace.files import Staged, finish_set, stage_set
from memfold.workspace.layout import REFLECT_INTENT, Workspace

PAGES_INTENT = REFLECT_INTENT  # a committed page set still being renamed


def stage_pages(workspace: Workspace, pages: Sequence[PageChange]) -> Staged:
    """Stage the run's pages as one set (`files.stage_set`): each compare-and-set against
    the bytes it was planned from, all checked before any is written."""
    for page in pages:
        path = workspace.root / page.path
        workspace.require_real_dir(path.parent)
        try:
            current: bytes | None = path.read_bytes()
        except FileNotFoundError:
            current = None
        if current != page.before:
            raise MemfoldError(f"{page.path} changed while reflect was writing; run "
                               "`memfold reflect` again (what it decided is already journaled)")
        path.parent.mkdir(parents=True, exist_ok=True)
    return stage_set(workspace.root, [(p.path, p.before, p.after) for p in pages])


def finish_pages(workspace: Workspace, *, locked: bool = False) -> list[str]:
    """Finish writing the page set of a reflect run that was killed or failed after it
    committed (`PAGES_INTENT` left behind); returns the pages written now."""
    intent = workspace.root / PAGES_INTENT
    if not os.path.lexists(intent):
        return []
    if locked:
        return finish_set(workspace.root, intent)
    with workspace.write_lock.held():
        return finish_set(workspace.root, intent)
