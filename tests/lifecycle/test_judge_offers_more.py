"""Changes the rule judge reads or offers although they are told without its usual words — a
move told by the time since it or by a new flat, back at work after time off, a job taken or
begun in other words, one attribute told by two verbs, open again after a closure, another
place named as where one is now — and look-alikes it no longer takes: an office's move, a part
of the work finished, a state said to hold still."""

from __future__ import annotations

import pytest
from judge_pairs import superseded, verdicts

OFFERED = [
    ("W @Ottoline: Ottoline lives in Graz.",
     "W @Ottoline: Ottoline's new flat in Linz gets the morning sun."),
    ("W @me: I live in Ballarat.", "W @me: We're in Bendigo now; the move went smoothly."),
    ("W @Ramon: Ramon is off work with a broken wrist.",
     "W @Ramon: Ramon is back at work, the plaster off."),
    ("W @Sigmund: Sigmund is a buyer for Larkfield Stores.",
     "W @Sigmund: Sigmund took a senior buyer post at Ottery Mills."),
    ("W @me: I teach law at Brigham College.",
     "W @me: My first year as dean at Holloway University was hard."),
    ("W @Pipwick: Pipwick's website runs on Ghost.",
     "W @Pipwick: Since May, Pipwick's website is served from Netlify."),
    ("W @Ashby-Pool: The Ashby pool is closed for retiling.",
     "W @Ashby-Pool: The Ashby pool is open again."),
    ("W @Bertil: Bertil lives in Kiruna.", "W @Bertil: Bertil has been in Gävle since the spring."),
    ("W @Odile: Odile's GP is @Dr-Marchetti.",
     "W @Odile: Odile registered with @Dr-Okafor at the surgery by her flat."),
    ("W @Kestle-Lock: The Kestle lock is closed.",
     "W @Kestle-Lock: The Kestle lock reopened to boats."),
    ("W @Aurelio: Aurelio works at Pennant Foods.",
     "W @Aurelio: Aurelio has been with Marwick & Sons since February."),
    ("W @Aurelio: Aurelio is unemployed.", "W @Aurelio: Aurelio started a job at Marwick & Sons."),
    ("W @Aurelio: Aurelio's van is in the garage for repairs.",
     "W @Aurelio: Aurelio's van is back on the road."),
    ("W @Kelpie @Dara: Dara took over Kelpie from Ruaidhri.",
     "W @Kelpie @Mwangi: Mwangi is the lead of Kelpie now."),
    ("W @me: User lives in Headingley.", "W @me: User's current city: Sheffield."),
    ("W @Solenne: Solenne lives in Dijon.", "W @Solenne: Solenne's mail goes to Besançon now."),
    ("W @Solenne: Solenne's physio is @Mirren.", "W @Solenne: Solenne sees @Adaku for physio."),
    ("W @Solenne: Solenne is pregnant with her first child.",
     "W @Solenne: Solenne had a baby boy, Elouan, last Tuesday."),
    ("W @Maren: Maren lives in Aarhus.", "W @Maren: Maren has a new address in Odense."),
    ("W @Maren: Maren lives in Aarhus.", "W @Maren: Maren returned to Odense for good."),
    ("W @Maren: Maren lives in Aarhus.", "W @Maren: Maren spends most of the year in Odense now."),
    ("W @Maren: Maren lives in Aarhus.", "W @Maren: Maren bought a house in Odense."),
    ("O(c=0.8) @Solenne: Solenne dislikes running.",
     "O(c=0.8) @Solenne: Solenne has come to love running."),
]


@pytest.mark.parametrize(("old", "new"), OFFERED)
def test_a_change_told_in_other_words_is_offered(old: str, new: str) -> None:
    found = verdicts(old, new)
    assert found and not any(v.supersedes for v in found), found
    assert all(v.offer for v in found), found


TAKEN = [
    ("W @me: I live in Swindon.", "W @me: Since the move to Bath I've been walking to work."),
    ("W @Idun: Idun lives in Bergen with her husband.",
     "W @Idun: Idun and her husband are Stavanger residents now."),
    ("W @Teodora: Teodora lives in Varna.", "W @Teodora: Teodora is a Plovdiv local now."),
    ("W @Teodora: Teodora lives in Varna.",
     "W @Teodora: Plovdiv is where Teodora calls home these days."),
    ("W @Teodora: Teodora lives in Varna.", "W @Teodora: Teodora has set up home in Ruse."),
]


@pytest.mark.parametrize(("old", "new"), TAKEN)
def test_a_move_told_by_the_time_since_it_or_of_two_people_supersedes(old: str, new: str) -> None:
    assert superseded(old, new)


KEPT = [
    ("W @Halvor: Halvor lives in Drammen.",
     "W @Halvor: Halvor's office moved to Oslo; he goes in twice a week."),
    ("W @Mirela: Mirela's loft conversion is under construction.",
     "W @Mirela: The builders on Mirela's loft conversion finished the stairs; the windows "
     "are next."),
    ("W @Quillfeather: Quillfeather's app is in open beta.",
     "W @Quillfeather: Quillfeather's app is still in open beta; the launch slipped to spring."),
]


@pytest.mark.parametrize(("old", "new"), KEPT)
def test_an_office_moved_a_part_finished_or_a_state_still_held_retires_nothing(
        old: str, new: str) -> None:
    assert not superseded(old, new)


def test_a_visit_or_someone_elses_place_is_not_offered_as_a_home() -> None:
    assert not verdicts("W @Bertil: Bertil lives in Kiruna.",
                        "W @Bertil: Bertil is in Gävle this week for a conference.")
    assert not verdicts("W @Bertil: Bertil lives in Kiruna.",
                        "W @Bertil: Bertil returned to Gävle for a week to see his mother.")
    assert not verdicts("W @Bertil: Bertil lives in Kiruna.",
                        "W @Bertil: Bertil's brother bought a house in Gävle.")
    assert not [v for v in verdicts("W @Bertil: Bertil lives in Kiruna.",
                                    "W @Bertil: Bertil's sister is in Gävle now.") if v.offer]
