"""A question that asks who (`answer_kind.asks_person`) is answered by a person: a fact that
names none — no word the lexicon files under a class of people, no title, no name —
weighs `ranking.UNANSWERED_SHARE`.  "Gideon is off work and doing physio" holds every word of
"who is Gideon's physio?" and names nobody but Gideon."""

from __future__ import annotations

from pathlib import Path

from timeline import retain, top

from memfold import Memory
from memfold.recall.answer_kind import names_person

NOW = "2025-04-01T09:00:00"


def test_a_fact_that_names_a_person_answers_who(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-01-03", "W @Gideon: My husband Gideon is a freelance ASL "
                                     "interpreter.")
        retain(memory, "2025-03-04", "W @Gideon: Gideon is off work and doing physio three "
                                     "times a week while his knee heals.")
        physio = retain(memory, "2025-03-05", "W @Tamsin: Tamsin Moore is Gideon's physio at "
                                              "Kinetic Physio on St. Mary's Road.")
        assert top(memory.recall("Who is Gideon's physio?", now=NOW)) == physio


def test_what_names_a_person() -> None:
    assert names_person("Seán Keane, the vet in Clifden, glued the cut.", ["fern"], ["fern"])
    assert names_person("Dr Hession put me back on the inhaler.", [], [])
    assert names_person("I think Sprocket likes Cathal more than anyone.", ["sprocket"],
                        ["sprocket"])
    assert names_person("Gwen retires from her desk at the end of the summer.", [], [])
    assert not names_person("Booked a family holiday in Slovenia.", ["me"], [])
    assert not names_person("Fern cut her paw on a mussel shell.", ["fern"], ["fern"])
