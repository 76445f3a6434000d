"""The newer facts on the asked slot that share no word with a question (issue 29,
`recall.pulled`): a change faded by decay is still brought in, and a question in the
present tense with no word of now brings in a newer fact the judge reads as giving the slot
another value, or offered as a conflict."""

from __future__ import annotations

from pathlib import Path

from timeline import ids, retain

from memfold import Memory


def test_a_change_faded_by_decay_is_still_pulled_in(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2024-03-01", "W @me: My go-to running shoes are Brooks Ghosts.")
        new = retain(memory, "2025-03-01",
                     "B @me: Switched to Hoka Cliftons after the Brooks gave me blisters.")
        result = memory.recall("Which running shoes do I wear these days?",
                               now="2025-06-01T09:00:00")
        assert {h.fact.id: h for h in result.hits}[new].status == "archived"
        assert ids(result)[:2] == [new, old]


def test_a_present_tense_question_pulls_in_a_change_the_judge_offered(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2024-03-01", "W @me: My dentist is Dr Farrow at Elmgrove Dental.")
        new = retain(memory, "2025-03-01", "B @me: Had my first check-up with Dr Pemberton"
                                           " after leaving Dr Farrow's practice.")
        result = memory.recall("Who is my dentist?", now="2025-06-01T09:00:00")
        assert ids(result)[:2] == [new, old]
        assert new in {h.fact.id: h for h in result.hits}[old].possibly_outdated_by
