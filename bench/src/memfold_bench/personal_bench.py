"""`memfold bench personal`: does recall put the right fact first, on one person's year of
memory kept by an agent, for the questions people ask?

The input is JSON `{facts, questions}` (../shared/bench/README.md, "personal-dev.json"):
facts `{key, date, bullet}`, questions `{q, now, gold: [keys], category}`.  The file is read
and checked whole before anything runs (a bad row stops the command with one line, exit 2).

The facts are replayed through the public API (`timeline`): one fresh workspace, each fact
retained on its date in date order so the judge runs as in real use, each question asked at
its `now` after exactly the facts dated by then.  Returned ids are mapped back to keys.
`--retain-first` retains the whole year before asking anything, as the figures of issue 30
were measured: a question then also sees facts dated after its `now`.

Scores, per category and over all answerable questions (gold not empty):
- P@1: the top result is a gold fact;
- R@5, R@10: the share of a question's gold facts among the top 5 / 10, averaged.
`negative` questions (gold []) were never stated: for them we count how often recall answered
with nothing, or only with weak matches.  A hit is *weak* when recall flags it so (`weak` in
its JSON, `memfold.recall.weak`: it misses the words the question turns on, or the person it
names).  Beside it, the older test (`_why` figures): a hit whose `why` names no word of the
question ("words ..." is absent), found only by meaning, an entity, a neighbour or a time
window.  The same tests on the answerable questions (every hit weak) are reported too, as
the price of the flag.

Beside every figure runs the floor: plain BM25 over the same facts' text (the content after
the colon: no kind, entities, time or lifecycle), an in-memory FTS5 table (`unicode61
remove_diacritics 2`, the tokenizer of `floor`), queried with the question's words less the
floor's own stop words, quoted and OR-ed, `ORDER BY rank LIMIT k`, over the facts dated by
the question's day.  Latency: p50 of each recall call in-process (and of the floor's query).
"""

from __future__ import annotations

import json
import re
import sqlite3
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click

from memfold.errors import BadInput
from memfold.values import Hit

