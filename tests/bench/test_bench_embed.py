"""`memfold bench embed` on tiny corpora: the figures it reports are measured on what it
built (every fact embedded, the new facts and only those embedded again, recall samples
for every query), and a missing embed extra is one line, not a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from memfold import embed
from memfold.cli.main import cli
from memfold.memory import Memory
from memfold_bench import corpus, embed_bench


def facts_of(tmp_path: Path, files: int, seed: int = 0) -> int:
    """The facts an index of the same corpus holds, counted apart from the benchmark."""
    ws = tmp_path / f"expected-{files}"
    corpus.generate(ws, files=files, seed=seed)
    with Memory.open(ws) as memory:
        memory.index(full=True)
        return int(memory.index_backend.db.execute("SELECT count(*) FROM facts").fetchone()[0])


def run(tmp_path: Path, *args: str) -> Any:
    out = tmp_path / "results" / "embed.json"
    result = CliRunner().invoke(cli, ["bench", "embed", *args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "facts embedded" in result.output and "hybrid recall p95" in result.output
    return json.loads(out.read_text(encoding="utf-8"))


def test_bench_embed_with_a_fake_embedder(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from memfold.embed.base import FakeEmbedder

    expected = facts_of(tmp_path, 3)
    monkeypatch.setenv("MEMFOLD_RECALL_MODE", "hybrid")  # the lexical phases must not embed
    monkeypatch.setattr(embed_bench, "load_embedder", lambda: FakeEmbedder(dims=64))
    data = run(tmp_path, "--files", "3", "--cli-runs", "0")
    assert data["benchmark"] == "embed"
    assert data["model"]["identity"]["model"] == "fake-hashing"
    (size,) = data["sizes"]

    assert size["files"] == 3 and size["lexical_build"]["seconds"] > 0
    facts = size["facts"]
    assert facts["typed"] + facts["text_chunks"] == expected
    assert facts["typed"] == size["corpus"]["bullets_written"] > 0

    embedded = size["embed"]
    assert embedded["facts_in_index"] == embedded["distinct_texts"] == expected
    assert embedded["facts_embedded"] == embedded["texts_to_model"] == expected
    assert embedded["vector_rows"] == embedded["facts_with_vectors"] == expected
    assert embedded["seconds"] >= embedded["model_seconds"] > 0
    assert embedded["facts_per_second"] == pytest.approx(expected / embedded["seconds"])
    assert embedded["vectors_bytes"] >= expected * 64 * 4  # the float32 matrix at least
    assert size["model"]["load_seconds"] >= 0

    grown = size["incremental"]
    assert len(grown["rounds"]) == embed_bench.INCREMENTAL_ROUNDS
    for one in grown["rounds"]:  # 3 files only: each gets its 3 bullets, nothing else
        assert one["files_appended"] == one["files_synced"] == 3
        assert one["facts_embedded"] == one["bullets_appended"] == 3 * 3
        assert one["total_seconds"] == pytest.approx(one["sync_seconds"] + one["embed_seconds"])
    assert grown["total"]["samples"] == [r["total_seconds"] for r in grown["rounds"]]

    recall = size["recall_in_process"]
    assert recall["mode"] == "hybrid" and recall["queries"] == recall["n"] > 0
    assert len(recall["samples_ms"]) == len(recall["hits"]) == recall["n"]
    assert 0 < recall["p50_ms"] <= recall["p95_ms"] <= recall["max_ms"]
    assert all(hits > 0 for hits in recall["hits"])
    assert size["recall_cli"]["runs"] == 0 and size["recall_cli"]["samples"] == []


def test_bench_embed_with_the_real_model_and_a_whole_process(tmp_path: Path) -> None:
    data = run(tmp_path, "--files", "1", "--cli-runs", "1")
    (size,) = data["sizes"]
    expected = facts_of(tmp_path, 1)
    assert size["model"]["identity"]["dims"] == 384
    assert size["embed"]["facts_embedded"] == size["embed"]["facts_with_vectors"] == expected
    assert size["embed"]["vectors_bytes"] >= expected * 384 * 4
    assert [r["facts_embedded"] for r in size["incremental"]["rounds"]] == [3, 3, 3]
    one_shot = size["recall_cli"]
    assert one_shot["runs"] == 1 and len(one_shot["samples"]) == 1
    assert one_shot["median"] > 0 and one_shot["hits"][0] > 0


def test_bench_embed_without_the_extra_is_one_line(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embed, "installed", lambda: False)
    out = tmp_path / "embed.json"
    result = CliRunner().invoke(cli, ["bench", "embed", "--files", "2", "--out", str(out)])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert lines[-1] == f"Error: {embed_bench.EXTRA_HINT}"
    assert "pip install 'memfold[embed]'" in lines[-1]
    assert "Traceback" not in result.output and not out.exists()


def test_bench_embed_resume_trial_sends_only_the_rest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from memfold.embed import store
    from memfold.embed.base import FakeEmbedder

    monkeypatch.setenv("MEMFOLD_RECALL_MODE", "hybrid")
    monkeypatch.setattr(store, "CHUNK", 16)  # several chunks in a tiny corpus
    monkeypatch.setattr(embed_bench, "load_embedder", lambda: FakeEmbedder(dims=64))
    data = run(tmp_path, "--files", "3", "--cli-runs", "0", "--resume-trial")
    assert data["parameters"]["resume_trial"] is True
    (size,) = data["sizes"]
    facts = size["embed"]["facts_embedded"]
    trial = size["resume_trial"]
    assert facts > 4 * 16 and trial["facts_uninterrupted"] == facts
    assert trial["interrupt_after_texts"] == facts // 2
    # cut in the chunk that got past half way, which is lost; the chunks before it are not
    assert trial["texts_to_model_before"] == -(-(facts // 2) // 16) * 16
    assert trial["texts_lost"] == 16
    assert trial["texts_to_model_on_resume"] == trial["facts_embedded_on_resume"] == (
        facts - trial["texts_to_model_before"] + trial["texts_lost"])
    assert trial["facts_with_vectors"] == facts
    assert trial["min_cosine_to_uninterrupted"] == pytest.approx(1.0)
    assert size["embed"]["vector_rows"] == facts  # the uninterrupted vectors are back
