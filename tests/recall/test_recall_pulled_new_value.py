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
