"""Recall over an assistant's own memory of a person (issue 30): the fact that answers first,
for the questions people ask.  Each case retains typed facts through the public API, as an
agent would, and asks in plain words."""

from __future__ import annotations

from pathlib import Path

from memfold import lexicon
from memfold.memory import Memory
from memfold.recall import ranking

DAY = "2025-06-01T10:00:00"
LATER = "2025-06-02T10:00:00"


def first(memory: Memory, query: str, now: str = LATER) -> tuple[str, str]:
    hits = memory.recall(query, now=now).hits
    assert hits, f"nothing for {query!r}"
    return hits[0].fact.content, hits[0].why


def test_neighbours_never_lift_a_fact_above_the_fact_they_neighbour(workspace: Path) -> None:
    """The only real match, doubted (c=0.3) but important (i=9), comes before the sure
    facts written beside it, which the context lifted above it."""
    with Memory.open(workspace) as memory:
        memory.retain(["W(c=0.95,i=3) @Sam: Sam enjoys peanut butter cookies.",
                       "O(c=0.3,i=9) @Sam: Sam might be allergic to peanuts.",
                       "B @Sam: Sam is investigating Bun.js as a runtime."], now=DAY)
        content, _ = first(memory, "is Sam allergic to anything")
    assert content == "Sam might be allergic to peanuts."


def test_importance_and_confidence_weigh_as_design_note_002_says() -> None:
    """Importance 8 at confidence 0.3 below importance 6 at 0.9; importance 9 above 3 at
    equal confidence (equal relevance)."""
    def weighed(confidence: float, importance: int) -> float:
        return ranking.score(1.0, kind="world", confidence=confidence, importance=importance)

    assert weighed(0.3, 8) < weighed(0.9, 6)
    assert weighed(0.9, 9) > weighed(0.9, 3)
    assert ranking.importance_weight(None) == ranking.importance_weight(5) == 1.0


def test_the_entity_named_outweighs_a_fact_sharing_a_common_word(workspace: Path) -> None:
    """"where does Kenji live": Kenji's home, not Marcus's "Lives in Warsaw"."""
    with Memory.open(workspace) as memory:
        memory.retain(["W @Marcus: Lives in Warsaw.",
                       "W @Kenji: Kenji has a flat in Osaka.",
                       "W @Kenji: Kenji works as a sound engineer.",
                       "W @Omar: Omar plays the oud."], now=DAY)
        assert first(memory, "where does Kenji live")[0] == "Kenji has a flat in Osaka."
        assert first(memory, "where does Kenji's brother live")[0].startswith("Kenji")


def test_a_form_of_the_query_word_is_found_and_named(workspace: Path) -> None:
    """"Sam allergy" finds "allergic"; a stemmed match says the word it matched."""
    with Memory.open(workspace) as memory:
        memory.retain(["W @Sam: Sam might be allergic to peanuts.",
                       "W @Sam: Sam enjoys peanut butter cookies.",
                       "W @Sam: Sam is investigating Bun.js.",
                       "B @Dana: Dana moved to Berlin in May."], now=DAY)
        content, why = first(memory, "Sam allergy")
        assert content == "Sam might be allergic to peanuts."
        assert "allergic, a form of allergy" in why
        content, why = first(memory, "Dana moving")
        assert content == "Dana moved to Berlin in May."
        assert "moving (moved)" in why


def test_kinds_and_other_words_for_a_thing_are_found(workspace: Path) -> None:
    """A fact that says what the question asks in a narrower word, from the shipped tables."""
    with Memory.open(workspace) as memory:
        memory.retain(["W @Biscuit: Biscuit is our six-year-old beagle.",
                       "B @Biscuit: Took Biscuit for a walk around the park.",
                       "W @Biscuit: Biscuit eats lamb and rice kibble.",
                       "W: Dr. Osei at Whiteladies Health Centre is my GP.",
                       "W @Priyanka: Priyanka, my best friend, is a midwife at Southmead.",
                       "W @Jules: Jules's dad lives in Plymouth.",
                       "B @Milo: Milo caught his first mackerel off the harbour wall.",
                       "B @Milo: Milo ate fish and chips on the beach.",
                       "B: Bought a Garmin Forerunner 265.",
                       "B: Bought a new kettle for the flat."], now=DAY)
        asked = {"What kind of dog is Biscuit?": "beagle, a kind of dog",
                 "Who's my family doctor?": "gp for family doctor",
                 "What does Priyanka do for a living?": "midwife, a kind of living",
                 "Which sports watch did I buy?": "garmin, a kind of watch"}
        for query, told in asked.items():
            content, why = first(memory, query)
            assert told in why, (query, content, why)
        hits = memory.recall("What fish did Milo catch?", now=LATER).hits
        assert "mackerel" in hits[0].fact.content or "mackerel" in hits[1].fact.content


