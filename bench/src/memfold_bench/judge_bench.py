"""`memfold bench judge`: how well the supersede judge tells a replacement from a neighbour.

This module owns the harness.  The input is JSONL, one labelled pair per line:

    {"id": "d001", "old": "W @acme: ...", "new": "W @acme: ...", "old_date": "2024-01-17",
     "new_date": "2024-04-08", "supersedes": true, "category": "replacement", "why": "..."}

`old` and `new` are Retain bullets; `why` is optional.  The whole file is read and checked
before anything runs: a line that is not a JSON object, lacks a key, has a value of the wrong
type, holds a bullet that does not parse, gives a date that is not YYYY-MM-DD, dates the newer
fact before the older, or repeats an id stops the command with one line naming the file and
line (exit 2).

Each pair then gets a fresh workspace under one temporary directory, used only through the
public API as an agent would: `Memory.init`, `Memory.open(ws, judge=...)`, retain the older
fact on its date, then the newer on its date (`now` is noon UTC of each date), then read the
older fact back with `get(id, use=False)`.  The pair counts as judged "supersedes" when the
older fact's status is `superseded`; the reason shown for it is the supersede event's, from
the journal (`history`).

Scores: precision, recall and F1 over "supersedes" as the positive class (fractions in the
JSON; null when undefined), the four counts, and per category the pairs, how many are
labelled true, how many were judged true and how many were judged right.  A pair not
superseded whose older fact came back in the newer retain's `conflicts` is *offered* (left
active, reported to the agent); `superseded_or_offered` is the share of true pairs either
superseded or offered, and each category counts its offered pairs.  A pair that is no change
but was offered all the same costs the user a look for nothing: `offered_false` counts them
and `false_offers` is their share of the pairs labelled false.

Cost: the judge alone — `judge.weigh(new, [old])` on the two facts as retain parsed them,
`--repeat` calls per pair, each timed with the judge's cache of readings emptied first (so
both facts are read, as in a fresh process); the median per pair, then the median (and the
slowest) over pairs — and the wall time of the newer fact's retain (write, index, judge),
median over pairs.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import click

from memfold.errors import BadInput
from memfold.lifecycle.judge import Judge, RuleJudge
from memfold.memory import Memory
from memfold.retain import parse_day, validate_bullet
from memfold.values import Fact, RetainResult

from .index_bench import environment, output_options, save_result
from .locomo import file_sha256, percent

Json = dict[str, Any]
REPEAT = 100
SUPERSEDED = "superseded"
# key -> the type its value must have (bool is checked apart: it is also an int)
FIELDS: dict[str, type] = {"id": str, "old": str, "new": str, "old_date": str,
                           "new_date": str, "supersedes": bool, "category": str}


@dataclass(frozen=True)
class Pair:
    """One labelled pair of the input file."""

    id: str
    old: str
    new: str
    old_date: date
    new_date: date
    expected: bool  # the newer fact supersedes the older
    category: str
    why: str
    line: int


@dataclass(frozen=True)
class Outcome:
    """What the judge made of one pair, and what it cost."""

    pair: Pair
    got: bool  # the older fact ended up superseded
    offered: bool  # the newer retain's `conflicts` named the older fact (left active)
    reason: str | None  # the supersede event's reason, when it did
    judge: str | None  # who superseded it (the judge's name, or "explicit")
    retain_s: float  # the newer fact's retain, wall time
    weigh_s: float  # one judge.weigh(new, [old]) call, median of the repeats


# -- reading the pairs -------------------------------------------------------------------


def _bullet_error(text: str, label: str) -> str | None:
    try:
        validate_bullet(text, label)
    except BadInput as exc:
        return str(exc)
    return None


def _day(raw: Json, key: str) -> date:
    try:
        return parse_day(raw[key], what=key)
    except BadInput as exc:
        raise ValueError(str(exc)) from None


def read_pair(raw: object, line: int) -> Pair:
    """One decoded line as a Pair; ValueError says what is wrong with it."""
    if not isinstance(raw, dict):
        raise ValueError(f"expected a JSON object, got {type(raw).__name__}")
    for key, kind in FIELDS.items():
        if key not in raw:
            raise ValueError(f"missing key {key!r}")
        value = raw[key]
        if not isinstance(value, kind):
            raise ValueError(f"{key!r} must be a {'boolean' if kind is bool else 'string'}, "
                             f"not {json.dumps(value)}")
    if not isinstance(raw.get("why", ""), str):
        raise ValueError(f"'why' must be a string, not {json.dumps(raw['why'])}")
    if not raw["id"].strip() or not raw["category"].strip():
        raise ValueError("'id' and 'category' must not be empty")
    for label in ("old", "new"):
        if error := _bullet_error(raw[label], label):
            raise ValueError(error)
    old_date, new_date = _day(raw, "old_date"), _day(raw, "new_date")
    if new_date < old_date:
        raise ValueError(f"new_date {new_date} is before old_date {old_date}")
    return Pair(raw["id"], raw["old"], raw["new"], old_date, new_date, raw["supersedes"],
                raw["category"].strip(), raw.get("why", ""), line)


def jsonl_rows(path: Path) -> Iterator[tuple[int, object]]:
    """Each non-blank line of a JSONL file, parsed, with its number; BadInput when the file
    cannot be read or a line is not JSON (the judge and truth benches read their data so)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():  # blank lines (a trailing newline, spacing) carry no row
            try:
                row = json.loads(line)
            except ValueError as exc:
                raise BadInput(f"{path}:{number}: not JSON ({exc})") from None
            yield number, row


