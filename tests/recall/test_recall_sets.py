"""Questions whose answer is several facts (issue 30, "multi"): the set comes together when
the best match's subject brings its siblings, and a plural names the entity its singular
does (`memfold.recall.sets`)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from memfold.memory import Memory
from memfold.recall import ranking
from memfold.recall.query import plan_query
from memfold.recall.sets import asks_for_several, singulars

DAY = "2025-06-01T10:00:00"
LATER = "2025-06-02T10:00:00"


def top(memory: Memory, query: str, k: int = 10) -> list[str]:
    return [h.fact.content for h in memory.recall(query, now=LATER, k=k).hits]


MIGRAINES = [
    "B @Dr-Osei: Dr. Osei prescribed propranolol 40 mg a day to prevent my migraines.",
    "B @me: A migraine wiped out most of Wednesday.",
    "W @me: I get migraines about twice a month.",
    "B @me: My migraines came back after a stressful week.",
    "O @me: Caffeine seems to trigger my migraines.",
    "B @me: Told Jules about the migraines.",
    "B @Dr-Osei: Dr. Osei increased my propranolol to 80 mg a day.",
    "B @Dr-Osei: Dr. Osei switched me from propranolol to candesartan 8 mg.",
]
# the rest of a memory (the second hop reads memories of 200 facts or more): what makes
# "migraines" a word that tells facts apart
PLACES = ("Bath", "Leeds", "York", "Derby", "Wells", "Ely", "Hull", "Truro", "Perth", "Ayr")
THINGS = ("kettle", "lamp", "rug", "shelf", "clock", "mirror", "vase", "stool", "fan", "desk",
          "chair", "table", "bench", "crate", "basket", "heater", "toaster", "blender",
          "radio", "printer")
OTHER = [f"B @me: Bought a {thing} in {place}." for thing in THINGS for place in PLACES]


def remember(memory: Memory) -> None:
    memory.retain(OTHER, now=DAY)
    for n, fact in enumerate(MIGRAINES):  # a fact a day, as written over a month
        memory.retain([fact], now=f"2025-05-{n + 10:02d}T10:00:00")


INCREASED = "Dr. Osei increased my propranolol to 80 mg a day."


def test_the_best_matchs_subject_brings_its_siblings(workspace: Path) -> None:
    """"What medications have I been prescribed for migraines": the doctor's later change
    holds none of the question's words, and facts that only say "migraines" filled the
    places it needed."""
    question = "What medications have I been prescribed for migraines?"
    with Memory.open(workspace) as memory:
        remember(memory)
        shown = top(memory, question)
        assert shown[0].startswith("Dr. Osei prescribed")
        assert INCREASED in shown[1:3]
        with ranking.tuned({"SIBLING_SHARE": 0.0}):  # the lift is what brings it
            assert INCREASED not in top(memory, question)[:5]


def test_a_question_for_one_fact_is_not_reordered(workspace: Path) -> None:
    """A question told in the present that asks for one thing brings no siblings."""
    with Memory.open(workspace) as memory:
        remember(memory)
        with ranking.tuned({"SIBLING_SHARE": 0.0}):
            before = top(memory, "how often do I get a migraine")
        assert top(memory, "how often do I get a migraine") == before


def test_a_plural_names_the_entity_its_singular_does(workspace: Path) -> None:
    """"What cars have we owned": both @Car facts, not "lives on her own"."""
    with Memory.open(workspace) as memory:
        memory.retain(["W @Car: Our car is a 2014 Ford Fiesta.",
                       "W @Carmen: My mum, Carmen, lives on her own in Swindon.",
                       "W @me: We own a rented flat's furniture.",
                       "W @Car: We bought a used 2021 Kia Niro EV in blue."], now=DAY)
        shown = top(memory, "What cars have we owned?")
        assert set(shown[:2]) == {"Our car is a 2014 Ford Fiesta.",
                                  "We bought a used 2021 Kia Niro EV in blue."}


def test_which_questions_ask_for_several_facts() -> None:
    def several(text: str) -> bool:
        return asks_for_several(plan_query(text, today=date(2025, 6, 2)))

    assert several("Which half marathons did I race this year?")
    assert several("What phones have I had?")
    assert several("Who has walked the dog for us?")
    assert not several("What kind of dog is Biscuit?")
    assert not several("how often do I get a migraine")
    assert singulars("cars") == ["car"]
    assert "house" in singulars("houses") and "story" in singulars("stories")
    assert singulars("glass") == singulars("bus") == singulars("is") == []


def test_a_kind_names_the_entities_the_memory_says_are_one(workspace: Path) -> None:
    """"Who has walked the dog": the dog is Biscuit ("our beagle"; a beagle is a dog), so
    the facts about Biscuit's walkers come first, not "I don't want a second dog"."""
    with Memory.open(workspace) as memory:
        memory.retain(["W @Biscuit: Biscuit is our six-year-old beagle.",
                       "O @me: I don't want a second dog while Biscuit is still with us.",
                       "B @Jules: Jules suggested we get a second dog.",
                       "B @Carmen: Mum has started using a walking stick.",
                       "W @Biscuit: Callum, a student from down the road, walks Biscuit on "
                       "Tuesdays.",
                       "W @Biscuit: Femi walks Biscuit now that Callum has moved away.",
                       *OTHER], now=DAY)
        shown = top(memory, "Who has walked the dog for us?")
        assert set(shown[:2]) == {
            "Callum, a student from down the road, walks Biscuit on Tuesdays.",
            "Femi walks Biscuit now that Callum has moved away."}
        assert top(memory, "Which pets do we have?")[0] == "Biscuit is our six-year-old beagle."


def test_a_word_that_is_no_kind_names_nobody() -> None:
    """"the best" in "Priyanka, my best friend" is not a kind of thing; "projects" is never
    said of a name here."""
    from memfold.recall.sets import _narrower, _told

    assert _narrower("best") == [] and "beagle" in _narrower("dog")
    assert "beagle" in _narrower("pets")
    told = _told(_narrower("dog"))
    assert told.search("Biscuit is our six-year-old beagle.").group("before") == "Biscuit"
    assert told.search("our beagle, Biscuit, ran off").group("after") == "Biscuit"
    assert told.search("Biscuit and our beagle friends") is None
