"""The second lexical hop: a fact that holds none of the query's words is found when it shares
a rare word with one of the best results (`expansion.second_hop`) — and only then."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memfold.memory import Memory
from memfold.recall import ranking

NOW = datetime(2026, 3, 10, 12, tzinfo=UTC)
LESSONS = """# 2026-03-02

## Retain
- B @Anna: Anna takes violin lessons at the Kestrel Conservatory. ^violin01
"""
RECITAL = """# 2026-03-05

## Retain
- W: The Kestrel recital is on the first Sunday of June. ^recital1
- W: Tickets for the recital are sold at the door. ^tickets1
"""


def workspace(root: Path, filler: int) -> Path:
    """The three facts above among `filler` others that share no word with them."""
    Memory.init(root)
    (root / "memory/2026-03-02.md").write_text(LESSONS, encoding="utf-8")
    (root / "memory/2026-03-05.md").write_text(RECITAL, encoding="utf-8")
    lines = [f"- W: Weather note {n} from the garden shed." for n in range(filler)]
    (root / "memory/2026-03-01.md").write_text("# 2026-03-01\n\n## Retain\n"
                                               + "\n".join(lines) + "\n", encoding="utf-8")
    return root


def hits(root: Path, query: str) -> dict[str, str]:
    with Memory.open(root, now=NOW) as memory:
        return {h.fact.id: h.why for h in memory.recall(query, now=NOW, mode="lexical").hits}


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return workspace(tmp_path_factory.mktemp("hop") / "ws", filler=300)


def test_a_fact_sharing_a_rare_word_with_the_best_result_is_found(large: Path) -> None:
    found = hits(large, "violin lessons")
    assert list(found)[0] == "violin01"
    # "Kestrel" is in 2 of 303 facts: the recital comes in by it, below, and says why
    assert found["recital1"] == "shares rare words with ^violin01"
    # a hop is one step: the tickets share "recital" with the recital, not with the seed
    assert "tickets1" not in found
    with ranking.tuned({"HOP_SHARE": 0.0}):
        assert list(hits(large, "violin lessons")) == ["violin01"]


def test_quoted_words_and_names_alone_are_not_widened(large: Path) -> None:
    assert list(hits(large, '"violin lessons"')) == ["violin01"]
    assert list(hits(large, '"violin lessons" takes')) == ["violin01"]  # a phrase among words
    assert "recital1" not in hits(large, "@Anna")


def test_in_a_small_memory_no_word_is_rare_enough(tmp_path: Path) -> None:
    small = workspace(tmp_path / "ws", filler=100)  # 103 facts: 1% is one fact
    assert list(hits(small, "violin lessons")) == ["violin01"]


def test_a_superseded_fact_the_hop_meets_is_neither_shown_nor_counted(tmp_path: Path) -> None:
    root = workspace(tmp_path / "ws", filler=300)
    with Memory.open(root, now=NOW) as memory:
        memory.supersede("recital1", "tickets1", reason="the recital moved")
        result = memory.recall("violin lessons", now=NOW, mode="lexical")
        assert [h.fact.id for h in result.hits] == ["violin01"]
        assert result.hidden == {}  # the recital never matched the query's words
        with_all = memory.recall("violin lessons", now=NOW, mode="lexical", include_all=True)
        assert [h.fact.id for h in with_all.hits] == ["violin01", "recital1"]
