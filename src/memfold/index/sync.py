"""Bring an index up to date with the Markdown files — the one place that decides what to read.

A file is read again only when its stamp (size, mtime) moved, so a sync where nothing changed
costs one `stat` per file.  A changed stamp with the same sha256 only records the new stamp.
Like git's "racy" entries, a file modified within `RACY_NS` of the moment it was last read is
hashed again next time: an edit in the same clock tick would otherwise keep its old stamp.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime

from ..model import FileStamp, Freshness, SyncReport
from ..workspace.format import parse_document
from ..workspace.layout import Stat, Workspace
from .base import DocChange, IndexBackend

RACY_NS = 2_000_000_000
Progress = Callable[[int], None]


def _unchanged(old: FileStamp | None, st: Stat) -> bool:
    return (
        old is not None
        and old.size == st.size
        and old.mtime_ns == st.mtime_ns
        and st.mtime_ns + RACY_NS < old.checked_ns
    )


def freshness(workspace: Workspace, index: IndexBackend) -> Freshness:
    """Which files differ from what the index last saw, by stat alone."""
    on_disk, _ = workspace.scan()
    known = index.stamps()
    new = sorted(p for p in on_disk if p not in known)
    modified = sorted(
        p for p, st in on_disk.items()
        if p in known and (known[p].size, known[p].mtime_ns) != (st.size, st.mtime_ns)
    )
    deleted = sorted(p for p in known if p not in on_disk)
    return Freshness(tuple(new), tuple(modified), tuple(deleted))


def read_doc(workspace: Workspace, path: str, checked_ns: int) -> DocChange | None:
    """Read and parse one file; None when it vanished or cannot be read."""
    try:
        with open(workspace.abspath(path), "rb") as handle:
            data = handle.read()
            mtime_ns = os.fstat(handle.fileno()).st_mtime_ns
    except (FileNotFoundError, IsADirectoryError, PermissionError):
        return None
    stamp = FileStamp(len(data), mtime_ns, hashlib.sha256(data).hexdigest(), checked_ns)
    return parse_document(path, data), stamp


def sync(
    workspace: Workspace,
    index: IndexBackend,
    *,
    full: bool = False,
    only: Iterable[str] | None = None,
    progress: Progress | None = None,
    parsed: Iterable[DocChange] = (),
) -> SyncReport:
    """Sync `index` with the files.  `only` limits the sync to some paths (a retain syncs the
    file it wrote); `parsed` hands over documents the caller already read under its lock."""
    started = time.perf_counter()
    checked_ns = time.time_ns()
    scope = set(only) if only is not None else None
    on_disk = workspace.scan()[0] if scope is None else workspace.stat_some(scope)
    known = {} if full else index.stamps(None if scope is None else sorted(scope))
    ready = {doc.path: (doc, stamp) for doc, stamp in parsed}
    changes: list[DocChange] = []
    restamped: list[tuple[str, FileStamp]] = []
    added: list[str] = []
    changed: list[str] = []
    for n, (path, st) in enumerate(on_disk.items()):
        if progress and n % 200 == 0:
            progress(n)
        old = known.get(path)
        if path not in ready and _unchanged(old, st):
            continue
        change = ready.get(path) or read_doc(workspace, path, checked_ns)
        if change is None:
            continue
        doc, stamp = change
        if old is not None and old.sha256 == stamp.sha256:
            restamped.append((path, stamp))
            continue
        changes.append(change)
        (changed if old is not None else added).append(path)
    removed = sorted(p for p in known if p not in on_disk)
    index.apply(changes, removed, restamped, full=full,
                synced_at=datetime.now(UTC).isoformat(timespec="seconds"))
    if progress:
        progress(len(on_disk))
    return SyncReport(
        scanned=len(on_disk),
        added=tuple(added),
        changed=tuple(changed),
        removed=tuple(removed),
        full=full,
        seconds=time.perf_counter() - started,
        warnings=tuple(w for doc, _ in changes for w in doc.warnings),
    )

