"""The index kept in step with the Markdown, for one open workspace (`Memory`'s).

This module owns the facade's handle on the index and the ledger (each opened on first use),
and when they are brought up to date: a refresh before a read (a stat of every file, or in a
long-lived process the kernel's change feed); a sync and the journal after it (replay,
revisions, contradictions); a damaged index met by a read put aside and rebuilt — by
`Ledger.rebuild`, the one place that is written — and the read run again.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Concatenate, ParamSpec, Protocol, TypeVar

from memfold.errors import IndexDamaged, SourceChanged, UnknownId
from memfold.index import open_index
from memfold.index.links import link_warnings
from memfold.index.sync import sync
from memfold.lifecycle.ledger import Ledger
from memfold.recovery import finish_reflect_pages, finish_torn_append
from memfold.values import SyncReport
from memfold.workspace.files import remove_stray_temporaries

if TYPE_CHECKING:
    from memfold.index.base import Candidate, IndexBackend, Progress
    from memfold.lifecycle.judge import Judge
    from memfold.lifecycle.judge.meaning import Embeds
    from memfold.recall.embedding import Embedding
    from memfold.workspace.layout import Workspace
    from memfold.workspace.watch import ChangeFeed

_T = TypeVar("_T")
_P = ParamSpec("_P")


class Kept(Protocol):
    """What `repairs` needs of the object whose method it wraps (Memory)."""

    @property
    def _upkeep(self) -> Upkeep: ...


_K = TypeVar("_K", bound=Kept)


def repairs(method: Callable[Concatenate[_K, _P], _T]) -> Callable[Concatenate[_K, _P], _T]:
    """A read that meets a damaged index repairs it and answers (see Upkeep.repairing)."""

    @functools.wraps(method)
    def run(self: _K, /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        return self._upkeep.repairing(lambda: method(self, *args, **kwargs))

    return run


class Upkeep:
    """The index and ledger of one workspace, and keeping them up to date.

    `stamp` gives the time a journal record is stamped with when the caller names none;
    `signer` who is writing now; `notify` takes notices for the caller.  `watch=False`
    stats the files on every refresh (a process that recalls once); `watcher` is a change
    feed the caller keeps across opens of this workspace, trusted once it has `settled`.
    `meaning` gives the embedder the judge may ask, or None (`Ledger`).
    """

    def __init__(self, workspace: Workspace, *, judge: Judge | None,
                 signer: Callable[[], str | None],
                 stamp: Callable[[], str], notify: Callable[[str], None], watch: bool,
                 watcher: ChangeFeed | None,
                 meaning: Callable[[], Embeds | None] | None = None) -> None:
        self.workspace = workspace
        self._meaning = meaning
        self._judge, self._signer, self._stamp, self._notify = judge, signer, stamp, notify
        self._index: IndexBackend | None = None
        self._ledger: Ledger | None = None
        self._watch = watch  # a long-lived process asks the kernel what changed (inotify)
        self._watcher = watcher
        self._owns_watcher = watcher is None  # one the caller keeps across opens stays open

    @property
    def backend(self) -> IndexBackend:
        if self._index is None:
            self._index = open_index(self.workspace.index_path)
        return self._index

    @property
    def ledger(self) -> Ledger:
        if self._ledger is None:
            self._ledger = Ledger(self.workspace, self.backend, judge=self._judge,
                                  meaning=self._meaning,
                                  signer=self._signer)
        return self._ledger

    @property
    def notices(self) -> list[str]:
        """The index's repairs and the journal's problems met so far (one line each)."""
        return [*(self._index.notices if self._index else ()),
                *(self._ledger.notices if self._ledger else ())]

    def close(self) -> None:
        if self._watcher is not None:
            if self._owns_watcher:
                self._watcher.close()
            self._watcher = None
        if self._index is not None:
            self._index.close()
            self._index = None

    def recover(self) -> None:
        """Finish what a crash left half done, before anything reads the files it touched
        (memfold.recovery): a reflect run's page set, a retain's torn append."""
        self.finish_reflect_pages()
        if notice := finish_torn_append(self.workspace):  # before anything reads a day file
            self._notify(notice)

    def finish_reflect_pages(self) -> None:
        """Finish a reflect run's page set that a crash left half renamed (memfold.recovery)."""
        if notice := finish_reflect_pages(self.workspace):
            self._notify(notice)

    def refresh(self) -> SyncReport:
        """Sync what changed on disk since the last sync: the first call stats every file;
        later calls in the same process ask the kernel which files changed (inotify on Linux)
        and stat nothing when nothing did."""
        if self._watcher is None:
            if not self._watch:
                return self.sync()
            from memfold.workspace.watch import Watcher  # (ctypes: only a long-lived process)

            self._watcher = Watcher(self.workspace.root)  # armed before the scan it relies on
        watcher = self._watcher
        kept = not self._owns_watcher  # a feed kept across opens must check the index it fed
        if kept and not _later_state(watcher.index_token, self.backend.lineage()):
            watcher.settled = False  # another index than the one the feed synced: scan
        changed = watcher.changes() if watcher.settled else None
        if changed is None:
            report = self.sync()
            watcher.settled = True
        else:
            tracked = sorted(p for p in changed if self.workspace.is_tracked(p))
            if not tracked:
                self.ledger.replay()
                return SyncReport(scanned=0, added=(), changed=(), removed=(), full=False,
                                  seconds=0.0)
            report = self.sync(only=tracked)
        if kept:
            watcher.index_token = self.backend.lineage()
        return report

    def sync(self, *, only: Sequence[str] | None = None, full: bool = False,
             progress: Progress | None = None, ts: str | None = None, judge: bool = True,
             weigh: bool = True) -> SyncReport:
        """Sync the files, then the journal (replay; with `weigh`, revisions and the new
        facts judged against older ones).  A first index or a rebuild of a workspace whose
        journal holds no decision yet judges every fact in the order written, unless `judge`
        is False (Ledger.judge_existing)."""
        self.finish_reflect_pages()
        report = sync(self.workspace, self.backend, only=only, full=full, progress=progress)
        return self._settle(report, full=full, ts=ts, judge=judge, weigh=weigh)

    def _settle(self, report: SyncReport, *, full: bool, ts: str | None, judge: bool,
                weigh: bool = True) -> SyncReport:
        stamp = ts or self._stamp()
        if weigh:
            paths = None if full else [*report.added, *report.changed]
            self.ledger.after_sync(report.new_ids, paths, ts=stamp)
        else:
            self.ledger.after_sync([], [], ts=stamp)
        if report.rebuilt and judge:
            self.ledger.judge_existing(ts=stamp)
        return report

    def index(self, embedding: Embedding, *, full: bool, progress: Progress | None,
              judge: bool) -> SyncReport:
        """`memfold index`: a sync (or with `full` a rebuild), every missing vector of an open
        semantic search (a recall embeds a bounded backlog itself, in `Embedding.mode`), the
        link warnings counted, and the temporary files a killed writer left removed."""
        embedding.open_for_index()
        report = self.sync(full=full, progress=progress, judge=judge)
        embedding.embed_quietly(self.backend, progress is not None)
        links = tuple(link_warnings(self.workspace, self.backend))
        self.remove_stray_temporaries(report.temporaries)
        return replace(report, link_warnings=links,
                       open_warnings=self.backend.warning_count() + len(links))

    def remove_stray_temporaries(self, temporaries: Sequence[str]) -> None:
        """Remove the temporary files a killed writer left behind: those a sync met
        (`temporaries`, in memory/ and bank/) and the hidden *.tmp files of the workspace's
        top and its cache."""
        root = self.workspace.root  # memory/ and bank/ were just scanned; the rest is small
        stray = remove_stray_temporaries([*(root / rel for rel in temporaries),
                                          *root.glob(".*.tmp"),
                                          *self.workspace.cache_dir.rglob(".*.tmp")])
        if stray:
            self._notify(f"removed {len(stray)} temporary files an interrupted write left "
                         "behind")

    def repairing(self, read: Callable[[], _T]) -> _T:
        """Run a read; when it meets a damaged page of the index (one the check on open did
        not read), put the index aside, rebuild it from the Markdown and the journal, and
        run the read again."""
        try:
            return read()
        except IndexDamaged as exc:
            self.finish_reflect_pages()
            self._settle(self.ledger.rebuild(exc), full=True, ts=None, judge=True)
            return read()

    def current(self, fact_id: str, *, strict: bool, ts: str | None) -> Candidate:
        """A fact by id as its file now says (the file synced first when it changed since it
        was indexed; with `strict`, SourceChanged instead), the journal replayed."""
        found = self.backend.by_id(fact_id)
        if not found:
            self.refresh()
            found = self.backend.by_id(fact_id)
        if not found:
            raise UnknownId(f"no fact with id {fact_id!r}; `memfold recall` finds ids")
        path = found[0].fact.path
        if not self.changed_since_indexed(path):
            self.ledger.replay()
            return found[0]
        if strict:
            raise SourceChanged(f"{path} changed since it was indexed; run `memfold index` "
                                "(or get without strict) to read the current version")
        self.sync(only=[path], ts=ts)
        found = self.backend.by_id(fact_id)
        if not found:
            raise UnknownId(f"fact {fact_id!r} is no longer in {path}")
        return found[0]

    def changed_since_indexed(self, path: str) -> bool:
        known = self.backend.stamps([path]).get(path)
        on_disk = self.workspace.stat_some({path}).get(path)
        return known is None or on_disk is None or (
            (known.size, known.mtime_ns) != (on_disk.size, on_disk.mtime_ns))


def _later_state(seen: tuple[str, int] | None, now: tuple[str, int] | None) -> bool:
    """Whether the index's lineage `now` is the one a change feed `seen` last, or a later
    state of that index (another process synced it since)."""
    return seen is not None and now is not None and now[0] == seen[0] and now[1] >= seen[1]
