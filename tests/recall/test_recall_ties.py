"""Two copies of one memory answer alike, whatever order each was indexed in.

Facts that score exactly the same (same words, same length) tie at the edge of recall's
candidate pool; taking them by rowid would let the order a copy happened to be indexed in
(a server replica that retained them one by one, another that fetched them whole) decide
which ones are seen.  Ties at the cut are taken by path and line instead.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from memfold.memory import Memory

DAYS = ("2026-11-02", "2026-11-03", "2026-11-04")


# 90 tied facts: all of them in the rows the first search fetched; 150: more tie than it
# fetched (twice the 50 candidates and one), so the tie is read again in full
@pytest.mark.parametrize("facts", [90, 150])
def test_copies_indexed_in_different_orders_recall_the_same(tmp_path: Path, facts: int) -> None:
    one = tmp_path / "one"
    Memory.init(one)
    with Memory.open(one, now="2026-11-05T12:00:00") as memory:
        for n in range(facts):  # one at a time, the days interleaved: rowids follow that order
            memory.retain([f"W @Lamp{n % 9}: A copper lantern hangs in hall {n:03d}."],
                          date=DAYS[n % 3])
        first = {query: memory.recall(query, k=10).to_dict()["results"]
                 for query in ("copper lantern", "lantern hangs", "Lamp3")}
    two = tmp_path / "two"
    shutil.copytree(one, two, ignore=shutil.ignore_patterns(".memory"))
    with Memory.open(two, now="2026-11-05T12:00:00") as memory:
        memory.index(full=True)  # file by file, line by line: other rowids
        second = {query: memory.recall(query, k=10).to_dict()["results"]
                  for query in first}
    for query, results in first.items():
        assert len(results) == 10
        assert [(r["id"], r["score"]) for r in results] == \
            [(r["id"], r["score"]) for r in second[query]], query
