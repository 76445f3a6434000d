"""The judge's word on a bank's facts that no retain wrote, from PostgreSQL itself (`memfold
serve --recall-from postgres`): what a copy's first index of imported notes journals
(`Ledger.judge_existing`), decided over the bank's rows in a write's transaction, so an
import that must be judged (memfold.server.pgimport) and `index` with `full`
(memfold.server.pgsync) make no copy of the bank.

As `judge_existing` does: when the journal holds no decision yet, every typed fact no
retain event lists (its `recall_life` row has no `retained_on`) is judged in the order
written — undated first, then by day, path (byte order) and line — one day at a time
(`ledger.written_days`), against the facts written by then, by the ledger's own
`Weighing` over the bank's recall rows (`PgRecallIndex`).  Each day's supersedes and
conflicts still open are journaled (`BankWrite.journal`: chained, signed with the caller's
name as a copy's import signs them — a copy's rebuild by `index` signs none — stamped `ts`,
`recall_life` folded) before the next day is weighed, as the copy's
ledger appends each day's under its lock; so the lines, and the state the next day reads,
are the copy's.  The searches run on the write's connection, a fresh view of the bank's
facts each day (a row's lifecycle state moves as a day is journaled; the names, the terms'
counts and the neighbours do not, and are kept across days).

The judge is the one a copy's ledger weighs with (`judge_for`): MEMFOLD_JUDGE's (the rule
judge by default), and with the replica's model, unless MEMFOLD_JUDGE_EMBED=off, also by
meaning, from vectors read from and stored to the bank's `vectors` rows in the write's
transaction (memfold.server.vectors), as a copy's import stores those its judge makes.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any, cast

from memfold import config
from memfold.index.base import Candidate, Filters, JournalPosition, Terms
from memfold.journal.events import Record
from memfold.lifecycle.bulk import BulkCandidates
from memfold.lifecycle.judge import Judge, load_judge
from memfold.lifecycle.ledger import DECISIONS, Weighing, written_days
from memfold.server.pgcache import BankFacts
from memfold.server.pgindex import PgRecallIndex
from memfold.server.pgwrite import chained
from memfold.server.vectors import StoredVectors

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

    from memfold.embed.base import Embedder
    from memfold.index.base import IndexBackend
    from memfold.server.pgwrite import BankWrite
    from memfold.values import Judgement

DECIDED = ("SELECT 1 FROM events WHERE bank_id = %s AND record ->> 'event' = ANY(%s)"
           " LIMIT 1")
# (day ordinal or None, id) of every typed fact no retain event lists, in the order written
# (`unretained_in_order`: undated first, then day, path and line)
UNJUDGED = ("SELECT f.day, f.fact_id FROM recall_facts f LEFT JOIN recall_life l"
            " ON l.bank_id = f.bank_id AND l.id = f.fact_id WHERE f.bank_id = %s"
            " AND f.kind <> 'text' AND l.retained_on IS NULL"
            " ORDER BY f.day IS NOT NULL, f.day, f.path COLLATE \"C\", f.line")


def unjudged(write: BankWrite) -> list[tuple[int | None, str]]:
    """The facts `judge_existing` would judge in this bank, in order: none when its journal
    holds a decision."""
    conn, bank_id = write.conn, write.bank_id
    if conn.execute(DECIDED, [bank_id, list(DECISIONS)]).fetchone():
        return []
    return [(None if day is None else int(day), str(fact_id))
            for day, fact_id in conn.execute(UNJUDGED, [bank_id]).fetchall()]


def judge_existing(write: BankWrite, *, ts: str, judge: Judge,
                   stored: StoredVectors | None = None,
                   signed: bool = True) -> list[Judgement]:
    """Judge the bank's facts no retain wrote, in the order written, and journal the
    judge's word in the write's transaction (module doc), `signed` with the caller's name
    (as a copy's import signs them; its rebuild by `index` signs none); the judgements
    kept."""
    days = written_days(unjudged(write))
    if not days:
        return []
    judged: list[Judgement] = []
    rows = _Rows(write)
    source = _Candidates(cast("IndexBackend", rows))  # the state facts read once
    with nullcontext() if stored is None else stored.writing(write.conn):
        for until, ids in days:
            index = rows.fresh()  # (a row's lifecycle state: what the days before decided)
            source.refresh()
            weighing = Weighing(index, source, judge)
            weighed = weighing.weigh(ids, until=until)
            kept = [(j, r) for j, r in weighed if not j.superseded or weighing.still_open(j)]
            records: list[Record] = [r for _, r in kept if r is not None]
            if signed:
                write.journal(records, ts=ts)
            elif records:
                seq, prev = write.tail()
                write.store(files={}, lines=[(e.seq, e.line())
                                             for e in chained(records, ts, seq, prev)])
            judged += [j for j, _ in kept]
    return judged


class _Rows:
    """The bank's recall rows as `BulkCandidates` reads an index: the state facts once,
    then each fact's lifecycle state again as the journal moves (`journal_position` from
    the bank's last line, `events_at` its lines), through a view of the rows made fresh
    each day (`fresh`) that keeps what the days do not change (names, terms' counts)."""

    def __init__(self, write: BankWrite) -> None:
        self.write = write
        self.facts = BankFacts(write.bank_id, (write.version, ""))
        self.index = PgRecallIndex(write.conn, write.bank_id, facts=self.facts)

    def fresh(self) -> PgRecallIndex:
        facts = self.facts
        facts.rows.clear()
        facts.ids.clear()
        facts.reviews.clear()
        facts.head = None
        facts.room()
        self.index = PgRecallIndex(self.write.conn, self.write.bank_id, facts=facts)
        return self.index

    def journal_position(self) -> JournalPosition:
        seq, last = self.write.tail()
        return JournalPosition(0, last, seq)

    def __getattr__(self, name: str) -> Any:  # the searches and lookups: the day's view
        return getattr(self.index, name)


class _Candidates(BulkCandidates):
    """`BulkCandidates` over the bank's rows: a search by entity links answered from the
    state facts read once; a full-text search by the rows' own (`PgRecallIndex.lexical`,
    memfold's BM25 from the bank's statistics: the scores a search per fact gives)."""

    def lexical(self, terms: Terms, filters: Filters, limit: int) -> list[Candidate]:
        return self.backend.lexical(terms, filters, limit)


def judge_for(write: BankWrite, pool: ConnectionPool,
              embedder: Callable[[], Embedder] | None) -> tuple[Judge, StoredVectors | None]:
    """The judge a copy's ledger weighs with (module doc), and the vectors it reads by
    meaning (None: words only)."""
    chosen = load_judge(config.judge_settings(), notify=lambda _: None)
    if chosen is None:
        from memfold.lifecycle.judge.rules import RuleJudge

        chosen = RuleJudge()
    if embedder is None or config.choice("MEMFOLD_JUDGE_EMBED") == "off":
        return chosen, None
    from memfold.lifecycle.judge.meaning import MeaningJudge

    version = write.version
    stored = StoredVectors(embedder(), pool, write.caller.tenant, write.bank_id,
                           lambda: version)
    return MeaningJudge(chosen, stored), stored
