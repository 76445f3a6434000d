"""`memfold bench fuzz`: a bounded, coverage-guided run (atheris, libFuzzer) of memfold's parsers.

Hypothesis tests check properties on inputs shaped like the grammar; this run mutates bytes
guided by which branches of memfold's code they reach, and checks each parser's contract on
every input (`memfold_bench.fuzz_targets` says what each target asserts).

atheris owns the process it fuzzes in (`atheris.Fuzz` never returns; a crash ends the
process), so each target runs in a child, `python -m memfold_bench.fuzz --target X
[libFuzzer flags] [corpus dir | input files]`, which imports memfold's modules under
atheris's import hook so that their bytecode reports coverage.  The parent seeds a corpus
directory from the built-in seeds (`memfold_bench.fuzz_seeds`), runs the child for --runs
executions or --seconds, and reads libFuzzer's figures from its output.  A crash leaves the
input under the results directory (beside --out, in fuzz-crashes/) with the child's log, and
the command prints how to replay it; the exit status is then 1.

This module imports nothing of memfold at its top: in the child, the parser under test must
first be imported under the hook (the RegEx hook of atheris 3.0 is left off: its pattern
proxy breaks `match(text, pos)`).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.util
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import click

from memfold_bench import import_roots

TARGETS = ("markdown", "query", "timeparse", "tool-args")
HIDDEN = ("selftest",)  # the planted bug, for the harness's own test
# the modules each target instruments (with what they import of memfold): the parser under
# test, not the rest of memfold the target merely calls (agent_tools for the tool schemas)
PARSERS = {"markdown": "memfold.workspace.format", "query": "memfold.recall.query",
           "timeparse": "memfold.times.parse", "tool-args": "memfold.agents.schema",
           "selftest": "memfold.errors"}
MAX_LEN = {"markdown": 8192, "query": 8192, "timeparse": 256, "tool-args": 4096, "selftest": 16}
INPUT_TIMEOUT_S = 30  # one input running this long is a finding (a regex gone exponential)
CRASH_EXIT, TIMEOUT_EXIT = 77, 70
INSTALL_HINT = "memfold bench fuzz needs atheris: pip install atheris (or the extra: pip " \
               "install -e './bench[fuzz]')"


@dataclass
class TargetRun:
    """What one target's run did, as libFuzzer reported it."""

    target: str
    executions: int = 0
    seconds: float = 0.0
    exec_per_s: float = 0.0
    coverage: int = 0  # libFuzzer's `cov`: edges (branches of instrumented code) reached
    features: int = 0  # libFuzzer's `ft`: finer features (edges with hit counts, compares)
    new_features: int = 0  # features found beyond those the seed corpus reached
    new_units: int = 0  # inputs added to the corpus for new coverage
    crashes: int = 0
    crash_inputs: list[str] = field(default_factory=list)
    reproduce: list[str] = field(default_factory=list)
    error: str | None = None  # the exception or broken contract, or why the run failed
    exit_status: int = 0

    def line(self) -> str:
        rate = f"{self.exec_per_s:,.0f}/s"
        return (f"{self.target:<10} {self.executions:>10,} runs {self.seconds:>7.1f} s "
                f"{rate:>9}  cov {self.coverage:,} ft {self.features:,} "
                f"(+{self.new_features:,} new)  crashes {self.crashes}")


# -- the child: one target under atheris ------------------------------------------------------


def child_main(argv: list[str]) -> None:
    """`python -m memfold_bench.fuzz --target X [libFuzzer args]`: fuzz X until the bound."""
    parser = argparse.ArgumentParser(prog="python -m memfold_bench.fuzz")
    parser.add_argument("--target", required=True, choices=(*TARGETS, *HIDDEN))
    options, rest = parser.parse_known_args(argv)
    try:
        import atheris  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError:
        sys.exit(INSTALL_HINT)
    loaded = sorted(m for m in sys.modules if m == "memfold" or m.startswith("memfold."))
    if loaded:  # imported before the hook, these would be fuzzed blind
        sys.exit(f"memfold modules imported before instrumentation: {', '.join(loaded)}")
    atheris.enabled_hooks.add("str")  # str.startswith/endswith report their comparisons
    with atheris.instrument_imports(include=["memfold"]):
        importlib.import_module(PARSERS[options.target])
    from memfold_bench.fuzz_targets import TARGETS as FUNCTIONS
    function = FUNCTIONS[options.target]
    if options.target in HIDDEN:  # harness code is not instrumented; the planted bug must be
        function = atheris.instrument_func(function)
    atheris.Setup([sys.argv[0], *rest], function)
    atheris.Fuzz()


