"""The recall rows a bank version writes to PostgreSQL (schema 0005): what a replica reads to
answer recall with no copy of the bank (memfold.server.pgindex).

Derived from the files and journal lines `rows.store` stores, in the same transaction:

- each file given is parsed as the local index parses it (secrets and hidden text flagged,
  prose also sentence by sentence: `index.sync`), and turned into the SQLite index's own rows
  (`index.sqlite.writes.prepare`), so both hold the same facts with the same columns;
- each row's terms are the ones SQLite's FTS5 tokenizer makes (`index.sqlite.tokenize`),
  kept as a tsvector (body terms at their places; entity names after a gap, weight A, so no
  phrase spans the two) and counted (`length`: FTS5's document length);
- the bank's statistics move with the rows, in the same transaction: rows, terms, and per
  term the rows that hold it (`recall_stats`, `recall_terms`) — what bm25 weighs by;
- journal lines are folded into each id's lifecycle state (`recall_life`) as the local index
  folds them; a rewritten line (a purge) folds the whole journal again;
- a block id on several rows keeps its state on one (`index.sqlite.holders`): the others are
  `shadowed`.

Every statement that names rows by a list (the postings of the rows made or deleted, the
states and copies of the ids touched) names at most `BATCH` of them, so no statement grows
with the bank: an import stores a bank whole in one transaction, and the server bounds each
statement (`memfold serve --statement-timeout`), not the transaction.

`rebuild` derives every row of a bank again from its files and journal (`bank check
--repair`, and a bank written before schema 0005)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, TypeVar, cast

from memfold.index.sqlite.holders import Copy, holder
from memfold.index.sqlite.tokenize import Terms, terms
from memfold.index.sqlite.writes import DocRows, prepare
from memfold.journal.events import Retain, Supersede
from memfold.journal.fold import LifeState, replay
from memfold.journal.log import Event
from memfold.screening import flag_hidden, flag_secrets
from memfold.values import FileStamp, ParsedDoc
from memfold.workspace.format import daily_date, decode, parse_document, split_lines
from memfold.workspace.sentences import with_sentences

if TYPE_CHECKING:
    import psycopg

_T = TypeVar("_T")

MAX_POSITION = 16383  # a tsvector keeps places up to this
MAX_PLACES = 256  # and this many places per term
MAX_TERM_BYTES = 2046  # and terms up to this long
NAMES_GAP = 2  # places between the last body term and the first name: no phrase spans them
BATCH = 2000  # rows or ids one statement names at most (a row holds about 20 postings)
FACT_COLUMNS = ("fact_id", "line", "end_line", "kind", "content", "entities", "params",
                "confidence", "importance", "valid_from", "valid_until", "day", "explicit")


_INSERT_FACT = (f"INSERT INTO recall_facts (tenant_id, bank_id, rowid, path, "  # noqa: S608
                f"{', '.join(FACT_COLUMNS)}, terms, length) VALUES "
                f"({', '.join(['%s'] * (len(FACT_COLUMNS) + 6))})")


def indexable(path: str, data: bytes) -> ParsedDoc:
    """A file's parse as the local index takes it (`index.sync._indexable`)."""
    doc = parse_document(path, data)
    read: list[list[str]] = []

    def lines() -> list[str]:
        if not read:
            read.append(split_lines(decode(data)[0]))
        return read[0]

    return with_sentences(flag_hidden(flag_secrets(doc, lines), lines))


def kept_terms(found: Terms) -> set[str]:
    """The distinct terms a row's tsvector holds (a term too long for one is left out)."""
    return {t for _, _, t in found if len(t.encode("utf-8")) <= MAX_TERM_BYTES}


