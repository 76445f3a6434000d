"""A question that is only a time named by an occasion ("what did we do at Easter?",
`anchored.occasions`): a fact that names the occasion, written within `query.OCCASION_DAYS`
of the day the calendar gives it, tells of it — a plan written the week before ("over
Easter"), a Thanksgiving kept in October — and comes before the facts that were merely
written on that day.  Christmas Eve is not Christmas."""

from __future__ import annotations

from pathlib import Path

from timeline import ids, retain, top

from memfold import Memory


def test_the_fact_that_names_the_occasion_comes_first(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        easter = retain(memory, "2025-04-15", "B @me: Took the kids to Mam's in Tuam for four "
                                              "days over Easter.")
        retain(memory, "2025-04-19", "B @Dara: Dara learned to ride his bike on the Greenway.")
        retain(memory, "2025-04-20", "W @me: The new playground in Tuam is the best one.")
        assert top(memory.recall("What did we do at Easter?", now="2025-10-01T09:00:00")) \
            == easter


def test_an_occasion_kept_on_another_day_is_found(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        kept = retain(memory, "2025-10-12", "B @me @Mom: Thanksgiving at our place; Mom "
                                            "brought her cabbage rolls.")
        retain(memory, "2025-11-27", "B @Chidinma: Chidinma sold the sailboat.")
        assert top(memory.recall("What did we do on Thanksgiving?",
                                 now="2025-12-01T09:00:00")) == kept


def test_the_eve_of_an_occasion_is_not_the_occasion(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-12-20", "B @me: Bought Wren a microscope kit for Christmas.")
        eve = retain(memory, "2025-12-24", "B @me @Mom: Mom came for Christmas Eve and we made "
                                           "the twelve dishes.")
        assert ids(memory.recall("What did we do on Christmas Eve?",
                                 now="2026-01-05T09:00:00"))[0] == eve
