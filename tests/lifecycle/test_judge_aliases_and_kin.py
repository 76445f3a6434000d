"""Shapes of real changes the rule judge read wrongly or not at all (issue 29): an acronym
for the name the older fact spells out, "is seeing <name>", a child's school changed, "X
mentors Y now", a role taken over, a birth — and the non-changes beside them."""

from __future__ import annotations

import pytest
from judge_pairs import superseded, verdicts

CHANGES = [
    ("W @Brann: Brann lives in Los Angeles.", "W @Brann: Brann moved from LA to Denver."),
    ("W @Lucan: Lucan lives in Washington, D.C.", "W @Lucan: Lucan moved from DC to Baltimore."),
    ("W @Idris: Idris lives in New York City.", "W @Idris: Idris left NYC for Philadelphia."),
    ("W @Oonagh-Team: Oonagh's team hosts its services on Amazon Web Services.",
     "W @Oonagh-Team: Oonagh's team left AWS for Azure in the autumn."),
    ("W @Fennimore: Fennimore is single.", "W @Fennimore: Fennimore is seeing Arabella."),
    ("W @Magda: Magda is in a relationship with Kasper.",
     "W @Magda: Magda is seeing Tobiasz now."),
    ("W @Priyamvada: Priyamvada's daughter attends Little Acorns nursery.",
     "W @Priyamvada: Priyamvada's daughter started at Elmhurst Primary in September."),
    ("W @Filippa: Filippa's son Teo attends Westbrook Primary.",
     "W @Filippa: Teo started at Cedar Hill Primary after the move."),
    ("W @Casimir: Casimir's mentor is @Gwen.",
     "W @Casimir: @Ikenna mentors Casimir now that Gwen has left."),
    ("W @Pip-Team: @Adaeze is the Pip team's tech lead.",
     "W @Pip-Team: @Rohan took over as tech lead of the Pip team."),
    ("W @Azilis: Azilis is expecting her first child.",
     "W @Azilis: Azilis gave birth to a baby boy, Theo."),
    # a relative's move, whatever the relative: a sister's, a fiancée's, a neighbour's
    ("W @Caspian: Caspian's fiancée lives in York.",
     "W @Caspian: Caspian's fiancée moved to Leeds."),
    ("W @Caspian: Caspian's neighbour lives in York.",
     "W @Caspian: Caspian's neighbour moved to Leeds."),
]


@pytest.mark.parametrize(("old", "new"), CHANGES)
def test_the_change_is_read(old: str, new: str) -> None:
    assert superseded(old, new), verdicts(old, new)


KEPT = [
    # the same place by its short name: no move
    ("W @Brann: Brann lives in Los Angeles.", "W @Brann: Brann lives in LA now."),
    # seeing a doctor is no relationship
    ("W @Oddny: Oddny is single.", "W @Oddny: Oddny is seeing Dr. Lund about her knee."),
    # two people's managers at one company; someone else's kin
    ("W @Kenna: Kenna's manager at @Blue-Ferro is Orrin.",
     "W @Tobiah: Tobiah's manager at @Blue-Ferro is Selwyn."),
    ("W @Caspian: Caspian's sister lives in York.",
     "W @Caspian: Caspian's brother moved to Leeds."),
    ("W @Idunn: Idunn works at Spotify.",
     "W @Idunn: Idunn's husband just started a job at Klarna."),
    # a move given up
    ("W @Kimber-Site: Kimber's site is hosted on Netlify.",
     "W @Kimber-Site: The move of Kimber's site to Cloudflare Pages was abandoned."),
    ("W @Pip-Team: @Adaeze is the Pip team's tech lead.",
     "W @Pip-Team: @Rohan is the Pip team's designer."),
]


@pytest.mark.parametrize(("old", "new"), KEPT)
def test_no_change_is_taken(old: str, new: str) -> None:
    assert not superseded(old, new), verdicts(old, new)


def test_the_same_someone_news_is_the_same_subject() -> None:
    assert superseded("W @Caspian: Caspian's sister lives in York.",
                      "W @Caspian: Caspian's sister moved to Leeds.")


OFFERED = [
    ("W @Ottavio: Ottavio doesn't own a car.",
     "W @Ottavio: Ottavio bought a used Skoda Octavia in May."),
    ("W @Cosima: Cosima has no pets.", "W @Cosima: Cosima adopted a greyhound called Juniper."),
    ("W @Jonas: Jonas has no children.",
     "W @Jonas: Jonas's daughter Lena started primary school this September."),
    ("O @Ludovica: Ludovica likes working late at night.",
     "O @Ludovica: Ludovica is an early riser these days and does her best work before 8am."),
    ("W @Gideon: Gideon works at Saltmarsh Analytics.",
     "W @Gideon: Gideon is at Kiteworks these days."),
    ("W @Ysolde: Ysolde is single.", "W @Ysolde: Ysolde's girlfriend Marta moved in with her."),
]


@pytest.mark.parametrize(("old", "new"), OFFERED)
def test_a_change_said_by_its_kind_is_offered_not_taken(old: str, new: str) -> None:
    found = verdicts(old, new)
    assert found and not any(v.supersedes for v in found), found


NOT_OFFERED = [
    ("W @Jonas: Jonas has no car.", "W @Jonas: Jonas's daughter bought a Skoda."),
    ("W @Ysolde: Ysolde is single.", "W @Ysolde: Ysolde's sister Marta moved in with her."),
    ("W @Gideon: Gideon works at Saltmarsh Analytics.",
     "W @Gideon: Gideon is at Heathrow for a conference."),
]


@pytest.mark.parametrize(("old", "new"), NOT_OFFERED)
def test_someone_elses_thing_or_a_visit_is_not_offered(old: str, new: str) -> None:
    assert not verdicts(old, new)


def test_a_place_named_first_is_the_home_not_a_verb() -> None:
    assert superseded("W @Bo: Bo lives in Leeds.", "W @Bo: Queens Park is Bo's home now.")
    assert superseded("W @Bo: Bo lives in Leeds.", "W @Bo: Regents Park is where Bo lives now.")


def test_a_change_of_club_does_not_retire_the_activity() -> None:
    old = "S @Hana: Hana plays chess at the library on Wednesdays."
    new = "W @Hana: Hana moved from the chess club to the bridge club."
    assert not superseded(old, new)
    assert superseded("W @Hana: Hana is in the chess club.", new)


def test_reopened_ends_repairs_but_restates_open() -> None:
    assert superseded("W @Elm-Bridge: The Elm Street bridge is closed for repairs.",
                      "W @Elm-Bridge: The Elm Street bridge reopened to traffic on Monday.")
    assert not superseded("W @Quill-Bug: Bug QL-77 in the export screen is open.",
                          "W @Quill-Bug: QL-77 was reopened after a regression.")


@pytest.mark.parametrize("new", [
    "W @Ingrid: Ingrid now rents in Reykjavik.",
    "W @Ingrid: Ingrid has made Reykjavik her home.",
    "W @Ingrid: Ingrid resettled in Reykjavik.",
    "W @Ingrid: Ingrid's moved up to Reykjavik.",
])
def test_a_move_said_another_way_is_read(new: str) -> None:
    assert superseded("W @Ingrid: Ingrid lives in Bergen.", new)
