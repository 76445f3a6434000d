"""Bring an index up to date with the Markdown files — the one place that decides what to read.

A file is read again only when its stamp (size, mtime) moved, so a sync where nothing changed
costs one `stat` per file.  A changed stamp with the same sha256 only records the new stamp.
Like git's "racy" entries, a file modified within `RACY_NS` of the moment it was last read is
hashed again next time: an edit in the same clock tick would otherwise keep its old stamp.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Container, Generator, Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from memfold.index.base import DocChange, IndexBackend, PreparedDoc, Preparer, SeenStamp
from memfold.screening import flag_hidden, flag_secrets
from memfold.values import FileStamp, Freshness, ParsedDoc, ParseWarning, SyncReport
from memfold.workspace.format import decode, parse_document, split_lines
from memfold.workspace.layout import Scan, Workspace
from memfold.workspace.sentences import with_sentences

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

RACY_NS = 2_000_000_000
PARALLEL_MIN_FILES = 2000  # below this, starting worker processes costs more than it saves
JOB_FILES = 100  # files a parse worker takes at a time
JOBS_AHEAD = 3  # jobs per worker sent ahead of the writer
PR_SET_PDEATHSIG = 1  # prctl(2)
Progress = Callable[[int], None]
Outcome = PreparedDoc | FileStamp | None  # rows to write; a new stamp only; file gone
_LIVE_POOLS: set[ProcessPoolExecutor] = set()  # pools whose workers run now


def _stale(on_disk: Mapping[str, tuple[int, int]], known: dict[str, SeenStamp],
           ready: Container[str]) -> list[str]:
    """The files to read again: new, or not with the stamp the index saw, or read too soon
    after their last change for an edit in the same clock tick to show (one pass over every
    file on every sync, so written out flat)."""
    stale = []
    for path, (size, mtime_ns) in on_disk.items():
        old = known.get(path)
        if (old is None or old[0] != size or old[1] != mtime_ns
                or mtime_ns + RACY_NS >= old[2] or path in ready):
            stale.append(path)
    return stale


def freshness(workspace: Workspace, index: IndexBackend) -> Freshness:
    """Which files differ from what the index last saw, by stat alone."""
    on_disk = workspace.scan().found
    known = index.seen_stamps()
    new = sorted(p for p in on_disk if p not in known)
    modified = sorted(
        p for p, st in on_disk.items()
        if p in known and known[p][:2] != st
    )
    deleted = sorted(p for p in known if p not in on_disk)
    return Freshness(tuple(new), tuple(modified), tuple(deleted))


def _read(workspace: Workspace, path: str, checked_ns: int) -> tuple[bytes, FileStamp] | None:
    try:
        with open(workspace.abspath(path), "rb") as handle:
            data = handle.read()
            mtime_ns = os.fstat(handle.fileno()).st_mtime_ns
    except (FileNotFoundError, IsADirectoryError, PermissionError):
        return None
    return data, FileStamp(len(data), mtime_ns, hashlib.sha256(data).hexdigest(), checked_ns)


def _prepare(workspace: Workspace, path: str, checked_ns: int, held: str | None,
             preparer: Preparer) -> Outcome:
    """Read one file and make its rows — or only its new stamp when its bytes are the ones
    the index holds (sha256 `held`), or None when it vanished or cannot be read."""
    read = _read(workspace, path, checked_ns)
    if read is None:
        return None
    data, stamp = read
    if stamp.sha256 == held:
        return stamp
    return preparer(_indexable(workspace, path, parse_document(path, data)), stamp)


def _lines(workspace: Workspace, path: str) -> list[str]:
    """A file's lines as the parser numbers them ([] when it cannot be read)."""
    try:
        return split_lines(decode(workspace.abspath(path).read_bytes())[0])
    except OSError:
        return []