def tsvector(found: Terms) -> str:
    """The terms of one row as tsvector text: body terms at place offset + 1, names after
    the body and a gap (weight A)."""
    body = 1 + max((offset for col, offset, _ in found if col == 0), default=-1)
    places: dict[str, list[str]] = {}
    for col, offset, term in found:
        place = min(offset + 1 if col == 0 else body + NAMES_GAP + offset, MAX_POSITION)
        kept = places.setdefault(term, [])
        if len(kept) < MAX_PLACES and len(term.encode("utf-8")) <= MAX_TERM_BYTES:
            kept.append(f"{place}{'A' if col else ''}")
    return " ".join("'" + term.replace("\\", "\\\\").replace("'", "''") + "':" + ",".join(p)
                    for term, p in places.items() if p)


class _Tally:
    """How the bank's statistics move in one write: rows, terms, rows per term."""

    def __init__(self) -> None:
        self.rows = 0
        self.terms = 0
        self.per_term: Counter[str] = Counter()

    def add(self, length: int, distinct: Iterable[str], sign: int) -> None:
        self.rows += sign
        self.terms += sign * length
        for term in distinct:
            self.per_term[term] += sign


def store_recall(cur: psycopg.Cursor[Any], tenant: str, bank_id: int, *,
                 files: Mapping[str, bytes | None], lines: Sequence[tuple[int, str]],
                 appended: Mapping[str, int], whole: bool = False) -> None:
    """Derive the recall rows of the files given (None: deleted; of a file in `appended`,
    the rows that reach its old last line) and fold the journal lines.  A bank written
    before it had recall rows (schema 0005) has them all derived now (`rebuild`); `whole`:
    the files and lines given are the whole bank."""
    created = cur.execute("INSERT INTO recall_stats VALUES (%s, %s, 0, 0, 0) "
                          "ON CONFLICT DO NOTHING RETURNING bank_id", [tenant, bank_id])
    if created.fetchone() is not None and not whole and _written_before(cur, bank_id, files,
                                                                        lines):
        rebuild(cur, tenant, bank_id)
        return
    tally = _Tally()
    touched: set[str] = set()
    gone: list[tuple[str, int]] = []  # the postings of the rows deleted: (term, rowid)
    made: list[int] = []  # the rows inserted
    for path, data in files.items():
        kept = appended.get(path, 0)
        for rowid, fact_id, length, distinct in cur.execute(
                "DELETE FROM recall_facts WHERE bank_id = %s AND path = %s AND end_line >= %s"
                " RETURNING rowid, fact_id, length, tsvector_to_array(terms)",
                [bank_id, path, kept]).fetchall():
            touched.add(fact_id)
            tally.add(length, distinct, -1)
            gone.extend((term, rowid) for term in distinct)
        cur.execute("DELETE FROM recall_aliases WHERE bank_id = %s AND path = %s",
                    [bank_id, path])
        cur.execute("DELETE FROM recall_files WHERE bank_id = %s AND path = %s",
                    [bank_id, path])
        if data is not None:
            touched |= _insert_file(cur, tenant, bank_id, path, data, kept, tally, made)
    _move_postings(cur, bank_id, gone, made)
    _move_statistics(cur, tenant, bank_id, tally)
    touched |= fold(cur, tenant, bank_id, lines)
    settle(cur, bank_id, touched)


def _written_before(cur: psycopg.Cursor[Any], bank_id: int, files: Mapping[str, object],
                    lines: Sequence[tuple[int, str]]) -> bool:
    """Whether the bank holds files or journal lines besides these (stored already)."""
    first = min((seq for seq, _ in lines), default=None)
    row = cur.execute(
        "SELECT EXISTS (SELECT 1 FROM files WHERE bank_id = %s AND content IS NOT NULL "
        "AND path NOT IN (SELECT unnest(%s::text[]))) OR EXISTS (SELECT 1 FROM events "
        "WHERE bank_id = %s AND (%s::bigint IS NULL OR seq < %s))",
        [bank_id, list(files), bank_id, first, first]).fetchone()
    return bool(row and row[0])


