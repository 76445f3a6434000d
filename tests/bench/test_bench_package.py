"""The benchmarks live beside the product, not in it: they are a distribution of their own
(bench/), `memfold` never imports `memfold_bench` unless `memfold bench` runs, and
`memfold.cli.agent` does not import `memfold.cli.main` back.

Each check runs in a fresh interpreter, so what it finds in sys.modules is what that one
import or command loaded, not what earlier tests left behind.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

from conftest import ROOT

# Runs the `memfold` command with the given arguments, then reports on stderr, as the last line,
# which benchmark modules the process holds.
COMMAND = """
import json, sys
from memfold.cli.main import main
sys.argv = ["memfold", *sys.argv[1:]]
try:
    main()
except SystemExit as exc:
    status = exc.code
bench = sorted(m for m in sys.modules if m.startswith(("memfold_bench", "memfold.bench")))
print(json.dumps({"status": status, "bench": bench}), file=sys.stderr)
"""

# Makes `memfold_bench` fail to import as a package that is not installed does.
ABSENT = """
import sys
class Absent:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == "memfold_bench":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, Absent())
"""


def python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=120, check=False)


def memfold(*args: str) -> tuple[subprocess.CompletedProcess[str], dict[str, object]]:
    done = python(COMMAND, *args)
    report: dict[str, object] = json.loads(done.stderr.strip().splitlines()[-1])
    return done, report


def test_no_module_of_the_memfold_package_imports_the_benchmarks() -> None:
    done = python("""
import importlib, json, pkgutil, sys
import memfold
names = [m.name for m in pkgutil.walk_packages(memfold.__path__, "memfold.")]
for name in names:
    importlib.import_module(name)
bench = sorted(m for m in sys.modules if m.startswith(("memfold_bench", "memfold.bench")))
print(json.dumps({"modules": len(names), "bench": bench}))
""")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["modules"] > 30  # the walk saw the product package
    assert found["bench"] == []


def test_retain_recall_and_help_run_without_the_benchmarks(workspace: Path) -> None:
    done, report = memfold("--workspace", str(workspace), "retain", "W @Peter: Lives in Vienna.")
    assert report == {"status": 0, "bench": []}, done.stderr
    done, report = memfold("--workspace", str(workspace), "recall", "Peter", "--json")
    assert report == {"status": 0, "bench": []}, done.stderr
    assert "Lives in Vienna." in done.stdout
    done, report = memfold("--help")
    assert report == {"status": 0, "bench": []}, done.stderr
    assert "\n  bench " in done.stdout  # listed, from its docstring, without being loaded


def test_memfold_bench_loads_the_benchmarks_package() -> None:
    done, report = memfold("bench", "--help")
    assert report["status"] == 0, done.stderr
    for command in ("index", "recall", "locomo", "scale", "lab", "soak", "embed", "judge",
                    "personal", "truth", "year"):
        assert f"\n  {command} " in done.stdout
    assert "memfold_bench.commands" in report["bench"]  # type: ignore[operator]


def test_memfold_bench_without_its_package_says_how_to_install_it(tmp_path: Path) -> None:
    out = str(tmp_path / "index.json")  # where a run that wrongly went ahead writes
    done = python(ABSENT + COMMAND, "bench", "index", "--files", "5", "--out", out)
    lines = done.stderr.strip().splitlines()
    assert lines[:-1] == ["memfold: error: memfold bench needs the benchmarks (memfold-bench, "
                          "package memfold_bench), not installed here: pip install -e ./bench in "
                          "a checkout of memfold"]
    assert json.loads(lines[-1])["status"] == 1
    assert done.stdout == ""


def test_the_agent_commands_do_not_import_the_cli_module_back() -> None:
    done = python("import sys, memfold.cli.agent; print('memfold.cli.main' in sys.modules)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def wheel_packages(project: Path) -> set[str]:
    """The top-level packages setuptools puts in `project`'s wheel, by its pyproject's find."""
    from setuptools import find_packages

    config = tomllib.loads((project / "pyproject.toml").read_text())
    find = config["tool"]["setuptools"]["packages"]["find"]
    found = find_packages(str(project / find["where"][0]), include=find.get("include", ("*",)))
    return {name.partition(".")[0] for name in found}


def test_memfold_wheel_holds_memfold_only_and_the_benchmarks_are_their_own() -> None:
    assert wheel_packages(ROOT) == {"memfold"}
    assert wheel_packages(ROOT / "bench") == {"memfold_bench"}
    bench = tomllib.loads((ROOT / "bench/pyproject.toml").read_text())["project"]
    assert bench["name"] == "memfold-bench"
    assert "memfold" in bench["dependencies"]
