"""Change notification for long-running processes: which workspace files changed, cheaply.

A one-shot command stats every file to find edits (about 3 µs a file).  A process that
recalls many times — an MCP server, an agent using the library — can instead ask the kernel:
on Linux, `inotify` watches on the workspace's directories report every write, create,
delete and rename, so a recall where nothing changed costs one non-blocking read.

`Watcher.changes()` returns the workspace-relative paths touched since the last call, or
None when it cannot say (no inotify on this platform, a queue overflow, a new directory),
in which case the caller falls back to a full stat scan.  The watcher is armed before that
first scan, so no edit falls between the scan and the watch.

A process that makes every change to a workspace itself (the server's replicas) needs no
kernel: `PathFeed` reports the paths its owner tells it about (`ChangeFeed` is what Memory
asks of either), so a server holds no inotify instance per open bank.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import struct
import sys
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

IN_MODIFY = 0x002
IN_ATTRIB = 0x004
IN_CLOSE_WRITE = 0x008
IN_MOVED_FROM = 0x040
IN_MOVED_TO = 0x080
IN_CREATE = 0x100
IN_DELETE = 0x200
IN_DELETE_SELF = 0x400
IN_MOVE_SELF = 0x800
IN_Q_OVERFLOW = 0x4000
IN_IGNORED = 0x8000
IN_ISDIR = 0x40000000
IN_NONBLOCK = os.O_NONBLOCK
IN_CLOEXEC = os.O_CLOEXEC
MASK = (IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE
        | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)
EVENT = struct.Struct("iIII")
WATCHED_ROOTS = ("memory", "bank")


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.inotify_init1  # noqa: B018 - probe that the symbol exists
        return libc
    except (OSError, AttributeError):
        return None


def _tracked_dir(rel: str) -> bool:
    parts = rel.split("/")
    return parts[0] in WATCHED_ROOTS and not any(p.startswith(".") for p in parts)


class ChangeFeed(Protocol):
    """What a refresh asks of a change feed (`Watcher`, `PathFeed`)."""

    settled: bool
    index_token: tuple[str, int] | None

    def changes(self) -> set[str] | None: ...

    def close(self) -> None: ...


class PathFeed:
    """A change feed its owner fills (`tell`): for a workspace only its owner changes.
    `settled` and `index_token` mean what they mean for `Watcher`."""

    def __init__(self) -> None:
        self.settled = False
        self.index_token: tuple[str, int] | None = None
        self._changed: set[str] = set()
        self._lock = threading.Lock()

    def tell(self, paths: Iterable[str]) -> None:
        with self._lock:
            self._changed.update(paths)

    def changes(self) -> set[str] | None:
        with self._lock:
            changed, self._changed = self._changed, set()
        return changed

    def close(self) -> None:
        pass


class Watcher:
    """inotify watches on the workspace root and every directory under memory/ and bank/."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.fd = -1
        self.dirs: dict[int, str] = {}  # watch descriptor -> relative directory ("" = root)
        self.libc = _libc()
        # True once a full scan has followed the arming, so the changes reported are all
        # there is; whoever keeps the watcher sets it back to False to ask for a scan again
        self.settled = False
        # the index's lineage (`IndexBackend.lineage`) after the last sync through this
        # watcher: a watcher kept across opens of the workspace scans again when the index
        # is another one (replaced, rebuilt, deleted, an older copy), since the changes it
        # saw went into another index; a later state of the same one (another process's
        # write) needs no scan, as the watcher saw the files that write changed
        self.index_token: tuple[str, int] | None = None
        if self.libc is not None:
            self.fd = self.libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
        if self.fd >= 0:
            self._watch_tree()

    @property
    def active(self) -> bool:
        return self.fd >= 0

    def _add(self, rel: str) -> bool:
        assert self.libc is not None
        path = os.fsencode(self.root / rel if rel else self.root)
        wd = self.libc.inotify_add_watch(self.fd, path, MASK)
        if wd < 0:
            return False
        self.dirs[wd] = rel
        return True

    def _watch_tree(self) -> None:
        ok = self._add("")
        for top in WATCHED_ROOTS:
            for current, subdirs, _ in os.walk(self.root / top):
                subdirs[:] = [d for d in subdirs if not d.startswith(".")]
                rel = Path(current).relative_to(self.root).as_posix()
                ok = self._add(rel) and ok
        if not ok:
            self.close()

    def changes(self) -> set[str] | None:
        """Paths changed since the last call; None when a full scan is needed."""
        if self.fd < 0:
            return None
        changed: set[str] = set()
        rescan = False
        while True:
            try:
                data = os.read(self.fd, 64 * 1024)
            except BlockingIOError:
                break
            except OSError:
                self.close()
                return None
            rescan = self._parse(data, changed) or rescan
        return None if rescan else changed

    def _parse(self, data: bytes, changed: set[str]) -> bool:
        """Collect changed paths from raw events; True when a full scan is needed."""
        rescan = False
        offset = 0
        while offset + EVENT.size <= len(data):
            wd, mask, _cookie, length = EVENT.unpack_from(data, offset)
            name = data[offset + EVENT.size : offset + EVENT.size + length].rstrip(b"\0")
            offset += EVENT.size + length
            if mask & IN_Q_OVERFLOW:
                rescan = True
                continue
            base = self.dirs.get(wd)
            if base is None or mask & IN_IGNORED:
                continue
            if mask & (IN_DELETE_SELF | IN_MOVE_SELF):
                rescan = True
                continue
            if not name:
                continue
            child = os.fsdecode(name)
            rel = f"{base}/{child}" if base else child
            if mask & IN_ISDIR:
                if _tracked_dir(rel):  # a directory came or went: watch it, scan everything
                    rescan = True
                    if mask & (IN_CREATE | IN_MOVED_TO):
                        self._add(rel)
                continue
            changed.add(rel)
        return rescan

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
