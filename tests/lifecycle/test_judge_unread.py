"""Changes on a slot the rule judge recognises but said in a form no rule reads — the older
value named in a fronted phrase, a passive slot with another doer, a process done, a phase
entered, someone one is seeing, a new role at another organisation of the same kind, a new
holder of a slot, a number ported, "lives there" — are offered, never taken; their look-alikes
are not offered, and a thing moved from where one lives retires nothing."""

from __future__ import annotations

import pytest
from judge_pairs import superseded, verdicts

OFFERED = [
    ("W @Ansgar: Ansgar lives in Tromsø.",
     "W @Ansgar: After eight years in Tromsø, Ansgar has made Bodø his home."),
    ("W @Pellow-Museum: Pellow Museum is run by a charitable trust.",
     "W @Pellow-Museum: Since May, Pellow Museum has been run by the borough."),
    ("W @Ottavio: Ottavio is recovering from a hip operation.",
     "W @Ottavio: Ottavio is fully recovered and cycling again."),
    ("W @Quarry-Lane: The Quarry Lane scheme is in the planning stage.",
     "W @Quarry-Lane: The Quarry Lane scheme entered construction in May."),
    ("W @Rosheen: Rosheen is single.",
     "W @Rosheen: Rosheen has been seeing a guy from Cork since the summer."),
    ("W @Ilkka: Ilkka works at Nordea Bank as a teller.",
     "W @Ilkka: Ilkka is now a mortgage adviser at Danske Bank."),
    ("W @Vilja: Vilja is represented by @Ardent-Literary.",  # a name ending in "-er"
     "W @Vilja: Vilja's new agent is @Fletcher-Talent."),
    ("W @me: My phone plan is with @Tarn-Mobile.",
     "W @me: I ported my number to @Brisk-Telecom last week."),
    ("W @Selby-Ferry: The Selby ferry is operated by Humber Lines.",  # a fronted event
     "W @Selby-Ferry: Following the takeover, the Selby ferry is operated by Ouse Marine."),
    ("W @Liesel: Liesel lives in Passau.",
     "W @Liesel: Liesel's moving van arrived in Regensburg on Friday; she lives there now."),
]


@pytest.mark.parametrize(("old", "new"), OFFERED)
def test_a_change_no_rule_reads_on_a_known_slot_is_offered(old: str, new: str) -> None:
    found = verdicts(old, new)
    assert found and not any(v.supersedes for v in found), found
    assert all(v.offer for v in found), found


NOT_OFFERED = [
    ("W @Ottavio: Ottavio is recovering from a hip operation.",
     "W @Ottavio: Ottavio is still recovering; physio twice a week."),
    ("W @Rosheen: Rosheen is single.",
     "W @Rosheen: Rosheen's brother is dating a teacher from Cork."),
    ("W @Pellow-Museum: Pellow Museum is run by a charitable trust.",
     "W @Pellow-Museum: Pellow Museum may be run by the borough if the trust folds."),
    ("W @Quarry-Lane: The Quarry Lane scheme is in the planning stage.",
     "W @Quarry-Lane: The Quarry Lane scheme might enter construction next year."),
    ("W @Ansgar: Ansgar lives in Tromsø.",
     "W @Ansgar: Ansgar lives in the Nordbyen district of Tromsø."),
    ("W @Ansgar: Ansgar lives in Tromsø.", "W @Ansgar: Ansgar's flat is in Kroken, Tromsø."),
    ("W @Rosheen: Rosheen is single.", "W @Rosheen: Rosheen is seeing Dr. Walsh about her back."),
]


@pytest.mark.parametrize(("old", "new"), NOT_OFFERED)
def test_a_state_held_still_someone_elses_news_or_a_plan_is_not_offered(
        old: str, new: str) -> None:
    assert not [v for v in verdicts(old, new) if v.offer or v.supersedes]


def test_a_thing_moved_away_from_ones_home_retires_nothing() -> None:
    assert not superseded("W @Ansgar: Ansgar lives in Tromsø.",
                          "W @Ansgar: Ansgar moved his caravan from Tromsø to a site near Alta.")
    assert superseded("W @Ansgar: Ansgar lives in Tromsø.",
                      "W @Ansgar: Ansgar moved from Tromsø to Alta.")


def test_the_entity_mentioned_as_its_own_subject_is_still_its_subject() -> None:
    assert superseded("W @Dervla: Dervla works at @Kilnworth.",
                      "W @Dervla: @Dervla joined @Brackenfield in May.")


def test_who_leads_a_group_named_in_more_words_is_weighed_on_the_group() -> None:
    found = verdicts("W @squad: @Oona leads the night shift squad.",
                     "W @squad: @Fergal leads the night shift squad now.")
    assert found and not any(v.supersedes for v in found), found


def test_whom_one_trains_with_is_a_value_not_the_subject() -> None:
    found = verdicts("W @Brannagh: Brannagh's swim coach is @Tadhg.",
                     "W @Brannagh: Brannagh trains with @Ailbhe on Mondays now.")
    assert found and all(v.offer for v in found), found


def test_a_store_kept_in_another_system_now_is_no_thing_kept() -> None:
    found = verdicts("W @Cardew-Clinic: Cardew Clinic's records are kept in EMIS.",
                     "W @Cardew-Clinic: Starting in June, Cardew Clinic keeps its records in "
                     "SystmOne.")
    assert found and all(v.offer for v in found), found
