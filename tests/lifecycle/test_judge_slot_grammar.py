"""The rule judge reads a slot however the sentence is built (issue 29, tune9): the value
named first ("@Odile has been Petra's line manager"), a change done to it that did not
happen ("was not replaced"), a job begun, got or ended by its event, an organisation named
by its kind, an owner, a season, a move told by its event, a kin's school, a thing done anew
("remortgaged"), a post open and then filled — superseded when a rule reads it for sure,
else offered as a conflict, never taken."""

from __future__ import annotations

import pytest
from judge_pairs import superseded, verdicts


def test_the_value_named_before_whose_slot_it_is_reads_as_that_ones_fact() -> None:
    assert superseded("W @Petra: Petra's manager is @Yusuf.",
                      "W @Petra: @Odile has been Petra's manager since June.")


def test_a_possessive_after_a_copula_is_no_is() -> None:
    found = verdicts("W @Femi: Femi rents through @Keyline-Lettings.",
                     "W @Femi: @Harcourt-Lettings is Femi's letting agent now.")
    assert found and not any(v.supersedes for v in found), found


def test_a_change_done_to_it_that_did_not_happen_supersedes_nothing() -> None:
    assert not superseded("W @Imre: Imre is the secretary of the chess club.",
                          "W @Imre: Imre was not replaced as secretary at the AGM.")


OFFERED = [
    # a job begun with an organisation ("a planning analyst" is no plan; "this month" no visit)
    ("W @Corinna: Corinna works for the county as a surveyor.",
     "W @Corinna: Corinna started as a planning analyst with Corvel this month."),
    # a job got, against work for an organisation named by its kind
    ("W @Dmitar: Dmitar drives for a taxi firm.",
     "W @Dmitar: Dmitar got a job on the trams with Metrolink."),
    ("W @Sunniva: Sunniva is a tester at Qualcraft.",
     "W @Sunniva: Sunniva was hired by Loomworks as QA lead."),
    ("W @Bertil: Bertil lectures at Bath.", "W @Bertil: Bertil took up a chair at Exeter."),
    ("W @Noemi: Noemi works for Dunlin Press.", "W @Noemi: Noemi is self-employed now."),
    # an owner, said as a passive and as a sale
    ("W @Larkspur-Inn: The Larkspur Inn is owned by the Pryce family.",
     "W @Larkspur-Inn: The Larkspur Inn was bought by Tollgate Taverns in March."),
    # a season said to hold now
    ("W @Harrow-RFC: Harrow RFC trains at Mill Lane.",
     "W @Harrow-RFC: For the new season, Harrow RFC's training sessions are held at Vale "
     "Park."),
    # a move told by its event
    ("W @Ines: Ines lives in Braga.",
     "W @Ines: After the move, Ines's flat in Porto is small but bright."),
    ("W @Ines: Ines lives in Sligo.", "W @Ines: Ines made the leap to Galway."),
    # a kin's school, the kin named in both
    ("W @Ravi: Ravi's kids go to Hillside Primary.",
     "W @Ravi: Since January, Ravi's kids have been at Brookfield School."),
    # living with a partner somewhere is where one lives
    ("W @Stellan: Stellan lives in Uppsala.",
     "W @Stellan: Stellan now lives with his girlfriend in Lund."),
    # the value named first, acting on the entity, against the same verb in the passive
    ("W @Idunn: @Northlight-Agency represents Idunn.",
     "W @Idunn: Idunn is represented by @Bluefin-Talent since May."),
    # an agent's fragment, the value acting on the entity in the past, a new value in apposition
    ("W @Hedda: Hedda works at Marlow Labs.", "W @Hedda: Now at Quillfeather."),
    ("W @Hedda: Hedda works at @Marlow-Labs.",
     "W @Hedda: @Quillfeather hired Hedda as a data engineer."),
    ("W @Hedda: Hedda works at @Marlow-Labs.",
     "W @Hedda: Hedda's new employer, @Quillfeather, pays better."),
    # a thing done anew with another value
    ("W @Tilde: Tilde's mortgage is with @Harbour-Mutual.",
     "W @Tilde: Tilde remortgaged with @Ferncliff-Bank in May."),
]


@pytest.mark.parametrize(("old", "new"), OFFERED)
def test_a_change_told_another_way_is_at_least_offered(old: str, new: str) -> None:
    assert verdicts(old, new), (old, new)


def test_a_place_that_is_home_for_someone_is_where_they_live() -> None:
    assert superseded("W @Wiebe: Wiebe lives in Groningen.",
                      "W @Wiebe: Zwolle is home now for Wiebe.")
    assert not verdicts("W @Wiebe: Wiebe lives in Groningen.",
                        "W @Wiebe: Zwolle is home to a big music venue.")


def test_a_job_ended_by_handing_in_ones_notice() -> None:
    assert superseded("W @Aurel: Aurel works at Brightwell.",
                      "W @Aurel: Aurel handed in his notice at Brightwell and is now at Ostara.")


def test_let_go_by_an_employer_ends_the_job_and_a_sales_rep_at_one_is_a_role() -> None:
    assert superseded("W @Tobiah: Tobiah is a sales rep at Hallam Tools.",
                      "W @Tobiah: Hallam Tools let Tobiah go in May; he drives for Uber now.")
    assert not superseded("W @Tobiah: Tobiah works at Hallam Tools.",
                          "W @Tobiah: Mum let Tobiah go to the Hallam Tools open day.")


def test_a_family_home_is_ones_own_home() -> None:
    found = verdicts("W @Kaveh: Kaveh lives in Tabriz.",
                     "W @Kaveh: Kaveh's family home is in Rasht these days.")
    assert found and "someone else" not in found[0].reason, found


def test_a_post_open_then_filled_is_a_status_reached() -> None:
    assert superseded("W @Quayside-Deli: Quayside Deli is hiring two cooks.",
                      "W @Quayside-Deli: Quayside Deli filled both cook posts.")


NOT_OFFERED = [
    # a purchase is no change of who owns the older thing
    ("W @Lars: Lars owns a Honda.", "W @Lars: Lars bought a new bike."),
    # "returned" is no "turned" done anew
    ("W @Omar: Omar turned 40 in March.", "W @Omar: Omar returned to Leeds."),
    # a place that is home to someone's kin is not their home
    ("W @Wiebe: Wiebe lives in Groningen.", "W @Wiebe: Zwolle is home to Wiebe's grandparents."),
    # notice handed in, then taken back
    ("W @Aurel: Aurel works at Brightwell.",
     "W @Aurel: Aurel handed in his notice at Brightwell but they talked him into staying."),
    # "a planning" names work only after an article: a plan is still a plan
    ("W @Corinna: Corinna works for the county as a surveyor.",
     "W @Corinna: Corinna is planning to join Corvel."),
]


@pytest.mark.parametrize(("old", "new"), NOT_OFFERED)
def test_another_thing_or_a_plan_is_not_taken(old: str, new: str) -> None:
    assert not any(v.supersedes or v.reason.endswith(("holds now", "done anew"))
                   for v in verdicts(old, new)), verdicts(old, new)