def test_the_lexicon_ships_its_tables() -> None:
    assert "beagle" in lexicon.related("dogs", lexicon.KIND)
    assert "allergic" in lexicon.related("allergy", lexicon.FORM)
    assert "gp" in lexicon.related("family doctor", lexicon.SAME)
    assert lexicon.related("zzzzqqq", lexicon.KIND) == ()


def test_a_biscuit_named_as_an_entity_is_not_widened(workspace: Path) -> None:
    """A dog called Biscuit is no biscuit: a name the query gives brings no kinds."""
    with Memory.open(workspace) as memory:
        memory.retain(["W @Biscuit: Biscuit is our beagle.",
                       "B: Baked shortbread and ginger nuts for the fair."], now=DAY)
        hits = memory.recall("Biscuit", now=LATER).hits
    assert [h.fact.content for h in hits] == ["Biscuit is our beagle."]


def test_decay_orders_comparable_facts_and_a_far_better_faded_match_is_found(
        workspace: Path) -> None:
    """Design note 002's Bun.js story: the current Node.js fact above the faded Bun.js one,
    which matches no better; and a fact faded years ago that holds every word of the
    question is still found above active facts about other entities that share a word or
    two (issue 30's litware case)."""
    with Memory.open(workspace) as memory:
        memory.retain(["O(c=0.8) @litware: Decided the research paper should move to Airflow "
                       "next quarter."], now="2023-03-01T10:00:00")
        memory.retain(["W: Investigating Bun.js as a JavaScript runtime for the build."],
                      now="2025-01-01T10:00:00")
        memory.retain(["W: The build runs on Node.js 22, our JavaScript runtime."],
                      now="2025-01-02T10:00:00")
        for i in range(6):
            memory.retain([f"W @contoso: The research team reviewed paper draft {i}.",
                           f"B @fabrikam: Moving the office plants to floor {i}."],
                          now=f"2025-11-{i + 1:02d}T10:00:00")
        now = "2025-12-20T10:00:00"
        hits = memory.recall("What did litware decide about moving the research paper to "
                             "Airflow?", now=now).hits
        assert hits[0].fact.content.startswith("Decided the research paper")
        assert hits[0].status == "archived"
        hits = memory.recall("JavaScript runtime for the build", now=now).hits
        assert hits[0].fact.content.startswith("The build runs on Node.js")


def test_a_faded_fact_that_answers_better_outranks_a_fresh_weak_match(workspace: Path) -> None:
    """Decay orders facts of comparable relevance: a fact faded by months unused (archived by
    decay) that holds more of the question than a fresh fact about the same thing still
    comes first — time alone does not put a passing mention above the answer."""
    with Memory.open(workspace) as memory:
        memory.retain(["W @Car: We bought a used electric car, a blue Kia Niro."],
                      now="2025-05-06T10:00:00")
        memory.retain(["B @Car: Cleaned the car before its service."],
                      now="2025-12-04T10:00:00")
        hits = memory.recall("Which electric car did we buy?", now="2026-01-05T10:00:00").hits
        assert hits[0].status == "archived"
        assert hits[0].fact.content == "We bought a used electric car, a blue Kia Niro."