def read_pairs(path: Path) -> list[Pair]:
    """Every pair of a JSONL file, all checked first; BadInput names the first bad line."""
    pairs: list[Pair] = []
    seen: dict[str, int] = {}
    for number, raw in jsonl_rows(path):
        try:
            pair = read_pair(raw, number)
        except ValueError as exc:
            raise BadInput(f"{path}:{number}: {exc}") from None
        if pair.id in seen:
            raise BadInput(f"{path}:{number}: id {pair.id!r} is already used on line "
                           f"{seen[pair.id]}")
        seen[pair.id] = number
        pairs.append(pair)
    if not pairs:
        raise BadInput(f"{path} holds no pairs: give one JSON object per line")
    return pairs


def split_names(values: Sequence[str]) -> list[str]:
    """`--category a,b --category c` -> [a, b, c]."""
    return [name.strip() for value in values for name in value.split(",") if name.strip()]


def select(pairs: Sequence[Pair], include: Sequence[str],
           exclude: Sequence[str]) -> list[Pair]:
    """The pairs of the `include` categories (all when none), less the `exclude` ones."""
    known = sorted({p.category for p in pairs})
    unknown = [name for name in (*include, *exclude) if name not in known]
    if unknown:
        raise BadInput(f"no pairs in category {unknown[0]!r}; the file has: {', '.join(known)}")
    chosen = [p for p in pairs if (not include or p.category in include)
              and p.category not in exclude]
    if not chosen:
        raise BadInput("the category options leave no pairs to score")
    return chosen


# -- the judge ---------------------------------------------------------------------------


def make_judge(name: str) -> Judge:
    """A judge by name, as MEMFOLD_JUDGE names them ("rules", "openai" with its
    MEMFOLD_JUDGE_URL and MEMFOLD_JUDGE_MODEL)."""
    from memfold import config
    from memfold.lifecycle.judge import load_judge

    return load_judge(config.judge_settings(name)) or RuleJudge()


# -- running -----------------------------------------------------------------------------


def noon(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 12, tzinfo=UTC)


def weigh_seconds(judge: Judge, new: Fact, old: Fact, repeat: int) -> float:
    """The median wall time of one `judge.weigh(new, [old])` call over `repeat` calls."""
    samples = []
    from memfold.lifecycle.judge.caches import forget_readings

    for _ in range(repeat):
        forget_readings()  # each call reads both facts, as a fresh retain process would
        started = time.perf_counter()
        judge.weigh(new, [old])
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def _stored(result: RetainResult, pair: Pair, label: str) -> Fact:
    if not result.facts:
        raise BadInput(f"line {pair.line}: the {label} bullet was not stored as a fact")
    return result.facts[0]


def run_pair(pair: Pair, judge: Judge, ws: Path, repeat: int) -> Outcome:
    """One pair in its own fresh workspace `ws`: retain old, then new, read old's status."""
    Memory.init(ws)
    with Memory.open(ws, judge=judge, watch=False) as memory:
        older = memory.retain(pair.old, date=pair.old_date, now=noon(pair.old_date),
                              source="bench", allow_secret=True)
        old = _stored(older, pair, "old")
        started = time.perf_counter()
        newer = memory.retain(pair.new, date=pair.new_date, now=noon(pair.new_date),
                              source="bench", allow_secret=True)
        retain_s = time.perf_counter() - started
        new = _stored(newer, pair, "new")
        hit = memory.get(old.id, use=False, now=noon(pair.new_date))
        got = hit.status == SUPERSEDED
        offered = any(j.id == old.id for j in newer.conflicts)
        event = next((e for e in reversed(memory.history(old.id))
                      if e.event == "supersede"), None) if got else None
    return Outcome(pair, got, offered, event.data.get("reason") if event else hit.reason,
                   event.data.get("judge") if event else None, retain_s,
                   weigh_seconds(judge, new, old, repeat))


