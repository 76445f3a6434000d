"""Forgetting for real: remove a fact, and every copy of it, from the whole workspace.

`memfold forget ID --purge` first makes a plan (`PurgePlan`: every place, `path:line` for
text files, plus the derived stores), which `--dry-run` prints without changing a byte.
What a purge removes:

 - every bullet with the fact's block id or the fact's text, in any Markdown file (a copy
   pasted into another day keeps its `^id`; a copy without one still has the same text);
 - generated summary lines in bank pages that cite a removed bullet;
 - every occurrence of a secret token found in the fact's text (`secrets.find_secrets`),
   anywhere in the workspace — other bullets, narrative prose, bank pages, memory.md, the
   journal's text fields (notes, core edits), any other file — replaced by `[purged]` so the
   line around it stays;
 - derived copies: the index rows (refolded from the scrubbed journal; secure_delete, the
   full-text index optimized, VACUUM, the WAL checkpointed and truncated), the vectors of
   every removed or rewritten text, reflect's undo snapshot and a moved-aside damaged index.

The real run holds the write lock; each file is rewritten atomically, compared with the
bytes it was planned from.  The journal gets a `purge` event holding only a SHA-256 of the
text; a journal line whose text was scrubbed is rewritten and the hash chain re-linked from
there (lines that were already out of chain stay so).  Git history is out of reach.
Without `--purge`, forget only archives the fact (kept, findable with --all).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from memfold.embed.store import VectorStore
from memfold.errors import MemfoldError, UnknownId
from memfold.journal.events import Purge
from memfold.journal.log import JOURNAL_NAME, chain_hash
from memfold.lifecycle.ledger import Ledger, content_sha
from memfold.scan.secrets import find_secrets
from memfold.values import Fact
from memfold.workspace.files import remove, replace_atomically
from memfold.workspace.format import parse_document, redact_bytes, remove_lines
from memfold.workspace.layout import Workspace

if TYPE_CHECKING:
    from memfold.index.base import Candidate

MARKER = "[purged]"
SKIPPED_DIRS = (".git",)  # version-control history is out of a purge's reach (documented)
UNDO_SNAPSHOT = "reflect-last.json"  # reflect.plan.UNDO_FILE, under the cache: may hold the text


@dataclass(frozen=True)
class PurgePlace:
    """One place a purge changes: a line of a file (`line`), or a whole file or store."""

    path: str
    line: int | None
    action: str  # remove | redact | rewrite | delete | scrub
    detail: str

    @property
    def where(self) -> str:
        return self.path if self.line is None else f"{self.path}:{self.line}"

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "line": self.line, "action": self.action,
                "detail": self.detail}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> PurgePlace:
        return cls(path=d["path"], line=d["line"], action=d["action"], detail=d["detail"])


@dataclass(frozen=True)
class PurgePlan:
    """What a purge of `id` changes (`dry_run`: what it would change)."""

    id: str
    dry_run: bool
    secrets: int  # distinct secret tokens found in the fact's text
    places: tuple[PurgePlace, ...]
    files: tuple[str, ...]  # Markdown files rewritten, for the index to sync

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "dry_run": self.dry_run, "secrets": self.secrets,
                "files": list(self.files), "places": [p.to_dict() for p in self.places]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> PurgePlan:
        return cls(id=d["id"], dry_run=d["dry_run"], secrets=d["secrets"],
                   places=tuple(PurgePlace.from_dict(p) for p in d["places"]),
                   files=tuple(d["files"]))


class FactSource(Protocol):
    """Where the fact to purge is looked up (a workspace's index, or a bank's rows)."""

    def by_id(self, fact_id: str) -> list[Candidate]: ...


@dataclass
class Rewrite:
    """A file's bytes as planned from and as they will be, and the places that change."""

    before: bytes
    after: bytes
    places: list[PurgePlace] = field(default_factory=list)


