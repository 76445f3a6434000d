"""A replica's copies of its banks on disk, and what lets a restarted replica keep them.

A replica's cache directory (`memfold serve --cache`) holds, per bank, one directory named
after the bank's id, and in it one numbered copy per process that served the bank:

    <cache>/<bank_id>/<n>/        the copy: the bank's Markdown, journal and SQLite index
    <cache>/<bank_id>/<n>.lock    held (flock) by the process using copy n, for its life
    <cache>/<bank_id>/<n>.json    the manifest: left by a clean stop, removed on adoption

A process opening a bank claims the first copy whose lock no live process holds, so the
workers of `memfold serve --workers N` and replicas sharing one --cache never use, adopt or
delete a copy another live process has.  A replica that stops cleanly (SIGTERM drains, then
`Replica.close`) writes each open bank's manifest last, after its handles closed: the bank
version the copy holds, the journal's state and every file's size, hash and mtime.  The next
process to claim that copy adopts it when the manifest is there, names the same bank and a
head the database has not gone back from, and the files and the database agree with it;
anything else, or no manifest (a kill -9, a crash), and the copy is built again from
PostgreSQL.  The manifest is removed before anything in the copy changes, so a crash after
adoption leaves a copy nobody trusts.

At start a replica reclaims disk: copies no live process holds that have no manifest, or
whose bank no longer exists (deleted, its tenant removed) or went back, are removed.  While it
runs, a notice that a bank was purged or deleted (memfold.server.notices) removes its own copy
of the bank and every copy no live process holds (`drop_unheld`).
"""

from __future__ import annotations

import contextlib
import fcntl
import itertools
import json
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memfold.journal.log import JOURNAL_NAME
from memfold.workspace.files import fsync_dir, replace_atomically
from memfold.workspace.layout import Workspace

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

FORMAT = 1


class Slot:
    """One copy of a bank in the cache, its lock held by this process until `release`."""

    def __init__(self, bank_dir: Path, number: int, fd: int) -> None:
        self.bank_dir = bank_dir
        self.number = number
        self._fd: int | None = fd

    @property
    def root(self) -> Path:
        return self.bank_dir / str(self.number)

    @property
    def manifest(self) -> Path:
        return self.bank_dir / f"{self.number}.json"

    @property
    def lock(self) -> Path:
        return self.lock_path(self.bank_dir, self.number)

    @staticmethod
    def lock_path(bank_dir: Path, number: int) -> Path:
        return bank_dir / f"{number}.lock"

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def remove(self) -> None:
        """Remove the copy, its manifest and (still holding it) its lock; then release."""
        self.manifest.unlink(missing_ok=True)
        shutil.rmtree(self.root, ignore_errors=True)
        self.lock.unlink(missing_ok=True)  # a process that locked it since sees another inode
        self.release()
        with contextlib.suppress(OSError):
            self.bank_dir.rmdir()  # the bank's last copy


def _try(bank_dir: Path, number: int) -> Slot | None:
    """Copy `number` of the bank, locked for this process; None when a live process holds
    it."""
    lock = Slot.lock_path(bank_dir, number)
    while True:
        bank_dir.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except FileNotFoundError:  # the bank's directory was removed meanwhile
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        try:
            same = os.fstat(fd).st_ino == os.stat(lock).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return Slot(bank_dir, number, fd)
        os.close(fd)  # the lock file was removed (and maybe made again) meanwhile


def claim(cache: Path, bank_id: int) -> Slot:
    """The first copy of the bank no live process holds (a new one when every one is held)."""
    bank_dir = cache / str(bank_id)
    for number in itertools.count():
        slot = _try(bank_dir, number)
        if slot is not None:
            return slot
    raise AssertionError("unreachable")


def _numbers(bank_dir: Path) -> list[int]:
    """The copy numbers in a bank's directory (a copy, its lock or its manifest), sorted."""
    return sorted({int(entry.name.partition(".")[0]) for entry in bank_dir.iterdir()
                   if entry.name.partition(".")[0].isdigit()})


def _copies(cache: Path) -> Iterator[tuple[int, Path, int]]:
    """(bank id, bank directory, copy number) of every copy in the cache."""
    try:
        banks = [entry for entry in cache.iterdir() if entry.name.isdigit() and entry.is_dir()]
    except OSError:
        return
    for bank_dir in banks:
        for number in _numbers(bank_dir):
            yield int(bank_dir.name), bank_dir, number


@dataclass
class Manifest:
    """What a cleanly stopped replica knew of its copy of a bank."""

    tenant: str
    bank_id: int
    created: str  # the bank's creation time: a bank of another database has another
    head: int
    journal: tuple[int, int, int]  # (inode, size, last seq) of journal.jsonl as sent
    journal_on_disk: tuple[int, int, int]  # (inode, size, mtime_ns) at the stop; 0s: none
    lineage: tuple[str, int] | None  # the index's, after the last sync
    files: dict[str, tuple[int, str, int]]  # path -> (size, sha256, mtime_ns)
    pending: list[str] = field(default_factory=list)  # changed since that sync
    unsent: list[str] = field(default_factory=list)  # init's skeleton, not the bank's yet

    def write(self, path: Path) -> None:
        """Write the manifest atomically and durably (`workspace.files.replace_atomically`)."""
        body = {"format": FORMAT, "tenant": self.tenant, "bank_id": self.bank_id,
                "created": self.created, "head": self.head, "journal": list(self.journal),
                "journal_on_disk": list(self.journal_on_disk),
                "lineage": list(self.lineage) if self.lineage else None,
                "files": {p: list(v) for p, v in self.files.items()},
                "pending": sorted(self.pending), "unsent": sorted(self.unsent)}
        replace_atomically(path, json.dumps(body).encode("utf-8"))

    @classmethod
    def read(cls, path: Path) -> Manifest | None:
        """The manifest at `path`; None when there is none or it cannot be read."""
        try:
            body = json.loads(path.read_text(encoding="utf-8"))
            if body.get("format") != FORMAT:
                return None
            lineage = body["lineage"]
            return cls(tenant=str(body["tenant"]), bank_id=int(body["bank_id"]),
                       created=str(body["created"]), head=int(body["head"]),
                       journal=(int(body["journal"][0]), int(body["journal"][1]),
                                int(body["journal"][2])),
                       journal_on_disk=(int(body["journal_on_disk"][0]),
                                        int(body["journal_on_disk"][1]),
                                        int(body["journal_on_disk"][2])),
                       lineage=(str(lineage[0]), int(lineage[1])) if lineage else None,
                       files={str(p): (int(v[0]), str(v[1]), int(v[2]))
                              for p, v in body["files"].items()},
                       pending=[str(p) for p in body["pending"]],
                       unsent=[str(p) for p in body["unsent"]])
        except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
            return None


