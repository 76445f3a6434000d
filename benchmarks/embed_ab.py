"""Embedding rate of two memfold revisions on the same facts, runs alternated.

    python benchmarks/embed_ab.py --old a07d20f --new HEAD [--files 10000] [--sample 3000]
                                  [--rounds 3] [--out benchmarks/results/embed-ab.json]

Run from a git checkout with the embed extra installed.  Both revisions are exported
(`git archive`) to a temporary folder; the workspace of `memfold bench embed` is generated
and indexed once (this checkout's code), and a seeded uniform sample of its facts (every
kind: bullets, narrative chunks, sentences) is embedded by each revision's own
`VectorStore.update` into an empty folder, in a fresh process, old and new alternating
`--rounds` times.  Each run loads the packaged model first (timed apart) and reports the
texts it embedded over the seconds `update` took (matrix writes and fsyncs included).
A sample, not all of the ~180,000 facts: the old code embeds them in over an hour here.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

RUN = """
import json, pickle, sys, tempfile, time
from pathlib import Path
from memfold.embed import models
from memfold.embed.store import VectorStore
sample = pickle.loads(Path(sys.argv[1]).read_bytes())
class Facts:
    def fact_texts(self): return sample
    def facts_signature(self): return f"{len(sample)} sampled facts"
started = time.perf_counter(); embedder = models.load(); load = time.perf_counter() - started
with tempfile.TemporaryDirectory() as folder:
    store = VectorStore(Path(folder) / "vectors")
    started = time.perf_counter(); texts = store.update(Facts(), embedder)
    seconds = time.perf_counter() - started
print(json.dumps({"texts": texts, "seconds": seconds, "load_seconds": load}))
"""


def export(rev: str, into: Path) -> Path:
    into.mkdir()
    archive = subprocess.run(["git", "archive", rev, "src"], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into / "src"


def sample_facts(files: int, count: int, seed: int, tmp: Path) -> list[tuple[int, str]]:
    from memfold.memory import Memory
    from memfold_bench import corpus

    ws = tmp / "ws"
    corpus.generate(ws, files=files, seed=0)
    os.environ["MEMFOLD_RECALL_MODE"] = "lexical"  # index only: embed nothing yet
    with Memory.open(ws) as memory:
        memory.index(full=True)
    db = sqlite3.connect(ws / ".memory" / "index.sqlite")
    rows = db.execute("SELECT rowid, content FROM facts ORDER BY rowid").fetchall()
    db.close()
    return sorted(random.Random(seed).sample(rows, min(count, len(rows))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", required=True)
    parser.add_argument("--new", default="HEAD")
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--sample", type=int, default=3_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--out", default="benchmarks/results/embed-ab.json")
    args = parser.parse_args()
    revs = {name: subprocess.run(["git", "rev-parse", "--short", rev], check=True,
                                 capture_output=True, text=True).stdout.strip()
            for name, rev in (("old", args.old), ("new", args.new))}
    with tempfile.TemporaryDirectory(prefix="memfold-embed-ab-") as folder:
        tmp = Path(folder)
        trees = {name: export(rev, tmp / name) for name, rev in revs.items()}
        sample = sample_facts(args.files, args.sample, args.seed, tmp)
        sample_path = tmp / "sample.pkl"
        sample_path.write_bytes(pickle.dumps(sample))
        runs: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
        for round_ in range(args.rounds):
            for name in ("old", "new") if round_ % 2 == 0 else ("new", "old"):
                env = {**os.environ, "PYTHONPATH": str(trees[name])}
                out = subprocess.run([sys.executable, "-c", RUN, str(sample_path)], env=env,
                                     check=True, capture_output=True, text=True).stdout
                run = json.loads(out.strip().splitlines()[-1])
                run["facts_per_second"] = run["texts"] / run["seconds"]
                run["load_average"] = os.getloadavg()[0]
                runs[name].append(run)
                print(f"round {round_ + 1} {name} ({revs[name]}): "
                      f"{run['facts_per_second']:.1f} facts/s", flush=True)
    median = {name: statistics.median(r["facts_per_second"] for r in rs)
              for name, rs in runs.items()}
    result = {
        "benchmark": "embed-ab", "checked_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "revisions": revs, "files": args.files, "sample": len(sample), "seed": args.seed,
        "cpus": os.cpu_count(), "python": sys.version.split()[0], "runs": runs,
        "median_facts_per_second": median, "ratio": median["new"] / median["old"],
    }
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(f"median facts/s: old {median['old']:.1f}, new {median['new']:.1f}, "
          f"{result['ratio']:.2f}x; wrote {args.out}")


if __name__ == "__main__":
    main()
