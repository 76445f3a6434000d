"""The import contracts in pyproject.toml can fail: a copy of the source with one deliberate
violation of each (an import up a layer, a cycle between two siblings, sqlite3 outside the
index, the benchmarks from the product) breaks all four, and the tree as it is keeps them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT = Path(sys.executable).with_name("lint-imports")

VIOLATIONS = {  # module -> an import it must not make
    "values/__init__.py": "import memfold.cli.main",  # the bottom layer importing the adapters
    "names.py": "import memfold.language",  # with the next line: a cycle of two siblings
    "language.py": "import memfold.names",
    "status.py": "import sqlite3",  # SQL outside memfold.index
    "retain.py": "import memfold_bench",  # the product importing the benchmarks
}


def lint(*sources: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, sources))}
    return subprocess.run([str(LINT), "--no-cache", "--no-logo", str(ROOT / "pyproject.toml")],
                          cwd=sources[0].parent, env=env, capture_output=True, text=True,
                          timeout=300)


def test_each_contract_fails_on_a_deliberate_violation(tmp_path: Path) -> None:
    source = tmp_path / "src"
    for package in (ROOT / "src" / "memfold", ROOT / "bench" / "src" / "memfold_bench"):
        shutil.copytree(package, source / package.name,
                        ignore=shutil.ignore_patterns("__pycache__", "data", "static",
                                                      "templates", "migrations"))
    for module, line in VIOLATIONS.items():
        path = source / "memfold" / module
        path.write_text(path.read_text(encoding="utf-8") + f"\n{line}  # noqa\n",
                        encoding="utf-8")
    result = lint(source)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Contracts: 0 kept, 4 broken." in result.stdout, result.stdout
    assert "memfold.values -> memfold.cli.main" in result.stdout
    assert "memfold.status -> sqlite3" in result.stdout
    assert "memfold.retain -> memfold_bench" in result.stdout


def test_the_tree_keeps_every_contract() -> None:
    result = lint(ROOT / "src", ROOT / "bench" / "src")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "4 kept, 0 broken" in result.stdout
