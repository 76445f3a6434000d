"""A power loss in the middle of a retain's append: the torn tail is cut off, never read as
a fact; whole bytes, and bytes someone changed since, are left alone.

A power loss is staged as it leaves the disk: the append's record durable in the lock file
(it is synced before the append starts) and only part of the appended bytes in the day file
— a prefix, or the full length with the unsynced blocks read back as zeros.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memfold import Memory
from memfold.workspace.files import WriteLock
from memfold.workspace.format import plan_append

NOW = "2025-11-27T09:00:00+00:00"
DAY = "memory/2025-11-27.md"


def staged_crash(root: Path, keep: slice | None, *, zeros: bool = False) -> bytes:
    """The day file after a crash mid-append of one bullet; returns the bytes appended."""
    with Memory.open(root, now=NOW) as memory:
        memory.retain(["W @Pat: The day exists."])
    day = root / DAY
    before = day.read_bytes()
    addition = plan_append(before.decode(), "2025-11-27",
                           ["- W @Pat: A bullet the power cut. ^torn0001"]).encode()
    with WriteLock(root / ".memory" / "write.lock").held() as held:
        held.intend_append(day, len(before), addition)
    if keep is not None:
        tail = addition[keep]
        if zeros:
            tail += b"\0" * (len(addition) - len(tail))
        day.write_bytes(before + tail)
    return addition


@pytest.mark.parametrize("cut", [1, 10, -12, -1])
def test_a_torn_tail_is_cut_off_when_the_workspace_opens(workspace: Path, cut: int) -> None:
    staged_crash(workspace, slice(0, cut))
    with Memory.open(workspace, now=NOW) as memory:
        notices = memory.notices
        contents = [h.content for h in memory.recall("bullet power", include_all=True).hits]
        memory.retain(["W @Pat: The next bullet."])
    assert any("cut off" in n and DAY in n for n in notices), notices
    assert not any("power cut" in c for c in contents)
    text = (workspace / DAY).read_text()
    assert "power" not in text and text.endswith("- W @Pat: The next bullet. ^" +
                                                 text.rsplit("^", 1)[1])
    assert not (workspace / ".memory" / "write.lock").read_bytes()  # the record is gone


def test_unsynced_blocks_read_as_zeros_are_cut_off_too(workspace: Path) -> None:
    staged_crash(workspace, slice(0, 7), zeros=True)
    with Memory.open(workspace, now=NOW):
        pass
    assert b"\0" not in (workspace / DAY).read_bytes()


def test_the_next_writer_cuts_it_off_before_appending(workspace: Path) -> None:
    """A process that opened the workspace before the crash finds the record when it takes
    the lock, and cuts the tail off before its own append, not after it."""
    with Memory.open(workspace, now=NOW) as memory:
        staged_crash(workspace, slice(0, 20))
        result = memory.retain(["W @Pat: Written after the crash."])
    text = (workspace / DAY).read_text()
    assert "power" not in text and "Written after the crash." in text
    assert result.facts[0].content == "Written after the crash."


def test_whole_bytes_are_kept(workspace: Path) -> None:
    """Every byte reached the disk but the process died before acknowledging: the bullet is
    whole, so it stays (as a fact written by hand would)."""
    addition = staged_crash(workspace, slice(None))
    with Memory.open(workspace, now=NOW) as memory:
        hits = memory.recall("bullet power").hits
    assert (workspace / DAY).read_bytes().endswith(addition)
    assert [h.fact.id for h in hits] == ["torn0001"]


def test_bytes_changed_since_by_someone_else_are_left_alone(workspace: Path) -> None:
    """A stale record (its clearing lost with the power) over a tail that a person edited
    since: recovery changes nothing, as it cannot tell an edit from a tear."""
    staged_crash(workspace, slice(0, 15))
    day = workspace / DAY
    edited = day.read_bytes()[:-3] + b"typed by hand\n"
    day.write_bytes(edited)
    with Memory.open(workspace, now=NOW):
        pass
    assert day.read_bytes() == edited


def test_no_record_no_work(workspace: Path) -> None:
    """The common case: after every acknowledged retain the lock file is empty again."""
    with Memory.open(workspace, now=NOW) as memory:
        for n in range(3):
            memory.retain([f"W @Pat: Fact {n}."])
            assert not (workspace / ".memory" / "write.lock").read_bytes()