def _move_postings(cur: psycopg.Cursor[Any], bank_id: int, gone: Sequence[tuple[str, int]],
                   made: Sequence[int]) -> None:
    """Delete the postings of the rows deleted and derive those of the rows inserted
    (`recall_postings`: a term's hits weighed by column, places of weight A being names)."""
    for part in batches(gone, BATCH * 20):
        cur.execute("DELETE FROM recall_postings WHERE bank_id = %s AND (term, rowid) IN"
                    " (SELECT * FROM unnest(%s::text[], %s::bigint[]))",
                    [bank_id, [t for t, _ in part], [r for _, r in part]])
    for rowids in batches(made, BATCH):
        cur.execute(_INSERT_POSTINGS, [bank_id, rowids])


def batches(items: Sequence[_T], size: int) -> Iterator[list[_T]]:
    """The items in lists of at most `size`, in order (none for no items)."""
    for start in range(0, len(items), size):
        yield list(items[start:start + size])


_INSERT_POSTINGS = (
    "INSERT INTO recall_postings SELECT f.tenant_id, f.bank_id, u.lexeme, f.rowid,"
    " cardinality(u.positions) - 0.5 * cardinality(array_positions(u.weights, 'A')), f.length"
    " FROM recall_facts f CROSS JOIN LATERAL unnest(f.terms) u"
    " WHERE f.bank_id = %s AND f.rowid = ANY(%s)")


def _insert_file(cur: psycopg.Cursor[Any], tenant: str, bank_id: int, path: str, data: bytes,
                 kept: int, tally: _Tally, made: list[int]) -> set[str]:
    """Insert one file's rows (those reaching line `kept`), aliases and warning count;
    their keys are added to `made`."""
    doc = indexable(path, data)
    rows = cast(DocRows, prepare(doc, FileStamp(len(data), 0, "")).rows)
    chosen = [n for n, fact in enumerate(rows.facts) if cast(int, fact[2]) >= kept]
    found = terms([rows.fts[n] for n in chosen])  # a bank does not fold (`recall.folded`)
    keys = [row[0] for row in cur.execute(
        "SELECT nextval('recall_facts_rowid_seq') FROM generate_series(1, %s)",
        [len(chosen)]).fetchall()] if chosen else []
    place_key = dict(zip(chosen, keys, strict=True))
    made.extend(keys)
    # (row-level security allows no COPY: batched INSERTs, pipelined by psycopg)
    facts: list[tuple[object, ...]] = []
    for n, key, row_terms in zip(chosen, keys, found, strict=True):
        facts.append((tenant, bank_id, key, path, *rows.facts[n], tsvector(row_terms),
                      len(row_terms)))
        tally.add(len(row_terms), kept_terms(row_terms), 1)
    cur.executemany(_INSERT_FACT, facts)
    cur.executemany("INSERT INTO recall_links (tenant_id, bank_id, fact, key, name, day) "
                    "VALUES (%s, %s, %s, %s, %s, %s)",
                    [(tenant, bank_id, place_key[place], key, name, day)
                     for place, key, name, day in rows.links if place in place_key])
    cur.executemany("INSERT INTO recall_aliases VALUES (%s, %s, %s, %s, %s, %s, %s)",
                    [(tenant, bank_id, path, n, entity, key, name)
                     for n, (_, entity, key, name) in enumerate(rows.aliases)])
    cur.execute("INSERT INTO recall_files VALUES (%s, %s, %s, %s)",
                [tenant, bank_id, path, len(doc.warnings)])
    return {cast(str, rows.facts[n][0]) for n in chosen}


def _move_statistics(cur: psycopg.Cursor[Any], tenant: str, bank_id: int,
                     tally: _Tally) -> None:
    cur.execute("UPDATE recall_stats SET rows = rows + %s, terms = terms + %s "
                "WHERE bank_id = %s", [tally.rows, tally.terms, bank_id])
    moved = sorted((term, n) for term, n in tally.per_term.items() if n)
    if not moved:
        return
    cur.executemany(
        "INSERT INTO recall_terms VALUES (%s, %s, %s, %s) ON CONFLICT (bank_id, term) "
        "DO UPDATE SET rows = recall_terms.rows + excluded.rows",
        [(tenant, bank_id, term, n) for term, n in moved])
    cur.execute("DELETE FROM recall_terms WHERE bank_id = %s AND term = ANY(%s) "
                "AND rows <= 0", [bank_id, [term for term, n in moved if n < 0]])


