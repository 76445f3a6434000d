"""`status` answered from PostgreSQL (`memfold serve --recall-from postgres`): the report a
copy of the bank gives (`memfold.status.status_report`), read in the request's snapshot.

- Counts come from the recall rows (`PgRecallIndex.counts`).
- Parse, hidden-text and secret warnings: the rows keep only each file's count of them
  (`recall_files.warnings`), so the files that have any are parsed again as the index
  parses them (`recall_rows.indexable`) for their messages — none in a bank without.
- Link warnings: the local index's three queries (`index.sqlite.state.LINK_QUERIES`) written
  over `recall_facts`, `recall_life` and `events`, worded by the same code
  (`index.links.warnings_of`); an orphaned event's line in the journal is its place among
  the bank's events, as the copy's journal holds them one a line in order.
- Stale pages: the citations of the files that hold a generated summary (found by its
  opening marker, which every summary starts with), each with the cited fact's text now.
- A bank never written counts the files of the skeleton its copy holds (they hold no fact).
- Freshness is empty: the rows are derived in every write's transaction, so no file differs
  from what they say.  `last_sync` is the time of the bank's last journal event (its last
  write that journaled one), where a copy says when the replica last caught up.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from memfold.index.base import Citation, DanglingPointer, DuplicateId, LinkProblems, OrphanState
from memfold.index.links import warnings_of
from memfold.journal.log import Event
from memfold.screening import is_hidden_warning, is_secret_warning
from memfold.server.pgreads import SKELETON
from memfold.server.recall_rows import indexable
from memfold.status import PARSE_FIX, stale_of
from memfold.values import Freshness, ParseWarning, StatusReport
from memfold.workspace.format.regions import GENERATED_OPEN

if TYPE_CHECKING:
    import psycopg

    from memfold.server.pgindex import PgRecallIndex

SUMMARY_OPEN = (GENERATED_OPEN + "summary").encode("utf-8")
WARNED = ("SELECT f.path, f.content FROM recall_files r JOIN files f ON f.bank_id = r.bank_id"
          " AND f.path = r.path WHERE r.bank_id = %s AND r.warnings > 0"
          " AND f.content IS NOT NULL")
SUMMARIES = ("SELECT path, content FROM files WHERE bank_id = %s AND content IS NOT NULL"
             " AND position(%s::bytea in content) > 0")
CITED = ("SELECT c.content FROM recall_facts c WHERE c.bank_id = %s AND c.path = %s"
         " AND c.line = %s AND c.kind <> 'text' LIMIT 1")
DUPLICATES = """
SELECT f.fact_id, f.path, f.line FROM recall_facts f
WHERE f.bank_id = %s AND f.kind <> 'text' AND f.fact_id IN (
    SELECT fact_id FROM recall_facts WHERE bank_id = %s GROUP BY fact_id HAVING count(*) > 1)
ORDER BY f.fact_id COLLATE "C", f.shadowed, f.path COLLATE "C", f.line
"""
DANGLING = """
SELECT l.id, f.path, f.line, l.state ->> 'status', l.state ->> 'superseded_by'
FROM recall_life l JOIN recall_facts f ON f.bank_id = l.bank_id AND f.fact_id = l.id
    AND NOT f.shadowed
WHERE l.bank_id = %s AND l.state ->> 'status' IN ('superseded', 'merged')
    AND coalesce(l.state ->> 'superseded_by', '') <> ''
    AND NOT EXISTS (SELECT 1 FROM recall_facts g WHERE g.bank_id = l.bank_id
                    AND g.fact_id = l.state ->> 'superseded_by')
ORDER BY f.path COLLATE "C", f.line
"""
# the latest note, and the latest supersede or merge, about an id no file holds (not
# purged), unless re-attached since (LINK_QUERIES' third, over the bank's events)
ORPHANS = """
WITH gone AS (
    SELECT l.id, l.state ->> 'note' AS note, l.state ->> 'status' AS status FROM recall_life l
    WHERE l.bank_id = %(bank)s
        AND (coalesce(l.state ->> 'note', '') <> ''
             OR l.state ->> 'status' IN ('superseded', 'merged'))
        AND NOT EXISTS (SELECT 1 FROM recall_facts f WHERE f.bank_id = l.bank_id
                        AND f.fact_id = l.id)
        AND NOT EXISTS (SELECT 1 FROM events p WHERE p.bank_id = l.bank_id
                        AND p.record ->> 'id' = l.id AND p.record ->> 'event' = 'purge')),
last AS (
    SELECT id, (SELECT max(seq) FROM events x WHERE x.bank_id = %(bank)s
                AND x.record ->> 'id' = g.id AND x.record ->> 'event' = 'note') AS seq
    FROM gone g WHERE coalesce(g.note, '') <> ''
    UNION ALL
    SELECT id, (SELECT max(seq) FROM events x WHERE x.bank_id = %(bank)s
                AND x.record ->> 'id' = g.id AND x.record ->> 'event' IN ('supersede', 'merge'))
    FROM gone g WHERE g.status IN ('superseded', 'merged'))
