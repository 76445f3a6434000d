"""A superseded fact the question matches answers with the fact that replaced it, at its
match (`currency.bring_successors`) — but a replacement that shares no subject or topic with
it (no entity but the user's, no content word) carries only `ranking.APART_SHARE` of that
match: such a link may be a mistake ("Internet at the new house is 200 Mbps fibre" for "The
flat white at Rosetta is the best coffee in town"), and a fact that matches the question's
own words ranks above it.  A replacement on the same topic keeps the whole match."""

from __future__ import annotations

from pathlib import Path

from timeline import ids, retain

from memfold import Memory

NOW = "2025-12-31T09:00:00"


def test_an_unrelated_replacement_does_not_take_a_matchs_place(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        coffee = retain(memory, "2025-01-21", "O(c=0.8) @me: The flat white at Rosetta "
                                              "Roastery is the best coffee in town.")
        internet = retain(memory, "2025-09-18", "W @me: Internet at the new house is 200 Mbps "
                                                "fibre from Afrihost.")
        home = retain(memory, "2025-10-02", "B @me: Bought beans from the best coffee roaster "
                                            "in town for the new espresso machine.")
        memory.supersede(coffee, internet, reason="a judge's mistake")
        found = ids(memory.recall("Where's the best coffee in town?", now=NOW))
        assert found.index(home) < found.index(internet)


def test_a_replacement_on_the_topic_keeps_the_match(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2025-01-21", "W @me: I take Allergex tablets for hay fever.")
        new = retain(memory, "2025-10-06", "W @me: I take Telfast now instead of Allergex.")
        retain(memory, "2025-03-02", "W @me: Spring is the worst season for hay fever in "
                                     "Cape Town.")
        memory.supersede(old, new)
        assert ids(memory.recall("What do I take for hay fever?", now=NOW))[0] == new
