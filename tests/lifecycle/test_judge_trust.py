"""Automatic supersedes you can trust (issue 29): the judge supersedes by itself only when the
newer fact states a change, or the current value, of the same subject's same slot; what it is
unsure about comes back as a conflict, left active; and it says the same under any hash seed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from judge_pairs import fact, superseded, verdicts

from memfold import Memory
from memfold.lifecycle.judge.rules import replaces

# -- true facts that were retired (a year of one person's memory, a generated year) ---------

@pytest.mark.parametrize(("old", "new"), [
    # numbers compare only within one unit and one slot
    ("W @Maya: I drive a 2014 Mazda3 hatchback with about 140,000 miles on it.",
     "B @Maya: Ran 10 miles on February 8."),
    # "closed on" a house is a purchase; "flat white" is a coffee, not a flat
    ("W @Maya: My usual coffee order is an oat-milk flat white.",
     "B @Maya: We closed on the Columbia City house."),
    # a comparison is not a change of address
    ("W @Maya: We moved into our own house at 4127 South Alaska Street.",
     "W @Maya: I love how quiet our new street is compared to Ballard."),
    # an experience that shares a word with a state does not end it
    ("S @Falcon: Customers ask for SSO in almost every sales call.",
     "B @Falcon: Refactored the nightly backup job; customers stopped complaining."),
    # one person's job is not another's because both name the same @Org
    ("W @Sam @Globex: Sam is a senior engineer at @Globex.",
     "W @Priya @Globex: Priya is a product manager at @Globex."),
    ("W @Sam: Sam works at @Globex as a senior engineer.",
     "W @Priya: Priya works at @Globex as a designer."),
    # a liking for tea is not a way of being replied to
    ("O @Maya: Maya prefers replies on WhatsApp.", "O @Maya: Maya prefers tea over coffee now."),
])
def test_a_shared_word_or_entity_alone_never_retires_a_fact(old: str, new: str) -> None:
    assert not superseded(old, new)


def test_a_number_in_a_name_is_not_a_quantity() -> None:
    """"401(k)" and "5K" are not one unit: no "K: 401 became 5"."""
    assert replaces(fact("W: Back at Saturday group runs, keeping it to 5K.", 2),
                    fact("W: I contribute 6% of my salary to my 401(k).", 1)) is None


# -- non-changes on the slot: a conflict at most, never a supersede ---------------------

DATABASE = "W @acme: The main database is PostgreSQL."


@pytest.mark.parametrize("new", [
    "W @acme: We should switch the main database to MySQL.",
    "W @acme: Bob thinks we should move to MySQL.",
    "W @acme: A move to MySQL is under discussion.",
    "W @acme: Alice's previous company switched to MySQL.",
    "W @acme: A vendor pitched us MySQL as the main database.",
    "W @acme: Is the main database MySQL now? Need to check.",
])
def test_suggestions_questions_pitches_and_others_history_never_supersede(new: str) -> None:
    assert not superseded(DATABASE, new)


def test_a_restatement_does_not_supersede_what_it_repeats() -> None:
    assert not superseded("O @Dana: Dana prefers email rather than phone calls.",
                          "O @Dana: Dana prefers email rather than phone calls, she said again.")


# -- changes that were missed -----------------------------------------------------------

@pytest.mark.parametrize("new", [
    "W @acme: The team dropped Postgres in favour of MySQL.",
    "W @acme: Cutover to MySQL done; the old Postgres cluster is decommissioned.",
])
def test_a_change_said_with_an_alias_supersedes(new: str) -> None:
    assert superseded(DATABASE, new)


@pytest.mark.parametrize(("old", "new"), [
    ("W @Dana: Works at @Acme.", "W @Dana: Works at @Globex now."),
    ("W @Dana: Her manager is @Priya.", "W @Dana: Her manager is now @Tom."),
])
def test_an_at_mention_in_the_content_is_read_as_the_value(old: str, new: str) -> None:
    assert superseded(old, new)


def test_at_mentions_supersede_through_retain(memory: Memory) -> None:
    old = memory.retain("W @Dana: Works at @Acme.", date="2025-01-10").facts[0]
    result = memory.retain("W @Dana: Works at @Globex now.", date="2025-03-01")
    assert [j.id for j in result.superseded] == [old.id]


def test_a_reversed_liking_is_at_least_a_conflict() -> None:
    assert verdicts("O @Dana: Likes GraphQL.", "O @Dana: Dislikes GraphQL.")


# -- the same decisions and reasons under any hash seed ---------------------------------

_SCRIPT = """
import json, sys
from memfold.lifecycle.judge import RuleJudge
from memfold.workspace.format import parse_document
def fact(b, n):
    return parse_document("memory/2025-01-10.md",
                          f"# 2025-01-10\\n\\n## Retain\\n- {b} ^fact{n:04d}\\n").facts[0]
