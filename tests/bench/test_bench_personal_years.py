"""`memfold bench personal-years`: several years scored as a split — each year counts once in
the mean of a category, whatever its number of questions; the judge pooled over the years
that have a NAME-changes.json beside them; `--blind` keeps no question; a missing file is
one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from memfold.cli.main import cli
from memfold_bench import personal_years as py


def _result(p1: float, answerable: int, lifecycle: dict[str, float] | None = None,
            facts: int = 100) -> dict[str, object]:
    group = {"questions": answerable, "answerable": answerable,
             "memfold": {"p@1": p1, "r@5": 1.0, "r@10": 1.0},
             "floor": {"p@1": 0.0, "r@5": 0.5, "r@10": 0.5}}
    judged = {"lifecycle": lifecycle} if lifecycle is not None else {}
    return {"categories": {"overall": group, "single": group}, "judged": judged,
            "dataset": {"facts": facts}}


def _lifecycle(made: int, marked: int, unmarked: int, changes: int, superseded: float,
               offered: float) -> dict[str, float]:
    return {"automatic_supersedes": made, "as_marked": marked, "through_another_fact": 0,
            "unmarked": unmarked, "offers": 0, "offers_of_unmarked": 0, "changes": changes,
            "changes_superseded": superseded, "changes_superseded_or_offered": offered}


def test_each_year_counts_once_in_the_mean() -> None:
    means = py.year_means([_result(1.0, 10), _result(0.0, 90)])
    assert means["single"]["memfold"]["p@1"] == pytest.approx(0.5)  # not 0.1, pooled
    assert means["single"]["years"] == 2 and means["single"]["answerable"] == 100
    assert means["overall"]["floor"]["r@5"] == pytest.approx(0.5)


def test_the_judge_is_pooled_over_the_years_with_marked_changes() -> None:
    pooled = py.pooled_lifecycle([
        _result(1.0, 10, _lifecycle(10, 9, 1, 20, 0.5, 1.0), facts=200),
        _result(1.0, 10, _lifecycle(30, 27, 3, 60, 0.25, 0.5), facts=300),
        _result(1.0, 10, None, facts=1000)])  # no changes file: not counted
    assert pooled is not None
    assert pooled["years"] == 2 and pooled["facts"] == 500
    assert pooled["automatic_supersedes"] == 40 and pooled["right"] == pytest.approx(0.9)
    assert pooled["unmarked_per_1000_facts"] == pytest.approx(8.0)
    # weighed by each year's number of changes: (0.5 * 20 + 0.25 * 60) / 80
    assert pooled["changes_superseded"] == pytest.approx(25 / 80)
    assert pooled["changes_superseded_or_offered"] == pytest.approx(50 / 80)
    assert py.pooled_lifecycle([_result(1.0, 10, None)]) is None


YEAR = {"facts": [{"key": "f1", "date": "2025-01-05", "bullet": "W @me: I live in Leeds."},
                  {"key": "f2", "date": "2025-03-01",
                   "bullet": "W @me: I moved from Leeds to York; I live in York now."}],
        "questions": [{"q": "Where do I live?", "now": "2025-04-01T09:00:00", "gold": ["f2"],
                       "category": "current"},
                      {"q": "What is my blood type?", "now": "2025-04-01T09:00:00",
                       "gold": [], "category": "negative"}]}


def test_scores_the_years_through_the_cli_and_blind_keeps_no_question(tmp_path: Path) -> None:
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    for path in (one, two):
        path.write_text(json.dumps(YEAR), encoding="utf-8")
    (tmp_path / "one-changes.json").write_text(json.dumps([{"older": "f1", "newer": "f2"}]),
                                               encoding="utf-8")
    out = tmp_path / "out.json"
    result = CliRunner().invoke(cli, ["bench", "personal-years", str(one), str(two),
                                      "--blind", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "judge over 1 years" in result.output
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert [y["file"] for y in saved["years"]] == ["one.json", "two.json"]
    assert saved["means"]["current"]["memfold"]["p@1"] == pytest.approx(1.0)
    assert saved["lifecycle"]["automatic_supersedes"] == 1 and saved["lifecycle"]["right"] == 1
    assert "Where do I live" not in out.read_text(encoding="utf-8")
    assert "supersede_pairs" not in json.dumps(saved)


def test_a_missing_year_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["bench", "personal-years", str(tmp_path / "none.json")])
    assert result.exit_code == 2 and "does not exist" in result.output
    assert "Traceback" not in result.output
