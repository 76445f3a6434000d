"""A filtered lexical search answers exactly as ranking and filtering every match in SQL does.

`sqlite_search.lexical` ranks a filtered search in the full-text index alone first and keeps
the answer only when no match it did not fetch could rank among it; otherwise it asks SQLite
to rank and filter every match.  Both ways must give the same facts in the same order —
ties (same words, same length) included, across kinds, days and entities.
"""

from __future__ import annotations

import random
from datetime import date

import pytest

from conftest import write
from memfold.index.base import Filters
from memfold.index.sqlite import search as sqlite_search
from memfold.index.sqlite.backend import SqliteIndex
from memfold.index.sync import sync
from memfold.values import Interval
from memfold.workspace.layout import Workspace

KINDS = {"W": "world", "B": "experience", "O": "opinion", "S": "observation"}
WORDS = ("lantern", "copper", "harbour", "violin", "ledger", "orchard")


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> SqliteIndex:
    root = tmp_path_factory.mktemp("filtered") / "ws"
    root.mkdir()
    rng = random.Random(7)
    for day in range(1, 29):
        lines = ["## Retain"]
        for _ in range(rng.randint(4, 12)):
            letter = rng.choice(list(KINDS))
            who = rng.choice(["", " @Anna", " @Bo"])
            words = " ".join(rng.sample(WORDS, rng.randint(1, 3)))  # many exact ties
            lines.append(f"- {letter}{who}: The {words} again.")
        lines.append("")
        lines.append("A paragraph about the lantern and the orchard.")
        write(root, f"memory/2026-02-{day:02d}.md", "\n".join(lines) + "\n")
    backend = SqliteIndex(root / ".memory" / "index.sqlite")
    sync(Workspace(root), backend)
    return backend


FILTERS = [
    Filters(kinds=("world",)),
    Filters(kinds=("world", "opinion", "observation")),
    Filters(kinds=("text",)),
    Filters(window=Interval(date(2026, 2, 10), date(2026, 2, 12))),
    Filters(entity_keys=("anna",)),
    Filters(kinds=("experience",), window=Interval(date(2026, 2, 1), date(2026, 2, 20))),
]


@pytest.mark.parametrize("fetch", [1, 2, 8])
@pytest.mark.parametrize("filters", FILTERS)
def test_filtered_search_equals_ranking_every_match_in_sql(
        index: SqliteIndex, filters: Filters, fetch: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    queries = ['"lantern"', '"copper" OR "violin"', '"harbour" OR "ledger" OR "orchard"']
    answered_first_way = 0
    for query in queries:
        for limit in (1, 3, 10, 40):
            monkeypatch.setattr(sqlite_search, "FILTERED_FETCH", fetch)
            where, params = sqlite_search.conditions(filters)
            answered_first_way += sqlite_search._filtered(
                index.db, query, where, params, limit) is not None
            quick = sqlite_search.lexical(index.db, query, filters, limit)
            monkeypatch.setattr(sqlite_search, "_filtered", lambda *args: None)
            slow = sqlite_search.lexical(index.db, query, filters, limit)
            monkeypatch.undo()
            assert [(c.rowid, c.bm25) for c in quick] == [(c.rowid, c.bm25) for c in slow], (
                query, limit)
            assert all(c.fact.kind in filters.kinds for c in quick) or not filters.kinds
            assert len(quick) <= limit
    if fetch == 8 and filters == FILTERS[1]:  # a filter most facts pass (the judge's):
        assert answered_first_way >= len(queries) * 3  # the first way answers most searches
