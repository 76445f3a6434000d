""""How does Lorcan get to work?" asks his commute, not his job: the ways of getting there
(bus, bike, train, a lift ...) are the slot, so a return to the bus told without the word
"work" ranks above the cycling it ended."""

from __future__ import annotations

from pathlib import Path

from timeline import retain, top

from memfold import Memory


def test_a_return_to_the_bus_answers_how_he_gets_to_work(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2023-01-01", "W @Teodor: Teodor commutes by tram.")
        cycling = retain(memory, "2024-04-02", "W @Teodor: Teodor started cycling to work "
                                               "in April.")
        back = retain(memory, "2024-11-20", "W @Teodor: After a fall on the ice, Teodor is "
                                            "back to taking the tram.")
        result = memory.recall("How does Teodor get to work these days?",
                               now="2024-12-10T09:00:00")
        assert top(result) == back
        assert back in {h.fact.id: h for h in result.hits}[cycling].possibly_outdated_by
