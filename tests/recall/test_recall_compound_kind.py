"""A kind word the query names a thing by ("my book *club*") names the entities whose name
ends in it (`sets.called`) only when their name holds the compound's modifier too: the
Granite Curling Club is a club, but not "my book club"."""

from __future__ import annotations

from pathlib import Path

from timeline import ids, retain, top

from memfold import Memory

NOW = "2025-11-01T09:00:00"


def test_a_compound_does_not_name_another_club(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-01-07", "W @me @Granite-Curling-Club: I curl on Tuesday nights in "
                                     "the mixed league at the Granite Curling Club.")
        retain(memory, "2025-01-13", "B @me @Granite-Curling-Club: We won our first game 7-4.")
        retain(memory, "2025-02-08", "B @me @Granite-Curling-Club: Our rink lost the club "
                                     "semi-final on the last rock.")
        book = retain(memory, "2025-10-19", "W @me: My book club meets the third Sunday of the "
                                            "month at McNally Robinson.")
        assert top(memory.recall("Where does my book club meet?", now=NOW)) == book


def test_the_club_named_by_its_modifier_is_still_named(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        won = retain(memory, "2025-01-13", "B @me @Granite-Curling-Club: We won our first game "
                                           "7-4 against the Henderson rink.")
        retain(memory, "2025-10-19", "W @me: My book club meets on Sundays.")
        assert won in ids(memory.recall("What happened at my curling club?", now=NOW))[:2]
