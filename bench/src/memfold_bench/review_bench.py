"""`memfold bench review`: what `memfold review` costs at a size (issue 29: "`review` under
100 ms at 100,000 facts").

The workspace (built in a temporary directory unless `--keep DIR`, not timed):

- the seeded corpus of `bench scale` (`corpus.generate`), with as many daily logs as give
  about `--facts` Retain bullets (12 a log on average);
- a journal of the judge's decisions, written by a fast generator instead of a judge run
  (judging 100,000 facts day by day would take hours): `--items` pairs of facts that share
  an entity, the older written on an earlier day, each an automatic supersede (65%) or an
  open conflict (35%) of the rule judge, its reason worded as that rule words it (value,
  moved, changes, ended, topic, status, opinion, renamed) and stamped on the newer fact's
  day; then, days later, some settled as a person would: 30% of the conflicts (two
  dismissed for one accepted) and 10% of the supersedes restored.  An older fact is in one
  item at most.  The lines are chained as `Journal.append` chains them;
- a full rebuild (`Memory.index(full=True)`), which replays the decisions and judges nothing
  new (the journal holds decisions), timed and reported as set-up.

Measured (`time.perf_counter`), as of the corpus's last day:

- in-process: one `Memory` opened once (it watches the files, as a long-lived agent's
  handle does), one warm-up call, then `--repeat` rounds of `memory.review(...)` for each
  variant — the list (newest 50), `--entity` (the entity with the most items), `--rule
  value`, `--since 30d`, and `--rule value --since 30d` — the variants' order rotating each
  round; p50 and p95 in ms;
- as a command: `memfold --workspace WS review --json` (and with `--entity`), `--cli` times
  each, as a person or a script runs it — first in a process of its own (MEMFOLD_WARM=off:
  interpreter start, imports, the sync that stats every file, the query and the JSON), then
  answered by a warm process (`memfold warm start` in a private directory of its own, one
  uncounted call first; stopped after).

Target: p50 under 100 ms at 100,000 facts.
"""

from __future__ import annotations

import functools
import os
import random
import shutil
import subprocess
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import click

from memfold.journal.events import Conflict, Dismiss, Record, Restore, Supersede
from memfold.journal.log import GENESIS, Event, Journal, chain_hash
from memfold.memory import Memory
from memfold.workspace.format.document import parse_document

from . import corpus
from .index_bench import environment, output_options, save_result, timed
from .recall_bench import percentile
from .scale import console_script

BULLETS_PER_LOG = 12  # corpus._Writer.daily: 8 to 16 Retain bullets a log
TARGET_MS = 100.0
Json = dict[str, Any]
Log = Callable[[str], None]
# each rule's share of the items and a reason worded as the rule judge words it
# (journal.events.RULES reads the rule back from it)
RULES: tuple[tuple[str, float, str], ...] = (
    ("value", 0.40, "location: '{a}' became '{b}'"),
    ("moved", 0.10, "moved away from {a}"),
    ("changes", 0.15, "the newer fact changes '{a}' to '{b}'"),
    ("ended", 0.10, "the newer fact says '{a}' ended"),
    ("topic", 0.10, "same topic: {a}"),
    ("status", 0.05, "status: '{a}' became '{b}'"),
    ("opinion", 0.05, "the opinion on {a} changed"),
    ("renamed", 0.05, "{a} renamed to {b}"),
)


Typed = tuple[str, date, tuple[str, ...], str]  # a fact's id, day, entities, first word


def typed_facts(root: Path) -> list[Typed]:
    """(id, day, entities, first word) of every typed fact of the daily logs."""
    found: list[Typed] = []
    for path in sorted((root / "memory").glob("*.md")):
        rel = path.relative_to(root).as_posix()
        doc = parse_document(rel, path.read_bytes())
        if doc.day is None:
            continue
        found.extend((f.id, doc.day, f.entities, (f.content.split() or ["it"])[0])
                     for f in doc.facts if f.kind != "text")
    return found


def decisions(facts: Sequence[Typed], items: int, seed: int) -> list[tuple[str, Record]]:
    """The judge's items and the settling events after them, as (ts, record), in ts order."""
    rng = random.Random(seed)
    by_entity: dict[str, list[Typed]] = {}
    for fact in facts:
        for name in fact[2]:
            by_entity.setdefault(name, []).append(fact)
    named = [fact for fact in facts if fact[2]]
    rules = [rule for rule, _, _ in RULES]
    weights = [share for _, share, _ in RULES]
    wording = {rule: said for rule, _, said in RULES}
    used: set[str] = set()
    out: list[tuple[str, Record]] = []
    attempts = 0
    while len(used) < items and attempts < items * 20:
        attempts += 1
        one = rng.choice(named)
        other = rng.choice(by_entity[rng.choice(one[2])])
        old, new = sorted((one, other), key=lambda f: f[1])
        if old[1] == new[1] or old[0] in used:
            continue
        used.add(old[0])
        rule = rng.choices(rules, weights)[0]
        reason = wording[rule].format(a=old[3].lower(), b=new[3].lower())
        on, ts = new[1].isoformat(), f"{new[1].isoformat()}T10:00:00+00:00"
        later = f"{(new[1] + timedelta(days=rng.randint(1, 30))).isoformat()}T09:00:00+00:00"
        if rng.random() < 0.35:
            out.append((ts, Conflict(id=old[0], by=new[0], reason=reason, judge="rules", on=on)))
            r = rng.random()
            if r < 0.2:
                out.append((later, Dismiss(id=old[0], by=new[0], reason="not a change")))
            elif r < 0.3:
                out.append((later, Supersede(id=old[0], by=new[0], judge="manual", on=on,
                                             reason=f"accepted in review: {reason}")))
        else:
            out.append((ts, Supersede(id=old[0], by=new[0], reason=reason, judge="rules",
                                      on=on)))
            if rng.random() < 0.1:
                out.append((later, Restore(id=old[0], reason=f"restored in review: {reason}")))
    return sorted(out, key=lambda pair: pair[0])


