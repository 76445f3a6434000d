"""Safe file writes: the only code in memfold that changes a Markdown file.

Two ways to write, each crash-safe on its own terms:

- `append_durably` adds bytes to the end of a file (open with O_APPEND, write everything,
  fsync; fsync the directory when the file is new).  Daily logs only ever grow this way: the
  bytes before a write are a prefix of the bytes after it.
- `replace_atomically` rewrites a whole file: a unique temporary file in the same directory,
  fsync, `os.replace`, fsync the directory.  A reader sees the old bytes or the new, never a mix.

Writers that read a file and then change it hold `WriteLock` (an flock on a sidecar lock file
under `.memory/`), so two processes never interleave their read-modify-write cycles.

A write that fails raises `StorageError` (a MemfoldError, and an OSError for callers that
catch those) and leaves the file as it was: a failed append is cut back to the file's length
before it (a disk filling up mid-record would otherwise leave half a bullet or half a journal
line, which the next append would then bury mid-file), and a file created by a replace whose
directory fsync failed is removed again.  Callers hold the write lock, so nobody else appends
in between.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import secrets
import stat
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

# StorageError lives with the other errors; imported here for the writers below and so that
# `from memfold.workspace.files import StorageError` keeps working.
from ..errors import StorageError

O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def _created_then_failed(exc: OSError, path: Path, created: bool) -> StorageError:
    """The error for a write that failed after it may have made `path`: a file this call
    created is removed again, so a failed call leaves nothing behind."""
    if created:
        with contextlib.suppress(OSError):
            os.unlink(path)
    return _storage_error(exc, path)


def _storage_error(exc: OSError, path: Path) -> StorageError:
    if isinstance(exc, StorageError):
        return exc
    return StorageError(exc.errno or 0, exc.strerror or str(exc), str(path))


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

    On failure the file is cut back to its length before the append (a new file removed),
    so a failed append stores nothing.  Symlinks are not followed: memfold never writes
    outside its workspace through one.
    """
    created = not os.path.lexists(path)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | O_NOFOLLOW, 0o644)
    except OSError as exc:
        raise _storage_error(exc, path) from exc
    try:
        try:
            size = os.fstat(fd).st_size
            try:
                _write_all(fd, data)
                os.fsync(fd)
            except OSError:
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, size)
                    os.fsync(fd)
                raise
        finally:
            os.close(fd)
        if created:
            fsync_dir(path.parent)
    except OSError as exc:
        raise _created_then_failed(exc, path, created) from exc


STRAY_TEMP = re.compile(r"\..+\.(\d+)\.[0-9a-f]{8}\.tmp")  # replace_atomically's names
STRAY_AGE_S = 600  # a temporary file younger than this may still be renamed into place


def remove_stray_temporaries(paths: Iterable[Path], *, now: float | None = None) -> list[Path]:
    """Of these hidden `*.tmp` files, remove the ones `replace_atomically` made for a writer
    that was killed: named like ours, regular files, older than STRAY_AGE_S, their writer's
    pid no longer running.  Returns the files removed."""
    now = time.time() if now is None else now
    removed: list[Path] = []
    for path in paths:
        match = STRAY_TEMP.fullmatch(path.name)
        try:
            st = path.lstat()
        except OSError:
            continue
        if (match is None or not stat.S_ISREG(st.st_mode) or now - st.st_mtime < STRAY_AGE_S
                or _running(int(match.group(1)))):
            continue
        with contextlib.suppress(OSError):
            path.unlink()
            removed.append(path)
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # someone else's process, or not a pid we can ask about: keep the file
    return True


def replace_atomically(path: Path, data: bytes) -> None:
    """Replace `path` with `data` so that any crash leaves the old or the new content.

    When the directory fsync after the rename fails, a file this call created is removed
    again; an existing file keeps its new, whole content (old-or-new still holds).
    """
    temp = path.parent / f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    created = not os.path.lexists(path)
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | O_NOFOLLOW, 0o644)
    except OSError as exc:
        raise _storage_error(exc, path) from exc
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            temp.unlink()
        if isinstance(exc, OSError):
            raise _storage_error(exc, path) from exc
        raise
    try:
        fsync_dir(path.parent)
    except OSError as exc:
        raise _created_then_failed(exc, path, created) from exc


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
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | O_NOFOLLOW, 0o644)
        except OSError as exc:
            raise _storage_error(exc, self.path) from exc
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
            except OSError as exc:
                raise _storage_error(exc, self.path) from exc
            yield
        finally:
            os.close(fd)  # closing the descriptor releases the lock