# -- the journal folded ----------------------------------------------------------------

def _event(line: str) -> Event:
    return Event.from_dict(json.loads(line))


def fold(cur: psycopg.Cursor[Any], tenant: str, bank_id: int,
         lines: Sequence[tuple[int, str]]) -> set[str]:
    """Fold journal lines (stored already) into `recall_life`; a line at or below the seq
    folded so far (a purge rewrote the journal) folds the whole journal again.  Returns the
    ids whose state moved."""
    if not lines:
        return set()
    row = cur.execute("SELECT folded_seq FROM recall_stats WHERE bank_id = %s",
                      [bank_id]).fetchone()
    done = int(row[0]) if row else 0
    if min(seq for seq, _ in lines) <= done:
        cur.execute("DELETE FROM recall_life WHERE bank_id = %s", [bank_id])
        events = [_event(line) for (line,) in cur.execute(
            "SELECT line FROM events WHERE bank_id = %s ORDER BY seq", [bank_id])]
        states: dict[str, LifeState] = {}
        retained_to: dict[str, str] = {}
    else:
        events = [_event(line) for _, line in sorted(lines)]
        wanted = {e.id for e in events} | {e.record.by for e in events
                                           if isinstance(e.record, Supersede)}
        wanted |= {i for e in events if isinstance(e.record, Retain) for i in e.record.ids}
        states, retained_to = _load(cur, bank_id, wanted)
        more, more_to = _load(cur, bank_id, {st.superseded_by for st in states.values()
                                             if st.superseded_by} - wanted)
        states.update(more)
        retained_to.update(more_to)
    replay(events, states)
    for e in events:
        if isinstance(e.record, Retain) and e.record.path:
            for fact_id in e.record.ids:
                retained_to.setdefault(fact_id, e.record.path)
    cur.executemany(
        "INSERT INTO recall_life VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (bank_id, id) "
        "DO UPDATE SET state = excluded.state, retained_on = excluded.retained_on, "
        "retained_to = excluded.retained_to",
        [(tenant, bank_id, st.id, json.dumps(asdict(st), ensure_ascii=False),
          st.retained_on, retained_to.get(st.id)) for st in states.values()])
    cur.execute("UPDATE recall_stats SET folded_seq = greatest(folded_seq, %s) "
                "WHERE bank_id = %s", [max(seq for seq, _ in lines), bank_id])
    return set(states)


def life_state(state: Mapping[str, Any]) -> LifeState:
    return LifeState(**state)


def _load(cur: psycopg.Cursor[Any], bank_id: int,
          ids: set[str]) -> tuple[dict[str, LifeState], dict[str, str]]:
    states: dict[str, LifeState] = {}
    retained_to: dict[str, str] = {}
    for part in batches(sorted(ids), BATCH):
        for fact_id, state, to in cur.execute(
                "SELECT id, state, retained_to FROM recall_life WHERE bank_id = %s "
                "AND id = ANY(%s)", [bank_id, part]).fetchall():
            states[fact_id] = life_state(state)
            if to:
                retained_to[fact_id] = to
    return states, retained_to


# -- which copy of a duplicated id holds it -----------------------------------------------

def settle(cur: psycopg.Cursor[Any], bank_id: int, ids: set[str]) -> None:
    """Mark the rows of these ids that are a later copy of a duplicated block id
    (`holders.holder` chooses the one that keeps it)."""
    for part in batches(sorted(ids), BATCH):
        _settle(cur, bank_id, part)