def write_journal(root: Path, events: Sequence[tuple[str, Record]]) -> None:
    """Append the events as `Journal.append` would (numbered, stamped, chained), in one
    write: thousands of appends, each made durable, would only slow the set-up."""
    from memfold.workspace.layout import Workspace

    journal = Journal(root, Workspace(root).write_lock)
    tail = journal.read()
    prev, seq = tail.last_hash or GENESIS, tail.last_seq
    lines = []
    for ts, record in events:
        seq += 1
        digest = chain_hash(prev, {"seq": seq, "ts": ts, **record.to_dict()})
        lines.append(Event(seq=seq, ts=ts, record=record, hash=digest, prev=prev).line())
        prev = digest
    with open(journal.path, "a", encoding="utf-8") as handle:
        handle.write("".join(line + "\n" for line in lines))


def build(root: Path, facts: int, items: int, seed: int, log: Log) -> Json:
    """Generate the workspace (module doc); what it holds and the rebuild's time."""
    files = max(1, round(facts / BULLETS_PER_LOG))
    log(f"generating {files} daily logs (about {facts:,} bullets) in {root}")
    corpus.generate(root, files=files, seed=seed)
    typed = typed_facts(root)
    events = decisions(typed, items, seed)
    write_journal(root, events)
    counts = Counter(type(record).__name__ for _, record in events)
    log(f"{len(typed):,} typed facts, {dict(counts)}; rebuilding the index")
    with Memory.open(root, watch=False) as memory:
        seconds = timed(lambda: memory.index(full=True))
    return {"daily_logs": files, "typed_facts": len(typed), "events": dict(counts),
            "rebuild_s": round(seconds, 1)}


def variants(memory: Memory, now: str) -> dict[str, Json]:
    """The review calls measured: name -> Memory.review's arguments."""
    everything = memory.review(limit=None, now=now)
    held = memory.index_backend.by_ids([item.older.id for item in everything.items])
    entities = Counter(name for found in held for name in found.fact.entities)
    busiest = entities.most_common(1)[0][0] if entities else "nobody"
    return {"list": {}, "entity": {"entity": busiest}, "rule": {"rule": "value"},
            "since": {"since": "30d"}, "rule+since": {"rule": "value", "since": "30d"}}


def summary(samples: Sequence[float]) -> Json:
    ms = [s * 1000 for s in samples]
    return {"p50_ms": round(percentile(ms, 0.5), 2), "p95_ms": round(percentile(ms, 0.95), 2),
            "samples_ms": [round(m, 2) for m in ms]}


def in_process(root: Path, now: str, repeat: int) -> tuple[Json, dict[str, Json]]:
    """p50/p95 of each variant through one open handle, and the variants' arguments."""
    with Memory.open(root) as memory:
        chosen = variants(memory, now)
        sizes = {name: memory.review(limit=None, now=now, **args).total
                 for name, args in chosen.items()}
        memory.review(now=now)  # warm-up
        samples: dict[str, list[float]] = {name: [] for name in chosen}
        names = list(chosen)
        for round_ in range(repeat):
            for name in names[round_ % len(names):] + names[:round_ % len(names)]:
                samples[name].append(timed(functools.partial(memory.review, now=now,
                                                             **chosen[name])))
    return ({name: {**summary(found), "items": sizes[name]} for name, found in samples.items()},
            chosen)


def whole_process(root: Path, now: str, entity: str, runs: int) -> Json:
    """`memfold review --json` as a command, `runs` times each (list, --entity): run in its
    own process (MEMFOLD_WARM=off), then answered by a warm process started for it (one
    uncounted call first, as an agent's earlier command would have made)."""
    script = console_script()
    base = [*script, "--workspace", str(root), "--as-of", now, "review", "--json"]
    commands = {"list": base, "entity": [*base, "--entity", entity]}
    samples: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="memfold-bench-warm-") as folder:
        os.chmod(folder, 0o700)
        for mode in ("off", "on"):
            env = {**os.environ, "MEMFOLD_WARM": mode, "MEMFOLD_WARM_DIR": folder}
            if mode == "on":
                subprocess.run([*script, "warm", "start"], env=env, check=True,
                               capture_output=True)
                subprocess.run(base, env=env, check=True, capture_output=True)
            try:
                for _ in range(runs):
                    for name, argv in commands.items():
                        key = name if mode == "off" else f"warm {name}"
                        samples.setdefault(key, []).append(timed(functools.partial(
                            subprocess.run, argv, env=env, check=True, capture_output=True)))
            finally:
                if mode == "on":
                    subprocess.run([*script, "warm", "stop"], env=env, capture_output=True)
    return {name: summary(found) for name, found in samples.items() if found}


