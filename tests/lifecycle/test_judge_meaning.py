"""The judge's slot from the embedder (lifecycle/judge/meaning.py): a change said in other
words, which shares no slot word with the fact it changes, is offered as a conflict — with
the model of the embed extra, only when MEMFOLD_JUDGE_EMBED lets it, never as a supersede.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memfold import Memory, embed
from memfold.errors import BadInput
from memfold.lifecycle.judge.meaning import MEANING, MeaningJudge, without_names
from memfold.lifecycle.judge.rules import RuleJudge
from memfold.values import Fact

OLD_DAY, NEW_DAY = "2025-01-10", "2025-06-10"
# (older, newer): the same slot, in other words; the rules alone say nothing of any
PARAPHRASED = [
    ("W @Sam: Sam smokes.", "W @Sam: Sam hasn't touched a cigarette since March."),
    ("W @Tobias: Tobias rents a flat in Leipzig.", "W @Tobias: Tobias now wakes up in Dresden."),
    ("W @Mina: Mina works for Hartwell Bank.",
     "W @Mina: Mina's paycheck comes from Orion Labs these days."),
]
# ("O @Nora: Nora prefers email for anything urgent." / "For urgent things, Nora wants a
# phone call now.") was here: the rules now offer it themselves (same topic, said to hold
# now; tests/lifecycle/test_judge_offers.py), so the model is not asked
# (older, newer): the same person, another slot — nothing to offer
UNRELATED = [
    ("W @Ingrid: Ingrid has a house in Bergen where she lives.",
     "W @Ingrid: Ingrid's favourite band is Röyksopp now."),
    ("W @Mina: Mina works for Hartwell Bank.", "W @Mina: Mina is allergic to peanuts."),
    ("W @Beacon: Beacon's CI runs on Jenkins.", "W @Beacon: Beacon's database is PostgreSQL."),
    ("W @Otto: Otto drives a Golf.", "W @Otto: Otto works from home on Fridays now."),
]


def retain_pair(root: Path, old: str, new: str):  # type: ignore[no-untyped-def]
    with Memory.open(root, watch=False) as memory:
        first = memory.retain(old, date=OLD_DAY, now=f"{OLD_DAY}T12:00:00+00:00").facts[0]
        result = memory.retain(new, date=NEW_DAY, now=f"{NEW_DAY}T12:00:00+00:00")
        status = memory.get(first.id, use=False).status
        queue = memory.review(now=f"{NEW_DAY}T13:00:00+00:00").items
    return first, result, status, queue


@pytest.mark.parametrize(("old", "new"), PARAPHRASED)
def test_a_change_in_other_words_is_offered_and_journaled(
        workspace: Path, monkeypatch: pytest.MonkeyPatch, old: str, new: str) -> None:
    monkeypatch.setenv("MEMFOLD_JUDGE_EMBED", "on")
    first, result, status, queue = retain_pair(workspace, old, new)
    assert status == "active" and not result.superseded  # offered, never superseded
    offered = [j for j in result.conflicts if j.id == first.id]
    assert offered and offered[0].reason.startswith(MEANING)
    items = [i for i in queue if i.older.id == first.id]
    assert items and items[0].kind == "conflict" and items[0].rule == "meaning"


@pytest.mark.parametrize(("old", "new"), PARAPHRASED[:2])
def test_without_the_embedder_the_rules_alone_say_nothing(
        workspace: Path, monkeypatch: pytest.MonkeyPatch, old: str, new: str) -> None:
    monkeypatch.setenv("MEMFOLD_JUDGE_EMBED", "off")
    _, result, status, queue = retain_pair(workspace, old, new)
    assert status == "active" and not result.conflicts and not queue


def test_auto_asks_the_model_only_in_a_workspace_with_vectors(
        workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMFOLD_JUDGE_EMBED", raising=False)  # auto, the default
    _, result, _, _ = retain_pair(workspace, *PARAPHRASED[0])
    assert not result.conflicts  # no vectors: recall is lexical, and so is the judge


def test_auto_asks_the_model_once_a_long_lived_process_gains_vectors(
        workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # one Memory, as a server or an agent host keeps it: its first retain finds no vectors,
    # a semantic recall makes them, and the next retain is judged by meaning too
    monkeypatch.delenv("MEMFOLD_JUDGE_EMBED", raising=False)  # auto, the default
    old, new = PARAPHRASED[1]
    with Memory.open(workspace, watch=False) as memory:
        first = memory.retain(old, date=OLD_DAY, now=f"{OLD_DAY}T12:00:00+00:00").facts[0]
        memory.recall("where does Tobias live", mode="hybrid")
        result = memory.retain(new, date=NEW_DAY, now=f"{NEW_DAY}T12:00:00+00:00")
    assert [j.id for j in result.conflicts if j.reason.startswith(MEANING)] == [first.id]


@pytest.mark.parametrize(("old", "new"), UNRELATED)
def test_another_slot_of_the_same_subject_is_not_offered(
        workspace: Path, monkeypatch: pytest.MonkeyPatch, old: str, new: str) -> None:
    monkeypatch.setenv("MEMFOLD_JUDGE_EMBED", "on")
    _, result, _, queue = retain_pair(workspace, old, new)
    assert not result.conflicts and not queue


@pytest.mark.parametrize("new", [
    "W @Ingrid: Ingrid might move to Reykjavik next year.",  # a plan
    "W @Ingrid: Ingrid also has a cabin in Reykjavik.",  # an addition
    "B @Ingrid: Flew to Reykjavik with Ingrid for a conference.",  # an experience
])
def test_guarded_or_history_is_not_offered(workspace: Path, monkeypatch: pytest.MonkeyPatch,
                                           new: str) -> None:
    monkeypatch.setenv("MEMFOLD_JUDGE_EMBED", "on")
    _, result, _, _ = retain_pair(workspace, PARAPHRASED[0][0], new)
    assert not any(j.reason.startswith(MEANING) for j in result.conflicts)


def test_a_bad_setting_is_refused_on_opening(workspace: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMFOLD_JUDGE_EMBED", "sometimes")
    with pytest.raises(BadInput, match="MEMFOLD_JUDGE_EMBED"):
        Memory.open(workspace, watch=False)


def fact(fact_id: str, content: str, day: int, who: str = "Tobias") -> Fact:
    return Fact(id=fact_id, kind="world", content=content, path="memory/x.md", line=day,
                end_line=day, entities=(who,))


def test_at_most_one_older_fact_is_offered_and_the_rules_come_first() -> None:
    judge = MeaningJudge(RuleJudge(), embed.shared_embedder())
    flat = fact("a", "Tobias rents a flat in Leipzig.", 1)
    job = fact("b", "Tobias works for Hartwell Bank.", 2)
    band = fact("c", "Tobias's favourite band is Röyksopp.", 3)
    new = fact("n", "Tobias now wakes up in Dresden.", 4)
    assert RuleJudge().weigh(new, [flat, job, band]) == []
    verdicts = judge.weigh(new, [flat, job, band])
    assert [(v.id, v.supersedes) for v in verdicts] == [("a", False)]
    assert verdicts[0].reason.startswith(f"{MEANING}: home")
    moved = fact("m", "Tobias moved from Leipzig to Dresden.", 5)  # the rules' own word
    assert judge.weigh(moved, [flat]) == RuleJudge().weigh(moved, [flat])


def test_the_names_are_taken_out_before_the_model_reads_a_fact() -> None:
    assert without_names(fact("a", "@Ingrid's flat is in Bergen; Ingrid likes it.", 1,
                              "Ingrid")) \
        == "flat is in Bergen; likes it."


def test_a_value_stated_without_a_word_of_change_is_not_asked_of_the_model() -> None:
    judge = MeaningJudge(RuleJudge(), embed.shared_embedder())
    home = fact("a", "Tobias lives in Bergen.", 1)
    part = fact("n", "Tobias lives in the Sandviken part of Bergen.", 2)
    assert judge.weigh(part, [home]) == RuleJudge().weigh(part, [home])
    assert judge.weigh(fact("m", "Tobias now wakes up in Dresden.", 3), [home])
