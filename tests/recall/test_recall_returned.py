"""A return ("is back at the Bodø office") says the value it returned to holds now; a trip
back does not."""

from __future__ import annotations

from pathlib import Path

from timeline import retain, top

from memfold import Memory


def test_back_at_the_old_office_answers_which_office_now(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        away = retain(memory, "2025-01-10", "W @Halvard: Halvard is working from the Tromsø "
                                            "office for a few months.")
        back = retain(memory, "2025-05-02", "B @Halvard: Halvard is back at the Bodø office.")
        for question in ("Which office is Halvard in?", "Is Halvard still in the Tromsø office?"):
            result = memory.recall(question, now="2025-10-01T09:00:00")
            assert top(result) == back, question
            assert away in {h.fact.id for h in result.hits}  # faded, below it


def test_a_trip_back_is_no_return(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        home = retain(memory, "2024-06-01", "W @Halvard: Halvard lives in Bodø.")
        retain(memory, "2025-05-02", "B @Halvard: Halvard came back from Tromsø with a cold.")
        assert top(memory.recall("Where does Halvard live now?",
                                 now="2025-10-01T09:00:00")) == home
