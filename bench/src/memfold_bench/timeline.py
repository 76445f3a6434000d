"""What the personal and truth benchmarks share: facts retained on their dates and questions
asked as their time passes, in one fresh workspace, through the public API only.

A fact carries a date, a question a moment (`now`).  `Replay` writes the facts in date order
with `Memory.retain(bullet, date=day, now=<00:00 UTC on that day>)` — one call per fact, as an
agent retains what it learns, so the judge weighs each new fact against what is already there —
and, as each question's moment passes, asks it with `Memory.recall(q, now=...)`.  A question
therefore sees exactly the facts dated on or before its day: one asked before a later fact's
date is asked before that fact exists.  A moment without a zone is read as UTC.

Modes: each question is asked once per recall mode given (lexical, semantic, hybrid) at the
same point of the timeline, so the modes see the same memory; the semantic modes need the
embed extra and embed the new facts as they are asked (`Memory.recall` does that).  Each
recall is timed in-process (`perf_counter` around the call); the first question of each mode
in a workspace is asked once untimed before, so opening the model is not counted.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from datetime import time as day_time
from pathlib import Path
from typing import Any

import click

from memfold.errors import BadInput
from memfold.memory import Memory
from memfold.retain import validate_bullet
from memfold.values import Hit, RecallResult, RetainResult

Json = dict[str, Any]
MODES = ("lexical", "semantic", "hybrid")
K = 10


def modes_for(mode: str) -> tuple[str, ...]:
    """`--mode all` is the three modes side by side."""
    return MODES if mode == "all" else (mode,)


def check_modes(modes: Sequence[str]) -> None:
    """Fail early, before any work, when a semantic mode cannot run here."""
    if set(modes) - {"lexical"}:
        from memfold.errors import EmbedUnavailable
        from memfold.recall.modes import open_semantic

        try:
            open_semantic(Path(tempfile.gettempdir()))
        except EmbedUnavailable as exc:
            raise click.ClickException(str(exc)) from None


def mode_option(command: Callable[..., None]) -> Callable[..., None]:
    return click.option(
        "--mode", "mode", default="lexical", show_default=True,
        type=click.Choice([*MODES, "all"]),
        help="memfold's recall mode; `all` runs lexical, semantic and hybrid side by side "
             "(semantic modes need: pip install 'memfold[embed]').")(command)


def blind_option(command: Callable[..., None]) -> Callable[..., None]:
    return click.option(
        "--blind", is_flag=True,
        help="Score only: leave every question, answer and miss out of the output and the "
             "JSON (for held-out files nobody may read).")(command)


# -- reading -------------------------------------------------------------------------------


def read_day(value: object, where: str) -> date:
    if not isinstance(value, str):
        raise BadInput(f"{where}: date must be a string YYYY-MM-DD, not {value!r}")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise BadInput(f"{where}: date {value!r} is not YYYY-MM-DD") from None


def read_moment(value: object, where: str) -> datetime:
    """An ISO moment; without a zone it is UTC."""
    if not isinstance(value, str):
        raise BadInput(f"{where}: now must be an ISO time string, not {value!r}")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise BadInput(f"{where}: now {value!r} is not an ISO time "
                       "(YYYY-MM-DDTHH:MM:SS)") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def read_bullet(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise BadInput(f"{where}: bullet must be a string, not {value!r}")
    try:
        validate_bullet(value, "bullet")
    except BadInput as exc:
        raise BadInput(f"{where}: {exc}") from None
    return value


def read_strings(value: object, where: str, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadInput(f"{where}: {key!r} must be a list of strings")
    return tuple(value)


def start_of(day: date) -> datetime:
    """When a fact dated `day` is written: 00:00 UTC that day, before any question of it."""
    return datetime.combine(day, day_time(0), tzinfo=UTC)


def retain_on(memory: Memory, bullet: str, day: date) -> RetainResult:
    """One fact retained as the benchmarks write it: dated `day`, at 00:00 UTC that day."""
    return memory.retain(bullet, date=day, now=start_of(day), source="bench",
                         allow_secret=True)


# -- replaying a timeline ------------------------------------------------------------------


@dataclass(frozen=True)
class Written:
    """A fact to retain: its label in the data file, its day and its bullet."""

    key: str
    day: date
    bullet: str


@dataclass(frozen=True)
class Asked:
    """One question's answer in one mode: the hits and how long recall took."""

    mode: str
    result: RecallResult
    seconds: float


@dataclass
class Replay:
    """One fresh workspace that facts are retained into and questions are asked of."""

    memory: Memory
    ids: dict[str, str] = field(default_factory=dict)  # fact id -> key
    retained: list[RetainResult] = field(default_factory=list)
    written: int = 0
    warm: set[str] = field(default_factory=set)  # modes asked once already

    def write_until(self, facts: Sequence[Written], moment: datetime | None) -> None:
        """Retain the facts (in date order) written by `moment` (all when None) that are
        not written yet."""
        while self.written < len(facts):
            fact = facts[self.written]
            if moment is not None and start_of(fact.day) > moment:
                return
            result = retain_on(self.memory, fact.bullet, fact.day)
            self.ids.update((f.id, fact.key) for f in result.facts)
            self.retained.append(result)
            self.written += 1

    def ask(self, question: str, moment: datetime, modes: Sequence[str], *, k: int = K,
            include_all: bool = False) -> list[Asked]:
        answers = []
        for mode in modes:
            if mode not in self.warm:  # the first semantic recall loads the model: untimed
                self.memory.recall(question, k=k, now=moment, mode=mode,
                                   include_all=include_all)
                self.warm.add(mode)
            started = time.perf_counter()
            result = self.memory.recall(question, k=k, now=moment, mode=mode,
                                        include_all=include_all)
            answers.append(Asked(mode, result, time.perf_counter() - started))
        return answers

    def keys(self, hits: Sequence[Hit]) -> list[str | None]:
        """The data file's key of each hit (None for what no fact of the file made)."""
        return [self.ids.get(h.fact.id) for h in hits]


@contextmanager
def replay(root: Path) -> Iterator[Replay]:
    """A fresh workspace at `root`, opened for a replay (the default judge, no watcher)."""
    Memory.init(root)
    with Memory.open(root, watch=False) as memory:
        yield Replay(memory)


def by_time(facts: Sequence[Written]) -> list[Written]:
    """Facts in date order; facts of one day keep their order in the file."""
    return sorted(facts, key=lambda f: f.day)


# -- figures -------------------------------------------------------------------------------


def ms_figures(seconds: Sequence[float]) -> Json:
    """p50 and p90 (ms) of a list of timings."""
    if not seconds:
        return {"p50_ms": None, "p90_ms": None, "calls": 0}
    ordered = sorted(seconds)
    return {"p50_ms": 1000 * statistics.median(ordered),
            "p90_ms": 1000 * ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))],
            "calls": len(ordered)}


def share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def judged_counts(results: Sequence[RetainResult]) -> Json:
    """How many automatic supersedes and conflicts the retains of a replay reported."""
    return {"supersedes": sum(len(r.superseded) for r in results),
            "conflicts": sum(len(r.conflicts) for r in results)}


def latency_line(result: Json) -> str:
    """The p50 of each system's recall calls (`result["latency"]`, from `ms_figures`)."""
    return "recall p50 in-process: " + ", ".join(
        f"{s} {v['p50_ms']:.1f} ms" for s, v in result["latency"].items())