def _read_all(workspace: Workspace, paths: list[str], checked_ns: int,
              ready: dict[str, DocChange], held: dict[str, str],
              preparer: Preparer) -> Generator[tuple[str, Outcome], None, None]:
    """Read, parse and prepare files, on every core when there are many (it is pure CPU
    work; worker processes never touch the index): the documents handed over (`ready`)
    first, then the others in the order of `paths`."""
    todo = [p for p in paths if p not in ready]
    for path in paths:
        if path in ready:
            doc, stamp = ready[path]
            yield path, (stamp if stamp.sha256 == held.get(path) else
                         preparer(_indexable(workspace, path, doc), stamp))
    workers = min(os.cpu_count() or 1, 4)
    if len(todo) < PARALLEL_MIN_FILES or workers < 2:
        for path in todo:
            yield path, _prepare(workspace, path, checked_ns, held.get(path), preparer)
        return
    import multiprocessing  # only a large sync starts worker processes
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_worker_init, initargs=(os.getpid(),))
    _LIVE_POOLS.add(pool)
    try:
        root = str(workspace.root)
        jobs = iter([(root, todo[at:at + JOB_FILES], checked_ns,
                      [held.get(p) for p in todo[at:at + JOB_FILES]], preparer)
                     for at in range(0, len(todo), JOB_FILES)])
        # a few jobs ahead of the writer, no more: results waiting to be written hold memory
        with _interrupts_held():  # (a submit may start a worker)
            running = deque(pool.submit(_read_job, job)
                            for job in itertools.islice(jobs, workers * JOBS_AHEAD))
        while running:
            job = running.popleft()
            if (more := next(jobs, None)) is not None:
                with _interrupts_held():
                    running.append(pool.submit(_read_job, more))
            yield from job.result()
    finally:  # an error or an early stop: workers finish the job they hold, start no other
        # (a Ctrl-C held back meanwhile: as the pool lets its worker processes go, their
        # finalizers run here, and an interrupt raised inside one is printed and lost)
        with _interrupts_held():
            pool.shutdown(wait=True, cancel_futures=True)
        _LIVE_POOLS.discard(pool)


@contextlib.contextmanager
def _interrupts_held() -> Generator[None, None, None]:
    """Hold SIGINT back from this thread while it starts workers, which inherit the held
    signal: a Ctrl-C sent to the whole process group (a terminal's) then reaches only this
    process, which stops the pool (`_read_all`'s `finally`), instead of raising
    KeyboardInterrupt in a worker still importing memfold, with a traceback on stderr.  A
    Ctrl-C held back here is delivered as the block ends."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None:  # not POSIX: workers take Ctrl-C as they always did
        yield
        return
    before = mask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, before)


def stop_workers() -> None:
    """Kill every parse worker of this process now: for a process about to exit at once (on
    SIGTERM), not for one that goes on using its pool, whose queues a kill can leave torn."""
    for pool in list(_LIVE_POOLS):
        # what ProcessPoolExecutor.kill_workers does from Python 3.14 on; `_processes` is typed
        for process in list((pool._processes or {}).values()):
            with contextlib.suppress(OSError, ValueError):  # already gone, or already closed
                process.kill()
    util = sys.modules.get("multiprocessing.util")
    if util is None:
        return  # no pool was ever made
    # Unlink the pools' named semaphores as multiprocessing's own exit handler would first
    # (its later steps join threads a kill may have left waiting): otherwise the resource
    # tracker does it after we are gone, with a "leaked semaphore objects" warning.
    getattr(util, "_run_finalizers", lambda priority: None)(0)


def _worker_init(parent: int) -> None:
    """First thing in every parse worker: die with the parent, and let go of its output.

    A worker holding the caller's stdout or stderr keeps a supervisor waiting for EOF; one
    outliving a SIGKILLed parent waits on a pipe forever.  Results and errors travel back
    through the pool, so a worker has nothing to print.
    """
    from memfold.workspace.watch import _libc  # ctypes, loaded in workers only

    libc = _libc()  # Linux only: the kernel SIGKILLs this worker when its parent dies
    if libc is not None:
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us (`_interrupts_held`)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)


def _read_job(job: tuple[str, list[str], int, list[str | None], Preparer],
              ) -> list[tuple[str, Outcome]]:
    """A worker's job: read, parse and prepare some files."""
    root, paths, checked_ns, held, preparer = job
    workspace = Workspace(Path(root))
    return [(path, _prepare(workspace, path, checked_ns, sha, preparer))
            for path, sha in zip(paths, held, strict=True)]


