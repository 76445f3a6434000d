"""The judge reads the general shapes of a change (issue 29): renames, fronted and passive
phrasing, corrections, amounts raised, another email address, a school year moving on, an
entity that closed for good, preference reversals — and not the neighbours that share their
words: someone else's saying, another amount beside one, a qualified address, an older fact
that was hearsay, an entity named as the value of someone else's slot."""

from __future__ import annotations

import json

import pytest
from judge_pairs import superseded, verdicts

from conftest import ROOT

PAIRS = [json.loads(line) for line in (ROOT / "benchmarks" / "data" /
                                       "contradictions-tune2.jsonl").read_text("utf-8").splitlines()]








@pytest.mark.parametrize(("old", "new"), [
    # renames: "is now called", "known as ... these days", "formerly", "under a new name"
    ("W @quillpad: Our note-taking app is called Quillpad.",
     "W @quillpad: Quillpad is now called Inkwell after the trademark dispute."),
    ("W @bluepine: Our shared drive folder is called Bluepine Docs.",
     "W @bluepine: Bluepine Docs is known as Team Library these days."),
    ("W @tern-cli: The command-line tool is named tern.",
     "W @tern-cli: Tidewater, formerly tern, is the CLI we ship."),
    ("W @Hollowbrook-Cafe: The cafe on the corner is called Hollowbrook Cafe.",
     "W @Hollowbrook-Cafe: Hollowbrook Cafe reopened under a new name, Saltgrass Kitchen."),
    ("W @Project-Heron: The migration project's codename is Heron.",
     "W @Project-Heron: Project Heron has been renamed Egret to avoid a clash with another team."),
    # a fronted point of change says the value holds from then on
    ("W @Marisol: Marisol's newsletter is published on Substack.",
     "W @Marisol: From issue 40 onward, Marisol's newsletter goes out on Beehiiv."),
    # corrections
    ("W @Linnea: Linnea's birthday is on 12 May.",
     "W @Linnea: Correction: Linnea's birthday is actually 14 May, not 12 May."),
    ("W @Garrick: Garrick's flight lands at 18:40.",
     "W @Garrick: Garrick's flight actually lands at 19:25; I had the wrong time."),
    ("W @Pavla: Pavla's son is called Tomas.",
     "W @Pavla: Pavla's son is called Tobias, not Tomas; I misheard."),
    # amounts: "earns" is a salary, "£46,500" is one number
    ("W @Imelda: Imelda earns £41,000 a year.",
     "W @Imelda: After her review, Imelda's salary rose to £46,500."),
    # another email address, said to be the one now
    ("W @Quinn: Quinn's work email is quinn@brightloop.com.",
     "W @Quinn: Write to Quinn at quinn.b@hexfield.com now; the Brightloop address is closed."),
    ("W @Maelle: Maelle uses maelle.r@gmail.com.",
     "W @Maelle: Maelle stopped using her Gmail and asks people to use maelle@rousseau.fr."),
    # a school year moving on, said with ordinals
    ("W @Mila: Mila is in second grade.", "W @Mila: Mila moved up to third grade."),
    ("W @Bastian: Bastian is in his first year at university.",
     "W @Bastian: Bastian is now in his second year at university."),
    # the entity itself closed for good
    ("W @Pinewood-Deli: Pinewood Deli serves lunch on Kestrel Street.",
     "W @Pinewood-Deli: Pinewood Deli closed for good in August."),
    # preference reversals
    ("O @Lucan: Lucan loves spicy food.",
     "O @Lucan: Lucan can't handle spicy food anymore since his surgery."),
    ("O @Bea: Bea prefers meetings in the morning.",
     "O @Bea: Bea has switched to preferring afternoon meetings."),
    # moves and jobs said indirectly
    ("W @Soren: Soren lives in Aarhus.",
     "W @Soren: Soren packed up and settled in Copenhagen last month."),
    ("W @Fenna: Fenna is a junior designer at Loomworks.",
     "W @Fenna: Loomworks made Fenna its design lead."),
    ("W @Ingrid: Ingrid lives in Bergen.", "W @Ingrid: Ingrid is a Reykjavik resident now."),
    # an age turned, a codebase rewritten, a new number given after a colon
    ("W @Theo: Theo is 7.", "W @Theo: Theo turned 8 last week."),
    ("W @Vireo: Vireo's backend is written in Ruby.",
     "W @Vireo: Vireo's backend was rewritten in Go."),
    ("W @Hana: Hana's phone number is 0612 345 678.",
     "W @Hana: Hana has a new phone number: 0698 765 432."),
    # a provider named first, then said to be the new one
    ("W @me: Our GP is Dr. Patel.", "W @me: We registered with Dr. Osei as our new GP."),
    ("W @Ana: Ana's bank is Barclays.", "W @Ana: Ana opened an account at Monzo as her new bank."),
    # a title that is a role, the car one drives, a project taken over from its lead
    ("W @Ana: Ana works as Designer.", "W @Ana: The title of Ana is now Design Lead."),
    ("W @Ana: Ana drives a Golf with about 40,000 miles on it.",
     "W @Ana: Ana drives a Tesla Model 3 now."),
    ("W @Falcon @Priya: Priya leads Falcon.", "W @Falcon @Tom: Tom took over Falcon from Priya."),
    # an employer or a manager named as an entity before the colon is a value
    ("W @Sam @Globex: Sam works at Globex.", "W @Sam @Initech: Sam now works at Initech."),
    ("W @Sam @Globex: Sam is employed by Globex.",
     "W @Sam @Initech: Sam was hired by Initech in May."),
    ("W @Sam @Priya: Sam's manager is Priya.",
     "W @Sam @Tom: Tom took over as Sam's manager from Priya."),
])
def test_a_change_in_these_shapes_supersedes(old: str, new: str) -> None:
    assert superseded(old, new), verdicts(old, new)


