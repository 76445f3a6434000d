"""For a question about now, the pull brings in a newer fact of the subject that says by its
own words it holds a new value of the asked slot, though the judge weighed it against
nothing (an experience written under another entity: "helped Cosmin carry boxes into his
new flat in Iasi"), and starts from a fact found only by the entity the question names."""

from __future__ import annotations

from pathlib import Path

from timeline import retain, top

from memfold import Memory


def test_a_new_flat_told_under_another_entity_answers_which_city(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2024-05-18", "W @Cosmin: Cosmin lives in Cluj.")
        new = retain(memory, "2025-07-05", "B @Ilinca: Helped Cosmin carry boxes into his new "
                                           "flat in Iasi.")
        result = memory.recall("Which city is Cosmin in these days?",
                               now="2026-01-10T09:00:00")
        assert top(result) == new
        assert new in {h.fact.id: h for h in result.hits}[old].possibly_outdated_by


def test_a_visit_under_another_entity_is_not_pulled(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2024-05-18", "W @Cosmin: Cosmin lives in Cluj.")
        retain(memory, "2025-07-05", "B @Ilinca: Helped Cosmin paint the new flat his sister "
                                     "rents in Iasi.")
        assert top(memory.recall("Which city is Cosmin in these days?",
                                 now="2026-01-10T09:00:00")) == old


def test_a_move_is_no_answer_to_where_one_climbs(workspace: Path) -> None:
    """"Where do I climb?" asks "where", not a home: a move is pulled in only beside a match
    that gives a home ("climbed Eldorado before the move" gives none)."""
    with Memory.open(workspace) as memory:
        gym = retain(memory, "2025-01-10", "W @me: I climb at the Boulder Barn most weeks.")
        retain(memory, "2025-02-01", "B @me: Climbed at Eldora one last time before the move.")
        retain(memory, "2025-03-01", "B @me: Moved into the flat on Harrow Road in Leeds.")
        assert top(memory.recall("Where do I climb these days?",
                                 now="2025-06-01T09:00:00")) == gym
