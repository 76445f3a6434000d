"""A question that asks, by its frame, for a sum, an age, an amount or a time of day ("how
much did the oven cost?", "how old is Zola?") weighs a fact that holds none of that kind
below one that does (`scoring.unanswered`, `ranking.UNANSWERED_SHARE`): "asked me to cost out
a new menu" tells of costing, not what the oven cost.  A question of no kind is untouched."""

from __future__ import annotations

from pathlib import Path

import pytest
from timeline import ids, retain, retain_others

from memfold import Memory
from memfold.recall.answer_kind import kind_of

NOW = "2025-12-31T09:00:00"


def test_the_fact_with_a_price_answers_what_it_cost(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        priced = retain(memory, "2025-08-25", "B @me: Bought a new combi oven for the "
                                              "restaurant, $24,000.")
        costing = retain(memory, "2025-09-22", "B @me: Anton asked me to cost out a new "
                                               "brunch menu.")
        assert ids(memory.recall("How much did the new oven cost?", now=NOW))[:2] == [
            priced, costing]


def test_the_repair_with_a_price_answers_what_the_repair_cost(workspace: Path) -> None:
    # the accident holds every word of the question; the repair holds the sum
    with Memory.open(workspace) as memory:
        retain_others(memory, ("W @Phone: My phone is a Pixel 7.",
                               "B @me: Ran the harbour loop in 31 minutes.",
                               "W @me: I work from Hive Coastal most days.",
                               "O @me: The banh mi on Le Duan Street is the best.",
                               "W @Scooter: I ride a rented Honda Air Blade."))
        accident = retain(memory, "2025-02-03", "B @Phone: Dropped my Pixel 7 on the tiles "
                                                "at Hive Coastal and cracked the screen.")
        repair = retain(memory, "2025-02-05", "B @Phone: Got the Pixel 7 screen replaced at "
                                              "a shop on Le Duan Street for $115.")
        assert ids(memory.recall("How much did it cost to fix my cracked phone screen?",
                                 now=NOW))[:2] == [repair, accident]


@pytest.mark.parametrize("price", ["KSh 9,500", "1,899 zł", "2.9 million dong", "GHS 850",
                                   "S/ 99", "26,000 baht", "₹4,000", "CHF 300"])
def test_a_price_in_any_currency_answers_what_it_cost(price: str) -> None:
    assert kind_of("How much did the repair cost?").held_by(f"Paid {price} for the repair.")
    assert not kind_of("How much did the repair cost?").held_by("Ran 10 km in 50 minutes.")


def test_the_fact_with_an_age_answers_how_old(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        age = retain(memory, "2025-03-29", "W @Zola: Zola is five now.")
        school = retain(memory, "2025-10-27", "W @Zola: Zola goes to Sunbird Playschool in "
                                              "Kenilworth until Grade R starts.")
        assert ids(memory.recall("How old is Zola?", now=NOW))[:2] == [age, school]
