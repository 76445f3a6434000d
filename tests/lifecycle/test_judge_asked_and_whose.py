"""Shapes that retired true facts, found where recall missed the current fact on the read
years (benchmarks/data/personal-tune14-40), weighed through a workspace as a retain weighs
them (the ledger, the judge across entities):

- what is asked for or planned is not done: "Stipe asked for a raise to 10 euros an hour"
  leaves his 9 euros an hour, "Plan: migrate from MySQL to Postgres in Q3" leaves MySQL;
- the one a change is made for is not the one who makes it: "Dr. Baptiste switched Tucker to
  Royal Canin" changes Tucker's food, not who his vet is;
- a role belongs to its grammatical subject: "Prof. Kang is an associate professor at NUS
  now" is not Jaehyun's post, though "Jaehyun is a postdoc at NUS with Prof. Kang" names him;
- a plan one is on is a thing, not a plan: "from the Open plan to the Flex plan".

Beside each, the change that must still be made."""

from __future__ import annotations

from pathlib import Path

import pytest

from memfold import Memory

KEPT = [
    ("W @me @Stipe: I hired Stipe, Dario's cousin, to ship Etsy orders from the studio, paid "
     "9 euros an hour.",
     "B @me: Dario's cousin Stipe asked for a raise to 10 euros an hour."),
    ("W @MySQL: Main database is MySQL 5.7 on RDS.",
     "W @Priya @Postgres: Plan: migrate from MySQL to Postgres in Q3 — Priya's project."),
    ("W @MySQL: Main database is MySQL 5.7 on RDS.",
     "W @MySQL @Postgres: Plan: migrate from MySQL to Postgres in Q3 — Priya's project."),
    ("W @Tucker: Tucker's new vet is Dr. Baptiste at Stonebridge Animal Hospital.",
     "W @Tucker: Dr. Baptiste switched Tucker to Royal Canin mobility support food for his "
     "joints."),
    ("W @Jaehyun: Jaehyun is a postdoc at NUS with Prof. Kang now.",
     "W @Prof-Kang: Prof. Kang is an associate professor at NUS now."),
]

CHANGED = [
    ("W @me @Stipe: I hired Stipe, Dario's cousin, to ship Etsy orders from the studio, paid "
     "9 euros an hour.",
     "B @me: Dario's cousin Stipe got a raise to 10 euros an hour."),
    ("W @MySQL: Main database is MySQL 5.7 on RDS.",
     "W @MySQL @Postgres: We migrated from MySQL to Postgres in Q3 — Priya's project."),
    ("W @Tucker: Tucker's vet is Dr. Amundsen at Prairie Paws.",
     "W @Tucker: Tucker's new vet is Dr. Baptiste at Stonebridge Animal Hospital."),
    ("W @me: Dr. Kowalczyk has me on 20 mg of omeprazole.",
     "W @me: Dr. Kowalczyk switched me to 40 mg of omeprazole."),
    ("W @Prof-Kang: Prof. Kang is a lecturer at NUS.",
     "W @Prof-Kang: Prof. Kang is an associate professor at NUS now."),
]


def _weighed(workspace: Path, old: str, new: str) -> tuple[str, list[str], list[str]]:
    """The older fact's id and the ids the newer fact's retain superseded and offered."""
    with Memory.open(workspace) as memory:
        older = memory.retain(old, date="2025-03-01").facts[0]
        newer = memory.retain(new, date="2025-06-01")
        return older.id, [j.id for j in newer.superseded], [j.id for j in newer.conflicts]


@pytest.mark.parametrize(("old", "new"), KEPT)
def test_what_is_asked_planned_or_said_of_another_retires_nothing(
        workspace: Path, old: str, new: str) -> None:
    older, superseded, _ = _weighed(workspace, old, new)
    assert older not in superseded


@pytest.mark.parametrize(("old", "new"), CHANGED)
def test_the_change_itself_still_supersedes(workspace: Path, old: str, new: str) -> None:
    older, superseded, _ = _weighed(workspace, old, new)
    assert superseded == [older]


# a plan that is a thing one is on ("the Open plan", "the Basic plan") is no plan to do
# something: a switch between two of them is weighed as a change, not as a hypothetical
PLAN_THINGS = [
    ("W @Carshare: My car-share Open plan costs $15 a month plus 50 cents a kilometre.",
     "B @Carshare: Switched my car-share membership from the Open plan to the Flex plan, $6 a "
     "month plus 60 cents a kilometre."),
    ("W @me: My mobile is on the Basic plan, 5GB for £8 a month.",
     "B @me: Moved my mobile from the Basic plan to the Plus plan, 30GB for £12 a month."),
]


@pytest.mark.parametrize(("old", "new"), PLAN_THINGS)
def test_a_switch_between_plans_one_is_on_is_no_hypothetical(
        workspace: Path, old: str, new: str) -> None:
    with Memory.open(workspace) as memory:
        older = memory.retain(old, date="2025-03-01").facts[0]
        newer = memory.retain(new, date="2025-06-01")
        weighed = [j for j in (*newer.superseded, *newer.conflicts) if j.id == older.id]
        assert weighed
        assert all("plan or a hypothetical" not in (j.reason or "") for j in weighed)



# a stay for an occasion is a visit: it retires and offers nothing; a gift for one is
# still weighed as a change (superseded or offered)
OCCASIONS = [
    ("W @Liesl: Liesl has moved to Tromsø.",
     "B @Liesl: Liesl was back in Bergen for Christmas and came over to see the house.", False),
    ("W @Isla: Isla's phone is an old Samsung A14 with a cracked corner.",
     "W @Isla: Isla's got a refurbished iPhone 13 for Christmas. The old Samsung went in the "
     "drawer.", True),
]


@pytest.mark.parametrize(("old", "new", "weighed"), OCCASIONS)
def test_a_stay_for_an_occasion_is_a_visit_and_a_gift_for_one_a_change(
        workspace: Path, old: str, new: str, weighed: bool) -> None:
    older, superseded, offered = _weighed(workspace, old, new)
    assert (older in superseded + offered) is weighed
