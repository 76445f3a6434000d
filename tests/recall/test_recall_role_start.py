"""A role begun ("started as my apprentice", "took over as head coach") states the current
value of the slot it names: asked about now, it ranks above who held the role before, though
the judge never linked the two (`asked_slot.says_new`)."""

from __future__ import annotations

from pathlib import Path

from timeline import ids, retain

from memfold import Memory


def test_who_started_as_my_apprentice_answers_who_my_apprentice_is(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-01-10", "W @Jayden @Sparks: Jayden Moore is my second-year "
                                     "apprentice.")
        retain(memory, "2025-04-02", "B @Jayden: Jayden gave two weeks' notice; he's going to "
                                     "Energex as a line worker apprentice.")
        retain(memory, "2025-04-16", "W @Jayden: Jayden finished up with me today.")
        new = retain(memory, "2025-04-28", "W @Priya @Sparks: Priya Nair started as my first-year "
                                           "apprentice.")
        retain(memory, "2025-05-16", "O @Kai: Kai wants to do an electrical apprenticeship.")
        assert ids(memory.recall("Who's my apprentice?", now="2026-01-05T09:00:00"))[0] == new


def test_a_role_begun_in_another_slot_changes_nothing(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2025-01-10", "W @Jayden: Jayden Moore is my second-year "
                                           "apprentice.")
        retain(memory, "2025-04-28", "W @Priya: Priya started as a volunteer at the food bank, "
                                     "helping my apprentice's mum.")
        assert ids(memory.recall("Who's my apprentice?", now="2025-06-01T09:00:00"))[0] == old
