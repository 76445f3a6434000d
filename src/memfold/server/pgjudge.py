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

from collections.abc import Callable, Iterable, Sequence
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any, cast

from memfold import config
from memfold.index.base import Candidate, Filters, JournalPosition, Terms
from memfold.journal.events import Record
from memfold.journal.fold import LifeState
from memfold.journal.log import Event
from memfold.lifecycle.bulk import BulkCandidates
from memfold.lifecycle.judge import Judge, load_judge
from memfold.lifecycle.ledger import DECISIONS, Weighing, written_days
from memfold.server import bm25
from memfold.server.pgcache import WRITE_BYTES, BankFacts
from memfold.server.pgindex import PgRecallIndex
from memfold.server.pgsearch import read_places
from memfold.server.pgwrite import chained
from memfold.server.recall_rows import BATCH, batches
from memfold.server.vectors import StoredVectors

if TYPE_CHECKING:
    import psycopg
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
# every entity page's names (`PgRecallIndex.resolve_names`: an alias names the entity of the
# first page, in path order, that gives it) and every key a fact links to
_ALIASES = ("SELECT key, entity FROM recall_aliases WHERE bank_id = %s"
            " ORDER BY path COLLATE \"C\", place")
_LINKED = "SELECT DISTINCT key FROM recall_links WHERE bank_id = %s"
# how many rows hold each term, and its places in each of them (the postings name the rows)
_TERM_ROWS = "SELECT term, rows FROM recall_terms WHERE bank_id = %s AND term = ANY(%s)"
_TERM_PLACES = ("SELECT u.lexeme, f.rowid, f.length, u.positions, u.weights"
                " FROM recall_postings p JOIN recall_facts f ON f.rowid = p.rowid"
                " CROSS JOIN LATERAL unnest(f.terms) u WHERE p.bank_id = %s"
                " AND p.term = ANY(%s) AND u.lexeme = p.term")


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
    source = _Candidates(cast("IndexBackend", rows), write.conn, write.bank_id)
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
        self.places = _Places()  # (kept across days: the files do not change)
        self.index = _ScoredRows(write.conn, write.bank_id, facts=self.facts,
                                 places=self.places)

    def fresh(self) -> PgRecallIndex:
        facts = self.facts
        facts.forget_rows()
        facts.room(WRITE_BYTES)
        self.index = _ScoredRows(self.write.conn, self.write.bank_id, facts=facts,
                                 places=self.places)
        return self.index

    def journal_position(self) -> JournalPosition:
        seq, last = self.write.tail()
        return JournalPosition(0, last, seq)

    def __getattr__(self, name: str) -> Any:  # the searches and lookups: the day's view
        return getattr(self.index, name)


class _ScoredRows(PgRecallIndex):
    """The bank's recall rows, with every full-text match's score (`match_scores`); ids
    and seqs asked at most `recall_rows.BATCH` to a statement (a day may hold more)."""

    def __init__(self, conn: psycopg.Connection[Any], bank_id: int, *, facts: BankFacts,
                 places: _Places) -> None:
        super().__init__(conn, bank_id, facts=facts)
        self.places = places

    def by_ids(self, ids: Sequence[str]) -> list[Candidate]:
        wanted = list(dict.fromkeys(ids))
        if len(wanted) > BATCH:  # each part's rows kept, then answered in one order
            for part in batches(wanted, BATCH):
                super().by_ids(part)
        return super().by_ids(wanted)

    def life(self, ids: Iterable[str]) -> dict[str, LifeState]:
        states: dict[str, LifeState] = {}
        for part in batches(list(dict.fromkeys(ids)), BATCH):
            states.update(super().life(part))
        return states

    def events_at(self, seqs: Sequence[int]) -> list[Event]:
        found: list[Event] = []
        for part in batches(sorted(set(seqs)), BATCH):
            found += super().events_at(part)
        return found

    def match_scores(self, terms: Terms) -> dict[int, float]:
        """The BM25 of every match of `terms`, by row key: the scores `lexical` ranks by
        (`bm25.score` over the same places), with no row made a fact.  A search of single
        terms reads each term's places once for the whole judging (`_Places`)."""
        found = bm25.phrases(terms)
        rows, tokens = self.statistics()
        if not found or not rows:
            return {}
        avgdl = tokens / rows
        if all(p.single() for p in found):
            return self.places.scores(self.conn, self.bank_id, found, terms.every, rows,
                                      avgdl)
        places: dict[int, dict[str, list[tuple[int, int]]]] = {}
        lengths: dict[int, int] = {}
        for rowid, length, _, _, _, lexeme, positions, weights in self.conn.execute(
                *self._places(found, terms.every, Filters())):
            lengths[rowid] = length
            places.setdefault(rowid, {})[lexeme] = read_places(positions, weights)
        idfs = [bm25.idf(rows, n) for n in self._holding(found)]
        return {rowid: bm25.score(found, idfs, places[rowid], length, avgdl)
                for rowid, length in lengths.items()}


