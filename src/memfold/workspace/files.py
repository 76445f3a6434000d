"""Safe file writes: the only code in memfold that changes a Markdown file.

Two ways to write, each crash-safe on its own terms:

- `append_durably` adds bytes to the end of a file (open with O_APPEND, write everything,
  fsync; fsync the directory when the file is new).  Daily logs only ever grow this way: the
  bytes before a write are a prefix of the bytes after it.
- `replace_atomically` rewrites a whole file: a unique temporary file in the same directory,
  fsync, `os.replace`, fsync the directory.  A reader sees the old bytes or the new, never a mix.
- `replace_set` rewrites several files as one set: every new file staged and made durable
  first, then an intent record (which temporary becomes which file), then the renames; a set
  interrupted after its intent is durable is finished by `finish_set` (rolled forward), one
  interrupted before it leaves every file as it was.

`recording()` collects, for the thread that opens it, every path written, appended to or
removed through this module while it is open: the server learns what a verb changed without
scanning the workspace (memfold.server.banks).  `remove` is how memfold deletes a Markdown
file, so that deletions are recorded too.

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
import hashlib
import json
import os
import re
import secrets
import stat
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from memfold.errors import IncompleteSet, MemfoldError, StorageError

O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_recorded = threading.local()  # .paths: the set `recording` fills on this thread, or absent


@contextlib.contextmanager
def recording() -> Iterator[set[Path]]:
    """The paths this thread writes, appends to or removes through this module while the
    block runs (nested blocks each see every path)."""
    outer: set[Path] | None = getattr(_recorded, "paths", None)
    paths: set[Path] = set()
    _recorded.paths = paths
    try:
        yield paths
    finally:
        _recorded.paths = outer
        if outer is not None:
            outer.update(paths)


def _record(path: Path) -> None:
    paths: set[Path] | None = getattr(_recorded, "paths", None)
    if paths is not None:
        paths.add(path)


def remove(path: Path, *, missing_ok: bool = False) -> None:
    """Delete a Markdown file (recorded, see `recording`)."""
    _record(path)
    path.unlink(missing_ok=missing_ok)


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
    _record(path)
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
    created = not os.path.lexists(path)
    _record(path)
    temp = write_temporary(path, data)
    try:
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


# -- a set of files replaced together ------------------------------------------------------

SetFile = tuple[str, bytes | None, bytes]  # (path relative to the root, bytes before, after)


def write_temporary(path: Path, data: bytes) -> Path:
    """`data` in a new hidden temporary file beside `path`, fsynced; named like
    `replace_atomically`'s, so one a killed writer never committed is a stray temporary."""
    temp = path.parent / f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
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
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, OSError):
            raise _storage_error(exc, path) from exc
        raise
    return temp


def _digest(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def replace_set(root: Path, intent: Path, files: Sequence[SetFile]) -> None:
    """Replace the files under `root` so that a crash leaves all the old bytes or, once the
    next `finish_set` has run, all the new ones: `stage_set`, then `commit_set`.  The caller
    holds the write lock and has checked the files still hold their `before` bytes."""
    commit_set(root, intent, stage_set(root, files))


Staged = list[dict[str, str | None]]  # intent entries: path, temp, before and after sha256


def stage_set(root: Path, files: Sequence[SetFile]) -> Staged:
    """Write every new file to a temporary beside its target and make it durable (the file
    and its directory), changing no target; on failure remove what was staged."""
    staged: Staged = []
    try:
        for rel, before, after in files:
            temp = write_temporary(root / rel, after)
            staged.append({"path": rel, "temp": temp.name, "before": _digest(before),
                           "after": _digest(after)})
        for directory in sorted({(root / str(e["path"])).parent for e in staged}):
            fsync_dir(directory)
    except BaseException as exc:
        discard_set(root, staged)
        if isinstance(exc, OSError):
            raise _storage_error(exc, root) from exc
        raise
    return staged


def discard_set(root: Path, staged: Staged) -> None:
    """Remove a staged set's temporaries (a set given up before its commit)."""
    for entry in staged:
        with contextlib.suppress(OSError):
            os.unlink((root / str(entry["path"])).parent / str(entry["temp"]))


def commit_set(root: Path, intent: Path, staged: Staged) -> None:
    """Make `intent` — which temporary replaces which file — durable (the commit point), rename
    every temporary in place, then remove `intent`.  A failure before the commit point
    discards the set and changes no file; one after it raises `IncompleteSet` and leaves
    `intent` for `finish_set`."""
    try:
        replace_atomically(intent, json.dumps({"version": 1, "files": staged},
                                              indent=1).encode())
    except BaseException:
        discard_set(root, staged)
        raise
    _roll_forward(root, intent, staged)


def _roll_forward(root: Path, intent: Path, entries: Sequence[dict[str, str | None]]) -> None:
    """Rename every staged temporary that is still there into place, make the renames
    durable, then drop the intent."""
    target = intent
    try:
        for entry in entries:
            target = root / str(entry["path"])
            temp = target.parent / str(entry["temp"])
            _record(target)
            if os.path.lexists(temp):
                os.replace(temp, target)
        for directory in sorted({(root / str(e["path"])).parent for e in entries}):
            target = directory
            fsync_dir(directory)
        target = intent
        os.unlink(intent)
        fsync_dir(intent.parent)
    except OSError as exc:
        raise IncompleteSet(exc.errno or 0, exc.strerror or str(exc), str(target)) from exc


def finish_set(root: Path, intent: Path) -> list[str]:
    """Complete a set `replace_set` committed but did not finish (its writer was killed or
    failed mid-rename): rename the staged temporaries that hold the new bytes in place and
    remove `intent`.  A file changed by hand since it was staged keeps that edit.  Returns
    the files renamed now; the caller holds the write lock.  No intent: nothing to do."""
    try:
        record = json.loads(intent.read_bytes())
        entries = [e for e in record["files"] if _safe_entry(e)]
    except FileNotFoundError:
        return []
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise MemfoldError(f"{intent} is unreadable ({exc}); remove it to go on (the pages "
                           "it names may be a mix of two reflect runs)") from None
    ready = []
    for entry in entries:
        target = root / entry["path"]
        temp = target.parent / entry["temp"]
        current = target.read_bytes() if target.is_file() else None
        staged = temp.read_bytes() if temp.is_file() else None
        if staged is not None and _digest(staged) == entry["after"] and (
                _digest(current) in (entry["before"], entry["after"])):
            ready.append(entry)
        elif staged is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)  # damaged, or the file was edited by hand since: keep it
    _roll_forward(root, intent, ready)
    return [str(e["path"]) for e in ready]


