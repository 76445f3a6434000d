"""`memfold bench ltr-features`: the training rows of recall's learned order
(`memfold.recall.learned`), one JSON line per question, from personal years replayed as
`memfold bench personal` replays them (`timeline.replay`: each fact retained on its date, so
the judge runs as in real use; each question asked at its `now`).

Each question is asked once per mode through `Memory.recall` (k as the personal bench asks)
inside `learned.recording()`, which keeps recall's own order and records its `learned.TOP`
best with the features recall computed for them (the factors of `Scored`, the question's
flags).  A line: the file, the question, its category and gold keys, the mode, the keys of
the recorded candidates in recall's order (null for a fact no row of the file made), their
features, the question's flags, and the keys recall returned (a check: the recorded order's
first k are the hits).  tools/train_ltr.py trains and scores on these lines.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import click

from memfold.recall import learned

from .personal_bench import Question, load
from .timeline import K, by_time, check_modes, mode_option, modes_for, replay

Json = dict[str, Any]


def lines_of(path: Path, modes: Sequence[str], k: int = K) -> Iterator[Json]:
    """The training lines of one personal year (the module's doc)."""
    facts, questions = load(path)
    ordered = by_time(facts)
    with tempfile.TemporaryDirectory(prefix="memfold-ltr-") as tmp, \
            replay(Path(tmp) / "ws") as rep:
        for q in sorted(questions, key=lambda q: q.now):
            rep.write_until(ordered, q.now)
            for mode in modes:
                with learned.recording() as records:
                    asked = rep.ask(q.text, q.now, [mode], k=k)
                yield _line(path, q, mode, records[-1] if records else None,
                            [rep.ids.get(i) for i in (records[-1].ids if records else ())],
                            rep.keys(asked[0].result.hits))


def _line(path: Path, q: Question, mode: str, record: learned.Record | None,
          keys: list[str | None], hits: list[str | None]) -> Json:
    return {"file": path.name, "q": q.text, "category": q.category, "gold": list(q.gold),
            "mode": mode, "keys": keys,
            "rows": [{n: round(v, 5) for n, v in row.items() if v}
                     for row in (record.rows if record else ())],
            "shape": {n: v for n, v in (record.shape if record else {}).items() if v},
            "hits": hits}


@click.command("ltr-features")
@click.argument("paths", metavar="FILE.json...", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@mode_option
@click.option("--k", "k", default=K, show_default=True, type=click.IntRange(min=1),
              help="Results asked of recall per question (as `bench personal` asks).")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The JSON-lines file to write (one line per question and mode).")
def ltr_features_command(paths: tuple[Path, ...], mode: str, k: int, out: Path) -> None:
    """Training rows for recall's learned order, from personal years (FILE.json as for
    `memfold bench personal`): recall's best candidates per question, with its features.

    \b
    Example:
      memfold bench ltr-features benchmarks/data/personal-tune14.json --out /tmp/t14.jsonl
    """
    modes = modes_for(mode)
    check_modes(modes)
    with out.open("w", encoding="utf-8") as handle:
        for path in paths:
            count = 0
            for line in lines_of(path, modes, k):
                handle.write(json.dumps(line) + "\n")
                count += 1
            click.echo(f"{path.name}: {count} lines", err=True)