def sync(
    workspace: Workspace,
    index: IndexBackend,
    *,
    full: bool = False,
    only: Iterable[str] | None = None,
    progress: Progress | None = None,
    parsed: Iterable[DocChange] = (),
) -> SyncReport:
    """Sync `index` with the files.  `only` limits the sync to some paths (a retain syncs the
    file it wrote); `parsed` hands over documents the caller already read under its lock."""
    started = time.perf_counter()
    checked_ns = time.time_ns()
    scope = set(only) if only is not None else None
    scan = workspace.scan() if scope is None else Scan(workspace.stat_some(scope), [], [])
    on_disk = scan.found
    ready = {doc.path: (doc, stamp) for doc, stamp in parsed}
    known, held = _known(index, scope, full)  # held: the sha256s, for files read again
    stale = _stale(on_disk, known, ready)
    if scope is None and not full:
        held = index.hashes([p for p in stale if p in known])
    read = _Reading(known, progress)
    removed = sorted(p for p in known if p not in on_disk)
    # the documents are parsed as the index transaction takes them, so parsing and inserting
    # overlap; closed (stopping any workers) when the transaction ends, however it ends
    with contextlib.closing(read.docs(lambda: _read_all(
            workspace, stale, checked_ns, ready, held, index.preparer()))) as docs:
        new_ids = index.apply(docs, removed, read.restamped, full=full,
                              synced_at=datetime.now(UTC).isoformat(timespec="seconds"))
    rebuilt = not known and scope is None
    if rebuilt:
        new_ids = []  # an empty index being filled is a rebuild: nothing is newly written
    if progress:
        progress(len(on_disk))
    return SyncReport(scanned=len(on_disk), added=tuple(read.added),
                      changed=tuple(read.changed), removed=tuple(removed), full=full,
                      seconds=time.perf_counter() - started, warnings=tuple(read.warnings),
                      new_ids=tuple(new_ids), rebuilt=rebuilt, skipped=tuple(scan.skipped),
                      temporaries=tuple(scan.temporaries))


def _known(index: IndexBackend, scope: set[str] | None,
           full: bool) -> tuple[dict[str, SeenStamp], dict[str, str]]:
    """The stamps the index holds (none for a full sync), and the sha256s it holds of the
    files in `scope` (a whole sync looks those up once it knows which files are stale)."""
    if full:
        return {}, {}
    if scope is None:
        return index.seen_stamps(), {}  # no hashes: most syncs need none
    stamps = index.stamps(sorted(scope))
    return ({p: (s.size, s.mtime_ns, s.checked_ns) for p, s in stamps.items()},
            {p: s.sha256 for p, s in stamps.items()})


class _Reading:
    """What a sync learns as it reads the stale files: the files it added or changed and
    their warnings, and the files whose bytes are the same under a new stamp."""

    def __init__(self, known: Container[str], progress: Progress | None) -> None:
        self.known = known
        self.progress = progress
        self.restamped: list[tuple[str, FileStamp]] = []
        self.added: list[str] = []
        self.changed: list[str] = []
        self.warnings: list[ParseWarning] = []

    def docs(self, read_all: Callable[[], Generator[tuple[str, Outcome], None, None]],
             ) -> Generator[PreparedDoc, None, None]:
        """The documents to write, from `read_all()` (started, and closed, with this)."""
        with contextlib.closing(read_all()) as outcomes:
            for n, (path, outcome) in enumerate(outcomes):
                if self.progress and n % 200 == 0:
                    self.progress(n)
                if outcome is None:
                    continue
                if not isinstance(outcome, PreparedDoc):  # the same bytes: a new stamp only
                    self.restamped.append((path, outcome))
                    continue
                (self.changed if path in self.known else self.added).append(path)
                self.warnings.extend(outcome.warnings)
                yield outcome


def sync_appended(workspace: Workspace, index: IndexBackend, tail: DocChange, *,
                  held: str) -> SyncReport | None:
    """Index what was appended to one file (`tail`: the new lines' facts and the file's new
    stamp) when the index holds the file as it was before (sha256 `held`); None when it
    holds another version, and the caller syncs the whole file."""
    started = time.perf_counter()
    doc, stamp = tail
    prepared = index.preparer()(_indexable(workspace, doc.path, doc), stamp)
    new_ids = index.append(prepared, held=held,
                           synced_at=datetime.now(UTC).isoformat(timespec="seconds"))
    if new_ids is None:
        return None
    return SyncReport(scanned=1, added=(), changed=(doc.path,), removed=(), full=False,
                      seconds=time.perf_counter() - started, warnings=prepared.warnings,
                      new_ids=tuple(new_ids))


def _indexable(workspace: Workspace, path: str, doc: ParsedDoc) -> ParsedDoc:
    """A parsed file as the index takes it: secrets and hidden text flagged with their
    path:line, and prose also sentence by sentence."""
    read: list[list[str]] = []  # the file's lines, read only if a secret needs them

    def lines() -> list[str]:
        if not read:
            read.append(_lines(workspace, path))
        return read[0]

    return with_sentences(flag_hidden(flag_secrets(doc, lines), lines))

