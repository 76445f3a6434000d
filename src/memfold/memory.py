"""The Memory facade: every capability of memfold as a method; adapters stay thin.

Each method is a thin call into the module that owns the verb — `retain`, `capture`, `recall`,
`session` (core memory and session context), `lifecycle` (the ledger and the review queue),
`reflect`, `forget`, `status`, `views`, `documents` — and the index is kept in step with the
files by `memfold.upkeep`.  Time is a parameter (`now`), defaulting to `config.resolve_now()`.
A write is signed explicitly, `with self.signed(source):` in its body; `@refuses_undecodable`
checks its text arguments first, and `@repairs` rebuilds a damaged index a read meets.
`Memory` satisfies `memfold.api.MemoryAPI` (the verbs a server's bank answers too); it
inherits `import_source` and `export_facts` from `memfold.importing.facade`.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from datetime import date, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from memfold import config, names
from memfold import retain as retain_module
from memfold.errors import BadInput, MemfoldError
from memfold.importing.facade import ImportExport
from memfold.index.base import IndexBackend, Progress
from memfold.index.links import link_warnings as find_link_warnings
from memfold.journal.events import Archive
from memfold.journal.log import Event
from memfold.lifecycle.judge import Judge, load_judge
from memfold.lifecycle.ledger import Ledger
from memfold.lifecycle.review import REVIEW_LIMIT, Selection, queue, settle
from memfold.recall.embedding import Embedding
from memfold.recall.query import plan_query, refuse_long
from memfold.recall.search import Ranked, Trace, build_trace, describe, recall_options
from memfold.recall.search import about as about_entity
from memfold.recall.search import recall as run_recall
from memfold.screening import refuses_undecodable, valid_source
from memfold.session import core as core_memory
from memfold.status import stale_pages, status_report
from memfold.upkeep import Upkeep, repairs
from memfold.values import (
    AboutResult,
    Hit,
    ParseWarning,
    RecallResult,
    RetainResult,
    StatusReport,
    SyncReport,
)
from memfold.workspace.layout import Workspace

if TYPE_CHECKING:  # imported where used, so a short command does not load them all
    from memfold.api import MemoryAPI, Moment
    from memfold.capture import CaptureResult
    from memfold.documents import Files
    from memfold.embed.base import Embedder
    from memfold.forget import PurgePlan
    from memfold.lifecycle.review import ReviewOutcome, ReviewQueue
    from memfold.reflect.plan import ReflectPlan
    from memfold.session.context import SessionContext
    from memfold.session.core import CoreEdit, CoreMemory
    from memfold.views import Views
    from memfold.workspace.watch import ChangeFeed


class Memory(ImportExport):
    """An open memfold workspace: retain, index and report on it.

    >>> with Memory.open("~/.memfold/workspace") as memory:     # doctest: +SKIP
    ...     memory.retain("W @Peter: Lives in Vienna.")
    """

    def __init__(self, workspace: Workspace, *, now: Moment = None, judge: Judge | None = None,
                 watch: bool = True, source: str | None = None,
                 watcher: ChangeFeed | None = None) -> None:
        self.workspace = workspace
        self.source = source  # who writes through this handle, unless a call says
        self._now = now
        self._notices: list[str] = []  # notices for the caller: embedding, journal, judge
        # vector search, opened by a semantic recall or `index`; embeds new facts quietly
        self._embedding = Embedding(workspace.index_path.parent, self._notices.append)
        # MEMFOLD_JUDGE is checked on opening, so a bad value stops before anything is written
        chosen = judge if judge is not None else load_judge(config.judge_settings(),
                                                            notify=self._notices.append)
        self._upkeep = Upkeep(workspace, judge=chosen, signer=lambda: self.source,
                              stamp=self._ts, notify=self._notices.append, watch=watch,
                              watcher=watcher, meaning=self._embedding.for_judge)

    # -- opening ----------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str] | None = None, *, now: Moment = None,
             judge: Judge | None = None, watch: bool = True, source: str | None = None,
             watcher: ChangeFeed | None = None) -> Memory:
        """Open an existing workspace (path, else MEMFOLD_WORKSPACE, else the default).

        `judge` decides which older facts a new one contradicts (default: the one
        MEMFOLD_JUDGE names, else RuleJudge); `watch=False` skips the change feed, for a
        process that recalls only once; `source` names who writes through this handle
        (recorded with every retain that does not name its own; default "api"); `watcher` is
        a change feed the caller keeps across opens of this workspace (the warm process
        does): a refresh trusts what it reports once it has `settled`.
        """
        workspace = Workspace(config.workspace_path(path))
        workspace.require()
        memory = cls(workspace, now=now, judge=judge, watch=watch, source=source,
                     watcher=watcher)
        memory._upkeep.recover()
        return memory

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
        self._upkeep.close()

    @property
    def index_backend(self) -> IndexBackend:
        return self._upkeep.backend

    @property
    def ledger(self) -> Ledger:
        return self._upkeep.ledger

    @property
    def notices(self) -> list[str]:
        """Repairs and journal problems met so far (one line each), for the caller to show."""
        return self._upkeep.notices + self._notices + self._embedding.notices

    def _ts(self, now: Moment = None) -> str:
        return self.now(now).isoformat(timespec="seconds")

    def now(self, now: Moment = None) -> datetime:
        return config.resolve_now(now if now is not None else self._now)

    # -- retain -----------------------------------------------------------------------

    def retain(self, bullets: str | Sequence[str], *, date: date | str | None = None,
               now: Moment = None, source: str | None = None, allow_secret: bool = False,
               future: bool = False, idempotency_key: str | None = None) -> RetainResult:
        """Append Retain bullets to the day's log (today by default) and index them.

        Each bullet is `KIND[(params)] [@Entity ...]: content`, given a block id; the journal
        records who retained it (`source`).  Raises BadInput, writing nothing, for an invalid
        bullet, a likely secret (unless `allow_secret`), a block id in use, or a `date` past
        tomorrow (unless `future`).  An `idempotency_key` journaled before stores nothing and
        answers that retain's facts (`repeated`).  The write path is `memfold.retain`."""
        plan = retain_module.prepare(bullets, date=date, clock=lambda: self.now(now),
                                     origin=source or self.source or "api", future=future,
                                     allow_secret=allow_secret, idempotency_key=idempotency_key)
        return retain_module.write(plan, workspace=self.workspace, backend=self.index_backend,
                                   ledger=self.ledger, clock=lambda: self.now(now),
                                   notify=self._notices.append)

    def capture(self, data: bytes | str, *, format: str | None = None, name: str = "-",
                date: date | str | None = None, extract: bool = True, dry_run: bool = False,
                judge: bool = True, now: Moment = None, source: str | None = None,
                progress: Callable[[int, int], None] | None = None) -> CaptureResult:
        """Capture a chat export into the day logs: each turn as prose under its day, and the
        facts its speakers state as Retain bullets citing the turn (`extract=False`: the
        turns only).  `format` names the export's format (see `memfold.capture`), else it is
        detected; `date` is the day of messages without times (default today).  Idempotent:
        turns captured before are skipped.  Raises BadInput, writing nothing, when the input
        is in no known format; conversations that could not be read are in `problems`.
        `judge=False` indexes the new facts without weighing them (a bulk import)."""
        from memfold import capture as _capture

        day = retain_module.parse_day(date) if date is not None else self.now(now).date()
        export = _capture.read_export(data, format=format, day=day, name=name)
        origin = valid_source(source or self.source or f"capture:{export.format}")
        result = _capture.run(self.ledger, export, day=day, extracting=extract,
                              dry_run=dry_run, origin=origin, ts=self._ts(now),
                              notify=self._notices.append, progress=progress)
        if result.files and not dry_run:
            self._upkeep.sync(only=list(result.files), ts=self._ts(now), judge=judge,
                              weigh=judge)
        return result

    # -- recall ------------------------------------------------------------------------

    def recall(self, query: str, *, k: int = 25, since: str | date | None = None,
               until: str | date | None = None, kinds: Sequence[str] | str | None = None,
               entities: Sequence[str] = (), include_all: bool = False, budget: int | None = None,
               now: Moment = None, mode: str | None = None, show_secrets: bool = False,
               rerank: bool = False, strict: bool = False) -> RecallResult:
        """Ranked, cited facts for a query; files changed since the last sync are synced first.

        `since`/`until` take specs like "30d", "2025-11", "last week"; `kinds` takes
        world/experience/opinion/observation/text or W/B/O/S; `budget` packs whole results
        up to that many tokens (a conservative count: values.tokens); a query longer than
        MAX_QUERY_CHARS is refused.  `mode` is lexical, semantic or hybrid (default:
        MEMFOLD_RECALL_MODE, else hybrid when the embed extra is installed and the workspace
        has vectors, else lexical).  Likely secrets in the results are shown as
        `[REDACTED:<kind>]` unless `show_secrets`.  `rerank`: a second look at the best with
        the embed extra's model (`embed.rerank`).  A hit found only on the query's common
        words or names is `weak` (`recall.weak`); `strict` answers with the best hits that are not.
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
            chosen_options = replace(options, mode=chosen, semantic=semantic, rerank=reranker,
                                     strict=strict)
            return report, run_recall(self.index_backend, plan, chosen_options)

        report, ranked = self._upkeep.repairing(answer)
        return RecallResult(
            query=query, as_of=moment.isoformat(timespec="seconds"), sync=report,
            hits=_private(ranked.hits, show_secrets), window=ranked.window,
            total_warnings=self.index_backend.warning_count(), entities=ranked.entities,
            truncated=ranked.truncated, hidden=ranked.hidden, notes=ranked.notes)

    def about(self, name: str, *, k: int = 50, include_all: bool = False, now: Moment = None,
              show_secrets: bool = False) -> AboutResult:
        """An entity's page and linked facts, newest first; superseded and expired facts
        only with `include_all`; secrets redacted unless `show_secrets`."""
        if not name.strip().lstrip("@"):
            raise BadInput("give an entity name, e.g. `memfold about Peter`")
        refuse_long(name, "name", ": give the entity's name, not a document")

        def answer() -> AboutResult:
            self.refresh()
            return about_entity(self.index_backend, name.strip(), k=k,
                                include_all=include_all, today=self.now(now).date())

        result = self._upkeep.repairing(answer)
        return replace(result, hits=_private(result.hits, show_secrets))

    def get(self, fact_id: str, *, strict: bool = False, use: bool = True, now: Moment = None,
            show_secrets: bool = False) -> Hit:
        """One fact by id, with its provenance and lifecycle state.

        If the fact's file changed since it was indexed, the file is synced first; with
        `strict=True` a SourceChanged error is raised instead.  A get is a use of the fact
        (it resets its decay) unless `use=False`; the hit shows the fact as it was before
        that use, the status and decay a recall at the same moment reports.  Likely secrets
        in its text are shown as `[REDACTED:<kind>]` unless `show_secrets`.
        """
        fact_id = names.fact_id(fact_id)

        def answer() -> Hit:
            found = self._upkeep.current(fact_id, strict=strict, ts=self._ts(now))
            # the fact as recall would report it now; the use comes after (it revives a fact
            # that only time archived, which the next look then shows)
            hit = describe(found, self.now(now).date())
            if use:
                self.ledger.use(fact_id, ts=self._ts(now))
            return hit

        hit = self._upkeep.repairing(answer)
        return hit if show_secrets else hit.redacted()

    @refuses_undecodable
    @repairs
    def use(self, fact_id: str, *, now: Moment = None, source: str | None = None) -> None:
        """Acknowledge that a fact was used: it stays fresh (decay restarts from now)."""
        with self.signed(source):
            self.refresh()
            self.ledger.use(names.fact_id(fact_id), ts=self._ts(now))

    @refuses_undecodable
    @repairs
    def note(self, fact_id: str, text: str, *, rev: int, now: Moment = None,
             source: str | None = None) -> int:
        """Set a fact's note if its revision is still `rev` (compare-and-set).

        Returns the new revision; raises StaleRevision (with `.current`) when the revision
        moved on, UnknownId for an unknown fact, and BadInput for an empty note.  Every note
        is kept in the journal (`history`); the fact shows the newest.
        """
        check_note(text, rev)
        with self.signed(source):
            self.refresh()
            return self.ledger.note(names.fact_id(fact_id), text, rev, ts=self._ts(now))

    @refuses_undecodable
    @repairs
    def supersede(self, old_id: str, new_id: str, *, reason: str = "superseded by hand",
                  now: Moment = None, source: str | None = None) -> bool:
        """Mark OLD superseded by NEW (pointers both ways; nothing is deleted)."""
        with self.signed(source):
            self.refresh()
            return self.ledger.supersede(names.fact_id(old_id), names.fact_id(new_id),
                                         reason=reason, ts=self._ts(now))

    @refuses_undecodable
    @repairs
    def restore(self, fact_id: str, *, reason: str = "restored by hand", now: Moment = None,
                source: str | None = None) -> None:
        """Make a superseded or archived fact active again (and fresh)."""
        with self.signed(source):
            self.refresh()
            self.ledger.restore(names.fact_id(fact_id), reason=reason, ts=self._ts(now))

    @repairs
    def history(self, fact_id: str) -> list[Event]:
        """The journal events about a fact, oldest first."""
        self.refresh()
        return self.ledger.history(names.fact_id(fact_id))

    @repairs
    def trace(self, fact_id: str, *, now: Moment = None, show_secrets: bool = False) -> Trace:
        """A fact's lineage both ways: what it supersedes, what superseded it, what it was
        derived from (secrets redacted unless `show_secrets`)."""
        fact_id = names.fact_id(fact_id)
        self.refresh()
        found = build_trace(self.index_backend, self.ledger.fact(fact_id),
                            self.now(now).date())
        return found if show_secrets else replace(found, root=found.root.redacted(), **{
            name: _private(getattr(found, name), False)
            for name in ("supersedes", "superseded_by", "derived_from")})

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

    def refresh(self) -> SyncReport:
        """Sync what changed on disk since the last sync (see Upkeep.refresh): the first call
        stats every file; later calls in the same process ask the kernel which files changed
        (inotify on Linux) and stat nothing when nothing did."""
        return self._upkeep.refresh()

    # -- index, vectors and status ------------------------------------------------------

    def set_embedder(self, embedder: Embedder) -> None:
        """Use this embedder for semantic and hybrid recall (tests pass a FakeEmbedder)."""
        self._embedding.use(embedder)

    @repairs
    def index(self, *, full: bool = False, progress: Progress | None = None,
              judge: bool = True) -> SyncReport:
        """Sync the index with the files (only what changed), or rebuild it with `full` —
        from the Markdown and the journal, so every lifecycle state comes back.  A first index,
        or a rebuild whose journal holds no decision yet, judges the facts in the order they
        were written and journals the judge's word (`judge=False`: not).  Semantic recall gets
        vectors for new facts; temporaries a killed writer left behind are removed."""
        return self._upkeep.index(self._embedding, full=full, progress=progress, judge=judge)

    @repairs
    def status(self) -> StatusReport:
        """Counts, warnings (parse and link) and the files changed since the last sync."""
        return status_report(self.workspace, self.index_backend, tuple(self.link_warnings()))

    @repairs
    def warnings(self) -> list[ParseWarning]:
        """Every parse warning the index holds, by path and line."""
        return self.index_backend.warnings()

    @repairs
    def link_warnings(self) -> list[ParseWarning]:
        """Where hand edits broke links, as of the last sync: duplicate block ids, pointers
        to facts no file holds, decisions journaled about those — each with path:line."""
        return find_link_warnings(self.workspace, self.index_backend)

    # -- reflect (memfold.reflect.plan) -------------------------------------------------------

    def reflect(self, *, since: str | date = "7d", dry_run: bool = False,
                now: Moment = None) -> ReflectPlan:
        """Consolidate duplicates, weigh opinions against new evidence, refresh entity
        pages and sweep expiry and decay — writing only generated regions of bank pages.
        When the workspace uses semantic recall, paraphrases count as duplicates too.

        With `dry_run` nothing is written; `plan.diff()` is exactly what a run would write.
        """
        from memfold.reflect import plan as _reflect

        today = self.now(now).date()
        start = _reflect.window_start(since, today)
        self.refresh()
        # the vector search when the workspace has vectors (for paraphrases)
        _, semantic = self._embedding.mode(self.index_backend, None, backlog=True)
        plan = _reflect.run(self.workspace, self.ledger, since=start, today=today,
                            ts=self._ts(now), dry_run=dry_run, is_secret=_reflect.holds_secret,
                            similar=semantic.paraphrases if semantic else None)
        if not dry_run and plan.pages:
            self._upkeep.sync(only=[p.path for p in plan.pages], ts=self._ts(now))
        return plan

    def reflect_undo(self, *, now: Moment = None) -> list[str]:
        """Restore the pages the last reflect wrote and take back its decisions."""
        from memfold.reflect import plan as _reflect

        pages = _reflect.undo(self.workspace, self.ledger, ts=self._ts(now))
        self._upkeep.sync(only=pages, ts=self._ts(now))
        return pages

    @refuses_undecodable
    @repairs
    def forget(self, fact_id: str, *, purge: bool = False, dry_run: bool = False,
               now: Moment = None, source: str | None = None, reason: str = "") -> list[str]:
        """Archive a fact (kept, findable with --all), journaled with `reason` or "forgotten by
        hand"; with `purge`, remove every copy of it from the workspace (see `purge`).  Returns
        the Markdown files changed (with `dry_run`, that a purge would change; none written)."""
        if dry_run and not purge:
            raise BadInput("dry_run goes with purge: archiving changes no file")
        with self.signed(source):
            if purge:
                return list(self.purge(fact_id, dry_run=dry_run, now=now).files)
            self.refresh()
            self.ledger.transact(lambda: [Archive(id=self.ledger.fact(
                names.fact_id(fact_id)).fact.id, reason=reason or "forgotten by hand")],
                ts=self._ts(now))
            return []

    @refuses_undecodable
    def purge(self, fact_id: str, *, dry_run: bool = False, now: Moment = None,
              source: str | None = None) -> PurgePlan:
        """Remove a fact and every copy: bullets with its id or text, its secret tokens
        anywhere in the workspace, the index, vectors and undo snapshots (see memfold.forget).
        Returns the plan — every place, `path:line` for text; `dry_run` only makes it."""
        from memfold import forget as _forget

        with self.signed(source):
            self.refresh()
            plan = _forget.purge(self.workspace, self.ledger, names.fact_id(fact_id),
                                 ts=self._ts(now), dry_run=dry_run)
            if not dry_run:
                self._upkeep.sync(only=list(plan.files), ts=self._ts(now))
                self.index_backend.scrub()
        return plan

    @property
    def views(self) -> Views:
        """What a person looks at — timeline, histories, lists, chains, sources — read-only."""
        from memfold import views as _views

        return _views.Views(self.ledger, refresh=self.refresh, clock=self.now)

    def entities(self) -> list[tuple[str, int]]:
        """Every entity facts name, with how many facts name it, most named first."""
        return self.views.entities()

    @property
    def files(self) -> Files:
        """The Markdown files read and written whole, new facts through retain (documents)."""
        from memfold.documents import Files
        return Files(self.workspace, self)

    @repairs
    def stale_pages(self) -> list[dict[str, object]]:
        """Bank pages whose generated lines cite facts that changed or vanished."""
        self.refresh()
        return stale_pages(self.index_backend)

    # -- core memory and session context (memfold.session) ---------------------------------

    def core(self) -> CoreMemory:
        """The core blocks of memory.md, each with its text, limit (characters) and line."""
        return core_memory.read_core(self.workspace)

    @refuses_undecodable
    @repairs
    def core_append(self, block: str, text: str, *, now: Moment = None,
                    source: str | None = None) -> CoreEdit:
        """Add TEXT at the end of a core block (created if missing).  Past the block's
        limit it raises BadInput and writes nothing; every edit is journaled."""
        with self.signed(source):
            return core_memory.append(self.workspace, self.ledger, block, text, ts=self._ts(now))

    @refuses_undecodable
    @repairs
    def core_replace(self, block: str, old: str, new: str, *, now: Moment = None,
                     source: str | None = None) -> CoreEdit:
        """Replace OLD, which must occur exactly once in the block, with NEW."""
        with self.signed(source):
            return core_memory.replace(self.workspace, self.ledger, block, old, new,
                                 ts=self._ts(now))

    @refuses_undecodable
    @repairs
    def core_insert(self, block: str, line: int, text: str, *, now: Moment = None,
                    source: str | None = None) -> CoreEdit:
        """Insert TEXT as line LINE of the block (1 = first, -1 = after the last)."""
        with self.signed(source):
            return core_memory.insert(self.workspace, self.ledger, block, line, text,
                                ts=self._ts(now))

    @refuses_undecodable
    @repairs
    def core_undo(self, *, now: Moment = None, source: str | None = None) -> CoreEdit:
        """Put back the block text from before the last core edit not yet undone."""
        with self.signed(source):
            return core_memory.undo(self.workspace, self.ledger, ts=self._ts(now))

    @repairs
    def context(self, *, budget: int | None = None, now: Moment = None,
                show_secrets: bool = False) -> SessionContext:
        """What an agent should see at the start of a session, within `budget` tokens:
        core blocks, today's and yesterday's Retain bullets, facts expiring soon and open
        items, each line citing its source; likely secrets redacted unless `show_secrets`."""
        from memfold.session import context as _context

        self.refresh()
        moment = self.now(now)
        found = _context.build(core=self.core(), files=_context.OnDisk(self.workspace),
                               backend=self.index_backend, today=moment.date(),
                               budget=_context.DEFAULT_BUDGET if budget is None else budget,
                               as_of=moment.isoformat(timespec="seconds"))
        return found if show_secrets else found.redacted()

    # -- the judge's decisions (memfold.lifecycle.review) ---------------------------------

    @repairs
    def review(self, *, since: str | None = None, entity: str | Sequence[str] = (),
               rule: str | None = None, settled: bool = False, limit: int | None = REVIEW_LIMIT,
               now: Moment = None) -> ReviewQueue:
        """The judge's decisions waiting for a word, newest first: open conflicts and
        automatic supersedes in force, each with both facts, the judge, its rule and its
        reason (docs/format.md).  `since`, `entity`, `rule` narrow them; `settled` adds
        the items already settled; `limit` None lists all."""
        if limit is not None and (isinstance(limit, bool) or limit < 1):
            raise BadInput(f"limit must be 1 or more, not {limit!r}")
        self.refresh()
        chosen = Selection.of(since=since, entity=entity, rule=rule, settled=settled,
                              today=self.now(now).date())
        return queue(self.index_backend, chosen, limit=limit)

    @refuses_undecodable
    @repairs
    def accept(self, item: str | int, *, reason: str | None = None, now: Moment = None,
               source: str | None = None) -> ReviewOutcome:
        """Accept a review item (its number, or its older fact's id): an open conflict
        becomes a supersede, journaled with `reason`; a settled item is left as it is."""
        with self.signed(source):
            self.refresh()
            return settle(self.ledger, "accept", str(item), Selection(), reason=reason,
                          dry_run=False, ts=self._ts(now))

    @refuses_undecodable
    @repairs
    def reject(self, item: str | int | None = None, *, rule: str | None = None,
               since: str | None = None, entity: str | Sequence[str] = (),
               reason: str | None = None, dry_run: bool = False, now: Moment = None,
               source: str | None = None) -> ReviewOutcome:
        """Reject a review item (a conflict dismissed, an automatic supersede undone) or,
        with `rule`, every open item of that rule (`since`, `entity` narrow it; `dry_run`
        only lists them).  Journaled with `reason`."""
        with self.signed(source):
            self.refresh()
            chosen = Selection.of(since=since, entity=entity, rule=rule, settled=False,
                                  today=self.now(now).date())
            return settle(self.ledger, "reject", None if item is None else str(item), chosen,
                          reason=reason, dry_run=dry_run, ts=self._ts(now))


def check_note(text: object, rev: object) -> None:
    """BadInput for a note no fact takes: a revision that is no number of 0 or more, or no
    text (`Memory.note`; the server's rows refuse it in the same words)."""
    if not isinstance(rev, int) or isinstance(rev, bool) or rev < 0:
        raise BadInput(f"--rev must be a revision number (0 or more), not {rev!r}")
    if not isinstance(text, str) or not text.strip():
        raise BadInput("a note needs text: say what you learned about the fact (the "
                       "fact's earlier notes stay in `memfold history`)")


def _private(hits: Sequence[Hit], show_secrets: bool) -> tuple[Hit, ...]:
    """The hits as outputs show them: likely secrets redacted unless asked for."""
    return tuple(hits) if show_secrets else tuple(h.redacted() for h in hits)


if TYPE_CHECKING:  # mypy holds Memory to the verbs a server's bank has too (memfold.api)
    _IS_API: type[MemoryAPI] = Memory
