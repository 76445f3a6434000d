"""The workspace on disk: where each kind of file lives, and which files memfold reads.

    memory.md                 core memory, always in context
    memory/YYYY-MM-DD.md      daily logs (append-only for memfold)
    bank/world.md, bank/experience.md, bank/opinions.md
    bank/entities/<Slug>.md   one page per entity
    .memory/index.sqlite      the derived index: a cache, rebuilt from the files above

memfold reads `memory.md` and every `*.md` below `memory/` and `bank/`.  It skips hidden
files and directories, editor temporaries (`*~`, `*.swp`, `.#*`, `#*#`, `*.tmp`) and symlinks:
a link could point outside the workspace, so it is reported, never followed.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterable, Mapping
from datetime import date
from pathlib import Path
from typing import NamedTuple

from memfold.errors import WorkspaceError
from memfold.workspace.files import WriteLock, create_if_missing

# Templates hold headings and HTML comments only, so a fresh workspace adds no text that
# recall could return.
CORE_TEMPLATE = """---
limits: {Persona: 1000, Human: 1000, Project: 2000}
---
# Core memory

<!-- Small, durable facts and preferences an agent should see in every session. -->
<!-- Each `## Block` is a core block; `limits` above caps its length in characters. -->

## Persona

## Human

## Project
"""

BANK_TEMPLATES = {
    "world.md": "# World\n\n<!-- Objective facts about the world. -->\n",
    "experience.md": "# Experience\n\n<!-- What the agent and its people did. -->\n",
    "opinions.md": "# Opinions\n\n<!-- Preferences and judgments, with confidence. -->\n",
}

GITIGNORE = "# memfold's derived index, rebuilt by `memfold index --full`\n.memory/\n"

READ_ROOTS = ("memory", "bank")
# a scan opens each directory and stats its files relative to it, where the platform can
FD_SCAN = os.scandir in os.supports_fd and os.stat in os.supports_dir_fd
DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
_GONE = (FileNotFoundError, NotADirectoryError, PermissionError)


# a committed reflect page set still being renamed into place (memfold.reflect.plan writes it;
# Memory finishes it on open, with one lstat and no import of reflect)
REFLECT_INTENT = "bank/.reflect-pending.json"

class Stat(NamedTuple):
    """A file's size and modification time, as `stat_some` gives it (a scan gives the same
    two numbers as a plain tuple)."""

    size: int
    mtime_ns: int


def is_ignored_name(name: str) -> bool:
    """Not a Markdown file memfold reads: only `*.md`, and not hidden (`.x.md`, our own
    `.x.md.<pid>.tmp`) or an editor's lock (`.#x.md`, `#x.md#`).  Editor backups and swap
    files (`x.md~`, `.x.md.swp`) do not end in `.md` at all."""
    return not name.endswith(".md") or name[0] in ".#"


class Scan(NamedTuple):
    # workspace-relative path -> (size, mtime_ns), for every file memfold reads: plain tuples,
    # as a scan makes one per file and a Stat costs ten times a tuple to make
    found: Mapping[str, tuple[int, int]]
    skipped: list[str]  # symlinks, never followed
    temporaries: list[str]  # hidden *.tmp files below memory/ and bank/


def daily_path(day: date) -> str:
    """The daily log of `day`, relative to the workspace."""
    return f"memory/{day.isoformat()}.md"


class Workspace:
    """A memfold workspace directory and the paths inside it."""

    def __init__(self, root: Path) -> None:
        self.root = root.expanduser().absolute()

    @property
    def cache_dir(self) -> Path:
        return self.root / ".memory"

    @property
    def index_path(self) -> Path:
        return self.cache_dir / "index.sqlite"

    @property
    def write_lock(self) -> WriteLock:
        return WriteLock(self.cache_dir / "write.lock")

    def daily_path(self, day: date) -> str:
        return daily_path(day)

    def abspath(self, rel: str) -> Path:
        return self.root / rel

    def exists(self) -> bool:
        return self.root.is_dir() and any(
            (self.root / name).exists() for name in ("memory.md", "memory", "bank")
        )

    def require(self) -> None:
        if not self.exists():
            hint = f"create one with `memfold init {self.root}`"
            with contextlib.suppress(OSError):  # the working directory may be gone
                if (here := Path.cwd()) != self.root and Workspace(here).exists():
                    hint = ("the current directory is one: choose it with `--workspace .` or "
                            f"MEMFOLD_WORKSPACE={here}")
            raise WorkspaceError(f"no memfold workspace at {self.root}; {hint}")

    def require_real_dir(self, directory: Path) -> None:
        """Refuse to write through a symlinked directory inside the workspace."""
        current = directory
        while current != self.root and self.root in current.parents:
            if current.is_symlink():
                rel = current.relative_to(self.root).as_posix()
                raise WorkspaceError(f"{rel}/ is a symlink; memfold does not read or write "
                                     "through symlinks inside the workspace")
            current = current.parent

    def init(self) -> list[str]:
        """Create the skeleton; never overwrite a file. Returns what was created."""
        if self.root.exists() and not self.root.is_dir():
            raise WorkspaceError(f"{self.root} exists and is not a directory")
        created: list[str] = []
        for rel in ("", "memory", "bank", "bank/entities", ".memory"):
            directory = self.root / rel
            if not directory.is_dir():
                directory.mkdir(parents=True, exist_ok=True)
                created.append(rel + "/" if rel else str(self.root))
        files = {"memory.md": CORE_TEMPLATE, ".gitignore": GITIGNORE}
        files.update({f"bank/{name}": text for name, text in BANK_TEMPLATES.items()})
        for rel, text in files.items():
            if create_if_missing(self.root / rel, text.encode()):
                created.append(rel)
        return created

    def scan(self) -> Scan:
        """Every Markdown file memfold reads, with its stamp; the symlinks it skipped; and
        the hidden `*.tmp` files it passed (an interrupted atomic write may leave one)."""
        found: dict[str, tuple[int, int]] = {}
        skipped: list[str] = []
        temporaries: list[str] = []
        core = self.root / "memory.md"
        try:
            st = core.lstat()
            if core.is_symlink():
                skipped.append("memory.md")
            else:
                found["memory.md"] = (st.st_size, st.st_mtime_ns)
        except FileNotFoundError:
            pass
        for top in READ_ROOTS:
            if (self.root / top).is_symlink():
                skipped.append(top)
                continue
            self._walk(self.root / top, top, found, skipped, temporaries)
        return Scan(found, skipped, temporaries)

    @staticmethod
    def is_tracked(rel: str) -> bool:
        """Whether memfold reads this workspace-relative path (the rules of `scan`)."""
        parts = rel.split("/")
        if rel == "memory.md":
            return True
        return (len(parts) > 1 and parts[0] in READ_ROOTS and not is_ignored_name(parts[-1])
                and not any(p.startswith(".") for p in parts))

    def stat_some(self, paths: set[str]) -> dict[str, Stat]:
        """Stamps of the given workspace files that exist and are read by memfold."""
        found: dict[str, Stat] = {}
        for rel in paths:
            try:
                st = (self.root / rel).lstat()
            except (FileNotFoundError, NotADirectoryError):
                continue
            if stat.S_ISREG(st.st_mode):  # a regular file, not a link to one
                found[rel] = Stat(st.st_size, st.st_mtime_ns)
        return found

    def _walk(self, directory: Path, rel: str, found: dict[str, tuple[int, int]],
              skipped: list[str], temporaries: list[str], parent: int | None = None) -> None:
        """Scan one directory, then the ones below it.  Each directory is opened once and
        its entries are stat'ed relative to it (`fstatat`), so the kernel does not walk the
        whole path again for every file; a directory swapped for a symlink meanwhile is not
        followed (O_NOFOLLOW)."""
        if not FD_SCAN:
            self._walk_paths(directory, rel, found, skipped, temporaries)
            return
        try:
            fd = os.open(directory.name if parent is not None else directory, DIR_FLAGS,
                         dir_fd=parent)
        except OSError as exc:
            if isinstance(exc, _GONE) or exc.errno == errno.ELOOP:
                return
            raise
        try:
            with os.scandir(fd) as entries:
                subdirs = self._entries(entries, rel, found, skipped, temporaries)
            for name in subdirs:
                self._walk(directory / name, f"{rel}/{name}", found, skipped, temporaries, fd)
        finally:
            os.close(fd)

    @staticmethod
    def _entries(entries: Iterable[os.DirEntry[str]], rel: str,
                 found: dict[str, tuple[int, int]], skipped: list[str],
                 temporaries: list[str]) -> list[str]:
        """Take one directory's files into `found` (and its symlinks and temporaries into
        their lists); returns the directories to scan next."""
        subdirs: list[str] = []
        for entry in entries:
            name = entry.name
            if name[0] == ".":
                if name.endswith(".tmp"):
                    temporaries.append(f"{rel}/{name}")
            elif entry.is_file(follow_symlinks=False):  # a regular file, not a link to one
                if name.endswith(".md") and name[0] != "#":  # not is_ignored_name(name)
                    st = entry.stat(follow_symlinks=False)
                    found[f"{rel}/{name}"] = (st.st_size, st.st_mtime_ns)
            elif entry.is_dir(follow_symlinks=False):
                subdirs.append(name)
            elif entry.is_symlink() and (name.endswith(".md") or entry.is_dir()):
                skipped.append(f"{rel}/{name}")
        return subdirs

    def _walk_paths(self, directory: Path, rel: str, found: dict[str, tuple[int, int]],
                    skipped: list[str], temporaries: list[str]) -> None:
        """`_walk` where the platform cannot scan a directory by descriptor."""
        try:
            with os.scandir(directory) as entries:
                subdirs = self._entries(entries, rel, found, skipped, temporaries)
        except _GONE:
            return
        for name in subdirs:
            self._walk_paths(directory / name, f"{rel}/{name}", found, skipped, temporaries)
