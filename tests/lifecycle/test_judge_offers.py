"""The rule judge offers a change it cannot read for sure (same subject, the newer fact said to
hold now, a shared topic word or slot class, a value the older fact does not name) as a
conflict: left active, never retired — and offers nothing for another thing changed, a
guarded fact or an addition."""

from __future__ import annotations

import pytest
from judge_pairs import superseded, verdicts

OFFERED = [
    ("W @Gunnhild: Gunnhild works at @Northwind-Freight as a dispatcher.",
     "W @Gunnhild: Gunnhild is a dispatcher for @Corvid-Logistics now."),
    ("W @Ingram: Ingram's GP is Dr. Vance.",
     "W @Ingram: Ingram now sees Dr. Holt at the Riverside practice."),
    ("W @me: My dentist is @Dr-Farrow.", "W @me: I see @Dr-Quist for dental care now."),
    ("W @Pomona-Bakery: Pomona Bakery's flour comes from Millers of Dunmore.",
     "W @Pomona-Bakery: As of this autumn, all of Pomona's flour is milled by Stoneground."),
    ("W @Tamsin: Tamsin's garden is looked after by a gardener named Pip.",
     "W @Tamsin: Beginning this spring, Tamsin's garden is maintained by Greenleaf Services."),
    ("W @Biscotti: Our rabbit Biscotti eats Oxbow pellets.",
     "W @Biscotti: We put Biscotti on Burgess pellets."),
    ("W @Oswin: Oswin takes his coffee black.",
     "W @Oswin: Oswin has started taking oat milk in his coffee."),
    ("W @Wietske: Wietske rents a room in Utrecht.",
     "W @Wietske: Wietske got the keys to her own place in Leiden."),
    ("O @Nora: Nora prefers email for anything urgent.",
     "W @Nora: For urgent things, Nora wants a phone call now."),
]


@pytest.mark.parametrize(("old", "new"), OFFERED)
def test_a_change_the_rules_cannot_read_is_offered_not_taken(old: str, new: str) -> None:
    found = verdicts(old, new)
    assert found and not any(v.supersedes for v in found), found
    assert all(v.reason.startswith("same topic: ") for v in found)


NOT_OFFERED = [
    ("W @Jonas: Jonas lives in Prague.", "W @Jonas: Jonas moved his savings to N26."),
    ("W @Karl: Karl works at the Zurich office.",
     "W @Karl: Karl moved his desk to the quiet floor upstairs."),
    ("W @Dorian: Dorian's dog is called Biscuit.", "W @Dorian: Dorian renamed his boat Seawolf."),
    ("W @Rune: Rune speaks Norwegian and English.", "W @Rune: Rune speaks Spanish as well."),
    ("W @Osric: Osric uses Dropbox for backups.",
     "W @Osric: Osric looked at Backblaze but decided to stay on Dropbox."),
    ("W @Lysander: Lysander drives a Volvo.", "W @Lysander: Lysander's brother bought a Tesla."),
]


@pytest.mark.parametrize(("old", "new"), NOT_OFFERED)
def test_another_thing_changed_or_a_guarded_fact_is_not_offered(old: str, new: str) -> None:
    assert not [v for v in verdicts(old, new) if v.reason.endswith("holds now")]


def test_who_runs_a_project_named_before_the_colon_is_its_lead() -> None:
    assert superseded("W @Pell-Project: @Rosalind leads the Pell project.",
                      "W @Pell-Project: @Okafor runs the Pell project now.")


def test_a_word_written_only_with_ing_is_no_status_reached() -> None:
    assert not verdicts("W @Clothilde: Clothilde leads the design review each Thursday.",
                        "W @Clothilde: Clothilde leads the hiring panel for the new role.")
    assert superseded("W @Quarry-App: The Quarry app is waiting on review.",
                      "W @Quarry-App: The Quarry app was approved on Tuesday.")


@pytest.mark.parametrize(("old", "new"), [
    ("W @Priyanka: Priyanka works at @Tessellate.",
     "W @Priyanka: Priyanka designs for @Hollow-Pine now."),
    ("W @Odile: Odile's physio is @Ben-Carver.",
     "W @Odile: Odile is seeing @Maya-Lund for her knee now."),
])
def test_another_entity_named_as_the_value_now_is_offered(old: str, new: str) -> None:
    found = verdicts(old, new)
    assert found and not any(v.supersedes for v in found), found


def test_an_interim_state_then_a_final_one_without_a_shared_topic_is_offered() -> None:
    found = verdicts("W @Mirelle: Mirelle's application is under review.",
                     "W @Mirelle: The bank approved the mortgage.")
    assert [(v.supersedes, v.reason) for v in found] == [
        (False, "status: 'review' became 'approved', but the two name no topic in common")]
    # another thing sold is no status of the flat listed for sale
    assert not verdicts("W @Ulla: Ulla's flat is listed for sale.", "W @Ulla: Ulla sold her car.")


@pytest.mark.parametrize(("old", "new"), [
    ("W @Haruto: Haruto is on probation at his new job.",
     "W @Haruto: Haruto's job is permanent now."),
    ("W @Loom-App: Loom's redesign is underway.", "W @Loom-App: Loom's redesign is complete."),
])
def test_more_interim_and_final_states_are_read(old: str, new: str) -> None:
    assert superseded(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("W @Joaquin: Joaquin is engaged to Rhea.",
     "W @Joaquin: Joaquin and Rhea called off the engagement."),
    ("W @Mara: Mara is engaged to Tobi.", "W @Mara: Mara broke off her engagement to Tobi."),
    ("W @Sofia: Sofia is on the Osprey team.", "W @Sofia: Sofia is on the Falcon team now."),
])
def test_an_engagement_called_off_and_a_team_now_are_read(old: str, new: str) -> None:
    assert superseded(old, new)


def test_a_plan_called_off_is_still_no_change() -> None:
    assert not superseded("W @Mara: Mara is moving to Lyon in June.",
                          "W @Mara: Mara called off the move to Lyon.")
