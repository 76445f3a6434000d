"""Rows of the SQLite index to memfold's values and back, and the SQL fragments the queries
share (the columns of a fact with its file hash and lifecycle state, the filters' conditions).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from datetime import date
from typing import Any

from memfold.index.base import Filters
from memfold.journal.fold import LifeState
from memfold.values import Fact, Interval, made_fact

LIFE_FIELDS = ("id", "status", "reason", "superseded_by", "superseded_on", "supersedes",
               "derived_from", "confidence", "rev", "note", "last_used", "uses", "content_sha",
               "support", "contradict", "confidence_on", "origin", "retained_on")
FACT_SELECT = (
    "f.rowid, f.id, f.kind, f.content, files.path, f.line, f.end_line, f.entities, f.params,"
    " f.confidence, f.importance, f.valid_from, f.valid_until, f.day, f.explicit, files.sha256, "
    + ", ".join(f"l.{name}" for name in LIFE_FIELDS[1:])
)
SCORE_COLUMN = 16 + len(LIFE_FIELDS) - 1  # the column after FACT_SELECT (bm25 or NULL)
# a later copy of a duplicated block id takes none of the id's state (sqlite.holders), and
# comes after the copy that holds the id (ORDER BY HOLDER_FIRST)
NOT_SHADOWED = "f.rowid NOT IN (SELECT fact FROM shadowed)"
HOLDER_FIRST = "f.rowid IN (SELECT fact FROM shadowed)"
LIFE_JOIN = f"LEFT JOIN lifecycle l ON l.id = f.id AND {NOT_SHADOWED}"
FACT_FROM = f"facts f JOIN files ON files.id = f.file {LIFE_JOIN}"
NEWEST = "ORDER BY f.day IS NULL, f.day DESC, files.path, f.line"


def life_of(row: Sequence[Any], fact_id: str | None = None) -> LifeState | None:
    """A LifeState from lifecycle columns (after `id`); None when the fact has no row."""
    (status, reason, by, on, supersedes, derived, confidence, rev, note, used, uses,
     sha, support, contradict, confidence_on, origin, retained_on) = row
    if rev is None and fact_id is None:
        return None
    return LifeState(
        id=fact_id or "", status=status, reason=reason, superseded_by=by, superseded_on=on,
        supersedes=json.loads(supersedes) if supersedes else [],
        derived_from=json.loads(derived) if derived else [], confidence=confidence,
        rev=int(rev or 0), note=note, last_used=used, uses=int(uses or 0), content_sha=sha,
        support=json.loads(support) if support else [],
        contradict=json.loads(contradict) if contradict else [], confidence_on=confidence_on,
        origin=origin, retained_on=retained_on)


def life_row(st: LifeState) -> tuple[object, ...]:
    return (st.id, st.status, st.reason, st.superseded_by, st.superseded_on,
            json.dumps(st.supersedes) if st.supersedes else None,
            json.dumps(st.derived_from) if st.derived_from else None, st.confidence, st.rev,
            st.note, st.last_used, st.uses, st.content_sha,
            json.dumps(st.support) if st.support else None,
            json.dumps(st.contradict) if st.contradict else None, st.confidence_on, st.origin,
            st.retained_on)


def fact_of(row: Sequence[object]) -> Fact:
    """The fact of a row (FACT_SELECT), made as the parser makes one (`made_fact`: a search
    makes about a hundred a question, and a frozen dataclass's own `__init__` costs three
    times as much)."""
    start, end = day_of(row[11]), day_of(row[12])
    entities = row[7]
    return made_fact(
        str(row[1]), str(row[2]), str(row[3]), str(row[4]),
        int(row[5]), int(row[6]),  # type: ignore[call-overload]
        # half the facts link no entity: their '[]' needs no JSON parser
        () if entities == "[]" else tuple(json.loads(str(entities))),
        json.loads(str(row[8])) if row[8] else {},
        row[9], row[10],  # type: ignore[arg-type]
        Interval(start, end) if start or end else None,
        day_of(row[13]), bool(row[14]),
    )


def day_of(value: object) -> date | None:
    """A day the index keeps as its ordinal (`date.toordinal`: smaller than ISO text, and
    ordered the same)."""
    return date.fromordinal(value) if isinstance(value, int) else None


def encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def marks(items: Sequence[object]) -> str:
    return ", ".join("?" * len(items))


def chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def conditions(filters: Filters) -> tuple[str, list[object]]:
    """SQL conditions (placeholders only) for the filters, to append after a WHERE."""
    clauses: list[str] = []
    params: list[object] = []
    if filters.kinds:
        clauses.append(f"f.kind IN ({marks(filters.kinds)})")
        params.extend(filters.kinds)
    if filters.window:
        # written within the window, or valid during it; both arms can use an index
        start = filters.window.start.toordinal() if filters.window.start else 0
        end = filters.window.end.toordinal() if filters.window.end else date.max.toordinal()
        clauses.append("(f.day BETWEEN ? AND ? OR (f.valid_until >= ?"
                       " AND COALESCE(f.valid_from, f.day) <= ?))")
        params.extend([start, end, start, end])
    if filters.written_by:
        # dated by then, or retained by then (a plan retained into a later day's log)
        clauses.append("(f.day IS NULL OR f.day <= ? OR EXISTS (SELECT 1 FROM lifecycle w"
                       " WHERE w.id = f.id AND w.retained_on <= ?))")
        params.extend([filters.written_by.toordinal(), filters.written_by.isoformat()])
    if filters.entity_keys:
        clauses.append("f.rowid IN (SELECT fact FROM fact_entities WHERE key IN "  # noqa: S608
                       f"({marks(filters.entity_keys)}))")
        params.extend(filters.entity_keys)
    return "".join(f" AND {c}" for c in clauses), params
