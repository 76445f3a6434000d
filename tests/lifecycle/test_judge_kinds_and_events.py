"""Shapes that retired true facts on the read years (benchmarks/data/personal-tune14-40):

- an end's object named by a word that only says what kind it is: "ended my morning walks"
  ends walks, not the mornings of a crossword; "left the Poljud kayak club" ends a club, not
  the kayak one owns or the kayaking one does (the subject of an end keeps its words: "Hugo's
  job search is over" still ends his looking for a job);
- a word of time taken for the thing: "cancelled my Geneva Christmas flights" ends no
  Christmas break, "filter coffee over chai any morning" moves away from chai, not from
  Saturday-morning badminton;
- a value told in one event with no word of change ("Practised for six hours straight"
  beside "I practise for two hours every morning"), or in an opinion beside another ("was
  worth every painful week" beside "is the riskiest thing on our roadmap"): offered for a
  person to look at, not made by itself. An event that says the value moved on ("turned
  eleven", "went up to", "a new personal best", "her first day of Year 6") and an opinion
  that says so ("tenmoku is my glaze now") still supersede;
- "EGR cooler replaced at Kenworth TB" says where a part was replaced, not that the cooler
  replaced Thunder Bay runs; a divorce done ends no "divorce hearing is listed" (the older
  fact already told of the parting); "We run one-week cycles in Linear now" changes nothing
  of "We moved off Jira to Linear", which already says Linear; "raised the Kilimani rent"
  changes a rent, not the Kilimani lease (offered), though it still changes what the
  Kilimani flat costs; a car loan's amount is no new price of the car (offered), though a
  mortgage's new amount still replaces the old one."""

from __future__ import annotations

import pytest
from judge_pairs import superseded, verdicts

KIND_WORD_ONLY = [
    ("W @me: I do the Jornal de Noticias crossword every morning with my first coffee.",
     "W @me: The rain has ended my morning walks; I only walk the promenade at weekends now."),
    ("W @me: My kayak is a yellow Prijon Yukon I bought in 2021.",
     "W @me: I left the Poljud kayak club and joined Kayak Klub Kastela, 90 euros a year."),
    ("W @me: I go sea kayaking on Sunday mornings when the weather allows.",
     "W @me: I left the Poljud kayak club and joined Kayak Klub Kastela, 90 euros a year."),
    ("W @me @Rahul: I play badminton with Rahul's group every Tuesday and Saturday morning now.",
     "O(c=0.8) @me: These days I'd pick filter coffee over chai any morning."),
    ("W(until=2025-12-19) @me @Tomas: I read to Tomas's class until the Christmas break.",
     "B @me @Ines: Cancelled my Geneva Christmas flights because of the eye surgery."),
    ("W @me @Lakehead-Lines: Runs are Thunder Bay-Winnipeg-Regina. Out Monday, home Friday.",
     "B @me @T680: EGR cooler replaced at Kenworth TB. Warranty, but 4 days down."),
    ("W @me @Renata: Our divorce hearing is listed for 14 May in Brisbane.",
     "B @me @Renata: The divorce hearing took twenty minutes; the order takes effect in a month."),
    ("W @me @Linear: We moved off Jira to Linear this week; the export took Priya a full day.",
     "W @me @Linear: We run one-week cycles in Linear now instead of sprints."),
    ("W @Flat: The Kilimani lease runs for one year, to the end of July 2026.",
     "W @Flat: Mrs. Gathoni has raised the Kilimani rent to KSh 72,000 from December."),
    ("W @me @Creta: We're a Creta family now: Hyundai Creta SX, grey, ₹17.8 lakh on-road.",
     "W @me @Creta: HDFC car loan for the Creta: ₹10 lakh over five years, EMI ₹20,300."),
]


@pytest.mark.parametrize(("old", "new"), KIND_WORD_ONLY)
def test_a_word_saying_what_kind_ended_retires_nothing(old: str, new: str) -> None:
    assert not superseded(old, new), verdicts(old, new)


ENDS = [
    ("W @me: I walk the promenade every morning before work.",
     "W @me: The rain has ended my morning walks; I only walk the promenade at weekends now."),
    ("W @me: I'm a member of the Poljud kayak club.",
     "W @me: I left the Poljud kayak club and joined Kayak Klub Kastela, 90 euros a year."),
    ("W @Hugo: Hugo is looking for a new job.",
     "W @Hugo: Hugo's job search is over; he signed an offer on Friday."),
    ("W @me: We build on Node 18.", "W @me: Node 22 replaced Node 18 in the build."),
    ("W @me @Renata: Renata and I are married.", "B @me @Renata: Renata and I divorced in May."),
    ("W @me: We moved off Jira to Linear this week.",
     "W @me: We switched from Linear back to Jira."),
    ("W @Flat: The Kilimani flat costs KSh 68,000 a month, plus KSh 4,000 service charge.",
     "W @Flat: Mrs. Gathoni has raised the Kilimani rent to KSh 72,000 from December."),
]


@pytest.mark.parametrize(("old", "new"), ENDS)
def test_the_thing_that_ended_still_supersedes(old: str, new: str) -> None:
    assert superseded(old, new), verdicts(old, new)


EVENTS = [
    ("W @me: I practise for two hours every morning before 11.",
     "B @me: Practised the Copper Sky book for six hours straight and my wrist held up."),
    ("W @me: My standard fee for a three-hour wedding gig is $450.",
     "B @me: Played a corporate gig for a bank at Crown; the fee was $600."),
    ("W @me: My standard fee for a three-hour wedding gig is $450.",  # a name, not "new"
     "B @me: Played a gig at a startup's party in New York; the fee was $600."),
    ("O(c=0.6) @me @Postgres: The Postgres migration is the riskiest thing on our roadmap.",
     "O(c=0.7) @me @Postgres: The Postgres migration was worth every painful week."),
]


@pytest.mark.parametrize(("old", "new"), EVENTS)
def test_a_value_told_in_one_event_is_offered(old: str, new: str) -> None:
    found = verdicts(old, new)
    assert found and not any(v.supersedes for v in found), found
    assert all(v.offer and ", but the newer " in v.reason for v in found), found


MOVED_ON = [
    ("W @Saoirse: Saoirse is ten and in fourth class.",
     "B @Saoirse: Saoirse turned eleven and got her ears pierced."),
    ("W @me: I get my coffee at Tiong Bahru Bakery; a flat white is S$6.80.",
     "B @me: Tiong Bahru Bakery put the flat white up to S$7.20."),
    ("W @Hugo: Hugo's marathon PB is 3:41.",
     "B @Hugo: Hugo ran 3:28 at the Valencia marathon, a new personal best."),
    ("W @Nadia: Nadia is in Year 5 at Oakfield Primary.",
     "B @Nadia: Walked Nadia to her first day of Year 6 at Oakfield Primary."),
    ("O(c=0.9) @me: Celadon is my favourite glaze; that soft grey-green is exactly what I wanted.",
     "O(c=0.8) @me: With new eyes, I'm off celadon; tenmoku is my glaze now."),
    ("O(c=0.9) @me: I'm firmly a chai person; coffee does nothing for me.",
     "O(c=0.8) @me: These days I'd pick filter coffee over chai any morning."),
]


@pytest.mark.parametrize(("old", "new"), MOVED_ON)
def test_a_change_said_still_supersedes(old: str, new: str) -> None:
    assert superseded(old, new), verdicts(old, new)
