"""`memfold status`: what the index holds and how fresh it is, read without syncing."""

from __future__ import annotations

from .index.base import IndexBackend
from .index.sync import freshness
from .model import ParseWarning, StatusReport
from .screening import is_secret_warning
from .workspace.layout import Workspace


def status_report(workspace: Workspace, backend: IndexBackend,
                  links: tuple[ParseWarning, ...]) -> StatusReport:
    """Counts by kind, warnings (parse and link), files changed since the last sync (by
    stat), generated pages gone stale and likely secrets, with their path:line."""
    from . import reflect

    counts = backend.counts()
    return StatusReport(
        workspace=str(workspace.root), index_path=backend.location, files=counts.files,
        facts_by_kind=counts.facts_by_kind, entities=counts.entities, chunks=counts.chunks,
        warnings=counts.warnings + len(links), freshness=freshness(workspace, backend),
        last_sync=backend.meta("last_sync"), stale_pages=tuple(reflect.stale_pages(backend)),
        link_warnings=links,
        secrets=tuple(w for w in backend.warnings() if is_secret_warning(w)))
