"""The storage seam: only `memfold.index` talks to the database, and what goes wrong there
reaches callers as memfold errors.

- no module of `src/memfold` outside `index/` imports sqlite3 or hands SQL to an `execute`
  (`server/`, the memory server's PostgreSQL store, is the other place SQL lives), nor
  writes a full-text query (a search is asked for in `Terms`, which the backend renders);
- a driver error met by a backend read arrives as IndexError_ from the library and as one
  line with exit status 1 from the CLI (not as an "internal error", the message for bugs).
"""

from __future__ import annotations

import ast
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import memfold
from memfold.errors import IndexDamaged, IndexError_, MemfoldError
from memfold.index.sqlite.backend import SqliteIndex
from memfold.memory import Memory

PACKAGE = Path(memfold.__file__).parent
SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|PRAGMA|VACUUM|BEGIN)\b")
EXECUTE = {"execute", "executemany", "executescript"}


def _outside_index() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py")
                  if p.relative_to(PACKAGE).parts[0] not in ("index", "server"))


def _literal_text(node: ast.expr) -> str:
    """The constant text of a string literal or f-string (placeholders left out)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(_literal_text(v) for v in node.values)
    if isinstance(node, ast.BinOp):
        return _literal_text(node.left) + _literal_text(node.right)
    return ""


def storage_violations(path: Path) -> list[str]:
    """Imports of sqlite3, and SQL handed to an execute call, in one module."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        if any(n == "sqlite3" or n.startswith("sqlite3.") for n in names):
            found.append(f"{path.name}:{node.lineno} imports sqlite3")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in EXECUTE and node.args
                and SQL.search(_literal_text(node.args[0]))):
            found.append(f"{path.name}:{node.lineno} runs SQL")
    return found


FTS_OPERATORS = {" OR ", " AND ", " NOT ", " NEAR "}


def query_syntax(path: Path) -> list[str]:
    """Full-text query syntax written in one module: words joined by an FTS5 operator, or
    quoted for FTS5 (a function named `quote_fts`)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if (isinstance(func, ast.Attribute) and func.attr == "join"
                and isinstance(func.value, ast.Constant) and func.value.value in FTS_OPERATORS):
            found.append(f"{path.name}:{node.lineno} joins words with {func.value.value!r}")
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name == "quote_fts":
            found.append(f"{path.name}:{node.lineno} quotes for FTS5")
    return found


def test_only_the_index_package_writes_full_text_queries() -> None:
    modules = _outside_index()
    assert [v for p in modules for v in query_syntax(p)] == []


def test_the_query_walk_finds_what_it_forbids(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('def f(words):\n    a = " OR ".join(quote_fts(w) for w in words)\n'
                      '    return ", ".join(words), names.quote_fts(a)\n', encoding="utf-8")
    assert sorted(query_syntax(sample)) == ["sample.py:2 joins words with ' OR '",
                                            "sample.py:2 quotes for FTS5",
                                            "sample.py:3 quotes for FTS5"]


def test_only_the_index_package_talks_to_the_database() -> None:
    modules = _outside_index()
    assert len(modules) > 30  # the walk sees the package (embed/, workspace/, the verbs)
    assert [v for p in modules for v in storage_violations(p)] == []


def test_the_walk_finds_what_it_forbids(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('import sqlite3\nfrom sqlite3 import Connection\n\n'
                      'def f(db, t):\n    db.execute(f"SELECT rowid FROM {t} WHERE x = ?")\n'
                      '    db.execute("not sql at all")\n', encoding="utf-8")
    assert storage_violations(sample) == ["sample.py:1 imports sqlite3",
                                          "sample.py:2 imports sqlite3",
                                          "sample.py:5 runs SQL"]


class _DiskFailsOnCounts:
    """A connection whose counting of files fails as a failing disk would make it."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql.startswith("SELECT COUNT(*) FROM files"):
            raise sqlite3.OperationalError("disk I/O error")
        return self._db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


@pytest.fixture
def failing_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    real = SqliteIndex._connect

    def connect(self: SqliteIndex) -> Any:
        return _DiskFailsOnCounts(real(self))

    monkeypatch.setattr(SqliteIndex, "_connect", connect)


@pytest.mark.usefixtures("failing_disk")
def test_a_driver_error_reaches_the_library_as_a_memfold_error(workspace: Path) -> None:
    with Memory.open(workspace) as memory, pytest.raises(IndexError_) as caught:
        memory.status()
    assert not isinstance(caught.value, IndexDamaged)  # an I/O error is not damage
    assert "disk I/O error" in str(caught.value)
    assert isinstance(caught.value.__cause__, sqlite3.OperationalError)  # kept for debugging


@pytest.mark.usefixtures("failing_disk")
def test_a_driver_error_reaches_the_cli_as_one_line_and_status_1(run: Any) -> None:
    result = run("status")
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("memfold: error: ") and "disk I/O error" in lines[0]
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr


def test_damage_met_by_a_read_is_index_damaged(tmp_path: Path) -> None:
    """What the backend reads garbled is IndexDamaged (a MemfoldError), whatever query
    met it — the class `Memory` repairs on."""
    index = SqliteIndex(tmp_path / "index.sqlite")
    try:
        real = index.db
        index.db = _Garbled(real)  # type: ignore[assignment]
        with pytest.raises(IndexDamaged) as caught:
            index.life(["x"])
        assert isinstance(caught.value, MemfoldError)
        assert "malformed" in str(caught.value.__cause__)
    finally:
        index.db = real
        index.close()


class _Garbled:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        raise sqlite3.DatabaseError("database disk image is malformed")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)
