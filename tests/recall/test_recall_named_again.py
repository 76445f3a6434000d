"""A newer fact that names a name an older fact on the asked slot gives speaks of that slot,
whatever words it uses (`recall.given_names`): "Wojciech leads the Falcon rollout", later
"Wojciech handed the Falcon rollout over to Tadeusz"; "I'm on the Deezer Family plan", later
"Downgraded to Deezer Duo".  Asked about now, the newer one answers first when it says a
change; a plan that names the same name changes nothing.  And a return ("is back at the Bodø
office") says the value it returned to holds now; a trip back does not."""

from __future__ import annotations

from pathlib import Path

from timeline import retain

from memfold import Memory
from memfold.values import RecallResult


def top(result: RecallResult) -> str:
    return result.hits[0].fact.id


def test_names_are_capitalised_words_not_words_of_the_language() -> None:
    from memfold.recall.given_names import names_in as names

    assert names("Took Juno to Birchwood Vets for her jabs.", ["juno"]) == {"birchwood", "vets"}
    assert names("Wojciech passed the rollout to Tadeusz.", []) == {"wojciech", "tadeusz"}
    assert names("Zoë sold her car; Since then she cycles.", ["zoe"]) == set()
    # a sentence's first word that is a word of the language is not read as a name
    assert names("Marguerite met Tadeusz.", []) == {"tadeusz"}


def test_a_handover_naming_the_old_lead_answers_who_leads_now(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2024-02-01", "W @Falcon-Rollout: Wojciech leads the Falcon "
                                           "rollout.")
        new = retain(memory, "2025-03-03", "B @Falcon-Rollout: Wojciech handed the Falcon "
                                           "rollout over to Tadeusz before her leave.")
        result = memory.recall("Who leads the Falcon rollout?", now="2025-09-01T09:00:00")
        assert top(result) == new
        assert new in {h.fact.id: h for h in result.hits}[old].possibly_outdated_by
        # asked before the handover, the old lead answers
        assert top(memory.recall("Who leads the Falcon rollout?",
                                 now="2025-01-01T09:00:00")) == old


def test_a_plan_downgraded_answers_which_plan_now(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2024-01-10", "W @me: I'm on the Deezer Family plan.")
        new = retain(memory, "2025-04-12", "B @me: Downgraded to Deezer Duo once the twins "
                                           "got their own accounts.")
        result = memory.recall("Which Deezer plan am I on these days?",
                               now="2025-10-01T09:00:00")
        assert top(result) == new
        assert new in {h.fact.id: h for h in result.hits}[old].possibly_outdated_by


def test_a_plan_naming_the_same_name_changes_nothing(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2024-02-01", "W @Falcon-Rollout: Wojciech leads the Falcon "
                                           "rollout.")
        retain(memory, "2025-03-03", "B @Falcon-Rollout: Wojciech might hand the Falcon "
                                     "rollout to Tadeusz next year.")
        assert top(memory.recall("Who leads the Falcon rollout?",
                                 now="2025-09-01T09:00:00")) == old


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
