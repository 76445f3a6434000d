"""Supersede judges: which older facts a newer fact replaces (see docs/format.md).

    base    the Judge protocol and its Verdict
    rules   RuleJudge, the default: offline and deterministic
"""

from __future__ import annotations

from .base import Judge, Verdict
from .rules import AGREES, OPPOSES, REVERSES, RuleJudge, change_phrase, stance

__all__ = ["AGREES", "OPPOSES", "REVERSES", "Judge", "RuleJudge", "Verdict", "change_phrase",
           "stance"]
