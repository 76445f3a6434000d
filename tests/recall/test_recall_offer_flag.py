"""A change the judge only offers, unsure, is marked on its verdict (`Verdict.offer`), and
recall weighs it as no change wherever it asks the judge: `currency.outdated` and
`asked_slot.judge_says` (what `current_first` and `pulled.same_slot` read) agree."""

from __future__ import annotations

from datetime import date

from memfold.lifecycle.judge.rules import RuleJudge
from memfold.recall import currency
from memfold.recall.asked_slot import judge_says
from memfold.values import Fact


def _fact(fact_id: str, content: str, day: date) -> Fact:
    return Fact(id=fact_id, kind="world", content=content, path="memory/x.md", line=1,
                end_line=1, entities=("Mirelle",), params={}, confidence=1.0, importance=5,
                valid=None, day=day, explicit_id=None)


OLD = _fact("old", "Mirelle's mortgage application is under review.", date(2025, 1, 10))
# an interim then a final status with no topic in common: offered, never taken
OFFER = _fact("new", "Mirelle's passport renewal was approved.", date(2025, 3, 1))
# the same status read on a topic both name: a change the rule reads
CHANGE = _fact("new", "The bank approved Mirelle's mortgage application.", date(2025, 3, 1))


def test_the_judge_marks_an_offer_on_its_verdict() -> None:
    [offered] = RuleJudge().weigh(OFFER, [OLD])
    assert offered.offer and not offered.supersedes
    assert not any(v.offer for v in RuleJudge().weigh(CHANGE, [OLD]))


def test_an_offered_status_is_no_change_to_the_asked_slot_nor_to_currency() -> None:
    assert judge_says(OFFER, OLD, ["mirelle"]) == (False, None)
    assert not currency._outdates(OFFER, OLD)  # the two readings agree


def test_a_status_the_rule_reads_is_a_change_to_both() -> None:
    changed, guard = judge_says(CHANGE, OLD, ["mirelle"])
    assert changed and guard is None
    assert currency._outdates(CHANGE, OLD)
