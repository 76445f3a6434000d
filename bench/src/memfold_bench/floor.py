"""The floor: the least work that gets the benchmark corpus into a searchable FTS5 table.

A benchmark figure means little alone; beside it we measure the simplest program that does
the same job on the same files in the same run.  This module owns those two programs:

- `load`: read every daily log, cut out its `## Retain` sections, take each bullet with one
  regular expression and insert them with `executemany` in one transaction into a plain FTS5
  table (`unicode61 remove_diacritics 2`) in a fresh SQLite file, each with its path and line
  (the least a result needs to be cited, as memfold cites `path#Lline`).  No fences, ids,
  entities, dates, hashing or parse warnings — everything memfold does beyond that is its
  overhead.
  The file uses WAL with `synchronous = NORMAL`, as memfold's index does, so the durability
  cost is the same on both sides.
- `stat_scan`: the no-op sync — `os.scandir` the files memfold reads (memory.md, memory/,
  bank/) and compare each (size, mtime) with a dict of stamps.

`SEARCH` is the floor's recall: the plain FTS5 query, best ten by `rank`; `SEARCH_SCRIPT` is
the same as a whole `python -c` process (the file and the FTS5 expression as arguments).
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from pathlib import Path

BULLET_OR_BREAK = re.compile(r"^[-*+][ \t]+(.+)$|\n", re.MULTILINE)
RETAIN = "# Retain\n"  # what a `## Retain` section starts with once the text is cut at "\n#"
SCHEMA = ("CREATE VIRTUAL TABLE bullets USING fts5("
          "body, path UNINDEXED, line UNINDEXED, tokenize = 'unicode61 remove_diacritics 2')")
INSERT = "INSERT INTO bullets (body, path, line) VALUES (?, ?, ?)"
SEARCH = "SELECT path, line, body FROM bullets WHERE bullets MATCH ? ORDER BY rank LIMIT 10"
SEARCH_SCRIPT = (
    "import json, sqlite3, sys\n"
    "db = sqlite3.connect(sys.argv[1])\n"
    f"rows = db.execute({SEARCH!r}, (sys.argv[2],)).fetchall()\n"
    "print(json.dumps([{'source': f'{p}#L{n}', 'content': b} for p, n, b in rows],"
    " ensure_ascii=False))\n"
)
Stamps = dict[str, tuple[int, int]]


def retain_lines(text: str) -> list[tuple[str, int]]:
    """The bullets of every `## Retain` section, in order (without the `- `), each with its
    1-based line number."""
    found: list[tuple[str, int]] = []
    line = 1  # where the section starts
    for section in text.split("\n#"):
        if section.startswith(RETAIN):
            for body in BULLET_OR_BREAK.findall(section):  # "" for a line break
                if body:
                    found.append((body, line))
                else:
                    line += 1
            line += 1  # the line break `split` took
        else:
            line += section.count("\n") + 1
    return found


def retain_bullets(text: str) -> list[str]:
    """The bullets of every `## Retain` section, in order (without the `- `)."""
    return [body for body, _ in retain_lines(text)]


def daily_files(root: Path) -> list[str]:
    """The daily logs, as workspace-relative paths."""
    return [f"memory/{entry.name}" for entry in os.scandir(root / "memory")
            if entry.name.endswith(".md") and entry.is_file()]


def load(root: Path, db_path: Path) -> int:
    """Build a fresh FTS5 table of every Retain bullet in the daily logs; returns how many."""
    rows: list[tuple[str, str, int]] = []
    for rel in daily_files(root):
        with open(root / rel, encoding="utf-8") as handle:
            text = handle.read()
        rows.extend((body, rel, line) for body, line in retain_lines(text))
    db = sqlite3.connect(db_path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("BEGIN")
        db.execute(SCHEMA)
        db.executemany(INSERT, rows)
        db.execute("COMMIT")
    finally:
        db.close()
    return len(rows)


def remove_db(db_path: Path) -> None:
    """Delete a floor database and its WAL side files, if present."""
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{db_path}{suffix}")


def _walk(directory: str, rel: str, out: Stamps) -> None:
    try:
        entries = os.scandir(directory)
    except FileNotFoundError:
        return
    with entries:
        for entry in entries:
            if entry.name.startswith("."):
                continue
            if entry.is_dir(follow_symlinks=False):
                _walk(entry.path, f"{rel}/{entry.name}", out)
            elif entry.name.endswith(".md") and entry.is_file(follow_symlinks=False):
                st = entry.stat(follow_symlinks=False)
                out[f"{rel}/{entry.name}"] = (st.st_size, st.st_mtime_ns)


def stamps(root: Path) -> Stamps:
    """(size, mtime_ns) of every Markdown file memfold reads."""
    out: Stamps = {}
    try:
        st = os.stat(root / "memory.md", follow_symlinks=False)
        out["memory.md"] = (st.st_size, st.st_mtime_ns)
    except FileNotFoundError:
        pass
    for top in ("memory", "bank"):
        _walk(str(root / top), top, out)
    return out


def stat_scan(root: Path, known: Stamps) -> int:
    """The floor's no-op sync: stat every file and count those that differ from `known`."""
    now = stamps(root)
    changed = sum(1 for path, stamp in now.items() if known.get(path) != stamp)
    return changed + sum(1 for path in known if path not in now)
