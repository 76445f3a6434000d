"""Recall answered from PostgreSQL itself (`memfold serve --recall-from postgres`): a replica
reads the bank's recall rows (memfold.server.pgindex) in one snapshot and runs recall's own
ranking code on them, holding no copy of the bank — a bank it never opened answers its first
recall like any other, and nothing of it is written to the replica's disk.

`DatabaseBank` has Memory's `recall` and its other reads (`about`, `get` without a use,
`history`, `trace`, `entities`, `status`, `core`, `context`, `review`, and `reflect`'s dry
run: the same arguments and answers), so the REST verbs and MCP tools in `ANSWERED` run on it
unchanged (the reads besides recall: memfold.server.pgreads, pgstatus and pgreflect).  What
it cannot answer this way it refuses with `NeedsCopy`, and the replica answers from its copy
as before: a semantic or hybrid recall on a replica without a model, or a bank written before
its recall rows existed (schema 0005) and not written since (`memfold server bank check
--repair` derives them); so would a rerank and a `get` with a use, which no adapter sends
(REST and MCP take no `rerank` and `show` reads with no use; `memfold.connect()` refuses a
rerank and sends a use as the verb `use`).  The MCP tool `index` reads here too, and
`index` with `full` is written (memfold.server.pgsync).  Semantic and hybrid recall search
the bank's vectors in memory (memfold.server.pgvectors), kept per bank version like the
answers below.

What only a write changes — the bank's warnings and days, word and phrase counts, names, the
facts a search ranks and their neighbours, the open conflicts the judge journaled about them
(memfold.server.pgreview), each search's answer — is kept per bank version
(memfold.server.pgcache), the version read in the recall's own snapshot.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING, Any, TypeVar
from weakref import WeakKeyDictionary

from memfold import config, names
from memfold.errors import BadInput, EmbedUnavailable, UnknownBank, UnknownId
from memfold.index.base import Candidate
from memfold.journal.log import Event
from memfold.lifecycle.review import REVIEW_LIMIT, ReviewQueue, Selection
from memfold.lifecycle.review import queue as review_queue
from memfold.recall.fusion import LEXICAL
from memfold.recall.hits import Trace, build_trace, describe
from memfold.recall.modes import check_mode, default_mode
from memfold.recall.query import plan_query, refuse_long
from memfold.recall.search import about as about_entity
from memfold.recall.search import recall as run_recall
from memfold.recall.search import recall_options
from memfold.server import pgreads, pgreflect, pgstatus, pgsync
from memfold.server.admin import Caller, check_bank
from memfold.server.db import NeedsCopy, tenant_tx, with_retries
from memfold.server.pgcache import BankFacts, Versions
from memfold.server.pgindex import PgRecallIndex
from memfold.server.pgvectors import BankVectors, VectorCache
from memfold.session import context as session_context
from memfold.session.context import SessionContext
from memfold.session.core import CoreMemory
from memfold.values import AboutResult, Hit, RecallResult, StatusReport, SyncReport
from memfold.views import entity_counts

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

    from memfold.embed.base import Embedder
    from memfold.reflect.plan import ReflectPlan

_T = TypeVar("_T")

MODES = ("copy", "postgres")  # where `memfold serve --recall-from` answers recall from
# the verbs (REST) and tools (MCP) a replica answers from PostgreSQL under --recall-from
# postgres; every other one runs on its copy of the bank
ANSWERED = frozenset({"recall", "about", "history", "core_view", "show", "trace", "entities",
                      "status", "context", "review", "reflect"})
# the tools that need the write scope but store no more than derived rows (the vectors of
# the MCP tool `index`): answered in a snapshot too, `index` with `full` then as a write
# (memfold.server.pgsync)
DERIVED = frozenset({"index"})


class DatabaseBank:
    """One bank's reads over its rows in PostgreSQL, inside one transaction: recall, about,
    a fact by id, its history and trace, the entities, status, core memory and the session
    context, each with Memory's arguments and answer."""

    def __init__(self, index: PgRecallIndex, *, vectors: BankVectors | None = None,
                 head: int = 0, kept: BankFacts | None = None) -> None:
        self.index = index
        # the bank's vector search when the replica embeds (recall's default mode is then
        # not lexical); None: lexical only
        self.vectors = vectors
        self.head = head  # the bank version the snapshot reads
        self.kept = kept  # this version's answers (pgcache), or None: nothing kept

    def recall(self, query: str, *, k: int = 25, since: str | date | None = None,
               until: str | date | None = None, kinds: Sequence[str] | str | None = None,
               entities: Sequence[str] = (), include_all: bool = False,
               budget: int | None = None, now: Any = None, mode: str | None = None,
               show_secrets: bool = False, rerank: bool = False,
               strict: bool = False) -> RecallResult:
        """`Memory.recall` over the bank's rows, and in semantic and hybrid mode its vectors
        (NeedsCopy for a rerank, or another mode than lexical without a model)."""
        chosen = check_mode(mode) or default_mode(self.vectors is not None)
        if rerank or (chosen != LEXICAL and self.vectors is None):
            raise NeedsCopy
        moment = config.resolve_now(now)
        today = moment.date()
        options = recall_options(query, k=k, since=since, until=until, kinds=kinds,
                                 entities=entities, include_all=include_all, budget=budget,
                                 today=today)
        plan = plan_query(query, today=today)
        semantic = None
        if chosen != LEXICAL and self.vectors is not None:
            try:
                semantic = self.vectors.semantic()
            except EmbedUnavailable:  # as local memfold: the default mode falls back
                if check_mode(mode):
                    raise
                chosen = LEXICAL
        ranked = run_recall(self.index, plan, replace(options, mode=chosen, semantic=semantic,
                                                      rerank=None, strict=strict))
        hits = tuple(ranked.hits) if show_secrets else tuple(h.redacted() for h in ranked.hits)
        return RecallResult(
            query=query, as_of=moment.isoformat(timespec="seconds"), sync=None, hits=hits,
            window=ranked.window, total_warnings=self.index.warning_count(),
            entities=ranked.entities, truncated=ranked.truncated, hidden=ranked.hidden,
            notes=ranked.notes)

    def about(self, name: str, *, k: int = 50, include_all: bool = False, now: Any = None,
              show_secrets: bool = False) -> AboutResult:
        """`Memory.about` over the bank's recall rows."""
        if not name.strip().lstrip("@"):
            raise BadInput("give an entity name, e.g. `memfold about Peter`")
        refuse_long(name, "name", ": give the entity's name, not a document")
        found = about_entity(self.index, name.strip(), k=k, include_all=include_all,
                             today=config.resolve_now(now).date())
        return found if show_secrets else replace(
            found, hits=tuple(h.redacted() for h in found.hits))

    def history(self, fact_id: str) -> list[Event]:
        """`Memory.history`: the journal events about a fact, oldest first (UnknownId when
        there are none and no file holds it)."""
        fact_id = names.fact_id(fact_id)
        events = pgreads.history(self.index.conn, self.index.bank_id, fact_id)
        if not events and not self.index.by_id(fact_id):
            raise UnknownId(f"no fact with id {fact_id!r}; `memfold recall` finds ids")
        return events

    def core(self) -> CoreMemory:
        """`Memory.core`: the core blocks of the bank's memory.md."""
        return pgreads.core(self.index.conn, self.index.bank_id, self.head)

    def get(self, fact_id: str, *, strict: bool = False, use: bool = True, now: Any = None,
            show_secrets: bool = False) -> Hit:
        """`Memory.get` without a use (NeedsCopy with one: a use is a write).  No adapter
        sends one: REST and MCP `show` read with no use, and `memfold.connect()`'s `get`
        sends `show` then `use`, each answered from the rows.  The rows are derived in
        every write's transaction, so no file changed since: `strict` holds."""
        if use:
            raise NeedsCopy
        hit = describe(self._fact(fact_id), config.resolve_now(now).date())
        return hit if show_secrets else hit.redacted()

    def trace(self, fact_id: str, *, now: Any = None, show_secrets: bool = False) -> Trace:
        """`Memory.trace`: the fact's lineage both ways, read from the bank's rows."""
        found = build_trace(self.index, self._fact(fact_id), config.resolve_now(now).date())
        if show_secrets:
            return found
        return replace(found, root=found.root.redacted(), **{
            name: tuple(h.redacted() for h in getattr(found, name))
            for name in ("supersedes", "superseded_by", "derived_from")})

    def context(self, *, budget: int | None = None, now: Any = None,
                show_secrets: bool = False) -> SessionContext:
        """`Memory.context`: core memory, the last two days' bullets, what expires soon and
        the open tasks, from the bank's rows and files."""
        moment = config.resolve_now(now)
        found = session_context.build(
            core=self.core(), files=pgreads.BankFiles(self.index.conn, self.index.bank_id,
                                                      self.head),
            backend=self.index, today=moment.date(), as_of=moment.isoformat(timespec="seconds"),
            budget=session_context.DEFAULT_BUDGET if budget is None else budget)
        return found if show_secrets else found.redacted()

    def review(self, *, since: str | None = None, entity: str | Sequence[str] = (),
               rule: str | None = None, settled: bool = False,
               limit: int | None = REVIEW_LIMIT, now: Any = None) -> ReviewQueue:
        """`Memory.review`: the judge's decisions waiting for a word, from the bank's
        review-kind events folded by the local index's own code (memfold.server.pgreview)
        and both facts' rows, the same arguments and answer."""
        if limit is not None and (isinstance(limit, bool) or limit < 1):
            raise BadInput(f"limit must be 1 or more, not {limit!r}")
        chosen = Selection.of(since=since, entity=entity, rule=rule, settled=settled,
                              today=config.resolve_now(now).date())
        return review_queue(self.index, chosen, limit=limit)

    def reflect(self, *, since: str | date = "7d", dry_run: bool = False,
                now: Any = None) -> ReflectPlan:
        """`Memory.reflect`'s dry run, planned over the bank's rows (memfold.server.pgreflect),
        with a model over their vectors too (paraphrases); NeedsCopy for a run (a write)."""
        if not dry_run:
            raise NeedsCopy
        similar = None if self.vectors is None else pgreflect.read_similar(self.vectors)
        return pgreflect.planned(self.index.conn, self.index.bank_id, self.head, since=since,
                                 now=now, facts=self.kept, similar=similar)

    def status(self) -> StatusReport:
        """`Memory.status` of the bank (memfold.server.pgstatus)."""
        return self._version("status", lambda: replace(pgstatus.status(self.index, self.head),
                                                       index_path="server"))

    def entities(self) -> list[tuple[str, int]]:
        """`Memory.entities`: every entity typed facts name, with how many name it."""
        return list(self._version("entities", lambda: tuple(entity_counts(self.index))))

    def _version(self, name: str, make: Callable[[], _T]) -> _T:
        """The answer `make` gives, kept for this bank version (it reads the whole bank and
        depends on nothing else); an answer is a value nobody changes."""
        if self.kept is None:
            return make()
        found = self.kept.reports.get(name)
        if found is None:
            found = self.kept.reports[name] = make()
        return found

    def _fact(self, fact_id: str) -> Candidate:
        fact_id = names.fact_id(fact_id)
        found = self.index.by_id(fact_id)
        if not found:
            raise UnknownId(f"no fact with id {fact_id!r}; `memfold recall` finds ids")
        return found[0]


