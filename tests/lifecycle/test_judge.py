"""The supersede judge reads ordinary English: what it supersedes, what it never does, and
what it reports back to the caller (issue 13)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from judge_pairs import fact
from judge_pairs import superseded as supersedes

from memfold import Memory
from memfold.agents.tools import tools
from memfold.lifecycle.judge import AGREES, OPPOSES, REVERSES, stance
from memfold.values import Fact


def retain(memory: Memory, day: str, *bullets: str) -> list[str]:
    return [f.id for f in memory.retain(list(bullets), date=day).facts]


# -- design note 002: PostgreSQL -> MySQL, however it is said -------------------------

POSTGRES_STATE = [
    "W @acme: Acme's main application database is PostgreSQL 15.",
    "W(i=8) @acme: Acme runs on PostgreSQL.",
    "W @acme: We use PostgreSQL for the orders service.",
    "W @acme: The reporting replicas are PostgreSQL too.",
]
POSTGRES_HISTORY = "B @acme: Debugged a PostgreSQL deadlock in the orders service with Peter."


@pytest.mark.parametrize("switch", [
    "W @acme: Acme switched the main application database from PostgreSQL to MySQL.",
    "W @acme: We now use MySQL.",
    "W @acme: Migrated the database to MySQL.",
    "W @acme: MySQL is our database now; PostgreSQL is gone.",
])
@pytest.mark.parametrize("later", ["2025-06-08", "2025-12-01"])  # one week, six months
def test_the_switch_story_holds_however_it_is_written(workspace: Path, switch: str,
                                                      later: str) -> None:
    with Memory.open(workspace) as memory:
        old = [retain(memory, f"2025-01-{10 + n}", bullet)[0]
               for n, bullet in enumerate(POSTGRES_STATE)]
        [history] = retain(memory, "2025-03-02", POSTGRES_HISTORY)
        result = memory.retain(switch, date="2025-06-01", now="2025-06-01")
        [new] = [f.id for f in result.facts]
        assert {j.id for j in result.superseded} == set(old)
        for fact_id in old:
            shown = memory.get(fact_id, use=False, now=later)
            assert (shown.status, shown.superseded_by) == ("superseded", new)
        assert memory.get(history, use=False, now=later).status != "superseded"
        answer = memory.recall("which database does Acme use", now=later)
        assert answer.hits[0].fact.id == new
        assert answer.hits[0].status == "active"


# -- what supersedes, in wording the dev pairs do not use -----------------------------

@pytest.mark.parametrize(("old", "new"), [
    ("W @Ravi: Ravi keeps his photos on Google Photos.",
     "W @Ravi: Ravi moved his whole photo library off Google Photos onto a Synology NAS."),
    ("W @lumen: Lumen's status page runs on Statuspage.",
     "W @lumen: Lumen replaced Statuspage with Instatus for its public status page."),
    ("W @Ada: Ada lives in Leeds.", "W @Ada: Ada lives in York."),
    ("W @Ada: Ada lives in Leeds.", "W @Ada: Ada relocated to Bristol for the new job."),
    ("W @Ada: Ada works at Monzo.", "W @Ada: Ada left Monzo and joined Wise."),
    ("W @Ada: Ada's manager is Tom.", "W @Ada: Ada's manager is Priyanka."),
    ("W @Ada: Ada drinks oat milk.", "W @Ada: Ada stopped drinking oat milk."),
    ("W @Ada: Ada is a member of the chess club.",
     "W @Ada: Ada cancelled her chess club membership."),
    ("W @vole: Vole's test suite takes 14 minutes.",
     "W @vole: Vole's test suite takes 6 minutes since the parallel runner."),
    ("W @vole: Vole's API is on Django 4.2.", "W @vole: Vole upgraded its API to Django 5.1."),
    ("W @vole: The signup bug VOLE-88 is still open.",
     "W @vole: VOLE-88, the signup bug, was fixed on Tuesday."),
    ("W @vole: The internal codename is Heron.", "W @vole: Project Heron was renamed to Egret."),
    ("W @vole: Vole sends email through SendGrid.",
     "W @vole: Since May, Postmark has been Vole's email provider."),
    ("O(c=0.8) @Ada: Ada dislikes standing desks.",
     "O(c=0.7) @Ada: Ada has come around on standing desks and uses one daily."),
    ("O(c=0.8) @Ada: Ada prefers short stand-ups.",
     "O(c=0.7) @Ada: Ada now prefers long detailed stand-ups."),
    ("W @Ada @Ben: Ada is dating Ben.", "W @Ada @Ben: Ada and Ben broke up in June."),
])
def test_a_change_in_ordinary_english_supersedes(old: str, new: str) -> None:
    assert supersedes(old, new)


# -- what never supersedes ------------------------------------------------------------

@pytest.mark.parametrize(("old", "new"), [
    # the chain: "X is A" then "X is B" about different attributes
    ("W @Peter: Peter is a vegetarian.", "W @Peter: Peter is a software engineer."),
    ("W @Peter: Peter is a software engineer.", "W @Peter: Peter is 42 years old."),
    ("W @Peter: Peter is a vegetarian.", "W @Peter: Peter is 42 years old."),
    ("W @Anna: Anna is Peter's sister.", "W @Anna: Anna is a doctor."),
    # multi-valued, visits, plans, negated changes, third parties, refinements
    ("W @Ada: Ada speaks Spanish.", "W @Ada: Ada speaks Italian too."),
    ("W @Ada: Ada lives in Leeds.", "W @Ada: Ada is in Lisbon this week for a conference."),
    ("W @Ada: Ada lives in Leeds.", "W @Ada: Ada might move to Bristol next year."),
    ("W @Ada: Ada works at Monzo.",
     "W @Ada: Ada interviewed at Wise but turned down the offer."),
    ("W @Ada: Ada lives in Leeds.", "W @Ada: Ada's brother moved to Bristol."),
    ("W @Ada: Ada uses an Android phone.", "W @Ada: Ada said her dad switched to an iPhone."),
    ("W @Ada: Ada lives in Leeds.", "W @Ada: Ada lives in Leeds, near Roundhay Park."),
    ("W @vole: Project Heron ships in May.", "W @vole: Project Heron was renamed to Egret."),
    ("W @Ada: Ada lives in Leeds.", "W @Ada: Ada moved her savings to a new bank."),
    # experiences are history
    ("B @Ada: Ada gave a talk in Leeds.", "W @Ada: Ada lives in Bristol."),
])
def test_what_must_never_supersede(old: str, new: str) -> None:
    assert not supersedes(old, new)


def test_is_statements_do_not_chain_through_a_workspace(memory: Memory) -> None:
    [veg] = retain(memory, "2025-01-10", "W @Peter: Peter is a vegetarian.")
    [eng] = retain(memory, "2025-02-10", "W @Peter: Peter is a software engineer.")
    retain(memory, "2025-03-10", "W @Peter: Peter is 42 years old.")
    [sister] = retain(memory, "2025-01-11", "W @Anna: Anna is Peter's sister.")
    retain(memory, "2025-02-11", "W @Anna: Anna is a doctor.")
    for fact_id in (veg, eng, sister):
        assert memory.get(fact_id, use=False, now="2025-03-11").status == "active"


def test_a_fact_naming_no_entity_never_supersedes_one_that_names_one(memory: Memory) -> None:
    [project] = retain(memory, "2025-01-10", "W @project: The main database is PostgreSQL.")
    result = memory.retain(["W: The main database is MySQL.",
                            "W: Switched the main database from PostgreSQL to MySQL."],
                           date="2025-02-01")
    assert not result.superseded
    assert memory.get(project, use=False, now="2025-02-02").status == "active"
    [plain] = retain(memory, "2025-01-12", "W: The build server is Jenkins.")
    retain(memory, "2025-02-03", "W: The build server is Buildkite.")
    assert memory.get(plain, use=False, now="2025-02-04").status == "superseded"


# -- the agent in the loop: conflicts come back -----------------------------------------

def test_retain_reports_conflicts_it_left_active(run: object) -> None:
    cli = run  # the CLI runner bound to a fresh workspace
    old = cli("retain", "--date", "2025-01-10",  # type: ignore[operator]
              "W @Ada: Ada works at Monzo.").stdout.split()[0]
    out = cli("retain", "--date", "2025-02-01", "--json",  # type: ignore[operator]
              "W @Ada: Ada might leave Monzo for Wise next year.")
    data = json.loads(out.stdout)
    assert data["superseded"] == []
    [conflict] = data["conflicts"]
    assert conflict["id"] == old and conflict["by"] == data["ids"][0]
    assert conflict["judge"] == "rules" and "plan" in conflict["reason"]
    assert conflict["content"] == "Ada works at Monzo." and conflict["source"].endswith("#L4")
    text = cli("retain", "--date", "2025-02-02",  # type: ignore[operator]
               "W @Ada: Ada is thinking about leaving Monzo.")
    assert f"may conflict with {old}" in text.stderr and f"memfold supersede {old}" in text.stderr


def test_retain_reports_what_it_superseded(memory: Memory) -> None:
    [old] = retain(memory, "2025-01-10", "W @Ada: Ada lives in Leeds.")
    result = memory.retain("W @Ada: Ada moved to Bristol in March.", date="2025-03-20")
    [judged] = result.superseded
    assert (judged.id, judged.by, judged.judge) == (old, result.facts[0].id, "rules")
    assert result.to_dict()["superseded"][0]["reason"] == judged.reason
    assert "location" in judged.reason


def test_the_mcp_retain_tool_tells_the_agent_about_conflicts() -> None:
    [tool] = [t for t in tools() if t.name == "retain"]
    assert "conflicts" in tool.description and "supersede" in tool.description


# -- opinions read polarity ---------------------------------------------------------------

def test_an_opposite_opinion_opposes_and_a_stated_change_reverses() -> None:
    concise = fact("O(c=0.8) @Peter: Prefers concise replies on WhatsApp.", 1)
    long = fact("O @Peter: Prefers long detailed replies on WhatsApp.", 2)
    assert stance(concise, long) == OPPOSES
    assert not supersedes("O(c=0.8) @Peter: Prefers concise replies.",
                          "O @Peter: Prefers long detailed replies.")
    now_long = fact("O @Peter: Peter now prefers long detailed replies on WhatsApp.", 3)
    assert stance(concise, now_long) == REVERSES
    again = fact("O @Peter: Peter asked again for concise replies on WhatsApp.", 4)
    assert stance(concise, again) == AGREES


# -- decay archives what nobody needs, not the current truth ---------------------------

def test_time_alone_does_not_archive_the_current_value(memory: Memory) -> None:
    retain(memory, "2025-01-09", "W @Ada: Ada banks with Monzo.")
    [db] = retain(memory, "2025-01-10", "W(i=8) @acme: Acme's database is MySQL.")
    [home] = retain(memory, "2025-01-10", "W @Ada: Ada lives in Bristol.")
    [switch] = retain(memory, "2025-01-11", "W @Ada: Ada switched her bank from Monzo to Wise.")
    [bun] = retain(memory, "2025-01-10",
                   "W(i=8) @me: Investigating Bun.js as an alternative runtime.")
    [talk] = retain(memory, "2025-01-10", "B @Ada: Gave a talk at the Leeds meetup.")
    later = "2025-07-10"  # six months, nobody used any of them
    for fact_id in (db, home, switch):
        assert memory.get(fact_id, use=False, now=later).status == "active"
    # design note 002: a two-day curiosity of importance 8 fades within two months
    assert memory.get(bun, use=False, now="2025-03-10").status == "archived"
    assert memory.get(talk, use=False, now=later).status == "archived"


def test_the_judge_weighs_outside_the_write_lock(workspace: Path) -> None:
    """A model judge may take seconds: it must not hold other writers back meanwhile."""
    import fcntl

    from memfold.lifecycle.judge import Verdict

    lock_free: list[bool] = []

    class Probe:
        name = "probe"

        def weigh(self, new: Fact, older: list[Fact]) -> list[Verdict]:
            with open(workspace / ".memory" / "write.lock", "a") as handle:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    lock_free.append(True)
                    fcntl.flock(handle, fcntl.LOCK_UN)
                except BlockingIOError:
                    lock_free.append(False)
            return [Verdict(o.id, True, "probe") for o in older]

    with Memory.open(workspace, judge=Probe()) as memory:
        [old] = retain(memory, "2025-01-10", "W @Ada: Ada lives in Leeds.")
        result = memory.retain("W @Ada: Ada lives in York.", date="2025-02-10")
    assert lock_free and all(lock_free)
    assert [j.id for j in result.superseded] == [old]  # and its verdict still applied
