"""Recall answers with the current value of a slot a subject holds one value of at a time
(issue 29): a newer manager retires the older one in the judge (a line manager is the
manager one reports to); when the judge left both facts active, a newer value of the same one-valued
relation ranks first even asked without "now"; a change told as an experience answers after
decay faded it; a value told as held before ("worked at ... before moving") never ranks above
the current one; a rename answers what something is called; another subject's change leaves
the asked subject's value first; and a place that refines an older one (a flat in the city)
replaces nothing, even when the judge offered the pair as a conflict."""

from __future__ import annotations

from pathlib import Path

from timeline import ids, retain

from memfold import Memory


def test_a_newer_manager_answers_who_one_reports_to(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2024-02-01", "W @Tove: Tove reports to Anders Lund.")
        new = retain(memory, "2025-03-01",
                     "W @Tove: Since the spring, Tove's line manager is Petra Holm.")
        result = memory.recall("Who does Tove report to?", now="2025-06-01T09:00:00")
        # the judge reads a line manager as the manager one reports to: the older is retired
        assert ids(result)[0] == new and old not in ids(result)
        everything = memory.recall("Who does Tove report to?", now="2025-06-01T09:00:00",
                                   include_all=True)
        assert ids(everything)[:2] == [new, old]


def test_a_newer_diet_answers_a_question_naming_the_old_one(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2023-05-01", "W @Ruben: Ruben is vegetarian.")
        new = retain(memory, "2025-01-10", "W @Ruben: Ruben eats chicken again since the winter.")
        result = memory.recall("Is Ruben vegetarian?", now="2025-04-01T09:00:00")
        # the judge reads eating chicken as the end of a vegetarian diet: the older is retired
        assert ids(result)[0] == new
        everything = memory.recall("Is Ruben vegetarian?", now="2025-04-01T09:00:00",
                                   include_all=True)
        assert ids(everything)[:2] == [new, old]


def test_a_change_told_as_an_experience_answers_after_it_faded(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2024-03-01", "W @Lise: Lise cycles to the studio.")
        new = retain(memory, "2025-05-01",
                     "W @Lise: Lise takes the ferry to the studio since her bike was stolen.")
        result = memory.recall("How does Lise get to the studio?", now="2025-09-01T09:00:00")
        by_id = {h.fact.id: h for h in result.hits}
        assert by_id[new].status == "archived"  # faded by decay, still the current way
        assert ids(result)[:2] == [new, old]


def test_a_value_held_before_never_ranks_above_the_current_one(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        now = retain(memory, "2024-01-01", "W @Joost: Joost works at the Leiden harbour museum.")
        retain(memory, "2025-05-01",
               "B @Joost: Joost worked at a ferry company in Hull before moving to Leiden.")
        result = memory.recall("Where does Joost work?", now="2025-05-10T09:00:00")
        assert ids(result)[0] == now


def test_a_place_that_refines_the_city_replaces_nothing(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        city = retain(memory, "2024-03-01", "W @Emeka: Emeka lives in Lagos.")
        retain(memory, "2025-02-01",
               "W @Emeka: Emeka's flat is in Ikoyi, a short walk from the marina.")
        result = memory.recall("Which city does Emeka live in?", now="2025-03-01T09:00:00")
        assert ids(result)[0] == city


def test_a_rename_answers_what_something_is_called(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2024-02-01",
               "W @Corvid-Studio: Corvid Studio is headquartered in Tartu.")
        new = retain(memory, "2025-03-10",
                     "W @Corvid-Studio: Corvid Studio rebranded as Magpie in March.")
        result = memory.recall("What is Corvid Studio called these days?",
                               now="2025-09-01T09:00:00")
        assert ids(result)[0] == new


def test_another_subjects_change_leaves_the_asked_ones_value(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        both = retain(memory, "2024-01-01", "W @Suvi: Suvi and @Tarmo both live in Turku.")
        moved = retain(memory, "2025-03-01",
                       "W @Tarmo: Tarmo moved to Oulu and lives near the harbour now.")
        result = memory.recall("Where does Suvi live?", now="2025-06-01T09:00:00")
        assert ids(result)[:2] == [both, moved]
        # asked about the one who moved, the move answers
        assert ids(memory.recall("Where does Tarmo live?", now="2025-06-01T09:00:00"))[0] == moved


def test_a_change_naming_the_old_value_answers_a_question_without_now(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2024-02-01", "W @Project-Gull: Gull's primary datastore is CouchDB.")
        new = retain(memory, "2025-05-05",
                     "B @Project-Gull: Gull finished the cutover; everything is on "
                     "FoundationDB and the CouchDB boxes are switched off.")
        result = memory.recall("What database does Gull use?", now="2025-09-01T09:00:00")
        assert ids(result)[:2] == [new, old]
