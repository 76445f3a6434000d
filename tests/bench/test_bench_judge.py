"""`memfold bench judge`: labelled pairs scored through the public API, results saved, bad
input refused with the file and line named."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from memfold.cli.main import cli
from memfold_bench import judge_bench


def pair(pid: str, old: str, new: str, supersedes: bool, category: str, *,
         old_date: str = "2024-01-10", new_date: str = "2024-06-01") -> dict[str, object]:
    return {"id": pid, "old": old, "new": new, "old_date": old_date, "new_date": new_date,
            "supersedes": supersedes, "category": category, "why": "written for the test"}


# Two pairs are labelled against plain sense ("mislabelled"), so a judge that reads the
# other pairs right gets exactly these two wrong: one false positive, one false negative.
PAIRS = [
    pair("p1", "W @Peter: Lives in Vienna.", "W @Peter: Lives in Berlin.", True,
         "location-move"),
    pair("p2", "W @Acme: The main database is PostgreSQL.",
         "W @Acme: Acme switched from PostgreSQL to MySQL.", True, "replacement"),
    pair("p3", "W @Peter: Speaks French.", "W @Peter: Speaks German.", False, "multi-valued"),
    pair("p4", "W @Peter: Speaks French.", "B @Peter: Visited Paris for a weekend.", False,
         "multi-valued", new_date="2024-01-10"),
    pair("p5", "W @Anna: Lives in Graz.", "W @Anna: Lives in Munich.", False, "mislabelled"),
    pair("p6", "W @Peter: Lives in Vienna.", "W @Anna: Likes green tea.", True, "mislabelled"),
    pair("p7", "W @Acme: Acme sells garden tools.", "W @Globex: Globex hired a new CFO.", True,
         "mislabelled"),
]


def write_pairs(path: Path, rows: list[dict[str, object]], *, extra: str = "") -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows) + extra, encoding="utf-8")
    return path


def bench(*args: str) -> Result:
    return CliRunner().invoke(cli, ["bench", "judge", *args])


@pytest.fixture
def pairs_file(tmp_path: Path) -> Path:
    return write_pairs(tmp_path / "pairs.jsonl", PAIRS)


def test_scores_the_pairs_prints_the_table_and_saves_the_results(pairs_file: Path,
                                                                  tmp_path: Path) -> None:
    out = tmp_path / "results" / "judge.json"
    result = bench(str(pairs_file), "--out", str(out), "--repeat", "3")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "pairs.jsonl (7 pairs), judge rules" in text
    assert "precision 66.7%  recall 50.0%  F1 57.1%  (TP 2, FP 1, FN 2, TN 2)" in text
    rows = {line.split()[0]: line.split()[1:] for line in text.splitlines()
            if line.split() and line.split()[0] in ("location-move", "multi-valued",
                                                     "mislabelled", "all")}
    assert rows == {"location-move": ["1", "1", "1", "1", "0"],
                    "multi-valued": ["2", "0", "0", "2", "0"],
                    "mislabelled": ["3", "2", "1", "0", "0"], "all": ["7", "4", "3", "4", "0"]}
    wrong = [line.split() for line in text.splitlines() if line.startswith("  p")]
    assert [w[0] for w in wrong] == ["p5", "p6", "p7"]
    p5 = next(line for line in text.splitlines() if line.startswith("  p5"))
    assert "expected kept" in p5 and "got supersedes — rules:" in p5
    assert "cost: judge" in text and "ms per candidate pair" in text
    assert "retain of the newer fact" in text

    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["benchmark"] == "judge" and data["judge"] == "rules"
    assert data["dataset"] == {"file": "pairs.jsonl", "pairs": 7,
                               "sha256": hashlib.sha256(pairs_file.read_bytes()).hexdigest()}
    assert data["counts"] == {"pairs": 7, "tp": 2, "fp": 1, "fn": 2, "tn": 2, "offered": 0,
                              "offered_false": 0}
    assert data["false_offers"] == 0.0
    assert data["precision"] == pytest.approx(2 / 3) and data["recall"] == pytest.approx(0.5)
    assert data["f1"] == pytest.approx(4 / 7)
    assert data["categories"]["mislabelled"] == {"pairs": 3, "expected_true": 2,
                                                 "judged_true": 1, "correct": 0,
                                                 "offered": 0}
    assert [(m["id"], m["expected"], m["got"]) for m in data["misjudged"]] == [
        ("p5", False, True), ("p6", True, False), ("p7", True, False)]
    assert data["misjudged"][0]["judge"] == "rules" and data["misjudged"][0]["reason"]
    assert data["misjudged"][1]["reason"] is None
    assert [o["id"] for o in data["outcomes"]] == [f"p{n}" for n in range(1, 8)]
    assert data["parameters"]["repeat"] == 3
    for key in ("weigh_per_pair", "retain_newer"):
        figures = data["timings"][key]
        assert set(figures) == {"median_ms", "p90_ms", "max_ms"}
        assert 0 < figures["median_ms"] <= figures["p90_ms"] <= figures["max_ms"]


def test_a_change_left_as_a_conflict_counts_as_offered(tmp_path: Path) -> None:
    """A true pair the judge only reports (a conflict in the retain result) is offered:
    not a hit for recall, but counted in superseded-or-offered."""
    rows = [pair("o1", "W @Acme: The main database is PostgreSQL.",
                 "W @Acme: Acme might move from PostgreSQL to MySQL.", True, "guarded"),
            pair("o2", "W @Peter: Lives in Vienna.", "W @Peter: Lives in Berlin.", True,
                 "location-move")]
    out = tmp_path / "judge.json"
    result = bench(str(write_pairs(tmp_path / "o.jsonl", rows)), "--out", str(out),
                   "--repeat", "1")
    assert result.exit_code == 0, result.output
    assert "superseded or offered 100.0% of the true pairs (1 more came back" in result.stdout
    assert "o1" in result.stdout and "(offered as a conflict)" in result.stdout
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["counts"]["offered"] == 1 and data["recall"] == pytest.approx(0.5)
    assert data["superseded_or_offered"] == pytest.approx(1.0)
    assert data["categories"]["guarded"]["offered"] == 1
    assert [o["offered"] for o in data["outcomes"]] == [True, False]


def test_a_non_change_offered_is_counted_as_a_false_offer(tmp_path: Path) -> None:
    """A pair labelled no change that still comes back in the conflicts costs the user a
    look for nothing: the bench counts it apart from the offered changes."""
    rows = [pair("f1", "W @Acme: The main database is PostgreSQL.",
                 "W @Acme: Acme might move from PostgreSQL to MySQL.", False, "plan"),
            pair("f2", "W @Peter: Speaks French.", "W @Peter: Speaks German.", False,
                 "multi-valued")]
    out = tmp_path / "judge.json"
    result = bench(str(write_pairs(tmp_path / "f.jsonl", rows)), "--out", str(out),
                   "--repeat", "1")
    assert result.exit_code == 0, result.output
    assert "false offers 50.0% of the pairs that are no change (1 of 2" in result.stdout
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["counts"]["offered"] == 0 and data["counts"]["offered_false"] == 1
    assert data["false_offers"] == pytest.approx(0.5)
    assert data["superseded_or_offered"] is None


def test_json_prints_what_it_saves_and_quiet_hides_the_list(pairs_file: Path,
                                                             tmp_path: Path) -> None:
    out = tmp_path / "judge.json"
    result = bench(str(pairs_file), "--json", "--out", str(out), "--repeat", "1")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == json.loads(out.read_text(encoding="utf-8"))
    for flag in ("--quiet", "--no-errors"):
        quiet = bench(str(pairs_file), flag, "--out", str(out), "--repeat", "1")
        assert quiet.exit_code == 0, quiet.output
        assert "precision 66.7%" in quiet.stdout and "misjudged" not in quiet.stdout
        assert "  p5" not in quiet.stdout


def test_categories_choose_the_pairs_scored(pairs_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "judge.json"
    chosen = bench(str(pairs_file), "--category", "location-move,multi-valued",
                   "--category", "replacement", "--out", str(out), "--repeat", "1")
    assert chosen.exit_code == 0, chosen.output
    assert "(7 pairs, 4 scored)" in chosen.stdout
    assert "precision 100.0%  recall 100.0%  F1 100.0%  (TP 2, FP 0, FN 0, TN 2)" \
        in chosen.stdout
    assert "misjudged: none" in chosen.stdout
    data = json.loads(out.read_text(encoding="utf-8"))
    assert set(data["categories"]) == {"location-move", "multi-valued", "replacement"}
    assert data["parameters"]["categories"] == ["location-move", "multi-valued", "replacement"]

    left = bench(str(pairs_file), "--exclude-category", "mislabelled", "--json",
                 "--out", str(out), "--repeat", "1")
    assert left.exit_code == 0, left.output
    assert json.loads(left.stdout)["counts"] == {"pairs": 4, "tp": 2, "fp": 0, "fn": 0, "tn": 2,
                                                 "offered": 0, "offered_false": 0}

    unknown = bench(str(pairs_file), "--category", "no-such", "--out", str(out))
    assert unknown.exit_code == 2
    assert "no pairs in category 'no-such'" in unknown.output
    emptied = bench(str(pairs_file), "--category", "mislabelled",
                    "--exclude-category", "mislabelled", "--out", str(out))
    assert emptied.exit_code == 2 and "leave no pairs" in emptied.output


def test_default_output_is_benchmarks_results_judge_json(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write_pairs(tmp_path / "pairs.jsonl", PAIRS[:2])
    result = bench("pairs.jsonl", "--repeat", "1")
    assert result.exit_code == 0, result.output
    saved = json.loads((tmp_path / "benchmarks/results/judge.json").read_text(encoding="utf-8"))
    assert saved["counts"]["pairs"] == 2


GOOD = dict(PAIRS[0])
MALFORMED = {
    "not JSON": ('{"id": "x", "old": ', "not JSON"),
    "not an object": ('["p1", "W @Peter: x."]', "expected a JSON object"),
    "missing key": (json.dumps({k: v for k, v in GOOD.items() if k != "new_date"}),
                    "missing key 'new_date'"),
    "wrong type": (json.dumps({**GOOD, "supersedes": "yes"}), "'supersedes' must be a boolean"),
    "number as text": (json.dumps({**GOOD, "old": 42}), "'old' must be a string"),
    "bullet that does not parse": (json.dumps({**GOOD, "new": "Q @Peter: Lives in Rome."}),
                                   "new: unknown kind 'Q'"),
    "empty bullet": (json.dumps({**GOOD, "old": "W @Peter:"}), "old: empty content"),
    "bad date": (json.dumps({**GOOD, "old_date": "10/01/2024"}), "old_date '10/01/2024'"),
    "new before old": (json.dumps({**GOOD, "old_date": "2024-06-02"}),
                       "new_date 2024-06-01 is before old_date 2024-06-02"),
    "duplicate id": (json.dumps({**GOOD, "id": "p2"}), "id 'p2' is already used on line 2"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_line_is_named_and_nothing_runs(case: str, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    line, message = MALFORMED[case]
    path = write_pairs(tmp_path / "bad.jsonl", PAIRS[:2], extra="\n" + line + "\n")

    def must_not_run(*args: object, **kwargs: object) -> object:
        raise AssertionError("pairs were run before the file was checked")

    monkeypatch.setattr(judge_bench, "run_pairs", must_not_run)
    out = tmp_path / "judge.json"
    result = bench(str(path), "--out", str(out))
    assert result.exit_code == 2, result.output
    (error,) = result.output.strip().splitlines()  # one line, no traceback
    assert error.startswith(f"memfold: error: {path}:4: ")  # line 3 is blank
    assert message in error
    assert not out.exists()


def test_missing_empty_and_blank_files_are_refused(tmp_path: Path) -> None:
    out = tmp_path / "judge.json"
    missing = bench(str(tmp_path / "nope.jsonl"), "--out", str(out))
    assert missing.exit_code == 2 and "does not exist" in missing.output
    for name, text in (("empty.jsonl", ""), ("blank.jsonl", "\n  \n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
        result = bench(str(tmp_path / name), "--out", str(out))
        assert result.exit_code == 2
        assert result.output.strip() == (f"memfold: error: {tmp_path / name} holds no pairs: "
                                          "give one JSON object per line")
    (tmp_path / "latin1.jsonl").write_bytes(b'{"id": "\xe9"}\n')
    unreadable = bench(str(tmp_path / "latin1.jsonl"), "--out", str(out))
    assert unreadable.exit_code == 2 and "cannot read" in unreadable.output
    assert not out.exists()


def test_an_unknown_judge_is_refused(pairs_file: Path, tmp_path: Path) -> None:
    result = bench(str(pairs_file), "--judge", "oracle", "--out", str(tmp_path / "j.json"))
    assert result.exit_code == 2
    assert "'oracle' is not a judge memfold knows; use one of: rules, openai" in result.output