class Indexing:
    """`Memory.index` over one bank's snapshot, for the MCP tool `index` (a `DatabaseBank`
    names its recall rows `index`)."""

    def __init__(self, bank: DatabaseBank) -> None:
        self.bank = bank

    def index(self, *, full: bool = False, progress: Any = None,
              judge: bool = True) -> SyncReport:
        """`Memory.index` (memfold.server.pgsync): the rows are derived in every write, so
        nothing is synced; with a model, up to `pgvectors.INDEX_EMBED` of the bank's texts
        that have no vector are embedded, stored once the snapshot is over.  NeedsCopy
        with `full`: it derives the rows again, a write (`pgretain.DatabaseWriter.index`)."""
        if full:
            raise NeedsCopy
        started = time.perf_counter()
        if self.bank.vectors is not None:
            self.bank.vectors.fill()
        return pgsync.report(self.bank.index, self.bank.head, full=False, started=started)


# the bank and its version (its head, the version of its statistics row, which every write
# moves) with its statistics (NULL: never derived), in one statement; the bank's warnings
# and days are read once per version (memfold.server.pgcache)
BANK = ("SELECT b.bank_id, b.head, s.rows, s.terms, s.xmin::text FROM banks b LEFT JOIN"
        " recall_stats s ON s.bank_id = b.bank_id WHERE b.name = %s")

