"""A question's slot holds the kinds of its words: "what pet" is answered by a parrot or a
lurcher, "how does she take her coffee" by espresso.  A newer fact of the subject's own is no
change of a value someone else holds ("Bodil's husband drives a Volvo")."""

from __future__ import annotations

from pathlib import Path

from timeline import retain, top

from memfold import Memory


def test_a_pet_rehomed_and_another_taken_answers_what_pet(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2024-03-01", "W @Ilona: Ilona has a tortoise named Gus.")
        new = retain(memory, "2025-02-10", "B @Ilona: Ilona's tortoise went to her nephew in "
                                           "Graz; she has a rescue lurcher now.")
        assert top(memory.recall("What pet does Ilona have?",
                                 now="2026-01-10T09:00:00")) == new


def test_a_switch_to_a_kind_of_the_slot_answers_it(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2024-01-09", "W @Rhea: Rhea drinks her coffee with milk.")
        new = retain(memory, "2024-10-14", "W @Rhea: Rhea switched to espresso.")
        assert top(memory.recall("How does Rhea take her coffee?",
                                 now="2025-03-01T09:00:00")) == new


def test_his_own_new_car_is_no_change_of_his_husbands(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2024-02-03", "W @Bodil: Bodil drives a Fiat Panda.")
        husband = retain(memory, "2024-02-03", "W @Bodil: Bodil's husband drives a Volvo.")
        new = retain(memory, "2025-06-21", "B @Bodil: Bodil finally scrapped the Panda and "
                                           "bought a Renault Zoe.")
        assert top(memory.recall("What does Bodil drive?", now="2026-01-10T09:00:00")) == new
        assert top(memory.recall("What car does Bodil's husband drive?",
                                 now="2026-01-10T09:00:00")) == husband


def test_a_partner_named_beside_the_subject_is_the_subjects_own_job(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2024-01-05", "W @Ruben: Ruben, my husband, is a nurse at Leeds "
                                     "General.")
        new = retain(memory, "2025-03-01", "W @Ruben: Ruben now works in the recovery ward at "
                                           "Harrogate Hospital.")
        assert top(memory.recall("Where does my husband work?",
                                 now="2025-10-01T09:00:00", mode="lexical")) == new
