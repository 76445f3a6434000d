"""Supersedes the judge made on the personal years it was measured on (tune14-40) that their
writers never marked as changes: two amounts too far apart to be one quantity's values (a
loan against its monthly payment, a price in another currency, a model number against an
age), an opinion of another person, a turn to an antonym from no stated liking.  And a change
it missed: a product's alias in a fact that names no entity.  Each test beside keeps the
look-alike that is a change.  Wordings are this file's own."""

from __future__ import annotations

from pathlib import Path

import pytest
from judge_pairs import kept, superseded, verdicts

from memfold import Memory

# -- two amounts far apart ----------------------------------------------------------------------


@pytest.mark.parametrize(("old", "new"), [
    ("W @me: Truck loan approved with Westpac: $150k over 5 years at 7.1%.",
     "W @me @Kenworth: Truck payment is $2,950/month."),
    ("W @me: Bluefin otoro from Tsukiji is now ¥23,000 a kilo.",
     "W @me: Bluefin is A$110 a kilo from the Sydney fish market; we mostly use local snapper "
     "instead."),
    ("W @me: Getting to the pottery studio now: tram to Flinders Street, then a walk; 50 "
     "minutes.", "W @me: The nearest tram stop is Elwood Junction, three minutes on foot."),
    ("W @me: My soldering station is a Hakko FX-888, nine years old.",
     "W @me: The Weller 2400 soldering station cost €420."),
])
def test_two_amounts_five_times_apart_are_not_one_quantity_changed(old: str, new: str) -> None:
    assert kept(old, new)
    assert not [v for v in verdicts(old, new) if " became " in v.reason]


@pytest.mark.parametrize(("old", "new", "reason"), [
    ("W @me: My rent is $1,650 a month.", "W @me: My rent is now $1,720 a month.",
     "'1650' became '1720'"),
    ("W @me: My salary is £46.8k.", "W @me: My salary is £52,500 now.",
     "'46.8 k' became '52500'"),
    ("W @Odile: Odile's broadband is 100 Mbps.",
     "W @Odile: Odile upgraded to 1 Gbps fibre in March; her broadband is fast now.", ""),
])
def test_amounts_read_with_their_multiplier_or_another_unit_still_change(
        old: str, new: str, reason: str) -> None:
    assert superseded(old, new)
    assert [v.reason for v in verdicts(old, new) if v.supersedes][0].endswith(reason)


def test_two_units_of_one_measure_are_compared_in_one_unit() -> None:
    """"100 Mbps" and "1 Gbps" are a tenfold change of one quantity, not two quantities
    (`apart.scale_apart` reads the unit after each number); "100 Mbps" and "1 Mbps" are a
    hundred times apart in one unit."""
    from judge_pairs import fact

    from memfold.lifecycle.judge import apart
    from memfold.lifecycle.judge.readers import read

    old = read(fact("W @Odile: Odile's broadband is 100 Mbps."))
    faster = read(fact("W @Odile: Odile upgraded to 1 Gbps fibre in March."))
    slower = read(fact("W @Odile: Odile's line is 1 Mbps."))
    assert not apart.scale_apart("1", "100", faster, old)
    assert apart.scale_apart("1", "100", slower, old)


# -- opinions -----------------------------------------------------------------------------------

def test_an_opinion_of_another_person_does_not_reverse_it() -> None:
    old = "O(c=0.8) @me @Hattie: Hattie is the best shift planner we've had."
    assert kept(old, "O(c=0.6) @me @Jonas: Jonas has come around. A decent shift planner now.")
    assert superseded(old, "O(c=0.6) @me @Hattie: I've come around: Hattie is a poor shift "
                           "planner.")


def test_a_turn_to_an_antonym_needs_a_stated_liking() -> None:
    new = "O(c=0.7) @me: Don't like evenings anymore. They wreck the training plan."
    assert kept("O(c=0.6) @me: The training plan is working. Fresher in the morning.", new)
    assert superseded("O(c=0.6) @me: I love training in the morning.", new)


# -- a product's alias, no entity named -----------------------------------------------------------

def test_an_alias_finds_the_older_fact_that_names_no_entity(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = memory.retain("W: The analytics store is PostgreSQL.",
                            date="2025-01-10").facts[0]
        memory.retain("W: The analytics dashboards are built in Metabase.", date="2025-01-11")
        new = memory.retain("W: The team dropped Postgres in favour of ClickHouse.",
                            date="2025-03-02")
    assert [j.id for j in new.superseded] == [old.id]


# -- a currency written by its code ---------------------------------------------------------------

def test_an_amount_in_a_currency_code_is_money_not_a_version() -> None:
    """"AED 2" is two dirhams, not release 2 of a product called AED: a cafeteria's price is
    no older version of a brunch's."""
    assert kept("W @me: Karak chai at the cafeteria is AED 2.",
                "W @me: Karak chai at the hotel brunch was AED 25.")
    [v] = verdicts("W @me: The desert safari costs AED 250 per person.",
                   "W @me: The desert safari now costs AED 280 per person.")
    assert v.supersedes and v.reason == "money: 250 became 280"