_VERSIONS: WeakKeyDictionary[Any, Versions] = WeakKeyDictionary()  # per pool (database)
_VERSIONS_LOCK = threading.Lock()


def versions(pool: Any) -> Versions:
    """This process's bank versions read through `pool`."""
    with _VERSIONS_LOCK:
        found = _VERSIONS.get(pool)
        if found is None:
            found = _VERSIONS[pool] = Versions()
        return found


def answer(pool: ConnectionPool, caller: Caller, bank: str,
           work: Callable[[DatabaseBank], _T], *,
           embedder: Callable[[], Embedder] | None = None,
           matrices: VectorCache | None = None) -> _T:
    """Run `work` on the caller's bank read from PostgreSQL, in one REPEATABLE READ
    snapshot; NeedsCopy when the bank's recall rows were never derived.  With `embedder`
    (the replica's model), semantic and hybrid recall search the bank's vectors, their
    matrices kept in `matrices` (one for the call when None)."""
    check_bank(bank)

    cache = VectorCache() if matrices is None else matrices

    def run() -> _T:
        since = cache.generation()  # before the snapshot (pgvectors.VectorCache.generation)
        with tenant_tx(pool, caller.tenant, snapshot=True) as conn:
            row = conn.execute(BANK, [bank]).fetchone()
            if row is None:
                raise UnknownBank(f"no bank {bank!r}")
            bank_id, head, rows, terms = (int(v) if v is not None else None for v in row[:4])
            if head and rows is None:
                raise NeedsCopy
            facts = versions(pool).facts(int(bank_id or 0), int(head or 0), row[4])
            index = PgRecallIndex(conn, int(bank_id or 0), stats=(rows or 0, terms or 0),
                                  facts=facts)
            index.warning_count()  # with the days: once per bank version (pgcache)
            vectors = None if embedder is None else BankVectors(
                conn, pool, caller.tenant, int(bank_id or 0), facts.version, rows or 0,
                embedder, cache, since)
            found = work(DatabaseBank(index, vectors=vectors, head=int(head or 0), kept=facts))
        if vectors is not None:  # the vectors it made, once the snapshot is over
            vectors.store()
        return found

    return with_retries(run)
