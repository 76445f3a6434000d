"""States that end, begin or reach a final status, said in ways the judge did not read: a doer
who stopped ("a heavy drinker" / "stopped drinking"), a partner after "single" or "a widow", a
relationship broken off, something "being processed" or an applicant then a final status, a
"planning appeal" (no plan), a line manager, a secondary school after a primary one, "went to
live in"; and, offered rather than taken, a final status or a beginning said of another value
("signed with @Quillstone", "first day at ...", "took a job as ...") after work said by what one
does ("lectures at ..."), a return to work after a leave, and a thing done that an older fact says
cannot be ("cannot swim" / "swam two lengths").  Each has a non-change beside it."""

from __future__ import annotations

import pytest
from judge_pairs import superseded, verdicts

CHANGES = [
    ("W @Tomas: Tomas is a heavy drinker.", "W @Tomas: Tomas stopped drinking last year."),
    ("W @Maud: Maud is single.", "W @Maud: Maud has a girlfriend now, Ines."),
    ("W @Hal: Hal is a widow.", "W @Hal: Hal got remarried in June."),
    ("W @Ravi: Ravi is dating Dana.", "W @Ravi: Ravi broke it off with Dana in May."),
    ("W @Ada: Ada's visa is being processed.", "W @Ada: Ada's visa was approved."),
    ("W @Bo: Bo is an applicant for the nursing course.",
     "W @Bo: Bo was accepted onto the nursing course."),
    ("W @Ivo: Ivo's planning application is pending.",
     "W @Ivo: Ivo's planning application was refused by the council."),
    ("W @Noor: Noor's line manager is Ilse.", "W @Noor: Noor reports to Dieter now."),
    ("W @Finn: Finn is at Oakfield Primary.", "W @Finn: Finn started at Brockwood Secondary."),
    ("W @Ola: Ola lives in Bergen.", "W @Ola: Ola sold up and went to live in Oslo."),
    ("W @Ola: Ola lives in Bergen.", "W @Ola: Ola has emigrated to New Zealand."),
    ("W @Ola: Ola lives in Bergen.", "W @Ola: Ola upped sticks to Trondheim."),
    ("W @Ola: Ola lives in Bergen.", "W @Ola: Ola is in Oslo now for good."),
    ("W @Ola: Ola lives in Bergen.", "W @Ola: Ola has been living in Oslo since March."),
]


@pytest.mark.parametrize(("old", "new"), CHANGES)
def test_a_state_ended_begun_or_finished_is_a_change(old: str, new: str) -> None:
    assert superseded(old, new), verdicts(old, new)


OFFERED = [
    ("W @Ezra: Ezra is represented by @Pageturn-Agency.",
     "W @Ezra: Ezra signed with @Quillstone after leaving his old agent."),
    ("W @Kit: Kit cannot swim.", "W @Kit: Kit swam two lengths at the pool on Monday."),
    ("W @Una: Una is training for her first marathon.",
     "W @Una: Una finished the Berlin marathon in 3:58."),
    ("W @Rafa: Rafa lectures in physics at Dunmore College.",
     "W @Rafa: Rafa took a job as a quality engineer at a brewery."),
    ("W @Lise: Lise is unemployed.",
     "W @Lise: Lise's first day at the harbour office was Tuesday."),
    ("W @Cato: Cato is on paternity leave.", "W @Cato: Cato is back at work three days a week."),
    ("W @Mia: Mia is off sick with her back.", "W @Mia: Mia returned to her desk on Monday."),
]


@pytest.mark.parametrize(("old", "new"), OFFERED)
def test_a_change_said_by_a_final_status_or_a_thing_done_is_offered(old: str, new: str) -> None:
    found = verdicts(old, new)
    assert found and not any(v.supersedes for v in found), found


KEPT = [
    ("W @Zoe: Zoe lives in Porto.",
     "W @Zoe: Zoe lives in the Foz part of Porto, close to the beach."),
    ("W @Ugo: Ugo speaks Italian and French.",
     "W @Ugo: Ugo speaks fluent English; he did his degree in Leeds."),
    ("W @Ivo: Ivo lives in Graz.", "W @Ivo: Ivo is planning to move to Vienna."),
    ("W @Maud: Maud is single.", "W @Maud: Maud's sister has a girlfriend now."),
    ("W @Ola: Ola lives in Bergen.", "W @Ola: Ola's brother has emigrated to New Zealand."),
    ("W @Ola: Ola lives in Bergen.", "W @Ola: Ola is thinking she might emigrate to Canada."),
    ("W @Tomas: Tomas is a heavy drinker.", "W @Tomas: Tomas's brother stopped drinking."),
    ("W @Cato: Cato is on paternity leave.", "W @Cato: Cato's wife is back at work now."),
    ("W @Yara: Yara gave up being vegan; she eats fish these days.",
     "W @Yara: Yara sold her old Fiat and bought a Skoda."),
    ("W @Ben: Ben is a candidate for the school board.", "W @Ben: Ben was hired by Ardent Labs."),
    ("W @Rafa: Rafa lectures in physics at Dunmore College.",
     "W @Rafa: Rafa's brother took a job as a quality engineer."),
]


@pytest.mark.parametrize(("old", "new"), KEPT)
def test_a_refinement_a_plan_or_someone_elses_news_changes_nothing(old: str, new: str) -> None:
    assert not superseded(old, new), verdicts(old, new)
    assert not [v for v in verdicts(old, new) if v.reason.endswith("holds now")]


@pytest.mark.parametrize(("old", "new"), [
    ("W @Pia: Pia's dentist is Dr. Olsen.",
     "W @Pia: Pia's dentist is still Dr. Olsen; she had a filling there in May."),
    ("W @Tor: Tor banks with Nordea.",
     "W @Tor: Tor thought about switching banks but stayed with Nordea."),
    ("W @Choir: Maren conducts the choir.", "W @Choir: Maren conducted the choir again tonight."),
])
def test_a_restatement_with_more_beside_it_raises_no_conflict(old: str, new: str) -> None:
    assert verdicts(old, new) == []


@pytest.mark.parametrize(("old", "new"), [
    ("W @Ana: Ana takes sertraline every morning.", "W @Ana: Ana came off sertraline in March."),
    ("W @Ana: Ana takes metformin with dinner.", "W @Ana: Ana is off metformin now."),
    ("W @Gus: Gus has a season ticket at Ibrox.",
     "W @Gus: Gus let his Ibrox season ticket lapse this year."),
    ("W @Loan: Our loan request is under consideration at the credit union.",
     "W @Loan: The credit union turned down our loan request."),
])
def test_a_treatment_stopped_a_ticket_lapsed_or_a_request_declined_is_a_change(
        old: str, new: str) -> None:
    assert superseded(old, new), verdicts(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("W @Ana: Ana lives in Leeds.", "W @Ana: Ana is off to Lisbon for the weekend."),
    ("W @Gus: Gus works at Ibrox.", "W @Gus: Gus turned down a job at Hampden."),
    ("W @Ilka: Ilka is interviewing for nursing jobs.",
     "B @Ilka: Ilka interviewed at St Mary's but turned the offer down."),
])
def test_off_somewhere_or_an_offer_declined_changes_nothing(old: str, new: str) -> None:
    assert not superseded(old, new), verdicts(old, new)


def test_where_something_is_hosted_then_published_is_offered() -> None:
    found = verdicts("W @Tansy-Docs: Tansy's docs are hosted on Netlify.",
                     "W @Tansy-Docs: From version 2 on, Tansy's docs are published on Codeberg.")
    assert found and not any(v.supersedes for v in found), found
