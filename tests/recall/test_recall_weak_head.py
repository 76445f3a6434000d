"""A question that names the thing it asks for — "which *gym*", "Dana's blood *type*" — is
not answered by a fact that holds its other words but not that thing (`recall.head_noun`,
`recall.weak`): "Omar joined a cycling club" does not say which gym."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_recall_weak_kind import first_with

from memfold.memory import Memory
from memfold.recall.head_noun import head_of
from memfold.recall.weak import FRAME_WORDS
from memfold.values import RecallResult

DAY = "2025-06-01T10:00:00"
LATER = "2025-06-02T10:00:00"
FACTS = ["B @Omar: Omar joined a cycling club instead of running over winter.",
         "B @Omar: Omar ran the Yorkshire Marathon in York.",
         "B @Dana: Dana gave blood at the donor centre for the tenth time.",
         "W @Gus: Gus is our Horsfield tortoise; he sleeps in the fridge over winter.",
         "W @Isla: Isla has swimming lessons on Saturday mornings.",
         "W @me: Our car is a grey Skoda Octavia estate.",
         "B @me: Took the car in for its first service.",
         "B @Rhys: Rhys cooked a goose with red cabbage."]


@pytest.fixture
def asked_of(workspace: Path):  # type: ignore[no-untyped-def]
    Memory.init(workspace)
    memory = Memory.open(workspace)
    memory.retain(FACTS, now=DAY)

    def ask(question: str, *more: str) -> RecallResult:
        if more:
            memory.retain(list(more), now=DAY)
        return memory.recall(question, now=LATER)

    yield ask
    memory.close()


@pytest.mark.parametrize(("question", "head"), [
    ("Which gym did Omar join?", ("gym",)),
    ("What's Dana's blood type?", ("blood", "type")),
    ("Who is our broadband provider?", ("provider",)),
    ("What kind of animal is Gus?", ("animal",)),
    ("What's the name of Rhys's girlfriend?", ("girlfriend",)),
    ("What's the registration number of the Octavia?", ("registration", "number")),
    ("What was Omar's marathon time?", ("marathon", "time")),
    ("What's Isla's class called this year?", ()),
    ("What is the Tidewater team building?", ()),
    ("What's my take on the redesign?", ()),
    ("What's my salary as head nurse?", ("salary",)),
    ("Which group took over my practice?", ("group",)),
    ("What time does Isla's swimming start?", ()),
    ("What was wrong with my wrist?", ()),
    ("What is Giulia doing her PhD in?", ()),
    ("What did Dana get me for my birthday?", ()),
    ("When did I last see a dentist?", ()),
    ("How much did the Skoda cost?", ()),
])
def test_the_head_is_the_last_word_of_the_asked_phrase(question: str,
                                                       head: tuple[str, ...]) -> None:
    assert head_of(question, ("giulia", "dana", "omar", "rhys", "isla"), FRAME_WORDS) == head


def test_a_fact_without_the_thing_asked_is_weak(asked_of) -> None:  # type: ignore[no-untyped-def]
    """Omar's club shares "join" and names Omar; it is no gym.  Dana's giving blood shares
    "blood"; it is no blood type."""
    gym = asked_of("Which gym did Omar join?")
    assert first_with(gym, "cycling club") and not gym.answered
    blood = asked_of("What's Dana's blood type?")
    assert first_with(blood, "gave blood") and not blood.answered


def test_a_fact_holding_the_thing_asked_answers(asked_of) -> None:  # type: ignore[no-untyped-def]
    """The head is held as a word, by word knowledge (a tortoise is an animal) or, for a
    frame noun, by an answer of its kind (a finishing time)."""
    assert not first_with(asked_of("What kind of animal is Gus?"), "tortoise")
    assert not first_with(asked_of("What car do we have?"), "Skoda Octavia")
    blood = asked_of("What's Dana's blood type?", "W @Dana: Dana's blood type is O negative.")
    assert not first_with(blood, "O negative") and blood.answered


def test_a_frame_noun_ending_the_head_is_held_by_an_answer_of_its_kind(asked_of) -> None:  # type: ignore[no-untyped-def]
    """"Marathon time": the race named without a time is weak, the race with one is not."""
    assert first_with(asked_of("What was Omar's marathon time?"), "Yorkshire Marathon")
    timed = asked_of("What was Omar's marathon time?",
                     "B @Omar: Omar finished the Manchester Marathon in 3:41:20.")
    assert not first_with(timed, "3:41:20") and timed.answered


def test_a_measure_asked_is_held_by_a_figure(asked_of) -> None:  # type: ignore[no-untyped-def]
    """"Interest rate": the fact gives 4.19% and says no "rate"; it answers."""
    rate = asked_of("What interest rate is our mortgage fixed at?",
                    "W @me: Our mortgage is a five-year fix at 4.19% with Nationwide.")
    assert not first_with(rate, "4.19%") and rate.answered


def test_the_head_is_held_by_a_word_the_lexicon_gives_for_it(asked_of) -> None:  # type: ignore[no-untyped-def]
    """A Kindle is held for an e-reader (a kind of e-reader: the lexicon's own table), a
    dose by a figure of milligrams."""
    kindle = asked_of("What e-reader did I get?",
                      "B @me: Got a Kindle Paperwhite for reading on night shifts.")
    assert not first_with(kindle, "Kindle") and kindle.answered
    dose = asked_of("What dose of metformin am I on?",
                    "W @me: I take metformin 500 mg twice a day.")
    assert not first_with(dose, "500 mg") and dose.answered
