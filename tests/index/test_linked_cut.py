"""The facts linked to a query's entities, newest first, cut at the search's limit: when facts
of one day straddle the cut, they are taken by path and line from the facts of later days and
every fact of that day — never by ordering every fact linked to the entities, which at 10,000
daily files is thousands of rows for a name on half the memory."""

from __future__ import annotations

import sqlite3

from memfold.index.base import Candidate, Filters
from memfold.memory import Memory

NOW = "2025-11-28T12:00:00+00:00"
STATEMENT_OF_EVERY_LINK = "WHERE f.rowid IN (SELECT fact FROM fact_entities"


def places(found: list[Candidate]) -> list[tuple[str, int]]:
    return [(c.fact.path, c.fact.line) for c in found]


def newest_first(found: list[Candidate]) -> list[tuple[str, int]]:
    """Every linked fact as `linked` orders it: newest day first, then path and line."""
    dated = sorted(found, key=lambda c: (c.fact.day is None, -(c.fact.day.toordinal()
                                         if c.fact.day else 0), c.fact.path, c.fact.line))
    return places(dated)


def linked_with_statements(memory: Memory, keys: list[str],
                           limit: int) -> tuple[list[Candidate], list[str]]:
    db: sqlite3.Connection = memory.index_backend.db  # type: ignore[attr-defined]
    statements: list[str] = []
    db.set_trace_callback(statements.append)
    try:
        return memory.index_backend.linked(keys, Filters(), limit), statements
    finally:
        db.set_trace_callback(None)


def test_facts_of_one_day_at_the_cut_are_taken_by_place_without_reading_every_link(
        workspace: object) -> None:
    with Memory.open(workspace, now=NOW) as memory:  # type: ignore[arg-type]
        memory.retain([f"B @Ana: old note {n} about the allotment" for n in range(30)],
                      date="2025-11-20")
        memory.retain([f"B @Ana: note {n} about the garden shed" for n in range(12)]
                      + ["B @Ana @Ben: both of them fixed the shed door"], date="2025-11-26")
        memory.retain([f"B @Ana: fresh note {n} about the greenhouse" for n in range(6)],
                      date="2025-11-27")
        every = memory.index_backend.linked(["ana", "ben"], Filters(), 1000)
        assert len(every) == 49
        for keys, limit in ((["ana"], 10), (["ana", "ben"], 10), (["ana", "ben"], 18)):
            found, statements = linked_with_statements(memory, keys, limit)
            want = newest_first([c for c in every if set(keys) & set(c.links)])[:limit]
            assert places(found) == want
            assert not any(STATEMENT_OF_EVERY_LINK in s for s in statements)


def test_a_fact_linked_twice_leaves_the_cut_to_every_linked_fact(workspace: object) -> None:
    """A fact linked to two of the names comes twice among the links read first: when the
    facts they name are too few, the order of every linked fact answers, as it always did."""
    with Memory.open(workspace, now=NOW) as memory:  # type: ignore[arg-type]
        memory.retain([f"B @Ana @Ben: shared note {n} about the shed" for n in range(3)],
                      date="2025-11-20")
        memory.retain([f"B @Ana @Ben: older shared note {n}" for n in range(3)],
                      date="2025-11-19")
        every = memory.index_backend.linked(["ana", "ben"], Filters(), 1000)
        found, statements = linked_with_statements(memory, ["ana", "ben"], 5)
        assert places(found) == newest_first(every)[:5]
        assert any(STATEMENT_OF_EVERY_LINK in s for s in statements)
