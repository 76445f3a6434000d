"""Which newer fact answers a question about now in place of an older one
(`memfold.recall.asked_slot`) — and which is only news that shares a word with it: a verb
that frames the question ("what school does Ilse *go* to?"), a newer fact that holds fewer
of the question's words than the older one, a view written after a state, a superlative in
the perfect ("the best ... I've worked with"), which tells nothing held before.  A newer fact
that tells the older state ended ("left the orchestra"), or one in Vietnamese, is weighed by
what it says, however few of the question's words it holds."""

from __future__ import annotations

from pathlib import Path

from timeline import ids, retain

from memfold import Memory


def test_an_outing_is_no_change_of_school(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        school = retain(memory, "2025-09-02", "W @Ilse: Ilse is in second class at Brookfield "
                                              "Primary School.")
        retain(memory, "2025-10-31", "B @Ilse: Ilse went trick-or-treating around the estate "
                                     "dressed as a pumpkin.")
        result = memory.recall("What school does Ilse go to?", now="2026-01-05T09:00:00")
        assert ids(result)[0] == school


def test_a_newer_cost_of_another_thing_is_no_answer_to_what_the_groceries_cost(
        workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        groceries = retain(memory, "2025-09-20", "W @me: In Leith my weekly groceries come to "
                                                 "about £85.")
        retain(memory, "2025-11-12", "W @me: Switched from glasses to daily contact lenses; "
                                     "they cost £30 a month now.")
        result = memory.recall("What do my weekly groceries cost?", now="2026-01-05T09:00:00")
        assert ids(result)[0] == groceries


def test_a_view_written_later_does_not_answer_where_she_lives(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        home = retain(memory, "2025-10-01", "W @Greta: Greta lives with us on Hawthorn Road "
                                            "now; the box room is her bedroom.")
        retain(memory, "2025-10-12", "O @me @Greta: Living with Greta is easier than I "
                                     "feared, and Sunday baking together is nice now.")
        result = memory.recall("Where does Greta live now?", now="2026-01-05T09:00:00")
        assert ids(result)[0] == home


def test_the_best_deputy_ive_worked_with_is_a_view_held_now(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-09-10", "W @Anja: Anja Roth has been appointed as our new deputy "
                                     "head from the spring term.")
        view = retain(memory, "2025-11-10", "O @me @Anja: Anja is the most organised deputy "
                                            "I've ever worked with.")
        result = memory.recall("What do I think of Anja as deputy?", now="2026-01-05T09:00:00")
        assert ids(result)[0] == view


def test_leaving_answers_whether_she_still_plays_though_it_holds_fewer_words(
        workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2024-05-01", "W @Ines: Ines plays viola in the Harbour City Orchestra.")
        left = retain(memory, "2025-06-20", "B @Ines: Ines left the orchestra after the summer "
                                            "concert.")
        result = memory.recall("Does Ines still play in the orchestra?",
                               now="2025-09-01T09:00:00")
        assert ids(result)[0] == left


def test_a_switch_written_in_vietnamese_is_weighed_by_what_it_says(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2024-03-01", "W @Lan: Lan dùng điện thoại Samsung.")
        switched = retain(memory, "2025-01-10", "B @Lan: Lan đã chuyển sang dùng iPhone.")
        result = memory.recall("Lan dùng điện thoại gì?", now="2025-02-01T09:00:00")
        assert ids(result)[0] == switched
