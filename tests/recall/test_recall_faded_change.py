"""A newer fact faded by decay (an experience, a state told in the past) still answers a
question about now when it says the older value ended or a new one began — an end the judge
reads ("quit"), an end said another way ("scrapped the Volvo", "let the subscription run
out"), a job taken by retraining, a return to work after a leave — or when it holds for a
stated time not yet past."""

from __future__ import annotations

from pathlib import Path

from timeline import retain, top

from memfold import Memory


def test_a_diet_quit_answers_the_diet(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2024-02-01", "W @Bertil: Bertil is on a ketogenic diet.")
        new = retain(memory, "2025-03-10", "W @Bertil: Bertil quit keto after a check-up and "
                                           "eats a normal mixed diet again.")
        result = memory.recall("What diet is Bertil on?", now="2026-01-10T09:00:00")
        assert top(result) == new
        assert new in {h.fact.id: h for h in result.hits}[old].possibly_outdated_by


def test_a_car_scrapped_for_another_answers_what_he_drives(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2024-02-01", "W @Hanne: Hanne drives a Volvo V70.")
        new = retain(memory, "2025-05-10", "B @Hanne: Hanne finally scrapped the Volvo and "
                                           "bought a Cupra Born.")
        assert top(memory.recall("What does Hanne drive?", now="2026-01-10T09:00:00")) == new


def test_a_subscription_let_run_out_answers_whether_it_holds(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2024-02-01", "W @me: I subscribe to Monocle.")
        new = retain(memory, "2025-05-10", "B @me: Let my Monocle subscription run out in "
                                           "April.")
        assert top(memory.recall("Do I still get Monocle?",
                                 now="2026-01-10T09:00:00")) == new


def test_a_job_retrained_for_answers_the_job(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2024-02-01", "W @Maren: Maren is a cashier at the Coop in Aarhus.")
        new = retain(memory, "2025-05-10", "B @Maren: Maren left retail last year and "
                                           "retrained as a physiotherapist.")
        assert top(memory.recall("What is Maren's job?", now="2026-01-10T09:00:00")) == new


def test_a_stay_that_holds_until_a_later_day_answers_at_the_moment(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2024-02-01", "W @Gorm: Gorm works from the Oslo office.")
        new = retain(memory, "2025-05-01", "W(until=2025-09-30) @Gorm: Gorm is working from "
                                           "the Bergen office on loan.")
        asked = "Where is Gorm working from at the moment?"
        assert top(memory.recall(asked, now="2025-08-01T09:00:00")) == new
        assert top(memory.recall(asked, now="2025-11-01T09:00:00")) == old


def test_a_return_after_sick_leave_answers_whether_he_is_on_it(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-01-08", "W @Halldor: Halldor is on sick leave after shoulder "
                                     "surgery.")
        new = retain(memory, "2025-04-14", "B @Halldor: Halldor returned to the loading bay "
                                           "on Monday, cleared by his doctor.")
        assert top(memory.recall("Is Halldor on sick leave?",
                                 now="2025-10-06T09:00:00")) == new
