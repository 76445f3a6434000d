"""A question about now finds the newer fact on the asked slot even when that fact shares no
word with the question and names no entity of it (issue 29): the user's own facts (@me),
where the question names nobody, so only the words search.  The best match on the slot
pulls in the subject's newer facts that the judge reads as on its slot; asked_slot places
the one that states the current value above it and leaves the others out."""

from __future__ import annotations

from pathlib import Path

from timeline import ids, retain

from memfold import Memory

OLD = "O(c=0.8) @me: My favourite hiking boots are Salomon Quests."
NEW = "B @me: I switched to Lowa Renegades after the Salomon soles split on the Cairngorm trip."
ASKED = "Which hiking boots do I wear these days?"


def test_a_switch_that_shares_no_word_with_the_question_answers_now(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2023-03-12", OLD)
        new = retain(memory, "2024-09-20", NEW)
        result = memory.recall(ASKED, now="2024-10-01T09:00:00")
        assert ids(result) == [new, old]
        by_id = {h.fact.id: h for h in result.hits}
        assert f"newer on the slot of ^{old}, which matched" in by_id[new].why
        assert new in by_id[old].possibly_outdated_by
        # asked before the switch, the old boots answer alone
        assert ids(memory.recall(ASKED, now="2024-06-01T09:00:00")) == [old]


def test_the_subjects_newest_facts_are_read_up_to_a_bound(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2023-03-12", OLD)
        new = retain(memory, "2024-01-10", NEW)
        for day in range(1, 29):  # the user's later facts on other things
            retain(memory, f"2024-02-{day:02d}", f"B @me: Practised scales for {day} minutes.")
        result = memory.recall(ASKED, now="2024-03-01T09:00:00")
        assert ids(result)[:2] == [new, old]


def test_newer_facts_off_the_slot_are_left_out(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2023-03-12", OLD)
        retain(memory, "2024-03-10", "B @me: Switched to oat milk in my morning coffee.")
        retain(memory, "2024-06-01", "W @me: I now live in Ghent.")
        retain(memory, "2024-07-01", "B @me: Lent the Quests to Maren for her Skye walk.")
        result = memory.recall(ASKED, now="2024-10-01T09:00:00")
        assert ids(result) == [old]


def test_a_plan_is_not_pulled_and_a_question_about_a_time_pulls_nothing(
        workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2023-03-12", OLD)
        retain(memory, "2024-02-01", "B @me: I might switch to Lowa Renegades if the Salomon "
                                     "soles split.")
        new = retain(memory, "2024-09-20", NEW)
        assert ids(memory.recall(ASKED, now="2024-10-01T09:00:00")) == [new, old]
        then = memory.recall("Which hiking boots did I wear in June 2023?",
                             now="2024-10-01T09:00:00")
        assert new not in ids(then)
