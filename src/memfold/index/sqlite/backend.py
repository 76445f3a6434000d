"""The SQLite index: `.memory/index.sqlite`, derived from the Markdown and always rebuildable.

All of memfold's SQL lives in this package, behind the `IndexBackend` interface (`index.base`);
`SqliteIndex` opens, checks and repairs the file here, and runs the queries of its sibling
modules, each a concept: `schema` (tables, damage, error translation), `writes` (replacing a
file's rows), `search` (what recall and the vectors read), `fts` (`Terms` as FTS5 expressions),
`state` (lifecycle state replayed from the journal), `review` (the review queue), `holders`
(which copy of a duplicated id holds it), `rows` (rows to values).  No driver error leaves a
public method: each arrives as IndexError_, or IndexDamaged for damage
(`schema.storage_errors`).

Invariants:
- Every row belongs to exactly one file row (facts by its key `file`, the rest by `path`);
  replacing a file replaces all its rows, so an incremental sync and a full rebuild of the
  same files hold the same rows.
- The full-text table keeps no copy of the text (contentless): a fact's terms are removed by
  handing FTS5 the values they were made from, which `writes.fts_values` computes
  from the rows that remain (content, entities, the page's first name) — on insert and
  on delete alike.  A bullet that cites the captured turn it was extracted from has no
  full-text row (`writes.folded`, from its kind and content): it is folded into its turn
  (`recall.folded`).
- WAL mode with `synchronous=NORMAL`: the index is derived data, so a lost last transaction
  after a power cut only means a file is synced again.  Writers take `BEGIN IMMEDIATE` with a
  30 s busy timeout, so two writers queue instead of failing halfway.
- A schema change bumps `SCHEMA_VERSION`; an index of another version is dropped and rebuilt
  from the files, never migrated in place.  A damaged index file is moved aside and rebuilt.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from memfold.errors import IndexError_
from memfold.index.base import (
    Candidate,
    Citation,
    EntityInfo,
    FactDays,
    Filters,
    IndexCounts,
    JournalPosition,
    Lineage,
    LinkProblems,
    PreparedDoc,
    Preparer,
    ReviewPage,
    ReviewQuery,
    SeenStamp,
    Succession,
    Terms,
    TrackedContent,
    Unjudged,
)
from memfold.index.sqlite import holders, search, state, writes
from memfold.index.sqlite import review as sqlite_review
from memfold.index.sqlite.fts import expression as fts_expression
from memfold.index.sqlite.fts import quote
from memfold.index.sqlite.schema import (
    DATA_OBJECTS,
    SCHEMA_VERSION,
    create_data,
    damaged,
    drop_data,
    storage_errors,
)
from memfold.journal.fold import LifeState
from memfold.journal.log import Event
from memfold.values import FileStamp, ParseWarning

__all__ = ["CHECK_ON_OPEN_BYTES", "SCHEMA_VERSION", "SqliteIndex", "damaged"]

CHECK_ON_OPEN_BYTES = 8 << 20  # every page of an index up to this size is checked on open
BUSY_TIMEOUT_S = 30.0


def _busy(exc: BaseException) -> bool:
    """Whether an SQLite error says another connection holds the file."""
    return "locked" in str(exc) or "busy" in str(exc)


def _write_ahead(db: sqlite3.Connection) -> None:
    """Put the index file in WAL mode, a property of the file kept across opens.  Switching
    takes the file for itself, and SQLite does not wait on a busy file for that (its busy
    handler is not run), so of two processes opening a new index at once the second failed
    at once with "database is locked".  The mode is read first — after the first open there
    is nothing to switch and no lock to take — and a switch that finds the file busy is
    tried again within the busy timeout; another process switching it meanwhile is fine."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    pause = 0.002
    while True:
        try:
            if db.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
                return
            # a switch refused without an error answers with the mode the file keeps
            if db.execute("PRAGMA journal_mode = WAL").fetchone()[0] == "wal":
                return
            refused: sqlite3.OperationalError = sqlite3.OperationalError(
                "database is locked: WAL mode was refused")
        except sqlite3.OperationalError as exc:
            if not _busy(exc):
                raise
            refused = exc
        if time.monotonic() >= deadline:
            raise refused
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


