"""The Memory facade: every capability of memfold as a method; adapters stay thin.

Orchestration only — parsing lives in `workspace.format`, file safety in `workspace.files`,
storage behind the index backend (`index.base.IndexBackend`).  Time is a parameter (`now`),
defaulting to `config.resolve_now()`.

Retain's write path and its protocol live in `memfold.retain`.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from datetime import date, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, TypeVar

from memfold import config
from memfold.errors import BadInput, IndexDamaged, MemfoldError, SourceChanged, UnknownId
from memfold.index import open_index
from memfold.index.base import IndexBackend, Progress
from memfold.index.links import link_warnings as find_link_warnings
from memfold.index.sync import sync
from memfold.journal.events import Archive
from memfold.journal.log import Event
from memfold.lifecycle.judge import Judge, load_judge
from memfold.lifecycle.ledger import Ledger
from memfold.memory_core import CoreVerbs, repairs, signs
from memfold.memory_review import ReviewVerbs
from memfold.recall.embedding import Embedding
from memfold.recall.query import plan_query, refuse_long
from memfold.recall.search import Ranked, Trace, build_trace, describe, recall_options, spec
from memfold.recall.search import about as about_entity
from memfold.recall.search import recall as run_recall
from memfold.recovery import finish_reflect_pages, finish_torn_append
from memfold.screening import valid_source
from memfold.status import stale_pages
from memfold.times.parse import TimeSpecError
from memfold.values import (
    AboutResult,
    Hit,
    ParseWarning,
    RecallResult,
    RetainResult,
    StatusReport,
    SyncReport,
)
from memfold.workspace.files import remove_stray_temporaries
from memfold.workspace.layout import Workspace

if TYPE_CHECKING:  # imported where used, so a short command does not load them all
    from memfold import forget as _forget
    from memfold import views as _views
    from memfold.api import MemoryAPI
    from memfold.capture import CaptureResult
    from memfold.embed.base import Embedder
    from memfold.reflect import plan as _reflect
    from memfold.workspace.watch import Watcher

_T = TypeVar("_T")




class Memory(CoreVerbs, ReviewVerbs):
    """An open memfold workspace: retain, index and report on it.

    >>> with Memory.open("~/.memfold/workspace") as memory:     # doctest: +SKIP
    ...     memory.retain("W @Peter: Lives in Vienna.")
    """

    def __init__(self, workspace: Workspace, *, now: datetime | str | None = None,
                 judge: Judge | None = None, watch: bool = True,
                 source: str | None = None, watcher: Watcher | None = None) -> None:
        self.workspace = workspace
        self.source = source  # who writes through this handle, unless a call says
        self._now = now
        self._index: IndexBackend | None = None
        self._ledger: Ledger | None = None
        self._watcher: Watcher | None = watcher
        self._owns_watcher = watcher is None  # one the caller keeps across opens stays open
        self._watch = watch  # a long-lived process asks the kernel what changed (inotify)
        self._notices: list[str] = []  # notices for the caller: embedding, journal, judge
        # vector search, opened by a semantic recall or `index`; embeds new facts quietly
        self._embedding = Embedding(workspace.index_path.parent, self._notices.append)
        # MEMFOLD_JUDGE is checked on opening, so a bad value stops before anything is written
        self._judge = judge if judge is not None else load_judge(config.judge_settings(),
                                                                 notify=self._notices.append)

    # -- opening ----------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str] | None = None, *,
             now: datetime | str | None = None, judge: Judge | None = None,
             watch: bool = True, source: str | None = None,
             watcher: Watcher | None = None) -> Memory:
        """Open an existing workspace (path, else MEMFOLD_WORKSPACE, else the default).

        `judge` decides which older facts a new one contradicts (default: the one
        MEMFOLD_JUDGE names, else RuleJudge);
        `watch=False` skips the change feed, for a process that recalls only once;
        `source` names who writes through this handle (recorded with every retain that
        does not name its own; default "api");
        `watcher` is a change feed the caller keeps across opens of this workspace (the warm
        process does): a refresh trusts what it reports once it has `settled`.
        """
        workspace = Workspace(config.workspace_path(path))
        workspace.require()
        memory = cls(workspace, now=now, judge=judge, watch=watch, source=source,
                     watcher=watcher)
        memory._finish_reflect_pages()
        if notice := finish_torn_append(memory.workspace):  # before anything reads a day file
            memory._notices.append(notice)
        return memory

    def _finish_reflect_pages(self) -> None:
        """Finish a reflect run's page set that a crash left half renamed (memfold.recovery)."""
        if notice := finish_reflect_pages(self.workspace):
            self._notices.append(notice)

    @staticmethod
    def init(path: str | os.PathLike[str] | None = None) -> tuple[Path, list[str]]:
        """Create a workspace skeleton; idempotent, never overwrites. Returns what it made."""
        workspace = Workspace(config.workspace_path(path))
        try:
            return workspace.root, workspace.init()
        except OSError as exc:
            raise MemfoldError(f"cannot create workspace at {workspace.root}: "
                               f"{exc.strerror or exc}") from exc

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        if self._watcher is not None:
            if self._owns_watcher:
                self._watcher.close()
            self._watcher = None
        if self._index is not None:
            self._index.close()
            self._index = None

    @property
    def index_backend(self) -> IndexBackend:
        if self._index is None:
            self._index = open_index(self.workspace.index_path)
        return self._index

    @property
    def ledger(self) -> Ledger:
        if self._ledger is None:
            self._ledger = Ledger(self.workspace, self.index_backend, judge=self._judge,
                                  signer=lambda: self.source)
        return self._ledger

    @property
    def notices(self) -> list[str]:
        """Repairs and journal problems met so far (one line each), for the caller to show."""
        found = list(self._index.notices) if self._index else []
        embedded = self._notices + self._embedding.notices
        return found + (list(self._ledger.notices) if self._ledger else []) + embedded

    def _ts(self, now: datetime | str | None = None) -> str:
        return self.now(now).isoformat(timespec="seconds")

    def now(self, now: datetime | str | None = None) -> datetime:
        return config.resolve_now(now if now is not None else self._now)

    # -- retain -----------------------------------------------------------------------

    def retain(self, bullets: str | Sequence[str], *, date: date | str | None = None,
               now: datetime | str | None = None, source: str | None = None,
               allow_secret: bool = False, future: bool = False) -> RetainResult:
        """Append Retain bullets to the day's log (today by default) and index them.

        Each bullet is `KIND[(params)] [@Entity ...]: content`; a block id is added unless
        the bullet ends with one, and the journal records who retained it (`source`,
        shown as `origin` by show and recall).  Raises BadInput,
        writing nothing, if any bullet is invalid or looks like it holds a secret (unless
        `allow_secret`), gives a block id already used, or `date` is more than a day after
        now (unless `future`).  The write path, and what runs
        under the write lock, is `memfold.retain`.
        """
        from memfold import retain as retain_module

        plan = retain_module.prepare(bullets, date=date, clock=lambda: self.now(now),
                                     origin=source or self.source or "api",
                                     allow_secret=allow_secret, future=future)
        return retain_module.write(self.ledger, plan, clock=lambda: self.now(now),
                                   notify=self._notices.append)

    def capture(self, data: bytes | str, *, format: str | None = None, name: str = "-",
                date: date | str | None = None, extract: bool = True, dry_run: bool = False,
                judge: bool = True, now: datetime | str | None = None,
                source: str | None = None,
                progress: Callable[[int, int], None] | None = None) -> CaptureResult:
        """Capture a chat export into the day logs: each turn as prose under its day, and the
        facts its speakers state as Retain bullets citing the turn (`extract=False`: the
        turns only).  `format` names the export's format (see `memfold.capture`), else it is
        detected; `date` is the day of messages without times (default today).  Idempotent:
        turns captured before are skipped.  Raises BadInput, writing nothing, when the input
        is in no known format; conversations that could not be read are in `problems`.
        `judge=False` indexes the new facts without weighing them against older ones (a bulk
        import: the judge's cost grows with every fact about the same person).
        """
        from memfold import capture as _capture
        from memfold.retain import parse_day

        day = parse_day(date) if date is not None else self.now(now).date()
        export = _capture.read_export(data, format=format, day=day, name=name)
        origin = valid_source(source or self.source or f"capture:{export.format}")
        result = _capture.run(self.ledger, export, day=day, extracting=extract,
                              dry_run=dry_run, origin=origin, ts=self._ts(now),
                              notify=self._notices.append, progress=progress)
        if result.files and not dry_run:
            if judge:
                self._sync(only=list(result.files), now=now)
            else:
                sync(self.workspace, self.index_backend, only=list(result.files))
                self.ledger.after_sync([], [], ts=self._ts(now))
        return result

    # -- recall ------------------------------------------------------------------------

    def recall(
        self,
        query: str,
        *,
        k: int = 25,
        since: str | date | None = None,
        until: str | date | None = None,
        kinds: Sequence[str] | str | None = None,
        entities: Sequence[str] = (),
        include_all: bool = False,
        budget: int | None = None,
        now: datetime | str | None = None,
        mode: str | None = None,
        show_secrets: bool = False,
        rerank: bool = False,
    ) -> RecallResult:
        """Ranked, cited facts for a query; files changed since the last sync are synced first.

        `since`/`until` take specs like "30d", "2025-11", "last week"; `kinds` takes
        world/experience/opinion/observation/text or W/B/O/S; `budget` packs whole results
        up to about that many tokens (four characters per token); a query longer than
        MAX_QUERY_CHARS is refused.  `mode` is lexical, semantic or hybrid (default:
        MEMFOLD_RECALL_MODE, else hybrid when the embed extra is installed and the workspace
        has vectors, else lexical).  Likely secrets in the
        results are shown as `[REDACTED:<kind>]` unless `show_secrets`.  `rerank` takes a
        second look at the best candidates with the embed extra's model (`embed.rerank`;
        EmbedUnavailable without the extra).
        """
        moment = self.now(now)
        today = moment.date()
        options = recall_options(query, k=k, since=since, until=until, kinds=kinds,
                                 entities=entities, include_all=include_all, budget=budget,
                                 today=today)
        plan = plan_query(query, today=today)
        reranker = None
        if rerank:
            from memfold.embed.rerank import shared_reranker

            reranker = shared_reranker()

        def answer() -> tuple[SyncReport, Ranked]:
            report = self.refresh()
            chosen, semantic = self._embedding.mode(self.index_backend, mode)
            chosen_options = replace(options, mode=chosen, semantic=semantic, rerank=reranker)
            return report, run_recall(self.index_backend, plan, chosen_options)

        report, ranked = self._repairing(answer)
        return RecallResult(
            query=query, as_of=moment.isoformat(timespec="seconds"),
            hits=_private(ranked.hits, show_secrets),
            sync=report, total_warnings=self.index_backend.warning_count(),
            window=ranked.window, entities=ranked.entities, truncated=ranked.truncated,
            hidden=ranked.hidden, notes=ranked.notes)

    def about(self, name: str, *, k: int = 50, include_all: bool = False,
              now: datetime | str | None = None, show_secrets: bool = False) -> AboutResult:
        """An entity's page and its linked facts, newest first ("tell me about X");
        superseded and expired facts only with `include_all`; secrets redacted unless
        `show_secrets`."""
        if not name.strip().lstrip("@"):
            raise BadInput("give an entity name, e.g. `memfold about Peter`")
        refuse_long(name, "name", ": give the entity's name, not a document")

        def answer() -> AboutResult:
            self.refresh()
            return about_entity(self.index_backend, name.strip(), k=k,
                                include_all=include_all, today=self.now(now).date())

        result = self._repairing(answer)
        return replace(result, hits=_private(result.hits, show_secrets))

    def get(self, fact_id: str, *, strict: bool = False, use: bool = True,
            now: datetime | str | None = None, show_secrets: bool = False) -> Hit:
        """One fact by id, with its provenance and lifecycle state.

        If the fact's file changed since it was indexed, the file is synced first; with
        `strict=True` a SourceChanged error is raised instead.  A get is a use of the fact
        (it resets its decay) unless `use=False`; the hit shows the fact as it was before
        that use, the status and decay a recall at the same moment reports.  Likely secrets
        in its text are shown as `[REDACTED:<kind>]` unless `show_secrets`.
        """
        fact_id = fact_id.strip().lstrip("^")
        hit = self._repairing(lambda: self._get(fact_id, strict=strict, use=use, now=now))
        return hit if show_secrets else hit.redacted()

    def _get(self, fact_id: str, *, strict: bool, use: bool,
             now: datetime | str | None) -> Hit:
        backend = self.index_backend
        found = backend.by_id(fact_id)
        if not found:
            self.refresh()
            found = backend.by_id(fact_id)
        if not found:
            raise UnknownId(f"no fact with id {fact_id!r}; `memfold recall` finds ids")
        path = found[0].fact.path
        if self._changed_since_indexed(path):
            if strict:
                raise SourceChanged(f"{path} changed since it was indexed; run `memfold index` "
                                    "(or get without strict) to read the current version")
            self._sync(only=[path], now=now)
            found = backend.by_id(fact_id)
            if not found:
                raise UnknownId(f"fact {fact_id!r} is no longer in {path}")
        else:
            self.ledger.replay()
        # the fact as recall would report it now; the use comes after (it revives a fact
        # that only time archived, which the next look then shows)
        hit = describe(found[0], self.now(now).date())
        if use:
            self.ledger.use(fact_id, ts=self._ts(now))
        return hit

    @signs
    @repairs
    def use(self, fact_id: str, *, now: datetime | str | None = None,
            source: str | None = None) -> None:
        """Acknowledge that a fact was used: it stays fresh (decay restarts from now)."""
        self.refresh()
        self.ledger.use(fact_id.strip().lstrip("^"), ts=self._ts(now))

    @signs
    @repairs
    def note(self, fact_id: str, text: str, *, rev: int,
             now: datetime | str | None = None, source: str | None = None) -> int:
        """Set a fact's note if its revision is still `rev` (compare-and-set).

        Returns the new revision; raises StaleRevision (with `.current`) when the revision
        moved on, UnknownId for an unknown fact, and BadInput for an empty note.  Every note
        is kept in the journal (`history`); the fact shows the newest.
        """
        if not isinstance(rev, int) or isinstance(rev, bool) or rev < 0:
            raise BadInput(f"--rev must be a revision number (0 or more), not {rev!r}")
        if not isinstance(text, str) or not text.strip():
            raise BadInput("a note needs text: say what you learned about the fact (the "
                           "fact's earlier notes stay in `memfold history`)")
        self.refresh()
        return self.ledger.note(fact_id.strip().lstrip("^"), text, rev, ts=self._ts(now))

    @signs
    @repairs
    def supersede(self, old_id: str, new_id: str, *, reason: str = "superseded by hand",
                  now: datetime | str | None = None, source: str | None = None) -> bool:
        """Mark OLD superseded by NEW (pointers both ways; nothing is deleted)."""
        self.refresh()
        return self.ledger.supersede(old_id.strip().lstrip("^"), new_id.strip().lstrip("^"),
                                     reason=reason, ts=self._ts(now))

    @signs
    @repairs
    def restore(self, fact_id: str, *, reason: str = "restored by hand",
                now: datetime | str | None = None, source: str | None = None) -> None:
        """Make a superseded or archived fact active again (and fresh)."""
        self.refresh()
        self.ledger.restore(fact_id.strip().lstrip("^"), reason=reason, ts=self._ts(now))

    @repairs
    def history(self, fact_id: str) -> list[Event]:
        """The journal events about a fact, oldest first."""
        fact_id = fact_id.strip().lstrip("^")
        self.refresh()
        events = self.index_backend.events_for(fact_id)
        if not events and not self.index_backend.by_id(fact_id):
            raise UnknownId(f"no fact with id {fact_id!r}; `memfold recall` finds ids")
        return events

    @repairs
    def trace(self, fact_id: str, *, now: datetime | str | None = None,
              show_secrets: bool = False) -> Trace:
        """A fact's lineage both ways: what it supersedes, what superseded it, what it was
        derived from (secrets redacted unless `show_secrets`)."""
        fact_id = fact_id.strip().lstrip("^")
        self.refresh()
        found = build_trace(self.index_backend, self.ledger.fact(fact_id),
                            self.now(now).date())
        if show_secrets:
            return found
        return replace(found, root=found.root.redacted(),
                       supersedes=_private(found.supersedes, False),
                       superseded_by=_private(found.superseded_by, False),
                       derived_from=_private(found.derived_from, False))

    @contextlib.contextmanager
    def signed(self, source: str | None) -> Iterator[None]:
        """Within the block, sign every journal record written through this handle with
        `source` (who is writing, e.g. an agent's name) instead of the handle's own `source`;
        None changes nothing.  `with memory.signed("agent:planner"): memory.note(...)`"""
        if source is None:
            yield
            return
        previous, self.source = self.source, valid_source(source)
        try:
            yield
        finally:
            self.source = previous

    def _repairing(self, read: Callable[[], _T]) -> _T:
        """Run a read; when it meets a damaged page of the index (one the check on open did
        not read), move the index aside, rebuild it from the Markdown and the journal, and
        run the read again."""
        try:
            return read()
        except IndexDamaged as exc:
            self.index_backend.repair(str(exc.__cause__ or exc))
            self._sync(full=True)
            return read()

    def refresh(self) -> SyncReport:
        """Sync what changed on disk since the last sync.

        The first call stats every file; later calls in the same process ask the kernel which
        files changed (inotify on Linux) and stat nothing when nothing did.
        """
        if self._watcher is None:
            if not self._watch:
                return self._sync()
            from memfold.workspace.watch import Watcher  # (ctypes: only a long-lived process)

            self._watcher = Watcher(self.workspace.root)  # armed before the scan it relies on
        watcher = self._watcher
        kept = not self._owns_watcher  # a feed kept across opens must check the index it fed
        if kept and not _later_state(watcher.index_token, self.index_backend.lineage()):
            watcher.settled = False  # another index than the one the feed synced: scan
        changed = watcher.changes() if watcher.settled else None
        if changed is None:
            report = self._sync()
            watcher.settled = True
        else:
            tracked = sorted(p for p in changed if self.workspace.is_tracked(p))
            if not tracked:
                self.ledger.replay()
                return SyncReport(scanned=0, added=(), changed=(), removed=(), full=False,
                                  seconds=0.0)
            report = self._sync(only=tracked)
        if kept:
            watcher.index_token = self.index_backend.lineage()
        return report

    def _sync(self, *, only: Sequence[str] | None = None, full: bool = False,
              progress: Progress | None = None, now: datetime | str | None = None,
              embed_all: bool = False, judge: bool = True) -> SyncReport:
        """Sync the files, then the journal (replay, revisions, contradictions); with
        `embed_all`, also every missing vector of an open semantic search (`memfold index`;
        a recall embeds a bounded backlog itself, in `Embedding.mode`).  A first index or
        a rebuild of a workspace whose journal holds no decision yet judges every fact in
        the order written, unless `judge` is False (Ledger.judge_existing)."""
        self._finish_reflect_pages()
        report = sync(self.workspace, self.index_backend, only=only, full=full,
                      progress=progress)
        paths = None if full else [*report.added, *report.changed]
        self.ledger.after_sync(report.new_ids, paths, ts=self._ts(now))
        if report.rebuilt and judge:
            self.ledger.judge_existing(ts=self._ts(now))
        if embed_all:
            self._embedding.embed_quietly(self.index_backend, progress is not None)
        return report

    # -- semantic recall (memfold.embed) -----------------------------------------------

    def set_embedder(self, embedder: Embedder) -> None:
        """Use this embedder for semantic and hybrid recall (tests pass a FakeEmbedder)."""
        self._embedding.use(embedder)

    def _changed_since_indexed(self, path: str) -> bool:
        known = self.index_backend.stamps([path]).get(path)
        on_disk = self.workspace.stat_some({path}).get(path)
        return known is None or on_disk is None or (
            (known.size, known.mtime_ns) != (on_disk.size, on_disk.mtime_ns))

    # -- index and status ---------------------------------------------------------------

    @repairs
    def index(self, *, full: bool = False, progress: Progress | None = None,
              judge: bool = True) -> SyncReport:
        """Sync the index with the files (only what changed), or rebuild it with `full` —
        from the Markdown and the journal, so every lifecycle state comes back.  A first
        index, or a rebuild whose journal holds no decision yet, judges the facts in the
        order they were written and journals the judge's word (`judge=False`: not).  A
        workspace using semantic recall also gets vectors for its new facts.  Temporary
        files a killed writer left behind are removed."""
        self._embedding.open_for_index()
        report = self._sync(full=full, progress=progress, embed_all=True, judge=judge)
        links = tuple(self.link_warnings())
        report = replace(report, link_warnings=links,
                         open_warnings=self.index_backend.warning_count() + len(links))
        root = self.workspace.root  # memory/ and bank/ were just scanned; the rest is small
        stray = remove_stray_temporaries([*(root / rel for rel in report.temporaries),
                                          *root.glob(".*.tmp"),
                                          *self.workspace.cache_dir.rglob(".*.tmp")])
        if stray:
            self._notices.append(f"removed {len(stray)} temporary files an interrupted write "
                               "left behind")
        return report

    @repairs
    def status(self) -> StatusReport:
        """Counts, link warnings, and which files changed since the last sync (by stat;
        nothing is synced).  `warnings` counts parse and link warnings."""
        from memfold.status import status_report

        return status_report(self.workspace, self.index_backend, tuple(self.link_warnings()))

    @repairs
    def warnings(self) -> list[ParseWarning]:
        """Every parse warning the index holds, by path and line."""
        return self.index_backend.warnings()

    @repairs
    def link_warnings(self) -> list[ParseWarning]:
        """Where hand edits broke links, as of the last sync (nothing is synced): duplicate
        block ids, supersede or merge pointers to facts no file holds, and notes or
        supersedes journaled about such facts — each with its path:line and what to do."""
        return find_link_warnings(self.workspace, self.index_backend)

    # -- reflect (memfold.reflect.plan) -------------------------------------------------------

    def reflect(self, *, since: str | date = "7d", dry_run: bool = False,
                now: datetime | str | None = None) -> _reflect.ReflectPlan:
        """Consolidate duplicates, weigh opinions against new evidence, refresh entity
        pages and sweep expiry and decay — writing only generated regions of bank pages.
        When the workspace uses semantic recall, paraphrases count as duplicates too.

        With `dry_run` nothing is written; `plan.diff()` is exactly what a run would write.
        """
        from memfold.reflect import plan as _reflect
        from memfold.scan.secrets import find_secrets

        today = self.now(now).date()
        try:
            start = spec(since, today).start
        except TimeSpecError as exc:
            raise BadInput(str(exc)) from None
        self.refresh()
        # the vector search when the workspace has vectors (for paraphrases)
        _, semantic = self._embedding.mode(self.index_backend, None, backlog=True)
        plan = _reflect.run(self.workspace, self.ledger, since=start or today, today=today,
                            ts=self._ts(now), dry_run=dry_run,
                            is_secret=lambda text: bool(find_secrets(text)),
                            similar=semantic.paraphrases if semantic else None)
        if not dry_run and plan.pages:
            self._sync(only=[p.path for p in plan.pages], now=now)
        return plan

    def reflect_undo(self, *, now: datetime | str | None = None) -> list[str]:
        """Restore the pages the last reflect wrote and take back its decisions."""
        from memfold.reflect import plan as _reflect

        pages = _reflect.undo(self.workspace, self.ledger, ts=self._ts(now))
        self._sync(only=pages, now=now)
        return pages

    @signs
    @repairs
    def forget(self, fact_id: str, *, purge: bool = False, dry_run: bool = False,
               now: datetime | str | None = None, source: str | None = None) -> list[str]:
        """Archive a fact (kept, findable with --all); with `purge`, remove every copy of it
        from the workspace (see `purge`).  Returns the Markdown files changed (with
        `dry_run`, that a purge would change; nothing is written)."""
        if not purge:
            if dry_run:
                raise BadInput("dry_run goes with purge: archiving changes no file")
            self.refresh()
            self.ledger.transact(lambda: [Archive(id=self.ledger.fact(
                fact_id.strip().lstrip("^")).fact.id, reason="forgotten by hand")],
                ts=self._ts(now))
            return []
        return list(self.purge(fact_id, dry_run=dry_run, now=now).files)

    @signs
    def purge(self, fact_id: str, *, dry_run: bool = False,
              now: datetime | str | None = None, source: str | None = None) -> _forget.PurgePlan:
        """Remove a fact and every copy: bullets with its id or text, its secret tokens
        anywhere in the workspace, the index, vectors and undo snapshots (see memfold.forget).
        Returns the plan — every place, `path:line` for text; `dry_run` only makes it."""
        from memfold import forget as _forget

        self.refresh()
        plan = _forget.purge(self.workspace, self.ledger, fact_id.strip().lstrip("^"),
                             ts=self._ts(now), dry_run=dry_run)
        if not dry_run:
            self._sync(only=list(plan.files), now=now)
            self.index_backend.scrub()
        return plan

    @property
    def views(self) -> _views.Views:
        """What a person looks at — timeline, opinion histories, lifecycle lists, supersede
        chains, source files, the journal's chain — read-only (memfold.views)."""
        from memfold import views as _views

        return _views.Views(self.ledger, refresh=self.refresh, clock=self.now)

    @repairs
    def stale_pages(self) -> list[dict[str, object]]:
        """Bank pages whose generated lines cite facts that changed or vanished."""

        self.refresh()
        return stale_pages(self.index_backend)


def _private(hits: Sequence[Hit], show_secrets: bool) -> tuple[Hit, ...]:
    """The hits as outputs show them: likely secrets redacted unless asked for."""
    return tuple(hits) if show_secrets else tuple(h.redacted() for h in hits)


def _later_state(seen: tuple[str, int] | None, now: tuple[str, int] | None) -> bool:
    """Whether the index's lineage `now` is the one a change feed `seen` last, or a later
    state of that index (another process synced it since)."""
    return seen is not None and now is not None and now[0] == seen[0] and now[1] >= seen[1]


if TYPE_CHECKING:  # mypy holds Memory to the verbs a server's bank has too (memfold.api)
    _IS_API: type[MemoryAPI] = Memory
