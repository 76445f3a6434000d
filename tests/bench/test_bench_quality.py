"""The quality and scale benchmarks end to end: `memfold bench locomo` on a tiny conversation in
LoCoMo's format, whose recall figures are worked out by hand, and `memfold bench scale`."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from memfold.cli.main import cli
from memfold_bench import locomo

TINY: list[dict[str, Any]] = [{
    "sample_id": "conv-tiny",
    "conversation": {
        "speaker_a": "Anna Lee",
        "speaker_b": "Bo",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Anna Lee", "dia_id": "D1:1", "text": "I started learning the violin."},
            {"speaker": "Bo", "dia_id": "D1:2", "text": "Nice! I adopted a puppy called Pixel.",
             "img_url": ["https://example.org/dog.jpg"], "blip_caption": "a photo of a small dog"},
            {"speaker": "Anna Lee", "dia_id": "D1:3", "text": "Pixel is a lovely\nname."},
        ],
        "session_2_date_time": "10:37 am on 27 June, 2023",
        "session_2": [
            {"speaker": "Bo", "dia_id": "D2:1", "text": "We hiked the glacier trail on Sunday."},
            {"speaker": "Anna Lee", "dia_id": "D2:2", "text": "My violin recital went well."},
            {"speaker": "Bo", "dia_id": "D2:3", "text": "Congratulations on the recital!"},
        ],
        # a date for a session that does not exist, as in LoCoMo: never read
        "session_3_date_time": "not a date",
    },
    "qa": [
        # evidence in one malformed string: "D1:1" and "D:2:02" -> D1:1, D2:2; both systems
        # find both (memfold through the word "violin" and @Anna-Lee, BM25 through "violin")
        {"question": "What does Anna Lee play, and how was the violin recital?",
         "answer": "violin", "evidence": ["D1:1; D:2:02"], "category": 1},
        # "hiking" meets "hiked" only through memfold's stemmer; BM25 matches no word at all
        {"question": "Where did they go hiking?", "answer": "the glacier trail",
         "evidence": ["D2:1"], "category": 4},
        # memfold drops "the" and "who" as stop words and finds only D2:2 (by "violin");
        # BM25 matches "the" in D2:3 as well: 1/2 for memfold, 2/2 for BM25
        {"question": "Who gave the violin concert?", "answer": "Anna Lee",
         "evidence": ["D2:2", "D2:3"], "category": 2},
        # no evidence: skipped
        {"question": "What is Bo's favourite colour?", "adversarial_answer": "blue",
         "evidence": [], "category": 5},
    ],
}]


def write_tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny-locomo.json"
    path.write_text(json.dumps(TINY), encoding="utf-8")
    return path


def test_locomo_reads_sessions_evidence_and_speakers(tmp_path: Path) -> None:
    (conv,) = locomo.load(write_tiny(tmp_path))
    assert [s.number for s in conv.sessions] == [1, 2]
    assert conv.now == datetime(2023, 6, 28, 12, tzinfo=UTC)
    assert [q.evidence for q in conv.questions][0] == {"D1:1", "D2:2"}
    assert conv.skipped == 1
    assert locomo.parse_evidence(["D8:6; D9:17", "D:11:26", "D30:05 D2:1"]) == {
        "D8:6", "D9:17", "D11:26", "D30:5", "D2:1"}
    assert locomo.session_day("1:56 pm on 8 May, 2023").isoformat() == "2023-05-08"


def test_locomo_workspace_maps_every_line_back_to_its_turn(tmp_path: Path) -> None:
    (conv,) = locomo.load(write_tiny(tmp_path))
    same_day = locomo.Conversation("c", (conv.sessions[0], locomo.Session(
        2, conv.sessions[0].day, conv.sessions[1].turns)), (), 0)
    sources = locomo.write_workspace(tmp_path / "ws", same_day)
    lines = (tmp_path / "ws/memory/2023-05-08.md").read_text(encoding="utf-8").splitlines()
    assert len(sources) == 6 and not (tmp_path / "ws/memory/2023-06-27.md").exists()
    assert lines[3] == "- B @Anna-Lee: I started learning the violin."
    assert lines[4] == ("- B @Bo: Nice! I adopted a puppy called Pixel. "
                        "[image: a photo of a small dog]")
    assert lines[5] == "- B @Anna-Lee: Pixel is a lovely name."
    assert sources["memory/2023-05-08.md#L4"] == "D1:1"
    assert sources["memory/2023-05-08.md#L9"] == "D2:3"


def test_bench_locomo_figures_for_a_tiny_conversation(tmp_path: Path) -> None:
    out = tmp_path / "results" / "locomo.json"
    result = CliRunner().invoke(
        cli, ["bench", "locomo", str(write_tiny(tmp_path)), "--k", "10", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "overall" in result.output and "66.2%" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["totals"] == {"conversations": 1, "turns": 6, "questions": 3,
                              "skipped_without_evidence": 1}
    assert data["parameters"]["cutoffs"] == [5, 10]
    expected = {"1 multi-hop": (1.0, 1.0), "2 temporal": (0.5, 1.0),
                "4 single-hop": (1.0, 0.0), "overall": (2.5 / 3, 2 / 3)}
    assert set(data["categories"]) == set(expected)
    for name, (memfold, bm25) in expected.items():
        group = data["categories"][name]
        for cutoff in (5, 10):
            assert group["memfold"][f"recall@{cutoff}"] == pytest.approx(memfold), name
            assert group["bm25"][f"recall@{cutoff}"] == pytest.approx(bm25), name
    assert "What does" not in out.read_text(encoding="utf-8")  # figures only, no data


def test_bench_scale_command_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "results" / "scale.json"
    result = CliRunner().invoke(
        cli, ["bench", "scale", "--files", "5", "--repeat", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "recall cli p50" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    (size,) = data["sizes"]
    assert size["files"] == 5 and data["parameters"]["repeat"] == 1
    assert size["facts"]["typed"] == size["facts"]["floor_bullets"] > 0
    for key in ("full_rebuild", "incremental_sync", "retain"):
        assert size[key]["ratio"] > 0
    assert size["incremental_sync"]["files_synced"] == [5]
    assert len(size["retain"]["memfold"]["samples"]) == 20
    assert len(size["recall_in_process"]["floor"]["samples"]) == 40
    assert len(size["recall_cli"]["memfold"]["samples"]) == 10
    assert size["recall_cli"]["ratio_p50"] > 0
    memory, index = size["peak_memory_bytes"], size["index_bytes"]
    assert memory["memfold"] > 0 and memory["floor"] > 0 and memory["bare_python"] > 0
    assert index["memfold"] > 0 and index["floor"] > 0