# -- the parent: run the child, read its figures ----------------------------------------------

STAT = re.compile(r"^stat::(\w+):\s*(\d+)", re.MULTILINE)
PROGRESS = re.compile(r"^#(\d+)\s+(\w+)\s+cov: (\d+) ft: (\d+)", re.MULTILINE)
WRITTEN = re.compile(r"Test unit written to (\S+)")
UNCAUGHT = re.compile(r"=== Uncaught Python exception: ===\n(.*)")


def child_command(target: str) -> list[str]:
    return [sys.executable, "-m", "memfold_bench.fuzz", "--target", target]


def child_env() -> dict[str, str]:
    """The caller's environment, with this memfold and memfold_bench first on the path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*import_roots(), *filter(None, [env.get("PYTHONPATH")])])
    return env


def seed_corpus(target: str, directory: Path) -> None:
    """Write the built-in seeds into `directory` (named by content, so rewriting is a no-op)."""
    from .fuzz_seeds import seeds

    directory.mkdir(parents=True, exist_ok=True)
    for data in seeds(target):
        path = directory / f"seed-{hashlib.sha1(data).hexdigest()[:16]}"  # noqa: S324
        if not path.exists():
            path.write_bytes(data)


def bound_flags(*, runs: int | None, seconds: float | None) -> list[str]:
    if runs is not None:
        return [f"-runs={runs}"]
    return [f"-max_total_time={max(1, round(seconds or 0))}"]


def run_target(target: str, *, runs: int | None, seconds: float | None, seed: int,
               corpus: Path | None, crash_dir: Path) -> TargetRun:
    """Fuzz one target in a child process, within the bound; its figures and any crash."""
    from .fuzz_seeds import dictionary_text

    crash_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="memfold-fuzz-") as scratch:
        corpus_dir = corpus / target if corpus is not None else Path(scratch) / "corpus"
        seed_corpus(target, corpus_dir)
        dictionary = Path(scratch) / "tokens.dict"
        dictionary.write_text(dictionary_text(), encoding="utf-8")
        command = [*child_command(target), f"-seed={seed}", *bound_flags(runs=runs,
                   seconds=seconds), "-print_final_stats=1", f"-max_len={MAX_LEN[target]}",
                   f"-timeout={INPUT_TIMEOUT_S}", f"-error_exitcode={CRASH_EXIT}",
                   f"-timeout_exitcode={TIMEOUT_EXIT}", f"-dict={dictionary}",
                   f"-artifact_prefix={crash_dir}/{target}-", str(corpus_dir)]
        started = time.perf_counter()
        done = subprocess.run(command, env=child_env(), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, check=False)
        elapsed = time.perf_counter() - started
    output = done.stdout.decode("utf-8", "replace")
    return read_run(target, output, done.returncode, elapsed, crash_dir)


def read_run(target: str, output: str, status: int, elapsed: float, crash_dir: Path) -> TargetRun:
    """A TargetRun from the child's output (libFuzzer's progress lines and final stats)."""
    stats = {name: int(value) for name, value in STAT.findall(output)}
    progress = PROGRESS.findall(output)
    run = TargetRun(target=target, seconds=round(elapsed, 2), exit_status=status)
    run.executions = stats.get("number_of_executed_units", int(progress[-1][0]) if progress else 0)
    run.exec_per_s = round(run.executions / elapsed, 1) if elapsed > 0 else 0.0
    run.new_units = stats.get("new_units_added", 0)
    if progress:
        run.coverage, run.features = int(progress[-1][2]), int(progress[-1][3])
        inited = [p for p in progress if p[1] == "INITED"]
        run.new_features = run.features - int(inited[0][3]) if inited else 0
    run.crash_inputs = WRITTEN.findall(output)
    run.crashes = len(run.crash_inputs)
    if uncaught := UNCAUGHT.search(output):
        run.error = uncaught.group(1).strip()
    elif status == TIMEOUT_EXIT:
        run.error = f"an input ran longer than {INPUT_TIMEOUT_S} s"
    if run.crashes or status != 0:
        log = Path(f"{run.crash_inputs[0]}.log" if run.crash_inputs
                   else crash_dir / f"{target}-{int(time.time())}.log")
        log.write_text(output, encoding="utf-8")
        run.reproduce = [_reproducer(target, path) for path in run.crash_inputs]
        if not run.crashes:  # the child failed without an input to blame: a harness failure
            run.crashes = 1
            run.error = run.error or f"the fuzz child exited with status {status}; see {log}"
    return run


def _reproducer(target: str, path: str) -> str:
    command = shlex.join([*child_command(target), path])
    return f"PYTHONPATH={shlex.quote(os.pathsep.join(import_roots()))} {command}"


def fuzz_report(runs: list[TargetRun], *, bound: dict[str, Any], seed: int) -> dict[str, Any]:
    from importlib.metadata import version

    from .index_bench import environment

    return {
        "benchmark": "fuzz",
        "environment": {**environment(), "atheris": version("atheris")},
        "seed": seed,
        "bound": bound,
        "crashes": sum(r.crashes for r in runs),
        "executions": sum(r.executions for r in runs),
        "targets": {r.target: asdict(r) for r in runs},
    }


def _targets(value: str) -> list[str]:
    if value == "all":
        return list(TARGETS)
    if value in TARGETS or value in HIDDEN:
        return [value]
    raise click.BadParameter(f"{value!r} is not a target; use one of: "
                             f"{', '.join(TARGETS)}, all", param_hint="--target")


@click.command("fuzz")
@click.option("--target", "target_text", default="all", show_default=True,
              metavar="|".join((*TARGETS, "all")), help="The parser to fuzz.")
@click.option("--runs", type=click.IntRange(min=1), default=None,
              help="Executions per target (the bound; default: --seconds 30).")
@click.option("--seconds", type=click.FloatRange(min=1), default=None,
              help="Seconds per target (the bound, instead of --runs).")
@click.option("--seed", default=1, show_default=True, help="libFuzzer's random seed.")
@click.option("--corpus", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Keep each target's corpus in DIR/TARGET (seeded, grown across runs).")
@click.option("--json", "as_json", is_flag=True, help="Print the JSON instead of the table.")
@click.option("--out", default="benchmarks/results/fuzz.json", show_default=True,
              type=click.Path(dir_okay=False, path_type=Path),
              help="Where to write the JSON; crashing inputs go beside it, in fuzz-crashes/.")
def fuzz_command(target_text: str, runs: int | None, seconds: float | None, seed: int,
                 corpus: Path | None, as_json: bool, out: Path) -> None:
    """Fuzz memfold's parsers, coverage-guided (atheris), within a bound; check each contract.

    Targets: markdown (parse_document, parse_bullet and render_bullet, plan_append), query
    (plan_query, its FTS5 expression), timeparse (time specs and phrases, date ranges),
    tool-args (a model's tool arguments: JSON text through check_object).  Prints one line per
    target: executions, seconds, executions per second, coverage and crashes; a crashing
    input is saved with a command that replays it.  Exits 1 when any target crashed.

    \b
    Example:
      memfold bench fuzz --target all --seconds 120 --out benchmarks/results/fuzz.json
    """
    targets = _targets(target_text)
    if runs is not None and seconds is not None:
        raise click.UsageError("give --runs or --seconds, not both")
    if importlib.util.find_spec("atheris") is None:
        click.echo(f"error: {INSTALL_HINT}", err=True)
        raise SystemExit(1)
    seconds = 30.0 if runs is None and seconds is None else seconds
    crash_dir = out.parent / "fuzz-crashes"
    results = []
    for target in targets:
        run = run_target(target, runs=runs, seconds=seconds, seed=seed, corpus=corpus,
                         crash_dir=crash_dir)
        results.append(run)
        if not as_json:
            _show(run)
        for command in run.reproduce if as_json else ():  # stdout holds only the JSON
            click.echo(f"{target} crashed; reproduce: {command}", err=True)
    report = fuzz_report(results, bound={"runs": runs, "seconds": seconds}, seed=seed)
    from .index_bench import save_result

    if not save_result(report, out, as_json=as_json):
        click.echo(f"total: {report['executions']:,} executions, {report['crashes']} crashes; "
                   f"wrote {out}")
    if report["crashes"]:
        raise SystemExit(1)


def _show(run: TargetRun) -> None:
    click.echo(run.line())
    if run.error:
        click.echo(f"  {run.error}")
    for path, command in zip(run.crash_inputs, run.reproduce, strict=True):
        click.echo(f"  input saved: {path}")
        click.echo(f"  reproduce:   {command}")


if __name__ == "__main__":
    child_main(sys.argv[1:])
