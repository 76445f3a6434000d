"""Three wordings the judge read as plans or as new values: a time clause in the past ("once
the screen died, she switched"), a habit begun ("started going to a new dentist") and a
return to a value ("is back on Postgres", "went back to Windows 10").  Each has its other
reading beside it: a condition still to be met is a plan, "going to" with a verb is one, and
a return to the value the older fact holds changes nothing."""

from __future__ import annotations

import pytest
from judge_pairs import fact, superseded, verdicts

from memfold.lifecycle.judge import words as w
from memfold.lifecycle.judge.reading import read

# (older, newer): the newer fact states a change that happened
CHANGES = [
    # "once" with a verb in the past: when it happened
    ("W @Ines: Ines uses a Dell XPS laptop.",
     "W @Ines: Once the Dell's screen died, Ines switched to a MacBook Air."),
    ("W @Pia: Pia lives in Graz.", "W @Pia: Once her contract ended, Pia moved to Vienna."),
    ("W @Pia: Pia lives in Graz.", "W @Pia: Pia moved to Vienna once the visa came through."),
    ("W @Omar: Omar drives a Golf.",
     "W @Omar: Omar sold the Golf once the gearbox failed, and now rides an e-bike."),
    # a habit begun: going to a person or a place
    ("W @Dev: Dev sees Dr. Hale for his teeth.",
     "W @Dev: Dev started going to Dr. Amara for his teeth instead of Dr. Hale."),
    ("W @Dev: Dev gets his hair cut at Fade Lab.",
     "W @Dev: Dev has been going to Luis, a barber near work, instead of Fade Lab."),
    # back to another value than the older fact's
    ("W @Mia: Mia's editor is VS Code.", "W @Mia: Mia's editor is back to Vim."),
    ("W @Sol: Sol's team is on MySQL.", "W @Sol: Sol's team is back on Postgres."),
    ("W @Ada: Ada uses Windows 11.", "W @Ada: Ada went back to Windows 10."),
    # back on something else, beside the change it says it returned from
    ("W @Noor: Noor is on sabbatical.",
     "W @Noor: Noor returned from sabbatical in May and is back on the platform team."),
]

# (older, newer): a plan, or the older fact's own value said again
NOT_CHANGES = [
    # a condition still to be met
    ("W @Pia: Pia lives in Graz.", "W @Pia: Pia moves to Vienna once we sell the flat."),
    ("W @Pia: Pia lives in Graz.", "W @Pia: Pia moves to Vienna once the lease is signed."),
    ("W @Pia: Pia lives in Graz.", "W @Pia: Pia moves to Vienna once I have found a job there."),
    # "going to" with a verb, or a trip to come
    ("W @Dev: Dev's gym is PureGym.",
     "W @Dev: Dev is going to switch to a climbing gym instead of PureGym."),
    ("W @Dev: Dev's gym is PureGym.",
     "W @Dev: Dev is going to a climbing gym instead of PureGym next month."),
]

# (older, newer): back to the very value the older fact holds
SAME_VALUE = [
    ("W @Mia: Mia's editor is Vim.", "W @Mia: Mia's editor is back to Vim."),
    ("W @Sol: Sol's team is on Postgres.", "W @Sol: Sol's team is back on Postgres."),
    ("W @Ada: Ada uses Windows 10.", "W @Ada: Ada went back to Windows 10."),
    ("W @Lorcan: Lorcan commutes by bus.", "W @Lorcan: Lorcan is back to commuting by bus."),
]


@pytest.mark.parametrize(("old", "new"), CHANGES)
def test_a_change_that_happened_supersedes(old: str, new: str) -> None:
    assert superseded(old, new)


@pytest.mark.parametrize(("old", "new"), NOT_CHANGES)
def test_a_plan_supersedes_nothing(old: str, new: str) -> None:
    assert not superseded(old, new)
    assert read(fact(new)).guard == "plan"


@pytest.mark.parametrize(("old", "new"), SAME_VALUE)
def test_back_to_the_same_value_is_not_even_a_conflict(old: str, new: str) -> None:
    assert verdicts(old, new) == []


@pytest.mark.parametrize("text", [
    "W @Lorcan: After his bike was stolen, Lorcan is back to taking the bus.",
    "W @Thea: Thea went back to her old dentist.",
    "W @Ruth: Ruth's back on the night shift.",
])
def test_back_to_a_value_is_read_as_a_return_to_it(text: str) -> None:
    reading = read(fact(text))
    assert reading.again and reading.reversal and reading.guard is None
    assert w.stem("back") not in reading.value


@pytest.mark.parametrize("text", [
    "W @Lorcan: Lorcan started going to the climbing wall on Fridays.",
    "W @Lorcan: Lorcan began going to Luis for haircuts.",
])
def test_a_habit_begun_is_not_a_plan(text: str) -> None:
    assert read(fact(text)).guard is None

