"""`memfold bench fuzz`: a bounded coverage-guided run finds nothing in memfold's parsers, and
the same harness does find a planted bug (so a clean run means something)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from memfold.cli.main import cli
from memfold_bench.fuzz import TARGETS


def fuzz(tmp_path: Path, *args: str) -> tuple[int, dict[str, object], str]:
    out = tmp_path / "results" / "fuzz.json"
    result = CliRunner().invoke(cli, ["bench", "fuzz", *args, "--seed", "1", "--out", str(out)])
    return result.exit_code, json.loads(out.read_text()), result.output


def test_every_parser_survives_a_bounded_run(tmp_path: Path) -> None:
    status, report, output = fuzz(tmp_path, "--target", "all", "--runs", "1500")
    targets = report["targets"]
    assert isinstance(targets, dict) and sorted(targets) == sorted(TARGETS)
    for name, run in targets.items():
        assert run["executions"] > 0, name
        assert run["crashes"] == 0, (name, run["error"], run["reproduce"])
        assert run["coverage"] > 0 and run["features"] > 0, name
    assert status == 0, output
    assert report["crashes"] == 0 and report["bound"] == {"runs": 1500, "seconds": None}
    assert not any((tmp_path / "results" / "fuzz-crashes").iterdir())
    assert [line.split()[0] for line in output.splitlines()[:4]] == list(TARGETS)


def test_a_planted_bug_is_found_saved_and_replayable(tmp_path: Path) -> None:
    # the hidden selftest target breaks its contract on inputs starting b"fz!": reached only
    # by following coverage one byte at a time, never by the seeds
    status, report, output = fuzz(tmp_path, "--target", "selftest", "--runs", "2000000")
    assert status == 1
    run = report["targets"]["selftest"]  # type: ignore[index]
    assert run["crashes"] == 1 and report["crashes"] == 1
    assert "the planted bug" in run["error"]
    saved = Path(run["crash_inputs"][0])
    assert saved.parent == tmp_path / "results" / "fuzz-crashes"
    assert saved.read_bytes().startswith(b"fz!")
    assert f"reproduce:   {run['reproduce'][0]}" in output
    # the command the report prints, as a user would paste it into a shell
    replay = subprocess.run(run["reproduce"][0], shell=True, capture_output=True, text=True,
                            check=False)
    assert "the planted bug" in replay.stdout + replay.stderr


def test_bad_bounds_and_targets_are_usage_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    both = runner.invoke(cli, ["bench", "fuzz", "--runs", "5", "--seconds", "5"])
    assert both.exit_code == 2 and "not both" in both.output
    unknown = runner.invoke(cli, ["bench", "fuzz", "--target", "yaml", "--runs", "5"])
    assert unknown.exit_code == 2 and "is not a target" in unknown.output


def test_without_atheris_one_line_names_the_install(tmp_path: Path) -> None:
    # atheris made unimportable in a fresh interpreter, as on a machine without the extra
    code = ("import sys; sys.modules['atheris'] = None; from memfold.cli.main import main; "
            "sys.argv = ['memfold', 'bench', 'fuzz', '--runs', '5', '--out', "
            f"{str(tmp_path / 'fuzz.json')!r}]; main()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 1
    assert done.stderr.strip().count("\n") == 0 and "pip install atheris" in done.stderr
    assert done.stdout == "" and not (tmp_path / "fuzz.json").exists()
