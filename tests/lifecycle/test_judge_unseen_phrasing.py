"""Changes said in phrasings the rules were not first written for: passive verbs of one group
("is written in" / "is developed in", "is funded by" / "has been paid for by"), a time fronted
without a comma ("From season 4 onwards ..."), "goes out via", a new name ("reopened as",
"trades under the name"), a thing taken over from the one who held it, a diet broken, and a
move said after what was left behind.  Each is offered (or, for the move, taken); their
look-alikes are not."""

from __future__ import annotations

import pytest
from judge_pairs import superseded, verdicts

OFFERED = [
    ("W @Ferncombe-App: The Ferncombe app is written in Swift.",
     "W @Ferncombe-App: Since the redesign, the Ferncombe app is developed in React Native."),
    ("W @Halden-Choir: The Halden choir is funded by the arts council.",
     "W @Halden-Choir: Since April the Halden choir has been paid for by a local brewery."),
    ("W @Marlow-Podcast: The Marlow podcast is made by Wren Studio.",
     "W @Marlow-Podcast: From season 4 onwards the Marlow podcast is produced by Gully Audio."),
    ("W @Tally-Digest: The Tally digest is sent with Mailjet.",
     "W @Tally-Digest: Since issue 12, the Tally digest goes out via Substack."),
    ("W @Inkwell: The bookshop on Mill Street is the Inkwell.",
     "W @Inkwell: The Inkwell reopened as Paper Lantern Books."),
    ("W @Fieldmark: The company is called Fieldmark.",
     "W @Fieldmark: Fieldmark now trades under the name Ossory Analytics."),
    ("W @Corran-Market: @Brannagh runs the Saturday stall at Corran market.",
     "W @Corran-Market: @Eoin has taken over the Saturday stall at Corran market."),
    ("W @Idris: Idris is vegan.", "W @Idris: Idris had a bacon sandwich at the station cafe."),
]


@pytest.mark.parametrize(("old", "new"), OFFERED)
def test_a_change_in_an_unseen_phrasing_is_offered(old: str, new: str) -> None:
    found = verdicts(old, new)
    assert found and not any(v.supersedes for v in found), found


NOT_OFFERED = [
    ("W @Fieldmark: The company is called Fieldmark.",
     "W @Fieldmark: Fieldmark renamed its analytics team to Insight."),
    ("W @Idris: Idris is vegan.", "W @Idris: Idris has not eaten cheese in years."),
    ("W @Idris: Idris is vegetarian.",
     "W @Idris: Idris cooked a chicken curry for his parents on Sunday."),
    ("W @Idris: Idris is vegetarian.", "W @Idris: Idris ordered the veggie burger again."),
    ("W @Halden-Choir: The Halden choir is funded by the arts council.",
     "W @Halden-Choir: The Halden choir is conducted by Mara Kell."),
]


@pytest.mark.parametrize(("old", "new"), NOT_OFFERED)
def test_its_look_alikes_are_not_offered(old: str, new: str) -> None:
    assert not [v for v in verdicts(old, new) if v.offer or v.supersedes]


def test_a_move_said_after_what_was_left_behind_is_taken() -> None:
    assert superseded("W @Ruairi: Ruairi is based in Galway.",
                      "W @Ruairi: Ruairi sold the Galway house and relocated to Sligo.")
    assert superseded("W @Ruairi: Ruairi lives in Galway.",
                      "W @Ruairi: Ruairi packed up the Galway flat and resettled in Westport.")


def test_a_new_version_of_a_thing_named_without_one_changes_nothing() -> None:
    assert not superseded("W @Tern-Team: The Tern team runs its services on Nomad.",
                          "W @Tern-Team: The Tern team upgraded its Nomad cluster to version 1.8.")
    assert superseded("W @Tern-Team: The Tern team runs Nomad 1.6.",
                      "W @Tern-Team: The Tern team upgraded Nomad from 1.6 to 1.8.")


MOVES = [
    "W @Anselm: Anselm took a job in Linz and moved there in May.",
    "W @Anselm: Anselm packed his bags and headed for Linz for good.",
    "W @Anselm: Linz is Anselm's base now.",
    "W @Anselm: Anselm got a flat in Linz last month.",
    "W @Anselm: The move to Linz is done and Anselm loves the river walks.",
    "W @Anselm: Anselm retrained as a paramedic.",
]


@pytest.mark.parametrize("new", MOVES[:5])
def test_a_move_said_without_a_word_of_living_is_taken(new: str) -> None:
    assert superseded("W @Anselm: Anselm lives in Graz.", new)


def test_a_new_trade_learnt_replaces_the_role() -> None:
    assert superseded("W @Anselm: Anselm works as a pharmacist.", MOVES[5])


def test_a_passive_slot_said_actively_with_another_doer_is_offered() -> None:
    found = verdicts("W @Wexcombe-Pool: The Wexcombe pool is run by the district council.",
                     "W @Wexcombe-Pool: Since May a leisure trust operates the Wexcombe pool.")
    assert found and all(v.offer and not v.supersedes for v in found), found


def test_an_employer_against_a_role_at_another_organisation_is_offered() -> None:
    found = verdicts("W @Thandeka: Thandeka works as a pharmacist at Boots.",
                     "W @Thandeka: Thandeka's employer is now Superdrug.")
    assert found and all(v.offer and not v.supersedes for v in found), found
    # a job title is no organisation: nothing to offer against where one works
    assert not verdicts("W @Thandeka: Thandeka works at Boots.",
                        "W @Thandeka: The job title of Thandeka is Senior Pharmacist.")


def test_opening_days_changed_are_offered() -> None:
    found = verdicts("W @Fennel-Deli: Fennel Deli is closed on Mondays.",
                     "W @Fennel-Deli: Fennel Deli now opens every day.")
    assert found and all(v.offer and not v.supersedes for v in found), found
    assert not verdicts("W @Fennel-Deli: Fennel Deli is closed on Mondays.",
                        "W @Fennel-Deli: Fennel Deli opened specially on a Monday for a wedding.")
