"""`memfold bench ltr-features`: a personal year replayed as `bench personal` replays it, one
JSON line per question with recall's best in its own order, their features, the question's
flags and the gold keys; and `memfold bench --learned` asks recall for its learned order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_bench_personal import FACTS  # the same small year

from memfold.cli.main import cli
from memfold.recall import learned

QUESTIONS = [
    {"q": "What is the tortoise called?", "now": "2025-07-01T09:00:00", "gold": ["f3"],
     "category": "single"},
    {"q": "What does Nell play?", "now": "2025-07-01T09:00:00", "gold": ["f2"],
     "category": "single"},
]


def test_ltr_features_writes_a_line_per_question(tmp_path: Path) -> None:
    data = tmp_path / "year.json"
    data.write_text(json.dumps({"facts": FACTS, "questions": QUESTIONS}), encoding="utf-8")
    out = tmp_path / "rows.jsonl"
    done = CliRunner().invoke(cli, ["bench", "ltr-features", str(data), "--out", str(out)])
    assert done.exit_code == 0, done.output
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [line["q"] for line in lines] == [q["q"] for q in QUESTIONS]
    tortoise = lines[0]
    assert tortoise["gold"] == ["f3"] and tortoise["mode"] == "lexical"
    assert tortoise["keys"][0] == "f3" and tortoise["hits"][0] == "f3"
    assert len(tortoise["rows"]) == len(tortoise["keys"]) <= learned.TOP
    assert tortoise["rows"][0]["match"] > 0 and tortoise["shape"]["q:what"] == 1.0
    assert lines[1]["shape"]["q:named"] == 1.0


def test_bench_learned_asks_for_the_learned_order(monkeypatch: pytest.MonkeyPatch) -> None:
    done = CliRunner().invoke(cli, ["bench", "--help"])
    assert "--learned" in done.output
    asked: list[bool] = []
    real = learned.ordering

    def spy(on: bool = True) -> Any:
        asked.append(on)
        return real(on)

    monkeypatch.setattr(learned, "ordering", spy)
    for flags in (["--learned"], ["--order", "rules"], ["--order", "learned"]):
        assert CliRunner().invoke(cli, ["bench", *flags, "review", "--help"]).exit_code == 0
    assert asked == [True, False, True]
    refused = CliRunner().invoke(cli, ["bench", "--learned", "--order", "rules", "review",
                                       "--help"])
    assert refused.exit_code == 2 and "disagree" in refused.output