def purge(workspace: Workspace, ledger: Ledger, fact_id: str, *, ts: str,
          dry_run: bool = False) -> PurgePlan:
    """Plan the purge of a fact and, unless `dry_run`, carry it out (see the module doc);
    the caller then syncs `plan.files` and scrubs the index."""
    with workspace.write_lock.held():
        ledger.replay()
        fact = the_fact(ledger.backend, fact_id)
        tokens = secret_tokens(fact)
        docs, dropped_texts = plan_docs(_read_docs(workspace), fact, tokens)
        rewrites = dict(docs)
        journal = plan_journal(_read_journal(workspace.root / JOURNAL_NAME), tokens,
                               fact.content)
        if journal:
            rewrites[JOURNAL_NAME] = journal
        rewrites.update(_plan_other_files(workspace, set(rewrites), tokens))
        vectors = VectorStore(workspace.cache_dir / "vectors")
        derived = _derived_places(workspace, vectors.drop(dropped_texts, dry_run=True))
        plan = planned(fact, tokens, rewrites, docs, derived, dry_run=dry_run)
        if dry_run:
            return plan
        for rel, rewrite in rewrites.items():
            _write(workspace.root / rel, rewrite, rel)
        ledger.append([purge_record(fact)], ts=ts, locked=True)
        _refold(ledger)
        vectors.drop(dropped_texts)
        for place in derived:
            if place.action == "delete":
                with contextlib.suppress(FileNotFoundError):
                    remove(workspace.root / place.path)
    return plan


# -- the plan, decided from bytes (local memfold reads them from disk; the server from a
# bank's rows: memfold.server.pgpurge) -----------------------------------------------------


def planned(fact: Fact, tokens: Sequence[str], rewrites: Mapping[str, Rewrite],
            docs: Iterable[str], derived: Sequence[PurgePlace], *, dry_run: bool) -> PurgePlan:
    """The plan of these rewrites and derived places (MemfoldError when no bullet of the
    fact is found to remove: its file changed since it was indexed)."""
    places = [p for rw in rewrites.values() for p in rw.places] + list(derived)
    if not any(p.action == "remove" for p in places):
        raise MemfoldError(f"{fact.path} changed since it was indexed; run `memfold "
                           "index` and forget again")
    return PurgePlan(fact.id, dry_run, len(tokens), tuple(places), tuple(sorted(docs)))


def purge_record(fact: Fact) -> Purge:
    """The journal record of a purge: a SHA-256 of the text, never the text."""
    digest = hashlib.sha256(fact.content.encode("utf-8", "surrogatepass")).hexdigest()
    return Purge(id=fact.id, purged_sha256=digest, sha=content_sha(fact.content))


def secret_tokens(fact: Fact) -> list[str]:
    """The secret tokens in the fact's text, longest first."""
    return sorted({fact.content[m.start:m.end] for m in find_secrets(fact.content)},
                  key=len, reverse=True)


def the_fact(backend: FactSource, fact_id: str) -> Fact:
    """The fact to purge (UnknownId for no fact, or a text chunk)."""
    found = backend.by_id(fact_id)
    if not found:
        raise UnknownId(f"no fact with id {fact_id!r}; `memfold recall` finds ids")
    fact = found[0].fact
    if fact.kind == "text":
        raise UnknownId(f"{fact_id!r} is a text chunk, not a fact; edit {fact.path} by hand")
    return fact


def _read_docs(workspace: Workspace) -> dict[str, bytes]:
    """Every Markdown file memfold reads, as its bytes."""
    found = {}
    for rel in sorted(workspace.scan().found):
        with contextlib.suppress(OSError):
            found[rel] = (workspace.root / rel).read_bytes()
    return found


