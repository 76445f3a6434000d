"""A question that names a time: each hit's `why` says how that fact stands to the time,
true of the fact — "in <window>" only for a fact valid, written or still held in it; for
the others what keeps it out (written after, written before, replaced before, valid at
another time).  Only words: the order and the scores are the ranking's."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import Cli
from memfold import Memory

NOW = "2025-12-20T10:00:00+00:00"
WINDOW = "2025-11-21..2025-11-30"


def _retain(memory: Memory, day: str, *bullets: str) -> None:
    memory.retain(list(bullets), date=day, now=f"{day}T10:00:00+00:00")


def test_the_why_of_each_hit_is_true_of_that_fact(workspace: Path, run: Cli) -> None:
    with Memory.open(workspace) as memory:
        _retain(memory, "2025-10-10", "W @Ana: Lives in Lisbon.")
        _retain(memory, "2025-11-10", "W @Ana: Lives in Porto now.")
        _retain(memory, "2025-11-25", "B @Ana: Ran the Lisbon 10K in 52 minutes.")
        _retain(memory, "2025-12-10", "B @Ana: Ran the Porto 10K in 55 minutes.")
        _retain(memory, "2025-05-10",
                "W(from=2025-06-01,until=2025-06-30) @Ana: Trains in Madrid for the 10K.")
    found = run("recall", "Ana 10K between Nov 21 and Nov 30", "--json", "--all",
                env={"MEMFOLD_NOW": NOW})
    assert found.exit_code == 0, found.stderr
    data = json.loads(found.stdout)
    assert data["window"] == {"start": "2025-11-21", "end": "2025-11-30"}
    why = {hit["content"]: hit["why"] for hit in data["results"]}
    assert f"in {WINDOW} (written then)" in why["Ran the Lisbon 10K in 52 minutes."]
    assert f"in {WINDOW} (held then)" in why["Lives in Porto now."]
    outside = {  # each fact out of the window says how, and never "in <window>"
        "Ran the Porto 10K in 55 minutes.": f"written after {WINDOW}",
        "Lives in Lisbon.": f"replaced before {WINDOW}",
        "Trains in Madrid for the 10K.": f"valid 2025-05-10..2025-06-30, not in {WINDOW}",
    }
    for content, said in outside.items():
        assert said in why[content] and f"; in {WINDOW}" not in why[content], why[content]
    december = run("recall", "Ana 10K in December 2025", "--json", env={"MEMFOLD_NOW": NOW})
    hits = {h["content"]: h["why"] for h in json.loads(december.stdout)["results"]}
    assert "written before 2025-12-01..2025-12-31" in hits["Ran the Lisbon 10K in 52 minutes."]
