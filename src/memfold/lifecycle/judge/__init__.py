"""Supersede judges: which older facts a newer fact replaces (see docs/format.md).

    base      the Judge protocol and its Verdict
    rules     RuleJudge, the default: offline and deterministic (readers: which reader
              reads a fact, by its language; reading: what an English fact states, with
              the lexicons of words and the phrasings of phrases; reading_table: a fact in
              a language with a lexicon table, lexicon — Vietnamese: words_vi;
              quantities: numbers, versions, products; subjects: whose fact it is;
              apart: a shared word, slot noun or amount that is not one slot; offers and
              unread: changes it cannot read for sure, offered as conflicts; evidence:
              what a change a rule found lacks to be made by itself, with heads: the
              thing a noun phrase names; holders: a role handed to another person;
              about: what a fact is about, read by a small heuristic reader; same_thing
              and same_value: whether the thing a rule says changed is the same in both;
              ages: an age said of an entity; settled, moved_on and second_look: what the
              rules had no word on, looked at once more and offered)
    remote    OpenAIJudge, an optional model behind an OpenAI-compatible chat endpoint
              (imported by load_judge only when asked for)
    fallback  FallbackJudge: a judge that may fail, with another behind it, and notices

Judges register in the entry-point group `memfold.judges` (`JUDGES`), the two built-ins as a
plugin would: the object registered is called with the JudgeSettings and returns a Judge
(docs/plugins.md).  MEMFOLD_JUDGE names one.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING, Any

from memfold.config import JudgeSettings
from memfold.errors import BadInput, MemfoldError
from memfold.lifecycle.judge.base import Judge, Verdict
from memfold.plugins import Group

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


__all__ = ["AGREES", "JUDGES", "OPPOSES", "REVERSES", "FallbackJudge", "Judge", "JudgeError",
           "RuleJudge", "Verdict", "load_judge", "stance"]

JUDGES = Group("memfold.judges", "judge", (
    ("rules", "memfold.lifecycle.judge:rule_judge"),
    ("openai", "memfold.lifecycle.judge:openai_judge"),
))


def rule_judge(settings: JudgeSettings) -> Judge:
    """The built-in `rules` judge: offline and deterministic."""
    from memfold.lifecycle.judge.rules import RuleJudge

    return RuleJudge()


def openai_judge(settings: JudgeSettings) -> Judge:
    """The built-in `openai` judge: a model behind an OpenAI-compatible chat endpoint."""
    from memfold.lifecycle.judge.remote import OpenAIJudge  # urllib only when asked for

    return OpenAIJudge(url=settings.url, model=settings.model, key=settings.key,
                       timeout=settings.timeout)


def load_judge(settings: JudgeSettings, *,
               notify: Callable[[str], None] | None = None) -> Judge | None:
    """The judge the settings (MEMFOLD_JUDGE*) ask for: None for the default rule judge,
    which the ledger makes itself; for any other (the built-in "openai", or a plugin's), that
    judge with the rule judge behind it, so a judge that is down, slow, broken or talking
    nonsense never blocks a retain (`notify` hears one line each time that happens).
    BadInput names the registered judges when the name is not one of them."""
    if settings.kind == "rules":
        return None
    make = JUDGES.load(settings.kind)
    if make is None:
        raise BadInput(f"MEMFOLD_JUDGE={settings.kind!r} is not a judge memfold knows; "
                       f"use one of: {', '.join(JUDGES.names())}")
    try:
        judge: Judge = make(settings)
    except MemfoldError:
        raise
    except Exception as exc:  # a plugin's judge that cannot start: one line, not a traceback
        raise BadInput(f"the {settings.kind} judge cannot start: "
                       f"{type(exc).__name__}: {exc}") from None
    from memfold.lifecycle.judge.fallback import FallbackJudge
    from memfold.lifecycle.judge.rules import RuleJudge

    return FallbackJudge(judge, RuleJudge(), notify=notify)
