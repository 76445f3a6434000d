"""A question whose subject is the user ("what car do I drive?", "what instrument do I
play?") and that names no one weighs a fact written only of others, which speaks of no one
in the first person ("Nomvula drives a red Suzuki Swift", "Sizwe plays keys and Marlene
plays drums"), below the user's own (`scoring._of_others`, `ranking.OTHERS_SHARE`).  A
question about someone ("what does my wife drive?", "what does Nomvula drive?") is not
asked of the user, and a fact that speaks of the user ("Pepper is our greyhound") or opens with
its verb ("Sold the Fiesta for £450", under @Car) is the user's whatever entity it is written
under: only a sentence that opens with an entity it is linked to is told of others."""

from __future__ import annotations

from pathlib import Path

from timeline import ids, retain

from memfold import Memory

NOW = "2025-12-31T09:00:00"


def test_what_i_play_is_mine_not_my_bandmates(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        mine = retain(memory, "2025-01-20", "W @me: I play the cello in the community "
                                            "orchestra.")
        theirs = retain(memory, "2025-02-20", "W @Sizwe: Sizwe plays the cello in the "
                                              "community orchestra.")
        assert ids(memory.recall("What instrument do I play?", now=NOW))[:2] == [mine, theirs]


def test_what_car_i_drive_is_not_my_wifes(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        mine = retain(memory, "2025-01-07", "W @me: I drive a white VW Polo.")
        wife = retain(memory, "2025-01-16", "W @Nomvula: Nomvula drives a red Suzuki Swift.")
        assert ids(memory.recall("What car do I drive?", now=NOW))[:2] == [mine, wife]
        # asked of her, her fact is first
        assert ids(memory.recall("What car does Nomvula drive?", now=NOW))[0] == wife


def test_a_fact_that_speaks_of_us_is_ours(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-03-03", "B @me: Took the ferry to Halifax for a dentist visit.")
        dog = retain(memory, "2025-12-20", "W @Pepper: Pepper is our brindle greyhound.")
        calum = retain(memory, "2025-12-21", "W @Calum: Calum has a brindle greyhound.")
        assert ids(memory.recall("Do I have a dog?", now=NOW))[:2] == [dog, calum]


def test_a_sentence_that_opens_with_its_verb_is_the_users(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-01-03", "B @me: Took the ferry to Halifax for a dentist visit.")
        ours = retain(memory, "2025-05-02", "B @Car: Sold the Fiesta to a scrap dealer for "
                                            "£450.")
        dana = retain(memory, "2025-05-03", "B @Dana: Dana sold the Fiesta to a scrap dealer "
                                            "for £900.")
        assert ids(memory.recall("What did we get for the Fiesta?", now=NOW))[:2] == [ours, dana]


def test_a_sentence_that_opens_with_whose_someone_is_is_theirs(workspace: Path) -> None:
    # "My mum, Gwen, lives ...", "My older sister Bernice lives ...", "Dad still drives ...":
    # the "my" is theirs; the sentence is told of them
    with Memory.open(workspace) as memory:
        mum = retain(memory, "2025-01-02", "W @Mum: My mum, Gwen, lives in Glenelg in "
                                           "Adelaide.")
        sister = retain(memory, "2025-01-03", "W @Bernice: My older sister Bernice lives in "
                                              "Brandon, Manitoba.")
        mine = retain(memory, "2025-01-04", "W @me: I live in a rented flat in Da Nang.")
        assert ids(memory.recall("Where do I live?", now=NOW))[0] == mine
        car = retain(memory, "2025-01-05", "W @Car: I drive a 2012 Toyota Avensis with 260,000 "
                                           "km on the clock.")
        dad = retain(memory, "2025-01-13", "W @Tadhg: Dad still drives his 2008 Corolla to "
                                           "Mass and to the mart.")
        assert ids(memory.recall("What was I driving back in March?", now=NOW))[:2] == [car,
                                                                                        dad]
        # asked of them, their facts come first
        assert ids(memory.recall("Where does Bernice live?", now=NOW))[0] == sister
        assert ids(memory.recall("Where does Gwen live?", now=NOW))[0] == mum


def test_a_role_opening_that_goes_on_of_us_is_ours(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-01-02", "W @me: I sing tenor in a choir.")
        ours = retain(memory, "2025-01-03", "W @Lucien: Our pianist Lucien lives in Thornbury "
                                            "and we rehearse at his place.")
        theirs = retain(memory, "2025-01-04", "W @Mia: My friend Mia rehearses at the church "
                                              "hall.")
        assert ids(memory.recall("Where do we rehearse?", now=NOW))[:2] == [ours, theirs]


def test_a_role_opening_with_the_user_beside_is_the_users(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-01-01", "W @me: I work as a nurse at Groote Schuur.")
        retain(memory, "2025-01-02", "W @Sizwe: Sizwe lives in Durban with his wife.")
        ours = retain(memory, "2025-01-03", "W @Thandi: My partner and I live in a flat in "
                                            "Observatory.")
        assert ids(memory.recall("Where do we live?", now=NOW))[0] == ours
