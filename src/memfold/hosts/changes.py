"""What an install or uninstall does to the files on disk: a list of `Change`s planned in
full before any is written (a refusal anywhere writes nothing), then written one by one.

A file that is a symbolic link (a dotfiles checkout) is changed where the link points, and
keeps its permission bits.  Directories memfold created for its own files are removed again
when an uninstall leaves them empty, up to (not including) the home directory.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memfold.errors import MemfoldError
from memfold.workspace.files import replace_atomically

CREATE, UPDATE, DELETE = "create", "update", "delete"


@dataclass(frozen=True)
class Change:
    """One file an install or uninstall creates, updates or deletes, and what it adds to it or
    takes out of it, in a few words."""

    path: Path
    action: str  # create, update or delete
    what: str
    text: str | None = None  # the file's new content (None: deleted)

    def to_dict(self) -> dict[str, Any]:
        return {"file": str(self.path), "action": self.action, "what": self.what}

    def describe(self, *, dry_run: bool = False) -> str:
        verb = (f"would {self.action}" if dry_run else
                {CREATE: "created", UPDATE: "updated", DELETE: "deleted"}[self.action])
        return f"{verb} {self.path}: {self.what}"


def read(path: Path) -> str | None:
    """The file's text, None when there is no file; MemfoldError when it cannot be read."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise MemfoldError(f"{path}: cannot read it ({exc})") from None


def edit(path: Path, before: str | None, after: str, what: str) -> list[Change]:
    """The change from `before` (None: no file) to `after`; none when they are the same."""
    if before == after:
        return []
    return [Change(path, CREATE if before is None else UPDATE, what, after)]


def apply(changes: list[Change], *, home: Path) -> None:
    """Write the planned changes; MemfoldError (exit 1) when the disk refuses one."""
    for change in changes:
        target = Path(os.path.realpath(change.path))
        try:
            if change.text is None:
                target.unlink(missing_ok=True)
                _prune(target.parent, home)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            mode = target.stat().st_mode & 0o7777 if target.exists() else None
            replace_atomically(target, change.text.encode("utf-8"))
            if mode is not None:
                os.chmod(target, mode)
        except OSError as exc:
            raise MemfoldError(f"{change.path}: cannot write it ({exc.strerror or exc})") \
                from None


def _prune(directory: Path, home: Path) -> None:
    """Remove `directory` and its parents while they are empty, stopping at `home`."""
    home = Path(os.path.realpath(home))
    while directory != home and home in directory.parents:
        try:
            directory.rmdir()
        except OSError:  # not empty (or not ours to remove)
            return
        directory = directory.parent
