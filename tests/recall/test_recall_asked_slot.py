"""A question about now is answered with the newer fact that states the current value of
the slot it asks (`memfold.recall.asked_slot`), when the judge never linked the two facts:
a change implied ("my new manager"), told as an experience after another experience, or
written under another entity and naming the subject only in its text.  Someone else's news,
plans and questions about the past are left as they rank.  And the everyday words the
lexicon pairs by hand (`lexicon/data/everyday.tsv`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from timeline import ids, retain, retain_others

from memfold import Memory, lexicon


def test_a_new_manager_ranks_above_who_she_reported_to(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2024-03-01", "W @Marta: Marta reports to Oskar in the sales team.")
        retain(memory, "2024-06-01", "B @Oskar: Oskar gave a talk on pricing in Madrid.")
        new = retain(memory, "2025-01-08", "B @Marta: Marta had lunch with her new manager, "
                                           "Priya, after the reorg.")
        result = memory.recall("Who is Marta's boss?", now="2025-02-01T09:00:00")
        assert ids(result)[0] == new
        by_id = {h.fact.id: h for h in result.hits}
        assert by_id[old].status == "active"
        assert new in by_id[old].possibly_outdated_by


def test_the_later_of_two_moves_answers_where_she_lives(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2023-01-10", "W @Ines: Ines lives in Faro by the old town.")
        first = retain(memory, "2023-08-01", "B @Ines: Ines relocated from Faro to Porto for "
                                             "her nursing residency in Porto.")
        last = retain(memory, "2025-03-01", "B @Ines: After her residency, Ines took a job "
                                            "in Madrid and moved there.")
        result = memory.recall("Where is Ines living these days?", now="2025-04-01T09:00:00")
        assert ids(result).index(last) < ids(result).index(first)
        assert ids(result)[0] == last
        # asked about a time before the later move, the earlier one answers
        before = memory.recall("Where was Ines living in 2024?", now="2025-04-01T09:00:00")
        assert last not in ids(before)[:1]


def test_a_hand_over_written_under_another_entity_answers_who_owns_it(
        workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2024-02-01", "W @Project-Osprey: Project Osprey is owned by the "
                                     "data team.")
        moved = retain(memory, "2024-08-01", "B @Project-Osprey: Ownership of Project Osprey "
                                             "moved from the data team to Lena's team.")
        go = retain(memory, "2024-10-01", "W @Project-Osprey: Project Osprey is written in Go.")
        handed = retain(memory, "2025-05-01", "B @Lena: Before her leave, Lena handed Osprey "
                                              "over to the search team.")
        result = memory.recall("Which team is responsible for Osprey these days?",
                               now="2025-06-01T09:00:00")
        assert ids(result)[0] == handed
        assert ids(result).index(handed) < ids(result).index(moved)
        # another slot of the same subject is not pushed down
        language = memory.recall("What language is Osprey written in?",
                                 now="2025-06-01T09:00:00")
        assert ids(language)[0] == go


def test_a_temporary_state_answers_at_the_moment_and_the_habit_after_it(
        workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        habit = retain(memory, "2024-10-01", "W @Tomas: Tomas swims 2 km every morning "
                                             "before work.")
        pause = retain(memory, "2025-03-10", "W(until=2025-04-30) @Tomas: Tomas is not "
                                             "swimming while his shoulder heals.")
        now = memory.recall("Is Tomas doing his morning swims at the moment?",
                            now="2025-04-01T09:00:00")
        assert ids(now)[0] == pause
        later = memory.recall("Does Tomas still swim in the mornings?",
                              now="2025-06-01T09:00:00")
        assert ids(later)[0] == habit


def test_someone_elses_move_does_not_answer_where_he_lives_now(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        home = retain(memory, "2024-08-08", "W @Pieter: Pieter lives in Rotterdam by the "
                                            "harbour.")
        retain(memory, "2025-05-05", "B @Pieter: Pieter's brother Joost moved from Rotterdam to "
                                     "Hamburg for a new job.")
        result = memory.recall("Where does Pieter live now?", now="2025-06-01T09:00:00")
        assert ids(result)[0] == home
        assert all(h.possibly_outdated_by == () for h in result.hits)


def test_a_question_about_the_past_is_left_as_it_ranks(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2024-03-01", "W @Marta: Marta reports to Oskar in the sales team.")
        retain(memory, "2025-01-08", "B @Marta: Marta had lunch with her new manager, Priya.")
        result = memory.recall("Who was Marta's boss before the reorg?",
                               now="2025-02-01T09:00:00")
        assert all(h.possibly_outdated_by == () for h in result.hits if h.fact.id == old)


@pytest.mark.parametrize(("word", "other"), [
    ("boss", "manager"), ("manager", "boss"), ("earn", "salary"), ("salary", "earn"),
    ("employer", "work"), ("kitten", "cat"), ("cat", "kitten"), ("smartphone", "phone"),
    ("teeth", "dentist"),
])
def test_everyday_words_for_one_thing(word: str, other: str) -> None:
    assert other in lexicon.related(word, lexicon.SAME)


def test_brands_are_kinds_of_camera_and_smartphone() -> None:
    assert "fujifilm" in lexicon.related("camera", lexicon.KIND)
    assert "pixel" in lexicon.related("smartphone", lexicon.KIND)


def test_who_is_my_employer_finds_where_i_work(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        job = retain(memory, "2024-06-06", "W @me: I work as a nurse at St Anne's Hospital "
                                           "in Bristol.")
        result = memory.recall("Who is my employer?", now="2025-01-01T09:00:00")
        assert ids(result)[:1] == [job]


def test_a_view_asked_about_is_no_slot(workspace: Path) -> None:
    # "do I like the iPhone?" asks of the iPhone: a newer view that likes something else
    # ("now I like the adaptive cruise") states no current value of it
    with Memory.open(workspace) as memory:
        retain_others(memory, ("W @me: I live in Moose Jaw.", "B @me: Curled on Thursday.",
                               "W @Car: I drive a Subaru Forester.",
                               "B @me: Fixed the back fence."))
        view = retain(memory, "2025-04-07", "O(c=0.7) @me: The iPhone is fussier than the "
                                            "Samsung was; I can't find anything in the "
                                            "settings.")
        retain(memory, "2025-06-15", "O(c=0.7) @me: I've got used to the Forester and now I "
                                     "like the adaptive cruise on the highway.")
        assert ids(memory.recall("Do I like the iPhone?", now="2025-12-01T09:00:00"))[0] == view


def test_a_newer_fact_without_the_slots_head_does_not_answer_it(workspace: Path) -> None:
    # "the farm insurance": a newer view of a farming scheme holds "farm", not "insurance";
    # "my CPP each month": a newer pension rise holds "month", a rate's unit, not "CPP"
    with Memory.open(workspace) as memory:
        retain_others(memory, ("W @me: We keep sheep at Glanrhyd.",
                               "B @me: Sold forty lambs at Llandeilo mart.",
                               "W @me: The water bill is about £95 a month.",
                               "B @me: Fixed the quad's puncture.",
                               "W @Mot: Mot is our collie.", "B @me: Sheared the ewes.",
                               "O @me: Red diesel is too dear.",
                               "W @Owain: Owain studies at Aberystwyth.",
                               "B @me: Ordered 12 tonnes of fertiliser from the co-op."))
        insurance = retain(memory, "2025-10-19", "W @me: Our farm insurance is with NFU "
                                                 "Mutual at £6,800 a year.")
        retain(memory, "2025-11-22", "O(c=0.7) @me: I've come round on the Sustainable Farming "
                                     "Scheme: the hedge payments are worth it now.")
        assert ids(memory.recall("How much is the farm insurance now?",
                                 now="2025-12-01T09:00:00"))[0] == insurance
        cpp = retain(memory, "2025-01-11", "W @me: My CPP pension is $1,134 a month.")
        retain(memory, "2025-04-20", "B @me: OAS went up in April to $732.03 a month.")
        assert ids(memory.recall("How much is my CPP each month?",
                                 now="2025-06-01T09:00:00"))[0] == cpp


def test_a_rate_names_no_slot_but_a_school_year_does() -> None:
    from datetime import date

    from memfold.recall.asked_slot import slot_of
    from memfold.recall.query import plan_query

    def stems(question: str) -> frozenset[str]:
        slot = slot_of(plan_query(question, today=date(2026, 1, 5)), [])
        assert slot is not None
        return slot.stems

    assert "month" not in stems("How much is my CPP each month?")
    assert "year" in stems("What school year is Nadia in now?")