def _safe_entry(entry: dict[str, object]) -> bool:
    """An intent entry that names a file below the root and a temporary beside it."""
    rel, temp = str(entry["path"]), str(entry["temp"])
    parts = Path(rel).parts
    return (bool(parts) and not Path(rel).is_absolute() and ".." not in parts
            and STRAY_TEMP.fullmatch(temp) is not None)


class WriteLock:
    """An exclusive advisory lock on a sidecar file, held by one writer at a time.

    The lock file also records the append in flight (`HeldLock.intend_append`): after a
    power loss in the middle of one, the next holder finds it and cuts the torn tail off
    (`HeldLock.recovered` says so), so half a bullet never becomes a fact."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def pending(self) -> bool:
        """An append's record is in the lock file: a writer is appending now, or one was
        interrupted (taking the lock finishes its recovery)."""
        try:
            return self.path.stat().st_size > 0
        except OSError:
            return False

    @contextlib.contextmanager
    def held(self) -> Iterator[HeldLock]:
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
            yield HeldLock(fd)
        finally:
            os.close(fd)  # closing the descriptor releases the lock


class HeldLock:
    """The write lock while held: records an append in flight, and on taking the lock
    finishes one that a crash interrupted (`recovered`: what it did, or None)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.recovered = self._recover()

    def intend_append(self, path: Path, offset: int, data: bytes) -> None:
        """Record, durably, that `data` is about to be appended to `path` at `offset`."""
        record = json.dumps({"append": str(path), "offset": offset,
                             "data": data.decode("utf-8", "surrogateescape")},
                            ensure_ascii=True).encode() + b"\n"
        try:
            os.ftruncate(self.fd, 0)
            os.lseek(self.fd, 0, os.SEEK_SET)
            _write_all(self.fd, record)
            os.fsync(self.fd)
        except OSError as exc:
            raise _storage_error(exc, path) from exc

    def appended(self) -> None:
        """The append is durable: forget its record.  Not synced — a record that survives
        a crash names bytes that are whole, and recovery leaves whole bytes alone."""
        with contextlib.suppress(OSError):
            os.ftruncate(self.fd, 0)

    def _recover(self) -> str | None:
        try:  # the common case: an empty file, one fstat (pread would allocate its length)
            size = os.fstat(self.fd).st_size
            raw = os.pread(self.fd, size, 0) if size else b""
        except OSError:
            return None
        if not raw:
            return None
        found = _append_record(raw)
        message = cut_torn_append(*found) if found else None
        self.appended()
        with contextlib.suppress(OSError):
            os.fsync(self.fd)
        return message


def _append_record(raw: bytes) -> tuple[Path, int, bytes] | None:
    """(path, offset, data) of the append a lock file records; None for a record cut short
    (its append had not begun: the record is made durable first)."""
    line, newline, _ = raw.partition(b"\n")
    try:
        record = json.loads(line) if newline else None
        if record is None:
            return None
        return (Path(record["append"]), int(record["offset"]),
                str(record["data"]).encode("utf-8", "surrogateescape"))
    except (ValueError, KeyError, TypeError):
        return None


def cut_torn_append(path: Path, offset: int, data: bytes) -> str | None:
    """Cut `path` back to `offset` if what follows it there is a torn copy of `data` (a
    prefix of it, or the same length with unsynced blocks read as zeros); whole bytes, and
    bytes changed since by someone else, are left as they are.  Returns what it did."""
    try:
        fd = os.open(path, os.O_RDWR | O_NOFOLLOW)
    except OSError:
        return None  # gone, or never created (a new file is written by rename, never torn)
    try:
        size = os.fstat(fd).st_size
        tail = os.pread(fd, len(data) + 1, offset) if size > offset else b""
        torn = 0 < len(tail) <= len(data) and tail != data and all(
            t in (d, 0) for t, d in zip(tail, data, strict=False))
        if not torn:
            return None
        os.ftruncate(fd, offset)
        os.fsync(fd)
    except OSError:
        return None
    finally:
        os.close(fd)
    return (f"{path.parent.name}/{path.name}: cut off {len(tail)} bytes at its end, half "
            "of an append that a crash interrupted before it was acknowledged")
