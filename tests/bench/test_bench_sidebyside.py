"""`memfold bench sidebyside`: memfold beside the floor in one run, and how it scores recall."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from memfold import lexicon
from memfold.cli.main import cli
from memfold.recall import expansion
from memfold.times.parse import extract_interval
from memfold_bench import corpus, floor, sidebyside, sidebyside_queries

ROWS = ("cold_index_wall", "cold_index_cpu", "cold_index_peak_rss", "noop_sync",
        "changed_10_files", "recall_in_process", "recall_in_process_cpu",
        "recall_in_process_first", "recall_cli_one_shot", "recall_cli_warm", "hit_at_10",
        "mrr_at_10", "index_size")


def words_of(line: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"\w+", line)}


def test_floor_rows_carry_the_line_of_their_bullet(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    corpus.generate(ws, files=30, seed=5, entity_pages=3)
    corpus.touch(ws, 10, seed=6)  # appended bullets and new Retain sections too
    floor.load(ws, tmp_path / "floor.sqlite")
    db = sqlite3.connect(tmp_path / "floor.sqlite")
    rows = db.execute("SELECT path, line, body FROM bullets").fetchall()
    db.close()
    assert len(rows) > 300
    for path, line, body in rows:
        assert (ws / path).read_text(encoding="utf-8").split("\n")[line - 1] == f"- {body}"


def test_score_counts_hits_and_reciprocal_ranks() -> None:
    found = [["x#L1", "a#L1"], ["b#L2"], [f"y#L{n}" for n in range(10)] + ["c#L3"]]
    scored = sidebyside.score(["a#L1", "b#L2", "c#L3"], found)
    assert scored["ranks"] == [2, 1, None]  # c is 11th: not in the first ten
    assert scored["hit_at_10"] == pytest.approx(2 / 3)
    assert scored["mrr_at_10"] == pytest.approx((1 / 2 + 1) / 3)
    wrong = sidebyside.score(["nowhere.md#L1"] * 3, found)
    assert (wrong["hit_at_10"], wrong["mrr_at_10"], wrong["ranks"]) == (0, 0, [None] * 3)


def test_planted_queries_have_exactly_one_right_line(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    corpus.generate(ws, files=30, seed=2, entity_pages=5)
    planted = sidebyside_queries.plant_queries(ws, 40, seed=2)
    assert planted == sidebyside_queries.plant_queries(ws, 40, seed=2)
    assert planted != sidebyside_queries.plant_queries(ws, 40, seed=3)
    lines = [(rel, n, words_of(text)) for text, rel, n in sidebyside_queries.every_line(ws)]
    for q in planted:
        words = set(q.text.split())
        assert len(words) == sidebyside_queries.QUERY_WORDS
        holding = [(rel, n) for rel, n, have in lines if words <= have]
        assert holding == [(q.path, q.line)], q
        bullet = (ws / q.path).read_text(encoding="utf-8").split("\n")[q.line - 1]
        assert bullet.startswith("- ")
        # a current truth: no time span that could have ended (memfold calls that expired)
        assert "until=" not in bullet and not extract_interval(bullet, default_year=2000), q
    with pytest.raises(click.ClickException, match="only .* of 1000 rare words queries"):
        sidebyside_queries.plant_queries(ws, 1000, seed=2)


def test_every_query_class_has_its_shape_and_one_right_line(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    corpus.generate(ws, files=40, seed=4, entity_pages=5)
    drawn = sidebyside_queries.plant_classes(ws, 10, seed=4)
    assert list(drawn) == list(sidebyside_queries.CLASSES)
    lines = [(rel, n, text) for text, rel, n in sidebyside_queries.every_line(ws)]
    for kind, planted in drawn.items():
        assert len(planted) == 10
        for q in planted:
            assert q.kind == kind
            holding = [(rel, n) for rel, n, text in lines if set(q.words) <= words_of(text)]
            assert holding == [(q.path, q.line)], q
            bullet = (ws / q.path).read_text(encoding="utf-8").split("\n")[q.line - 1]
            if kind in (sidebyside_queries.ENTITY_TOPIC, sidebyside_queries.NATURAL):
                assert f"@{q.words[0]}" in bullet.casefold(), q  # a name the bullet carries
            if kind == sidebyside_queries.NATURAL:
                assert q.text.endswith("?") and len(q.text.split()) >= 8
                # the floor searches the question's words without stop words
                assert '"what"' not in q.floor and '"the"' not in q.floor
            if kind == sidebyside_queries.MULTI:
                assert len(q.words) == sidebyside_queries.MULTI_WORDS
            if kind == sidebyside_queries.WHICH:
                # the noun asked for is one the bullet holds a kind of
                noun = expansion.asked_kind(q.text, [w.casefold() for w in q.text.split()])
                assert noun is not None, q
                assert any(noun in lexicon.classes(w) for w in words_of(bullet)), q


def test_bench_sidebyside_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "results" / "sidebyside.json"
    result = CliRunner().invoke(cli, ["bench", "sidebyside", "--files", "20", "--entity-pages",
                                      "5", "--queries", "5", "--repeat", "1",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "| | floor | memfold | ratio |" in result.output
    labels = [line.split(" | ")[0] for line in result.output.splitlines()
              if line.startswith("| ") and not line.startswith("| |")]
    assert labels == ["| cold index, wall", "| cold index, CPU time", "| cold index, peak RSS",
                      "| no-op sync", "| 10 files changed", "| in-process recall p50 (p95)",
                      "| in-process recall CPU time p50 (p95)",
                      "| in-process recall p50 (p95), first round",
                      "| whole-process CLI recall p50 (p95), one-shot",
                      "| whole-process CLI recall p50 (p95), warm",
                      "| hit@10 / MRR@10 (25 planted world facts)", "| index size",
                      "| query class", "| rare words (5)", "| entity topic (5)",
                      "| natural questions (5)", "| multi-word (5)",
                      "| what/which questions (5)"]
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["benchmark"] == "sidebyside"
    assert {"platform", "cpus", "python", "sqlite"} <= set(data["environment"])
    load = data["environment"]["load_average"]
    assert len(load["before"]) == len(load["after"]) == 3
    assert data["parameters"]["files"] == 20 and data["parameters"]["queries"] == 5
    assert data["corpus"]["daily_files"] == 20 and data["corpus"]["entity_pages"] == 5

    rows = data["rows"]
    assert set(rows) == set(ROWS)
    for key in ROWS:  # the ratio is memfold over floor, wherever both are measured
        r = rows[key]
        if r["memfold"] is None:
            assert key == "recall_cli_warm" and r["reason"] and r["ratio"] is None
            continue
        assert r["floor"] > 0 and r["memfold"] > 0, key
        assert r["ratio"] == pytest.approx(r["memfold"] / r["floor"]), key
    expected = {"cold_index_wall": 1, "noop_sync": 5, "changed_10_files": 1,
                "recall_in_process": 25, "recall_in_process_cpu": 25,
                "recall_in_process_first": 25, "recall_cli_one_shot": 25}
    for key, n in expected.items():
        assert len(rows[key]["samples"]["memfold"]) == len(rows[key]["samples"]["floor"]) == n
    assert data["noop_files_touched"] == [0] * 5
    assert data["incremental_files_synced"] == [10]
    child = data["cold_index_children"]["memfold"][0]
    assert child["tree_peak_rss"] >= child["peak_rss"] > 0 and child["cpu_seconds"] > 0

    queries = data["queries"]
    assert len(queries) == 25
    assert [q["class"] for q in queries] == [k for k in sidebyside_queries.CLASSES
                                             for _ in range(5)]
    for who in ("floor", "memfold"):  # the rows are what the per-query lists say
        hits = [q["answer"] in q[f"{who}_found"][:10] for q in queries]
        assert rows["hit_at_10"][who] == sum(hits) / 25
        assert rows["mrr_at_10"][who] == pytest.approx(
            sum(1 / q[f"{who}_rank"] for q in queries if q[f"{who}_rank"]) / 25)
        wrong = sidebyside.score(["memory/none.md#L1"] * 25, [q[f"{who}_found"] for q in queries])
        assert wrong["hit_at_10"] == wrong["mrr_at_10"] == 0
        for kind, by_class in data["classes"].items():  # each class: its own queries
            of = [q for q in queries if q["class"] == kind]
            assert by_class["queries"] == 5
            assert by_class["hit_at_10"][who] == sum(
                q["answer"] in q[f"{who}_found"][:10] for q in of) / 5
    # every planted rare-words answer is found on both sides
    assert data["classes"]["rare words"]["hit_at_10"]["memfold"] == 1.0
    for by_class in data["classes"].values():
        assert len(by_class["recall_in_process"]["samples"]["memfold"]) == 5
        cpu = by_class["recall_in_process_cpu"]  # each call's CPU time, no more than its wall
        assert len(cpu["samples"]["memfold"]) == len(cpu["samples"]["floor"]) == 5
        for who in ("floor", "memfold"):
            assert all(0 < c <= w + 1e-3 for c, w in zip(
                cpu["samples"][who], by_class["recall_in_process"]["samples"][who], strict=True))
        assert len(by_class["recall_cli_one_shot"]["samples"]["floor"]) == 5
        # one round: the first round's samples are every sample, in order
        assert by_class["recall_in_process_first"]["samples"] == \
            by_class["recall_in_process"]["samples"]
    same = data["cli"]["same_results_as_in_process"]
    assert same["one_shot"] == same["floor"] == same["of"] == 25
