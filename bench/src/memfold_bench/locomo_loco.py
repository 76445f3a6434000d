"""Leave-one-conversation-out for `memfold bench locomo`: figures on conversations that no
choice was fitted to.

`--tune NAME=v1,v2,...` (names from `memfold.recall.ranking.TUNABLE`, repeatable) makes a grid of
settings; every conversation is asked under every setting.  For each conversation in turn,
each system's setting is the one with the best recall@k over the questions of the *other*
conversations (pooled; ties go to the earlier setting in the grid), and the figure reported
for that conversation is the one under that setting.  The held-out figures are then pooled
over all questions and averaged over conversations, overall and per category.

Without `--tune` nothing is fitted inside the bench: the grid is the library's defaults
alone, so the leave-one-conversation-out figures are each conversation's own figures (and
their pooled figure is the pooled figure).  The defaults themselves were chosen on this dev
split; the output says so.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import click

from memfold.recall.ranking import TUNABLE

Json = dict[str, Any]
Setting = dict[str, float]
HOW_FITTED = ("leave-one-conversation-out: for each conversation, each system's setting is "
              "the grid point with the best pooled recall@{k} on the other conversations "
              "(ties: the earlier point); the conversation is scored under it")
HOW_DEFAULTS = ("leave-one-conversation-out: nothing is fitted inside the bench (no --tune), so "
                "each conversation is scored with the library defaults and these are its own "
                "figures; the defaults were chosen on this dev split")


def parse_tune(specs: Sequence[str]) -> list[Setting]:
    """`["CONTEXT_SHARE=0.25,0.5", ...]` -> the grid of settings, in the order written; one
    empty setting (the defaults) when there is nothing to tune."""
    axes: list[list[tuple[str, float]]] = []
    for spec in specs:
        name, eq, values = spec.partition("=")
        name = name.strip().upper()
        if not eq or name not in TUNABLE:
            raise click.BadParameter(f"{spec!r}: expected NAME=v1,v2 with NAME one of "
                                     f"{', '.join(TUNABLE)}", param_hint="--tune")
        try:
            numbers = [float(v) for v in values.split(",") if v.strip()]
        except ValueError:
            raise click.BadParameter(f"{spec!r}: the values must be numbers",
                                     param_hint="--tune") from None
        if not numbers:
            raise click.BadParameter(f"{spec!r}: no values", param_hint="--tune")
        axes.append([(name, n) for n in dict.fromkeys(numbers)])
    return [dict(point) for point in itertools.product(*axes)]


def choose(scores: Sequence[float]) -> int:
    """The index of the best score; the earliest among equals."""
    return max(range(len(scores)), key=lambda i: (scores[i], -i))


def held_out(runs: Sequence[Mapping[str, Sequence[Any]]], grid: Sequence[Setting],
             cutoff: int, recall_at: Callable[[Sequence[str], frozenset[str], int], float],
             ) -> tuple[dict[str, list[Any]], Json]:
    """Per conversation, the outcomes under each system's held-out choice of setting.

    `runs[i][sample_id]` are the outcomes (`locomo.Outcome`) of setting `grid[i]`.  Returns
    the chosen outcomes by conversation (each `ranked[system]` from its chosen setting) and,
    per conversation and system, the setting chosen."""
    samples = list(runs[0])
    systems = list(runs[0][samples[0]][0].ranked) if runs[0][samples[0]] else []
    chosen: dict[str, list[Any]] = {}
    picks: Json = {}
    for sample in samples:
        ranked: dict[str, list[list[str]]] = {}
        picks[sample] = {}
        for system in systems:
            scores = [_pooled(run, sample, system, cutoff, recall_at) for run in runs]
            best = choose(scores)
            picks[sample][system] = grid[best]
            ranked[system] = [o.ranked[system] for o in runs[best][sample]]
        chosen[sample] = [_with_ranked(o, {s: ranked[s][n] for s in systems})
                          for n, o in enumerate(runs[0][sample])]
    return chosen, picks


def _pooled(run: Mapping[str, Sequence[Any]], left_out: str, system: str, cutoff: int,
            recall_at: Callable[[Sequence[str], frozenset[str], int], float]) -> float:
    values = [recall_at(o.ranked[system], o.evidence, cutoff)
              for sample, outcomes in run.items() if sample != left_out for o in outcomes]
    return sum(values) / len(values) if values else 0.0


def _with_ranked(outcome: Any, ranked: dict[str, list[str]]) -> Any:
    return type(outcome)(outcome.sample_id, outcome.category, outcome.evidence, ranked)


def mean_over(conversations: Sequence[Json], systems: Sequence[str], cutoffs: Sequence[int],
              ) -> Json:
    """Each system's recall@cutoff averaged over conversations (each counts once)."""
    out: Json = {}
    for system in systems:
        out[system] = {}
        for c in cutoffs:
            values = [conv[system][f"recall@{c}"] for conv in conversations
                      if conv.get(system, {}).get(f"recall@{c}") is not None]
            out[system][f"recall@{c}"] = sum(values) / len(values) if values else None
    return out


def loco_lines(loco: Json, k: int, percent: Callable[[float | None], str]) -> list[str]:
    """The held-out table: a row per conversation, then pooled and mean, R@k per system."""
    systems = [s for s in loco["pooled"] if s != "questions"]
    lines = [loco["how"].format(k=k),
             f"{'held out':<16}{'n':>5}" + "".join(f"{s + ' R@' + str(k):>15}" for s in systems)]
    rows = [(c["sample_id"], c) for c in loco["conversations"]]
    rows += [("pooled", loco["pooled"]), ("mean of convs", {**loco["mean"], "questions": ""})]
    for name, group in rows:
        cells = [percent(group[s][f"recall@{k}"]) for s in systems]
        lines.append(f"{name:<16}{group['questions']:>5}" + "".join(f"{c:>15}" for c in cells))
    return lines
