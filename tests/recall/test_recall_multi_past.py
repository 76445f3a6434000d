"""Questions told in the simple past ask about what held then (issue 30, multi): "who looked
after the dog when we went away" is answered by stays that have ended (`query.PAST`)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from memfold.memory import Memory
from memfold.recall.query import plan_query

TODAY = date(2025, 12, 1)


@pytest.mark.parametrize("question", [
    "Who looked after the dog when we went away?",
    "Which races I ran this year",
    "What happened with the boiler?",
    "Who walked Pepper in August?",
])
def test_a_question_in_the_simple_past_asks_about_the_past(question: str) -> None:
    assert plan_query(question, today=TODAY).history


@pytest.mark.parametrize("question", [
    "What breed is our dog?",  # "breed" is no past form
    "What speed does the train reach?",
    "Where do we live?",
    "Who is my manager?",
])
def test_a_question_in_the_present_does_not(question: str) -> None:
    assert not plan_query(question, today=TODAY).history


def test_stays_that_have_ended_answer_who_looked_after_the_dog(workspace: Path) -> None:
    """The stays were written with an end (`until=`), so by December they have expired;
    asked in the past tense, recall shows them above the dog's other facts."""
    with Memory.open(workspace) as memory:
        memory.retain(["W @Pepper: Pepper is our three-year-old border collie."],
                      now="2025-01-04T10:00:00")
        memory.retain(["W(until=2025-04-17) @Pepper @Tom: Tom is looking after Pepper while "
                       "we're in Belgium."], now="2025-04-12T10:00:00")
        memory.retain(["W @Pepper: Pepper eats grain-free kibble."], now="2025-05-01T10:00:00")
        memory.retain(["B @Pepper: Pepper had her booster jabs at the vets."],
                      now="2025-06-01T10:00:00")
        memory.retain(["W(until=2025-08-09) @Pepper @Sian: Sian is looking after Pepper while "
                       "we're in France."], now="2025-07-26T10:00:00")
        hits = memory.recall("Who looked after the dog when we went away?",
                             now="2025-12-01T09:00:00", k=5).hits
        shown = [h.fact.content for h in hits]
        assert shown[0].startswith(("Sian is looking", "Tom is looking"))
        assert any(s.startswith("Tom is looking") for s in shown[:2])


def test_a_doubled_consonant_reaches_the_verbs_irregular_forms() -> None:
    """"Where have I been wild swimming?" finds "Swam at Barry Island": swimming is a form
    of swim, whose past is swam (`lexicon.related`, `lexicon.undoubled`)."""
    from memfold import lexicon

    assert "swam" in lexicon.related("swimming", lexicon.FORM)
    assert "ran" in lexicon.related("running", lexicon.FORM)
    assert lexicon.undoubled("falling") == ()
    assert "swimming" not in lexicon.related("swimming", lexicon.FORM)
