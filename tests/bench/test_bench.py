"""The index benchmark: its corpus generator, its floor and the `memfold bench index` command."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from memfold.cli.main import cli
from memfold.memory import Memory
from memfold_bench import corpus, floor


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under a workspace (the derived index aside): bytes and mtime."""
    return {
        str(path.relative_to(root)): (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted(root.rglob("*"))
        if path.is_file() and ".memory" not in path.parts
    }


def test_generation_is_deterministic_for_a_seed(tmp_path: Path) -> None:
    first = corpus.generate(tmp_path / "a", files=40, seed=7)
    second = corpus.generate(tmp_path / "b", files=40, seed=7)
    corpus.generate(tmp_path / "c", files=40, seed=8)
    assert snapshot(tmp_path / "a") == snapshot(tmp_path / "b")
    assert (first.bullets, first.bytes) == (second.bullets, second.bytes)
    assert snapshot(tmp_path / "a") != snapshot(tmp_path / "c")
    assert len(first.daily) == 40 and len(first.entity_pages) == corpus.ENTITY_PAGES


def test_touch_is_deterministic_and_seen_by_the_floor_scan(tmp_path: Path) -> None:
    for name in ("a", "b"):
        corpus.generate(tmp_path / name, files=30, seed=1)
    known = floor.stamps(tmp_path / "a")
    touched = corpus.touch(tmp_path / "a", 4, seed=5, mtime_ns=10**18)
    assert touched == corpus.touch(tmp_path / "b", 4, seed=5, mtime_ns=10**18)
    assert len(set(touched)) == 4
    assert snapshot(tmp_path / "a") == snapshot(tmp_path / "b")
    assert floor.stat_scan(tmp_path / "a", known) == 4
    assert floor.stat_scan(tmp_path / "a", floor.stamps(tmp_path / "a")) == 0


def test_memfold_indexes_every_bullet_the_floor_finds(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    written = corpus.generate(ws, files=60, seed=3)
    corpus.touch(ws, 10, seed=4)
    found = floor.load(ws, tmp_path / "floor.sqlite")
    with Memory.open(ws) as memory:
        memory.index(full=True)
        counts = memory.index_backend.counts()
    assert found > written.bullets  # about half the touches append a bullet
    assert sum(counts.facts_by_kind.values()) == found
    assert set(counts.facts_by_kind) == {"world", "experience", "opinion", "observation"}
    assert counts.warnings == 0


def test_bench_index_command_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "results" / "index.json"
    result = CliRunner().invoke(
        cli, ["bench", "index", "--files", "5", "--repeat", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "full rebuild" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert {"benchmark", "checked_at", "parameters", "environment", "aims", "sizes"} <= set(data)
    assert {"python", "sqlite", "platform"} <= set(data["environment"])
    assert data["parameters"]["files"] == [5] and data["parameters"]["repeat"] == 1
    (size,) = data["sizes"]
    for section in ("full_rebuild", "noop_sync"):
        assert len(size[section]["memfold"]["samples"]) == 1
        assert len(size[section]["floor"]["samples"]) == 1
        assert size[section]["ratio"] > 0
    assert size["noop_sync"]["files_touched"] == [0]
    assert size["incremental_sync"]["files_synced"] == [5]  # all 5 files, touched once each
    facts = size["facts"]
    assert facts["typed"] == facts["floor_bullets"] == size["corpus"]["bullets_written"] > 0
    assert facts["warnings"] == 0
    assert size["index_bytes"]["memfold"] > 0 and size["index_bytes"]["floor"] > 0


def test_bench_index_rejects_a_bad_size_list(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["bench", "index", "--files", "ten", "--out", str(tmp_path / "x.json")])
    assert result.exit_code == 2
    assert not (tmp_path / "x.json").exists()


def test_recall_queries_are_deterministic_for_a_seed(tmp_path: Path) -> None:
    from memfold_bench import recall_bench

    written = corpus.generate(tmp_path / "ws", files=20, seed=2)
    bullets = recall_bench.corpus_bullets(tmp_path / "ws", written.daily)
    first = recall_bench.build_queries(bullets, 10, seed=2)
    assert first == recall_bench.build_queries(bullets, 10, seed=2)
    assert first != recall_bench.build_queries(bullets, 10, seed=3)
    assert [q.form for q in first] == list(recall_bench.FORMS) * 2


def test_bench_recall_command_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "results" / "recall.json"
    result = CliRunner().invoke(cli, ["bench", "recall", "--files", "5", "--queries", "5",
                                      "--repeat", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "in-process" in result.output and "CLI process" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert {"benchmark", "checked_at", "parameters", "environment", "aims", "sizes"} <= set(data)
    assert data["benchmark"] == "recall"
    assert {"python", "sqlite", "platform", "bytecode"} <= set(data["environment"])
    assert data["parameters"]["files"] == [5] and data["parameters"]["queries"] == 5
    (size,) = data["sizes"]
    for section in ("in_process", "cold_in_process", "cli_process"):
        for who in ("memfold", "floor"):
            figures = size[section][who]
            assert figures["n"] == len(figures["samples_ms"]) == 5
            assert 0 < figures["p50_ms"] <= figures["p95_ms"] <= figures["max_ms"]
        assert size[section]["ratio"] > 0
    assert set(size["verdicts"]) >= {"in_process_p50_under_10ms", "cli_process_p50_under_150ms"}
    queries = size["queries"]
    assert [q["form"] for q in queries] == ["words", "prefers", "about", "around", "phrase"]
    for q in queries:  # every query answers on both sides, and the CLI agrees with the library
        assert q["memfold_hits"] > 0 and q["floor_hits"] > 0, q
        assert q["cli_hits"] == q["memfold_hits"], q
