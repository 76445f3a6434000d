"""A query word in -ing or -ed right after a subject pronoun is a verb ("where have I *played*",
"what am I *learning*", `expansion.said_as_verbs`): the lexicon's kinds of the noun of that
spelling (the lexicon files a bat under a sense of "play", conditioning under "learning")
are another sense, and no fact is found or weighed as holding one."""

from __future__ import annotations

from pathlib import Path

from timeline import retain

from memfold import Memory

NOW = "2026-01-05T09:00:00"


def test_a_verb_asked_finds_no_kind_of_its_noun(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-06-14", "B @me: Played my first tune in public at the session in "
                                     "Lowry's.")
        bat = retain(memory, "2025-10-06", "B @me: Led a bat walk for forty people at "
                                           "Ballycroy.")
        retain(memory, "2025-10-07", "B @me: Bought a fiddle case.")
        hits = memory.recall("Where have I played the fiddle in front of people?", now=NOW).hits
        assert hits[0].fact.id != bat
        assert all("kind of played" not in h.why for h in hits)
