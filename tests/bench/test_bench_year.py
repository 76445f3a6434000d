"""`memfold bench year`: a deterministic generated year whose planted changes are known, and
supersedes scored against them (right, wrong, per 1,000, superseded or offered)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from memfold.cli.main import cli
from memfold_bench import year_bench as yb
from memfold_bench.year_corpus import CHANGE, NON_CHANGE, PLAIN, STATE, Corpus, Planted, generate


def test_the_generated_year_is_deterministic_and_its_changes_replace_their_slot() -> None:
    one, again = generate(seed=3, days=60, people=4), generate(seed=3, days=60, people=4)
    assert one == again and one != generate(seed=4, days=60, people=4)
    facts = {f.key: f for f in one.facts}
    assert [f.day for f in one.facts] == sorted(f.day for f in one.facts)
    changes = [f for f in one.facts if f.plant == CHANGE]
    assert changes and {f.plant for f in one.facts} == {STATE, CHANGE, NON_CHANGE, PLAIN}
    for change in changes:
        assert change.replaces
        for key in change.replaces:
            older = facts[key]
            assert older.day < change.day and older.plant in (STATE, CHANGE, NON_CHANGE)
            if (older.subject, older.slot) != (change.subject, change.slot):
                # another's fact that stated this slot in passing (the next test)
                assert f"{change.subject}'s {change.slot} is " in older.bullet
                continue
            assert older.plant != NON_CHANGE or older.category == "restatement"


def test_a_slot_stated_in_passing_is_replaced_by_its_next_change_to_another_value() -> None:
    """"Kenji's manager is Amara too", planted beside another person's manager, says who
    manages Kenji: Kenji's next change of manager to someone else makes it untrue."""
    year = generate(seed=3, days=120, people=4)
    facts = {f.key: f for f in year.facts}
    replaced = [(facts[k].bullet, c.bullet) for c in year.facts if c.plant == CHANGE
                for k in c.replaces if facts[k].subject != c.subject]
    assert ("W @Kenji @Amara: Kenji's manager is Amara too.",
            "W @Kenji: Kenji's manager is now @Dana.") in replaced


def fact(key: str, plant: str, bullet: str = "W @x: y.", *, replaces: tuple[str, ...] = (),
         subject: str | None = "Kenji", slot: str | None = "home",
         category: str = "c") -> Planted:
    return Planted(key, date(2025, 1, int(key[1:])), bullet, plant, category, subject, slot,
                   replaces)


CORPUS = Corpus(0, 30, date(2025, 1, 1), (
    fact("y1", STATE),
    fact("y2", NON_CHANGE, category="plan"),
    fact("y3", CHANGE, replaces=("y1",)),
    fact("y4", PLAIN, subject=None, slot=None),
    fact("y5", CHANGE, replaces=("y1", "y3")),
), ("Kenji",))


def retired(old: str, new: str, rule: str = "r") -> yb.Retired:
    return yb.Retired(old, new, "rules", "why", rule)


def test_a_supersede_is_right_only_when_a_change_retires_what_it_replaces() -> None:
    run = yb.Run("retained", conflicts=1,
                 retired=[retired("y1", "y3"),            # right
                          retired("y2", "y3", "plan"),    # a change retired a plan: wrong
                          retired("y4", "y5", "topic")],  # a change retired a plain fact
                 offered={"y5": {"y3"}})
    got = yb.score(run, CORPUS)
    assert (got["supersedes"], got["right"], got["wrong"]) == (3, 1, 2)
    assert got["precision"] == pytest.approx(1 / 3)
    assert got["wrongly_retired_per_1000"] == pytest.approx(1000 * 2 / 5)
    assert got["wrong_by_rule"] == {"plan": 1, "topic": 1}
    assert got["wrong_by_older_fact"] == {"non-change plan (same slot)": 1, "plain c": 1}
    # y3 superseded y1; y5 superseded nothing it replaces but was offered y3
    assert got["changes"]["superseded"] == 0.5
    assert got["changes"]["superseded_or_offered"] == 1.0


def test_rules_are_read_from_the_reason_with_the_values_blanked() -> None:
    assert yb.rule_of("miles: 140000 became 10", {}) == "…: N became N"
    assert yb.rule_of("database: 'PostgreSQL' became 'MySQL'", {}) == "…: '…' became '…'"
    assert yb.rule_of("the newer fact says 'house' ended", {}) == \
        "the newer fact says '…' ended"
    assert yb.rule_of("anything", {"rule": "ended"}) == "ended"


def test_conflicts_are_counted_by_rule_and_guard() -> None:
    assert yb.conflict_rule("rules", "location: 'Leeds' became 'York'") == "value"
    assert yb.conflict_rule("rules", "location: 'Leeds' became 'York', but the newer fact "
                            "is a plan or a hypothetical") == \
        "value, guarded: a plan or a hypothetical"
    assert yb.conflict_rule("rules", "same topic: Acme") == "topic"


SMALL = Corpus(0, 60, date(2025, 1, 1), (
    fact("y1", STATE, "W @Kenji: Kenji lives in Berlin."),
    fact("y2", PLAIN, "B @Kenji: Had lunch with Kenji at the pier.", subject=None, slot=None),
    fact("y3", CHANGE, "W @Kenji: Kenji moved from Berlin to Zurich.", replaces=("y1",)),
), ("Kenji",))


def test_runs_both_ways_through_the_cli(monkeypatch: pytest.MonkeyPatch,
                                        tmp_path: Path) -> None:
    monkeypatch.setattr(yb, "generate", lambda **_: SMALL)
    out = tmp_path / "year.json"
    result = CliRunner().invoke(cli, ["bench", "year", "--days", "60", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "3 facts (1 states, 1 changes, 0 non-changes, 1 plain)" in result.stdout
    offered = next(line for line in result.stdout.splitlines() if "or offered" in line)
    assert offered.split()[-2:] == ["100.0%", "-"]  # the indexed run offers nothing
    saved = json.loads(out.read_text(encoding="utf-8"))
    retained, indexed = saved["runs"]["retained"], saved["runs"]["indexed"]
    assert retained["facts_read_back"] == indexed["facts_read_back"] == 3
    assert (retained["supersedes"], retained["right"], retained["precision"]) == (1, 1, 1.0)
    assert retained["changes"]["superseded"] == 1.0
    assert retained["wrongly_retired_per_1000"] == 0
    assert indexed["conflicts_reported"] is None
    assert indexed["changes"]["superseded_or_offered"] is None
    only = CliRunner().invoke(cli, ["bench", "year", "--only", "indexed", "--json",
                                    "--out", str(tmp_path / "only.json")])
    assert list(json.loads(only.stdout)["runs"]) == ["indexed"]
