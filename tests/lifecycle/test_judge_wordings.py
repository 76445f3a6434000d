"""Wordings of a change the judge did not read: a home said with "settled" or "based out of", a
subject of two people ("Ana and her husband ... now live in"), a first day at an employer
("started at Wipro"), a time fronted without a comma ("After the merger Leo's manager is ..."),
a habit ended ("hasn't smoked since May"), a partner moved in with, a role left ("moved from Sales
Manager into ...") that is not the manager an older fact names; and a denied state the newer
fact speaks of ("has no car" / "drives to work"), offered as a conflict, never taken by itself.
Each has its other reading beside it, so the rules stay no wider than the wording."""

from __future__ import annotations

import pytest
from judge_pairs import fact, superseded, verdicts

from memfold.lifecycle.judge.reading import read

# (older, newer): the newer fact states a change that happened
CHANGES = [
    ("W @Bea: Bea lives in Ghent.", "W @Bea: Bea is settled in Lyon since the autumn."),
    ("W @Bea: Bea lives in Ghent.", "W @Bea: Bea is based out of Rotterdam these days."),
    ("W @Ana: Ana lives in Cork with her husband.",
     "W @Ana: Ana and her husband sold up and now live in Galway."),
    ("W @Tariq: Tariq works at Ericsson.", "W @Tariq: Tariq started at Nokia last week."),
    ("W @Leo: Leo reports to @Hana.", "W @Leo: After the merger Leo's manager is @Ivo."),
    ("W @Ruth: Ruth smokes.", "W @Ruth: Ruth hasn't smoked since May."),
    ("W @Ruth: Ruth drinks coffee every morning.",
     "W @Ruth: Ruth has not drunk coffee in three months."),
    ("W @Emil: Emil is single.", "W @Emil: Emil moved in with his boyfriend @Jon."),
    ("W @mailer: The shop sends order emails through SendGrid.",
     "W @mailer: SendGrid's been replaced with Resend for order emails."),
    ("W @Dana: Dana is single.", "W @Dana: Dana's boyfriend is Marco."),
    ("W @me: I drive to work.", "W @me: I cycle to work instead of driving now."),
    ("W @Lina: Lina is vegetarian.", "W @Lina: Lina has gone pescatarian."),
    ("W @Lina: Lina is vegetarian.", "W @Lina: Lina went vegan in March."),
    ("O(c=0.8) @Ilse: Ilse thinks Rust is too hard for the team.",
     "O(c=0.8) @Ilse: Ilse has come round to Rust and recommends it."),
    ("W @Ada: Ada is on a paleo diet.", "W @Ada: Since March, Ada has been vegetarian."),
    ("W @Umbra: Umbra is headquartered in Turin.",
     "W @Umbra: The headquarters of Umbra were relocated to Milan."),
    ("W @Umbra: Umbra is headquartered in Turin.",
     "W @Umbra: The head office of Umbra is in Genoa now."),
    ("W @Heron @Ilse: Ilse leads Heron.", "W @Heron @Bram: Bram is the lead of Heron now."),
    ("W @Noor: Noor is a Sales Manager at Fjord.",
     "W @Noor: Noor moved from Sales Manager into a Solutions Architect role."),
]

