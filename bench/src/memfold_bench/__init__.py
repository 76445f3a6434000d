"""memfold's benchmarks and the seeded corpus generator: commands that print figures, not tests.

A distribution of its own (memfold-bench, bench/ in memfold's checkout), not inside memfold's
wheel: it builds on memfold, and memfold imports it only when `memfold bench` is invoked (the
`bench` group in `memfold.cli.main` loads `memfold_bench.commands`), so the product's import
graph never includes it.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path


def import_roots() -> list[str]:
    """The directories `memfold` and `memfold_bench` are imported from (one when they sit
    together), for a child process's PYTHONPATH: the children run this same code, installed or
    not.  memfold is found, not imported: the fuzz child must import it under instrumentation."""
    spec = importlib.util.find_spec("memfold")
    found = [Path(spec.origin)] if spec is not None and spec.origin else []
    roots = [str(p.resolve().parents[1]) for p in (*found, Path(__file__))]
    return list(dict.fromkeys(roots))
