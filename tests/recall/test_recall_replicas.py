"""Two indexes of the same Markdown answer a recall the same, score for score, however each
was built.

Server replicas each keep their own index of a bank and sync it in their own steps: a file
one replica re-indexes after a later file was indexed gets its rows after that file's, where
a replica that synced both at once has them in order.  The rowids differ; the answers must
not.  Two things followed the rowids: the number of facts recall weighs a word's rarity by
(`FactSearch.fact_rows`, read as the highest rowid: `weak.asked`, `expansion`), and the order
of facts that tie on their match — hybrid recall moved the query's vector toward the first
two of them (`Semantic.moved_query`), so the two indexes ranked "granite kitchen willow"
differently.  With hybrid fusion weighing its lexical side by the rarity-weighed asked words
a match covers (tried for issue 30), the first put two server replicas' scores about 0.0001
apart (tests/server/test_server_replicas.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from memfold.embed.base import FakeEmbedder
from memfold.memory import Memory

NOW = "2025-12-20T12:00:00+00:00"
FACTS = ["Copper lantern hangs in the hall", "The lantern was a gift from Jules",
         "Bought copper pans for the kitchen", "The harbor signal is red at night",
         "Granite worktop in the kitchen", "Milo likes the meadow by the willow"]
QUERIES = ("copper lantern meadow", "lantern copper", "granite kitchen willow")


def built_in_steps(root: Path) -> Memory:
    """A workspace whose first day's file was changed, and so indexed again, after the
    later days were indexed."""
    Memory.init(root)
    memory = Memory.open(root, now=NOW)
    memory.set_embedder(FakeEmbedder())
    for n in range(4):
        for i, fact in enumerate(FACTS):
            memory.retain([f"W: {fact} {n}"], date=f"2025-12-0{1 + (i + n) % 3}")
    first = root / "memory" / "2025-12-01.md"
    first.write_text(first.read_text(encoding="utf-8").replace("in the hall",
                                                                 "in the front hall"),
                     encoding="utf-8")
    memory.index()
    return memory


def answers(memory: Memory, mode: str) -> list[list[tuple[str, float]]]:
    return [[(hit.fact.id, hit.score) for hit in memory.recall(query, mode=mode, k=8).hits]
            for query in QUERIES]


@pytest.mark.parametrize("mode", ["lexical", "hybrid"])
def test_the_same_files_indexed_in_other_steps_answer_the_same(tmp_path: Path,
                                                                mode: str) -> None:
    stepped = built_in_steps(tmp_path / "stepped")
    shutil.copytree(tmp_path / "stepped", tmp_path / "at-once",
                    ignore=shutil.ignore_patterns(".memory"))
    at_once = Memory.open(tmp_path / "at-once", now=NOW)
    at_once.set_embedder(FakeEmbedder())
    try:
        expected = answers(stepped, mode)
        assert all(expected)
        assert answers(at_once, mode) == expected
        # the statistic recall weighs words by is the index's content, not its history
        assert at_once.index_backend.fact_rows() == stepped.index_backend.fact_rows() \
            == 4 * len(FACTS)
    finally:
        stepped.close()
        at_once.close()