def _settle(cur: psycopg.Cursor[Any], bank_id: int, ids: list[str]) -> None:
    copies: dict[str, list[Copy]] = {}
    for rowid, fact_id, path, line, content in cur.execute(
            "SELECT rowid, fact_id, path, line, content FROM recall_facts WHERE bank_id = %s "
            "AND fact_id = ANY(%s)", [bank_id, ids]).fetchall():
        day = daily_date(path)
        copies.setdefault(fact_id, []).append(
            Copy(rowid, fact_id, path, line, day.isoformat() if day else None, content))
    shadowed: list[int] = []
    several = [i for i, found in copies.items() if len(found) > 1]
    if several:
        life = {fact_id: (state.get("content_sha"), to) for fact_id, state, to in cur.execute(
            "SELECT id, state, retained_to FROM recall_life WHERE bank_id = %s "
            "AND id = ANY(%s)", [bank_id, several])}
        for fact_id in several:
            sha, to = life.get(fact_id, (None, None))
            keep = holder(copies[fact_id], path=to, sha=sha)
            shadowed.extend(c.rowid for c in copies[fact_id] if c.rowid != keep)
    cur.execute("UPDATE recall_facts SET shadowed = (rowid = ANY(%s)) WHERE bank_id = %s "
                "AND fact_id = ANY(%s) AND shadowed <> (rowid = ANY(%s))",
                [shadowed, bank_id, ids, shadowed])


# -- a bank's recall rows derived again ---------------------------------------------------

def rebuild(cur: psycopg.Cursor[Any], tenant: str, bank_id: int) -> None:
    """Every recall row of the bank derived again from its files and journal."""
    for table in ("recall_postings", "recall_facts", "recall_aliases", "recall_files",
                  "recall_life", "recall_terms", "recall_stats"):
        cur.execute(f"DELETE FROM {table} WHERE bank_id = %s", [bank_id])  # noqa: S608
    files = {str(path): bytes(content) for path, content in cur.execute(
        "SELECT path, content FROM files WHERE bank_id = %s AND content IS NOT NULL "
        "ORDER BY path", [bank_id])}
    lines = [(int(seq), str(line)) for seq, line in cur.execute(
        "SELECT seq, line FROM events WHERE bank_id = %s ORDER BY seq", [bank_id])]
    store_recall(cur, tenant, bank_id, files=files, lines=lines, appended={}, whole=True)


def statistics_problems(cur: psycopg.Cursor[Any], bank_id: int) -> list[str]:
    """Where the bank's statistics disagree with its recall rows: 'rows', 'terms',
    'postings' (not one per term of each row), and 'term:<term>' for each term counted
    wrong (a hand-edited table)."""
    stats = cur.execute("SELECT rows, terms FROM recall_stats WHERE bank_id = %s",
                        [bank_id]).fetchone()
    actual = cur.execute("SELECT count(*), coalesce(sum(length), 0) FROM recall_facts "
                         "WHERE bank_id = %s", [bank_id]).fetchone()
    problems: list[str] = []
    if stats is None:  # never derived (written before schema 0005), or the row removed
        written = cur.execute("SELECT 1 FROM files WHERE bank_id = %s AND content IS NOT "
                              "NULL LIMIT 1", [bank_id]).fetchone()
        return ["missing"] if written or (actual and actual[0]) else []
    if actual is None or int(stats[0]) != int(actual[0]):
        problems.append("rows")
    if actual is None or int(stats[1]) != int(actual[1]):
        problems.append("terms")
    postings = cur.execute(
        "SELECT (SELECT count(*) FROM recall_postings WHERE bank_id = %s),"
        " (SELECT coalesce(sum(length(terms)), 0) FROM recall_facts WHERE bank_id = %s)",
        [bank_id, bank_id]).fetchone()
    if postings is None or int(postings[0]) != int(postings[1]):
        problems.append("postings")
    counted = dict(cur.execute("SELECT term, rows FROM recall_terms WHERE bank_id = %s",
                               [bank_id]).fetchall())
    held = dict(cur.execute(
        "SELECT t, count(*) FROM recall_facts, unnest(tsvector_to_array(terms)) t "
        "WHERE bank_id = %s GROUP BY t", [bank_id]).fetchall())
    problems += [f"term:{t}" for t in sorted(set(counted) | set(held))
                 if int(counted.get(t, 0)) != int(held.get(t, 0))]
    return problems
