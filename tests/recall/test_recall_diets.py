"""A diet answers what someone eats (`recall.diets`): a newer fact that states one ("has gone
pescatarian", "has been vegan since March") ranks above an older fact of what they eat that
states none ("eats everything, cheese included"); a dish is no diet, and a food the diet
allows changes nothing."""

from __future__ import annotations

from pathlib import Path

from timeline import retain, top

from memfold import Memory
from memfold.recall import diets
from memfold.values import Fact

NOW = "2025-10-01T09:00:00"



def test_a_diet_taken_up_answers_what_he_eats(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2023-05-01", "W @Teodor: Teodor eats everything, cheese included.")
        new = retain(memory, "2025-01-03", "W @Teodor: Teodor has gone pescatarian for his "
                                           "cholesterol.")
        for question in ("What does Teodor eat?", "What does Teodor eat these days?"):
            result = memory.recall(question, now=NOW)
            assert top(result) == new, question
            assert old in {h.fact.id for h in result.hits}


def test_a_diet_told_as_an_experience_answers_now(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2023-05-01", "W @Teodor: Teodor eats everything, cheese included.")
        new = retain(memory, "2025-03-03", "B @Teodor: Teodor has been vegan since March and "
                                           "bakes his own bread.")
        assert top(memory.recall("Does Teodor still eat cheese?", now=NOW)) == new


def test_a_dish_is_no_diet(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2023-05-01", "W @Teodor: Teodor eats everything, cheese included.")
        retain(memory, "2025-03-03", "B @Teodor: Teodor cooked a vegan curry for the office "
                                     "party.")
        assert top(memory.recall("What does Teodor eat these days?", now=NOW)) == old


def fact(content: str) -> Fact:
    return Fact(id="f", kind="world", content=content, path="memory/x.md", line=1, end_line=1)


def test_a_food_the_diet_allows_states_no_new_diet() -> None:
    pescatarian = fact("Teodor is pescatarian.")
    assert diets.diet_of(pescatarian) == {"pescatarian"}
    assert not diets.states_diet(fact("Teodor eats fish twice a week."), pescatarian)
    assert diets.states_diet(fact("Teodor has gone vegan."), pescatarian)
    assert not diets.diet_of(fact("Teodor cooked a vegan curry for the office party."))
