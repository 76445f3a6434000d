"""Which newer fact answers a question about now in place of an older one
(`memfold.recall.asked_slot`) — and which is only news that shares a word with it: a verb
that frames the question ("what school does Ilse *go* to?"), a newer fact that holds fewer
of the question's words than the older one, a view written after a state, a superlative in
the perfect ("the best ... I've worked with"), which tells nothing held before, an amount
in the same currency (a repair "for 1,900 NOK" is no new salary), something left as it
is ("left rates on hold" ends nothing), a stay for an occasion ("back in Bergen for
Christmas" is a visit; "got an iPhone for Christmas" is still a change).  A newer fact
that tells the older state ended ("left the orchestra", "stepped off the board"), or
one in Vietnamese, is weighed by what it says, however few of the question's words it holds;
an end faded by decay still answers."""

from __future__ import annotations

from pathlib import Path

import pytest
from timeline import ids, retain

from memfold import Memory

# (the facts as (date, bullet), the question, asked when, the index of the fact first)
CASES = [
    ([("2025-09-02", "W @Ilse: Ilse is in second class at Brookfield Primary School."),
      ("2025-10-31", "B @Ilse: Ilse went trick-or-treating around the estate dressed as a "
                     "pumpkin.")],
     "What school does Ilse go to?", "2026-01-05T09:00:00", 0),
    ([("2025-09-20", "W @me: In Leith my weekly groceries come to about £85."),
      ("2025-11-12", "W @me: Switched from glasses to daily contact lenses; they cost £30 a "
                     "month now.")],
     "What do my weekly groceries cost?", "2026-01-05T09:00:00", 0),
    ([("2025-10-01", "W @Greta: Greta lives with us on Hawthorn Road now; the box room is her "
                     "bedroom."),
      ("2025-10-12", "O @me @Greta: Living with Greta is easier than I feared, and Sunday "
                     "baking together is nice now.")],
     "Where does Greta live now?", "2026-01-05T09:00:00", 0),
    ([("2025-09-10", "W @Anja: Anja Roth has been appointed as our new deputy head from the "
                     "spring term."),
      ("2025-11-10", "O @me @Anja: Anja is the most organised deputy I've ever worked with.")],
     "What do I think of Anja as deputy?", "2026-01-05T09:00:00", 1),
    ([("2024-05-01", "W @Ines: Ines plays viola in the Harbour City Orchestra."),
      ("2025-06-20", "B @Ines: Ines left the orchestra after the summer concert.")],
     "Does Ines still play in the orchestra?", "2025-09-01T09:00:00", 1),
    ([("2023-09-01", "W @Marit: Marit sits on the board of the Fjordside Trust."),
      ("2025-03-31", "B @Marit: Marit stepped off the Fjordside Trust board at the AGM.")],
     "Does Marit still sit on the Fjordside board?", "2025-10-06T09:00:00", 1),
    ([("2024-03-01", "W @Lan: Lan dùng điện thoại Samsung."),
      ("2025-01-10", "B @Lan: Lan đã chuyển sang dùng iPhone.")],
     "Lan dùng điện thoại gì?", "2025-02-01T09:00:00", 1),
    ([("2025-06-16", "W @me: My salary as a charge nurse is 48,200 NOK a month."),
      ("2025-12-03", "B @me: The laptop's keyboard was replaced at a shop in Grünerløkka "
                     "for 1,900 NOK.")],
     "What's my salary now?", "2026-01-05T09:00:00", 0),
    ([("2025-08-21", "W @Mortgage: Our mortgage repayments dropped to $3,010 a month."),
      ("2025-11-04", "B @Mortgage: The central bank left rates on hold, so our repayments "
                     "stay the same.")],
     "How much are our mortgage repayments at the moment?", "2026-01-05T09:00:00", 0),
    ([("2025-08-20", "W @Liesl: Liesl has moved to Tromsø."),
      ("2025-12-20", "B @Liesl: Liesl was back in Bergen for Christmas and came over to see "
                     "the house.")],
     "Where does Liesl live now?", "2026-01-05T09:00:00", 0),
]


@pytest.mark.parametrize(("facts", "question", "now", "first"), CASES,
                         ids=[case[1] for case in CASES])
def test_the_fact_that_answers_now_ranks_first(
        workspace: Path, facts: list[tuple[str, str]], question: str, now: str,
        first: int) -> None:
    with Memory.open(workspace) as memory:
        written = [retain(memory, day, bullet) for day, bullet in facts]
        assert ids(memory.recall(question, now=now))[0] == written[first]
