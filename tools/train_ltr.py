"""Train, score and write the weights of recall's learned order (`memfold.recall.learned`).

Input: JSON lines from `memfold bench ltr-features` (one per question and mode: recall's
`learned.TOP` best in its own order, each candidate's features, the question's flags, the
gold keys).  The model is linear over `learned.expanded` features (each standardised on the
training lines, folded back into the written weights), trained with numpy alone by a
listwise softmax loss over each question's candidates (the gold facts among them share the
target), L2-regularised, full-batch Adam.  Questions with no gold fact among the candidates
teach nothing and are left out of training, never out of scoring.

    train_ltr.py score --train T.jsonl --validate V.jsonl [--l2 ..] [--top ..] [--base-only]
        P@1 / R@5 by category of recall's order (a) and the learned one (b) on V,
        the same candidates;
    train_ltr.py cv --train T.jsonl [--folds 5]       leave-some-years-out on T;
    train_ltr.py write --train T.jsonl [--mode lexical] [...]   train on T and write the
        weights into src/memfold/recall/learned_weights.py (the only way they are made).

The figures and the files trained on are in docs/benchmarks.md, "ltr41" and "The learned
order on by default".
"""

from __future__ import annotations

import argparse
import json
import pprint
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
from memfold.recall import learned  # noqa: E402

Json = dict[str, Any]
WEIGHTS = Path(__file__).resolve().parent.parent / "src/memfold/recall/learned_weights.py"
CATEGORIES = ("single", "multi", "temporal", "preference", "current")


def read(paths: Sequence[str], mode: str) -> list[Json]:
    lines = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            lines += [d for d in map(json.loads, handle) if d["mode"] == mode]
    return lines


def vectors(line: Json, top: int, base_only: bool) -> list[dict[str, float]]:
    rows = [{n: v for n, v in r.items() if n not in DROPPED} for r in line["rows"][:top]]
    return [dict(r) if base_only else learned.expanded(r, line["shape"]) for r in rows]


class Data:
    """The questions as padded arrays: X (questions, top, features), mask, target."""

    def __init__(self, lines: list[Json], names: list[str], top: int, base_only: bool):
        index = {n: i for i, n in enumerate(names)}
        self.lines = lines
        self.X = np.zeros((len(lines), top, len(names)))
        self.mask = np.zeros((len(lines), top), dtype=bool)
        self.gold = np.zeros((len(lines), top))
        self.base = np.zeros((len(lines), top))  # recall's log share of the best score
        for q, line in enumerate(lines):
            gold = set(line["gold"])
            for c, row in enumerate(vectors(line, top, base_only)):
                self.mask[q, c] = True
                self.gold[q, c] = float(line["keys"][c] in gold)
                self.base[q, c] = line["rows"][c].get("score", 0.0)
                for name, value in row.items():
                    if name in index:
                        self.X[q, c, index[name]] = value


def names_of(lines: list[Json], top: int, base_only: bool) -> list[str]:
    seen: dict[str, int] = defaultdict(int)
    for line in lines:
        for row in vectors(line, top, base_only):
            for name, value in row.items():
                if value:
                    seen[name] += 1
    return sorted(n for n, count in seen.items() if count >= 5)


def _slopes(s: np.ndarray, mask: np.ndarray, gold: np.ndarray, target: np.ndarray,
            loss: str) -> np.ndarray:
    """The loss's gradient by each candidate's score: listwise (softmax cross-entropy
    against the gold share), pairwise (logistic over each gold, non-gold pair, averaged per
    question) or both summed."""
    out = np.zeros_like(s)
    if loss in ("listwise", "both"):
        z = np.where(mask, s, -np.inf)
        p = np.exp(z - z.max(1, keepdims=True))
        out += p / p.sum(1, keepdims=True) - target
    if loss in ("pairwise", "both"):
        pairs = (gold[:, :, None] > 0) & (gold[:, None, :] == 0) & mask[:, None, :]
        slope = pairs / (1 + np.exp(s[:, :, None] - s[:, None, :]))  # sigmoid(-(si - sj))
        slope /= np.maximum(pairs.sum((1, 2)), 1)[:, None, None]
        out += slope.sum(2) * -1 + slope.sum(1)
    return out


