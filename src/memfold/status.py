"""`memfold status`: what the index holds and how fresh it is, read without syncing."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from memfold.index.base import Citation, IndexBackend
from memfold.index.sync import freshness
from memfold.lifecycle.ledger import content_sha
from memfold.screening import is_hidden_warning, is_secret_warning
from memfold.values import ParseWarning, StatusReport
from memfold.workspace.layout import Workspace

PARSE_FIX = "; edit the line, and the warning goes when the file is next read"


def status_report(workspace: Workspace, backend: IndexBackend,
                  links: tuple[ParseWarning, ...]) -> StatusReport:
    """Counts by kind, every open warning (parse, hidden text, secret, link) with its
    path:line, files changed since the last sync (by stat) and generated pages gone stale."""
    counts = backend.counts()
    indexed = backend.warnings()
    return StatusReport(
        workspace=str(workspace.root), index_path=backend.location, files=counts.files,
        facts_by_kind=counts.facts_by_kind, entities=counts.entities, chunks=counts.chunks,
        warnings=counts.warnings + len(links), freshness=freshness(workspace, backend),
        last_sync=backend.meta("last_sync"), stale_pages=tuple(stale_pages(backend)),
        link_warnings=links,
        secrets=tuple(w for w in indexed if is_secret_warning(w)),
        hidden_text=tuple(w for w in indexed if is_hidden_warning(w)),
        parse_warnings=tuple(replace(w, message=w.message + PARSE_FIX) for w in indexed
                             if not is_secret_warning(w) and not is_hidden_warning(w)))


def stale_pages(backend: IndexBackend) -> list[dict[str, Any]]:
    """Pages whose generated lines cite facts that changed or vanished since."""
    return stale_of(backend.citations())


def stale_of(citations: Iterable[Citation]) -> list[dict[str, Any]]:
    """`stale_pages` of these citations (the server reads them from PostgreSQL)."""
    pages: dict[str, dict[str, Any]] = {}
    for page, line, source, source_line, sha, content in citations:
        entry = pages.setdefault(page, {"page": page, "citations": 0, "stale": []})
        entry["citations"] += 1
        if content is None or content_sha(content) != sha:
            entry["stale"].append({"line": line, "cites": f"{source}#L{source_line}",
                                   "why": "gone" if content is None else "changed"})
    return [p for p in pages.values() if p["stale"]]
