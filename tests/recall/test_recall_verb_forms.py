"""A form that is only a form of its verb ("stolen": steal) reaches the verb's other forms
too (`lexicon.related`): "what was stolen from my car?" finds "someone stole the radio",
which no stemmer folds into "stolen" and which the lexicon gave only as a form of "steal"."""

from __future__ import annotations

from pathlib import Path

from timeline import ids, retain

from memfold import Memory

NOW = "2025-12-31T09:00:00"


def test_stolen_finds_stole(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        stole = retain(memory, "2025-06-02", "B @me: Someone broke into the Polo outside the "
                                             "studio and took off with the radio; they stole "
                                             "my gym bag too.")
        retain(memory, "2025-03-21", "B @me: Took Zola to Kirstenbosch; she fell asleep in "
                                     "the car.")
        retain(memory, "2025-05-01", "W @me: My car is a white Polo.")
        found = ids(memory.recall("What was stolen from my car?", now=NOW))
        assert stole in found[:2]
