"""Memory.retain: appending Retain bullets safely, indexing them, rejecting bad input."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from datetime import date, datetime
from pathlib import Path

import pytest

from conftest import DAILY, DAY, fact_rows, fresh_dump, write
from memfold.errors import BadInput
from memfold.memory import Memory
from memfold.values import TEXT
from memfold.workspace.format import BULLET, parse_bullet, parse_document, split_lines


def daily_bytes(root: Path) -> bytes | None:
    path = root / DAILY
    return path.read_bytes() if path.exists() else None


def test_retain_creates_the_day_file_with_ids_and_indexes(memory: Memory,
                                                          workspace: Path) -> None:
    result = memory.retain(
        ["W @Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday.",
         "O(c=0.95) @Peter: Prefers concise replies."], date=DAY)
    assert result.path == DAILY and result.indexed and result.warnings == ()
    text = (workspace / DAILY).read_text(encoding="utf-8")
    ids = [f.id for f in result.facts]
    assert text == (f"# {DAY}\n\n## Retain\n"
                    f"- W @Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's "
                    f"birthday. ^{ids[0]}\n"
                    f"- O(c=0.95) @Peter: Prefers concise replies. ^{ids[1]}\n")
    first, second = result.facts
    assert (first.kind, first.line, first.source) == ("world", 4, f"{DAILY}#L4")
    assert first.valid is not None and first.valid.end == date(2025, 12, 1)
    assert (second.kind, second.confidence, second.line) == ("opinion", 0.95, 5)
    assert all(f.explicit_id for f in result.facts)
    for fact in result.facts:
        assert memory.index_backend.locate(fact.id) == [fact.source]
    assert result.to_dict()["ids"] == ids


def test_retain_appends_and_never_rewrites(memory: Memory, workspace: Path) -> None:
    memory.retain("W: first", date=DAY)
    before = daily_bytes(workspace)
    result = memory.retain(["B: second", "- S: third"], date=DAY)
    after = daily_bytes(workspace)
    assert before is not None and after is not None and after.startswith(before)
    assert after.count(b"## Retain") == 1
    assert [f.line for f in result.facts] == [5, 6]
    assert [f.content for f in result.facts] == ["second", "third"]


def test_retain_after_narrative_starts_a_new_retain_section(memory: Memory,
                                                            workspace: Path) -> None:
    original = f"# {DAY}\r\n\r\n## Retain\r\n- W: old\r\n\r\n## Notes\r\nWent for a walk.".encode()
    write(workspace, DAILY, original)
    result = memory.retain("W @Peter: new", date=DAY)
    data = daily_bytes(workspace)
    assert data is not None and data.startswith(original)
    doc = parse_document(DAILY, data)
    assert [f.content for f in doc.facts if f.kind != TEXT] == ["old", "new"]
    assert result.facts[0].line == doc.facts[-1].line
    assert doc.warnings == ()


def test_retain_closes_an_unclosed_fence_first(memory: Memory, workspace: Path) -> None:
    write(workspace, DAILY, "## Retain\n- W: old\n```\n- W: fake\n")
    result = memory.retain("W: real", date=DAY)
    doc = parse_document(DAILY, (workspace / DAILY).read_bytes())
    assert [f.content for f in doc.facts if f.kind != TEXT] == ["old", "real"]
    assert result.facts[0].content == "real"


def test_retain_keeps_an_explicit_block_id(memory: Memory, workspace: Path) -> None:
    result = memory.retain("W @Peter: Lives in Vienna. ^vienna01", date=DAY)
    assert [f.id for f in result.facts] == ["vienna01"]
    assert (workspace / DAILY).read_text().count("^vienna01") == 1


def test_retain_rejects_a_block_id_already_used(memory: Memory, workspace: Path) -> None:
    memory.retain("W: one ^dup0001", date=DAY)
    before = daily_bytes(workspace)
    with pytest.raises(BadInput, match="already used"):
        memory.retain("W: two ^dup0001", date="2025-11-28")
    with pytest.raises(BadInput, match="same block id"):
        memory.retain(["W: a ^twice01", "W: b ^twice01"], date=DAY)
    assert daily_bytes(workspace) == before
    assert not (workspace / "memory/2025-11-28.md").exists()


def test_retain_keeps_unknown_params_and_the_index_reports_them(memory: Memory,
                                                                workspace: Path) -> None:
    result = memory.retain("O(c=0.5, mood=sunny) @Peter: Likes tea.", date=DAY)
    (fact,) = result.facts
    assert fact.params == {"c": "0.5", "mood": "sunny"}
    assert "O(c=0.5,mood=sunny) @Peter: Likes tea." in (workspace / DAILY).read_text()
    assert [(w.path, w.line) for w in memory.warnings()] == [(DAILY, fact.line)]
    assert "mood" in memory.warnings()[0].message


def test_retain_defaults_to_the_day_of_now(workspace: Path) -> None:
    with Memory.open(workspace, now="2026-02-03T23:30:00") as memory:
        result = memory.retain("W: dated by now")
    assert result.path == "memory/2026-02-03.md"
    assert result.facts[0].day == date(2026, 2, 3)
    with Memory.open(workspace) as memory:
        assert memory.retain("W: x", now=datetime(2027, 1, 1, 12)).path == "memory/2027-01-01.md"


@pytest.mark.parametrize("bullets, message", [
    ("X @Peter: unknown kind", "unknown kind"),
    ("w: lowercase kind", "unknown kind"),
    ("O(c=1.5) @Peter: too confident", "confidence"),
    ("O(c=-0.1): negative", "confidence"),
    ("O(c=nan): not a number", "confidence"),
    ("W(i=0): too low", "importance"),
    ("W(i=11): too high", "importance"),
    ("W(until=2025-02-30): no such day", "until"),
    ("W @Peter:", "empty"),
    ("W @Peter:    ", "empty"),
    ("W: ^abcdef1", "empty"),
    ("", "empty"),
    ("   ", "empty"),
    ("W: line one\nline two", "newline"),
    ("W: carriage\rreturn", "newline"),
    ("W: bell \x07", "control"),
    ("just text", "not a Retain fact"),
    (["W: fine", "X: bad"], "bullet 2"),
    ([], "nothing to retain"),
])
def test_bad_input_raises_and_writes_nothing(memory: Memory, workspace: Path,
                                             bullets: str | list[str], message: str) -> None:
    memory.retain("W: existing", date=DAY)
    before = daily_bytes(workspace)
    with pytest.raises(BadInput, match=message) as info:
        memory.retain(bullets, date=DAY)
    assert "\n" not in str(info.value)
    assert daily_bytes(workspace) == before
    assert len(fact_rows(memory.index_backend.dump())) == 1


@pytest.mark.parametrize("day", ["2025-13-01", "2025-02-30", "11/27/2025", "2025-1-1", "today",
                                 "", "2025-11-27T10:00"])
def test_malformed_date_raises_and_writes_nothing(memory: Memory, workspace: Path,
                                                  day: str) -> None:
    with pytest.raises(BadInput, match="date"):
        memory.retain("W: x", date=day)
    assert list((workspace / "memory").iterdir()) == []


def test_retained_lines_parse_back_identically(memory: Memory, workspace: Path) -> None:
    given = ["W(i=7, until=2026-01-01) @Hà-Nội: Visit @Zoë (2025-12-01..2025-12-24).",
             "S @東京: Crowded on Mondays.", "B: Tab\tinside content."]
    result = memory.retain(given, date=DAY)
    doc = parse_document(DAILY, (workspace / DAILY).read_bytes())
    assert tuple(f for f in doc.facts if f.kind != TEXT) == result.facts
    for text, fact in zip(given, result.facts, strict=True):
        bullet = parse_bullet(text)
        assert (fact.kind, fact.content, fact.entities, fact.params) == (
            bullet.kind, bullet.content, bullet.entities, bullet.params)


def test_retain_index_matches_a_rebuild(memory: Memory, workspace: Path,
                                        tmp_path: Path) -> None:
    write(workspace, DAILY, "# Day\n\nSome prose first.\n")
    memory.index()
    memory.retain(["W @Peter: a", "B @Peter: b"], date=DAY)
    memory.retain("S: c", date=DAY)
    assert memory.status().freshness.stale == 0
    assert memory.index_backend.dump() == fresh_dump(workspace, tmp_path)


# -- two real processes retaining into one day ----------------------------------------------

WORKER = textwrap.dedent("""
    import json, sys, time
    from pathlib import Path
    from memfold.memory import Memory

    root, tag, count, go = sys.argv[1], sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
    deadline = time.monotonic() + 30
    while not go.exists() and time.monotonic() < deadline:
        time.sleep(0.001)
    ids = []
    with Memory.open(root) as memory:
        for n in range(count):
            result = memory.retain(f"W @{tag}: {tag} fact number {n:03d}", date="2025-11-27")
            ids.extend(f.id for f in result.facts)
    print(json.dumps(ids))
