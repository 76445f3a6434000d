"""Context in ranking: a fact is lifted by the best match among its neighbours in its file.

Facts written together explain each other: a reply holds few of the words of the question
it answers.  `ranking.CONTEXT_SHARE` of the best neighbouring match (plus
`ranking.CONTEXT_FAR` of the best two facts away) is added to a candidate's own; a fact that
matches nothing in the query is never added for its neighbour.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memfold.index.sqlite.backend import SqliteIndex
from memfold.memory import Memory
from memfold.recall import ranking

NOW = datetime(2026, 3, 10, 12, tzinfo=UTC)
LOGS = {
    "memory/2026-03-02.md": """# 2026-03-02

## Retain
- W: Which colour did we choose for the kitchen walls? ^question
- W: Sage green, after two weeks of samples. ^reply001
- W: The plumber comes on Thursday. ^plumber1
""",
    "memory/2026-03-05.md": """# 2026-03-05

## Retain
- W: Green tea is stocked in the kitchen. ^greentea
""",
}


@pytest.fixture
def logs(workspace: Path) -> Path:
    for rel, text in LOGS.items():
        (workspace / rel).write_text(text, encoding="utf-8")
    return workspace


def ranked(root: Path, query: str) -> list[str]:
    with Memory.open(root, now=NOW) as memory:
        return [h.fact.id for h in memory.recall(query).hits]


def test_a_reply_is_lifted_by_the_question_beside_it(logs: Path) -> None:
    with Memory.open(logs, now=NOW) as memory:
        hits = memory.recall("green kitchen walls").hits
    order = [h.fact.id for h in hits]
    assert order[0] == "question"
    # "Sage green" matches one word, "Green tea ... kitchen" two; the reply's neighbour
    # asked the question, so the reply comes first
    assert order.index("reply001") < order.index("greentea")
    reply = next(h for h in hits if h.fact.id == "reply001")
    assert "next to ^question" in reply.why
    assert "next to" not in next(h for h in hits if h.fact.id == "greentea").why


def test_without_context_the_better_worded_fact_wins(logs: Path) -> None:
    with ranking.tuned({"CONTEXT_SHARE": 0.0}):
        order = ranked(logs, "green kitchen walls")
    assert order.index("greentea") < order.index("reply001")


def test_a_neighbour_that_matches_nothing_is_not_added(logs: Path) -> None:
    assert ranked(logs, "plumber") == ["plumber1"]
    assert "plumber1" not in ranked(logs, "kitchen walls colour")


def test_neighbours_are_the_facts_before_and_after_within_one_file(logs: Path) -> None:
    with Memory.open(logs, now=NOW) as memory:
        memory.index()
        backend = memory.index_backend
        assert isinstance(backend, SqliteIndex)
        rows = dict(backend.db.execute("SELECT id, rowid FROM facts"))
        near = backend.neighbours(list(rows.values()))
    ids = {rowid: fact_id for fact_id, rowid in rows.items()}
    assert {ids[r] for r in near[rows["reply001"]]} == {"question", "plumber1"}
    assert [ids[r] for r in near[rows["question"]]] == ["reply001"]
    # the last fact of one day and the first of the next are not neighbours
    assert [ids[r] for r in near[rows["plumber1"]]] == ["reply001"]
    assert near[rows["greentea"]] == ()


FAR_LOGS = {
    "memory/2026-03-02.md": """# 2026-03-02

## Retain
- W: Which colour did we choose for the kitchen walls? ^question
- W: We compared samples for two weeks. ^between1
- W: Sage green, in the end. ^reply001
- W: The plumber comes on Thursday. ^plumber1
""",
    "memory/2026-03-05.md": LOGS["memory/2026-03-05.md"],
}


@pytest.fixture
def far_logs(workspace: Path) -> Path:
    for rel, text in FAR_LOGS.items():
        (workspace / rel).write_text(text, encoding="utf-8")
    return workspace


def test_a_reply_two_facts_away_is_lifted_by_the_question(far_logs: Path) -> None:
    """The answer comes a turn later ("We compared samples ..." sits between): the match
    two facts away counts at CONTEXT_FAR of a neighbour's."""
    assert ranking.CONTEXT_FAR > 0
    order = ranked(far_logs, "green kitchen walls")
    assert order[0] == "question"
    assert order.index("reply001") < order.index("greentea")
    # the fact between them matches nothing: it is not added for its neighbours
    assert "between1" not in order
    with ranking.tuned({"CONTEXT_FAR": 0.0}):
        assert (lambda o: o.index("greentea") < o.index("reply001"))(
            ranked(far_logs, "green kitchen walls"))


def test_the_far_match_adds_to_the_near_one(far_logs: Path) -> None:
    """Context is the best neighbour's match plus CONTEXT_FAR of the best two facts away."""
    def scores(far: float) -> dict[str, float]:
        # a small share, so the lifted fact stays below the facts that lift it, where the
        # context may take it (`recall._held_by_neighbours`)
        with ranking.tuned({"CONTEXT_FAR": far, "CONTEXT_SHARE": 0.05}), Memory.open(
                far_logs, now=NOW) as memory:
            hits = memory.recall("compared kitchen walls samples sage").hits
            return {h.fact.id: h.score for h in hits}

    without, with_far = scores(0.0), scores(1.0)
    # "reply001" (sage) is next to "between1" (samples) and two away from "question"
    # (kitchen): it gains the second; "greentea" has no neighbour and gains nothing
    assert with_far["reply001"] > without["reply001"]
    assert with_far["greentea"] == pytest.approx(without["greentea"])
