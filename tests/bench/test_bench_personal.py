"""`memfold bench personal`: facts retained on their dates, questions asked at their time,
P@1 / R@k / never-stated figures computed right, the floor beside, results saved, bad input
refused with one line."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from memfold.cli.main import cli
from memfold_bench import personal_bench as pb

FACTS = [
    {"key": "f1", "date": "2025-01-05", "bullet": "W @me: I ride a Brompton folding bicycle."},
    {"key": "f2", "date": "2025-01-09", "bullet": "W @Nell: Nell plays the bassoon."},
    {"key": "f3", "date": "2025-06-01", "bullet": "B @me: Adopted a tortoise named Shelly."},
]
QUESTIONS = [
    # asked before f3 is written: nothing may answer it yet
    {"q": "What is the tortoise called?", "now": "2025-03-01T09:00:00", "gold": ["f3"],
     "category": "single"},
    {"q": "What is the tortoise called?", "now": "2025-07-01T09:00:00", "gold": ["f3"],
     "category": "single"},
    {"q": "Which bicycle and which bassoon?", "now": "2025-07-01T09:00:00",
     "gold": ["f1", "f2"], "category": "multi"},
    {"q": "What is my blood type?", "now": "2025-07-01T09:00:00", "gold": [],
     "category": "negative"},
]


def write(path: Path, facts: list[dict[str, str]], questions: list[dict[str, object]]) -> Path:
    path.write_text(json.dumps({"facts": facts, "questions": questions}), encoding="utf-8")
    return path


def bench(*args: str) -> Result:
    return CliRunner().invoke(cli, ["bench", "personal", *args])


def answer(gold: list[str], ranked: list[str | None], *, weak: bool = False,
           category: str = "single") -> pb.Answer:
    q = pb.Question("q", datetime(2025, 1, 1, tzinfo=UTC), tuple(gold), category)
    return pb.Answer(q, {"memfold": ranked}, {"memfold": weak}, {"memfold": weak},
                     {"memfold": not ranked}, {"memfold": None}, {"memfold": 0.0})


def test_figures_count_p_at_1_recall_at_k_and_never_stated() -> None:
    answers = [answer(["a"], ["a", "b"]),                                 # P@1 1, R 1
               answer(["a", "b"], ["x", "a", None, "y", "z", "b"]),       # P@1 0, R@5 .5, R@10 1
               answer(["a"], []),                                         # nothing: 0
               answer([], [], weak=True, category="negative"),            # nothing
               answer([], ["x"], weak=True, category="negative"),         # weak only
               answer([], ["x"], category="negative")]                    # a real match
    got = pb.figures(answers, "memfold")
    assert got["p@1"] == pytest.approx(1 / 3)
    assert got["r@5"] == pytest.approx(1.5 / 3) and got["r@10"] == pytest.approx(2 / 3)
    assert got["nothing"] == pytest.approx(1 / 3)
    assert got["nothing_or_weak"] == pytest.approx(2 / 3)
    assert got["answerable_flagged_weak"] == 0


def test_a_hit_is_weak_when_its_why_names_no_word_of_the_question() -> None:
    assert pb.is_weak("similar meaning") and pb.is_weak("next to ^ab12; entity @Sam")
    assert not pb.is_weak("words tortoise; entity @me")


def test_floor_drops_stop_words_and_sees_only_facts_written_by_then() -> None:
    facts = pb.read_facts(FACTS, Path("x"))
    floor = pb.Floor(facts)
    try:
        assert pb.Floor.query("What is the tortoise called?") == '"tortoise" OR "called"'
        assert floor.rank("tortoise", datetime(2025, 3, 1, tzinfo=UTC), 10) == []
        assert floor.rank("tortoise", datetime(2025, 6, 1, tzinfo=UTC), 10) == ["f3"]
        assert floor.rank("tortoise", None, 10) == ["f3"]
    finally:
        floor.close()


def test_replays_the_year_and_scores_through_the_cli(tmp_path: Path) -> None:
    data = write(tmp_path / "year.json", FACTS, QUESTIONS)
    out = tmp_path / "results" / "personal.json"
    result = bench(str(data), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "year.json, 3 facts, 4 questions; mode lexical" in result.stdout
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved["benchmark"] == "personal" and saved["judged"]["retained"] == 3
    asked = {(q["q"], q["now"][:10]): q for q in saved["questions"]}
    early = asked["What is the tortoise called?", "2025-03-01"]
    assert "f3" not in early["ranked"]["memfold"] and early["ranked"]["floor"] == []
    late = asked["What is the tortoise called?", "2025-07-01"]
    assert late["ranked"]["memfold"][0] == "f3" and late["ranked"]["floor"] == ["f3"]
    single = saved["categories"]["single"]
    assert single["memfold"]["p@1"] == 0.5 and single["floor"]["p@1"] == 0.5
    assert saved["categories"]["multi"]["memfold"]["r@10"] == 1.0
    never = saved["categories"]["negative"]
    assert never["floor"]["nothing"] == 1.0 and "nothing_or_weak" in never["memfold"]
    assert set(saved["latency"]) == {"memfold", "floor"}
    row = next(line for line in result.stdout.splitlines() if line.startswith("single"))
    assert "50.0 (50.0)" in row


def test_retain_first_lets_an_early_question_see_a_later_fact(tmp_path: Path) -> None:
    data = write(tmp_path / "year.json", FACTS, QUESTIONS[:1])
    result = bench(str(data), "--retain-first", "--json", "--out", str(tmp_path / "r.json"))
    assert result.exit_code == 0, result.output
    saved = json.loads(result.stdout)
    assert saved["parameters"]["retain_first"] is True
    assert saved["questions"][0]["ranked"]["floor"] == ["f3"]


def test_never_stated_uses_recalls_flag_and_strict_scores_without_weak_hits(
        tmp_path: Path) -> None:
    """"When is Nell's birthday?" finds only Nell's bassoon, flagged weak by recall: the
    question counts as unanswered (the older why test, which sees "words nell", counts it
    answered), and the strict system, weak hits left out, answers it with nothing while
    still finding the tortoise."""
    birthday = {"q": "When is Nell's birthday?", "now": "2025-07-01T09:00:00", "gold": [],
                "category": "negative"}
    data = write(tmp_path / "year.json", FACTS, [*QUESTIONS, birthday])
    result = bench(str(data), "--strict", "--json", "--out", str(tmp_path / "r.json"))
    assert result.exit_code == 0, result.output
    saved = json.loads(result.stdout)
    assert saved["parameters"]["strict"] is True
    never = saved["categories"]["negative"]
    assert never["memfold"]["nothing_or_weak"] == 1.0
    assert never["memfold"]["nothing_or_weak_why"] == 0.5
    assert never["memfold strict"]["nothing"] == 1.0
    nell = next(q for q in saved["questions"] if q["q"] == birthday["q"])
    assert nell["ranked"]["memfold"] == ["f2"] and nell["ranked"]["memfold strict"] == []
    assert saved["categories"]["single"]["memfold strict"]["p@1"] == 0.5
    assert set(saved["latency"]) == {"memfold", "memfold strict", "floor"}


@pytest.mark.parametrize("change, message", [
    (lambda d: d["facts"].append({"key": "f1", "date": "2025-01-01",
                                  "bullet": "W @me: x"}), "'key' must be a new"),
    (lambda d: d["facts"].append({"key": "f9", "date": "Jan 1", "bullet": "W @me: x"}),
     "is not YYYY-MM-DD"),
    (lambda d: d["questions"].append({"q": "x", "now": "2025-01-01T09:00:00",
                                      "gold": ["nope"], "category": "single"}),
     "gold key 'nope' is not a fact's key"),
    (lambda d: d["facts"].append({"key": "f9", "date": "2025-01-01", "bullet": "no colon"}),
     "facts[3]"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, change: object,
                                         message: str) -> None:
    data = {"facts": [dict(f) for f in FACTS], "questions": [dict(q) for q in QUESTIONS]}
    change(data)  # type: ignore[operator]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = bench(str(path), "--out", str(tmp_path / "r.json"))
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert not (tmp_path / "r.json").exists()


def test_blind_keeps_the_questions_and_answers_out_of_the_results(tmp_path: Path) -> None:
    data = write(tmp_path / "year.json", FACTS, QUESTIONS)
    result = bench(str(data), "--blind", "--json", "--out", str(tmp_path / "r.json"))
    assert result.exit_code == 0, result.output
    saved = json.loads(result.stdout)
    assert saved["questions"] is None and saved["categories"]["single"]["floor"]["p@1"] == 0.5
    assert "tortoise" not in result.stdout


LIFE = [
    {"key": "c1", "date": "2025-01-05", "bullet": "W @me: My phone is a Nokia G42."},
    {"key": "c2", "date": "2025-01-06", "bullet": "W @me: Insurance on the Golf is $96 a month."},
    {"key": "c3", "date": "2025-03-01", "bullet": "W @me: My phone is a Motorola Edge 50."},
    {"key": "c4", "date": "2025-04-01", "bullet": "W @me: The gym membership is $40 a month."},
    {"key": "c5", "date": "2025-05-01", "bullet": "W @me: The gym membership went up to $45 a "
                                                  "month."},
]


def test_changes_score_the_judge_against_the_writers_marks(tmp_path: Path) -> None:
    data = write(tmp_path / "year.json", LIFE, [
        {"q": "What phone do I have?", "now": "2025-06-01T09:00:00", "gold": ["c3"],
         "category": "current"}])
    changes = tmp_path / "changes.json"
    # the writer marked the phone; the gym's rise is left unmarked on purpose, so the judge's
    # supersede of c4 counts as one of a fact not marked changed
    changes.write_text(json.dumps([{"older": "c1", "newer": "c3", "why": "new phone"}]),
                       encoding="utf-8")
    out = tmp_path / "r.json"
    result = bench(str(data), "--changes", str(changes), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "lifecycle against 1 marked changes: 2 automatic supersedes (1 as marked" \
        in result.output
    life = json.loads(out.read_text(encoding="utf-8"))["judged"]["lifecycle"]
    assert (life["as_marked"], life["unmarked"], life["changes_superseded"]) == (1, 1, 1.0)
    assert life["unmarked_pairs"] == [{"older": "c4", "newer": "c5",
                                       "reason": life["unmarked_pairs"][0]["reason"]}]
    assert [(p["older"], p["newer"], p["verdict"]) for p in life["supersede_pairs"]] == [
        ("c1", "c3", "as marked"), ("c4", "c5", "unmarked")]
    assert life["unmarked_per_1000_facts"] == pytest.approx(200.0)


def test_changes_name_the_marked_changes_the_judge_missed(tmp_path: Path) -> None:
    offered = [  # a change the judge offers (a conflict), never marked by the writer
        {"key": "c6", "date": "2025-02-01", "bullet": "O @Nora: Nora prefers email for anything "
                                                     "urgent."},
        {"key": "c7", "date": "2025-05-10", "bullet": "O @Nora: For urgent things, Nora wants "
                                                     "a phone call now."}]
    data = write(tmp_path / "year.json", LIFE + offered, [
        {"q": "What phone do I have?", "now": "2025-06-01T09:00:00", "gold": ["c3"],
         "category": "current"}])
    changes = tmp_path / "changes.json"
    # the phone is caught; the insurance, marked as replaced by the gym's price, is not
    changes.write_text(json.dumps([{"older": "c1", "newer": "c3", "why": "new phone"},
                                   {"older": "c2", "newer": "c5", "why": "a test mark"}]),
                       encoding="utf-8")
    out = tmp_path / "r.json"
    assert bench(str(data), "--changes", str(changes), "--out", str(out)).exit_code == 0
    life = json.loads(out.read_text(encoding="utf-8"))["judged"]["lifecycle"]
    assert life["missed_pairs"] == [{"older": "c2", "newer": "c5"}]
    assert (life["offers"], life["offers_of_unmarked"]) == (1, 1)
    assert life["offers_by_rule"] == {"topic": {"offers": 1, "of_unmarked": 1}}
    assert life["changes_superseded_or_offered"] == 0.5


@pytest.mark.parametrize("text", ['{"older": "c1"}', '[{"older": "c1", "newer": "zz"}]', "[1"])
def test_a_bad_changes_file_is_one_line_and_exit_2(tmp_path: Path, text: str) -> None:
    data = write(tmp_path / "year.json", LIFE, [
        {"q": "What phone?", "now": "2025-06-01T09:00:00", "gold": ["c3"], "category": "single"}])
    changes = tmp_path / "changes.json"
    changes.write_text(text, encoding="utf-8")
    result = bench(str(data), "--changes", str(changes))
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output
