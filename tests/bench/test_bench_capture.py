"""bench capture: a LoCoMo-shaped sample captured, its lines mapped back to turns, scored."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from memfold_bench.capture_bench import (
    as_text,
    capture_command,
    capture_workspace,
    extraction_figures,
    observations,
    session_clock,
    unmatched,
)
from memfold_bench.locomo import read_sample

SAMPLE = {
    "sample_id": "tiny",
    "conversation": {
        "speaker_a": "Ana", "speaker_b": "Ben",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Ana", "dia_id": "D1:1", "text": "I moved to Lisbon in March."},
            {"speaker": "Ben", "dia_id": "D1:2", "text": "Wow, how is it?"},
            {"speaker": "Ana", "dia_id": "D1:3", "text": "I love the light there."}],
        "session_2_date_time": "9:00 am on 10 May, 2023",
        "session_2": [
            {"speaker": "Ben", "dia_id": "D2:1", "text": "I started a pottery class yesterday."}],
    },
    "observation": {
        "session_1_observation": {"Ana": [["Ana moved to Lisbon in March.", "D1:1"],
                                          ["Ana enjoys Lisbon's light.", "D1:3"]],
                                  "Ben": []},
        "session_2_observation": {"Ben": [["Ben takes a pottery class.", "D2:1"]]},
    },
    "qa": [],
}


def test_turns_and_bullets_map_back_to_their_dia_ids(tmp_path: Path) -> None:
    assert session_clock("1:56 pm on 8 May, 2023") == "13:56"
    conv = read_sample(SAMPLE)
    data, ids = as_text(SAMPLE, conv)
    assert ids == ["D1:1", "D1:2", "D1:3", "D2:1"]
    captured = capture_workspace(tmp_path / "ws", data, ids)
    assert set(captured.sources.values()) == set(ids)
    assert sorted(captured.bullets) == [("Ana", "D1:1"), ("Ana", "D1:3"), ("Ben", "D2:1")]
    figures = extraction_figures(observations(SAMPLE), captured.bullets, {"ana", "ben"})
    assert (figures["coverage"], figures["precision"]) == (1.0, 1.0)
    worse = extraction_figures(observations(SAMPLE), [("Ben", "D1:1")], {"ana", "ben"})
    assert (worse["coverage"], worse["precision"]) == (0.0, 0.0)


def test_unmatched_bullets_are_listed_with_their_turn(tmp_path: Path) -> None:
    """--misses: a bullet about a speaker citing a turn no observation about them rests on is
    listed with its text and the turn's."""
    sample = {**SAMPLE, "observation": {
        "session_1_observation": {"Ana": [["Ana moved to Lisbon in March.", "D1:1"]]},
        "session_2_observation": {"Ben": [["Ben takes a pottery class.", "D2:1"]]}}}
    conv = read_sample(sample)
    data, ids = as_text(sample, conv)
    captured = capture_workspace(tmp_path / "ws", data, ids)
    texts = {t.dia_id: t.text for t in conv.turns}
    missed = unmatched(observations(sample), captured, {"ana", "ben"}, texts, 5)
    assert [(m["dia_id"], m["turn"]) for m in missed] == [("D1:3", "I love the light there.")]
    assert missed[0]["bullet"].startswith("O(c=0.8) @Ana: ")
    assert unmatched(observations(sample), captured, {"ana", "ben"}, texts, 0) == []


def test_misses_are_printed_and_never_saved(tmp_path: Path) -> None:
    """The unmatched bullets are the dataset's text: shown, kept out of the results file."""
    sample = {**SAMPLE, "observation": {
        "session_1_observation": {"Ana": [["Ana moved to Lisbon in March.", "D1:1"]]}}}
    data = tmp_path / "sample.json"
    data.write_text(json.dumps([sample]), encoding="utf-8")
    out = tmp_path / "result.json"
    result = CliRunner().invoke(capture_command, [str(data), "--conversations", "0",
                                                  "--misses", "5", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "unmatched tiny D1:3: O(c=0.8) @Ana: " in result.output
    assert "    turn: I love the light there." in result.output
    assert "misses" not in json.loads(out.read_text(encoding="utf-8"))["locomo"][
        "conversations"][0]
