"""What the truth bench's tuning timelines (benchmarks/data/truthqa-tune.jsonl) showed the
asked slot reading wrongly: "these days" names no slot (its "days" matched nothing the
question asks); a job begun, told as an experience ("first day as ... at"), answers where
someone works; a new place answers where someone lives, also when the question names only
the old town ("still in Aarhus?"); a question that names only a value ("still using a
Pixel?") asks that value's slot; and a newer fact that names the older one's value and says
what holds now answers before it."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from timeline import retain, top

from memfold import Memory
from memfold.recall.asked_slot import slot_of
from memfold.recall.query import plan_query


def slot_words(question: str) -> frozenset[str]:
    slot = slot_of(plan_query(question, today=date(2025, 3, 1)), [])
    assert slot is not None
    return slot.stems


def test_these_days_names_no_slot() -> None:
    assert "day" not in slot_words("What food is Pippin on these days?")
    assert "food" in slot_words("What food is Pippin on these days?")


def test_a_question_naming_only_a_value_asks_its_slot() -> None:
    assert slot_words("Am I still using a Pixel?") == {"pixel"}
    assert "liv" in slot_words("Is Inge still in Aarhus?")


def test_a_first_day_at_a_new_job_answers_where_she_works(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2023-09-01", "W @Priyanka: Priyanka works as a data analyst "
                                           "at Halden Insurance.")
        new = retain(memory, "2025-01-06", "B @Priyanka: Priyanka had her first day as a "
                                           "product manager at Tessellate Labs.")
        for question in ("Where does Priyanka work these days?", "What is Priyanka's job now?"):
            result = memory.recall(question, now="2025-02-01T09:00:00")
            assert top(result) == new, question
            by_id = {h.fact.id: h for h in result.hits}
            assert new in by_id[old].possibly_outdated_by


def test_a_new_place_answers_where_she_lives(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2023-08-01", "W @Inge: Inge rents a studio in Aarhus.")
        new = retain(memory, "2024-09-14", "B @Inge: Inge unpacked the last boxes at her new "
                                           "place in Odense.")
        for question in ("Where is Inge living now?", "Is Inge still in Aarhus?"):
            assert top(memory.recall(question, now="2024-10-01T09:00:00")) == new, question


def test_a_newer_fact_naming_the_old_value_answers_now(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2022-03-01", "O @Sol: Sol's go-to running shoes are Brooks Ghosts.")
        new = retain(memory, "2024-10-05", "B @Sol: Sol switched to Hoka Cliftons after the "
                                           "Brooks gave Sol blisters.")
        result = memory.recall("What running shoes does Sol use these days?",
                               now="2024-11-01T09:00:00")
        assert top(result) == new
        assert new in {h.fact.id: h for h in result.hits}[old].possibly_outdated_by
        # asked before the switch, the old shoes answer
        assert top(memory.recall("What running shoes does Sol use these days?",
                                 now="2024-06-01T09:00:00")) == old


def test_a_visit_naming_the_old_town_changes_nothing(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        home = retain(memory, "2023-06-01", "W @Dario: Dario lives in Naples.")
        retain(memory, "2025-03-01", "B @Dario: Dario spent two weeks in Lisbon visiting his "
                                     "sister, then flew back to Naples.")
        assert top(memory.recall("Is Dario still in Naples?",
                                 now="2025-03-20T09:00:00")) == home