@pytest.mark.parametrize(("old", "new"), [
    # someone else's saying
    ("W @Lantern-AI: Lantern AI's models are served from A100 GPUs.",
     "W @Lantern-AI: A rival lab said its models are served from H100s."),
    # another amount beside the first one
    ("W @me: The nursery fee is £1,050 a month.",
     "W @me: The nursery also charges a £40 registration fee."),
    # an address set apart by a qualifier
    ("W @Quinn: Quinn's work email is quinn@brightloop.com.",
     "W @Quinn: Quinn's personal email is quinnie@fastmail.com."),
    # a rename leaves the entity's other facts true
    ("W @Corvid-Labs: Corvid Labs has 40 employees.",
     "W @Corvid-Labs: Corvid Labs rebranded as Fieldwise in June."),
    # closed, but not for good
    ("W @Pinewood-Deli: Pinewood Deli serves lunch on Kestrel Street.",
     "W @Pinewood-Deli: Pinewood Deli closed early on Monday for a staff party."),
    # an older fact that was someone else's news, someone's word, a question, a stand-in
    ("W @Marek: Marek's sister moved to Vienna.", "W @Marek: Home for Marek is Oslo now."),
    ("O(c=0.6) @Omar @Zainab: Omar dislikes GraphQL, says Zainab.",
     "O(c=0.7) @Omar: These days Omar likes GraphQL."),
    ("W @Ember: Is the main database of Ember DynamoDB now? Need to check.",
     "W @Ember: Ember switched its database from CockroachDB to MySQL."),
    ("W @Amara: Amara is acting Designer until the end of the month.",
     "W @Amara: Since September, Amara has been working as QA Analyst."),
    # the shared entity is the value of another's slot, or only told the news
    ("W @Felix @Callum: Felix's manager is Callum.", "W @Ines @Felix: Ines's manager is Felix."),
    ("W @Omar: Omar's manager is now @Sofia.", "W @Tomasz: Tomasz's manager is now @Omar."),
    ("W @Hamid: Hamid still works as Staff Engineer.",
     "W @Hamid @Omar: Omar was promoted to QA Analyst, Hamid told us."),
    # a newer fact someone else reported is offered, not taken
    ("W @Ingrid: Ingrid works as Team Lead.",
     "W @Marek @Ingrid: Ingrid was promoted to Data Engineer, Marek told us."),
    # an older fact about the past, or a stand-in for this week only
    ("W @Kenji: Kenji's previous company was bought by Globex.",
     "W @Kenji: Kenji sold a 2021 Kia Niro and bought a 2016 Honda Civic."),
    ("W @Omar: Omar leads the design review for Falcon this week.",
     "W @Omar: Omar was promoted from Team Lead to Staff Engineer."),
    # a change of mind about one thing disliked is not about another
    ("O(c=0.7) @Yuki: Yuki dislikes working late on Fridays.",
     "O(c=0.7) @Yuki: Yuki changed their mind and now dislikes Tailwind."),
    # a change of mind about a drink is not one about the morning's email
    ("S @Zainab: Zainab answers email fastest in the morning.",
     "O(c=0.7) @Zainab: Zainab has gone off matcha; it is coffee every morning now."),
    # a status needs the same thing: an opinion of the office is not a home
    ("O(c=0.6) @Ines: Ines finds the open-plan office too noisy.",
     "W @Ines: Ines left Seville and settled in Tallinn."),
    # a part of the entity is not the whole ("Vireo's staging copy" is not "Vireo's ...ing")
    ("W @Vireo: Vireo is deployed on Heroku.",
     "W @Vireo: Vireo's staging copy is deployed on Fly.io."),
    # a database and a cloud are two slots of one project
    ("W @Falcon: Falcon runs on CockroachDB.", "W @Falcon: Falcon runs on Google Cloud now."),
    # another party's history, even of the entity's own past employer
    ("W @Beacon: Beacon runs on PostgreSQL.",
     "W @Beacon @Marek: Marek's previous company switched to MySQL."),
])
def test_a_neighbour_sharing_the_words_does_not_supersede(old: str, new: str) -> None:
    assert not superseded(old, new), verdicts(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("W @Marek: Marek's sister moved to Vienna.", "W @Marek: Home for Marek is Oslo now."),
    ("W @Ember: Is the main database of Ember DynamoDB now? Need to check.",
     "W @Ember: Ember switched its database from CockroachDB to MySQL."),
])
def test_what_it_is_unsure_of_comes_back_as_a_conflict(old: str, new: str) -> None:
    [verdict] = verdicts(old, new)
    assert not verdict.supersedes


@pytest.mark.parametrize("pair", [p for p in PAIRS if not p["supersedes"]],
                         ids=[p["id"] for p in PAIRS if not p["supersedes"]])
def test_no_non_change_of_the_tune_pairs_supersedes(pair: dict[str, str]) -> None:
    assert not superseded(pair["old"], pair["new"])


def test_most_changes_of_the_tune_pairs_are_superseded_or_offered() -> None:
    changes = [p for p in PAIRS if p["supersedes"]]
    caught = [p for p in changes if verdicts(p["old"], p["new"])]
    assert len(caught) * 100 >= len(changes) * 95


def test_another_number_on_the_same_topic_is_offered() -> None:
    [verdict] = verdicts("W @Brookside: Brookside has 4,200 members.",
                         "W @Brookside: Membership at Brookside stands at 4,650.")
    assert not verdict.supersedes and "another number" in verdict.reason
