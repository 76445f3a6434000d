"""`memfold bench year`: does the lifecycle stay right on a year of memory?

The corpus is `year_corpus.generate(seed, days, people)`: about 3,000 facts, every planted
change and non-change known.  It runs two ways, each in a fresh temporary workspace, through
the public API only:

- retained: each fact by `Memory.retain(bullet, date=day, now=<00:00 UTC that day>)` in date
  order, as an agent writes (the judge runs on each); the conflicts each retain reports are
  kept;
- indexed: the same facts written as Markdown daily logs (`# day`, `## Retain`, a bullet a
  line, no block ids: notes a person copies in), then one `Memory.index()`.

Afterwards every fact is read back with `Memory.about(entity, include_all=True)` for each
entity of the world (every fact names its holder first), matched to its key by its cited
source (`path#Lline`), and each superseded fact's journal event read with
`Memory.history` (the judge, and the reason).

Scores, per run:
- automatic supersedes made, and their precision: a supersede is right when the newer fact is
  a planted change and the older one is among the facts it replaces (`year_corpus`);
- planted changes superseded (the change superseded one of the facts it replaces) and
  superseded or offered (or one of them came back in that retain's `conflicts`; the indexed
  run has no retain, so nothing is offered there);
- wrongly retired facts per 1,000 facts (facts a wrong supersede retired);
- the wrong supersedes by rule (the event's `rule` when the journal records one, else its
  reason with quoted values and numbers blanked: "…: '…' became '…'") and by what the newer
  fact was (its plant and category); the conflicts the retains reported, by rule and by the
  guard that kept each from a supersede.
The corpus is deterministic, so the figures move only when memfold does.
"""

from __future__ import annotations

import hashlib
import re
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import click

from memfold.journal import events
from memfold.memory import Memory

from .index_bench import environment, output_options, save_result
from .locomo import percent
from .timeline import retain_on, share, start_of
from .year_corpus import CHANGE, Corpus, Planted, generate

Json = dict[str, Any]
RUNS = ("retained", "indexed")
SHOWN = 8  # rows of each breakdown printed
QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
NUMBER = re.compile(r"\d[\d.,]*")
LABEL = re.compile(r"^[^:']{1,40}: ")


@dataclass(frozen=True)
class Retired:
    """A fact found superseded: by which fact, who decided and why."""

    old: str  # keys
    new: str | None
    judge: str
    reason: str
    rule: str


@dataclass
class Run:
    """What one way of writing the year left behind."""

    name: str
    found: int = 0  # facts read back and matched to a key
    retired: list[Retired] = field(default_factory=list)
    offered: dict[str, set[str]] = field(default_factory=dict)  # change key -> keys offered
    conflicts: int | None = None  # conflicts the retains reported (None: not retained)
    conflict_rules: Counter[str] = field(default_factory=Counter)  # the rule of each conflict
    seconds: float = 0.0


def rule_of(reason: str, data: dict[str, Any]) -> str:
    """The rule behind a supersede: the journal's own `rule`, else its reason with the
    values blanked."""
    if rule := data.get("rule"):
        return str(rule)
    return LABEL.sub("…: ", NUMBER.sub("N", QUOTED.sub("'…'", reason)))


def conflict_rule(judge: str, reason: str) -> str:
    """The rule behind a conflict, and the guard that kept it from a supersede, if any
    ("location, guarded: a plan or a hypothetical")."""
    rule = events.rule_of(judge, reason)
    guard = reason.split(", but the newer fact is ", 1)[1] if ", but the newer fact is " \
        in reason else ""
    return f"{rule}, guarded: {guard}" if guard else rule


# -- the two runs --------------------------------------------------------------------------


def _end(corpus: Corpus) -> datetime:
    return start_of(corpus.facts[-1].day) + timedelta(days=1)


def read_back(memory: Memory, corpus: Corpus, sources: dict[str, str], run: Run) -> None:
    """Every fact's standing after the run, through `about` for each entity."""
    ids: dict[str, str] = {}
    superseded: dict[str, tuple[str, str | None, str | None]] = {}
    for name in corpus.entities:
        for hit in memory.about(name, k=100_000, include_all=True, now=_end(corpus)).hits:
            key = sources.get(hit.fact.source)
            if key is None or hit.fact.id in ids:
                continue
            ids[hit.fact.id] = key
            if hit.status == "superseded":
                superseded[key] = (hit.fact.id, hit.superseded_by, hit.reason)
    run.found = len(ids)
    for key, (fact_id, by, reason) in sorted(superseded.items()):
        event = next((e for e in reversed(memory.history(fact_id))
                      if e.event == "supersede"), None)
        data = dict(event.data) if event else {}
        why = str(data.get("reason") or reason or "")
        run.retired.append(Retired(key, ids.get(by or ""), str(data.get("judge") or "?"), why,
                                   rule_of(why, data)))