pairs = json.loads(sys.argv[1])
print(json.dumps([[(v.supersedes, v.reason) for v in RuleJudge().weigh(fact(n, 2), [fact(o, 1)])]
                  for o, n in pairs]))
"""


def test_reasons_do_not_change_with_the_hash_seed() -> None:
    pairs = [["W @acme: We use PostgreSQL.", "W @acme: We now use MySQL instead of Postgres."],
             ["W @acme: We use PostgreSQL.", "W @acme: Now on MySQL; Postgres is archived."],
             ["W @acme: Acme stores data in PostgreSQL.",
              "W @acme: MySQL and Redis are now Acme's datastores, not Postgres."]]
    seen = set()
    for seed in ("0", "1", "2", "3", "4", "5"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", _SCRIPT, json.dumps(pairs)], env=env,
                             capture_output=True, text=True, check=True).stdout
        seen.add(out)
        assert "became 'Postgres'" not in out
    assert len(seen) == 1


# -- readings the held-out pairs found weak: indirect moves, renames, ends, reversals ----

@pytest.mark.parametrize(("old", "new", "reason"), [
    ("W @Ingrid: Ingrid has a house in Bergen where she lives.",
     "W @Ingrid: Home for Ingrid is Reykjavik now.", "location: 'Bergen' became 'Reykjavik'"),
    ("W @Ana: Ana's surname is Costa.",
     "W @Ana: Ana took her husband's name — she's Ana Ribeiro now.",
     "name: 'Costa' became 'Ribeiro'"),
    ("W @Quillo: The shop trades as Quillo Bakes.", "W @Quillo: The shop is now known as Crumb.",
     "name: 'Bakes' became 'Crumb'"),
    ("W @Lena: Lena drinks alcohol at weekends.", "W @Lena: Lena is alcohol-free now.",
     "the newer fact says 'alcohol' ended"),
    ("W @Marco: Marco is single.", "W @Marco: Marco is seeing someone from his climbing gym.",
     "relationship: 'single' became 'seeing someone"),
    ("O @Omar: Omar likes emoji in replies.", "O @Omar: Omar asked me to drop the emoji.",
     "the newer fact says 'emoji' ended"),
    ("W @Harbor: Harbor AI's models are served from A100s.",
     "W @Harbor: Beginning with the 4.0 release, Harbor AI's models are served from H100s.",
     "AI's models: 'A100s' became 'H100s'"),
])
def test_indirect_changes_supersede_with_a_reason_a_person_reads(old: str, new: str,
                                                                 reason: str) -> None:
    [verdict] = verdicts(old, new)
    assert verdict.supersedes and verdict.reason.startswith(reason)


@pytest.mark.parametrize("new", [
    "W @Lina: Lina has moved to York.",
    "W @Lina: Lina's new place is in York.",
    "W @Lina: These days Lina lives in York.",
    "W @Lina: Lina's address is now in York.",
])
def test_a_move_said_in_other_words_supersedes(new: str) -> None:
    [verdict] = verdicts("W @Lina: Lina lives in Leeds.", new)
    assert verdict.supersedes and verdict.reason == "location: 'Leeds' became 'York'"


@pytest.mark.parametrize(("old", "new", "reason"), [
    ("W @Rho: Rho uses Python 3.10.", "W @Rho: Rho is on Python 3.12 now.",
     "Python: 3.10 became 3.12"),
    ("W @Rho: Rho's phone is an iPhone 12.", "W @Rho: Rho got an iPhone 15.",
     "iPhone: 12 became 15"),
    ("W @Rho: Rho works at Acme.", "W @Rho: Rho started a new job at Globex.",
     "employer: 'Acme' became 'Globex'"),
    ("W @Rho: Rho is a nurse.", "W @Rho: Rho retrained and works as a paramedic now.",
     "role: 'nurse' became 'paramedic'"),
    ("O @Rho: Rho likes long detailed answers.",
     "O @Rho: Rho asked for shorter answers from now on.",
     "the opinion turned from 'long detailed' to 'shorter'"),
    ("W @Rho: Rho's manager is @Kim.", "W @Rho: @Lee manages Rho now.",
     "manager: 'Kim' became 'Lee'"),
    ("W @Rho: Rho is on the @Falcon team.", "W @Rho: Rho moved to the @Osprey team.",
     "team: 'Falcon team' became 'Osprey team'"),
])
def test_upgrades_jobs_teams_and_reversals_said_plainly_supersede(old: str, new: str,
                                                                  reason: str) -> None:
    [verdict] = verdicts(old, new)
    assert verdict.supersedes and verdict.reason == reason


# -- an entity page's aliases name the same subject and the same value ------------------

def test_an_alias_from_an_entity_page_is_the_same_subject_and_value(workspace: Path) -> None:
    pages = workspace / "bank" / "entities"
    pages.mkdir(parents=True, exist_ok=True)
    (pages / "Peter.md").write_text("---\naliases: [Pete]\n---\n# Peter\n", encoding="utf-8")
    (pages / "Acme.md").write_text("---\naliases: [AcmeCorp]\n---\n# Acme\n", encoding="utf-8")
    with Memory.open(workspace) as memory:
        memory.index()
        home = memory.retain("W @Peter: Peter lives in Leeds.", date="2025-01-10").facts[0]
        moved = memory.retain("W @Pete: Pete moved to York.", date="2025-03-01")
        assert [j.id for j in moved.superseded] == [home.id]
        job = memory.retain("W @Pete: Works at @Acme.", date="2025-04-01").facts[0]
        same = memory.retain("W @Peter: Works at @AcmeCorp now.", date="2025-05-01")
        assert not same.superseded and not same.conflicts
        changed = memory.retain("W @Peter: Works at @Globex now.", date="2025-06-01")
        assert job.id in {j.id for j in changed.superseded}


@pytest.mark.parametrize(("old", "new"), [
    ("W @Rho: The building permit is still pending.",
     "W @Rho: The building permit came through last week."),
    ("W @Rho: The mobile app is in private beta.", "W @Rho: The mobile app is out of beta."),
    ("W @Rho: The refund is pending.", "W @Rho: The refund arrived."),
])
def test_a_status_that_moved_on_in_other_words_supersedes(old: str, new: str) -> None:
    assert superseded(old, new)


def test_an_unstated_subject_is_the_first_name_before_the_colon() -> None:
    assert not verdicts("W @Sam @Globex: Works at Globex as an engineer.",
                        "W @Priya @Globex: Works at Globex as a designer.")


def test_a_named_subject_is_not_widened_to_the_org_it_holds_a_role_at() -> None:
    """"Priya is the CTO of Globex" is about Priya: it does not end Sam's role there."""
    assert not verdicts("W @Sam @Globex: Sam is the CFO of Globex.",
                        "W @Priya @Globex: Priya is the CTO of Globex.")


