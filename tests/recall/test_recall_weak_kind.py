"""A question whose frame asks a kind of answer — a price, an age, a number, a time of day,
a name (`recall.answer_kind`) — is not answered by a fact that shares its topic words and
holds nothing of that kind: memory that never stated the price finds the purchase."""

from __future__ import annotations

from pathlib import Path

import pytest

from memfold.memory import Memory
from memfold.recall.answer_kind import AGE, AMOUNT, CLOCK, MONEY, NAME, kind_of
from memfold.values import RecallResult

DAY = "2025-06-01T10:00:00"
LATER = "2025-06-02T10:00:00"
FACTS = ["W @Jules: Jules, my partner, teaches geography at Cotham School.",
         "W @Biscuit: Biscuit is our six-year-old beagle.",
         "B @me: Replaced the old boiler with a Worcester Bosch combi.",
         "B @me: Bought a Garmin Forerunner 265 at the Cribbs Causeway shop.",
         "W @me: Our rent on the Easton flat is £1,450 a month.",
         "W @Milo: Milo's swimming lesson starts at 9:30 on Saturdays.",
         "W @Milo: Milo started Year 4 at Bishop Road Primary school in September.",
         "B @me: Tried the new Ethiopian restaurant on Gloucester Road and loved the injera.",
         "B @Milo: Milo's new teacher at Bishop Road Primary is Ms. Adeyemi.",
         "W @me: Packed 47 boxes for the move to Bishopston."]


@pytest.fixture
def asked_of(workspace: Path):  # type: ignore[no-untyped-def]
    Memory.init(workspace)
    memory = Memory.open(workspace)
    memory.retain(FACTS, now=DAY)

    def ask(question: str) -> RecallResult:
        return memory.recall(question, now=LATER)

    yield ask
    memory.close()


def first_with(result: RecallResult, words: str) -> bool:
    """Whether the first hit holding `words` is weak (it must be found)."""
    found = [h for h in result.hits if words in h.fact.content]
    assert found, [h.fact.content for h in result.hits]
    return found[0].weak


@pytest.mark.parametrize(("question", "kind"), [
    ("How much did the new boiler cost?", MONEY),
    ("How much was the Garmin Forerunner?", MONEY),
    ("How much do I earn?", MONEY),
    ("How old is Jules?", AGE),
    ("How many half marathons did I run?", None),
    ("How much weight has Biscuit lost?", AMOUNT),
    ("What time does Milo's school start?", CLOCK),
    ("What's the name of Nico's restaurant?", NAME),
    ("What's Milo's teacher called?", NAME),
    ("What was Mum's maiden name?", NAME),
    ("What did Hannah name her baby?", None),
    ("Where does Jules teach?", None),
    ("When is Jules's birthday?", None),
])
def test_the_kind_of_answer_is_read_from_the_question_frame(question: str,
                                                             kind: str | None) -> None:
    asked = kind_of(question)
    assert (asked.kind if asked else None) == kind


def test_a_price_never_stated_is_not_answered_by_the_purchase(asked_of) -> None:  # type: ignore[no-untyped-def]
    """The boiler and the Garmin are found by every word of the question but hold no sum;
    the rent holds one and answers."""
    assert first_with(asked_of("How much did the new boiler cost?"), "boiler")
    garmin = asked_of("How much was the Garmin Forerunner?")
    assert first_with(garmin, "Garmin") and not garmin.answered
    rent = asked_of("How much rent do we pay on the Easton flat?")
    assert not first_with(rent, "£1,450") and rent.answered


def test_an_age_never_stated_is_not_answered_by_facts_about_the_person(asked_of) -> None:  # type: ignore[no-untyped-def]
    """"How old is Jules?" asks no word but her name: her job does not say her age;
    Biscuit's fact does say his."""
    jules = asked_of("How old is Jules?")
    assert jules.hits and all(h.weak for h in jules.hits) and not jules.answered
    assert not first_with(asked_of("How old is Biscuit?"), "six-year-old")


def test_a_time_of_day_and_a_count(asked_of) -> None:  # type: ignore[no-untyped-def]
    school = asked_of("What time does Milo's school start?")
    assert first_with(school, "Bishop Road Primary")
    assert not first_with(asked_of("What time is Milo's swimming lesson?"), "9:30")
    assert not first_with(asked_of("How much did we pack for the move?"), "47 boxes")


def test_a_name_never_stated_is_not_answered_by_the_place_it_would_name(asked_of) -> None:  # type: ignore[no-untyped-def]
    """The restaurant's fact names only what the question gives (Gloucester Road); the
    teacher's fact names her."""
    restaurant = asked_of("What's the name of the Ethiopian restaurant on Gloucester Road?")
    assert first_with(restaurant, "Ethiopian")
    assert not first_with(asked_of("What's Milo's new teacher called?"), "Adeyemi")


WORDS = ["W @Jules: Jules, my partner, teaches geography at Cotham School.",
         "B @Jules: Jules marked mock papers for Cotham School all weekend.",
         "W @Milo: Milo is in Year 4 at Bishop Road Primary.",
         "B @me: Got broadband installed at the new house with Zen Internet.",
         "B @me: The internet was down all Sunday.",
         "W @Biscuit: Biscuit is our six-year-old beagle.",
         "B @me: Took Biscuit for a walk around Snuff Mills.",
         "W @me: I live in a rented two-bedroom flat in Easton, Bristol.",
         "W @me: I work as a senior UX researcher at Fernhill Health.",
         "B @me: Baked banana bread for the office."]


NAMES = [*WORDS,
         "B @me: Renewed Biscuit's pet insurance with Petplan.",
         "B @me: Bought travel insurance for the Lisbon trip.",
         "W @Car: We bought a used 2021 Kia Niro EV in blue.",
         "W @me: After the December pay review, my salary is £66,500.",
         "B @me: Our offer of £372,000 on the Egerton Road house was accepted."]


def test_a_name_of_several_words_is_matched_whole(workspace: Path) -> None:
    """"National Insurance" is one thing: "pet insurance" does not name it.  In a question
    of money the paying words only frame it: "how much did we pay for the Kia Niro?" turns
    on the Kia Niro, which no sum is said of (the salary after a pay review is no answer),
    while the house's price answers its question."""
    Memory.init(workspace)
    with Memory.open(workspace) as memory:
        memory.retain(NAMES, now=DAY)
        insurance = memory.recall("What's my National Insurance number?", now=LATER)
        niro = memory.recall("How much did we pay for the Kia Niro?", now=LATER)
        house = memory.recall("How much did we pay for the Egerton Road house?", now=LATER)
    assert first_with(insurance, "pet insurance") and not insurance.answered
    assert niro.hits and not niro.answered
    assert not first_with(house, "£372,000") and house.answered