def plan_docs(files: Mapping[str, bytes], fact: Fact,
              tokens: Sequence[str]) -> tuple[dict[str, Rewrite], list[str]]:
    """Of these Markdown files (path -> bytes), every one that holds a copy, rewritten; and
    the texts whose vectors go (removed bullets, and texts that held a token)."""
    parsed = {rel: (data, parse_document(rel, data)) for rel, data in sorted(files.items())}
    removed: dict[str, set[int]] = {}
    texts: list[str] = []
    for rel, (_data, doc) in parsed.items():
        for f in doc.facts:
            if f.kind != "text" and (f.id == fact.id or f.content == fact.content):
                removed.setdefault(rel, set()).update(range(f.line, f.end_line + 1))
                texts.append(f.content)
            elif any(t in f.content for t in tokens):
                texts.append(f.content)
    cited = {(rel, n) for rel, lines in removed.items() for n in lines}
    rewrites = {}
    for rel, (data, doc) in parsed.items():
        summaries = {c.line for c in doc.citations if (c.source, c.source_line) in cited}
        rewrite = _rewrite_lines(rel, data, removed.get(rel, set()), summaries, tokens)
        if rewrite:
            rewrites[rel] = rewrite
    return rewrites, texts


def _rewrite_lines(rel: str, data: bytes, bullets: set[int], summaries: set[int],
                   tokens: Sequence[str]) -> Rewrite | None:
    """Drop the given lines and redact the tokens on the others; None if nothing changes."""
    edit = remove_lines(data, bullets | summaries, tokens, MARKER)
    places = [PurgePlace(rel, n, "remove", "bullet removed" if n in bullets
                         else "summary line citing it removed") for n in edit.removed]
    places += [PurgePlace(rel, n, "redact", f"{count} secret token(s) -> {MARKER}")
               for n, count in edit.redacted]
    places.sort(key=lambda p: p.line or 0)
    return Rewrite(data, edit.after, places) if places else None


def _redact_bytes(data: bytes, tokens: Iterable[str]) -> tuple[bytes, int]:
    return redact_bytes(data, tokens, MARKER)


def _redact_text(value: Any, tokens: Sequence[str], content: str) -> Any:
    """A JSON value with every token, and the fact's whole text, replaced by the marker."""
    if isinstance(value, str):
        for needle in (*tokens, content):
            value = value.replace(needle, MARKER) if needle else value
        return value
    if isinstance(value, list):
        return [_redact_text(v, tokens, content) for v in value]
    if isinstance(value, dict):
        return {k: _redact_text(v, tokens, content) for k, v in value.items()}
    return value