def train(data: Data, l2: float, loss: str = "listwise", steps: int = 400, cap: float = 0.0,
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Weights (on standardised features), their means and scales.  With `cap`, the score is
    recall's log share plus cap * tanh(z) (`learned.learned_score`)."""
    flat = data.X[data.mask]
    mean, scale = flat.mean(0), flat.std(0) + 1e-6
    keep = (data.gold.sum(1) > 0) & (data.mask.sum(1) > 1)
    X, mask, gold = (data.X[keep] - mean) / scale, data.mask[keep], data.gold[keep]
    base = data.base[keep]
    target = gold / gold.sum(1, keepdims=True)
    w = np.zeros(X.shape[2])
    m, v = np.zeros_like(w), np.zeros_like(w)
    n = len(X)
    for step in range(1, steps + 1):
        z = X @ w
        if cap:
            t = np.tanh(z)
            slope = _slopes(base + cap * t, mask, gold, target, loss) * cap * (1 - t ** 2)
        else:
            slope = _slopes(z, mask, gold, target, loss)
        grad = np.einsum("qc,qcf->f", slope, X) / n + 2 * l2 * w
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad ** 2
        w -= 0.05 * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    return w, mean, scale


def folded(w: np.ndarray, mean: np.ndarray, scale: np.ndarray, names: list[str],
           cap: float = 0.0) -> dict[str, float]:
    """The weights on raw features, with the bias the standardising left (which counts
    only under a cap) and the cap."""
    raw = w / scale
    out = {n: round(float(x), 5) for n, x in zip(names, raw, strict=True) if abs(x) > 1e-5}
    if cap:
        out.update(bias=round(float(-(mean * raw).sum()), 5), cap=cap)
    return out


def ranked_keys(line: Json, weights: dict[str, float] | None, top: int) -> list[str | None]:
    keys = line["keys"]
    if weights is None or len(keys) < 2:
        return keys
    rows = line["rows"][:top]
    tiers = [r.get("archived", 0) + 2 * r.get("gone", 0) for r in rows]
    score = [learned.learned_score(r, line["shape"], weights) for r in rows]
    order = sorted(range(len(rows)), key=lambda i: (tiers[i], -score[i], i))
    return [keys[i] for i in order] + keys[len(rows):]


def figures(lines: list[Json], weights: dict[str, float] | None,
            top: int) -> dict[str, tuple[float, float, int]]:
    """P@1, R@5 (percent) and the count of answerable questions, by category and overall."""
    groups: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for line in lines:
        gold = set(line["gold"])
        if not gold:
            continue
        keys = ranked_keys(line, weights, top)
        p1 = float(bool(keys) and keys[0] in gold)
        r5 = len(gold.intersection(k for k in keys[:5] if k)) / len(gold)
        for name in (line["category"], "overall"):
            groups[name].append((p1, r5))
    return {n: (100 * sum(p for p, _ in g) / len(g), 100 * sum(r for _, r in g) / len(g),
                len(g)) for n, g in groups.items()}


LOSS = "listwise"
DROPPED: set[str] = set()  # features left out of the model (--drop)
CAP = [0.0]  # --cap


def fit(lines: list[Json], l2: float, top: int, base_only: bool) -> dict[str, float]:
    names = names_of(lines, top, base_only)
    w, mean, scale = train(Data(lines, names, top, base_only), l2, LOSS, cap=CAP[0])
    return folded(w, mean, scale, names, CAP[0])


def table(before: dict[str, tuple[float, float, int]],
          after: dict[str, tuple[float, float, int]]) -> str:
    out = [f"{'category':<12}{'n':>5}   P@1 before -> after    R@5 before -> after"]
    for name in (*CATEGORIES, "overall"):
        if name in before:
            (p, r, n), (p2, r2, _) = before[name], after[name]
            out.append(f"{name:<12}{n:>5}   {p:5.1f} -> {p2:5.1f} ({p2 - p:+5.1f})"
                       f"   {r:5.1f} -> {r2:5.1f} ({r2 - r:+5.1f})")
    return "\n".join(out)


def by_file(lines: list[Json]) -> dict[str, list[Json]]:
    files: dict[str, list[Json]] = defaultdict(list)
    for line in lines:
        files[line["file"]].append(line)
    return files


def cv(lines: list[Json], folds: int, l2: float, top: int, base_only: bool) -> None:
    """Leave-some-years-out: each fold's files held out, trained on the rest."""
    files = sorted(by_file(lines))
    deltas = []
    for f in range(folds):
        held = set(files[f::folds])
        fitted = fit([d for d in lines if d["file"] not in held], l2, top, base_only)
        test = [d for d in lines if d["file"] in held]
        a = figures(test, None, top)["overall"]
        b = figures(test, fitted, top)["overall"]
        deltas.append((b[0] - a[0], b[1] - a[1]))
        print(f"fold {f}: {len(held)} files  P@1 {a[0]:.1f} -> {b[0]:.1f}   "
              f"R@5 {a[1]:.1f} -> {b[1]:.1f}")
    p, r = np.array(deltas).T
    print(f"mean delta P@1 {p.mean():+.2f} (sd {p.std():.2f}), R@5 {r.mean():+.2f} "
          f"(sd {r.std():.2f})")


def per_file(lines: list[Json], weights: dict[str, float], top: int) -> None:
    for name, rows in sorted(by_file(lines).items()):
        a, b = figures(rows, None, top)["overall"], \
            figures(rows, weights, top)["overall"]
        print(f"  {name:<24} P@1 {a[0]:5.1f} -> {b[0]:5.1f}   R@5 {a[1]:5.1f} -> {b[1]:5.1f}")


HEAD = '''"""The weights of recall's learned order (`recall.learned`), per recall mode: written by
tools/train_ltr.py (`write`), never by hand; NOTES says how and on what each mode's were
trained (docs/benchmarks.md, "ltr41").  A mode without weights keeps recall's own order."""
'''


def write(weights: dict[str, float], mode: str, note: str) -> None:
    namespace: dict[str, Any] = {}
    exec(WEIGHTS.read_text(encoding="utf-8"), namespace)  # noqa: S102 - our own module
    notes = {**namespace.get("NOTES", {}), mode: note}
    table_ = {**namespace["WEIGHTS"],
              mode: dict(sorted(weights.items(), key=lambda kv: (-abs(kv[1]), kv[0])))}
    WEIGHTS.write_text(f"{HEAD}\nNOTES: dict[str, str] = {pprint.pformat(notes, width=70)}\n\n"
                       f"WEIGHTS: dict[str, dict[str, float]] = {{\n"
                       + "".join(_packed(m, w) for m, w in table_.items()) + "}\n",
                       encoding="utf-8")


def _packed(mode: str, weights: dict[str, float]) -> str:
    """One mode's weights, as many to a line as fit in 96 characters."""
    lines, line = [], "       "
    for name, value in weights.items():
        item = f" {name!r}: {value!r},"
        if len(line) + len(item) > 96:
            lines.append(line)
            line = "       "
        line += item
    return f"    {mode!r}: {{\n" + "\n".join([*lines, line]) + "\n    },\n"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("action", choices=("score", "cv", "write"))
    parser.add_argument("--train", nargs="+", required=True)
    parser.add_argument("--validate", nargs="*", default=[])
    parser.add_argument("--mode", default="lexical")
    parser.add_argument("--l2", type=float, default=0.01)
    parser.add_argument("--top", type=int, default=learned.TOP)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--base-only", action="store_true")
    parser.add_argument("--cap", type=float, default=0.0,
                        help="bound the model's move: recall's log share + cap * tanh(z)")
    parser.add_argument("--drop", default="", help="features left out, comma-separated")
    parser.add_argument("--loss", choices=("listwise", "pairwise", "both"), default="listwise")
    parser.add_argument("--files", action="store_true", help="score: also per file")
    args = parser.parse_args(argv)
    global LOSS  # noqa: PLW0603 - the one setting every fit of a run shares
    LOSS = args.loss
    DROPPED.update(n for n in args.drop.split(",") if n)
    CAP[0] = args.cap
    lines = read(args.train, args.mode)
    if args.action == "cv":
        cv(lines, args.folds, args.l2, args.top, args.base_only)
        return
    weights = fit(lines, args.l2, args.top, args.base_only)
    if args.action == "write":
        files = ", ".join(sorted(by_file(lines)))
        write(weights, args.mode, f"{args.loss} loss, l2 {args.l2}, top {args.top}"
              f"{', without ' + args.drop if args.drop else ''}"
              f"{f', cap {args.cap}' if args.cap else ''}"
              f"{', base features only' if args.base_only else ''}; trained on "
              f"{len(lines)} questions of {files}")
        return
    test = read(args.validate, args.mode)
    print(table(figures(test, None, args.top),
                figures(test, weights, args.top)))
    if args.files:
        per_file(test, weights, args.top)
    print(f"{len(weights)} weights; largest:", sorted(weights.items(),
                                                     key=lambda kv: -abs(kv[1]))[:12])


if __name__ == "__main__":
    main()