""")


@pytest.mark.slow
def test_two_processes_retaining_at_once_lose_nothing(workspace: Path, tmp_path: Path) -> None:
    count = 200
    go = tmp_path / "go"
    procs = [
        subprocess.Popen([sys.executable, "-c", WORKER, str(workspace), tag, str(count), str(go)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for tag in ("alpha", "beta")
    ]
    time.sleep(0.3)  # both interpreters are up and waiting
    go.touch()
    ids: dict[str, list[str]] = {}
    for tag, proc in zip(("alpha", "beta"), procs, strict=True):
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        ids[tag] = json.loads(out)
    all_ids = ids["alpha"] + ids["beta"]
    assert len(ids["alpha"]) == len(ids["beta"]) == count
    assert len(set(all_ids)) == 2 * count

    data = (workspace / DAILY).read_bytes()
    lines = split_lines(data.decode("utf-8"))
    assert lines[:3] == [f"# {DAY}", "", "## Retain"]
    bullets = lines[3:]
    assert len(bullets) == 2 * count
    assert [line for line in bullets if not BULLET.match(line)] == []
    assert data.endswith(b"\n") and data.count(b"## Retain") == 1

    doc = parse_document(DAILY, data)
    assert doc.warnings == ()
    assert len(doc.facts) == 2 * count and all(f.kind == "world" for f in doc.facts)
    assert [f.id for f in doc.facts if f.entities == ("alpha",)] == ids["alpha"]
    assert [f.id for f in doc.facts if f.entities == ("beta",)] == ids["beta"]
    for tag in ("alpha", "beta"):  # each process's bullets, once each, in its own order
        mine = [f.content for f in doc.facts if f.entities == (tag,)]
        assert mine == [f"{tag} fact number {n:03d}" for n in range(count)]
    assert sorted(f.id for f in doc.facts) == sorted(all_ids)

    with Memory.open(workspace) as memory:
        memory.index()
        dump = memory.index_backend.dump()
        assert sorted(row[1] for row in fact_rows(dump) if row[2] == DAILY) == sorted(all_ids)
    assert dump == fresh_dump(workspace, tmp_path)
