"""Supersede judges: which older facts a newer fact replaces (see docs/format.md).

    base      the Judge protocol and its Verdict
    rules     RuleJudge, the default: offline and deterministic (reading: what a fact
              states; quantities: its numbers, versions, products; words: the lexicons)
    remote    OpenAIJudge, an optional model behind an OpenAI-compatible chat endpoint
              (imported by load_judge only when asked for)
    fallback  FallbackJudge: a judge that may fail, with another behind it, and notices
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING, Any

from memfold.config import JudgeSettings
from memfold.lifecycle.judge.base import Judge, Verdict

if TYPE_CHECKING:
    from memfold.lifecycle.judge.fallback import FallbackJudge, JudgeError
    from memfold.lifecycle.judge.rules import AGREES, OPPOSES, REVERSES, RuleJudge, stance

# The rule judge compiles its lexicons on import (tens of milliseconds): a process imports
# it only when it judges, not when it merely recalls.
_LAZY = {"FallbackJudge": "fallback", "JudgeError": "fallback", "AGREES": "rules",
         "OPPOSES": "rules", "REVERSES": "rules", "RuleJudge": "rules",
         "stance": "rules"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["AGREES", "OPPOSES", "REVERSES", "FallbackJudge", "Judge", "JudgeError",
           "RuleJudge", "Verdict", "load_judge", "stance"]


def load_judge(settings: JudgeSettings, *,
               notify: Callable[[str], None] | None = None) -> Judge | None:
    """The judge the settings (MEMFOLD_JUDGE*) ask for: None for the default rule judge,
    which the ledger makes itself; for "openai", the model judge with the rule judge
    behind it, so a judge that is down, slow or talking nonsense never blocks a retain
    (`notify` hears one line each time that happens)."""
    if settings.kind == "openai":
        from memfold.lifecycle.judge.fallback import FallbackJudge
        from memfold.lifecycle.judge.remote import (
            OpenAIJudge,  # urllib only when a model judge is asked for
        )
        from memfold.lifecycle.judge.rules import RuleJudge

        model = OpenAIJudge(url=settings.url, model=settings.model, key=settings.key,
                            timeout=settings.timeout)
        return FallbackJudge(model, RuleJudge(), notify=notify)
    return None
