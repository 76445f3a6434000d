"""A question of where the subject lives or works, asked of facts that state it in other words
("W @me: Moved to Porto." for "where do I live?"), is answered by the subject's own fact on
that slot, not by the only fact that holds the question's word, someone else's home
(`recall.owned`).  A "moved" that is no home ("moved off Compass to lead research"), a "work"
that is no job ("work is busy"), and another subject's facts are not brought in."""

from __future__ import annotations

from pathlib import Path

from timeline import ids, retain, top

from memfold import Memory

NOW = "2026-01-05T09:00:00"


def test_where_i_live_is_my_latest_move_not_someone_elses_home(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        lisbon = retain(memory, "2025-01-05", "W @me: Moved to Lisbon.")
        retain(memory, "2025-01-05", "W @Kenji: Lives in Osaka.")
        porto = retain(memory, "2025-06-10", "W @me: Moved to Porto.")
        result = memory.recall("Where do I live?", now=NOW)
        assert top(result) == porto
        assert not result.hits[0].weak
        assert "where @me lives" in result.hits[0].why
        assert lisbon not in ids(result)  # superseded by the move
        assert top(memory.recall("Which city do I live in now?", now=NOW)) == porto


def test_where_i_work_is_my_new_job_not_someone_elses(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-01-05", "W @me @Acme: Joined @Acme as a designer.")
        retain(memory, "2025-01-05", "W @Kenji @Globex: Works at @Globex.")
        retain(memory, "2025-03-01", "W @Sam: Works as a nurse.")
        farfetch = retain(memory, "2025-06-10", "W @me @Farfetch: Started a new job at "
                                                "@Farfetch as lead designer.")
        assert top(memory.recall("Where do I work?", now=NOW)) == farfetch
        assert top(memory.recall("Who is my employer?", now=NOW)) == farfetch


def test_a_named_subjects_move_answers_where_they_live(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-01-05", "W @Kenji: Lives in Osaka.")
        sam = retain(memory, "2025-02-01", "W @Sam: Relocated to Lisbon for the summer season.")
        result = memory.recall("Where does Sam live?", now=NOW)
        assert top(result) == sam
        assert not result.hits[0].weak


def test_a_move_that_is_no_home_and_work_that_is_no_job_stay_out(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-01-05", "W @Kenji: Lives in Osaka.")
        moved = retain(memory, "2025-03-01", "W @me: Moved off Compass to lead research on "
                                             "Tidewater.")
        busy = retain(memory, "2025-03-02", "B @me: Paused Spanish lessons because work is "
                                            "too busy.")
        assert moved not in ids(memory.recall("Where do I live?", now=NOW))
        result = memory.recall("Where do I work?", now=NOW)
        assert not any("where @me works" in h.why for h in result.hits if h.fact.id == busy)


def test_words_that_are_no_question_search_their_words(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-01-05", "W @Peter: Moved to Lisbon.")
        planted = retain(memory, "2025-02-05", "W @Peter: Lives next to the monzel bakery.")
        result = memory.recall("Peter lives monzel", now=NOW)
        assert top(result) == planted
        assert not any("where @peter lives" in h.why for h in result.hits)
