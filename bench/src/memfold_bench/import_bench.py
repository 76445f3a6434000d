"""`memfold bench import`: how long `memfold import` takes on a generated Obsidian vault (5,000
notes by default: people with aliases, projects, daily notes, each with `[[links]]` and
`#tags`), and a second import of the same vault, which must add nothing; then a generated
JSONL of facts (each through retain and the judge) the same way.  The issue's target: a
5,000-note vault imported in under a minute.
"""

from __future__ import annotations

import json
import random
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import click

from memfold.memory import Memory

from .index_bench import environment, output_options, save_result
from .judge_bench import noon

Json = dict[str, object]
_FIRST = ("Ana", "Ben", "Chen", "Dara", "Eli", "Farah", "Gus", "Hana", "Ines", "Jon", "Kai",
          "Lena", "Milo", "Noor", "Omar", "Pia", "Quinn", "Rosa", "Sami", "Tove")
_TOPICS = ("relay", "garden", "ledger", "atlas", "harbor", "beacon", "orbit", "quartz")
_TAGS = ("travel", "work/meeting", "idea", "reading", "health", "family", "todo")


def generate_vault(root: Path, notes: int, seed: int = 0) -> None:
    """`notes` notes under root: a tenth people (front-matter aliases), a tenth projects
    (front-matter tags), the rest daily notes linking them, every note with a few #tags."""
    rng = random.Random(seed)
    (root / ".obsidian").mkdir(parents=True)
    people = [f"{rng.choice(_FIRST)} {chr(65 + n % 26)}{n}" for n in range(max(1, notes // 10))]
    projects = [f"{rng.choice(_TOPICS)}-{n}" for n in range(max(1, notes // 10))]
    written = 0
    for n, person in enumerate(people):
        _note(root / "People" / f"{person}.md", f"---\naliases: [{person.split()[0]}{n}]\n---\n"
              f"# {person}\n\nWorks on [[{rng.choice(projects)}]]. #{rng.choice(_TAGS)}\n")
        written += 1
    for project in projects:
        _note(root / "Projects" / f"{project}.md", f"---\ntags: [project]\n---\n# {project}\n\n"
              f"Led by [[{rng.choice(people)}]] with [[{rng.choice(people)}|a friend]].\n")
        written += 1
    day = date(2024, 1, 1)
    for n in range(notes - written):
        when = day + timedelta(days=n)
        _note(root / "Daily" / f"{when.isoformat()}.md",
              f"# {when.isoformat()}\n\nMet [[{rng.choice(people)}]] about "
              f"[[{rng.choice(projects)}]]. #{rng.choice(_TAGS)} #{rng.choice(_TAGS)}\n\n"
              + "Notes from the day, written in full sentences. " * rng.randrange(2, 12) + "\n")


def _note(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def generate_facts(path: Path, facts: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    start = date(2024, 1, 1)
    with path.open("w", encoding="utf-8") as out:
        for n in range(facts):
            person = f"{rng.choice(_FIRST)}{n % 200}"
            out.write(json.dumps({
                "text": f"Works on the {rng.choice(_TOPICS)} project, item {n}.",
                "date": (start + timedelta(days=n % 700)).isoformat(),
                "kind": rng.choice("WWBO"), "entities": [person]}) + "\n")


def _twice(root: Path, source: Path) -> Json:
    Memory.init(root)
    now = noon(date(2026, 1, 1))
    timings, results = [], []
    for _ in range(2):
        started = time.perf_counter()
        with Memory.open(root, now=now) as memory:
            results.append(memory.import_source(source))
        timings.append(time.perf_counter() - started)
    first, second = results
    return {"read": first.read, "facts": first.facts, "pages": first.pages,
            "entities": first.entities, "problems": len(first.problems),
            "first_seconds": round(timings[0], 2), "second_seconds": round(timings[1], 2),
            "second_added": second.facts + second.pages + second.entities + second.updated,
            "under_a_minute": timings[0] < 60}


@click.command("import")
@click.option("--notes", default=5000, show_default=True, type=click.IntRange(min=1),
              help="Notes in the generated vault.")
@click.option("--facts", default=2000, show_default=True, type=click.IntRange(min=0),
              help="Facts in the generated JSONL (0: skip).")
@click.option("--seed", default=0, show_default=True, help="Seed of the generated sources.")
@output_options("benchmarks/results/import.json")
def import_command(notes: int, facts: int, seed: int, out: Path, as_json: bool) -> None:
    """Time `memfold import` on a generated vault and JSONL of facts, each imported twice.

    \b
    Example:
      memfold bench import --notes 5000
    """
    result: Json = {"benchmark": "import",
                    "checked_at": datetime.now(UTC).isoformat(timespec="seconds"),
                    "parameters": {"notes": notes, "facts": facts, "seed": seed},
                    "environment": environment()}
    with tempfile.TemporaryDirectory(prefix="memfold-import-bench-") as tmp:
        vault = Path(tmp) / "Vault"
        generate_vault(vault, notes, seed)
        result["vault"] = {"notes": notes, **_twice(Path(tmp) / "ws", vault)}
        if facts:
            source = Path(tmp) / "facts.jsonl"
            generate_facts(source, facts, seed)
            result["jsonl"] = {"facts_in": facts, **_twice(Path(tmp) / "ws2", source)}
    if save_result(result, out, as_json=as_json):
        return
    for key in ("vault", "jsonl"):
        if key in result:
            s = result[key]
            assert isinstance(s, dict)
            click.echo(f"{key}: {s['read']:,} read -> {s['pages']:,} pages, {s['entities']:,} "
                       f"entity pages, {s['facts']:,} facts in {s['first_seconds']:.1f} s; "
                       f"again in {s['second_seconds']:.1f} s adding {s['second_added']}")
    click.echo(f"wrote {out}", err=True)