def run_pairs(pairs: Sequence[Pair], judge: Judge, repeat: int) -> list[Outcome]:
    """Every pair in a fresh workspace under one temporary directory, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="memfold-judge-") as tmp:
        return [run_pair(pair, judge, Path(tmp) / f"pair-{n}", repeat)
                for n, pair in enumerate(pairs)]


# -- scoring -----------------------------------------------------------------------------


def _ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def scores(outcomes: Sequence[Outcome]) -> Json:
    """Counts, precision, recall and F1 with "supersedes" as the positive class."""
    tally = Counter((o.pair.expected, o.got) for o in outcomes)
    tp, fp = tally[True, True], tally[False, True]
    fn, tn = tally[True, False], tally[False, False]
    precision, recall = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
    f1 = (2 * precision * recall / (precision + recall)
          if precision is not None and recall is not None and precision + recall else None)
    offered = sum(o.offered and not o.got for o in outcomes if o.pair.expected)
    # a non-change offered as a conflict: nothing retired, but the user reads it for nothing
    offered_false = sum(o.offered and not o.got for o in outcomes if not o.pair.expected)
    return {"counts": {"pairs": len(outcomes), "tp": tp, "fp": fp, "fn": fn, "tn": tn,
                       "offered": offered, "offered_false": offered_false},
            "precision": precision, "recall": recall, "f1": f1,
            "superseded_or_offered": _ratio(tp + offered, tp + fn),
            "false_offers": _ratio(offered_false, fp + tn)}


def by_category(outcomes: Sequence[Outcome]) -> Json:
    groups: Json = {}
    for name in sorted({o.pair.category for o in outcomes}):
        chosen = [o for o in outcomes if o.pair.category == name]
        groups[name] = {"pairs": len(chosen),
                        "expected_true": sum(o.pair.expected for o in chosen),
                        "judged_true": sum(o.got for o in chosen),
                        "correct": sum(o.got == o.pair.expected for o in chosen),
                        "offered": sum(o.offered and not o.got for o in chosen)}
    return groups


def misjudged(outcomes: Sequence[Outcome]) -> list[Json]:
    return [{"id": o.pair.id, "category": o.pair.category, "line": o.pair.line,
             "expected": o.pair.expected, "got": o.got, "offered": o.offered,
             "judge": o.judge,
             "reason": o.reason if o.got else None, "old": o.pair.old, "new": o.pair.new,
             "why": o.pair.why}
            for o in outcomes if o.got != o.pair.expected]


def ms_figures(samples: Sequence[float]) -> Json:
    ordered = sorted(samples)
    return {"median_ms": 1000 * statistics.median(ordered), "max_ms": 1000 * ordered[-1],
            "p90_ms": 1000 * ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]}


def run_benchmark(path: Path, judge_name: str, *, include: Sequence[str] = (),
                  exclude: Sequence[str] = (), repeat: int = REPEAT) -> Json:
    """Read and check every pair, run the chosen ones, and return the results."""
    pairs = read_pairs(path)
    chosen = select(pairs, include, exclude)
    judge = make_judge(judge_name)
    started = time.perf_counter()
    outcomes = run_pairs(chosen, judge, repeat)
    seconds = time.perf_counter() - started
    return {
        "benchmark": "judge",
        "checked_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "dataset": {"file": path.name, "sha256": file_sha256(path), "pairs": len(pairs)},
        "judge": judge.name,
        "parameters": {"categories": list(include), "exclude_categories": list(exclude),
                       "repeat": repeat, "now": "noon UTC on each fact's date",
                       "positive": "the older fact's status is superseded after both retains"},
        "environment": environment(),
        **scores(outcomes),
        "categories": by_category(outcomes),
        "misjudged": misjudged(outcomes),
        "outcomes": [{"id": o.pair.id, "category": o.pair.category,
                      "expected": o.pair.expected, "got": o.got, "offered": o.offered}
                     for o in outcomes],
        "timings": {"weigh_per_pair": ms_figures([o.weigh_s for o in outcomes]),
                    "retain_newer": ms_figures([o.retain_s for o in outcomes]),
                    "seconds": seconds},
    }


# -- printing ----------------------------------------------------------------------------


def summary(result: Json) -> list[str]:
    c = result["counts"]
    scope = ""
    if result["parameters"]["categories"] or result["parameters"]["exclude_categories"]:
        scope = f", {c['pairs']} scored"
    return [f"memfold bench judge: {result['dataset']['file']} ({result['dataset']['pairs']} "
            f"pairs{scope}), judge {result['judge']}",
            f"precision {percent(result['precision'])}  recall {percent(result['recall'])}  "
            f"F1 {percent(result['f1'])}  (TP {c['tp']}, FP {c['fp']}, FN {c['fn']}, "
            f"TN {c['tn']})",
            f"superseded or offered {percent(result['superseded_or_offered'])} of the true "
            f"pairs ({c['offered']} more came back in the retain's conflicts)",
            f"false offers {percent(result['false_offers'])} of the pairs that are no change "
            f"({c['offered_false']} of {c['fp'] + c['tn']} left active but named in the "
            f"conflicts)"]


def table(result: Json) -> list[str]:
    width = max(len("category"), *(len(name) for name in result["categories"]))
    heads = ("pairs", "expected true", "judged true", "correct", "offered")
    lines = [f"{'category':<{width}}" + "".join(f"{h:>15}" for h in heads)]
    c = result["counts"]
    every = {"pairs": c["pairs"], "expected_true": c["tp"] + c["fn"],
             "judged_true": c["tp"] + c["fp"], "correct": c["tp"] + c["tn"],
             "offered": sum(g["offered"] for g in result["categories"].values())}
    for name, g in [*result["categories"].items(), ("all", every)]:
        cells = (g["pairs"], g["expected_true"], g["judged_true"], g["correct"], g["offered"])
        lines.append(f"{name:<{width}}" + "".join(f"{v:>15}" for v in cells))
    return lines


def _verdict(value: bool) -> str:
    return "supersedes" if value else "kept"


def error_lines(result: Json) -> list[str]:
    wrong = result["misjudged"]
    lines = [f"misjudged ({len(wrong)}):" if wrong else "misjudged: none"]
    id_width = max((len(m["id"]) for m in wrong), default=0)
    width = max((len(m["category"]) for m in wrong), default=0)
    for m in wrong:
        line = (f"  {m['id']:<{id_width}}  {m['category']:<{width}}  expected "
                f"{_verdict(m['expected']):<10}  got {_verdict(m['got'])}")
        if m["got"]:
            line += f" — {m['judge'] or 'judge'}: {m['reason'] or '(no reason given)'}"
        elif m["offered"]:
            line += " (offered as a conflict)"
        lines.append(line)
    return lines


def cost_line(result: Json) -> str:
    t = result["timings"]
    weigh, retain = t["weigh_per_pair"], t["retain_newer"]
    return (f"cost: judge {weigh['median_ms']:.3f} ms per candidate pair (median over pairs, "
            f"slowest {weigh['max_ms']:.3f} ms; {result['parameters']['repeat']} calls each); "
            f"retain of the newer fact {retain['median_ms']:.1f} ms (median); "
            f"{t['seconds']:.1f} s in all")


@click.command("judge")
@click.argument("path", metavar="FILE.jsonl",
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--judge", "judge_name", default="rules", show_default=True,
              help="The judge to score, by name.")
@click.option("--category", "include", multiple=True, metavar="NAME[,NAME]",
              help="Score only these categories (repeatable).")
@click.option("--exclude-category", "exclude", multiple=True, metavar="NAME[,NAME]",
              help="Leave these categories out (repeatable), e.g. for a held-out split.")
@click.option("--repeat", default=REPEAT, show_default=True, type=click.IntRange(min=1),
              help="Timed judge.weigh calls per pair; the median is reported.")
@click.option("--quiet", "--no-errors", "quiet", is_flag=True,
              help="Leave out the list of misjudged pairs.")
@output_options("benchmarks/results/judge.json")
def judge_command(path: Path, judge_name: str, include: tuple[str, ...],
                  exclude: tuple[str, ...], repeat: int, quiet: bool, out: Path,
                  as_json: bool) -> None:
    """Precision and recall of the supersede judge on labelled pairs of facts.

    FILE.jsonl holds one pair per line: {"id", "old", "new", "old_date", "new_date",
    "supersedes", "category", "why"}, `old` and `new` being Retain bullets.  Each pair runs
    in a fresh temporary workspace: the older fact is retained on its date, then the newer
    on its; the pair is judged "supersedes" when the older fact ends up superseded.

    \b
    Example:
      memfold bench judge ../shared/bench/contradictions-dev.jsonl
      memfold bench judge pairs.jsonl --exclude-category rename --json
    """
    result = run_benchmark(path, judge_name, include=split_names(include),
                           exclude=split_names(exclude), repeat=repeat)
    if save_result(result, out, as_json=as_json):
        return
    lines = [*summary(result), "", *table(result)]
    if not quiet:
        lines += ["", *error_lines(result)]
    for line in [*lines, "", cost_line(result)]:
        click.echo(line)
    click.echo(f"wrote {out}", err=True)
