"""The newer facts on the asked slot that share no word with a question about now (issue
29, `recall.pulled`): a change faded by decay is still brought in."""

from __future__ import annotations

from pathlib import Path

from timeline import ids, retain

from memfold import Memory


def test_a_change_faded_by_decay_is_still_pulled_in(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2024-03-01", "W @me: My go-to running shoes are Brooks Ghosts.")
        new = retain(memory, "2025-03-01",
                     "B @me: Switched to Hoka Cliftons after the Brooks gave me blisters.")
        result = memory.recall("Which running shoes do I wear these days?",
                               now="2025-06-01T09:00:00")
        assert {h.fact.id: h for h in result.hits}[new].status == "archived"
        assert ids(result)[:2] == [new, old]



def test_a_move_written_under_another_entity_is_pulled_in_by_the_name_it_gives(
        workspace: Path) -> None:
    """The search for a question's words leaves the names of its entities out (their links
    find their facts), so a newer fact written under another entity that names the subject
    only in its text is pulled in by that name."""
    with Memory.open(workspace) as memory:
        home = retain(memory, "2024-02-11", "W @Oksana: Oksana lives in Lviv with her sister.")
        moved = retain(memory, "2025-03-30", "B @me: Helped Oksana pack the van; she has moved "
                                             "to Kaunas for good.")
        result = memory.recall("Where does Oksana live now?", now="2025-10-06T09:00:00")
        assert ids(result)[:2] == [moved, home]
