"""A question in the first person ("who's my boss?", "which GP am I with?") asks a slot of
the user's, and a fact that gives that slot as the user's ("... is my line manager", "...
is my new GP") is about the user whatever entity it is written under, so the newer one
ranks first and the older carries its id (`mine.mine_of`).  A slot of someone else's
("my mum lives in Swindon") or another slot of the user's ("promoted to director" is no
manager of mine) is not the user's slot.  A short word in capitals ("GP") names a slot,
not a value.  And a temporary state is on the slot by what it says, not by the reason it
gives ("... because work is busy")."""

from __future__ import annotations

from pathlib import Path

from timeline import ids, retain

from memfold import Memory

NOW = "2026-01-05T09:00:00"


def test_a_new_line_manager_under_another_entity_answers_who_my_boss_is(
        workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2025-01-04", "W @Hannah: Hannah Whitford is my line manager at "
                                           "Fernhill.")
        new = retain(memory, "2025-09-02", "W @Tomas: In the September reorg, Tomás Rivera, "
                                           "the head of research, became my line manager.")
        result = memory.recall("Who's my boss?", now=NOW)
        assert ids(result)[:2] == [new, old]
        assert new in {h.fact.id: h for h in result.hits}[old].possibly_outdated_by


def test_a_new_gp_answers_which_gp_i_am_with(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2025-01-14", "W @Dr-Mensah: Dr. Mensah at Laurel Bank Surgery "
                                           "is my GP.")
        new = retain(memory, "2025-06-27", "W @Dr-Hollis: Dr. Hollis at Fulford Road Surgery "
                                           "is my new GP.")
        assert ids(memory.recall("Which GP am I with?", now=NOW))[:2] == [new, old]


def test_another_slot_of_the_users_does_not_outdate_my_manager(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        manager = retain(memory, "2025-09-01", "W @Idris: Idris Kamara has taken over from "
                                               "Sunita as my manager.")
        retain(memory, "2025-11-01", "B @me: Promoted to associate director at Yorvik, from "
                                     "1 November.")
        result = memory.recall("Who's my manager?", now=NOW)
        assert ids(result)[0] == manager
        assert not result.hits[0].possibly_outdated_by


def test_my_mothers_home_is_not_mine(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        mum = retain(memory, "2025-01-10", "W @Carmen: My mum, Carmen, lives on her own in "
                                           "Swindon.")
        retain(memory, "2025-03-10", "W @Jules: Jules's dad lives in Plymouth.")
        result = memory.recall("Where do I live?", now=NOW)
        assert not {h.fact.id: h for h in result.hits}[mum].possibly_outdated_by


def test_a_pause_for_another_reason_does_not_answer_how_i_get_to_work(
        workspace: Path) -> None:
    """A temporary state answers "these days" only when it is on the slot by what it says,
    not by the reason it gives ("... because work is busy")."""
    with Memory.open(workspace) as memory:
        retain(memory, "2025-03-01", "W @me: I take the 72 bus to work.")
        bike = retain(memory, "2025-11-22", "W @me: I bought a Ribble e-bike and now ride it to "
                                            "work instead of taking the 72 bus.")
        retain(memory, "2025-12-05", "W(until=2026-01-12) @me @Graciela: I'm pausing Spanish "
                                     "lessons with Graciela until mid-January because work is "
                                     "busy.")
        result = memory.recall("How do I get to work these days?", now=NOW)
        assert ids(result)[0] == bike


def test_a_slot_word_after_someone_else_named_after_my_is_not_mine() -> None:
    """"my" reaches a word of the slot only before a word for someone else: "Hannah is my
    line manager" and "Dr. Hollis is my new GP" give the user's slot, "My mum lives in
    Swindon" and "My mum, Carmen, lives on her own" give the mum's home, not the user's."""
    from datetime import date

    from memfold.recall.asked_slot import slot_of
    from memfold.recall.mine import says_mine, stems_of
    from memfold.recall.query import plan_query

    def mine(question: str, fact: str) -> bool:
        slot = slot_of(plan_query(question, today=date(2026, 1, 5)), [])
        assert slot is not None and slot.mine
        return says_mine(stems_of(fact), slot.stems)

    assert mine("Who's my boss?", "Hannah Whitford is my line manager at Fernhill.")
    assert mine("Which GP am I with?", "Dr. Hollis at Fulford Road Surgery is my new GP.")
    assert not mine("Where do I live?", "My mum lives in Swindon.")
    assert not mine("Where do I live?", "My mum, Carmen, lives on her own in Swindon.")
