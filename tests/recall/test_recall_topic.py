"""Recall weighs the words a question turns on above the words that only frame it
(`recall.topic`), and a view stays a view beside news of the thing viewed
(`ranking.view_kept`).  Each case retains typed facts through the public API, day by day,
and asks in plain words."""

from __future__ import annotations

from pathlib import Path

from timeline import retain, top

from memfold import lexicon
from memfold.memory import Memory

NOW = "2025-09-01T09:00:00"
YEAR = [
    ("2025-03-01", "W @me: I work three days a week from the Leith office."),
    ("2025-03-02", "O(c=0.7) @me: The new tram feels slow in the mornings."),
    ("2025-03-03", "W @me: My sister Ines lives in Porto."),
    ("2025-03-04", "B @me: Renewed the car insurance with Direct Line."),
    ("2025-03-05", "W @me: I use Lightroom to edit my photos."),
    ("2025-03-06", "O(c=0.7) @me: The office coffee feels stale by noon."),
    ("2025-03-07", "B @me: Descaled the kettle with citric acid."),
    ("2025-03-08", "W @me: My kettle is a cream Smeg with a temperature dial."),
    ("2025-03-09", "B @me: The office kettle broke again."),
    ("2025-03-16", "O(c=0.8) @me: Rock climbing is the best way I know to clear my head."),
    ("2025-03-23", "B @me: Went climbing at the quarry with the club."),
    ("2025-04-06", "O(c=0.8) @me: Sea swimming is the most peaceful thing I've ever done."),
    ("2025-05-11", "B @me: Bought a used sea swimming wetsuit, black, from a woman in "
                   "Musselburgh."),
    ("2025-05-11", "W @me: I own a black Zone3 sea swimming wetsuit."),
]


def first(workspace: Path, question: str) -> str:
    """The content of the best hit for `question`, asked at NOW of a memory holding YEAR."""
    with Memory.open(workspace) as memory:
        for day, bullet in YEAR:
            retain(memory, day, bullet)
        return memory.recall(question, now=NOW).hits[0].fact.content


def test_a_frame_word_does_not_outrank_the_topic(workspace: Path) -> None:
    """"How do I feel about climbing?": the view of climbing, not every fact that "feels"
    (and not the outing, newer than the view)."""
    assert first(workspace, "How do I feel about climbing?").startswith("Rock climbing")


def test_a_light_verb_does_not_outrank_the_thing_asked(workspace: Path) -> None:
    """"What kettle do I use?": a fact about the kettle, not the rarer "use" of Lightroom."""
    assert "kettle" in first(workspace, "What kettle do I use?")


def test_a_view_is_not_outdated_by_news_of_the_thing_viewed(workspace: Path) -> None:
    """An opinion, then a purchase and a fact of owning the thing: "how do I feel about" it
    is still answered by the opinion, not by the newer facts."""
    assert first(workspace, "How do I feel about sea swimming?").startswith("Sea swimming")


def test_a_word_the_memory_never_says_is_asked_by_its_kinds(workspace: Path) -> None:
    """"Do we have a dog?" of a memory that only ever says "greyhound": the dog's kinds are
    searched deep (a greyhound is far down WordNet's list of dogs)."""
    with Memory.open(workspace) as memory:
        for day, bullet in YEAR:
            retain(memory, day, bullet)
        hound = retain(memory, "2025-06-01", "W @Juniper: Juniper is our retired greyhound.")
        assert top(memory.recall("Do we have a dog?", now=NOW)) == hound


def test_dr_is_a_doctor(workspace: Path) -> None:
    """"Dr." before a name says doctor: "what did the doctor tell me" finds Dr. Patel's
    advice above the vet's."""
    with Memory.open(workspace) as memory:
        for day, bullet in YEAR:
            retain(memory, day, bullet)
        retain(memory, "2025-06-02", "B @me: The vet said Juniper's teeth need a clean.")
        advice = retain(memory, "2025-06-03", "B @Dr-Patel: Dr. Patel told me to rest the "
                                              "ankle for two weeks.")
        assert top(memory.recall("What did the doctor tell me?", now=NOW)) == advice


def test_a_kind_inside_a_name_is_not_the_thing(workspace: Path) -> None:
    """Searched deep, "lab" is a kind of dog, but "Climbing Lab" is a gym: a memory without
    a dog answers "do we have a dog?" with nothing found for it."""
    with Memory.open(workspace) as memory:
        for day, bullet in YEAR:
            retain(memory, day, bullet)
        retain(memory, "2025-06-04", "B @me: Topped my first V6 at Climbing Lab.")
        hits = memory.recall("Do we have a dog?", now=NOW).hits
        assert not any("dog" in h.why for h in hits)


def test_an_irregular_form_matches_as_the_word_does(workspace: Path) -> None:
    """"Which knives have I owned?": "knife" is the word asked, in its singular (the index's
    stemmer folds "knives" to "knive"), and matches as fully as "own" does in "I own a
    tent"; a derived word (medical: medicine) is no inflection."""
    with Memory.open(workspace) as memory:
        for day, bullet in YEAR:
            retain(memory, day, bullet)
        retain(memory, "2025-06-05", "W @me: I own a four-person tent.")
        knife = retain(memory, "2025-06-06", "W @me: My everyday knife is a Global G-2.")
        hits = memory.recall("Which knives have I owned?", now=NOW).hits
        [held] = [h for h in hits if h.fact.id == knife]
        assert held.score == max(h.score for h in hits)
    assert lexicon.inflections("knives") == ("knife",)
    assert lexicon.inflections("buy") == ("bought",)
    assert "medicine" not in lexicon.inflections("medical")

