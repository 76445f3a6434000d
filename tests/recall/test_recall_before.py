"""A question about what held before a change ("where did I live before Nairobi?", "what
phone did I have before the Samsung?") is asked without the change's words, as of the day
before the fact that tells of the change (`recall.before`): the older state comes first,
although the newer one holds the question's every word."""

from __future__ import annotations

from pathlib import Path

from timeline import ids, retain, retain_others

from memfold import Memory

NOW = "2025-12-01T09:00:00"
# other facts of the year (`timeline.retain_others`)
OTHERS = ("B @me: Ran the Parkrun in 27 minutes.", "W @Kevo: Kevo studies medicine at Moi.",
          "O @me: Tilapia at Dunga Beach is the best fish I've had.",
          "B @Achieng: Achieng flew to Kigali for a job interview.",
          "W @me: My bike is a green Raleigh.", "B @me: Fixed the kitchen tap myself.")


def test_where_i_lived_before_a_place(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2025-01-01", "W @me: I live in a one-bedroom flat in Milimani, "
                                           "Nakuru.")
        new = retain(memory, "2025-08-16", "W @me: I've moved to Nairobi; I live in the "
                                           "Kilimani flat now.")
        retain(memory, "2025-11-22", "O(c=0.8) @me: Nairobi is a better city to live in than "
                                     "Nakuru.")
        result = memory.recall("Where did I live before Nairobi?", now=NOW)
        assert ids(result)[0] == old
        assert new in ids(result)
        assert any(f"before ^{new}" in note for note in result.notes)
        # asked without "before", the newer fact answers
        assert ids(memory.recall("Where did I live in September?", now=NOW))[0] == new


def test_the_phone_before_the_samsung(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        first = retain(memory, "2025-01-04", "W @Phone: My phone is a Tecno Camon 20.")
        retain(memory, "2025-09-13", "W @Phone: My phone is a Samsung Galaxy A55.")
        retain(memory, "2025-11-09", "B @Phone: Dropped the Galaxy A55 and cracked the "
                                     "phone's screen.")
        assert ids(memory.recall("What phone did I have before the Samsung?", now=NOW))[0] \
            == first


def test_a_change_of_price_is_found_by_whose_price_it_is(workspace: Path) -> None:
    # two prices went up: the question's other words say whose
    with Memory.open(workspace) as memory:
        retain_others(memory, OTHERS)
        retain(memory, "2025-02-01", "W @Gym: Anvil Fitness costs $16 a week.")
        old = retain(memory, "2025-06-09", "W @Broadband: We've Starlink at the new house, "
                                           "€75 a month.")
        retain(memory, "2025-07-01", "W @Gym: Anvil Fitness put the price up to $19.95 a "
                                     "week.")
        retain(memory, "2025-11-26", "W @Broadband: Starlink has put the price up to €85 a "
                                     "month.")
        assert ids(memory.recall("What did Starlink cost before the price went up?",
                                 now=NOW))[0] == old


def test_what_is_not_read_as_before_a_change(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-01-01", "W @me: I live in Nakuru.")
        retain(memory, "2025-08-16", "W @me: I've moved to Nairobi.")
        for question in ("Did I get the cat before or after Nairobi?",  # an order
                         "What do I need to sort out before Nairobi?",  # in the present
                         "What happened before Mombasa?"):  # no fact tells of it
            result = memory.recall(question, now=NOW)
            assert not any(note.startswith("before ") for note in result.notes), question


def test_what_held_when_something_was_so(workspace: Path) -> None:
    # "when I lived in Barranco": the time from the clause's fact to its replacement
    with Memory.open(workspace) as memory:
        retain_others(memory, OTHERS)
        retain(memory, "2025-01-02", "W @me: I live in a flat in Barranco, Lima.")
        bill = retain(memory, "2025-02-06", "W @me: My electricity bill in Barranco is about "
                                            "S/ 120 a month.")
        retain(memory, "2025-07-01", "W @me: I've moved from Barranco to a house in "
                                     "Miraflores.")
        retain(memory, "2025-09-29", "W @me: My electricity bill in Miraflores is around "
                                     "S/ 210 a month.")
        result = memory.recall("How much was my electricity bill when I lived in Barranco?",
                               now=NOW)
        assert ids(result)[0] == bill
        assert any(note.startswith("when ") for note in result.notes)


def test_what_held_when_something_happened(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain_others(memory, OTHERS)
        retain(memory, "2025-01-10", "W @me: My home internet is Safaricom Home Fibre at 8 Mbps.")
        retain(memory, "2025-08-16", "B @me: Moved into the Kilimani flat in Nairobi.")
        first = retain(memory, "2025-08-18", "W @me: Home internet in Kilimani is Zuku fibre, "
                                             "30 Mbps.")
        retain(memory, "2025-11-05", "W @me: Switched home internet to Safaricom Home Fibre "
                                     "at 40 Mbps.")
        assert ids(memory.recall("What internet did I have when I first moved to Kilimani?",
                                 now=NOW))[0] == first
        # asked when, the clause is what is asked: no time read from it
        result = memory.recall("When did I move to Kilimani?", now=NOW)
        assert not any(note.startswith("when ") for note in result.notes)
