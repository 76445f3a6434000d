"""A retain answered from PostgreSQL itself (`memfold serve --recall-from postgres`): the
replica appends to the day's log, journals and judges without a copy of the bank, so a
replica that never opened a bank writes to it as fast as one that did, and writes nothing
under its cache.

One transaction holds the bank's advisory lock and its `banks` row (as every write does,
memfold.server.banks) and reads only what the retain needs:

- the idempotency key: the bank's first `retain` event that recorded it (schema 0010 indexes
  them), whose facts answer a repeat (`retain.repeated_result`);
- the block ids the caller gave: where the bank's recall rows hold them (a used one is
  BadInput, `retain.check_ids_free`, nothing written);
- the day's file row, appended to as local retain appends (`prepare_append`,
  `parse_appended`; a day that does not decode, or whose end leaves a fence or comment open,
  is parsed whole, its rows all derived again and a revision journaled for each of its
  facts whose text moved, as `Ledger.after_sync` records them), and the journal's tail (the
  last line's seq and hash) the new lines chain on;
- the judge's older candidates and every fact's state: the bank's recall rows
  (`PgRecallIndex`), weighed by the ledger's own `Weighing` with the judge a copy's ledger
  weighs with (MEMFOLD_JUDGE, the rule judge by default; with the replica's model, also
  by meaning, from vectors kept in the bank's rows), after the retain's own rows are stored
  in the same transaction, as local memfold judges after indexing the append.

It stores what the copy would have sent (`rows.store`: the file, its facts and recall rows,
the journal lines, `recall_life` folded), bumps `head` and commits; the answer goes out
after the commit.  So the bytes of `files` and the lines of `events` are the ones a retain
through a copy writes (the same `now`, the same block ids), and a copy that catches up later
applies them as any other write.

What this does not answer it refuses with `NeedsCopy` before writing anything, and the
replica writes through its copy as before: a bank whose recall rows were never derived,
and a replica without a model told to judge by meaning all the same (MEMFOLD_JUDGE_EMBED=on:
a copy's judge loads a model of its own).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack, nullcontext
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from memfold import config
from memfold import retain as retain_module
from memfold.journal.events import Record
from memfold.journal.log import Event, parse
from memfold.lifecycle.ledger import JUDGE_LIMIT, Weighing, revisions
from memfold.server import pgcore, pgjudge, pgledger, pgreflect, pgsync, pgvectors
from memfold.server.admin import Caller, check_bank
from memfold.server.pgindex import PgRecallIndex
from memfold.server.pgwrite import BankWrite, chained, clock, skeleton, stamp
from memfold.server.vectors import store_vectors
from memfold.values import TEXT, Judgement, RetainResult, SyncReport
from memfold.workspace.format import decode, parse_appended, parse_document, prepare_append
from memfold.workspace.layout import daily_path

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

    from memfold.embed.base import Embedder
    from memfold.reflect.plan import ReflectPlan

_T = TypeVar("_T")

# the verbs (REST) and tools (MCP) written this way: a retain, the journal-only writes, the
# core memory edits and reflect
ANSWERED = frozenset({"retain", "index"}) | pgledger.ANSWERED | pgcore.ANSWERED \
    | pgreflect.ANSWERED
_KEYED = ("SELECT line FROM events WHERE bank_id = %s AND record->>'event' = 'retain'"
          " AND record ? 'idempotency_key' AND record->>'idempotency_key' = %s"
          " ORDER BY seq LIMIT 1")
_DAY = "SELECT content FROM files WHERE bank_id = %s AND path = %s"
_HELD = "SELECT DISTINCT fact_id FROM recall_facts WHERE bank_id = %s AND fact_id = ANY(%s)"
# the facts of one file the journal may hold a content hash for (`tracked_contents`: a
# duplicated id's later copy is no revision of it)
_TRACKED_IN = ("SELECT fact_id, content FROM recall_facts WHERE bank_id = %s AND path = %s"
               " AND kind <> 'text' AND explicit = 1 AND NOT shadowed ORDER BY rowid")


def answerable(embedder: object | None) -> bool:
    """Whether this replica's retains can be answered from PostgreSQL: with the replica's
    model, or with none when the judge is not told to load one (MEMFOLD_JUDGE_EMBED=on
    without vectors: the copy's judge loads the model of its own)."""
    return embedder is not None or config.choice("MEMFOLD_JUDGE_EMBED") != "on"


class DatabaseWriter(pgcore.CoreWrites):
    """`Memory.retain` (and `use`, `supersede`, `restore`, ...: memfold.server.pgledger,
    the core edits: pgcore, `reflect` and `reflect_undo`: pgreflect) for one bank, written
    to PostgreSQL with no copy of it: the same arguments and answer (the REST verbs and the
    MCP tools run on it unchanged)."""

    def __init__(self, pool: ConnectionPool, caller: Caller, bank: str,
                 embedder: Callable[[], Embedder] | None = None) -> None:
        self.pool = pool
        self.caller = caller
        self.bank = bank
        self.source = caller.name  # who writes: every record is signed with the token's name
        self.embedder = embedder  # the replica's model, or None: lexical
        self.embeds = embedder is not None

    def retain(self, bullets: str | Sequence[str], *, date: date | str | None = None,
               source: str | None = None, idempotency_key: str | None = None,
               now: Any = None, allow_secret: bool = False,
               future: bool = False) -> RetainResult:
        when = clock(now)
        plans: list[retain_module.RetainPlan] = []

        def checked() -> None:  # (once the bank is found, as a copy's write finds it)
            plans.append(retain_module.prepare(
                bullets, date=date, clock=when, origin=source or self.source, future=future,
                allow_secret=allow_secret, idempotency_key=idempotency_key))

        write = self.transaction(before=checked)
        return Retaining(write, self.pool, self.embedder).write(plans[0], when)

    def reflect(self, *, since: str | date = "7d", dry_run: bool = False,
                now: Any = None) -> ReflectPlan:
        """`Memory.reflect` planned over the bank's rows and stored to them
        (memfold.server.pgreflect); with the replica's model, paraphrases found by the
        vectors of the bank's rows, those made stored in this write's transaction."""
        write = self.transaction()
        similar = None if self.embedder is None else pgreflect.written_similar(
            write, self.embedder)
        if dry_run:
            return pgreflect.planned(write.conn, write.bank_id, write.head, since=since,
                                     now=now, similar=similar)
        return pgreflect.run(write, since=since, now=now, ts=stamp(now),
                             judge=Retaining(write, self.pool, self.embedder).judged,
                             similar=similar)

    def index(self, *, full: bool = False, progress: Any = None,
              judge: bool = True) -> SyncReport:
        """`Memory.index` on the bank's rows (memfold.server.pgsync): with `full` derived
        again from its files and journal and judged as a copy's rebuild judges, and with a
        model up to `pgvectors.INDEX_EMBED` of its texts without a vector embedded, in the
        write's transaction; NeedsCopy when a copy's rebuild would revise a fact."""
        started = time.perf_counter()
        write = self.transaction()
        if full:
            pgsync.rederive(write, judge=judge, pool=self.pool, embedder=self.embedder)
        if self.embedder is not None:
            name, made, _ = pgvectors.embed_unembedded(write.conn, write.bank_id,
                                                       self.embedder())
            store_vectors(write.conn, self.caller.tenant, write.bank_id, name, made.items(),
                          seen=None)
        return pgsync.report(PgRecallIndex(write.conn, write.bank_id), write.head, full=full,
                             started=started)

    def reflect_undo(self, *, now: Any = None) -> list[str]:
        """`Memory.reflect_undo` from the bank's rows (memfold.server.pgreflect)."""
        write = self.transaction()
        return pgreflect.undo(write, ts=stamp(now),
                              judge=Retaining(write, self.pool, self.embedder).judged)


class Retaining:
    """One retain in a write's transaction on one bank (its lock held)."""

    def __init__(self, write: BankWrite, pool: ConnectionPool,
                 embedder: Callable[[], Embedder] | None) -> None:
        self.tx = write
        self.conn = write.conn
        self.pool = pool
        self.caller = write.caller
        self.bank_id = write.bank_id
        self.embedder = embedder

    def write(self, plan: retain_module.RetainPlan,
              clock: Callable[[], datetime]) -> RetainResult:
        before = PgRecallIndex(self.conn, self.bank_id)
        if plan.key is not None and (seen := self._keyed(plan.key)) is not None:
            ids, _ = retain_module.retained_ids(seen)
            found = {c.fact.id: c.fact for c in before.by_ids(ids)}
            return retain_module.repeated_result(seen, found)
        retain_module.check_ids_free(before, plan.given)
        rel = daily_path(plan.day)
        old = self._day(rel)
        existing, problems = decode(old) if old is not None else (None, [])
        planned = prepare_append(existing, plan.day.isoformat(), list(plan.lines))
        after = (old or b"") + planned.text.encode()
        # as local retain: only the new lines parsed, unless the day does not decode or
        # its end leaves a fence or comment open (the append closes it): then all of it
        tail = None if problems else parse_appended(rel, planned)
        whole = tail is None and old is not None
        doc = tail or parse_document(rel, after)
        new_ids = self._unheld([f.id for f in doc.facts if f.kind != TEXT])
        seq, prev = self.tx.tail()
        ts = clock().isoformat(timespec="seconds")
        lines = chained([retain_module.retain_record(plan, doc)], ts, seq, prev)
        files = {**(skeleton() if self.tx.head == 0 else {}), rel: after}
        appended = {rel: old.count(b"\n")} if old and old.endswith(b"\n") and not whole \
            else {}
        self.tx.store(files=files, lines=[(e.seq, e.line()) for e in lines],
                      appended=appended)
        if whole:
            self.revised(rel, ts)
        judged = self.judged(new_ids, ts)
        return retain_module.result(rel, doc, planned.first_line, plan, judged)

    def revised(self, rel: str, ts: str) -> None:
        """Journal a revision of each fact of `rel` whose text moved from the one the
        journal last saw (its rows stored already): what `Ledger.after_sync` records when a
        local retain indexed the whole day (`ledger.revisions`)."""
        rows = self.conn.execute(_TRACKED_IN, [self.bank_id, rel]).fetchall()
        states = PgRecallIndex(self.conn, self.bank_id).life([str(r[0]) for r in rows])
        self.tx.journal(revisions(
            (str(fact_id), str(content), state.content_sha, state.rev)
            for fact_id, content in rows
            if (state := states.get(str(fact_id))) is not None
            and state.content_sha is not None), ts=ts)

    def judged(self, new_ids: list[str], ts: str) -> list[Judgement]:
        """Judge the new facts against older ones from the bank's rows (the retain's own
        stored already) and store the judge's word as journal lines of this version: what
        `Ledger.after_sync` journals after a local retain."""
        if not new_ids or len(new_ids) > JUDGE_LIMIT:
            return []
        index = PgRecallIndex(self.conn, self.bank_id)
        judge, stored = pgjudge.judge_for(self.tx, self.pool, self.embedder)
        weighing = Weighing(index, index, judge)
        with nullcontext() if stored is None else stored.writing(self.conn):
            weighed = weighing.weigh(new_ids)
        kept = [(j, r) for j, r in weighed if not j.superseded or weighing.still_open(j)]
        records: list[Record] = [r for _, r in kept if r is not None]
        self.tx.journal(records, ts=ts)
        return [j for j, _ in kept]

    def _keyed(self, key: str) -> Event | None:
        row = self.conn.execute(_KEYED, [self.bank_id, key]).fetchone()
        return None if row is None else parse(json.loads(row[0]))

    def _day(self, rel: str) -> bytes | None:
        row = self.conn.execute(_DAY, [self.bank_id, rel]).fetchone()
        return None if row is None or row[0] is None else bytes(row[0])

    def _unheld(self, ids: list[str]) -> list[str]:
        """Of these typed facts' ids, those the bank holds no row of (`new_ids` of a local
        sync: the facts the judge weighs)."""
        if not ids:
            return []
        held = {r[0] for r in self.conn.execute(_HELD, [self.bank_id, ids]).fetchall()}
        return [i for i in dict.fromkeys(ids) if i not in held]


def answer(pool: ConnectionPool, caller: Caller, bank: str,
           work: Callable[[DatabaseWriter], _T], *,
           embedder: Callable[[], Embedder] | None = None) -> _T:
    """Run the write `work` (a retain, a use, ...) on the caller's bank in PostgreSQL, in
    one transaction committed before this returns, with the replica's model (`embedder`)
    if any; NeedsCopy when the copy must answer it (nothing was written)."""
    check_bank(bank)
    writer = DatabaseWriter(pool, caller, bank, embedder)
    with ExitStack() as stack:
        writer.stack = stack
        done = work(writer)
        writer.transaction()  # a request that wrote nothing (`use` of no ids) finds its bank
        return done