def test_a_question_about_what_held_before_sees_what_was_replaced(workspace: Path) -> None:
    """"How much was my salary before": the fact a newer one replaced answers a question
    about the past; asked in the present, the replaced fact stays left out."""
    with Memory.open(workspace) as memory:
        memory.retain(["W @me: My salary at Fernhill is £56,000 a year."],
                      now="2025-01-19T10:00:00")
        memory.retain(["W @me: After the pay review, my salary is £63,000."],
                      now="2025-07-11T10:00:00")
        old = "My salary at Fernhill is £56,000 a year."
        now = "2025-08-01T10:00:00"
        assert old not in [h.fact.content for h in memory.recall("my salary", now=now).hits]
        hits = memory.recall("What was my salary before the pay review?", now=now).hits
        assert old in [h.fact.content for h in hits]
        assert next(h for h in hits if h.fact.content == old).status == "superseded"


def test_a_question_about_what_holds_now_prefers_the_state_to_a_newer_event(
        workspace: Path) -> None:
    """"Which car do we drive?": the fact that says which car, not the newest event that
    mentions it; asked about the past, the event is not weighed down."""
    with Memory.open(workspace) as memory:
        memory.retain(["W @Car: Our car is a blue Kia Niro."], now="2025-09-03T10:00:00")
        memory.retain(["B @Car: Took the car to the car wash on Gloucester Road."],
                      now="2025-12-10T10:00:00")
        now = "2025-12-12T10:00:00"
        assert first(memory, "Which car do we drive?", now)[0] == "Our car is a blue Kia Niro."
        assert first(memory, "What did we do with the car?", now)[0].startswith("Took the car")


def test_words_that_say_now_are_not_searched() -> None:
    """"these days", "at the moment", "currently" ask what holds today: their words do not
    match "most days" or "a few minutes"; the present perfect asks about the past."""
    from datetime import date

    from memfold.recall.query import plan_query

    today = date(2026, 1, 5)
    assert plan_query("How do I get to work these days?", today=today).terms == ("work",)
    plan = plan_query("What car do we drive at the moment?", today=today)
    assert plan.terms == ("car", "drive") and not plan.history and plan.window is None
    assert "currently" not in plan_query("Where is Nico currently living?", today=today).terms
    assert plan_query("Which teams has Milo played for?", today=today).history


def test_word_knowledge_needs_the_related_word_itself(workspace: Path) -> None:
    """A fact matches through a related word only when it holds that word or an inflection
    of it: a trip is no tripe (a kind of food), "with" no Withings (a watch), and a letter
    alone ("Plan B") is no blood type."""
    with Memory.open(workspace) as memory:
        memory.retain(["B @me: Booked a trip to Rome with Jules.",
                       "W @me: Plan B is the early train.",
                       "W @me: Sam bought two beagles."], now=DAY)
        whys = {q: [h.why for h in memory.recall(q, now=LATER).hits]
                for q in ("what food do I like", "which watch do I wear",
                          "what is my blood type", "what dogs does Sam have")}
    told = " ".join(w for ws in whys.values() for w in ws)
    assert "tripe" not in told and "withings" not in told
    assert " b, " not in f" {told}" and "b for" not in told
    assert any("beagle" in w for w in whys["what dogs does Sam have"])


def test_a_role_the_memory_names_stands_for_the_person(workspace: Path) -> None:
    """"my brother" is Nico when a fact linked to Nico says "My brother Nico", and "Mum"
    Carmen when one says "My mum, Carmen": their facts answer, not the facts that only
    hold the word "brother"."""
    with Memory.open(workspace) as memory:
        memory.retain(["W @Nico: My brother Nico grew up in Leeds.",
                       "W @Carmen: My mum, Carmen, lives in Swindon.",
                       "W @Omar: Omar's brother works at a bank in Leeds."], now=DAY)
        memory.retain(["W @Nico: Nico works at a seafood restaurant in Glasgow.",
                       "B @Carmen: Carmen had her hip replaced in Swindon."], now=LATER)
        later = "2025-06-03T10:00:00"
        content, why = first(memory, "where does my brother work", later)
        assert content.startswith("Nico works") and "@Nico" in why
        content, why = first(memory, "what happened with Mum's hip", later)
    assert content == "Carmen had her hip replaced in Swindon." and "@Carmen" in why


