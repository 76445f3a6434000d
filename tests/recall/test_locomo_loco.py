"""`memfold bench locomo`'s leave-one-conversation-out figures: a conversation is scored under
the setting that did best on the others, never under the one that does best on itself."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from test_bench_quality import TINY

from memfold.cli.main import cli
from memfold_bench import locomo
from memfold_bench.locomo_loco import held_out, parse_tune


def outcome(sample: str, hit: bool) -> locomo.Outcome:
    return locomo.Outcome(sample, 4, frozenset({"D1:1"}),
                          {"memfold": ["D1:1"] if hit else ["D9:9"]})


def test_each_conversation_is_scored_under_the_setting_fitted_on_the_others() -> None:
    # setting 0 finds the evidence in a and b, setting 1 only in c: fitted on a and b, c
    # is scored under setting 0 (and misses), though setting 1 would have found it
    grid = parse_tune(["CONTEXT_SHARE=0.5,0"])
    runs = [{"a": [outcome("a", True)], "b": [outcome("b", True)], "c": [outcome("c", False)]},
            {"a": [outcome("a", False)], "b": [outcome("b", False)], "c": [outcome("c", True)]}]
    chosen, picks = held_out(runs, grid, 10, locomo.recall_at)
    assert picks["c"]["memfold"] == {"CONTEXT_SHARE": 0.5}
    assert chosen["c"][0].ranked["memfold"] == ["D9:9"]
    # held out a: b favours setting 0 and c setting 1, a tie that goes to the earlier point
    assert picks["a"]["memfold"] == {"CONTEXT_SHARE": 0.5}


def test_the_grid_is_every_combination_in_the_order_written() -> None:
    assert parse_tune([]) == [{}]
    assert parse_tune(["context_share=0.5,0.25", "ENTITY_BOOST=0.5,1"]) == [
        {"CONTEXT_SHARE": 0.5, "ENTITY_BOOST": 0.5}, {"CONTEXT_SHARE": 0.5, "ENTITY_BOOST": 1.0},
        {"CONTEXT_SHARE": 0.25, "ENTITY_BOOST": 0.5}, {"CONTEXT_SHARE": 0.25, "ENTITY_BOOST": 1.0}]


def two_conversations(tmp_path: Path) -> Path:
    second = json.loads(json.dumps(TINY[0]))
    second["sample_id"] = "conv-other"
    path = tmp_path / "two.json"
    path.write_text(json.dumps([TINY[0], second]), encoding="utf-8")
    return path


def test_bench_locomo_reports_held_out_figures_beside_the_pooled_ones(tmp_path: Path) -> None:
    out = tmp_path / "locomo.json"
    result = CliRunner().invoke(cli, ["bench", "locomo", str(two_conversations(tmp_path)),
                                      "--tune", "CONTEXT_SHARE=0.5,0", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "leave-one-conversation-out" in result.output and "conv-other" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    loco = data["loco"]
    assert [c["sample_id"] for c in loco["conversations"]] == ["conv-tiny", "conv-other"]
    assert loco["conversations"][0]["chosen"]["memfold"] in data["parameters"]["grid"]
    assert loco["pooled"]["questions"] == data["totals"]["questions"] == 6
    assert set(loco["categories"]) == set(data["categories"])


def test_without_tuning_the_held_out_figures_are_each_conversations_own(tmp_path: Path) -> None:
    out = tmp_path / "locomo.json"
    result = CliRunner().invoke(cli, ["bench", "locomo", str(two_conversations(tmp_path)),
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "nothing is fitted inside the bench" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["loco"]["categories"] == data["categories"]
    own = {c["sample_id"]: c["memfold"] for c in data["conversations"]}
    assert {c["sample_id"]: c["memfold"] for c in data["loco"]["conversations"]} == own


def test_an_unknown_weight_to_tune_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["bench", "locomo", str(two_conversations(tmp_path)),
                                      "--tune", "SPEED=1", "--out", str(tmp_path / "o.json")])
    assert result.exit_code == 2
    assert "CONTEXT_SHARE" in result.output and "Traceback" not in result.output


def test_the_narrative_layout_writes_each_turn_as_a_paragraph_under_its_session(
        tmp_path: Path) -> None:
    (conv,) = locomo.load(two_conversations(tmp_path))[:1]
    sources = locomo.write_workspace(tmp_path / "ws", conv, "narrative")
    lines = (tmp_path / "ws/memory/2023-05-08.md").read_text(encoding="utf-8").splitlines()
    assert lines[:7] == ["# 2023-05-08", "", "## Session 1", "",
                         "Anna Lee: I started learning the violin.", "",
                         "Bo: Nice! I adopted a puppy called Pixel. "
                         "[image: a photo of a small dog]"]
    assert "## Retain" not in lines
    # the heading's line maps to the turn below it: the chunk starts at the heading
    assert sources["memory/2023-05-08.md#L3"] == sources["memory/2023-05-08.md#L5"] == "D1:1"
    result = CliRunner().invoke(cli, ["bench", "locomo", str(two_conversations(tmp_path)),
                                      "--layout", "narrative", "--out", str(tmp_path / "o.json")])
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "o.json").read_text(encoding="utf-8"))
    assert data["parameters"]["layout"] == "narrative"
    assert data["categories"]["1 multi-hop"]["memfold"]["recall@10"] == 1.0


def test_bench_locomo_reranks_when_asked(tmp_path: Path) -> None:
    """`--rerank` recalls with the reranking stage (the packaged model; the test extra has
    it), and the results say so; RERANK_SHARE=0 in the grid is recall without it."""
    out = tmp_path / "locomo.json"
    result = CliRunner().invoke(cli, ["bench", "locomo", str(two_conversations(tmp_path)),
                                      "--rerank", "--tune", "RERANK_SHARE=0,0.5",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "reranked" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["parameters"]["rerank"] is True
    assert data["parameters"]["grid"] == [{"RERANK_SHARE": 0.0}, {"RERANK_SHARE": 0.5}]
    assert data["loco"]["pooled"]["questions"] == 6
