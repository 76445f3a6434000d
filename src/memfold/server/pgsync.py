"""The MCP tool `index` answered from PostgreSQL itself (`memfold serve --recall-from
postgres`): what `memfold index` means for a bank whose derived rows live in the database.

A copy's `index` syncs its own SQLite index with its Markdown and embeds every fact that has
no vector yet; `index` with `full` rebuilds that index from the files and the journal.  A
bank's rows in PostgreSQL are derived in every write's transaction (memfold.server.rows), so
there is nothing to sync, and here:

- `index` reads the bank in the request's snapshot (memfold.server.pgrecall) and, on a
  replica with a model, embeds up to `pgvectors.INDEX_EMBED` of the bank's texts that have
  no vector stored (shortest first, as local memfold does), stored for every replica once
  the snapshot is over, as a recall's are; each call embeds the next ones.  No lock is held.
- `index` with `full` derives the bank's rows again from its `files` and `events` rows in one
  write transaction holding the bank's lock (memfold.server.pgwrite): each file's sha256 and
  `facts` rows, the `event_facts` rows and every recall row with the term statistics
  (`rows.check` repairing, then `recall_rows.rebuild`), as `memfold server bank check
  --repair` does for what it finds wrong; then the vectors, as above, in the same
  transaction.  `head` does not move (no file or journal line changed), the statistics row
  does, so every replica reads the bank's kept answers again (memfold.server.pgcache).
  When a copy's rebuild would judge — facts no retain wrote, in a bank whose journal holds
  no decision — they are judged from the rows in the same transaction and the judge's lines
  journaled unsigned, as the copy's rebuild journals them (memfold.server.pgjudge, through
  `pgimport.judged`); when it would revise a fact whose text moved from its journaled hash
  (`pgimport.would_journal`), `NeedsCopy` rolls the transaction back and the copy rebuilds
  and journals as before.

The answer is the report a copy gives (`SyncReport`), from the rows: `scanned` the bank's
files (the skeleton's in a bank never written, as its copy holds them), nothing added,
changed or removed — with `full`, every file added, by path, and every file's parse
warnings — the link warnings and the open warnings as `status` counts them
(memfold.server.pgstatus).  A copy lists a rebuild's files in the order its disk gives them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from memfold.index.links import warnings_of
from memfold.server import pgimport, pgstatus, recall_rows, rows
from memfold.server.db import NeedsCopy
from memfold.server.pgreads import SKELETON
from memfold.server.pgwrite import stamp
from memfold.values import SyncReport

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

    from memfold.embed.base import Embedder
    from memfold.server.pgindex import PgRecallIndex
    from memfold.server.pgwrite import BankWrite

_FILES = ("SELECT path FROM files WHERE bank_id = %s AND content IS NOT NULL"
          " ORDER BY path COLLATE \"C\"")


def report(index: PgRecallIndex, head: int, *, full: bool, started: float) -> SyncReport:
    """The report `Memory.index` gives on a copy of the bank, read from its rows (module
    doc); `started`: the `time.perf_counter()` the call began at."""
    conn, bank_id = index.conn, index.bank_id
    paths = sorted(SKELETON) if head == 0 else [
        str(p) for (p,) in conn.execute(_FILES, [bank_id])]
    links = tuple(warnings_of(
        pgstatus.link_problems(conn, bank_id),
        lambda seqs: pgstatus.journal_lines(conn, bank_id, seqs)))
    found = pgstatus.warnings(conn, bank_id) if full and index.warning_count() else []
    return SyncReport(scanned=len(paths), added=tuple(paths) if full else (), changed=(),
                      removed=(), full=full, seconds=time.perf_counter() - started,
                      warnings=tuple(found), link_warnings=links,
                      open_warnings=index.warning_count() + len(links))


def rederive(write: BankWrite, *, judge: bool = True, pool: ConnectionPool | None = None,
             embedder: Callable[[], Embedder] | None = None) -> None:
    """Derive the bank's rows again from its files and journal, in the write's transaction,
    and with `judge` journal what a copy's rebuild would (module doc: the judge's word, by
    meaning too with the replica's model `embedder`); NeedsCopy, nothing stored, when the
    copy's rebuild would revise a fact."""
    if not write.head:  # a bank never written: nothing to derive
        return
    with write.conn.cursor() as cur:
        found = rows.check(cur, write.caller.tenant, write.bank_id, repair=True)
        if not found["recall"]:  # (rebuilt by the repair when its statistics disagreed)
            recall_rows.rebuild(cur, write.caller.tenant, write.bank_id)
    if judge and pool is not None:
        pgimport.judged(write, pool, embedder, ts=stamp(), signed=False)
    elif pgimport.would_journal(write, judge=judge):
        raise NeedsCopy
