"""What did not change, said beside what did: a more precise place, an intention that did
not happen, an offer declined, a change back said with "again", and what a change kept.
Each class has its real changes of the same shape, which still supersede."""

from __future__ import annotations

import pytest
from judge_pairs import superseded, verdicts

# (older, newer): the newer fact changes nothing the older one states
NOT_CHANGES = [
    # a part of the place it names: where in the city, not another city
    ("W @Kenji: Kenji lives in Osaka.",
     "W @Kenji: Kenji's apartment is in Tennoji ward, a few minutes' walk from the zoo."),
    ("W @Aiko: Aiko lives in Kyoto.", "W @Aiko: Aiko rents a small house in the Higashiyama area."),
    ("W @Mateo: Mateo lives in Buenos Aires.",
     "W @Mateo: Mateo's house is in the Palermo district, two blocks from the park."),
    # an intention that did not happen
    ("W @me: My blog is hosted on Ghost.",
     "B @me: I meant to migrate the blog to Netlify this weekend but ran out of time."),
    ("W @squad: The squad tracks bugs in Jira.",
     "B @squad: The squad had planned to replace Jira with Linear in March but ran out of time."),
    ("W @Farah: Farah's photos are backed up to Dropbox.",
     "B @Farah: Farah wanted to switch her photo backups to iCloud but never got round to it."),
    # an offer declined
    ("W @Hugo: Hugo works as a sous-chef at Le Comptoir.",
     "B @Hugo: Hugo was offered a head chef job in Annecy and turned it down."),
    ("W @Yusuf: Yusuf lives in Ankara.",
     "B @Yusuf: Yusuf was offered a transfer to Izmir and said no to it."),
]

# (older, newer): a real change of the same shape
CHANGES = [
    ("W @Mateo: Mateo lives in Buenos Aires.",
     "W @Mateo: Mateo lives in the Pocitos neighbourhood of Montevideo now."),
    ("W @Priyanka: Priyanka lives in Mumbai.",
     "W @Priyanka: Priyanka's apartment is now in Koramangala, Bangalore."),
    ("W @Farah: Farah's photos are backed up to Dropbox.",
     "B @Farah: Farah finally got round to switching her photo backups to iCloud."),
    ("W @Nadia: Nadia lives in Marseille.",
     "B @Nadia: Nadia was going to stay in Marseille, but she moved to Lyon in the end."),
    ("W @Yusuf: Yusuf lives in Ankara.", "B @Yusuf: Yusuf took the transfer and moved to Izmir."),
    # a change back: "again" with another value than the older fact's
    ("W @Ravi: Ravi is vegetarian.", "W @Ravi: Ravi eats meat again."),
    ("W @Lena: Lena is single.", "W @Lena: Lena is dating again."),
    ("W @Keiko: Keiko's browser is Firefox.", "W @Keiko: Keiko's browser is Chrome again."),
    # a name that ends like a verb is the sentence's subject ("Rhys moved", "Marcus lives")
    ("W @Marcus: Marcus lives in Oslo.", "W @Marcus: Marcus lives in Bergen again."),
    ("W @Rhys: Rhys lives in Swansea.",
     "B @Rhys: Rhys moved to Cardiff but kept his job at Pell & Moor."),
    ("W @Tobias: Tobias rents a flat in Leipzig.", "W @Tobias: Tobias's new place is in Dresden."),
]


@pytest.mark.parametrize(("old", "new"), NOT_CHANGES)
def test_what_did_not_change_supersedes_nothing(old: str, new: str) -> None:
    assert not superseded(old, new)


@pytest.mark.parametrize(("old", "new"), CHANGES)
def test_a_change_of_the_same_shape_still_supersedes(old: str, new: str) -> None:
    assert superseded(old, new)


def test_a_flat_said_without_a_move_is_offered_not_taken() -> None:
    [verdict] = verdicts("W @Thandiwe: Thandiwe lives in Johannesburg.",
                         "W @Thandiwe: Thandiwe's flat is in Melville, near the park.")
    assert not verdict.supersedes and "not said to be a move" in verdict.reason


@pytest.mark.parametrize(("old", "new"), [
    ("W @Declan: Declan is a structural engineer at Hollin & Page.",
     "B @Declan: Declan moved to Sheffield but kept his job at Hollin & Page."),
    ("W @Felipe: Felipe's title is Staff Engineer.",
     "W @Felipe: Felipe changed teams but kept his Staff Engineer title."),
    # "again" with the value the older fact holds: a restatement, nothing to settle
    ("W @Lena: Lena is dating Jonas.", "W @Lena: Lena is dating Jonas again."),
    ("W @Keiko: Keiko's browser is Chrome.", "W @Keiko: Keiko's browser is Chrome again."),
])
def test_what_was_kept_or_said_again_raises_no_conflict(old: str, new: str) -> None:
    assert verdicts(old, new) == []


@pytest.mark.parametrize(("old", "new"), [
    ("W @Noor: Noor is pescatarian.", "W @Noor: Noor eats fish every Friday."),
    ("W @Bao: Bao is vegan.", "W @Bao: Bao eats meat now."),
])
def test_a_diet_is_broken_only_by_what_it_leaves_out(old: str, new: str) -> None:
    assert superseded(old, new) == ("vegan" in old)

