"""Index sync: incremental equals full rebuild, deletions leave the index, Markdown untouched."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from conftest import DAILY, fact_rows, fresh_dump, markdown_hashes, write
from memfold.index.sqlite.backend import SqliteIndex
from memfold.index.sync import sync
from memfold.memory import Memory
from memfold.workspace.layout import Workspace

LINES = [
    "- W @Peter: Lives in Vienna.",
    "- O(c=0.9) @Peter: Prefers short replies.",
    "- B @warelay: Fixed the WS crash (see memory/2025-11-27.md).",
    "- S(i=4) @Zoë: Seems busy (Nov 27–Dec 1, 2025).",
    "- W(until=2026-01-01) @Hà-Nội: Rainy season.",
    "- W(mood=odd) @Peter: Unknown key kept.",
    "- W(c=7): Out of range.",
    "- just a note under some heading",
    "  - S: nested bullet",
    "Plain narrative sentence about @Andy.",
    "Another line of prose, with Unicode: Đà Nẵng, 東京, 🙂.",
    "```",
    "- W @Fake: inside a fence maybe",
    "",
    "",
    "## Retain",
    "## Notes",
    "# Title",
    "### Deeper",
]


def random_text(rng: random.Random) -> str:
    lines = [rng.choice(LINES) for _ in range(rng.randint(0, 25))]
    if rng.random() < 0.2:
        lines.append(f"- W: unique {rng.randrange(10**9)} ^{rng.randrange(36**6, 36**7):x}")
    newline = "\r\n" if rng.random() < 0.2 else "\n"
    text = newline.join(lines) + (newline if rng.random() < 0.8 else "")
    if rng.random() < 0.1:
        text = "\ufeff" + text
    if rng.random() < 0.1:
        text = "---\naliases: [Pete, P]\n---\n" + text
    return text


def random_path(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.5:
        return f"memory/2025-11-{rng.randint(1, 30):02d}.md"
    if kind < 0.7:
        return f"bank/entities/{rng.choice(['Peter', 'Zoë', 'Hà-Nội', 'Andy'])}.md"
    if kind < 0.85:
        return f"bank/{rng.choice(['world', 'experience', 'opinions', 'projects/x'])}.md"
    return f"memory/notes/{rng.choice(['a', 'b', 'c'])}.md"


def markdown_files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*.md")
                  if ".memory" not in p.parts and p.is_file())


def mutate(root: Path, rng: random.Random) -> None:
    """One random edit: add, rewrite, append, edit in place (same size), delete, rename."""
    files = markdown_files(root)
    action = rng.choice(["add", "add", "rewrite", "append", "same_size", "delete", "rename",
                         "touch"])
    if action == "add" or not files:
        write(root, random_path(rng), random_text(rng))
        return
    rel = rng.choice(files)
    path = root / rel
    if action == "rewrite":
        write(root, rel, random_text(rng))
    elif action == "append":
        with open(path, "ab") as handle:
            handle.write(f"- W @Peter: appended {rng.randrange(1000)}\n".encode())
    elif action == "same_size":
        data = bytearray(path.read_bytes())
        if data:
            at = rng.randrange(len(data))
            if data[at] < 0x80 and chr(data[at]).isalpha():
                data[at] = ord("x") if data[at] != ord("x") else ord("y")
            path.write_bytes(bytes(data))
    elif action == "delete":
        path.unlink()
    elif action == "rename":
        target = random_path(rng)
        (root / target).parent.mkdir(parents=True, exist_ok=True)
        if not (root / target).exists():
            os.replace(path, root / target)
    else:  # touch: a new mtime, the same bytes
        os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 5_000_000_000))


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_incremental_sync_equals_full_rebuild(workspace: Path, tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(6):
        write(workspace, random_path(rng), random_text(rng))
    with Memory.open(workspace) as memory:
        memory.index()
        for round_ in range(12):
            for _ in range(rng.randint(1, 4)):
                mutate(workspace, rng)
            memory.index()
            incremental = memory.index_backend.dump()
            elsewhere = fresh_dump(workspace, tmp_path / f"fresh{round_}")
            assert incremental == elsewhere, f"seed {seed} round {round_}"
        memory.index(full=True)
        assert memory.index_backend.dump() == incremental
    assert {row[1] for row in incremental if row[0] == "file"} == set(markdown_files(workspace))


def test_sync_report_added_changed_removed(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        first = memory.index()
        assert sorted(first.added) == ["bank/experience.md", "bank/opinions.md", "bank/world.md",
                                       "memory.md"]
        assert first.changed == first.removed == () and not first.full
        again = memory.index()
        assert again.touched == 0 and again.scanned == 4

        write(workspace, DAILY, "## Retain\n- W: new\n")
        write(workspace, "bank/world.md", "# World\n\nChanged.\n")
        (workspace / "bank/opinions.md").unlink()
        report = memory.index()
        assert report.added == (DAILY,)
        assert report.changed == ("bank/world.md",)
        assert report.removed == ("bank/opinions.md",)
        assert memory.index().touched == 0

        full = memory.index(full=True)
        assert full.full and full.removed == () and len(full.added) == full.scanned == 4


def test_deleted_files_leave_the_index(workspace: Path) -> None:
    write(workspace, DAILY, "## Retain\n- W @Peter: gone soon ^gone001\n- W(zz=1): warns\n")
    with Memory.open(workspace) as memory:
        memory.index()
        assert memory.index_backend.locate("gone001") == [f"{DAILY}#L2"]
        assert memory.warnings()
        (workspace / DAILY).unlink()
        assert memory.status().freshness.deleted == (DAILY,)
        assert memory.index().removed == (DAILY,)
        assert memory.index_backend.locate("gone001") == []
        assert memory.warnings() == []
        assert all(DAILY not in row for row in memory.index_backend.dump())
        assert memory.status().entities == 0


def test_a_same_size_edit_right_after_a_sync_is_seen(workspace: Path, tmp_path: Path) -> None:
    path = write(workspace, DAILY, "## Retain\n- W @Peter: Lives in Vienna.\n")
    with Memory.open(workspace) as memory:
        memory.index()
        stat = path.stat()
        path.write_bytes(path.read_bytes().replace(b"Vienna", b"Vidnna"))
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size, same mtime
        assert memory.index().changed == (DAILY,)
        assert [row[6] for row in fact_rows(memory.index_backend.dump())
                if row[2] == DAILY] == ["Lives in Vidnna."]
        assert memory.index_backend.dump() == fresh_dump(workspace, tmp_path)


def test_a_touched_but_unchanged_file_is_not_reparsed(workspace: Path) -> None:
    path = write(workspace, DAILY, "## Retain\n- W: same\n")
    with Memory.open(workspace) as memory:
        memory.index()
        before = memory.index_backend.dump()
        os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**10))
        assert memory.status().freshness.modified == (DAILY,)
        report = memory.index()
        assert report.touched == 0
        assert memory.index_backend.dump() == before
        assert memory.status().freshness.stale == 0


def test_indexing_never_writes_markdown(workspace: Path) -> None:
    write(workspace, DAILY, b"\xef\xbb\xbf## Retain\r\n- W: crlf\r\n- nope\r\n```\r\n")
    write(workspace, "bank/entities/Peter.md", "---\naliases: [Pete]\n---\n# Peter\n\nText.")
    write(workspace, "memory/bad.md", b"## Retain\n- W: caf\xe9\x00\n")
    before = markdown_hashes(workspace)
    with Memory.open(workspace) as memory:
        memory.index()
        memory.index()
        memory.index(full=True)
        memory.status()
    assert markdown_hashes(workspace) == before
    assert sorted(p.name for p in workspace.rglob("*") if p.is_file()
                  and ".memory" not in p.parts) == sorted(
        ["memory.md", ".gitignore", "world.md", "experience.md", "opinions.md",
         "2025-11-27.md", "Peter.md", "bad.md"])


def test_which_files_are_read(workspace: Path) -> None:
    write(workspace, "memory/a.md", "Read me.\n")
    write(workspace, "bank/deep/er/b.md", "Read me too.\n")
    for rel in ("memory/.hidden.md", "memory/.dir/c.md", "memory/x.md~", "memory/x.md.swp",
                "memory/.#x.md", "memory/#x.md#", "memory/x.tmp", "memory/x.txt", "notes.md",
                "other/y.md"):
        write(workspace, rel, "Never read.\n")
    outside = write(workspace.parent, "outside.md", "Outside the workspace.\n")
    os.symlink(outside, workspace / "memory/link.md")
    os.symlink(workspace.parent, workspace / "bank/linkdir")
    with Memory.open(workspace) as memory:
        memory.index()
        files = sorted(row[1] for row in memory.index_backend.dump() if row[0] == "file")
        contents = [row[6] for row in fact_rows(memory.index_backend.dump())]
    assert files == ["bank/deep/er/b.md", "bank/experience.md", "bank/opinions.md",
                     "bank/world.md", "memory.md", "memory/a.md"]
    assert not any("Never read" in c or "Outside" in c for c in contents)


def test_parse_warnings_are_indexed_with_path_and_line(workspace: Path) -> None:
    write(workspace, DAILY, "# Day\n\n## Retain\n- W: ok\n- not a fact\n- O(c=3): bad c\n")
    with Memory.open(workspace) as memory:
        report = memory.index()
        assert [(w.path, w.line) for w in report.warnings] == [(DAILY, 5), (DAILY, 6)]
        assert [str(w).split(": ")[0] for w in memory.warnings()] == [
            f"{DAILY}:5", f"{DAILY}:6"]
        rows = [(row[3], row[5], row[6]) for row in fact_rows(memory.index_backend.dump())
                if row[2] == DAILY]
        assert rows == [(4, "world", "ok"), (5, "text", "not a fact"), (6, "opinion", "bad c")]
        assert memory.status().warnings == 2


def test_status_counts_and_freshness(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        report = memory.status()
        assert report.workspace == str(workspace)
        assert report.last_sync is None and report.files == 0
        assert report.freshness.new == ("bank/experience.md", "bank/opinions.md",
                                        "bank/world.md", "memory.md")
        memory.retain(["W @Peter: a", "O(c=0.5) @Peter @Zoë: b", "S: c"], date="2025-11-27")
        memory.index()
        report = memory.status()
        assert report.freshness.stale == 0 and report.last_sync is not None
        assert report.files == 5
        assert report.facts_by_kind == {"observation": 1, "opinion": 1, "world": 1}
        assert report.entities == 2
        assert report.chunks == 0  # the template pages hold headings and comments only
        write(workspace, "bank/world.md", "# World\n\nEdited, now longer than before.\n")
        write(workspace, "memory/new.md", "New.\n")
        assert memory.status().freshness.modified == ("bank/world.md",)
        assert memory.status().freshness.new == ("memory/new.md",)


def test_a_damaged_index_is_rebuilt_from_the_markdown(workspace: Path, tmp_path: Path) -> None:
    write(workspace, DAILY, "## Retain\n- W @Peter: survives\n")
    with Memory.open(workspace) as memory:
        memory.index()
    index_path = workspace / ".memory/index.sqlite"
    for suffix in ("-wal", "-shm"):
        Path(str(index_path) + suffix).unlink(missing_ok=True)
    index_path.write_bytes(b"this is not a database" * 100)
    with Memory.open(workspace) as memory:
        memory.index()
        assert any("damaged" in n for n in memory.notices)
        assert memory.index_backend.dump() == fresh_dump(workspace, tmp_path)
    assert (workspace / ".memory/index.sqlite.damaged").exists()


def test_dump_is_independent_of_the_workspace_location(workspace: Path, tmp_path: Path) -> None:
    write(workspace, DAILY, "## Retain\n- W @Peter: a\n\nprose\n")
    with Memory.open(workspace) as memory:
        memory.index()
        here = memory.index_backend.dump()
    other = tmp_path / "copy"
    for rel in markdown_files(workspace):
        write(other, rel, (workspace / rel).read_bytes())
    index = SqliteIndex(tmp_path / "other.sqlite")
    try:
        from memfold.index.sync import sync
        from memfold.workspace.layout import Workspace

        sync(Workspace(other), index)
        assert index.dump() == here
    finally:
        index.close()


def test_a_first_sync_fills_an_empty_index_as_a_rebuild_does(workspace: Path,
                                                              tmp_path: Path) -> None:
    """A first sync takes the rebuild's way (rows first, indexes once at the end): the same
    rows, the same indexes, duplicates counted, and every typed fact's id reported new."""
    write(workspace, DAILY, "## Retain\n- W @Peter: twice ^dup0001\n- W: again ^dup0001\n"
                            "- B @Anna: met for lunch\n")
    index = SqliteIndex(tmp_path / "first.sqlite")
    try:
        report = sync(Workspace(workspace), index, only=[DAILY])
        assert sorted(set(report.new_ids)) == sorted(report.new_ids)  # each id once
        assert "dup0001" in report.new_ids and len(report.new_ids) == 2
        first = index.dump()
        objects = index.db.execute("SELECT type, name FROM sqlite_master ORDER BY name").fetchall()
        duplicates = index.db.execute("SELECT id FROM duplicate_ids").fetchall()
        sync(Workspace(workspace), index)  # the rest of the workspace, into a filled index
        sync(Workspace(workspace), index, full=True)
        assert index.db.execute("SELECT type, name FROM sqlite_master ORDER BY name"
                                ).fetchall() == objects
        assert ("index", "facts_by_id") in objects
        assert duplicates == [("dup0001",)]
        assert index.db.execute("SELECT id FROM duplicate_ids").fetchall() == duplicates
        assert first == [row for row in index.dump() if row in first]  # nothing lost
    finally:
        index.close()
