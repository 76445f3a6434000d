"""An import into an empty bank answered from PostgreSQL itself (`memfold serve
--recall-from postgres`): the workspace stored whole, and judged as a copy's first index
judges it, with no copy of the bank.

Through a copy (`BankWorkspace.import_whole`) the files and journal are stored as the bank's
first version, then the copy built from that version indexes them, and the first index of
notes whose journal holds no decision judges every fact no retain wrote, in the order
written (`Ledger.judge_existing`); it also records a revision for each fact whose text
differs from the one the journal last saw.  Here the same rows are stored in the write's
transaction (memfold.server.pgwrite: `rows.store` derives the facts and recall rows and
folds the journal), then the facts a copy would judge are judged over those rows and the
judge's lines stored in the same version (memfold.server.pgjudge; with the replica's model,
by meaning too).  When the copy would also revise a fact — a text moved from its journaled
hash — `NeedsCopy` rolls the transaction back and the copy imports as before.  An import
into a bank that holds files merges bullet by bullet as retains, which the replica writes
from PostgreSQL too (memfold.server.exchange, memfold.server.pgretain).

The judging reads the rows just stored, many statements over a bank the tables'
statistics have never seen (on a new database: no statistics at all; after another bank's
import and its `ANALYZE`: a column of bank ids holding only the others).  So the import
gathers them in its own transaction once the rows are stored and before it judges
(`memfold_analyze()`, schema 0012: `ANALYZE` counts the rows its own transaction inserted);
planned on statistics that named only another bank, a 365-file import took 237 s in one
run against 61 and 46 s with no statistics and 70 and 58 s analysed here (`memfold bench
server-scale --small 60 --large 365`, branch srv38a; docs/server.md "Scale").  The lock
`ANALYZE` takes on each table (SHARE UPDATE EXCLUSIVE) is then held until the import
commits: it blocks no read or write, only another `ANALYZE` or `VACUUM` of those tables
or a schema change; autovacuum and another import's `memfold_analyze()` (`SKIP_LOCKED`)
pass over them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from memfold.lifecycle.ledger import DECISIONS, content_sha
from memfold.server import pgjudge
from memfold.server.db import NeedsCopy
from memfold.server.pgindex import PgRecallIndex
from memfold.server.pgwrite import BankWrite, stamp, writing
from memfold.server.recall_rows import BATCH, batches

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

    from memfold.embed.base import Embedder
    from memfold.server.admin import Caller

# statistics of the tables an import fills, gathered as their owner (schema 0012)
ANALYZE = "SELECT memfold_analyze()"
_FILES = "SELECT count(*) FROM files WHERE bank_id = %s"
_KNOWN = "SELECT fact_id FROM facts WHERE bank_id = %s"
# a typed fact no retain event listed (`Ledger.judge_existing` would judge it)
_UNRETAINED = ("SELECT 1 FROM recall_facts f LEFT JOIN recall_life l ON l.bank_id = f.bank_id"
               " AND l.id = f.fact_id WHERE f.bank_id = %s AND f.kind <> 'text'"
               " AND l.retained_on IS NULL LIMIT 1")
# the facts the journal holds a content hash for (`tracked_contents`: a duplicated id's
# later copy is no revision of it)
_TRACKED = ("SELECT f.fact_id, f.content FROM recall_facts f JOIN recall_life l"
            " ON l.bank_id = f.bank_id AND l.id = f.fact_id WHERE f.bank_id = %s"
            " AND f.kind <> 'text' AND f.explicit = 1 AND NOT f.shadowed"
            " AND l.state ->> 'content_sha' IS NOT NULL ORDER BY f.rowid")


def into_empty(pool: ConnectionPool, caller: Caller, bank: str, files: Mapping[str, bytes],
               journal: Sequence[str], known: set[str], *,
               embedder: Callable[[], Embedder] | None = None, now: Any = None) -> int | None:
    """Store the import whole as the bank's first version when the bank holds no file, and
    journal the judge's word on its facts no retain wrote as a copy's first index does
    (memfold.server.pgjudge, with the replica's model `embedder` if any): how many journal
    lines the judge added.  None when the bank holds files: the ids of the facts it holds
    put in `known`, nothing stored.  NeedsCopy, nothing stored, when a copy would revise
    a fact whose text moved from its journaled hash."""
    with writing(pool, caller, bank) as write:
        row = write.conn.execute(_FILES, [write.bank_id]).fetchone()
        if row is None or row[0] != 0:
            known.update(r[0] for r in write.conn.execute(_KNOWN, [write.bank_id]))
            return None
        write.store(files=files, lines=[(int(json.loads(line)["seq"]), line)
                                        for line in journal])
        write.conn.execute(ANALYZE)  # the judging's plans see the rows just stored
        return judged(write, pool, embedder, ts=stamp(now))


def judged(write: BankWrite, pool: ConnectionPool, embedder: Callable[[], Embedder] | None,
           *, ts: str, signed: bool = True) -> int:
    """After the bank's rows were derived from its files and journal (an import's first
    version, `index` with `full`): journal what a copy's first index of them journals —
    the judge's word on the facts no retain wrote, in the order written — and return how
    many lines that added (`signed` with the caller's name, as a copy's import signs
    them; its rebuild by `index` signs none); NeedsCopy (the transaction rolls back) when
    the copy would also revise a fact whose text moved from its journaled hash."""
    if would_journal(write, judge=False):
        raise NeedsCopy
    if not pgjudge.unjudged(write):
        return 0
    seq, _ = write.tail()
    judge, stored = pgjudge.judge_for(write, pool, embedder)
    pgjudge.judge_existing(write, ts=ts, judge=judge, stored=stored, signed=signed)
    return write.tail()[0] - seq


def would_journal(write: BankWrite, *, judge: bool = True) -> bool:
    """Whether a copy's rebuild of the bank's index from its stored rows (the first index
    of an import, `index` with `full`: memfold.server.pgsync) would journal anything:
    judge the facts (with `judge`: no decision journaled and a fact no retain wrote) or
    revise one."""
    if judge and write.conn.execute(_UNRETAINED, [write.bank_id]).fetchone() \
            and not write.conn.execute(pgjudge.DECIDED, [write.bank_id,
                                                         list(DECISIONS)]).fetchone():
        return True
    tracked = write.conn.execute(_TRACKED, [write.bank_id]).fetchall()
    index = PgRecallIndex(write.conn, write.bank_id)
    states = {fact_id: state for part in batches([str(r[0]) for r in tracked], BATCH)
              for fact_id, state in index.life(part).items()}
    return any((state := states.get(str(fact_id))) is not None
               and state.content_sha != content_sha(str(content))
               for fact_id, content in tracked)
