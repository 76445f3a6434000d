"""`memfold bench personal-years`: `bench personal` over several people's years at once, the
way a split is reported (docs/benchmarks.md): recall's P@1 / R@5 / R@10 per category as the
mean of the years (each year counts once, whatever its number of questions) beside the plain
BM25 floor's, never-stated questions pooled, and the judge's automatic supersedes and
offers pooled over the years against each writer's marked changes — a year's
`NAME-changes.json` beside its `NAME.json` is read when it exists.

With `--blind` nothing of any question, answer, supersede or miss is kept: only the
figures, for years nobody may read.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click

from .index_bench import environment, output_options, save_result
from .locomo import mean
from .personal_bench import CATEGORIES, FLOOR, NEGATIVE, run_benchmark
from .timeline import K, blind_option, check_modes, mode_option, modes_for, pct

Json = dict[str, Any]
METRICS = ("p@1", "r@5", "r@10")
# the judge's counts summed over the years (`changes_score.score`)
COUNTED = ("automatic_supersedes", "as_marked", "through_another_fact", "unmarked", "offers",
           "offers_of_unmarked", "changes")


def changes_beside(path: Path) -> Path | None:
    """The year's marked changes, `NAME-changes.json` beside `NAME.json`, if there."""
    beside = path.with_name(f"{path.stem}-changes.json")
    return beside if beside.is_file() else None


def year_means(results: Sequence[Json]) -> Json:
    """Per category and system, the mean over the years that ask it of P@1, R@5, R@10 (for
    never-stated questions: of the shares answered with nothing, or nothing but weak hits),
    with the number of years and of questions."""
    out: Json = {}
    for name in ("overall", *CATEGORIES):
        groups = [r["categories"][name] for r in results if name in r["categories"]]
        if not groups:
            continue
        systems = [s for s in groups[0] if isinstance(groups[0][s], dict)]
        keys = ("nothing", "nothing_or_weak") if name == NEGATIVE else METRICS
        out[name] = {"years": len(groups), "questions": sum(g["questions"] for g in groups),
                     "answerable": sum(g["answerable"] for g in groups)}
        for s in systems:
            out[name][s] = {k: mean([g[s][k] for g in groups if g[s].get(k) is not None])
                            for k in keys}
    return out


def pooled_lifecycle(results: Sequence[Json]) -> Json | None:
    """The judge against the writers' marks, summed over the years that have them."""
    scored = [(r["judged"]["lifecycle"], r["dataset"]["facts"]) for r in results
              if "lifecycle" in r["judged"]]
    if not scored:
        return None
    out: Json = {k: sum(c[k] for c, _ in scored) for k in COUNTED}
    out["years"], out["facts"] = len(scored), sum(n for _, n in scored)
    made = out["automatic_supersedes"]
    out["right"] = (out["as_marked"] + out["through_another_fact"]) / made if made else None
    out["unmarked_per_1000_facts"] = 1000 * out["unmarked"] / out["facts"]
    for share in ("changes_superseded", "changes_superseded_or_offered"):
        out[share] = (sum(c[share] * c["changes"] for c, _ in scored) / out["changes"]
                      if out["changes"] else None)
    return out


def run_years(paths: Sequence[Path], modes: Sequence[str], *, k: int = K,
              blind: bool = False) -> Json:
    results = [run_benchmark(p, modes, k=k, blind=blind, changes_path=changes_beside(p))
               for p in paths]
    return {
        "benchmark": "personal-years",
        "checked_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "parameters": {"k": k, "mode": modes[0] if len(modes) == 1 else list(modes),
                       "blind": blind,
                       "means": "each year's figure per category, then their mean: every "
                                "year counts once",
                       "lifecycle": "summed over the years with a NAME-changes.json"},
        "environment": environment(),
        "years": [{"file": r["dataset"]["file"], "sha256": r["dataset"]["sha256"],
                   "facts": r["dataset"]["facts"], "questions": r["dataset"]["questions"],
                   "overall": r["categories"]["overall"],
                   "lifecycle": r["judged"].get("lifecycle")} for r in results],
        "means": year_means(results),
        "lifecycle": pooled_lifecycle(results),
        "seconds": sum(r["seconds"] for r in results),
    }


def table(result: Json) -> list[str]:
    """A row per category: each memfold system's mean P@1 / R@5 / R@10, the floor's beside;
    never-stated questions as answered with nothing / nothing or only weak hits."""
    means = result["means"]
    systems = [s for s in means["overall"] if isinstance(means["overall"][s], dict)
               and s != FLOOR]
    lines = [f"{'category':<12}{'years':>6}{'n':>6}  "
             + "  ".join(f"{s + ' P@1 / R@5 / R@10':<32}" for s in [*systems, FLOOR])]
    for name, group in means.items():
        n = group["questions"] if name == NEGATIVE else group["answerable"]
        keys = ("nothing", "nothing_or_weak") if name == NEGATIVE else METRICS
        cells = [" / ".join(pct(group[s][k]) for k in keys) for s in [*systems, FLOOR]]
        lines.append(f"{name:<12}{group['years']:>6}{n:>6}  "
                     + "  ".join(f"{c:<32}" for c in cells))
    if c := result["lifecycle"]:
        lines.append(f"judge over {c['years']} years, {c['facts']} facts, {c['changes']} marked "
                     f"changes: {c['automatic_supersedes']} automatic supersedes, "
                     f"{pct(c['right'])}% right, {c['unmarked']} of facts not marked changed "
                     f"({c['unmarked_per_1000_facts']:.1f} per 1,000 facts); changes "
                     f"superseded {pct(c['changes_superseded'])}%, superseded or offered "
                     f"{pct(c['changes_superseded_or_offered'])}%")
    return lines


@click.command("personal-years")
@click.argument("paths", metavar="FILE.json...", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@mode_option
@blind_option
@click.option("--k", "k", default=K, show_default=True, type=click.IntRange(min=10),
              help="Results asked of recall per question.")
@output_options("benchmarks/results/personal-years.json")
def personal_years_command(paths: tuple[Path, ...], mode: str, blind: bool, k: int, out: Path,
                           as_json: bool) -> None:
    """`bench personal` over several years, reported as a split: the mean of the years.

    Each FILE.json is replayed as `memfold bench personal` replays it, in its own
    workspace; a NAME-changes.json beside it scores the judge too, pooled over the years.
    Per category, P@1 / R@5 / R@10 in percent as the mean of the years, the plain BM25
    floor beside; never-stated questions as the shares answered with nothing / nothing but
    weak hits.

    \b
    Example:
      memfold bench personal-years benchmarks/data/personal-tune1{4,5,6}.json
    """
    modes = modes_for(mode)
    check_modes(modes)
    result = run_years(paths, modes, k=k, blind=blind)
    if save_result(result, out, as_json=as_json):
        return
    click.echo(f"memfold bench personal-years: {len(paths)} years; mode {mode}")
    for line in table(result):
        click.echo(line)
    click.echo(f"wrote {out}", err=True)
