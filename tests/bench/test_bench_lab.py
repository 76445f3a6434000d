"""The file-vs-database lab: `memfold bench lab` end to end, and the JSON and memfold CAS races."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from memfold.cli.main import cli
from memfold_bench.lab import PASSED, source_rows
from memfold_bench.lab_memfold import MemfoldColumn
from memfold_bench.lab_race import RACE_KEY, RACE_NOTE, race
from memfold_bench.lab_stores import open_store, write_source

REPORT_KEYS = {"checked_at", "python", "sqlite", "platform", "source_bytes", "source_sha",
               "rows", "scope", "samples", "checks", "medians", "ratios"}


def test_bench_lab_command_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "results" / "memory-results.json"
    result = CliRunner().invoke(
        cli, ["bench", "lab", "--rows", "50", "--repeat", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    assert set(report) >= REPORT_KEYS
    assert report["rows"] == 50 and len(report["source_sha"]) == 64
    assert {s["store"] for s in report["samples"]} == {"json", "sqlite", "memfold"}
    assert all(s["mode"] == s["store"] for s in report["samples"])  # design note 000's name
    assert set(report["ratios"]) == {"sqlite/json", "memfold/sqlite"}
    statuses = [status for group in report["checks"].values() for status in group.values()]
    assert statuses and all(status == PASSED for status in statuses), statuses
    checks = {"same_answers", "race", "stale_source_refused", "rebuild_keeps_notes",
              "backup_restore"}
    for name in ("json", "sqlite", "memfold"):
        assert report["checks"][name] == dict.fromkeys(checks, PASSED), report["checks"][name]


def test_json_store_race_has_exactly_one_winner(tmp_path: Path) -> None:
    write_source(tmp_path / "sources.json", source_rows(12))
    store = open_store("json", tmp_path)
    try:
        store.rebuild()
        outcome = race("json", tmp_path)
        assert outcome.read == [0, 0]
        assert outcome.outcomes == ["applied", "stale"]
        record = store.get(RACE_KEY)
        assert (record["rev"], record["note"]) == (1, RACE_NOTE)
        assert not store.cas(RACE_KEY, 0, "too late")
        assert store.get(RACE_KEY)["note"] == RACE_NOTE
    finally:
        store.close()


def test_memfold_race_has_exactly_one_winner(tmp_path: Path) -> None:
    column = MemfoldColumn(tmp_path / "workspace", source_rows(12))
    try:
        outcome = race("memfold", column.root)
        assert outcome.read == [0, 0]
        assert outcome.outcomes == ["applied", "stale"]
        record = column.held(RACE_KEY)
        assert (record["rev"], record["note"]) == (1, RACE_NOTE)
        assert not column.note(RACE_KEY, 0, "too late")
        assert column.held(RACE_KEY)["note"] == RACE_NOTE
    finally:
        column.close()
