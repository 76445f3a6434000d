"""Query expansion from the workspace: a fact that holds none of the query's words is found
when it shares words with the best matches (multi-hop questions name one side of a link)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memfold.memory import Memory
from memfold.recall import ranking

NOW = datetime(2026, 3, 10, 12, tzinfo=UTC)
LOG = """# 2026-03-02

## Retain
- B: Melanie ran the charity race for the animal shelter. ^race0001
- B: The charity race raised money for the animal shelter. ^race0002
- W: Volunteers at the animal shelter painted the kennels. ^kennels1
- W: The bakery on Main Street sells rye bread. ^bakery01
"""


def ids(root: Path, query: str) -> list[str]:
    with Memory.open(root, now=NOW) as memory:
        return [h.fact.id for h in memory.recall(query, now=NOW).hits]


def test_a_fact_sharing_words_with_the_best_matches_is_found_below_them(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    Memory.init(root)
    (root / "memory/2026-03-02.md").write_text(LOG, encoding="utf-8")
    found = ids(root, "charity race")
    assert found[:2] == ["race0001", "race0002"] or found[:2] == ["race0002", "race0001"]
    assert found[2:] == ["kennels1"]  # "animal shelter" travels with the race here
    with ranking.tuned({"EXPANSION_SHARE": 0.0}):
        assert "kennels1" not in ids(root, "charity race")


def test_one_match_alone_expands_nothing(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    Memory.init(root)
    (root / "memory/2026-03-02.md").write_text(LOG, encoding="utf-8")
    assert ids(root, "kennels") == ["kennels1"]


def test_expansion_adds_a_bounded_number_of_candidates(workspace: Path) -> None:
    """A large k asks for many results; expansion still adds at most MAX_ADDED facts
    that hold none of the query's words (they enter at a fifth of their match and would only
    cost time), whatever k is."""
    from memfold.recall.expansion import MAX_ADDED

    with Memory.open(workspace, now="2025-11-27T09:00:00+00:00") as memory:
        for day in range(4):
            memory.retain([f"B: Record {day}-{n} of group{n % 5} near the harbor pier."
                           for n in range(100)], date=f"2025-11-{day + 10:02d}")
        hits = memory.recall("group3", k=1000, mode="lexical").hits
    holding = [h for h in hits if "group3" in h.fact.content]
    assert len(holding) == 80  # every fact with the word
    assert 0 < len(hits) - len(holding) <= MAX_ADDED
