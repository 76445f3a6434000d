"""Bytes that are not UTF-8, on stdin or in an argument, are refused with one line (exit 2)
naming where; nothing is stored."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def memfold(workspace: Path, *args: str | bytes,
            stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "MEMFOLD_WORKSPACE": str(workspace)}
    return subprocess.run([sys.executable, "-m", "memfold", *args], input=stdin,
                          capture_output=True, env=env, check=False)


def test_latin1_stdin_and_argument_refused(tmp_path: Path) -> None:
    assert memfold(tmp_path, "init", str(tmp_path)).returncode == 0
    before = sorted(p.read_bytes() for p in tmp_path.rglob("*.md"))
    piped = memfold(tmp_path, "retain", stdin=b"W @Bin: caf\xe9\n")
    assert piped.returncode == 2
    assert piped.stderr.decode().strip() == (
        "memfold: error: stdin is not UTF-8: byte 0xe9 at offset 11 "
        "(save it as UTF-8 and try again)")
    given = memfold(tmp_path, "retain", b"W @Bin: caf\xe9")
    assert given.returncode == 2
    assert given.stderr.decode().strip() == (
        "memfold: error: argument 1 is not UTF-8: byte 0xe9 at character 11")
    assert sorted(p.read_bytes() for p in tmp_path.rglob("*.md")) == before


def test_utf8_stdin_still_retained(tmp_path: Path) -> None:
    assert memfold(tmp_path, "init", str(tmp_path)).returncode == 0
    done = memfold(tmp_path, "retain", stdin="W @Bin: café\n".encode())
    assert done.returncode == 0, done.stderr
    assert "café" in "".join(p.read_text() for p in (tmp_path / "memory").glob("*.md"))


def test_memfold_call_names_the_byte_that_is_not_utf8(tmp_path: Path) -> None:
    assert memfold(tmp_path, "init", str(tmp_path)).returncode == 0
    called = memfold(tmp_path, "call", stdin=(
        b'{"name": "retain", "arguments": {"bullets": ["W @Bin: caf\xe9"]}}'))
    assert called.returncode == 2
    assert called.stderr.decode().strip() == (
        "memfold: error: stdin is not UTF-8: byte 0xe9 at offset 57; send UTF-8 JSON")


def test_a_lone_surrogate_is_refused_by_every_write_with_where_it_is(tmp_path: Path) -> None:
    import pytest

    from memfold import BadInput, Memory

    Memory.init(tmp_path)
    with Memory.open(tmp_path, now="2025-11-27T12:00:00") as memory:
        fact_id = memory.retain("W @Bin: café").facts[0].id
        before = sorted(p.read_bytes() for p in tmp_path.rglob("*.md"))
        journal = (tmp_path / "journal.jsonl").read_bytes()
        attempts = [
            (lambda: memory.retain(["W @Bin: ok", "W @Bin: caf\udce9"]), "bullet 2"),
            (lambda: memory.note(fact_id, "checked \ud800", rev=0), "text"),
            (lambda: memory.supersede(fact_id, fact_id, reason="r\udce9"), "reason"),
            (lambda: memory.core_append("Human", "likes caf\udce9"), "text"),
        ]
        for attempt, where in attempts:
            with pytest.raises(BadInput, match=f"^{where} is not UTF-8 text: U\\+D"):
                attempt()
        assert sorted(p.read_bytes() for p in tmp_path.rglob("*.md")) == before
        assert (tmp_path / "journal.jsonl").read_bytes() == journal


def test_a_json_surrogate_escape_over_a_tool_call_is_a_clear_refusal(tmp_path: Path) -> None:
    import json

    assert memfold(tmp_path, "init", str(tmp_path)).returncode == 0
    called = memfold(tmp_path, "call", stdin=(
        b'{"name": "retain", "arguments": {"bullets": ["W @Bin: caf\\ud800"]}}'))
    result = json.loads(called.stdout)
    assert result["is_error"] and result["result"]["type"] == "BadInput", result
    assert "not UTF-8 text: U+D800" in result["result"]["error"]
    assert not list((tmp_path / "memory").glob("*.md"))
