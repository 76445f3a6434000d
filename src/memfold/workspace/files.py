"""Safe file writes: the only code in memfold that changes a Markdown file.

Two ways to write, each crash-safe on its own terms:

- `append_durably` adds bytes to the end of a file (open with O_APPEND, write everything,
  fsync; fsync the directory when the file is new).  Daily logs only ever grow this way: the
  bytes before a write are a prefix of the bytes after it.
- `replace_atomically` rewrites a whole file: a unique temporary file in the same directory,
  fsync, `os.replace`, fsync the directory.  A reader sees the old bytes or the new, never a mix.

Writers that read a file and then change it hold `WriteLock` (an flock on a sidecar lock file
under `.memory/`), so two processes never interleave their read-modify-write cycles.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
from collections.abc import Iterator
from pathlib import Path

O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def fsync_dir(path: Path) -> None:
    """Make a directory entry (a new or renamed file) durable."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def append_durably(path: Path, data: bytes) -> None:
    """Append `data` to `path` (creating it) and fsync before returning.

    Symlinks are not followed: memfold never writes outside its workspace through one.
    """
    created = not path.exists()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | O_NOFOLLOW, 0o644)
    try:
        _write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    if created:
        fsync_dir(path.parent)


def replace_atomically(path: Path, data: bytes) -> None:
    """Replace `path` with `data` so that any crash leaves the old or the new content."""
    temp = path.parent / f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | O_NOFOLLOW, 0o644)
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    fsync_dir(path.parent)


def create_if_missing(path: Path, data: bytes) -> bool:
    """Write a new file atomically unless one exists; True when it was created."""
    if path.exists() or path.is_symlink():
        return False
    replace_atomically(path, data)
    return True


class WriteLock:
    """An exclusive advisory lock on a sidecar file, held by one writer at a time."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | O_NOFOLLOW, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing the descriptor releases the lock