# (older, newer): not a change of the older fact's value
NOT_CHANGES = [
    ("W @Tariq: Tariq works at Ericsson.", "W @Tariq: Tariq started at the gym last week."),
    ("W @Bea: Bea lives in Ghent.", "W @Bea: Bea settled in quickly at the new school."),
    ("W @Ruth: Ruth smokes.", "W @Ruth: Ruth hasn't smoked today."),
    ("W @Emil: Emil is single.", "W @Emil: Emil moved in with his brother."),
    # a second use beside the main one; a move from another value than the older fact's
    ("W @Kite: Kite also keeps its backups on AWS.", "W @Kite: Kite runs on Azure now."),
    ("W @Kite: Kite's nightly backups go to AWS.",
     "W @Kite: We migrated Kite from Hetzner to Azure."),
    # something else of the entity moved, or another part of it
    ("W @Umbra: Umbra is headquartered in Turin.",
     "W @Umbra: Umbra's servers were moved to Frankfurt."),
    ("W @Ada: Ada is on a paleo diet.", "W @Ada: Ada is on the climbing team."),
    # another project's lead; what ended is the subject of its own clause ("after Dr. Lind
    # retired"), not the clinic the newer fact moved to
    ("W @Heron @Ilse: Ilse leads Heron.", "W @Plover @Bram: Bram leads Plover."),
    ("W @Pip: Pip is on salmon kibble now; the vet said to stop the wet food.",
     "W @Pip: We moved Pip to Dr. Ames at Elm Vets after Dr. Roy at Oak Animal Clinic retired."),
    # a debt paid off is not what one earns
    ("W @me: I earn £48,000 a year at Tolland Water.",
     "B @me: Paid off the last £1,900 on the car loan."),
    # a value left that shares only a slot's word ("manager") with the older fact
    ("W @Noor @Sven: Sven took over as Noor's manager from Ida.",
     "W @Noor: Noor moved from Sales Manager into a Solutions Architect role."),
    # a diet someone else took up, or a cafe of one
    ("W @Lina: Lina is vegetarian.", "W @Lina: Lina's sister went vegan in March."),
    ("W @Lina: Lina is vegetarian.", "W @Lina: Lina went to a vegan cafe in Soho."),
    # one occasion done another way is no change of what one does
    ("W @me: I've joined the Leith Rovers running club, which meets on Tuesdays.",
     "B @me: Volunteered as a marshal at the Edinburgh 10K instead of running it."),
    # a visit to a place named like the home's district is no move
    ("W @me: I live in a rented flat in Leith, Edinburgh.",
     "B @me: Went to the Leith Rovers' summer barbecue in St Andrews Park."),
]

# (older, newer): the older fact denies what the newer one speaks of
DENIED = [
    ("W @Kit: Kit doesn't have a car.", "W @Kit: Kit drives the car to the station every day."),
    ("W @app: The app has no offline mode.", "W @app: The app's offline mode syncs on reconnect."),
    ("W @Moe: Moe has never been skiing.", "W @Moe: Moe went skiing in Andorra in February."),
]


@pytest.mark.parametrize(("old", "new"), CHANGES)
def test_a_change_in_these_words_supersedes(old: str, new: str) -> None:
    assert superseded(old, new), verdicts(old, new)


@pytest.mark.parametrize(("old", "new"), NOT_CHANGES)
def test_the_same_words_of_something_else_supersede_nothing(old: str, new: str) -> None:
    assert not superseded(old, new)


@pytest.mark.parametrize(("old", "new"), DENIED)
def test_a_denied_state_spoken_of_is_offered_not_taken(old: str, new: str) -> None:
    found = verdicts(old, new)
    assert found and not any(v.supersedes for v in found)
    assert "the older fact says no" in found[0].reason


def test_a_recommended_change_is_still_a_suggestion() -> None:
    assert read(fact("W @shop: Bob recommends moving the shop to Shopify.")).guard == "suggestion"
    assert read(fact("O @Ilse: Ilse has come round to Rust and recommends it.")).guard is None


def test_a_denied_state_denied_again_raises_nothing() -> None:
    assert verdicts("W @Kit: Kit doesn't have a car.",
                    "W @Kit: Kit still doesn't have a car, he cycles.") == []


@pytest.mark.parametrize(("text", "relation"), [
    ("W @Bea: Bea is settled in Lyon.", "location"),
    ("W @Bea: Bea is based out of Rotterdam.", "location"),
    ("W @Tariq: Tariq started at Nokia on Monday.", "employer"),
    ("W @Emil: Emil moved in with his girlfriend.", "relationship"),
])
def test_the_slot_is_read(text: str, relation: str) -> None:
    assert read(fact(text)).relation == relation
