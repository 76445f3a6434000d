"""What a newer fact says of the asked slot without the judge reading a change: the end of a
state ("has outgrown his peanut allergy") says what holds now, and a name taken ("goes by
Oona Brink now") answers a question of a surname."""

from __future__ import annotations

from pathlib import Path

from timeline import retain, top

from memfold import Memory


def test_an_allergy_outgrown_answers_whether_it_holds(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2023-01-10", "W @Kasimir: Kasimir is allergic to peanuts.")
        new = retain(memory, "2025-02-12", "B @Kasimir: Kasimir has outgrown his peanut "
                                           "allergy.")
        result = memory.recall("Is Kasimir allergic to peanuts?", now="2025-10-01T09:00:00")
        assert top(result) == new
        assert new in {h.fact.id: h for h in result.hits}[old].possibly_outdated_by


def test_a_stop_by_is_no_end(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2023-01-10", "W @Kasimir: Kasimir is allergic to peanuts.")
        retain(memory, "2025-02-12", "B @Kasimir: Kasimir stopped by the allergy clinic to "
                                     "pick up his epipen.")
        assert top(memory.recall("Is Kasimir allergic to peanuts?",
                                 now="2025-10-01T09:00:00")) == old


def test_a_name_taken_answers_the_surname(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2023-01-10", "W @Oona: Oona's surname is Halloran.")
        new = retain(memory, "2025-02-12", "B @Oona: Oona married Teodor and goes by Oona "
                                           "Brink now.")
        assert top(memory.recall("What is Oona's surname?", now="2025-10-01T09:00:00")) == new


def test_a_new_job_after_leaving_answers_still_at_the_old_one(workspace: Path) -> None:
    """"Is Ilse still at Brackwater Foods?" asks the slot of the value it names; a newer job
    taken "after leaving Brackwater" ends it."""
    with Memory.open(workspace) as memory:
        retain(memory, "2023-02-01", "W @Ilse: Ilse is a product buyer at Brackwater Foods.")
        retain(memory, "2024-06-01", "B @Ilse: Ilse gave a talk about Brackwater Foods's "
                                     "supply chain at a trade fair.")
        new = retain(memory, "2025-04-01", "W @Ilse: Ilse joined Tollgate Farms as purchasing "
                                           "lead after leaving Brackwater.")
        assert top(memory.recall("Is Ilse still at Brackwater Foods?",
                                 now="2025-11-01T09:00:00")) == new