def run_retained(corpus: Corpus, root: Path, log: Callable[[str], None]) -> Run:
    run = Run("retained", conflicts=0)
    sources: dict[str, str] = {}
    ids: dict[str, str] = {}
    started = time.perf_counter()
    Memory.init(root)
    with Memory.open(root, watch=False) as memory:
        for n, fact in enumerate(corpus.facts, 1):
            result = retain_on(memory, fact.bullet, fact.day)
            for f in result.facts:
                sources[f.source], ids[f.id] = fact.key, fact.key
            run.conflicts = (run.conflicts or 0) + len(result.conflicts)
            run.conflict_rules.update(conflict_rule(j.judge, j.reason) for j in result.conflicts)
            run.offered[fact.key] = {ids[j.id] for j in result.conflicts if j.id in ids}
            if n % 500 == 0:
                log(f"retained {n:,} of {len(corpus.facts):,} facts")
        run.seconds = time.perf_counter() - started
        read_back(memory, corpus, sources, run)
    return run


def write_logs(corpus: Corpus, root: Path) -> dict[str, str]:
    """The year as daily logs, a Retain bullet a line; each bullet's source -> key."""
    sources = {}
    for day, facts in corpus.by_day():
        rel = f"memory/{day.isoformat()}.md"
        lines = [f"# {day.isoformat()}", "", "## Retain"]
        for fact in facts:
            lines.append(f"- {fact.bullet}")
            sources[f"{rel}#L{len(lines)}"] = fact.key
        (root / rel).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return sources


def run_indexed(corpus: Corpus, root: Path) -> Run:
    run = Run("indexed")
    Memory.init(root)
    sources = write_logs(corpus, root)
    started = time.perf_counter()
    with Memory.open(root, watch=False, now=_end(corpus)) as memory:
        memory.index()
        run.seconds = time.perf_counter() - started
        read_back(memory, corpus, sources, run)
    return run


# -- scoring -------------------------------------------------------------------------------


def is_right(s: Retired, facts: dict[str, Planted]) -> bool:
    newer = facts.get(s.new or "")
    return newer is not None and newer.plant == CHANGE and s.old in newer.replaces


MISSED_SHOWN = 30  # planted changes neither superseded nor offered, listed in the JSON


def change_figures(run: Run, facts: dict[str, Planted]) -> Json:
    """How many planted changes superseded (or were offered) what they replace, in all and
    per wording."""
    hit = {(s.new, s.old) for s in run.retired}
    per: dict[str, Counter[str]] = {}
    done = offered = 0
    missed: list[Json] = []
    changes = [f for f in facts.values() if f.plant == CHANGE]
    for c in changes:
        made = any((c.key, old) in hit for old in c.replaces)
        offer = not made and bool(run.offered.get(c.key, set()) & set(c.replaces))
        done, offered = done + made, offered + offer
        if not (made or offer or run.conflicts is None) and len(missed) < MISSED_SHOWN:
            missed.append({"wording": c.category, "new": c.bullet,
                           "old": [facts[k].bullet for k in c.replaces if k in facts]})
        tally = per.setdefault(c.category, Counter())
        tally.update(planted=1, superseded=int(made), offered=int(offer))
    return {"planted": len(changes), "superseded": share(done, len(changes)),
            "superseded_or_offered": share(done + offered, len(changes))
            if run.conflicts is not None else None,
            "by_wording": {k: dict(v) for k, v in sorted(per.items())},
            "missed_examples": missed}


def planted(fact: Planted | None, newer: Planted | None = None) -> str:
    """What a fact was planted as ("non-change plan"); for an older fact, whether it sits
    beside the newer fact's slot."""
    if fact is None:
        return "unknown"
    same = newer is not None and fact.slot is not None and \
        (fact.subject, fact.slot) == (newer.subject, newer.slot)
    return f"{fact.plant} {fact.category}" + (" (same slot)" if same else "")


def score(run: Run, corpus: Corpus) -> Json:
    facts = {f.key: f for f in corpus.facts}
    right = [s for s in run.retired if is_right(s, facts)]
    wrong = [s for s in run.retired if not is_right(s, facts)]
    causes = Counter(planted(facts.get(s.new or "")) for s in wrong)
    victims = Counter(planted(facts[s.old], facts.get(s.new or "")) for s in wrong)
    return {
        "facts_read_back": run.found,
        "seconds": run.seconds,
        "supersedes": len(run.retired),
        "supersedes_by_judge": dict(Counter(s.judge for s in run.retired)),
        "right": len(right), "wrong": len(wrong),
        "precision": share(len(right), len(run.retired)),
        "wrongly_retired_per_1000": 1000 * len({s.old for s in wrong}) / len(corpus.facts),
        "conflicts_reported": run.conflicts,
        "changes": change_figures(run, facts),
        "wrong_by_rule": dict(Counter(s.rule for s in wrong).most_common()),
        "conflicts_by_rule": dict(run.conflict_rules.most_common()),
        "right_by_rule": dict(Counter(s.rule for s in right).most_common()),
        "wrong_by_newer_fact": dict(causes.most_common()),
        "wrong_by_older_fact": dict(victims.most_common()),
        "wrong_examples": [{"old": facts[s.old].bullet, "new": facts[s.new].bullet
                            if s.new in facts else None, "judge": s.judge,
                            "reason": s.reason, "rule": s.rule} for s in wrong],
    }


