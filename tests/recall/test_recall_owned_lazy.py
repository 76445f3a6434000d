"""A question that asks neither where its subject lives nor where it works costs `recall.owned`
nothing: it reads no slot of the question and loads none of the judge's lexicons, so a
one-shot `memfold recall` of any other question starts no faster or slower for it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from timeline import retain

from memfold import Memory

NOW = "2026-01-05T09:00:00"
# a fresh process recalls on an index made before, and lists the judge's modules it loaded
RECALL = ("import sys; from memfold import Memory\n"
          "with Memory.open(sys.argv[1], now=sys.argv[2]) as m:\n"
          "    m.recall(sys.argv[3])\n"
          "print(' '.join(sorted(n for n in sys.modules\n"
          "                     if n.startswith('memfold.lifecycle.judge'))))")


def judge_modules(workspace: Path, question: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", RECALL, str(workspace), NOW, question],
                         capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_a_question_of_no_home_or_job_loads_no_judge_reader(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-01-05", "W @Ana: Decided the garden budget is £400.")
        retain(memory, "2025-02-05", "W @me: Moved to Porto.")
    assert "memfold.lifecycle.judge.readers" not in judge_modules(
        workspace, "What did Ana decide about the garden budget?")
    assert "memfold.lifecycle.judge.readers" in judge_modules(workspace, "Where do I live?")