@pytest.mark.parametrize(("old", "new", "reason"), [
    ("O @Rho: Rho prefers to be called Robert.", "O @Rho: Rho asked to be called Rob from now on.",
     "name: 'Robert' became 'Rob'"),
    ("W @Rho: The newsletter is written by Maria.",
     "W @Rho: Starting this month, Tom writes the newsletter.",
     "newsletter: 'Maria' became 'Tom'"),
    ("W @Rho: Rho is a teacher.", "W @Rho: Rho quit teaching to become a nurse.",
     "role: 'teacher' became 'nurse'"),
    ("W @Rho: Rho's landlord is @Kim.", "W @Rho: The flat was sold; @Lee is Rho's landlord now.",
     "landlord: 'Kim' became 'Lee'"),
])
def test_names_owners_roles_and_landlords_said_otherwise_supersede(old: str, new: str,
                                                                   reason: str) -> None:
    [verdict] = verdicts(old, new)
    assert verdict.supersedes and verdict.reason == reason


def test_the_same_words_written_again_are_neither_a_change_nor_a_conflict() -> None:
    said = "O(c=0.6) @Ines: Ines finds the open-plan office too noisy."
    assert verdicts(said, said) == []  # found by `memfold bench year`: 'open plan' became 'open'


@pytest.mark.parametrize("new", [
    "W @Felix: Felix is interviewing for Data Engineer roles.",
    "W @Felix: Felix applied for a Staff Engineer role at Globex.",
    "W @Felix: Felix is job-hunting for product roles.",
])
def test_looking_for_a_new_role_does_not_end_the_current_one(new: str) -> None:
    assert not superseded("W @Felix: Felix works as Engineering Manager.", new)
