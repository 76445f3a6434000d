"""Who a question names by a role or a kind, and the other words a question uses for what a
fact says: a role is the user's only where a fact says so ("Carly is our realtor", not "a
realtor Sofia recommended"); "my partner" is nobody's husband but the user's; every other word
WordNet gives for a query word's first sense is searched ("boss": chief), and the past of a
verb in -y is read as that verb ("married": marry)."""

from __future__ import annotations

from pathlib import Path

from timeline import ids, retain

from memfold import Memory, lexicon

NOW = "2025-12-01T09:00:00"


def test_a_name_after_a_role_with_an_article_is_not_who_holds_it(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-06-29", "W @Sofia: Sofia Reyes is a hydrologist in Salt Lake City.")
        retain(memory, "2025-09-06", "B @me @Sofia: Looked at townhouses in Sugar House with a "
                                     "realtor Sofia recommended.")
        carly = retain(memory, "2025-09-06", "W @Carly: Carly Winter is our realtor in Salt Lake.")
        retain(memory, "2025-09-10", "B @Sofia: Sofia took me to see where she measures water "
                                     "levels.")
        assert ids(memory.recall("Who's my realtor?", now=NOW))[0] == carly


def test_my_partner_is_not_someone_elses_husband(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-02-01", "W @Tom @Naomi: Tom is Naomi's husband.")
        retain(memory, "2025-03-01", "W @Tom: Tom works as a plumber in Evanston.")
        retain(memory, "2025-03-02", "W @Tom: Tom drives a red van for work.")
        dana = retain(memory, "2025-04-01", "W @Dana: Dana, my wife, teaches chemistry.")
        result = memory.recall("What does my partner do for work?", now=NOW)
        assert "tom" not in result.entities
        assert ids(result)[0] == dana


def test_every_word_for_the_same_thing_is_searched(workspace: Path) -> None:
    # boss: manager, supervisor, line manager, foreman, chief, ... -- the fifth is found too
    with Memory.open(workspace) as memory:
        retain(memory, "2025-01-05", "W @me: I fly the 737 out of Salt Lake City.")
        retain(memory, "2025-01-06", "B @me: Dreamt that my old boss from the bakery called.")
        greg = retain(memory, "2025-08-04", "W @Greg: Greg Almeida is the chief pilot of the "
                                            "Salt Lake City base.")
        retain(memory, "2025-08-05", "B @me: Flew Salt Lake City to Anchorage and back.")
        assert greg in ids(memory.recall("Who's my boss?", now=NOW))


def test_the_past_of_a_verb_in_y_is_that_verb() -> None:
    assert "marry" in lexicon.lemmas("married")
    assert "marri" not in lexicon.lemmas("married")  # a eucalyptus, no verb
    assert "study" in lexicon.lemmas("studied")
    assert "eucalyptus" not in lexicon.classes("married")


def test_married_finds_a_husband(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-01-10", "W @Naomi: My sister Naomi is a public defender in Chicago.")
        retain(memory, "2025-04-05", "B @Naomi: Naomi found out the baby is a girl.")
        tom = retain(memory, "2025-08-21", "W @Tom: Tom is Naomi's husband; he teaches history "
                                           "in Evanston.")
        assert tom in ids(memory.recall("Who is Naomi married to?", now=NOW))[:3]


def test_a_medicine_wordnet_lacks_is_a_medication(workspace: Path) -> None:
    assert "statin" in lexicon.classes("rosuvastatin")
    with Memory.open(workspace) as memory:
        retain(memory, "2025-01-21", "B @me: Bloodwork came back with LDL at 178.")
        statin = retain(memory, "2025-11-04", "B @me: Dr. Kealoha started me on rosuvastatin "
                                              "10 mg.")
        retain(memory, "2025-11-05", "B @me: Walked the dog along the canal.")
        assert ids(memory.recall("Which medication did the doctor start me on?", now=NOW))[0] \
            == statin


def test_another_word_for_a_query_word_is_used_in_its_sense() -> None:
    assert "machine" not in lexicon.synonyms("car")  # an espresso machine is no car
    assert "end" not in lexicon.synonyms("goals")  # nor an end-stage a goal
    assert {"auto", "automobile"} <= set(lexicon.synonyms("car"))
    assert "chief" in lexicon.synonyms("boss")  # both are kinds of supervisor
    assert "gp" in lexicon.synonyms("doctor")  # the tables written by hand, as they are


def test_an_espresso_machine_is_not_the_car(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-10-18", "B @me: Sold the Tacoma to a guy in Grand Junction.")
        car = retain(memory, "2025-10-20", "W @me: Bought a 2024 Subaru Outback Wilderness in "
                                           "green; that's my car now.")
        retain(memory, "2025-12-03", "W @me: Bought a Breville Bambino espresso machine; a flat "
                                     "white before every trip now.")
        assert ids(memory.recall("What car do I drive?", now="2026-01-05T09:00:00"))[0] == car


def test_a_kind_told_with_now_after_it_names_the_entity(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-06-01", "W @Pickles: Ben feeds Pickles when I'm away on trips.")
        retain(memory, "2025-12-06", "W @Juniper: Juniper is our dog now; she's a heeler mix.")
        nate = retain(memory, "2025-12-11", "W @Juniper: Nate, a student, walks Juniper when "
                                            "I'm on trips.")
        retain(memory, "2025-12-12", "B @Juniper: Juniper chewed through a phone charger.")
        result = memory.recall("Who walks the dog when I'm away?", now="2026-01-05T09:00:00")
        assert "juniper" in result.entities
        assert ids(result)[0] == nate


def test_the_kind_a_question_asks_for_names_its_members(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-04-02", "W @Dr-Amato: Dr. Amato at the Washington Park Cat Clinic "
                                     "is our vet.")
        dog = retain(memory, "2025-12-06", "W @Juniper: Juniper is our dog; she's a heeler mix.")
        retain(memory, "2025-12-08", "B @Juniper: Juniper chewed through a phone charger.")
        result = memory.recall("What pet do I have at the moment?", now="2026-01-05T09:00:00")
        assert "juniper" in result.entities  # a dog is a pet, and Juniper is one
        assert ids(result)[0] == dog
        # "which dog foods": the foods are asked for, the dog only says which
        assert "juniper" not in memory.recall("Which dog foods are good?",
                                              now="2026-01-05T09:00:00").entities


def test_an_entity_named_for_its_kind_is_one(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-01-15", "B @me @Meridian-Airlines: Meridian Airlines invited me to "
                                     "an interview.")
        pay = retain(memory, "2025-07-28", "W @me @Meridian-Airlines: First-year pay at Meridian "
                                           "is $110 an hour.")
        retain(memory, "2025-07-04", "W @Dev: Dev came from flying cargo.")
        retain(memory, "2025-12-30", "O(c=0.7) @me: Next year I might learn to fly gliders.")
        result = memory.recall("Which airline do I fly for?", now="2026-01-05T09:00:00")
        assert "meridian-airlines" in result.entities
        assert ids(result)[0] == pay
        # a plural after a verb names no company
        assert "meridian-airlines" not in memory.recall(
            "Who was my boss before I changed airlines?", now="2026-01-05T09:00:00").entities


def test_what_breed_is_a_named_pet_asks_what_the_memory_says_it_is(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        told = retain(memory, "2025-12-06", "W @Juniper: Juniper is our dog now; she's a blue "
                                            "heeler mix with one floppy ear.")
        retain(memory, "2025-12-10", "W @Juniper: Juniper goes to a Saturday obedience class "
                                     "with a trainer named Maddie.")
        retain(memory, "2025-12-11", "W @Juniper: Nate, a student from Westminster College, "
                                     "walks Juniper when I'm on trips.")
        assert ids(memory.recall("What breed is Juniper?", now="2025-12-20T09:00:00"))[0] == told