from . import changes_score
from .index_bench import environment, output_options, save_result
from .locomo import WORD, file_sha256, mean
from .timeline import (
    Asked,
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
CATEGORIES = ("single", "multi", "temporal", "preference", "current", "negative")
NEGATIVE = "negative"
FLOOR = "floor"
COUNTS = ("questions", "answerable")
CUTOFFS = (5, 10)
HEAD = re.compile(r"^[^:]*:\s*")  # `KIND(...) @Entity:` before the content
# The floor's stop words (a fixed list, so the floor does not move when memfold's does).
FLOOR_STOP_WORDS = frozenset("""
    a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers herself him himself his how i if in into is it its
    itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself
    yourselves s t d ll m re ve
""".split())


# -- reading -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    text: str
    now: datetime
    gold: tuple[str, ...]
    category: str


def _rows(data: object, key: str, path: Path) -> list[Json]:
    rows = data.get(key) if isinstance(data, dict) else None
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise BadInput(f"{path}: expected {{\"facts\": [...], \"questions\": [...]}} with "
                       f"objects in {key!r}")
    return rows


def read_facts(rows: list[Json], path: Path) -> list[Written]:
    facts, seen = [], set()
    for n, row in enumerate(rows):
        where = f"{path}: facts[{n}]"
        key = row.get("key")
        if not isinstance(key, str) or not key or key in seen:
            raise BadInput(f"{where}: 'key' must be a new non-empty string, not {key!r}")
        seen.add(key)
        facts.append(Written(key, read_day(row.get("date"), where),
                             read_bullet(row.get("bullet"), where)))
    return facts


def read_questions(rows: list[Json], keys: set[str], path: Path) -> list[Question]:
    questions = []
    for n, row in enumerate(rows):
        where = f"{path}: questions[{n}]"
        text, category = row.get("q"), row.get("category")
        if not isinstance(text, str) or not text.strip():
            raise BadInput(f"{where}: 'q' must be a non-empty string")
        if not isinstance(category, str) or not category:
            raise BadInput(f"{where}: 'category' must be a non-empty string")
        gold = read_strings(row.get("gold"), where, "gold")
        if unknown := [g for g in gold if g not in keys]:
            raise BadInput(f"{where}: gold key {unknown[0]!r} is not a fact's key")
        questions.append(Question(text, read_moment(row.get("now"), where), gold, category))
    return questions


def load(path: Path) -> tuple[list[Written], list[Question]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise BadInput(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    facts = read_facts(_rows(data, "facts", path), path)
    questions = read_questions(_rows(data, "questions", path), {f.key for f in facts}, path)
    if not questions:
        raise BadInput(f"{path} holds no questions")
    return facts, questions


# -- the floor -----------------------------------------------------------------------------


class Floor:
    """Plain BM25 over the facts' content, each row with its key and day."""

    def __init__(self, facts: Sequence[Written]) -> None:
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE facts USING fts5(body, key UNINDEXED, "
                        "day UNINDEXED, tokenize = 'unicode61 remove_diacritics 2')")
        self.db.executemany("INSERT INTO facts (body, key, day) VALUES (?, ?, ?)",
                            [(HEAD.sub("", f.bullet, count=1), f.key, f.day.isoformat())
                             for f in facts])

    @staticmethod
    def query(question: str) -> str | None:
        words = dict.fromkeys(w.casefold() for w in WORD.findall(question))
        kept = [w for w in words if w not in FLOOR_STOP_WORDS]
        return " OR ".join(f'"{w}"' for w in kept) or None

    def rank(self, question: str, moment: datetime | None, k: int) -> list[str]:
        """The best `k` keys among the facts dated by `moment` (all facts when None)."""
        fts = self.query(question)
        if fts is None:
            return []
        last = moment.date().isoformat() if moment else "9999-12-31"
        rows = self.db.execute("SELECT key FROM facts WHERE facts MATCH ? AND day <= ? "
                               "ORDER BY rank LIMIT ?", (fts, last, k))
        return [row[0] for row in rows]

    def close(self) -> None:
        self.db.close()


# -- asking --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """One question's ranked keys per system (memfold's modes, then the floor)."""

    question: Question
    ranked: dict[str, list[str | None]]
    weak: dict[str, bool]  # every hit flagged weak by recall (or no hit)
    weak_why: dict[str, bool]  # every hit's why names no word of the question (or no hit)
    empty: dict[str, bool]  # nothing at all
    top: dict[str, Json | None]  # the top hit: content and why
    seconds: dict[str, float]


def is_weak(why: str) -> bool:
    """A hit that names no word of the question: found by meaning, entity, neighbour, time."""
    return not any(part.startswith("words ") for part in why.split("; "))


def answer_of(question: Question, asked: Sequence[Asked],
              keys: Callable[[Sequence[Hit]], list[str | None]], floor: Floor,
              names: Sequence[str], k: int, *, first: bool, strict: bool = False) -> Answer:
    """One question's answers; with `strict`, each mode again as `recall --strict` answers
    (its weak hits left out), as the system "<mode> strict"."""
    ranked: dict[str, list[str | None]] = {}
    weak, weak_why, empty, top, seconds = {}, {}, {}, {}, {}
    runs = [(name, a.result.hits, a) for name, a in zip(names, asked, strict=True)]
    if strict:
        runs += [(f"{name} strict", tuple(h for h in a.result.hits if not h.weak), a)
                 for name, a in zip(names, asked, strict=True)]
    for name, hits, a in runs:
        ranked[name] = keys(hits)
        empty[name] = not hits
        weak[name] = all(h.weak for h in hits)  # recall's `answered` is false
        weak_why[name] = all(is_weak(h.why) for h in hits)
        top[name] = {"content": hits[0].fact.content, "why": hits[0].why,
                     "weak": hits[0].weak} if hits else None
        seconds[name] = a.seconds
    started = time.perf_counter()
    moment = None if first else question.now
    ranked[FLOOR] = list[str | None](floor.rank(question.text, moment, k))
    seconds[FLOOR] = time.perf_counter() - started
    empty[FLOOR] = weak[FLOOR] = weak_why[FLOOR] = not ranked[FLOOR]
    return Answer(question, ranked, weak, weak_why, empty, top, seconds)


def run(facts: Sequence[Written], questions: Sequence[Question], modes: Sequence[str], *,
        k: int, include_all: bool, first: bool, strict: bool = False,
        changes: Sequence[tuple[str, str]] | None = None,
        ) -> tuple[list[Answer], Json, list[str]]:
    """Replay the year and ask every question (with `first`, after the whole year is
    retained); the answers, what the judge did (scored against the writer's `changes` when
    given), system names."""
    names = ["memfold"] if len(modes) == 1 else list(modes)
    ordered = by_time(facts)
    floor = Floor(facts)
    answers = []
    try:
        with tempfile.TemporaryDirectory(prefix="memfold-personal-") as tmp, \
                replay(Path(tmp) / "ws") as rep:
            for q in sorted(questions, key=lambda q: q.now):
                rep.write_until(ordered, None if first else q.now)
                asked = rep.ask(q.text, q.now, modes, k=k, include_all=include_all)
                answers.append(answer_of(q, asked, rep.keys, floor, names, k, first=first,
                                         strict=strict))
            rep.write_until(ordered, None)
            judged = {"retained": rep.written, **judged_counts(rep.retained)}
            if changes is not None:
                judged["lifecycle"] = changes_score.score(rep.retained, rep.ids, changes,
                                                          len(facts))
    finally:
        floor.close()
    return answers, judged, [*names, *(f"{n} strict" for n in names if strict), FLOOR]


# -- scoring -------------------------------------------------------------------------------


def recall_at(ranked: Sequence[str | None], gold: Sequence[str], cutoff: int) -> float:
    return len(set(gold).intersection(k for k in ranked[:cutoff] if k)) / len(gold)


def figures(answers: Sequence[Answer], system: str) -> Json:
    """P@1, R@5, R@10 over answerable questions; for never-stated ones, nothing / weak."""
    stated = [a for a in answers if a.question.gold]
    never = [a for a in answers if not a.question.gold]
    out: Json = {"p@1": mean([float(bool(a.ranked[system]) and a.ranked[system][0]
                                    in a.question.gold) for a in stated])}
    for c in CUTOFFS:
        out[f"r@{c}"] = mean([recall_at(a.ranked[system], a.question.gold, c) for a in stated])
    if never:
        out["nothing"] = share(sum(a.empty[system] for a in never), len(never))
        out["nothing_or_weak"] = share(sum(a.weak[system] for a in never), len(never))
        out["nothing_or_weak_why"] = share(sum(a.weak_why[system] for a in never),
                                           len(never))
    if stated:
        right = [a for a in stated if a.ranked[system] and a.ranked[system][0] in a.question.gold]
        out["answerable_right_top_weak"] = share(
            sum(bool((a.top.get(system) or {}).get("weak")) for a in right), len(stated))
        out["answerable_flagged_weak"] = share(sum(a.weak[system] for a in stated),
                                               len(stated))
        out["answerable_flagged_weak_why"] = share(sum(a.weak_why[system] for a in stated),
                                                   len(stated))
    return out


def by_category(answers: Sequence[Answer], systems: Sequence[str]) -> Json:
    groups: Json = {}
    names = [*CATEGORIES, *sorted({a.question.category for a in answers} - set(CATEGORIES))]
    for name in [*names, "overall"]:
        chosen = [a for a in answers if name in ("overall", a.question.category)]
        if chosen:
            groups[name] = {"questions": len(chosen),
                            "answerable": sum(bool(a.question.gold) for a in chosen),
                            **{s: figures(chosen, s) for s in systems}}
    return groups


def details(answers: Sequence[Answer], systems: Sequence[str]) -> list[Json]:
    return [{"q": a.question.text, "now": a.question.now.isoformat(),
             "category": a.question.category, "gold": list(a.question.gold),
             "ranked": {s: a.ranked[s] for s in systems},
             "top": a.top} for a in answers]


def run_benchmark(path: Path, modes: Sequence[str], *, k: int = K,
                  include_all: bool = False, first: bool = False, blind: bool = False,
                  strict: bool = False, changes_path: Path | None = None) -> Json:
    facts, questions = load(path)
    changes = None if changes_path is None else changes_score.read_changes(
        changes_path, {f.key for f in facts})
    started = time.perf_counter()
    answers, judged, systems = run(facts, questions, modes, k=k, include_all=include_all,
                                   first=first, strict=strict, changes=changes)
    if blind and "lifecycle" in judged:
        for names in ("unmarked_pairs", "supersede_pairs", "missed_pairs"):
            judged["lifecycle"].pop(names)
    return {
        "benchmark": "personal",
        "checked_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "dataset": {"file": path.name, "sha256": file_sha256(path), "facts": len(facts),
                    "questions": len(questions)},
        "parameters": {
            "k": k, "mode": modes[0] if len(modes) == 1 else list(modes),
            "include_all": include_all, "retain_first": first, "strict": strict,
            "retain": "one retain per fact in date order, now = 00:00 UTC on its date",
            "now": "each question's now; it sees the facts dated by its day"
                   + (" (retain_first: every fact of the year)" if first else ""),
            "weak": "a hit recall flags weak (its JSON's weak: memfold.recall.weak)",
            "weak_why": "a hit whose why names no word of the question (no 'words ...')",
            "floor": "FTS5 unicode61 BM25 over each fact's content, question words less "
                     "stop words, quoted and OR-ed, ORDER BY rank, facts dated by the day"},
        "environment": environment(),
        "judged": judged,
        "categories": by_category(answers, systems),
        "latency": {s: ms_figures([a.seconds[s] for a in answers]) for s in systems},
        "seconds": time.perf_counter() - started,
        "questions": None if blind else details(answers, systems),
    }


# -- printing ------------------------------------------------------------------------------


def table(result: Json) -> list[str]:
    """A row per category (n: answerable questions): for each memfold system P@1, R@5,
    R@10 with the floor beside."""
    groups = result["categories"]
    systems = [s for s in groups["overall"] if s not in (*COUNTS, FLOOR)]
    heads = [f"{s} {m}" for s in systems for m in ("P@1", "R@5", "R@10")]
    width = max(18, *(len(h) + 2 for h in heads))
    lines = [f"{'category':<12}{'n':>5}" + "".join(f"{h:>{width}}" for h in heads)]
    for name, group in groups.items():
        cells = []
        for s in systems:
            for m in ("p@1", "r@5", "r@10"):
                if name == NEGATIVE:
                    cells.append("")
                else:
                    cells.append(f"{pct(group[s][m])} ({pct(group[FLOOR][m])})")
        n = group["questions"] if name == NEGATIVE else group["answerable"]
        lines.append(f"{name:<12}{n:>5}" + "".join(f"{c:>{width}}" for c in cells))
    return lines


def negative_lines(result: Json) -> list[str]:
    groups = result["categories"]
    if NEGATIVE not in groups:
        return []
    group, overall = groups[NEGATIVE], groups["overall"]
    systems = [s for s in group if s not in (*COUNTS, FLOOR)]
    return [f"never stated ({group['questions']}), {s}: answered nothing "
            f"{pct(group[s]['nothing'])}%, nothing or only weak matches "
            f"{pct(group[s]['nothing_or_weak'])}% (floor: nothing "
            f"{pct(group[FLOOR]['nothing'])}%); answerable questions flagged weak "
            f"{pct(overall[s].get('answerable_flagged_weak'))}%, right first result flagged "
            f"weak {pct(overall[s].get('answerable_right_top_weak'))}%; by the older test (why "
            f"names no word): {pct(group[s]['nothing_or_weak_why'])}%, answerable "
            f"{pct(overall[s].get('answerable_flagged_weak_why'))}%" for s in systems]


@click.command("personal")
@click.argument("path", metavar="FILE.json",
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@mode_option
@click.option("--all-facts", "include_all", is_flag=True,
              help="Recall with nothing left out (include_all, `recall --all`): measures "
                   "what the lifecycle hides.")
@click.option("--retain-first", "first", is_flag=True,
              help="Retain the whole year before asking anything (a question then also "
                   "sees facts dated after its now; the floor too).")
@click.option("--strict", "strict", is_flag=True,
              help="Score each mode again as `recall --strict` answers, its weak hits left "
                   "out (the system '<mode> strict'): what dropping them costs.")
@click.option("--changes", "changes_path", metavar="CHANGES.json", default=None,
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The writer's marked replacements ([{older, newer}] fact keys): also "
                   "score the judge's automatic supersedes and conflicts against them.")
@blind_option
@click.option("--k", "k", default=K, show_default=True, type=click.IntRange(min=10),
              help="Results asked of recall per question.")
@output_options("benchmarks/results/personal-dev.json")
def personal_command(path: Path, mode: str, include_all: bool, first: bool, strict: bool,
                     changes_path: Path | None, blind: bool, k: int, out: Path,
                     as_json: bool) -> None:
    """P@1, R@5 and R@10 on one person's year of memory, beside a plain BM25 floor.

    FILE.json holds {facts: [{key, date, bullet}], questions: [{q, now, gold, category}]}.
    The facts are retained day by day in a fresh temporary workspace (the judge runs as in
    real use); each question is asked at its `now`.  Figures in percent, the floor's in
    brackets.

    \b
    Example:
      memfold bench personal ../shared/bench/personal-dev.json --mode all
    """
    modes = modes_for(mode)
    check_modes(modes)
    result = run_benchmark(path, modes, k=k, include_all=include_all, first=first,
                           blind=blind, strict=strict, changes_path=changes_path)
    if save_result(result, out, as_json=as_json):
        return
    d, j = result["dataset"], result["judged"]
    click.echo(f"memfold bench personal: {d['file']}, {d['facts']} facts, {d['questions']} "
               f"questions; mode {mode}{', --all' if include_all else ''}"
               f"{', retained first' if first else ''}; judge made "
               f"{j['supersedes']} supersedes, {j['conflicts']} conflicts")
    lifecycle = changes_score.lines(j["lifecycle"]) if "lifecycle" in j else []
    for line in [*table(result), *negative_lines(result), *lifecycle, latency_line(result)]:
        click.echo(line)
    click.echo(f"wrote {out}", err=True)