class SqliteIndex:
    """The embedded index backend."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.location = str(path)
        self.notices: list[str] = []  # one line per repair made while opening
        self.db = self._open()

    # -- opening, versions and repair -------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        # one thread at a time, but not always the same one: the server runs a bank's requests
        # on a thread pool, one at a time under the bank's lock (memfold.server.banks)
        db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                             check_same_thread=False)
        db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        _write_ahead(db)
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA secure_delete = ON")
        db.execute("PRAGMA cache_size = -65536")  # 64 MiB: a rebuild's pages stay in memory
        return db

    def _open(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise IndexError_(f"cannot create {self.path.parent}: {exc.strerror}") from exc
        # Damage SQLite would not report: an empty file is a valid empty database, and a file
        # it cannot write is opened read-only, failing only at the first write.
        try:
            empty = self.path.stat().st_size == 0
            os.close(os.open(self.path, os.O_RDWR))
        except FileNotFoundError:
            pass
        except OSError as exc:
            self._move_aside(f"the file cannot be written: {exc.strerror}")
        else:
            if empty:
                self.notices.append(f"index {self.path.name} was empty (truncated?); "
                                    "rebuilt from the Markdown")
        db: sqlite3.Connection | None = None
        try:
            db = self._connect()
            self._ensure_schema(db)
            return db
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:  # garbled bytes: damage
            if _busy(exc):
                raise IndexError_(f"index {self.path} is locked by another process: {exc}") from exc
            if db is not None:
                db.close()
            self._move_aside(str(exc))
        try:
            db = self._connect()
            self._ensure_schema(db)
            return db
        except sqlite3.Error as exc:
            raise IndexError_(f"cannot create the index at {self.path}: {exc}") from exc

    def repair(self, reason: str) -> None:
        """Move a damaged index aside and start an empty one (the caller refills it)."""
        self.db.close()
        self._move_aside(reason)
        self.db = self._open()

    def _move_aside(self, reason: str) -> None:
        """A damaged index is kept once as `index.sqlite.damaged` and rebuilt from the files."""
        aside = self.path.with_name(self.path.name + ".damaged")
        try:
            os.replace(self.path, aside)
            for suffix in ("-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(str(self.path) + suffix)
        except OSError as exc:
            raise IndexError_(f"index {self.path} is damaged ({reason}) and cannot be moved "
                              f"aside: {exc.strerror}") from exc
        self.notices.append(f"index {self.path.name} was damaged ({reason}); "
                            f"moved to {aside.name} and rebuilt from the Markdown")

    def _ensure_schema(self, db: sqlite3.Connection) -> None:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version == SCHEMA_VERSION:
            # cheap checks that the layout is whole: every object of the schema is there, and
            # the full-text index can be searched (a lost segment fails even a probe)
            present = set(db.execute("SELECT type, name FROM sqlite_master"))
            missing = [name for kind, name in (*DATA_OBJECTS, ("table", "meta"))
                       if (kind, name) not in present]
            if missing:
                raise sqlite3.DatabaseError(f"missing {', '.join(missing)}")
            db.execute("SELECT 1 FROM files LIMIT 1").fetchone()
            db.execute("SELECT rowid FROM facts_fts WHERE facts_fts MATCH 'memfoldprobe'"
                       " LIMIT 1").fetchall()
            # a damaged page elsewhere shows only when a query reads it; up to 8 MiB (about
            # 25,000 facts) every page is checked on open, in about 3 ms a MiB
            if self.path.stat().st_size <= CHECK_ON_OPEN_BYTES:
                problem = db.execute("PRAGMA quick_check").fetchone()[0]
                if problem != "ok":
                    raise sqlite3.DatabaseError(" ".join(str(problem).split())[:200])
            return
        db.execute("BEGIN IMMEDIATE")
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version != SCHEMA_VERSION:
                if version != 0:
                    self.notices.append(f"index schema version {version} is not "
                                        f"{SCHEMA_VERSION}; rebuilt from the Markdown")
                drop_data(db)
                db.execute("DROP TABLE IF EXISTS meta")
                db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
                create_data(db)
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    @contextlib.contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise IndexError_(f"cannot write the index {self.path}: {exc}") from exc
        try:
            yield self.db
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise

    # -- files and their rows -----------------------------------------------------------

    @storage_errors
    def stamps(self, paths: Sequence[str] | None = None) -> dict[str, FileStamp]:
        return writes.stamps(self.db, paths)

    @storage_errors
    def seen_stamps(self) -> dict[str, SeenStamp]:
        return writes.seen_stamps(self.db)

    @storage_errors
    def hashes(self, paths: Sequence[str]) -> dict[str, str]:
        return writes.hashes(self.db, paths)

    def preparer(self) -> Preparer:
        return writes.prepare

    @storage_errors
    def apply(
        self,
        changes: Iterable[PreparedDoc],
        removed: Sequence[str],
        restamped: Sequence[tuple[str, FileStamp]],
        *,
        full: bool,
        synced_at: str,
    ) -> list[str]:
        pending = iter(changes)
        first = next(pending, None)
        if first is None and not (full or removed or restamped):
            return []  # nothing changed: no write transaction, readers are never blocked
        stream = pending if first is None else itertools.chain([first], pending)
        with self._writing() as db:
            new_ids = writes.replace_rows(db, stream, removed, restamped, full=full,
                                          synced_at=synced_at)
            holders.settle(db)
            return new_ids

    @storage_errors
    def append(self, tail: PreparedDoc, *, held: str, synced_at: str) -> list[str] | None:
        with self._writing() as db:
            new_ids = writes.append_rows(db, tail, held=held, synced_at=synced_at)
            holders.settle(db)
            return new_ids

    # -- reading ----------------------------------------------------------------------

    @storage_errors
    def meta(self, key: str) -> str | None:
        return search.meta(self.db, key)

    @storage_errors
    def counts(self) -> IndexCounts:
        return search.counts(self.db)

    @storage_errors
    def warning_count(self) -> int:
        return search.warning_count(self.db)

    @storage_errors
    def fact_days(self) -> FactDays:
        return search.fact_days(self.db)

    @storage_errors
    def warnings(self) -> list[ParseWarning]:
        return search.warnings(self.db)

    @storage_errors
    def locate(self, fact_id: str) -> list[str]:
        """Citations (`path#Lline`) of every row with this id, in path order."""
        return search.locate(self.db, fact_id)

    @storage_errors
    def dump(self) -> list[tuple[object, ...]]:
        return search.dump(self.db)

    # -- search -----------------------------------------------------------------------

    @storage_errors
    def resolve_names(self, keys: Sequence[str]) -> dict[str, str]:
        return search.resolve_names(self.db, keys)

    @storage_errors
    def alias_keys(self, entities: Sequence[str]) -> list[str]:
        return search.alias_keys(self.db, entities)

    @storage_errors
    def entity(self, key: str) -> EntityInfo | None:
        return search.entity(self.db, key)

    @storage_errors
    def lexical(self, terms: Terms, filters: Filters, limit: int) -> list[Candidate]:
        fts = fts_expression(terms)
        return search.lexical(self.db, fts, filters, limit) if fts else []

    @storage_errors
    def match_scores(self, terms: Terms) -> dict[int, float]:
        fts = fts_expression(terms)
        return search.match_scores(self.db, fts) if fts else {}

    @storage_errors
    def fact_rows(self) -> int:
        return search.fact_rows(self.db)

    @storage_errors
    def word_counts(self, words: Sequence[str], most: int) -> dict[str, int]:
        counts = search.term_counts(self.db, [quote(w) for w in words], most)
        return {w: counts[quote(w)] for w in words}

    @storage_errors
    def linked(self, keys: Sequence[str], filters: Filters, limit: int) -> list[Candidate]:
        return search.linked(self.db, keys, filters, limit)

    @storage_errors
    def cited_by(self, turns: Sequence[tuple[str, int]], filters: Filters) -> list[Candidate]:
        return search.cited_by(self.db, turns, filters)

    @storage_errors
    def recent(self, filters: Filters, limit: int) -> list[Candidate]:
        return search.recent(self.db, filters, limit)

    @storage_errors
    def matching_rowids(self, terms: Terms, limit: int) -> list[int]:
        fts = fts_expression(terms)
        return search.fts_rowids(self.db, fts, limit) if fts else []

    @storage_errors
    def by_id(self, fact_id: str) -> list[Candidate]:
        return search.by_id(self.db, fact_id)

    @storage_errors
    def by_ids(self, ids: Sequence[str]) -> list[Candidate]:
        return search.by_ids(self.db, ids)

    @storage_errors
    def by_rowids(self, rowids: Sequence[int], filters: Filters) -> list[Candidate]:
        return search.by_rowids(self.db, rowids, filters)

    @storage_errors
    def successions(self, ids: Sequence[str]) -> tuple[dict[str, Succession], set[str]]:
        return search.successions(self.db, ids)

    @storage_errors
    def neighbours(self, rowids: Sequence[int]) -> dict[int, tuple[int, ...]]:
        return search.neighbours(self.db, rowids)

    # -- what the vectors are made from -------------------------------------------------

    @storage_errors
    def fact_texts(self) -> list[tuple[int, str]]:
        return search.fact_texts(self.db)

    @storage_errors
    def facts_signature(self) -> str:
        return search.facts_signature(self.db)

    @storage_errors
    def facts_version(self) -> str | None:
        """The version of the facts (`facts_token`, renewed by every sync that changes a
        fact), or None for an index that has none: what `recall.versioned` keys by."""
        token = search.meta(self.db, "facts_token")
        return f"token:{token}" if token else None

    @storage_errors
    def lineage(self) -> Lineage | None:
        return writes.lineage(self.db)

    # -- lifecycle (replayed from the journal) ------------------------------------------

    @storage_errors
    def journal_position(self) -> JournalPosition:
        return state.journal_position(self.db)

    @storage_errors
    def apply_events(self, events: Sequence[Event], position: tuple[int, str, int], *,
                     reset: bool = False) -> None:
        """Fold journal events into the lifecycle table, in one transaction; events a
        concurrent process already applied (by seq) are skipped.  With `reset` the table
        is cleared first, in the same transaction, and every event is applied."""
        with self._writing() as db:
            state.apply_events(db, events, position, reset=reset)
            holders.settle(db)  # the journal may now say which copy of an id holds it

    @storage_errors
    def life(self, ids: Iterable[str]) -> dict[str, LifeState]:
        return state.life(self.db, ids)

    @storage_errors
    def events_for(self, fact_id: str) -> list[Event]:
        return state.events_for(self.db, fact_id)

    @storage_errors
    def events_of_kinds(self, kinds: Sequence[str], *,
                        limit: int | None = None) -> list[Event]:
        return state.events_of_kinds(self.db, kinds, limit=limit)

    @storage_errors
    def retained_with_key(self, key: str) -> Event | None:
        return state.retained_with_key(self.db, key)

    @storage_errors
    def events_at(self, seqs: Sequence[int]) -> list[Event]:
        return state.events_at(self.db, seqs)

    @storage_errors
    def unretained_in_order(self) -> list[Unjudged]:
        return state.unretained_in_order(self.db)

    @storage_errors
    def review_rows(self, query: ReviewQuery) -> ReviewPage:
        return sqlite_review.rows(self.db, query)

    @storage_errors
    def tracked_contents(self, paths: Sequence[str] | None) -> list[TrackedContent]:
        return state.tracked_contents(self.db, paths)

    @storage_errors
    def citations(self) -> list[Citation]:
        return state.citations(self.db)

    @storage_errors
    def link_problems(self) -> LinkProblems:
        return state.link_problems(self.db)

    # -- the file as a whole ------------------------------------------------------------

    @storage_errors
    def scrub(self) -> None:
        """Leave no copy of deleted rows in the index file or its WAL (a purge): freed pages
        are zeroed (secure_delete), old full-text segments merged away, the file rebuilt
        (VACUUM) and the WAL checkpointed and truncated before and after."""
        self.db.execute("INSERT INTO facts_fts(facts_fts) VALUES ('optimize')")
        self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.db.execute("VACUUM")
        self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        self.db.close()
