"""The members of a kind a question asks for come first: the facts that tell what each
entity is ("Pepper is our three-year-old border collie", "Shelly is Owen's tortoise")
answer "which pets do we have" (`memfold.recall.members`)."""

from __future__ import annotations

from pathlib import Path

from memfold.memory import Memory
from memfold.recall.sets import _narrower, _told

FACTS = [
    ("2025-01-04", "W @Pepper: Pepper is our three-year-old border collie."),
    ("2025-01-05", "W @Shelly @Owen: Shelly is Owen's tortoise; she's about twenty."),
    ("2025-01-22", "B @Pepper: Pepper had her booster jabs at Valley Vets."),
    ("2025-02-20", "W @Pepper: Pepper eats grain-free kibble."),
    ("2025-04-28", "B @Pepper: Pepper had a grass seed removed from her paw at the vets."),
    ("2025-06-25", "W @Pepper: Pepper switched to a raw food diet."),
    ("2025-08-12", "B @Shelly: Shelly went missing in the garden for two days."),
    ("2025-09-22", "B @Pepper: Pepper came second in agility at the dog show."),
    ("2025-11-26", "B @Pepper: Pepper had a tooth removed under anaesthetic."),
]


def remember(memory: Memory) -> None:
    for day, fact in FACTS:
        memory.retain([fact], now=f"{day}T10:00:00")


def test_the_facts_that_tell_the_members_come_first(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        remember(memory)
        shown = [h.fact.content for h in memory.recall(
            "Which pets do we have?", now="2025-12-01T09:00:00", k=5).hits]
    assert set(shown[:2]) == {"Pepper is our three-year-old border collie.",
                              "Shelly is Owen's tortoise; she's about twenty."}


def test_a_question_for_a_person_keeps_its_order(workspace: Path) -> None:
    """"When did the dog go to the show" asks for no kind: the fact that Pepper is a collie
    is not lifted above the show."""
    with Memory.open(workspace) as memory:
        remember(memory)
        shown = [h.fact.content for h in memory.recall(
            "When did the dog go to the show?", now="2025-12-01T09:00:00", k=3).hits]
    assert shown[0] == "Pepper came second in agility at the dog show."


def test_a_possessive_name_tells_a_kind_and_a_broad_kind_reaches_its_first_kinds() -> None:
    assert _told(["tortoise"]).search("Shelly is Owen's tortoise; she's about twenty.")
    narrower = _narrower("animals")
    assert "tortoise" in narrower and "dog" in narrower


def test_a_breed_wordnet_does_not_know_is_a_kind_of_cat(workspace: Path) -> None:
    """"What breed is our cat?" finds "Pickle is our four-year-old Maine Coon": the breed
    is a kind of cat in the hand-written kinds, a word of two searched as a phrase."""
    with Memory.open(workspace) as memory:
        memory.retain(["W @Pickle: Pickle is our four-year-old Maine Coon."],
                      now="2025-01-04T10:00:00")
        memory.retain(["B @Pickle: Pickle had two teeth removed at Moorside Vets."],
                      now="2025-03-04T10:00:00")
        memory.retain(["B @me: Bought a new cat flap for the back door."],
                      now="2025-03-05T10:00:00")
        shown = [h.fact.content for h in memory.recall(
            "What breed is our cat?", now="2025-04-01T09:00:00", k=5).hits]
    assert shown and shown[0] == "Pickle is our four-year-old Maine Coon."


def test_a_home_loan_is_a_mortgage(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        memory.retain(["W @me: Our mortgage with Halifax is fixed at 4.3% for five years."],
                      now="2025-01-04T10:00:00")
        memory.retain(["B @me: Our offer on a terraced house was accepted."],
                      now="2025-01-05T10:00:00")
        shown = [h.fact.content for h in memory.recall(
            "What rate is our home loan locked in at?", now="2025-04-01T09:00:00", k=5).hits]
    assert shown and shown[0].startswith("Our mortgage with Halifax")


def test_a_10k_is_a_race_and_what_a_pet_eats_is_what_it_is_fed(workspace: Path) -> None:
    """Kinds and words that hold digits or another word: "which races" finds the 10K (the
    kinds of an asked kind are searched when they are letters and digits), "fed" finds
    what the dog eats (everyday.tsv)."""
    with Memory.open(workspace) as memory:
        for n, fact in enumerate([
                "W @Pepper: Pepper is our three-year-old border collie.",
                "B @me: Ran the Swansea Bay 10K in 50 minutes.",
                "B @me: Completed on the house; moving day is 13 December.",
                "W @Pepper: Pepper eats grain-free kibble.",
                "B @Pepper: Pepper came second in agility at the dog show.",
                "B @me: Ran the Cardiff Half Marathon in 1:58:40."]):
            memory.retain([fact], now=f"2025-0{n + 1}-04T10:00:00")
        races = [h.fact.content for h in memory.recall(
            "Which races have I done this year?", now="2025-12-01T09:00:00", k=3).hits]
        fed = [h.fact.content for h in memory.recall(
            "What has Pepper been fed?", now="2025-12-01T09:00:00", k=3).hits]
    assert "Ran the Swansea Bay 10K in 50 minutes." in races[:2]
    assert fed[0] == "Pepper eats grain-free kibble."


def test_children_are_sons_and_daughters(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        for n, fact in enumerate([
                "W @Dev: Dev, my running mate, has a daughter, Anika, who's three.",
                "B @me: Read a book about raising confident kids.",
                "W @Sian: Sian lives in Penarth.",
                "B @me: Bought a new rug for the hall."]):
            memory.retain([fact], now=f"2025-0{n + 1}-04T10:00:00")
        shown = [h.fact.content for h in memory.recall(
            "Who do I know with children?", now="2025-12-01T09:00:00", k=3).hits]
    assert shown[0].startswith("Dev, my running mate")


def test_what_breed_asks_for_the_fact_that_tells_what_the_pet_is(workspace: Path) -> None:
    """"What breed is our cat": the cat is Pickle (a Maine Coon is a kind of cat), every
    fact about Pickle is about the cat, and the one that tells its breed comes first
    (`members.KIND_OF`)."""
    with Memory.open(workspace) as memory:
        for n, fact in enumerate([
                "W @Pickle: Pickle is our four-year-old Maine Coon.",
                "W @Pickle: Pickle's vet is Moorside Vets in Meanwood.",
                "W @Pickle: Pickle eats Lily's Kitchen chicken pâté."]):
            memory.retain([fact], now=f"2025-0{n + 1}-04T10:00:00")
        shown = [h.fact.content for h in memory.recall(
            "What breed is our cat?", now="2025-12-01T09:00:00", k=3).hits]
    assert shown[0] == "Pickle is our four-year-old Maine Coon."


def test_a_bid_is_an_offer(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        memory.retain(["B @me: Put in an offer of £340,000 on the Fulford semi; it was rejected."],
                      now="2025-03-04T10:00:00")
        memory.retain(["B @me: Viewed three houses in York."], now="2025-03-05T10:00:00")
        memory.retain(["W @me: I live in a rented house in Leeds."], now="2025-03-06T10:00:00")
        shown = [h.fact.content for h in memory.recall(
            "Which houses did we bid on?", now="2025-06-01T09:00:00", k=3).hits]
    assert any(s.startswith("Put in an offer") for s in shown)