def run_benchmark(root: Path, facts: int, items: int, seed: int, repeat: int, cli: int,
                  log: Log) -> Json:
    """Build the workspace at `root` (unless one with a journal is there), then time review."""
    now = f"{corpus.END_DAY.isoformat()}T18:00:00+00:00"
    journal = root / "journal.jsonl"
    made = {"reused": str(root)} if journal.exists() and journal.stat().st_size else \
        build(root, facts, items, seed, log)
    log(f"timing review in-process ({repeat} rounds)")
    handle, chosen = in_process(root, now, repeat)
    log(f"timing `memfold review --json` as a command ({cli} runs each)")
    command = whole_process(root, now, str(chosen["entity"]["entity"]), cli)
    return {"benchmark": "review", "environment": environment(), "seed": seed,
            "facts_asked": facts, "items_asked": items, "now": now, "workspace": made,
            "variants": chosen, "in_process": handle, "command": command,
            "target_ms": TARGET_MS,
            "under_target": {f"in_process.{n}": v["p50_ms"] < TARGET_MS
                             for n, v in handle.items()}
            | {f"command.{n}": v["p50_ms"] < TARGET_MS for n, v in command.items()}}


def table(result: Json) -> list[str]:
    made = result["workspace"]
    lines = [f"workspace: {made.get('typed_facts', '?'):,} typed facts, events "
             f"{made.get('events', {})}, rebuild {made.get('rebuild_s', '?')} s"
             if "typed_facts" in made else f"workspace reused: {made.get('reused')}",
             f"  {'review':<28}{'items':>8}{'p50 ms':>10}{'p95 ms':>10}"]
    for name, found in result["in_process"].items():
        args = " ".join(f"--{k} {v}" for k, v in result["variants"][name].items())
        lines.append(f"  {('in-process ' + args).strip():<28}{found['items']:>8}"
                     f"{found['p50_ms']:>10.1f}{found['p95_ms']:>10.1f}")
    for name, found in result["command"].items():
        label = ("warm " if name.startswith("warm") else "") + "command" + (
            " --entity" if name.endswith("entity") else "")
        lines.append(f"  {label:<28}{'':>8}{found['p50_ms']:>10.1f}{found['p95_ms']:>10.1f}")
    return lines


@click.command("review")
@click.option("--facts", default=100_000, show_default=True, type=click.IntRange(min=100),
              help="About how many Retain bullets the workspace holds.")
@click.option("--items", type=click.IntRange(min=1), default=None,
              help="Review items the generated journal raises.  [default: facts / 10]")
@click.option("--seed", default=0, show_default=True, help="Seed of the corpus and journal.")
@click.option("--repeat", default=21, show_default=True, type=click.IntRange(min=1, max=500),
              help="Rounds of in-process calls (each variant once a round).")
@click.option("--cli", "cli_runs", default=5, show_default=True,
              type=click.IntRange(min=0, max=50), help="Runs of the command, each variant.")
@click.option("--keep", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Build the workspace here and keep it; a workspace already there with a "
              "journal is measured again as it is.")
@output_options("benchmarks/results/review-scale.json")
def review_command(facts: int, items: int | None, seed: int, repeat: int, cli_runs: int,
                   keep: Path | None, out: Path, as_json: bool) -> None:
    """`memfold review` at scale: p50/p95 of the list, --entity, --rule and --since.

    A generated workspace of about --facts bullets with a journal of the judge's decisions
    (supersedes, open conflicts, some settled), rebuilt once, then review timed through an
    open handle and as a command.  Target: under 100 ms at 100,000 facts.

    \b
    Example:
      memfold bench review --facts 100000 --out /tmp/review.json
    """
    log = lambda message: click.echo(message, err=True)  # noqa: E731
    temporary = None
    if keep is None:
        temporary = Path(tempfile.mkdtemp(prefix="memfold-bench-review-"))
        root = temporary / "ws"
    else:
        root = keep
    try:
        result = run_benchmark(root, facts, items or max(1, facts // 10), seed, repeat,
                               cli_runs, log)
    finally:
        if temporary is not None:
            shutil.rmtree(temporary, ignore_errors=True)
    if save_result(result, out, as_json=as_json):
        return
    click.echo(f"memfold bench review: seed {seed}, {repeat} rounds, {cli_runs} runs")
    for line in table(result):
        click.echo(line)
    click.echo(f"wrote {out}", err=True)
