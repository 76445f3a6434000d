"""A question that asks for a view without an opinion word ("how am I finding …", "was it
worth it", "which is better") is read as one (`recall.query.OPINION_ASKED`), so the view
ranks first; a record ("my best parkrun"), health ("feeling better") and a price ("the
interest rate") are not views."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from timeline import ids, retain

from memfold import Memory
from memfold.recall.query import plan_query

VIEWS = ["How am I finding the night classes?", "Was the heat pump worth the money?",
         "Where's the best flat white in Leith?", "What did I make of the Camino?",
         "What's my take on the new rota?", "Whose tacos do I rate the highest?",
         "How do I take my coffee these days?", "Am I happy with the new bike?",
         "Do I regret selling the van?", "Would I rather take the train or drive?",
         "Do I miss the old office?", "Was Leith a good choice of place to live?"]
NOT_VIEWS = ["What's my best parkrun time?", "Is Dad feeling better?",
             "What interest rate are we paying?", "Where does Ilse work now?",
             "How do I get to work?", "What's Keira's best 100 m time?"]


@pytest.mark.parametrize("question", VIEWS)
def test_a_view_asked_without_an_opinion_word(question: str) -> None:
    assert plan_query(question, today=date(2026, 1, 5)).opinion


@pytest.mark.parametrize("question", NOT_VIEWS)
def test_a_record_health_or_price_is_no_view(question: str) -> None:
    assert not plan_query(question, today=date(2026, 1, 5)).opinion


# (the facts as (date, bullet), the last of them the view; the question; asked when)
ANSWERED = [
    ([("2025-03-03", "B @me: Started Mandarin night classes at the community college, "
                     "Tuesdays and Thursdays."),
      ("2025-04-15", "W @me: The Mandarin night classes moved to room 204 this term."),
      ("2025-05-20", "O @me: Mandarin tones are harder than Japanese ever was, but the "
                     "classes are the best part of my week.")],
     "How am I finding the Mandarin night classes?", "2025-06-01T09:00:00"),
    ([("2025-02-10", "B @me: Had a heat pump fitted by Warmfront for £11,200 once the grant "
                     "money came through."),
      ("2025-06-02", "W @me: The heat pump is serviced every June by Warmfront."),
      ("2025-12-01", "O @me: Our heating bills halved this winter; the heat pump paid for "
                     "itself faster than I expected.")],
     "Was the heat pump worth the money?", "2026-01-05T09:00:00"),
]


@pytest.mark.parametrize(("facts", "question", "now"), ANSWERED,
                         ids=[case[1] for case in ANSWERED])
def test_the_view_answers_first(workspace: Path, facts: list[tuple[str, str]],
                                question: str, now: str) -> None:
    with Memory.open(workspace) as memory:
        written = [retain(memory, day, bullet) for day, bullet in facts]
        assert ids(memory.recall(question, now=now))[0] == written[-1]
