"""A first index judges existing facts with their candidates read once (lifecycle.bulk):
every search the judge makes there answers as the index's own search does, row for row, in
its order and with each row's state — so the decisions are those of a search per fact."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from conftest import write
from memfold import Memory
from memfold.index.base import Filters, Terms
from memfold.journal.fold import STATE_KINDS
from memfold.lifecycle.bulk import BulkCandidates
from memfold.values import Interval

NOW = "2026-03-01T09:00:00+00:00"
DAYS = (None, date(2025, 1, 2), date(2025, 1, 3), date(2025, 2, 10), date(2025, 2, 28),
        date(2025, 3, 1), date(2025, 12, 31))
KEYS = (["kenji"], ["pete"], ["peter", "pete"], ["kenji", "peter", "ana"], ["nobody"])
SEARCHES = (Terms(words=("office", "wifi")), Terms(words=("lives", "berlin", "tea")),
            Terms(phrases=("kenji",)), Terms(phrases=("pete", "peter")), Terms())
LIMITS = (0, 1, 2, 3, 200)


def notes(root: Path) -> None:
    """Hand-written logs: entities and none, an alias, a fact valid over a range written
    after it began, ties within a day, a block id pasted into two files, history (B)."""
    write(root, "bank/entities/Peter.md", "---\naliases: [Pete]\n---\n# Peter\n\n"
          "- W @Peter: Peter plays the cello.\n")
    write(root, "memory/2025-01-03.md", "# 2025-01-03\n\n## Retain\n"
          "- W @Kenji: Kenji lives in Berlin. ^berlin01\n- O @Kenji: Kenji prefers tea.\n"
          "- W: The office wifi password rotates monthly.\n- B @Kenji: Visited Zurich.\n"
          "- W @Pete: Pete works at Globex.\n")
    write(root, "memory/2025-02-10.md", "# 2025-02-10\n\n## Retain\n"
          "- W @Kenji: Kenji is on sabbatical (2025-01-01..2025-12-31).\n"
          "- W: The office wifi is slow again.\n- W @Ana: Ana says Kenji lives in Zurich.\n"
          "- W @Kenji: Kenji lives in Berlin. ^berlin01\n")
    write(root, "memory/2025-03-01.md", "# 2025-03-01\n\n## Retain\n"
          "- W @Kenji: Kenji lives in Zurich now.\n- W @Peter: Peter works at Initech now.\n"
          "- O: Tea beats coffee in the office.\n")


def filters(until: date | None) -> Filters:
    return Filters(kinds=tuple(sorted(STATE_KINDS)),
                   window=Interval(None, until) if until else None)


def assert_same_answers(memory: Memory, bulk: BulkCandidates) -> None:
    backend = memory.index_backend
    for until in DAYS:
        for limit in LIMITS:
            for keys in KEYS:
                assert bulk.linked(keys, filters(until), limit) == \
                    backend.linked(keys, filters(until), limit), (keys, until, limit)
            for terms in SEARCHES:
                assert bulk.lexical(terms, filters(until), limit) == \
                    backend.lexical(terms, filters(until), limit), (terms, until, limit)
    names = ["pete", "peter", "kenji", "zurich", "nobody", "ana"]
    assert bulk.resolve_names(names) == backend.resolve_names(names)
    assert bulk.alias_keys(["peter", "kenji"]) == backend.alias_keys(["peter", "kenji"])


def test_the_judges_searches_answer_as_the_index_does(workspace: Path) -> None:
    notes(workspace)
    with Memory.open(workspace, now=NOW) as memory:
        memory.index(judge=False)
        bulk = BulkCandidates(memory.index_backend)
        # by 3 January: the sabbatical written in February is found through its range
        found = bulk.linked(["kenji"], filters(date(2025, 1, 3)), 200)
        assert [c.fact.content for c in found] == [
            "Kenji is on sabbatical (2025-01-01..2025-12-31).", "Kenji lives in Berlin.",
            "Kenji prefers tea."]
        assert_same_answers(memory, bulk)
        # a decision journaled meanwhile: each candidate carries the state it has now
        zurich = memory.recall("Kenji lives in Zurich now", k=1, now=NOW).hits[0].fact.id
        memory.supersede("berlin01", zurich, reason="moved", now=NOW)
        bulk.refresh()
        assert_same_answers(memory, bulk)
        states = {c.life.status if c.life else None
                  for c in bulk.linked(["kenji"], filters(None), 200)
                  if c.fact.id == "berlin01"}
        assert states == {"superseded", None}  # the copy that holds the id, and the other
