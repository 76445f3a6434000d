"""Issue 30, under "Small timelines": "What was Amara's half-marathon time?" over four facts
about Amara, her job change among them, puts the half-marathon first — the job change
shares her name, not the question's words (the truth bench's timeline td-001, retained as
`memfold bench truth` retains it: one fact a retain, in date order, at midnight)."""

from __future__ import annotations

from pathlib import Path

from timeline import retain

from memfold import Memory

AMARA = (
    ("2024-02-10", "W @Amara: Amara works as a nurse on the cardiac ward at St. Brigid's "
                   "Hospital in Cork."),
    ("2024-06-01", "B @Amara: Amara ran the Cork City half-marathon in 2 hours 5 minutes."),
    ("2024-11-20", "O(c=0.7) @Amara: Amara finds the twelve-hour hospital night shifts "
                   "exhausting."),
    ("2025-01-15", "W @Amara: Amara left St. Brigid's and now works as the school nurse at "
                   "Glanmire Community College."),
)


def test_the_half_marathon_time_comes_first_over_her_job_change(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        for day, bullet in AMARA:
            retain(memory, day, bullet)
        found = memory.recall("What was Amara's half-marathon time?",
                              now="2025-03-01T09:00:00")
    assert found.hits[0].fact.content == \
        "Amara ran the Cork City half-marathon in 2 hours 5 minutes."