SELECT last.id, e.seq, e.record FROM last JOIN events e ON e.bank_id = %(bank)s
    AND e.seq = last.seq
WHERE NOT EXISTS (
    SELECT 1 FROM events r JOIN recall_facts f ON f.bank_id = r.bank_id
        AND f.fact_id = r.record ->> 'id'
    WHERE r.bank_id = %(bank)s AND r.seq > e.seq AND (
        e.record ->> 'event' = 'note' AND r.record ->> 'event' = 'note'
            AND r.record ->> 'note' = e.record ->> 'note'
        OR e.record ->> 'event' <> 'note' AND r.record ->> 'event' = 'supersede'
            AND r.record ->> 'judge' = 'manual' AND r.record ->> 'by' = CASE
                e.record ->> 'event' WHEN 'merge' THEN e.record ->> 'into'
                ELSE e.record ->> 'by' END))
ORDER BY e.seq
"""
JOURNAL_LINES = ("SELECT s, (SELECT count(*) FROM events e WHERE e.bank_id = %s"
                 " AND e.seq <= s) FROM unnest(%s::bigint[]) s")
LAST_EVENT = "SELECT record ->> 'ts' FROM events WHERE bank_id = %s ORDER BY seq DESC LIMIT 1"


def status(index: PgRecallIndex, head: int) -> StatusReport:
    """The bank's status report at version `head`, as `Memory.status` gives it on a copy
    (module docstring); a bank never written counts the skeleton's files, as its copy does."""
    conn, bank_id = index.conn, index.bank_id
    counts = index.counts()
    if head == 0:
        counts = replace(counts, files=len(SKELETON))
    indexed = warnings(conn, bank_id) if counts.warnings else []
    links = tuple(warnings_of(link_problems(conn, bank_id),
                              lambda seqs: journal_lines(conn, bank_id, seqs)))
    last = conn.execute(LAST_EVENT, [bank_id]).fetchone()
    return StatusReport(
        workspace="", index_path="", files=counts.files, facts_by_kind=counts.facts_by_kind,
        entities=counts.entities, chunks=counts.chunks, warnings=counts.warnings + len(links),
        freshness=Freshness((), (), ()), last_sync=last[0] if last else None,
        stale_pages=tuple(stale_of(citations(conn, bank_id))), link_warnings=links,
        secrets=tuple(w for w in indexed if is_secret_warning(w)),
        hidden_text=tuple(w for w in indexed if is_hidden_warning(w)),
        parse_warnings=tuple(replace(w, message=w.message + PARSE_FIX) for w in indexed
                             if not is_secret_warning(w) and not is_hidden_warning(w)))


def warnings(conn: psycopg.Connection[Any], bank_id: int) -> list[ParseWarning]:
    """Every parse warning of the bank's files, by path and line (`IndexBackend.warnings`)."""
    found = [w for path, content in conn.execute(WARNED, [bank_id])
             for w in indexable(str(path), bytes(content)).warnings]
    return sorted(found, key=lambda w: (w.path.encode("utf-8"), w.line))


def citations(conn: psycopg.Connection[Any], bank_id: int) -> list[Citation]:
    """Every generated summary line, by page and line, with the cited fact's text now."""
    found: list[Citation] = []
    for path, content in conn.execute(SUMMARIES, [bank_id, SUMMARY_OPEN]).fetchall():
        for c in indexable(str(path), bytes(content)).citations:
            row = conn.execute(CITED, [bank_id, c.source, c.source_line]).fetchone()
            found.append(Citation(str(path), c.line, c.source, c.source_line, c.sha,
                                  row[0] if row else None))
    return sorted(found, key=lambda c: (c.page.encode("utf-8"), c.line))


def link_problems(conn: psycopg.Connection[Any], bank_id: int) -> LinkProblems:
    """`IndexBackend.link_problems` over the bank's rows and events."""
    places: dict[str, list[tuple[str, int]]] = {}
    for fact_id, path, line in conn.execute(DUPLICATES, [bank_id, bank_id]):
        places.setdefault(str(fact_id), []).append((str(path), int(line)))
    dangling = [DanglingPointer(*row) for row in conn.execute(DANGLING, [bank_id])]
    orphans = []
    for fact_id, seq, record in conn.execute(ORPHANS, {"bank": bank_id}):
        event = Event.from_dict(record)
        orphans.append(OrphanState(str(fact_id), int(seq), event.event, event.data))
    return LinkProblems(duplicates=tuple(DuplicateId(i, tuple(p)) for i, p in places.items()),
                        dangling=tuple(dangling), orphans=tuple(orphans))


def journal_lines(conn: psycopg.Connection[Any], bank_id: int,
                  seqs: Any) -> dict[int, int]:
    """Each seq's line in the bank's journal: its place among the bank's events."""
    return {int(s): int(n) for s, n in conn.execute(JOURNAL_LINES, [bank_id, sorted(seqs)])}