def corpus_summary(corpus: Corpus) -> Json:
    digest = hashlib.sha256("\n".join(f"{f.day} {f.bullet}" for f in corpus.facts)
                            .encode()).hexdigest()
    return {"facts": len(corpus.facts), "entities": len(corpus.entities),
            "plants": dict(Counter(f.plant for f in corpus.facts)),
            "non_changes": dict(Counter(f.category for f in corpus.facts
                                        if f.plant == "non-change").most_common()),
            "sha256": digest}


def run_benchmark(*, seed: int, days: int, people: int, runs: Sequence[str],
                  log: Callable[[str], None]) -> Json:
    corpus = generate(seed=seed, days=days, people=people)
    results: Json = {}
    with tempfile.TemporaryDirectory(prefix="memfold-year-") as tmp:
        for name in runs:
            log(f"{name}: {len(corpus.facts):,} facts")
            run = (run_retained(corpus, Path(tmp) / name, log) if name == "retained"
                   else run_indexed(corpus, Path(tmp) / name))
            results[name] = score(run, corpus)
    return {"benchmark": "year",
            "checked_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "parameters": {"seed": seed, "days": days, "people": people,
                           "retain": "one retain per fact in date order, now = 00:00 UTC "
                                     "on its date",
                           "index": "daily logs without block ids, then Memory.index()",
                           "right": "the newer fact is a planted change and the older one "
                                    "a fact it replaces"},
            "environment": environment(),
            "corpus": corpus_summary(corpus),
            "runs": results}


# -- printing ------------------------------------------------------------------------------


def table(result: Json) -> list[str]:
    runs = result["runs"]
    names = list(runs)
    rows: list[tuple[str, Callable[[Json], str]]] = [
        ("automatic supersedes", lambda r: str(r["supersedes"])),
        ("  right (precision)", lambda r: f"{r['right']} ({percent(r['precision'])})"),
        ("planted changes superseded", lambda r: percent(r["changes"]["superseded"])),
        ("  superseded or offered",
         lambda r: percent(r["changes"]["superseded_or_offered"])),
        ("wrongly retired per 1,000", lambda r: f"{r['wrongly_retired_per_1000']:.1f}"),
        ("conflicts reported", lambda r: "-" if r["conflicts_reported"] is None
         else str(r["conflicts_reported"])),
        ("facts read back", lambda r: f"{r['facts_read_back']:,}"),
        ("seconds", lambda r: f"{r['seconds']:.1f}"),
    ]
    lines = [f"{'':<30}" + "".join(f"{n:>16}" for n in names)]
    lines += [f"{label:<30}" + "".join(f"{cell(runs[n]):>16}" for n in names)
              for label, cell in rows]
    for name in names:
        for title, key in (("wrong supersedes by rule", "wrong_by_rule"),
                           ("wrong supersedes by the newer fact", "wrong_by_newer_fact"),
                           ("wrong supersedes by the fact retired", "wrong_by_older_fact"),
                           ("conflicts by rule", "conflicts_by_rule")):
            counts = runs[name].get(key)
            if counts:
                lines.append(f"{title} ({name}):")
                lines += [f"  {n:>4}  {what}" for what, n in list(counts.items())[:SHOWN]]
                if len(counts) > SHOWN:
                    lines.append(f"  ({len(counts) - SHOWN} more in the JSON)")
    return lines


@click.command("year")
@click.option("--seed", default=0, show_default=True, help="Seed of the generated year.")
@click.option("--days", default=365, show_default=True, type=click.IntRange(min=30),
              help="Days the year spans.")
@click.option("--people", default=16, show_default=True, type=click.IntRange(2, 30),
              help="People in the world (orgs, projects and pets grow with them).")
@click.option("--only", "only", type=click.Choice(RUNS),
              help="Run one way only: retained day by day, or indexed at once.")
@output_options("benchmarks/results/year.json")
def year_command(seed: int, days: int, people: int, only: str | None, out: Path,
                 as_json: bool) -> None:
    """Supersede precision, planted changes caught and true facts retired on a generated
    year of memory, retained day by day and indexed at once.

    \b
    Example:
      memfold bench year --seed 0
      memfold bench year --days 90 --people 6 --only retained
    """
    result = run_benchmark(seed=seed, days=days, people=people,
                           runs=(only,) if only else RUNS,
                           log=lambda msg: click.echo(msg, err=True))
    if save_result(result, out, as_json=as_json):
        return
    c = result["corpus"]
    plants = c["plants"]
    click.echo(f"memfold bench year: seed {seed}, {days} days, {people} people: "
               f"{c['facts']:,} facts ({plants.get('state', 0)} states, "
               f"{plants.get('change', 0)} changes, {plants.get('non-change', 0)} "
               f"non-changes, {plants.get('plain', 0):,} plain)")
    for line in table(result):
        click.echo(line)
    click.echo(f"wrote {out}", err=True)
