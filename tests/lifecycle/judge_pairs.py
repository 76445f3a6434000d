"""Two facts for the rule judge, as a test writes them: a bullet each, parsed as they would be
from a daily log (tests/lifecycle/test_judge*.py)."""

from __future__ import annotations

from memfold.lifecycle.judge import RuleJudge
from memfold.lifecycle.judge.base import Verdict
from memfold.values import Fact
from memfold.workspace.format import parse_document


def fact(bullet: str, n: int = 0, day: str = "2025-01-10") -> Fact:
    """The fact `bullet` states, written in the log of `day` with block id fact000n."""
    doc = parse_document(f"memory/{day}.md", f"# {day}\n\n## Retain\n- {bullet} ^fact{n:04d}\n")
    return doc.facts[0]


def verdicts(old: str, new: str) -> list[Verdict]:
    """The rule judge's verdicts on the newer bullet against the older one."""
    return RuleJudge().weigh(fact(new, 2), [fact(old, 1)])


def superseded(old: str, new: str) -> bool:
    return any(v.supersedes for v in verdicts(old, new))


def kept(old: str, new: str) -> bool:
    """The older fact stays active: no supersede, at most a conflict offered."""
    return not superseded(old, new)
