"""Recall that says when it does not know (issue 30): a question memory never answered finds
only facts that share its common words or name its person, and those come back flagged
`weak`; `answered` says whether any hit is more than a guess, `strict` leaves guesses out."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from click.testing import CliRunner

from memfold.cli.main import cli
from memfold.memory import Memory
from memfold.recall import learned
from memfold.recall.query import plan_query
from memfold.recall.weak import FRAME_WORDS, asked
from memfold.values import RecallResult

DAY = "2025-06-01T10:00:00"
LATER = "2025-06-02T10:00:00"
FACTS = ["W @Jules: Jules, my partner, teaches geography at Cotham School.",
         "W @Milo: Milo is eight and in Year 3 at St Werburgh's Primary.",
         "B @Milo: Milo celebrated his birthday with a party at the climbing wall.",
         "B @Milo: Milo played a shepherd in the school nativity.",
         "W @Biscuit: Biscuit is our six-year-old beagle.",
         "B @me: Took Biscuit for a walk around Snuff Mills.",
         "W @me: I live in a rented two-bedroom flat in Easton, Bristol.",
         "W @me: Bought a Kia Niro from the Cribbs Causeway dealer.",
         "W @me: I work as a senior UX researcher at Fernhill Health."]


def recall(workspace: Path, query: str, *, strict: bool = False) -> RecallResult:
    """The facts retained in `workspace` (made when it does not exist), then one recall."""
    if not workspace.exists():
        Memory.init(workspace)
    with Memory.open(workspace) as memory:
        memory.retain(FACTS, now=DAY)
        return memory.recall(query, now=LATER, strict=strict)


def test_a_never_stated_question_gets_only_weak_hits(workspace: Path) -> None:
    """"When is Jules's birthday?": Milo's birthday names the wrong person, Jules's job
    does not say a birthday; both are guesses, and the result says nothing answered it."""
    result = recall(workspace, "When is Jules's birthday?")
    assert result.hits and all(h.weak for h in result.hits)
    assert not result.answered
    assert result.to_dict()["answered"] is False
    assert all(h["weak"] for h in result.to_dict()["results"])


def test_common_words_alone_do_not_answer(workspace: Path) -> None:
    """"Does Milo play a musical instrument?": the nativity fact holds "played" and names
    Milo, but not the rarer words the question turns on."""
    result = recall(workspace, "Does Milo play a musical instrument?")
    nativity = [h for h in result.hits if "nativity" in h.fact.content]
    assert nativity and nativity[0].weak
    assert not result.answered


def test_a_stated_answer_is_not_weak_even_in_other_words(workspace: Path) -> None:
    """The answer in the question's words, and one found by word knowledge (dog: beagle),
    are not weak; the facts about the same person that miss the point still are."""
    result = recall(workspace, "What subject does Jules teach?")
    assert result.answered
    assert not result.hits[0].weak and "geography" in result.hits[0].fact.content
    school = recall(workspace.parent / "again", "Which school does Milo go to?")
    weak = {h.fact.content.split()[1]: h.weak for h in school.hits}
    assert weak["played"] is False and weak["celebrated"] is True
    dog = recall(workspace.parent / "dog", "What kind of dog is Biscuit?")
    assert not dog.hits[0].weak and dog.hits[0].fact.content.endswith("beagle.")
    walk = [h for h in dog.hits if "walk" in h.fact.content]
    assert all(h.weak for h in walk)


def test_strict_leaves_weak_hits_out_and_says_so(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        memory.retain(FACTS, now=DAY)
        result = memory.recall("When is Jules's birthday?", now=LATER, strict=True)
        kept = memory.recall("What subject does Jules teach?", now=LATER, strict=True)
    assert result.hits == ()
    assert any("weak" in note for note in result.notes)
    assert kept.hits and not any(h.weak for h in kept.hits)


def test_weak_survives_the_json_round_trip(workspace: Path) -> None:
    result = recall(workspace, "When is Jules's birthday?")
    again = RecallResult.from_dict(json.loads(json.dumps(result.to_dict())))
    assert [h.weak for h in again.hits] == [h.weak for h in result.hits]
    assert not again.answered


def test_the_cli_marks_weak_matches_and_strict_drops_them(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        memory.retain(FACTS, now=DAY)
    runner = CliRunner()
    base = ["--workspace", str(workspace), "--as-of", LATER, "recall"]
    shown = runner.invoke(cli, [*base, "When is Jules's birthday?"])
    assert shown.exit_code == 0, shown.output
    lines = [line for line in shown.stdout.splitlines() if line]
    assert lines and all("] [weak match] @" in line for line in lines)
    assert "every result is a weak match" in shown.stderr
    strict = runner.invoke(cli, [*base, "--strict", "When is Jules's birthday?"])
    assert strict.exit_code == 0 and strict.stdout == ""
    assert "weak" in strict.stderr


def test_frame_words_are_not_what_a_question_turns_on(workspace: Path) -> None:
    assert {"name", "kind", "favourite", "go"} <= FRAME_WORDS
    assert not {"birthday", "dog", "school", "instrument"} & FRAME_WORDS
    recall(workspace, "What kind of dog is Biscuit?")  # retains the facts
    with Memory.open(workspace) as memory:
        plan = plan_query("What kind of dog is Biscuit?", today=date(2025, 6, 2))
        weights = asked(memory.index_backend, plan, ("biscuit",)).weights
    assert "dog" in weights and "kind" not in weights and "biscuit" not in weights


def test_a_fact_brought_for_the_fact_it_replaced_is_as_strong_as_that_fact(
        workspace: Path) -> None:
    """The current car shares no word with "what car do I drive", but recall brings it
    because it replaced the fact that matched ("replaces ^id, which matched"): it answers."""
    with Memory.open(workspace) as memory:
        old = memory.retain("W @me: Our car is a 2014 Ford Fiesta, which I drive to work.",
                            now=DAY).facts[0].id
        new = memory.retain("W @me: Bought a Zorvan Electra at the Cribbs Causeway dealer.",
                            now=LATER).facts[0].id
        memory.supersede(old, new, now=LATER)
        result = memory.recall("What car do I drive?", now=LATER)
    assert result.hits[0].fact.id == new and "replaces" in result.hits[0].why
    assert not result.hits[0].weak and result.answered


def test_the_recall_tool_says_weak_and_answered_in_its_compact_form(workspace: Path) -> None:
    """What a model receives carries the flag: `weak` on a guess, `answered` on the result;
    `strict: true` leaves the guesses out, so nothing is left to guess from."""
    from memfold.agents import tools as agent_tools

    recall(workspace, "When is Jules's birthday?")  # retains the facts
    with Memory.open(workspace) as memory:
        loose = agent_tools.call(memory, "recall", {"query": "When is Jules's birthday?"})
        strict = agent_tools.call(memory, "recall", {"query": "When is Jules's birthday?",
                                                     "strict": True})
        found = agent_tools.call(memory, "recall", {"query": "Where does Jules teach?"})
    assert loose["answered"] is False and loose["results"]
    assert all(r["weak"] is True for r in loose["results"])
    assert strict["answered"] is False and strict["results"] == []
    assert found["answered"] is True and "weak" not in found["results"][0]
    assert "Cotham" in found["results"][0]["content"]



def test_strict_gives_the_k_best_hits_that_are_not_weak(workspace: Path) -> None:
    """`strict` with k=2 answers with the two best hits that are not weak, even when a weak
    one ranks between them (it used to cut the first k and drop the weak, giving one); the
    note counts the weak hit that gave way.  (The facts that answer hold the instrument: a
    hit without the thing asked is weak, `head_noun`.)  Recall's own order sets the case up
    (`learned.ordering(False)`): the learned order already puts the weak hit last."""
    Memory.init(workspace)
    with Memory.open(workspace) as memory:
        memory.retain([*FACTS, "B @Milo: Milo played his instrument at the school nativity, "
                       "the school play, and the school fair at school.", "W @Milo: Milo's "
                       "instrument, bought for lessons on a rainy Saturday in town, is a "
                       "trumpet.", "B @Milo: Milo plays his instrument in the school band."],
                      now=DAY)
        question = "What instrument does Milo play at school?"
        with learned.ordering(False):
            loose = memory.recall(question, now=LATER, k=3)
            strict = memory.recall(question, now=LATER, k=2, strict=True)
    assert [h.weak for h in loose.hits] == [False, True, False]
    assert [h.fact.id for h in strict.hits] == [loose.hits[0].fact.id, loose.hits[2].fact.id]
    assert any("1 weak match left out" in n for n in strict.notes)
