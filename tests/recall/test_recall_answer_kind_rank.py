"""A question that asks, by its frame, for a sum, an age, an amount or a time of day ("how
much did the oven cost?", "how old is Zola?") weighs a fact that holds none of that kind
below one that does (`scoring.unanswered`, `ranking.UNANSWERED_SHARE`): "asked me to cost out
a new menu" tells of costing, not what the oven cost.  A question of no kind is untouched."""

from __future__ import annotations

from pathlib import Path

from timeline import ids, retain

from memfold import Memory

NOW = "2025-12-31T09:00:00"


def test_the_fact_with_a_price_answers_what_it_cost(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        priced = retain(memory, "2025-08-25", "B @me: Bought a new combi oven for the "
                                              "restaurant, $24,000.")
        costing = retain(memory, "2025-09-22", "B @me: Anton asked me to cost out a new "
                                               "brunch menu.")
        assert ids(memory.recall("How much did the new oven cost?", now=NOW))[:2] == [
            priced, costing]


def test_the_fact_with_an_age_answers_how_old(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        age = retain(memory, "2025-03-29", "W @Zola: Zola is five now.")
        school = retain(memory, "2025-10-27", "W @Zola: Zola goes to Sunbird Playschool in "
                                              "Kenilworth until Grade R starts.")
        assert ids(memory.recall("How old is Zola?", now=NOW))[:2] == [age, school]