def _read_journal(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def plan_journal(data: bytes | None, tokens: Sequence[str], content: str) -> Rewrite | None:
    """The journal (its bytes; None: there is none) with the text scrubbed from its events,
    each rewritten event re-hashed and the chain re-linked after it (a line already out of
    chain is left out of chain)."""
    if data is None:
        return None
    if not any(n.encode("utf-8", "surrogatepass") in data for n in (*tokens, content) if n):
        return None
    relinked: dict[str, str] = {}  # old hash -> new hash
    out: list[bytes] = []
    places = []
    for n, raw in enumerate(data.split(b"\n"), 1):
        new, scrubbed = _journal_line(raw, tokens, content, relinked)
        if scrubbed:
            places.append(PurgePlace(JOURNAL_NAME, n, "rewrite",
                                     "text scrubbed from the event; chain re-linked"))
        out.append(new)
    return Rewrite(data, b"\n".join(out), places) if places else None


def _journal_line(raw: bytes, tokens: Sequence[str], content: str,
                  relinked: dict[str, str]) -> tuple[bytes, bool]:
    """One journal line scrubbed (and re-hashed when it or the line before changed);
    whether its text changed."""
    try:
        obj = json.loads(raw)
    except ValueError:
        obj = None
    if not isinstance(obj, dict) or "hash" not in obj:  # blank, torn or foreign: bytes only
        redacted, count = _redact_bytes(raw, (*tokens, content) if content else tokens)
        return redacted, count > 0
    body = {k: v for k, v in obj.items() if k not in ("prev", "hash")}
    scrubbed = _redact_text(body, tokens, content)
    prev = str(obj.get("prev", ""))
    if scrubbed == body and prev not in relinked:
        return raw, False
    prev = relinked.get(prev, prev)
    digest = chain_hash(prev, scrubbed)
    relinked[str(obj["hash"])] = digest
    return json.dumps({**scrubbed, "prev": prev, "hash": digest}, ensure_ascii=False).encode(
        "utf-8", "surrogatepass"), scrubbed != body


def _plan_other_files(workspace: Workspace, planned: set[str],
                      tokens: Sequence[str]) -> dict[str, Rewrite]:
    """Any other file under the workspace holding a token (a note beside the Markdown, a
    stray temporary): redacted in place.  The index, its vectors and the files a purge
    deletes are dealt with as stores, not as text."""
    if not tokens:
        return {}
    stores = {workspace.index_path.name, "vectors", UNDO_SNAPSHOT}
    rewrites = {}
    for top, dirs, names in os.walk(workspace.root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
        here = Path(top)
        in_cache = here == workspace.cache_dir
        for name in sorted(names):
            path = here / name
            rel = path.relative_to(workspace.root).as_posix()
            if rel in planned or path.is_symlink() or (in_cache and any(
                    name.startswith(s) for s in stores)):
                continue
            if here.is_relative_to(workspace.cache_dir / "vectors"):
                continue
            with contextlib.suppress(OSError):
                data = path.read_bytes()
                redacted, count = _redact_bytes(data, tokens)
                if count:
                    rewrites[rel] = Rewrite(data, redacted, [PurgePlace(
                        rel, None, "redact", f"{count} secret token(s) -> {MARKER}")])
    return rewrites


def index_place() -> PurgePlace:
    """The derived index's place in a plan: its rows refolded from the scrubbed journal."""
    layout = Workspace(Path("."))
    cache = layout.cache_dir.relative_to(layout.root).as_posix()
    return PurgePlace(f"{cache}/{layout.index_path.name}", None, "scrub",
                      "rows refolded; full-text index optimized; VACUUM; WAL checkpointed "
                      "and truncated")


def undo_place() -> PurgePlace:
    """Reflect's undo snapshot's place in a plan: deleted (it may hold the text)."""
    layout = Workspace(Path("."))
    cache = layout.cache_dir.relative_to(layout.root).as_posix()
    return PurgePlace(f"{cache}/{UNDO_SNAPSHOT}", None, "delete",
                      "reflect's undo snapshot (may hold the text)")


def vectors_place(count: int) -> PurgePlace:
    """The vectors' place in a plan: `count` vectors of the removed texts dropped."""
    layout = Workspace(Path("."))
    cache = layout.cache_dir.relative_to(layout.root).as_posix()
    return PurgePlace(f"{cache}/vectors", None, "scrub", f"{count} vector(s) dropped")


def _derived_places(workspace: Workspace, vectors: int) -> list[PurgePlace]:
    cache = workspace.cache_dir.relative_to(workspace.root).as_posix()
    places = [index_place(), *([vectors_place(vectors)] if vectors else [])]
    if (workspace.cache_dir / UNDO_SNAPSHOT).exists():
        places.append(undo_place())
    damaged = f"{workspace.index_path.name}.damaged"
    if (workspace.cache_dir / damaged).exists():
        places.append(PurgePlace(f"{cache}/{damaged}", None, "delete",
                                 "a moved-aside old index"))
    return places


def _write(path: Path, rewrite: Rewrite, rel: str) -> None:
    """Compare-and-set: replace the file only while it holds the bytes planned from."""
    try:
        current = path.read_bytes()
    except FileNotFoundError:
        current = None
    if current != rewrite.before:
        raise MemfoldError(f"{rel} changed while the purge was planned; nothing more was "
                           "changed — run `memfold forget --purge` again")
    replace_atomically(path, rewrite.after)


def _refold(ledger: Ledger) -> None:
    """Refold the whole (possibly rewritten) journal into the index, so no event row or
    note there keeps text the journal no longer holds."""
    result = ledger.journal.read(0)
    ledger.backend.apply_events(result.events,
                                (result.offset, result.last_hash, result.last_seq),
                                reset=True)