def test_a_kind_is_one_of_its_words_first_senses() -> None:
    """A word is a kind of what its common senses are: an eight (a crew, a rare sense) is
    no kind of school; a secondary school is, and a beagle a dog."""
    assert "eight" not in lexicon.related("school", lexicon.KIND)
    assert "picnic" not in lexicon.related("work", lexicon.KIND)
    assert "secondary school" in lexicon.related("school", lexicon.KIND)
    assert "beagle" in lexicon.related("dog", lexicon.KIND)

def test_a_related_word_weighs_with_the_query_word_it_stands_for() -> None:
    """What a literal match of a query word weighs: the best match of a fact holding it,
    shared among the query words that fact holds; a word no candidate holds weighs what
    the heaviest does.  Word knowledge weighs a stand-in ("ate" for eat) with it."""
    from memfold.recall.expansion import term_weights

    held = {1: ["eat"], 2: ["fish", "lisbon"], 3: ["lisbon"]}
    match = {1: 0.75, 2: 1.0, 3: 0.4}
    assert term_weights(["eat", "fish", "lisbon", "sardine"], held, match) == {
        "eat": 0.75, "fish": 0.5, "lisbon": 0.5, "sardine": 0.75}
    assert term_weights(["eat"], {}, {}) == {"eat": 1.0}


def test_irregular_forms_come_first_among_a_words_forms() -> None:
    """The forms searched are the nearest few: a verb's irregular past ("grew", "drank"),
    which the search's stemmer cannot find, before its derivations."""
    assert lexicon.related("grow", lexicon.FORM)[:2] == ("grew", "grown")
    assert lexicon.related("drink", lexicon.FORM)[0] == "drank"


def test_a_question_no_fact_words_literally_still_reaches_the_kinds(workspace: Path) -> None:
    """No fact holds "headaches" and the question names no one: more of the word's kinds
    are searched (SEARCHED_ALONE), and the migraine facts answer, flagged as what they
    are (a kind of headache)."""
    with Memory.open(workspace) as memory:
        memory.retain(["B @me: A migraine wiped out most of Wednesday.",
                       "W @me: I cycle to the office most days."], now=DAY)
        content, why = first(memory, "who treats my headaches")
    assert content.startswith("A migraine") and "a kind of headaches" in why


def test_the_kind_a_question_asks_for_is_searched_far_down_its_kinds(
        workspace: Path) -> None:
    """"what bird did we hear": the answer is one of a bird's 400 kinds, and a woodpecker is
    far down the list, past the nearest few searched for any query word: the kinds of the
    word the question asks for (after "what"/"which") are searched, and the woodpecker is
    found, flagged as a kind of bird.  Another query word ("hear") finds another fact, so
    the search is not the one left when nothing matched."""
    with Memory.open(workspace) as memory:
        memory.retain(["B @me: A woodpecker was drumming in the garden at dawn.",
                       "W @me: We hear the trains from the bedroom at night.",
                       "B @me: Planted two apple trees in the garden."], now=DAY)
        hits = memory.recall("What bird did we hear?", now=LATER).hits
    whys = {h.fact.content: h.why for h in hits}
    assert "woodpecker, a kind of bird" in whys.get(
        "A woodpecker was drumming in the garden at dawn.", "")


def test_a_stretch_of_time_the_reader_gives_no_window_only_frames_the_question(
        workspace: Path) -> None:
    """"over the year", "next year": no window is read, and "year" is no word the answer
    turns on — the facts about the weight come before the facts that say "year"."""
    from datetime import date

    from memfold.recall.query import plan_query

    today = date(2025, 12, 20)
    assert plan_query("How has my weight changed over the year?", today=today).terms == (
        "weight", "changed")
    assert plan_query("Do I want to run a marathon next year?", today=today).terms == (
        "want", "run", "marathon")
    assert plan_query("What year did we move?", today=today).terms == ("year", "move")
    with Memory.open(workspace) as memory:
        memory.retain(["W @me: My weight is 84 kg.",
                       "B @Isla: Isla started Year 9 at Fulford School.",
                       "S @me: It was a busy year at work."], now=DAY)
        content, _ = first(memory, "How has my weight changed over the year?")
    assert content == "My weight is 84 kg."
