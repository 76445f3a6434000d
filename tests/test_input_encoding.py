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
