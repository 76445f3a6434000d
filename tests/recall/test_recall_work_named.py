"""A question of work reads where someone works as the judge's offers do — "is at" an
organisation by name, what one does at or for one — and a newer fact that names the
organisation an older one gives ("handed in her notice at Larkfield") speaks of that
fact's slot even when the judge reads no value in it."""

from __future__ import annotations

from pathlib import Path

from timeline import retain, top

from memfold import Memory


def test_is_at_another_org_now_answers_who_she_works_for(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2024-01-15", "W @Saskia: Saskia works at @Brightfold as a "
                                           "data engineer.")
        retain(memory, "2024-06-03", "W @Jorrit: Jorrit works at @Brightfold in support.")
        new = retain(memory, "2025-05-12", "W @Saskia: Saskia is at @Loomwell now, on the "
                                           "search team.")
        result = memory.recall("Who does Saskia work for?", now="2026-01-10T09:00:00")
        assert top(result) == new
        assert new in {h.fact.id: h for h in result.hits}[old].possibly_outdated_by
        assert top(memory.recall("Where does Jorrit work?", now="2026-01-10T09:00:00")) != new


def test_notice_handed_in_where_she_taught_answers_her_work(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2024-04-08", "W @Ottilie: Ottilie teaches history at Larkfield "
                                     "Academy.")
        new = retain(memory, "2025-01-13", "B @Ottilie: Ottilie handed in her notice at "
                                           "Larkfield and started tutoring pupils at "
                                           "home.")
        assert top(memory.recall("What does Ottilie do for work now?",
                                 now="2026-01-10T09:00:00")) == new


def test_a_shift_covered_elsewhere_is_no_change_of_workplace(workspace: Path) -> None:
    """"covered a shift" writes the change verb "shift" as a noun: it says no new value."""
    with Memory.open(workspace) as memory:
        state = retain(memory, "2024-04-20", "W @Halla: Halla works at the Bergen branch of "
                                             "Sparebank.")
        retain(memory, "2025-09-26", "B @Halla: Halla covered a shift at the Stavanger branch "
                                     "last Friday.")
        assert top(memory.recall("Where does Halla work?",
                                 now="2026-01-10T09:00:00")) == state
