"""A question about a country or a region finds the facts that name a place within it
(`memfold.recall.places`): "which places did we visit in Japan?" over a trip written city by
city."""

from __future__ import annotations

from pathlib import Path

from memfold import lexicon
from memfold.index.base import Candidate
from memfold.memory import Memory
from memfold.recall import places
from memfold.values import Fact

DAY = "2025-10-20T10:00:00"


def keys(memory: Memory, query: str, k: int = 5) -> list[str]:
    return [h.fact.content for h in memory.recall(query, k=k, now=DAY).hits]


def test_the_table_knows_the_places_within_a_country() -> None:
    assert {"tokyo", "kyoto", "osaka"} <= set(lexicon.parts("Japan"))
    assert "sicily" in lexicon.parts("italy") and "palermo" in lexicon.parts("italy")
    # a word whose first sense is no place, or a brand people own, is read as none
    assert "split" not in lexicon.parts("croatia")
    assert "toyota" not in lexicon.parts("japan")
    assert lexicon.parts("banana") == ()


def test_a_trip_written_city_by_city_answers_a_question_about_the_country(
        workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        memory.retain(["B @me @Mei: Flew to Tokyo with Mei for two weeks.",
                       "B @me @Mei: Ate okonomiyaki in Dotonbori in Osaka.",
                       "B @me: I'm learning Japanese with an evening class on Mondays.",
                       "B @me @Dazza: Dazza flew to Perth to see his sister.",
                       "B @me: Found a good hardware shop in Aspley.",
                       "W @Ute: I drive a 2017 Toyota HiLux for work."], now="2025-10-10T10:00:00")
        found = keys(memory, "Which places did we visit in Japan?", k=2)
        assert "Flew to Tokyo with Mei for two weeks." in found
        assert "Ate okonomiyaki in Dotonbori in Osaka." in found
        hits = memory.recall("Which places did we visit in Japan?", k=10, now=DAY).hits
        why = {h.fact.content: h.why for h in hits}
        assert "Tokyo, in japan" in why["Flew to Tokyo with Mei for two weeks."]
        # a brand named after a city is no place in the country
        assert "I drive a 2017 Toyota HiLux for work." not in why


def test_a_place_is_read_as_a_name_not_as_a_word(workspace: Path) -> None:
    """Nice is in France; "a nice view" is not."""
    with Memory.open(workspace) as memory:
        memory.retain(["B @me: We had a nice view from the hotel roof.",
                       "B @me: Spent a week in Nice with my sister."], now="2025-07-01T10:00:00")
        hits = memory.recall("Where did we stay in France?", k=10, now=DAY).hits
        assert hits and hits[0].fact.content == "Spent a week in Nice with my sister."
        assert all("in france" not in h.why for h in hits
                   if h.fact.content.startswith("We had a nice view"))


def test_a_name_the_memory_writes_within_a_place_is_in_its_country(workspace: Path) -> None:
    """WordNet knows no Cefalù; "a farmhouse near Cefalù in Sicily" says where it is, so
    the granita eaten there answers a question about Italy."""
    with Memory.open(workspace) as memory:
        memory.retain(["W @me: We're staying in a farmhouse near Cefalù in Sicily.",
                       "O(c=0.9) @me: The pistachio granita in Cefalù was the best thing I "
                       "ate all summer.",
                       "O(c=0.9) @me: The coffee at the Cardiff market is the best in town.",
                       "B @me @Mei: Stayed with Mei in Sicily for a week."],
                      now="2025-08-01T10:00:00")
        hits = memory.recall("What was my favourite food in Italy?", k=10, now=DAY).hits
        why = {h.fact.content: h.why for h in hits}
        granita = "The pistachio granita in Cefalù was the best thing I ate all summer."
        assert "Cefalù, in italy" in why[granita]
        assert hits[0].fact.content == granita
        # a name a sentence begins with, or an entity's, is learned as no place
        assert places.learned([_fact(1, "Palermo in Sicily was loud."),
                               _fact(2, "We met Rosa in Sicily.", "Rosa"),
                               _fact(3, "We stayed near Cefalù in Sicily.")],
                              {"italy": ("sicily",)}, ()) == {"italy": ("cefalù",)}


def _fact(n: int, content: str, *entities: str) -> Candidate:
    return Candidate(Fact(id=f"p{n}", kind="experience", content=content,
                          path="memory/2025-07-01.md", line=n, end_line=n, entities=entities),
                     None, (), "", rowid=n, life=None)
