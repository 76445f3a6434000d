"""The workspace's Markdown files listed, read and written whole: what a file-shaped agent tool
(the Anthropic memory tool, `memfold.agents.memtool`) does to a memory, done through memfold.

`Memory.files` hands out a `Files`.  Paths are workspace-relative POSIX paths ("" is the
root).  Only the files memfold reads (`memory.md`, `*.md` below `memory/` and `bank/`:
`Workspace.is_tracked`) and the directories holding them can be reached: an absolute path, a
`..`, a hidden part (`.memory/`) or a symlink on the way raises BadInput.

A write takes the file's whole new text and keeps memfold's invariants; nothing is written
when a check refuses:
 - new Retain bullets (a bullet under a Retain heading whose block id the file did not have)
   go through `Memory.retain` — validated, screened for secrets, journaled, judged — into the
   day's log the file is (a daily log), else today's;
 - the rest, prose, is screened for secrets line by line and replaced atomically under the
   write lock, only if the file still holds the text the edit was made from; then the index
   is synced;
 - a fact's bullet may be revised (its block id kept), never removed: removing a fact is
   forget's, which archives it and keeps the line;
 - reflect's generated regions stay memfold's: an edit that changes one is refused.
`delete` and `move` take only prose: a file holding no fact and no generated region.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any, Protocol

from memfold import retain as retain_module
from memfold.errors import BadInput, MemfoldError
from memfold.screening import check_secrets
from memfold.values import RetainResult
from memfold.workspace.files import replace_atomically
from memfold.workspace.format import (
    daily_date,
    decode,
    generated_regions,
    parse_core,
    retain_lines,
    rewrite_block,
    split_lines,
    without_lines,
)
from memfold.workspace.layout import READ_ROOTS, Workspace

__all__ = ["FileEntry", "FileWrite", "Files"]

WHERE = ("memfold keeps memories in memory.md (core memory), memory/YYYY-MM-DD.md (daily logs: "
         "facts as bullets under a '## Retain' heading) and bank/*.md (pages)")


class Verbs(Protocol):
    """What a write calls on the Memory that hands the files out."""

    def retain(self, bullets: str | Sequence[str], *, date: date | str | None = ...,
               source: str | None = ...) -> RetainResult: ...
    def core_append(self, block: str, text: str, *, source: str | None = ...) -> Any: ...
    def core_replace(self, block: str, old: str, new: str, *,
                     source: str | None = ...) -> Any: ...
    def refresh(self) -> Any: ...
    def now(self) -> datetime: ...


@dataclass(frozen=True)
class FileEntry:
    """A file or directory of the workspace (a directory's path ends with `/`)."""

    path: str
    size: int
    directory: bool


@dataclass(frozen=True)
class FileWrite:
    """What a write did: the file's text now, and the new facts it sent through retain."""

    path: str
    text: str
    retained: tuple[str, ...] = ()  # the ids of the new facts
    retained_to: str | None = None  # the day's log they were appended to


@dataclass(frozen=True)
class _Plan:
    prose: str
    bullets: tuple[str, ...]
    day: date


class Files:
    """The Markdown files of one workspace, for tools that see memory as files."""

    def __init__(self, workspace: Workspace, verbs: Verbs) -> None:
        self.workspace = workspace
        self._verbs = verbs

    # -- paths ---------------------------------------------------------------------------

    def locate(self, path: str) -> Path:
        """The absolute path of a workspace path memfold may reach, or BadInput."""
        parts = [p for p in path.split("/") if p]
        if path.startswith("/") or "\\" in path or ".." in parts:
            raise BadInput(f"{path!r}: give a path inside the workspace, without '..'")
        if any(p.startswith(".") for p in parts):
            raise BadInput(f"{path!r}: hidden files and directories (.memory/) are memfold's own")
        if parts and not (parts[0] in READ_ROOTS or parts == ["memory.md"]):
            raise BadInput(f"{path!r} is not a memory file: {WHERE}")
        current = self.workspace.root
        for part in parts:
            current = current / part
            if current.is_symlink():
                raise BadInput(f"{path!r} goes through a symlink; memfold does not read or "
                               "write through symlinks")
        return current

    def _file(self, path: str) -> Path:
        full = self.locate(path)
        if not self.workspace.is_tracked(_clean(path)):
            raise BadInput(f"{path!r} is not a memory file (a Markdown file, *.md): {WHERE}")
        return full

    # -- reading -------------------------------------------------------------------------

    def entries(self, path: str = "", *, depth: int = 2) -> list[FileEntry]:
        """The directories and memory files below `path`, `depth` levels deep, sorted;
        hidden entries, symlinks and files memfold does not read are left out."""
        found: list[FileEntry] = []
        self._walk(self.locate(path), path.strip("/"), depth, found)
        return found

    def _walk(self, directory: Path, rel: str, depth: int, found: list[FileEntry]) -> None:
        if depth < 1:
            return
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            child = f"{rel}/{entry.name}" if rel else entry.name
            if entry.name.startswith(".") or entry.is_symlink():
                continue
            if entry.is_dir() and (rel or entry.name in READ_ROOTS):
                found.append(FileEntry(child + "/", entry.stat().st_size, True))
                self._walk(Path(entry.path), child, depth - 1, found)
            elif entry.is_file() and self.workspace.is_tracked(child):
                found.append(FileEntry(child, entry.stat().st_size, False))

    def is_dir(self, path: str) -> bool:
        """Whether `path` is a directory (BadInput for a path memfold may not reach)."""
        try:
            return stat.S_ISDIR(self.locate(path).lstat().st_mode)
        except FileNotFoundError:
            return False

    def read(self, path: str) -> str | None:
        """The text of a memory file, or None when there is none."""
        try:
            return decode(self._file(path).read_bytes())[0]
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
            return None

    # -- writing -------------------------------------------------------------------------

    def write(self, path: str, text: str, *, expect: str | None,
              source: str | None = None) -> FileWrite:
        """Make `text` the file's content, through memfold (see the module docstring).
        `expect` is the text the edit was made from (None: the file must not exist yet);
        if the file moved on meanwhile, MemfoldError and nothing is written."""
        full, rel = self._file(path), _clean(path)
        plan = self._plan(rel, expect or "", text)
        if plan.bullets:  # all of them valid, or nothing is written
            retain_module.prepare(plan.bullets, date=plan.day, clock=self._verbs.now,
                                  origin=source or "api")
        elif rel == "memory.md" and self._core_edit(expect or "", text, source):
            return FileWrite(rel, self.read(rel) or "")
        if plan.prose != (expect or "") or expect is None:
            self._replace(full, rel, plan.prose, expect)
            self._verbs.refresh()
        if not plan.bullets:
            return FileWrite(rel, plan.prose)
        result = self._verbs.retain(list(plan.bullets), date=plan.day, source=source)
        return FileWrite(rel, self.read(rel) or "", tuple(f.id for f in result.facts),
                         result.path)

    def _plan(self, rel: str, before: str, after: str) -> _Plan:
        if generated_regions(before) != generated_regions(after):
            raise BadInput(f"{rel}: the lines inside a generated region are "
                           "written by reflect; edit outside it")
        old, new = retain_lines(before), retain_lines(after)
        kept_ids = {ln.block_id for ln in new if ln.block_id}
        texts = {ln.text for ln in new}
        for line in old:
            if line.bullet and line.text not in texts and line.block_id not in kept_ids:
                raise BadInput(f"{rel}: the fact on line {line.number} ({line.text[:60]}) "
                               "would be removed; memfold keeps facts — edit its text and keep "
                               "its ^id to correct it")
        known = {ln.block_id for ln in old if ln.block_id} | {ln.text for ln in old}
        added = [ln for ln in new if ln.bullet and ln.text not in known
                 and (ln.block_id is None or ln.block_id not in known)]
        before_lines = set(split_lines(before))
        for number, text in enumerate(split_lines(after), 1):
            if text not in before_lines:
                check_secrets(text, f"{rel} line {number}", allow=False)
        day = daily_date(rel)
        return _Plan(without_lines(after, {ln.number for ln in added}),
                     tuple(ln.text for ln in added), day or self._verbs.now().date())

    def _core_edit(self, before: str, after: str, source: str | None) -> bool:
        """An edit of memory.md that changes one core block's text and nothing else (blank
        lines aside) goes through core_replace or core_append: journaled, its limit checked.
        False when the edit is of another shape (then it is written as prose)."""
        old, new = parse_core(before.encode()), parse_core(after.encode())
        spans = {span.name: span for span in old.spans}
        texts = {span.name: new.text(span)[0] for span in new.spans}
        changed = [name for name, text in texts.items()
                   if name not in spans or old.text(spans[name])[0] != text]
        if len(changed) != 1 or not set(spans) <= set(texts) or old.open_fence:
            return False
        name = changed[0]
        span = spans.get(name)
        result = rewrite_block(old, span, name, texts[name]).decode()
        if _solid(result) != _solid(after):
            return False
        if span is not None and old.text(span)[0]:
            self._verbs.core_replace(name, old.text(span)[0], texts[name], source=source)
        else:
            self._verbs.core_append(name, texts[name], source=source)
        return True

    def _replace(self, full: Path, rel: str, text: str, expect: str | None) -> None:
        self.workspace.require_real_dir(full.parent)
        full.parent.mkdir(parents=True, exist_ok=True)
        with self.workspace.write_lock.held():
            if self.read(rel) != expect:
                raise MemfoldError(f"{rel} changed while it was edited; view it again and "
                                   "redo the edit")
            replace_atomically(full, text.encode())

    def delete(self, path: str) -> list[str]:
        """Remove a file, or a directory, holding prose only (no fact, no generated region,
        nothing memfold does not read); returns the files removed."""
        full, rel = self.locate(path), _clean(path)
        if not rel or rel in READ_ROOTS or rel == "bank/entities":
            raise BadInput(f"/{rel} is one of the workspace's own directories")
        if not full.is_dir():
            self._only_prose(rel, "deleted")
            with self.workspace.write_lock.held():
                self._file(rel).unlink()
            self._verbs.refresh()
            return [rel]
        inside = [f"{rel}/{Path(top, name).relative_to(full).as_posix()}"
                  for top, _, names in os.walk(full) for name in names]
        for name in inside:
            self._file(name)
            self._only_prose(name, "deleted")
        with self.workspace.write_lock.held():
            for top, _, names in os.walk(full, topdown=False):
                for name in names:
                    os.unlink(Path(top, name))
                os.rmdir(top)
        self._verbs.refresh()
        return inside

    def move(self, old: str, new: str) -> None:
        """Rename a file holding prose only to a new memory file's path."""
        source, target = self._file(old), self._file(new)
        if target.exists() or target.is_symlink():
            raise BadInput(f"{new} already exists")
        self._only_prose(_clean(old), "renamed")
        self.workspace.require_real_dir(target.parent)
        target.parent.mkdir(parents=True, exist_ok=True)
        with self.workspace.write_lock.held():
            os.rename(source, target)
        self._verbs.refresh()

    def _only_prose(self, rel: str, verb: str) -> None:
        text = self.read(rel)
        if text is None:
            raise BadInput(f"{rel} does not exist")
        if any(ln.bullet for ln in retain_lines(text)) or generated_regions(text):
            raise BadInput(f"{rel} holds facts (Retain bullets) or lines reflect wrote, so it "
                           f"is not {verb}; memfold keeps facts — correct them by editing "
                           "their text")


def _clean(path: str) -> str:
    """A workspace path without empty parts (`bank//a.md/` is `bank/a.md`)."""
    return "/".join(part for part in path.split("/") if part)


def _solid(text: str) -> list[str]:
    """The lines of a text that are not blank."""
    return [line for line in split_lines(text) if line.strip()]
