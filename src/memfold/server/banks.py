"""A server bank: its truth in PostgreSQL, and this replica's derived workspace for it.

PostgreSQL holds each bank whole: `files` (every Markdown file byte for byte, with the bank
version that last wrote it), `events` (journal.jsonl, a row per line) and `facts` (every fact
the Markdown carries, derived on each write, for SQL readers).  `banks.head` counts the
bank's committed writes.

A replica answers from a workspace of its own for the bank, under its cache directory: the
same Markdown, journal and SQLite index as a local memfold, so the judge, the lifecycle fold
and recall's ranking are the very code local memfold runs.  That workspace is derived and
disposable — the replica keeps nothing that matters between requests (a clean stop leaves a
manifest so the next start may adopt the copy instead of fetching it: memfold.server.copies):

- every request first reads `banks.head`; when the workspace is behind, it fetches the files
  and journal lines written since (`version > head it has`) and applies them;
- a write runs in one transaction holding the bank's advisory lock and its `banks` row: catch
  up, run the verb on the workspace, send every file it changed and every journal line it
  added, derive the changed files' facts, bump `head`, commit.  The answer goes out only
  after the commit, so an acknowledged write is in PostgreSQL;
- a write that fails leaves PostgreSQL as it was (the transaction rolls back); when the verb
  had already touched the workspace, or its changes were sent and the commit did not follow,
  the workspace is thrown away and fetched again.

Two replicas on one database therefore serialise a bank's writes on the database and answer
reads from the same committed state.  Within a replica, a bank's reads run side by side
(each on a Memory handle of its own over the one workspace) and its writes one at a time,
alone.  A write costs the same in a bank of any size: the files the verb wrote are known
(`memfold.workspace.files.recording`), so nothing else is read or even stat'ed, and no
handle watches the disk (every change to the workspace is made here and told to the
handles, `PathFeed`), so an open bank holds no inotify instance.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import threading
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from memfold.errors import MemfoldError, UnknownBank
from memfold.journal.log import JOURNAL_NAME
from memfold.memory import Memory
from memfold.reflect.plan import UNDO_FILE
from memfold.server import copies, pgreflect
from memfold.server.admin import Caller
from memfold.server.db import LOCK_SPACE, tenant_tx, with_retries
from memfold.server.rows import store
from memfold.server.turns import Turns
from memfold.server.vectors import StoredVectors
from memfold.workspace.files import recording, replace_atomically
from memfold.workspace.layout import Workspace
from memfold.workspace.watch import PathFeed

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

    from memfold.embed.base import Embedder

_T = TypeVar("_T")

OPEN_BANKS = 64  # workspaces kept open (each holds index connections, no inotify instance)
READERS = 4  # index connections (Memory handles) a bank's reads share, at most

_HEAD = "SELECT head FROM banks WHERE bank_id = %s"
_HEAD_FOR_UPDATE = "SELECT head FROM banks WHERE bank_id = %s FOR UPDATE"
_CREATED = "SELECT created_at FROM banks WHERE bank_id = %s"


@dataclass
class _Known:
    """A file of the workspace as PostgreSQL has it: its length and hash."""

    size: int
    sha256: str


class BankWorkspace:
    """One bank's derived workspace on this replica, and the transactions that keep it true.

    Writes and catch-ups run on one Memory handle, alone; reads run side by side, each on a
    handle of its own (up to READERS, each with its own index connection).  No handle
    watches the disk: every change to the workspace is made here, so the paths it changes
    are told to every handle's change feed (a `PathFeed`)."""

    def __init__(self, pool: ConnectionPool, tenant: str, bank_id: int, name: str,
                 slot: copies.Slot, embedder: Callable[[], Embedder] | None = None) -> None:
        self.pool = pool
        self.tenant = tenant
        self.bank_id = bank_id
        self.name = name
        self.slot = slot  # this process's copy of the bank in the cache (memfold.server.copies)
        self.root = slot.root
        self.turns = Turns()
        self.head = -1  # the bank version the workspace holds; -1: not fetched yet
        self._known: dict[str, _Known] = {}
        self._journal = (0, 0, 0)  # (inode, size, last seq) of journal.jsonl as sent
        self._memory: Memory | None = None
        self._feeds: list[PathFeed] = []  # every open handle's change feed
        self._idle: list[Memory] = []  # read handles not in use
        self._readers = threading.BoundedSemaphore(READERS)
        self._handles = threading.Lock()  # guards _idle and _feeds
        self._written: set[str] = set()  # the files the last write's verb wrote or removed
        self._unsent: set[str] = set()  # files made here but not by a verb (init's skeleton)
        self._lineage: tuple[str, int] | None = None  # the index's, after the last sync
        self._pending: set[str] = set()  # files changed since (a new handle is told them)
        self._embedder = embedder  # the model, for vectors kept in PostgreSQL; None: lexical
        self._created: str | None = None  # the bank's creation time (copies.bank_state)
        self._write_vectors: StoredVectors | None = None  # the write handle's, with a model

    # -- requests ---------------------------------------------------------------------

    def read(self, work: Callable[[Memory], _T], *, committed: int | None = None) -> _T:
        """Run `work` on the workspace brought up to (at least) the bank's committed head as
        it was when the request came (`committed`, when the caller read it already), beside
        the bank's other reads.  The head is read before taking a turn, so a read that finds
        the workspace current waits for no database call inside it."""
        def head() -> int:
            with tenant_tx(self.pool, self.tenant) as conn:
                return self._head(conn, lock=False)

        def catch_up() -> None:
            with tenant_tx(self.pool, self.tenant) as conn:
                self._catch_up(conn, self._head(conn, lock=False))

        wanted = with_retries(head) if committed is None else committed
        while True:
            if self.head < wanted or self.head < 0:
                with self.turns.exclusive():
                    if self.head < wanted or self.head < 0:
                        with_retries(catch_up)
            with self.turns.shared(), self._readers:
                if self.head < 0:  # thrown away between the two turns: fetch it again
                    continue
                handle = self._reader()
                try:
                    return work(handle)
                finally:
                    with self._handles:
                        self._idle.append(handle)

    def write(self, caller: Caller, work: Callable[[Memory], _T]) -> _T:
        """Run the write `work` on the up-to-date workspace and commit what it changed, signed
        with the caller's name, in one transaction under the bank's lock."""
        with self.turns.exclusive():
            committed = ran = False
            self._written = set()
            try:
                with tenant_tx(self.pool, self.tenant) as conn:
                    conn.execute("SELECT pg_advisory_xact_lock(%s, %s)",
                                 [LOCK_SPACE, self.bank_id])
                    head = self._head(conn, lock=True)
                    self._catch_up(conn, head)
                    undo = self._undo_manifest(conn)
                    with self.memory.signed(caller.name), recording() as written, (
                            nullcontext() if self._write_vectors is None
                            else self._write_vectors.writing(conn)):
                        try:
                            result = work(self.memory)
                        finally:
                            self._written = self._relative(written)
                    ran = True
                    self._keep_undo(conn, undo, head + 1)
                    if self._send(conn, head + 1):
                        conn.execute("UPDATE banks SET head = %s WHERE bank_id = %s",
                                     [head + 1, self.bank_id])
                        head += 1
                committed = True
                self.head = head
                self._settle(self._written, sync=False)  # the verb indexed what it wrote
                return result
            finally:
                # the verb ran but the commit did not happen (or its outcome is unknown), or
                # the verb failed after touching files: PostgreSQL is the truth, fetch it again
                if not committed and (ran or self._touched()):
                    self.discard()

    @property
    def memory(self) -> Memory:
        """The handle writes and catch-ups run on."""
        if self._memory is None:
            with recording() as made:
                Memory.init(self.root)
            if self.head > 0:  # the bank is what it sent: a skeleton file it lacks stays out
                for path in self._relative(made) - set(self._known):
                    (self.root / path).unlink(missing_ok=True)
            else:
                self._unsent |= self._relative(made)  # the bank's once a write sends them
            self._memory = self._open(settled=self._lineage is not None, write=True)
        return self._memory

    def _open(self, *, settled: bool, write: bool = False) -> Memory:
        """A new handle on the workspace (`write`: the one writes run on); `settled`: its
        index is known to be current, so its first read syncs only what it is told changed."""
        feed = PathFeed()
        if settled:
            feed.settled = True
            feed.index_token = self._lineage
            with self._handles:
                feed.tell(self._pending)
        memory = Memory.open(self.root, watcher=feed)
        if self._embedder is not None:
            stored = StoredVectors(self._embedder(), self.pool, self.tenant, self.bank_id,
                                   lambda: self.head)
            memory.set_embedder(stored)  # a write's own are stored in its transaction
            self._write_vectors = stored if write else self._write_vectors
        with self._handles:
            self._feeds.append(feed)
        return memory

    def _reader(self) -> Memory:
        with self._handles:
            if self._idle:
                return self._idle.pop()
        return self._open(settled=True)

    def _settle(self, paths: Sequence[str] | set[str], *, sync: bool = True) -> None:
        """After a write or a catch-up (in the exclusive turn): tell every handle which files
        changed (and remember them for handles opened later); with `sync`, bring the index
        up to date now, so a handle opened later may trust it with nothing to tell."""
        with self._handles:
            self._pending.update(paths)
            for feed in self._feeds:
                feed.tell(paths)
        if sync:
            self.memory.refresh()
            with self._handles:
                self._pending.clear()
            self._lineage = self.memory.index_backend.lineage()

    def close(self) -> None:
        """Close every handle (the caller holds the bank's exclusive turn)."""
        with self._handles:
            handles, self._idle, self._feeds = self._idle, [], []
        for handle in handles:
            handle.close()
        if self._memory is not None:
            self._memory.close()
            self._memory = None

    def import_whole(self, caller: Caller,
                     store: Callable[[psycopg.Connection[Any], int], bool]) -> int | None:
        """An import into the bank, in one transaction under the bank's lock: `store(conn,
        version)` stores it whole as the next version (False: it stored nothing, and so does
        this); then this replica's workspace is built from that version (the transaction
        sees its own rows), which indexes it and judges every imported fact in the order
        written (`Ledger.judge_existing`, as a first index of existing notes does), signed
        with the caller's name, and the judge's journal lines go in the same version.
        Returns how many lines the judge added.  So the judging happens once, in the import,
        and not in the first write after it (which held the bank's lock for minutes on a
        large bank, past a client's timeout); replicas that fetch the bank replay it."""
        with self.turns.exclusive():
            committed = touched = False
            try:
                with tenant_tx(self.pool, self.tenant) as conn:
                    conn.execute("SELECT pg_advisory_xact_lock(%s, %s)",
                                 [LOCK_SPACE, self.bank_id])
                    version = self._head(conn, lock=True) + 1
                    if not store(conn, version):
                        return None
                    touched = True
                    self.discard()
                    with self.memory.signed(caller.name), (
                            nullcontext() if self._write_vectors is None
                            else self._write_vectors.writing(conn)):
                        self._fresh(conn, version)
                    lines, _ = self._journal_tail()
                    self._written = set()
                    self._send(conn, version)
                committed = True
                return len(lines)
            finally:
                if touched and not committed:
                    self.discard()

    # -- catching up ------------------------------------------------------------------

    def _head(self, conn: psycopg.Connection[Any], *, lock: bool) -> int:
        query = (_HEAD_FOR_UPDATE if lock else _HEAD)
        row = conn.execute(query, [self.bank_id]).fetchone()
        if row is None:
            raise UnknownBank(f"bank {self.name!r} was deleted")
        return int(row[0])

    def _catch_up(self, conn: psycopg.Connection[Any], head: int) -> None:
        if head == self.head:
            return
        if self.head < 0 or head < self.head:
            if not (self.head < 0 and self._adopt(conn, head)):
                self.discard()
                self._fresh(conn, head)
                return
            if head == self.head:
                return
        files = conn.execute("SELECT path, content, sha256 FROM files WHERE bank_id = %s "
                             "AND version > %s", [self.bank_id, self.head]).fetchall()
        lines = conn.execute("SELECT seq, line FROM events WHERE bank_id = %s AND version > %s "
                             "ORDER BY seq", [self.bank_id, self.head]).fetchall()
        if lines and lines[0][0] <= self._journal[2]:  # a purge rewrote sent lines: refetch
            self.discard()
            self._fresh(conn, head)
            return
        for path, content, sha in files:
            self._put(path, None if content is None else bytes(content), sha)
        if lines:
            self._append_journal([line for _, line in lines], int(lines[-1][0]))
        self.head = head
        if files or lines:
            self._settle([path for path, _, _ in files])

    def _fresh(self, conn: psycopg.Connection[Any], head: int) -> None:
        """Build the workspace from nothing: every live file and the whole journal."""
        self.root.mkdir(parents=True, exist_ok=True)
        row = conn.execute(_CREATED, [self.bank_id]).fetchone()
        self._created = None if row is None else copies.created(row[0])
        files = conn.execute("SELECT path, content, sha256 FROM files WHERE bank_id = %s "
                             "AND content IS NOT NULL", [self.bank_id]).fetchall()
        for path, content, sha in files:
            self._put(path, bytes(content), sha)
        lines = conn.execute("SELECT seq, line FROM events WHERE bank_id = %s ORDER BY seq",
                             [self.bank_id]).fetchall()
        if lines:
            self._append_journal([line for _, line in lines], int(lines[-1][0]))
        if head > 0:  # the skeleton `init` adds belongs to the bank only once it was sent
            for path in set(self.memory.workspace.scan().found) - set(self._known):
                (self.root / path).unlink()
            self._unsent.clear()
        self.head = head
        self._settle(())  # the handle's first refresh scans every file

    def _adopt(self, conn: psycopg.Connection[Any], head: int) -> bool:
        """Take over the copy a cleanly stopped process left in this slot (its manifest),
        when it is this bank's, at a head the database has not gone back from, and its files
        and the database agree with the manifest; the caller catches up from there.  The
        manifest is removed first: a crash from here on leaves a copy nobody adopts."""
        manifest = copies.Manifest.read(self.slot.manifest)
        copies.forget(self.slot.manifest)
        if manifest is None or (manifest.tenant, manifest.bank_id) != (self.tenant,
                                                                        self.bank_id):
            return False
        row = conn.execute(_CREATED, [self.bank_id]).fetchone()
        if row is None or copies.created(row[0]) != manifest.created or manifest.head > head:
            return False
        if not (copies.matches_disk(manifest, self.root)
                and copies.matches_database(manifest, conn)):
            return False
        self._created = manifest.created
        self._known = {path: _Known(size, sha) for path, (size, sha, _) in manifest.files.items()}
        self._journal = manifest.journal
        self._lineage = manifest.lineage
        self._pending = set(manifest.pending)
        self._unsent = set(manifest.unsent)
        self.head = manifest.head
        return True

    def leave(self) -> None:
        """On a clean stop, after `close`: write the copy's manifest, last, so the next
        process to claim this slot may adopt the copy; then let the slot go."""
        try:
            if self.head >= 0 and self._created is not None and self.root.is_dir():
                files = {path: (known.size, known.sha256,
                                (self.root / path).stat().st_mtime_ns)
                         for path, known in self._known.items()}
                copies.Manifest(self.tenant, self.bank_id, self._created, self.head,
                                self._journal,
                                copies.journal_state(self.root / JOURNAL_NAME),
                                self._lineage, files, sorted(self._pending),
                                sorted(self._unsent)).write(self.slot.manifest)
        except OSError:
            pass  # no manifest: the next process builds the copy again
        finally:
            self.slot.release()

    def _put(self, path: str, content: bytes | None, sha: str | None) -> None:
        target = self._inside(path)
        if content is None:
            target.unlink(missing_ok=True)
            self._known.pop(path, None)
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.parent / f".{target.name}.{os.getpid()}.tmp"
        temporary.write_bytes(content)
        os.replace(temporary, target)
        self._known[path] = _Known(len(content), sha or hashlib.sha256(content).hexdigest())

    def _inside(self, path: str) -> Path:
        target = (self.root / path).resolve()
        if self.root.resolve() not in target.parents or path.startswith(".memory"):
            raise MemfoldError(f"bank {self.name!r} holds a file outside its workspace: {path!r}")
        return target

    def _append_journal(self, lines: list[str], last_seq: int) -> None:
        journal = self.root / JOURNAL_NAME
        with open(journal, "ab") as handle:
            handle.write("".join(line + "\n" for line in lines).encode("utf-8"))
        stat = journal.stat()
        self._journal = (stat.st_ino, stat.st_size, last_seq)

    # -- sending a write --------------------------------------------------------------

    def _undo_manifest(self, conn: psycopg.Connection[Any]) -> bytes | None:
        """The bank's last reflect run's undo manifest, kept in the database
        (memfold.server.pgreflect) and put in the copy where its `reflect --undo` reads it
        (or taken out of it: a run that never went through this copy, or was taken back)."""
        held = pgreflect.stored(conn, self.bank_id)
        path = Workspace(self.root).cache_dir / UNDO_FILE
        if _bytes(path) != held:
            if held is None:
                path.unlink(missing_ok=True)
            else:
                path.parent.mkdir(exist_ok=True)
                replace_atomically(path, held)
        return held

    def _keep_undo(self, conn: psycopg.Connection[Any], held: bytes | None,
                   version: int) -> None:
        """Keep in the database the manifest the verb left in the copy (a reflect run's),
        or drop it there when the verb removed it (an undo, a purge)."""
        now = _bytes(Workspace(self.root).cache_dir / UNDO_FILE)
        if now != held:
            pgreflect.keep(conn, self.tenant, self.bank_id, version, now)

    def _relative(self, written: set[Path]) -> set[str]:
        """The workspace files among the paths a verb wrote or removed."""
        roots = {self.root.absolute(), self.root.resolve()}
        found = set()
        for path in written:
            for root in roots:
                if path.is_relative_to(root):
                    rel = path.relative_to(root).as_posix()
                    if Workspace.is_tracked(rel):
                        found.add(rel)
                    break
        return found

    def _changed_files(self) -> tuple[dict[str, bytes], list[str]]:
        """Of the files the verb wrote (`_written`, and `_unsent`), those whose bytes differ
        from what PostgreSQL holds (path -> bytes), and those it removed.  Nothing else is
        read, so a write costs the same in a bank of any size."""
        changed: dict[str, bytes] = {}
        removed: list[str] = []
        for path in sorted(self._written | self._unsent):
            try:
                data = (self.root / path).read_bytes()
            except FileNotFoundError:
                if path in self._known:
                    removed.append(path)
                continue
            known = self._known.get(path)
            if known is None or hashlib.sha256(data).hexdigest() != known.sha256:
                changed[path] = data
        return changed, removed

    def _appended_after(self, path: str, data: bytes) -> int:
        """The file's last line as sent, when the verb only appended whole lines to it (its
        facts before that line are unchanged); 0 otherwise."""
        known = self._known.get(path)
        if known is None or not 0 < known.size < len(data):
            return 0
        sent = data[:known.size]
        if not sent.endswith(b"\n") or hashlib.sha256(sent).hexdigest() != known.sha256:
            return 0
        return sent.count(b"\n")

    def _journal_tail(self) -> tuple[list[tuple[int, str]], bool]:
        """Journal lines the verb added as (seq, line), and whether it rewrote sent lines."""
        journal = self.root / JOURNAL_NAME
        try:
            stat = journal.stat()
        except FileNotFoundError:
            return [], self._journal[1] > 0
        inode, size, _ = self._journal
        rewritten = size > 0 and (stat.st_ino != inode or stat.st_size < size)
        with open(journal, "rb") as handle:
            handle.seek(0 if rewritten else size)
            data = handle.read()
        lines = data.decode("utf-8").splitlines()
        return [(int(json.loads(line)["seq"]), line) for line in lines if line.strip()], rewritten

    def _touched(self) -> bool:
        if self._memory is None or self.head < 0:
            return False
        if self._written:
            return True
        try:
            lines, rewritten = self._journal_tail()
        except (OSError, ValueError):
            return True
        return bool(lines or rewritten)

    def _send(self, conn: psycopg.Connection[Any], version: int) -> bool:
        """Store what the verb changed as bank version `version`; False if it changed nothing."""
        changed, removed = self._changed_files()
        lines, rewritten = self._journal_tail()
        if not (changed or removed or lines):
            return False
        # an append (a retain) re-derives only the facts that reach the old last line
        appended = {path: self._appended_after(path, data) for path, data in changed.items()}
        with conn.cursor() as cur:
            store(cur, self.tenant, self.bank_id, version,
                  files={**changed, **dict.fromkeys(removed)}, lines=lines, appended=appended)
        for path, data in changed.items():
            self._known[path] = _Known(len(data), hashlib.sha256(data).hexdigest())
        for path in removed:
            self._known.pop(path, None)
        self._unsent.clear()
        if lines or rewritten:
            stat = (self.root / JOURNAL_NAME).stat()
            last = lines[-1][0] if lines else self._journal[2]
            self._journal = (stat.st_ino, stat.st_size, max(last, self._journal[2]))
        return True

    def discard(self) -> None:
        """Throw the workspace away; the next request fetches it whole from PostgreSQL."""
        self.close()
        copies.forget(self.slot.manifest)
        shutil.rmtree(self.root, ignore_errors=True)
        self._known.clear()
        self._unsent.clear()
        self._pending.clear()
        self._journal = (0, 0, 0)
        self.head = -1
        self._lineage = None


def _bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
