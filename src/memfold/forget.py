"""Forgetting for real: remove a fact from the Markdown and scrub it from every derived copy.

`memfold forget ID --purge`, under the workspace lock:
 1. the fact's line is removed from its file (a whole-file atomic rewrite, compared with the
    bytes it was planned from — the one write that may shorten a daily log);
 2. generated summary lines that cite it are removed from bank pages;
 3. the journal gets a `purge` event holding only the SHA-256 of the text, never the text;
 4. the index drops the rows (SQLite's secure_delete zeroes freed pages), the full-text
    index is optimized (so no old segment keeps the words) and the WAL is checkpointed and
    truncated; the last reflect's undo copy and a moved-aside damaged index, which may hold
    old page bytes, are deleted.
Without `--purge`, forget only archives the fact (kept, findable with --all).
"""

from __future__ import annotations

import contextlib
import hashlib
from typing import Any

from .errors import MemfoldError, UnknownId
from .index.base import IndexBackend
from .ledger import Ledger, content_sha
from .workspace.files import replace_atomically
from .workspace.format import split_lines
from .workspace.layout import Workspace


def purge(workspace: Workspace, ledger: Ledger, fact_id: str, *, ts: str) -> list[str]:
    """Remove the fact everywhere; returns the files rewritten."""
    with workspace.write_lock.held():
        ledger.replay()
        found = ledger.backend.by_id(fact_id)
        if not found:
            raise UnknownId(f"no fact with id {fact_id!r}; `memfold recall` finds ids")
        fact = found[0].fact
        if fact.kind == "text":
            raise UnknownId(f"{fact_id!r} is a text chunk, not a fact; edit {fact.path} by hand")
        rewritten = [_drop_line(workspace, fact.path, fact.line, fact_id)]
        rewritten += _drop_citations(workspace, ledger.backend, fact.path, fact.line)
        digest = hashlib.sha256(fact.content.encode("utf-8", "surrogatepass")).hexdigest()
        ledger.journal.append([{"event": "purge", "id": fact_id, "purged_sha256": digest,
                                "sha": content_sha(fact.content)}], ts=ts, locked=True)
        for leftover in (workspace.cache_dir / "reflect-last.json",
                         workspace.index_path.with_name(workspace.index_path.name + ".damaged")):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()
    return rewritten


def _drop_line(workspace: Workspace, rel: str, line: int, fact_id: str) -> str:
    path = workspace.root / rel
    data = path.read_bytes()
    lines = data.split(b"\n")
    if line > len(lines) or (fact_id.encode() not in lines[line - 1]
                             and b"^" in lines[line - 1]):
        raise MemfoldError(f"{rel} changed since it was indexed; run `memfold index` and "
                           "forget again")
    del lines[line - 1]
    replace_atomically(path, b"\n".join(lines))
    return rel


def _drop_citations(workspace: Workspace, backend: IndexBackend, source: str,
                    line: int) -> list[str]:
    pages: dict[str, set[int]] = {}
    for page, page_line, cited, cited_line, _sha, _content in backend.citations():
        if (cited, cited_line) == (source, line):
            pages.setdefault(page, set()).add(page_line)
    for page, drop in pages.items():
        path = workspace.root / page
        text = path.read_bytes().decode("utf-8", "replace")
        kept = [ln for n, ln in enumerate(split_lines(text), 1) if n not in drop]
        replace_atomically(path, ("\n".join(kept) + "\n").encode())
    return sorted(pages)


def scrub(backend: Any) -> None:
    """Leave no copy of deleted rows in the index file or its WAL."""
    db = backend.db
    db.execute("INSERT INTO facts_fts(facts_fts) VALUES ('optimize')")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("VACUUM")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
