"""A question that names the thing it asks for ("which *factory* did I visit in Japan?",
`recall.head_noun`) weighs a fact that holds neither that word nor one the lexicon gives for
it at `ranking.HEADLESS_SHARE`, when another fact holds it: "Visited Japan in October" shares
two of the question's words and says nothing of a factory.  A plural ("which books did I
finish?") or a kind of place ("which area of Glasgow?") is answered by names, and is left
alone."""

from __future__ import annotations

from pathlib import Path

from timeline import ids, retain, top

from memfold import Memory

NOW = "2025-12-31T09:00:00"


def test_the_fact_that_names_the_thing_asked_comes_first(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        factory = retain(memory, "2025-10-05", "B @me: Toured the Kawai piano factory in "
                                               "Hamamatsu on my own.")
        retain(memory, "2025-10-04", "B @me @Lachlan: Visited Japan with Lachlan; two days "
                                     "in Kyoto.")
        retain(memory, "2025-10-06", "B @me: Visited a friend in Dunedin.")
        assert top(memory.recall("Which factory did I visit in Japan?", now=NOW)) == factory


def test_several_things_asked_are_answered_by_their_names(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        finished = retain(memory, "2025-09-22", "B @me: Finished Birnam Wood this year.")
        retain(memory, "2025-06-05", "B @me: Bought a book of Chopin nocturnes.")
        found = ids(memory.recall("Which books did I finish this year?", now=NOW))
        assert found[0] == finished

