"""`memfold bench truth`: does recall answer with what is true now, and never serve a fact
that was replaced?

The input is JSONL, one timeline a line (../shared/bench/README.md, "truthqa-dev.jsonl"):
`{id, lang, kind, note, facts: [{date, bullet}], questions: [{now, q, current, stale}]}`.
The file is read and checked whole first (a bad line stops the command with one line naming
file and line, exit 2).

Each timeline is replayed in a fresh workspace through the public API (`timeline`): facts
retained on their dates in date order, each question asked at its `now`, after exactly the
facts dated by then (a question asked before a later fact's date is asked before that fact
exists).  Recall asks for the top 10.

A question is *right* (current@1) when the top result's content contains one of its `current`
substrings (case-insensitive); current@5 when one of the top five does.  It *serves a stale
truth* when, within the top five, a result shown as holding (status neither superseded,
merged nor expired) contains a `stale` substring and ranks above the first current result —
which covers the current fact missing from the top five while such a result is there.
Stale served is a share of all questions.  Figures by kind (change, non-change, mixed), by
language (en, vi) and over all; `--verbose` lists the misses: the question, the top result
and its `why`.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click

from memfold.errors import BadInput
from memfold.values import Hit

from .index_bench import environment, output_options, save_result
from .judge_bench import jsonl_rows
from .locomo import file_sha256
from .timeline import (
    K,
    Written,
    blind_option,
    by_time,
    check_modes,
    judged_counts,
    latency_line,
    mode_option,
    modes_for,
    ms_figures,
    pct,
    read_bullet,
    read_day,
    read_moment,
    read_strings,
    replay,
    share,
)

Json = dict[str, Any]
SHOWN = 5  # the results a reader takes in: stale served is judged within them
NOT_HOLDING = frozenset({"superseded", "merged", "expired"})


@dataclass(frozen=True)
class Question:
    text: str
    now: datetime
    current: tuple[str, ...]
    stale: tuple[str, ...]


@dataclass(frozen=True)
class Timeline:
    id: str
    lang: str
    kind: str
    note: str
    facts: tuple[Written, ...]
    questions: tuple[Question, ...]


# -- reading -------------------------------------------------------------------------------


def _text(row: Json, key: str, where: str) -> str:
    value = row.get(key)
    if not isinstance(value, str) or not value.strip():
        raise BadInput(f"{where}: {key!r} must be a non-empty string")
    return value


def read_question(row: object, where: str) -> Question:
    if not isinstance(row, dict):
        raise BadInput(f"{where}: a question must be an object")
    current = read_strings(row.get("current"), where, "current")
    if not current or not all(s.strip() for s in current):
        raise BadInput(f"{where}: 'current' must name at least one substring")
    return Question(_text(row, "q", where), read_moment(row.get("now"), where), current,
                    read_strings(row.get("stale", []), where, "stale"))


def read_timeline(row: object, where: str) -> Timeline:
    if not isinstance(row, dict):
        raise BadInput(f"{where}: expected a JSON object")
    ident = _text(row, "id", where)
    facts, questions = row.get("facts"), row.get("questions")
    if not isinstance(facts, list) or not isinstance(questions, list) or not questions:
        raise BadInput(f"{where}: 'facts' and 'questions' must be lists (questions not empty)")
    written = []
    for n, fact in enumerate(facts):
        at = f"{where}: facts[{n}]"
        if not isinstance(fact, dict):
            raise BadInput(f"{at}: a fact must be an object")
        written.append(Written(f"{ident}/{n}", read_day(fact.get("date"), at),
                               read_bullet(fact.get("bullet"), at)))
    return Timeline(ident, str(row.get("lang") or "en"), str(row.get("kind") or "-"),
                    str(row.get("note") or ""), tuple(written),
                    tuple(read_question(q, f"{where}: questions[{n}]")
                          for n, q in enumerate(questions)))


def load(path: Path) -> list[Timeline]:
    timelines: list[Timeline] = []
    seen: set[str] = set()
    for number, row in jsonl_rows(path):
        timeline = read_timeline(row, f"{path}:{number}")
        if timeline.id in seen:
            raise BadInput(f"{path}:{number}: id {timeline.id!r} is used twice")
        seen.add(timeline.id)
        timelines.append(timeline)
    if not timelines:
        raise BadInput(f"{path} holds no timelines: give one JSON object per line")
    return timelines


# -- scoring one answer --------------------------------------------------------------------


def _has(hit: Hit, needles: Sequence[str]) -> bool:
    content = hit.fact.content.casefold()
    return any(n.casefold() in content for n in needles)


def first_current(hits: Sequence[Hit], current: Sequence[str]) -> int | None:
    return next((n for n, h in enumerate(hits) if _has(h, current)), None)


def stale_served(hits: Sequence[Hit], q: Question) -> bool:
    """A holding result with a stale substring in the top five, above the first current."""
    if not q.stale:
        return False
    right = first_current(hits, q.current)
    shown = hits[:SHOWN] if right is None else hits[:min(right, SHOWN)]
    return any(h.status not in NOT_HOLDING and _has(h, q.stale) for h in shown)


@dataclass(frozen=True)
class Scored:
    timeline: Timeline
    question: Question
    mode: str
    at1: bool
    at5: bool
    stale: bool
    top: Json | None
    seconds: float


def score(timeline: Timeline, q: Question, mode: str, hits: Sequence[Hit],
          seconds: float) -> Scored:
    right = first_current(hits, q.current)
    top = ({"content": hits[0].fact.content, "why": hits[0].why, "status": hits[0].status}
           if hits else None)
    return Scored(timeline, q, mode, right == 0, right is not None and right < SHOWN,
                  stale_served(hits, q), top, seconds)


# -- running -------------------------------------------------------------------------------


def run_timeline(timeline: Timeline, modes: Sequence[str], root: Path) -> tuple[list[Scored],
                                                                                 Json]:
    scored = []
    ordered = by_time(timeline.facts)
    with replay(root) as rep:
        for q in sorted(timeline.questions, key=lambda q: q.now):
            rep.write_until(ordered, q.now)
            for asked in rep.ask(q.text, q.now, modes, k=K):
                scored.append(score(timeline, q, asked.mode, asked.result.hits,
                                    asked.seconds))
        return scored, judged_counts(rep.retained)


def figures(scored: Sequence[Scored]) -> Json:
    n = len(scored)
    return {"questions": n, "current@1": share(sum(s.at1 for s in scored), n),
            "current@5": share(sum(s.at5 for s in scored), n),
            "stale_served": share(sum(s.stale for s in scored), n),
            "stale_served_count": sum(s.stale for s in scored)}


def groups(scored: Sequence[Scored], modes: Sequence[str]) -> Json:
    """Per mode: figures over all, by kind and by language."""
    out: Json = {}
    for mode in modes:
        mine = [s for s in scored if s.mode == mode]
        out[mode] = {"overall": figures(mine),
                     "kind": {k: figures([s for s in mine if s.timeline.kind == k])
                              for k in sorted({s.timeline.kind for s in mine})},
                     "lang": {g: figures([s for s in mine if s.timeline.lang == g])
                              for g in sorted({s.timeline.lang for s in mine})}}
    return out


def misses(scored: Sequence[Scored]) -> list[Json]:
    return [{"id": s.timeline.id, "mode": s.mode, "q": s.question.text,
             "now": s.question.now.isoformat(), "current": list(s.question.current),
             "stale_served": s.stale, "top": s.top}
            for s in scored if not s.at1 or s.stale]


def run_benchmark(path: Path, modes: Sequence[str], *, blind: bool = False) -> Json:
    timelines = load(path)
    scored: list[Scored] = []
    judged = {"supersedes": 0, "conflicts": 0}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="memfold-truth-") as tmp:
        for n, timeline in enumerate(timelines):
            found, counts = run_timeline(timeline, modes, Path(tmp) / f"t{n}")
            scored += found
            judged = {key: judged[key] + counts[key] for key in judged}
    return {
        "benchmark": "truth",
        "checked_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "dataset": {"file": path.name, "sha256": file_sha256(path),
                    "timelines": len(timelines),
                    "questions": sum(len(t.questions) for t in timelines)},
        "parameters": {"k": K, "mode": modes[0] if len(modes) == 1 else list(modes),
                       "retain": "one retain per fact in date order, now = 00:00 UTC on its "
                                 "date, each timeline in a fresh workspace",
                       "right": "the top result's content holds a current substring "
                                "(case-insensitive)",
                       "stale_served": "in the top 5, a result not superseded, merged or "
                                       "expired holds a stale substring above the first "
                                       "current one; a share of all questions"},
        "environment": environment(),
        "judged": judged,
        "modes": groups(scored, modes),
        "latency": {m: ms_figures([s.seconds for s in scored if s.mode == m]) for m in modes},
        "seconds": time.perf_counter() - started,
        "misses": None if blind else misses(scored),
    }


# -- printing ------------------------------------------------------------------------------


def table(result: Json) -> list[str]:
    lines = [f"{'':<26}{'n':>5}{'current@1':>12}{'current@5':>12}{'stale served':>15}"]
    for mode, g in result["modes"].items():
        rows = [("overall", g["overall"]), *((f"kind {k}", v) for k, v in g["kind"].items()),
                *((f"lang {k}", v) for k, v in g["lang"].items())]
        for name, f in rows:
            label, stale = f"{mode} {name}", f"{pct(f['stale_served'])} ({f['stale_served_count']})"
            lines.append(f"{label:<26}{f['questions']:>5}{pct(f['current@1']):>12}"
                         f"{pct(f['current@5']):>12}{stale:>15}")
    return lines


def miss_lines(result: Json) -> list[str]:
    lines = [f"misses ({len(result['misses'])}):"]
    for m in result["misses"]:
        top = m["top"]
        said = f"{top['content']!r} ({top['why']})" if top else "nothing"
        flag = "STALE " if m["stale_served"] else ""
        lines.append(f"  {m['id']} [{m['mode']}] {flag}{m['q']!r} -> {said}; wanted "
                     f"{' | '.join(m['current'])}")
    return lines


@click.command("truth")
@click.argument("path", metavar="FILE.jsonl",
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@mode_option
@click.option("--verbose", "-v", is_flag=True,
              help="List the misses: the question, the top result and why it came.")
@blind_option
@output_options("benchmarks/results/truth-dev.json")
def truth_command(path: Path, mode: str, verbose: bool, blind: bool, out: Path,
                  as_json: bool) -> None:
    """current@1, current@5 and stale served on short timelines of facts.

    FILE.jsonl holds one timeline a line: {id, lang, kind, facts: [{date, bullet}],
    questions: [{now, q, current: [...], stale: [...]}]}.  Each timeline is retained fact
    by fact in a fresh temporary workspace; each question is asked at its `now`.

    \b
    Example:
      memfold bench truth ../shared/bench/truthqa-dev.jsonl --verbose
    """
    modes = modes_for(mode)
    check_modes(modes)
    if verbose and blind:
        raise click.UsageError("--verbose lists the questions; --blind keeps them unseen")
    result = run_benchmark(path, modes, blind=blind)
    if save_result(result, out, as_json=as_json):
        return
    d, j = result["dataset"], result["judged"]
    click.echo(f"memfold bench truth: {d['file']}, {d['timelines']} timelines, "
               f"{d['questions']} questions; mode {mode}; judge made {j['supersedes']} "
               f"supersedes, {j['conflicts']} conflicts")
    lines = table(result)
    if verbose:
        lines += miss_lines(result)
    lines.append(latency_line(result))
    for line in lines:
        click.echo(line)
    click.echo(f"wrote {out}", err=True)