class _Places:
    """Each term's places in the rows holding it, and how many rows hold it, read once
    (at most `KEPT` places kept: past that, forgotten and read again)."""

    KEPT = 500_000

    def __init__(self) -> None:
        # term -> (rows holding it, rowid -> (the row's length, the term's places))
        self.terms: dict[str, tuple[int, dict[int, tuple[int, list[tuple[int, int]]]]]] = {}
        self.kept = 0

    def scores(self, conn: psycopg.Connection[Any], bank_id: int,
               found: Sequence[bm25.Phrase], every: bool, rows: int,
               avgdl: float) -> dict[int, float]:
        """`match_scores` of a search of single terms (`found`), from the terms' places."""
        words = list(dict.fromkeys(p.terms[0] for p in found))
        self._read(conn, bank_id, words)
        held = [self.terms[w][1] for w in words]
        rowids = set(held[0]).intersection(*held[1:]) if every else set().union(*held)
        idfs = [bm25.idf(rows, self.terms[p.terms[0]][0]) for p in found]
        scores: dict[int, float] = {}
        for rowid in rowids:
            places = {w: h[rowid][1] for w, h in zip(words, held, strict=True) if rowid in h}
            length = next(h[rowid][0] for h in held if rowid in h)
            scores[rowid] = bm25.score(found, idfs, places, length, avgdl)
        return scores

    def _read(self, conn: psycopg.Connection[Any], bank_id: int, words: list[str]) -> None:
        """Read the places of those of `words` not kept."""
        if self.kept > self.KEPT and any(w not in self.terms for w in words):
            self.terms.clear()
            self.kept = 0
        missing = sorted(w for w in words if w not in self.terms)
        for part in batches(missing, BATCH):
            counts = dict(conn.execute(_TERM_ROWS, [bank_id, part]).fetchall())
            read: dict[str, tuple[int, dict[int, tuple[int, list[tuple[int, int]]]]]] = {
                w: (int(counts.get(w) or 0), {}) for w in part}
            for term, rowid, length, positions, weights in conn.execute(
                    _TERM_PLACES, [bank_id, part]):
                read[term][1][rowid] = (length, read_places(positions, weights))
                self.kept += 1
            self.terms.update(read)


class _Candidates(BulkCandidates):
    """`BulkCandidates` over the bank's rows, the entities' names and aliases read once
    (`names`: what `PgRecallIndex.resolve_names` and `alias_keys` answer, for every key)."""

    def __init__(self, backend: IndexBackend, conn: psycopg.Connection[Any],
                 bank_id: int) -> None:
        super().__init__(backend)
        self._every: dict[str, str] = {}  # key -> the entity it names
        self._others: dict[str, set[str]] = {}  # entity -> its other keys
        for key, entity in conn.execute(_ALIASES, [bank_id]):
            self._every.setdefault(key, entity)
            if key != entity:
                self._others.setdefault(entity, set()).add(key)
        for (key,) in conn.execute(_LINKED, [bank_id]):
            self._every.setdefault(key, key)

    def resolve_names(self, keys: Sequence[str]) -> dict[str, str]:
        return {k: e for k in dict.fromkeys(keys) if (e := self._every.get(k)) is not None}

    def alias_keys(self, entities: Sequence[str]) -> list[str]:
        every = {k for e in dict.fromkeys(entities) for k in self._others.get(e, ())}
        return sorted(every, key=lambda k: k.encode())  # (byte order, as COLLATE "C")


def judge_for(write: BankWrite, pool: ConnectionPool,
              embedder: Callable[[], Embedder] | None) -> tuple[Judge, StoredVectors | None]:
    """The judge a copy's ledger weighs with: the one MEMFOLD_JUDGE names (the rule judge by
    default), and with the replica's model, unless MEMFOLD_JUDGE_EMBED=off, also weighing
    meaning (judge.meaning) from vectors kept in the bank's rows, those it makes stored in
    this write's transaction (memfold.server.vectors); and those vectors (None: words
    only).  A retain (memfold.server.pgretain) and an import's judging weigh with it."""
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