def created(when: Any) -> str:
    """A bank's creation time (`banks.created_at`) as the manifest keeps it."""
    return f"{when.timestamp():.6f}"


def forget(manifest: Path) -> None:
    """Remove a manifest for good (its directory synced), before the copy changes."""
    try:
        manifest.unlink()
    except FileNotFoundError:
        return
    fsync_dir(manifest.parent)


def bank_state(pool: ConnectionPool, tenant: str, bank_id: int) -> tuple[int, str] | None:
    """The bank's head and creation time as the database has them; None when it has no such
    bank for that tenant."""
    from memfold.server.db import tenant_tx, with_retries

    def find() -> tuple[int, str] | None:
        with tenant_tx(pool, tenant) as conn:
            row = conn.execute("SELECT head, created_at FROM banks WHERE bank_id = %s",
                               [bank_id]).fetchone()
        return None if row is None else (int(row[0]), created(row[1]))

    return with_retries(find)


def reclaim(pool: ConnectionPool, cache: Path) -> list[Path]:
    """Remove the copies in `cache` no live process holds that no restart may adopt: without
    a manifest, or of a bank that no longer exists or whose head went back.  The copies
    removed."""
    from memfold.errors import MemfoldError

    removed = []
    for bank_id, bank_dir, number in _copies(cache):
        slot = _try(bank_dir, number)
        if slot is None:
            continue  # a live process's
        try:
            manifest = Manifest.read(slot.manifest)
            keep = False
            if manifest is not None and manifest.bank_id == bank_id:
                try:
                    state = bank_state(pool, manifest.tenant, bank_id)
                except MemfoldError:
                    keep = True  # the database cannot say now: adoption checks it again
                else:
                    keep = state is not None and state[1] == manifest.created \
                        and manifest.head <= state[0]
            if not keep:
                slot.remove()
                removed.append(slot.root)
        finally:
            slot.release()
    return removed


def drop_unheld(cache: Path, bank_id: int) -> list[Path]:
    """Remove every copy of the bank in `cache` no live process holds (copies an earlier
    process left; this process's own copy is held, so it stays).  The copies removed."""
    bank_dir = cache / str(bank_id)
    try:
        numbers = _numbers(bank_dir)
    except OSError:
        return []
    removed = []
    for number in numbers:
        slot = _try(bank_dir, number)
        if slot is not None:
            slot.remove()
            removed.append(slot.root)
    return removed


def _stat(path: Path | str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except OSError:
        return None


def matches_disk(manifest: Manifest, root: Path) -> bool:
    """Whether the copy at `root` is as the manifest says: every file of its size and mtime,
    the journal as it was at the stop (holding what was sent, and perhaps decisions this
    copy's judge added since, which the next write sends), an index."""
    if not Workspace(root).index_path.is_file():
        return False
    journal = root / JOURNAL_NAME
    top = os.fspath(root)
    for path, (size, _, mtime_ns) in manifest.files.items():
        found = _stat(f"{top}/{path}")
        if found is None or (found.st_size, found.st_mtime_ns) != (size, mtime_ns):
            return False
    if journal_state(journal) != manifest.journal_on_disk:
        return False
    inode, size, _ = manifest.journal
    return size == 0 or (manifest.journal_on_disk[0] == inode
                         and manifest.journal_on_disk[1] >= size)


def journal_state(journal: Path) -> tuple[int, int, int]:
    """(inode, size, mtime_ns) of the journal; 0s when there is none."""
    found = _stat(journal)
    return (0, 0, 0) if found is None else (found.st_ino, found.st_size, found.st_mtime_ns)


def matches_database(manifest: Manifest, conn: Any) -> bool:
    """Whether the database holds, as of the manifest's head, the files and journal the
    manifest lists (what changed after that head the catch-up fetches)."""
    seen: set[str] = set()
    rows = conn.execute("SELECT path, sha256, version, content IS NULL FROM files "
                        "WHERE bank_id = %s", [manifest.bank_id]).fetchall()
    for path, sha, version, gone in rows:
        if version <= manifest.head:
            known = manifest.files.get(path)
            if (known is not None) == bool(gone) or (known and known[1] != sha):
                return False
        seen.add(path)
    if not set(manifest.files) <= seen:
        return False
    last = conn.execute("SELECT coalesce(max(seq), 0) FROM events WHERE bank_id = %s "
                        "AND version <= %s", [manifest.bank_id, manifest.head]).fetchone()
    return int(last[0]) == manifest.journal[2]
