"""`memfold bench truth`: timelines replayed as their time passes, current@1/@5 and stale
served computed right, results saved, bad input refused with one line."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from memfold.cli.main import cli
from memfold.values import Fact, Hit
from memfold_bench import truth_bench as tb

TIMELINES = [
    {"id": "t1", "lang": "en", "kind": "change", "note": "asked before and after the fact",
     "facts": [{"date": "2025-01-10", "bullet": "W @Ines: Ines plays the theremin."}],
     "questions": [
         {"now": "2025-01-01T09:00:00", "q": "Which instrument does Ines play? theremin",
          "current": ["theremin"], "stale": []},
         {"now": "2025-02-01T09:00:00", "q": "Which instrument does Ines play? theremin",
          "current": ["theremin"], "stale": []}]},
    {"id": "t2", "lang": "vi", "kind": "non-change", "note": "only the stale fact exists",
     "facts": [{"date": "2025-01-10", "bullet": "W @Biscuit: Biscuit eats salmon kibble."}],
     "questions": [{"now": "2025-02-01T09:00:00", "q": "What kibble does Biscuit eat?",
                    "current": ["chicken"], "stale": ["salmon"]}]},
]


def hit(content: str, status: str = "active") -> Hit:
    fact = Fact(id=content[:4], kind="W", content=content, path="memory/2025-01-01.md",
                line=3, end_line=3)
    return Hit(fact=fact, score=1.0, why="words x", confidence=1.0, status=status)


QUESTION = tb.Question("q", datetime(2025, 1, 1, tzinfo=UTC), ("Berlin",), ("Lisbon",))


@pytest.mark.parametrize("contents, served", [
    (["Lives in Lisbon", "Moved to Berlin"], True),     # stale above current
    (["Moved to Berlin", "Lives in Lisbon"], False),    # current first
    (["a", "b", "c", "d", "e", "Moved to Berlin", "Lives in Lisbon"], False),  # neither shown
    (["a", "Lives in Lisbon", "c", "d", "e", "Moved to Berlin"], True),  # current below top 5
    (["a", "b"], False),                                 # no stale result at all
])
def test_stale_served_is_a_stale_result_shown_above_the_first_current(
        contents: list[str], served: bool) -> None:
    assert tb.stale_served([hit(c) for c in contents], QUESTION) is served


def test_a_superseded_stale_result_is_not_served_as_true() -> None:
    hits = [hit("Lives in Lisbon", "superseded"), hit("Moved to Berlin")]
    assert not tb.stale_served(hits, QUESTION)
    scored = tb.score(tb.Timeline("t", "en", "change", "", (), (QUESTION,)), QUESTION,
                      "lexical", hits, 0.0)
    assert (scored.at1, scored.at5) == (False, True)


def bench(*args: str) -> Result:
    return CliRunner().invoke(cli, ["bench", "truth", *args])


def write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                    encoding="utf-8")
    return path


def test_replays_each_timeline_and_scores_through_the_cli(tmp_path: Path) -> None:
    data = write(tmp_path / "truth.jsonl", TIMELINES)
    out = tmp_path / "results" / "truth.json"
    result = bench(str(data), "--verbose", "--out", str(out))
    assert result.exit_code == 0, result.output
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved["dataset"]["timelines"] == 2 and saved["dataset"]["questions"] == 3
    lexical = saved["modes"]["lexical"]
    # t1 asked before its fact (a miss) and after (right); t2 serves the stale fact
    assert lexical["kind"]["change"]["current@1"] == 0.5
    assert lexical["overall"]["stale_served_count"] == 1
    assert lexical["lang"]["vi"]["stale_served"] == 1.0
    assert {(m["id"], m["stale_served"]) for m in saved["misses"]} == {("t1", False),
                                                                      ("t2", True)}
    assert "lexical overall" in result.stdout and "STALE 'What kibble" in result.stdout
    as_json = bench(str(data), "--json", "--out", str(tmp_path / "again.json"))
    assert json.loads(as_json.stdout)["modes"]["lexical"]["overall"]["questions"] == 3


@pytest.mark.parametrize("line, message", [
    ("{not json", "truth.jsonl:1: not JSON"),
    (json.dumps({"id": "x", "facts": [], "questions": []}), "questions not empty"),
    (json.dumps({**TIMELINES[0], "questions": [{"now": "soon", "q": "q", "current": ["a"]}]}),
     "is not an ISO time"),
    (json.dumps({**TIMELINES[0], "questions": [{"now": "2025-01-01T09:00:00", "q": "q",
                                                "current": []}]}), "at least one substring"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "truth.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    result = bench(str(path), "--out", str(tmp_path / "r.json"))
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_blind_keeps_the_misses_out_and_refuses_verbose(tmp_path: Path) -> None:
    data = write(tmp_path / "truth.jsonl", TIMELINES)
    result = bench(str(data), "--blind", "--out", str(tmp_path / "r.json"))
    assert result.exit_code == 0, result.output
    assert "kibble" not in result.stdout
    saved = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert saved["misses"] is None
    assert saved["modes"]["lexical"]["overall"]["stale_served_count"] == 1
    refused = bench(str(data), "--blind", "--verbose", "--out", str(tmp_path / "v.json"))
    assert refused.exit_code == 2 and "--blind keeps them unseen" in refused.output
