"""Recall answers with the current fact where the judge left both facts active or replaced
a fact by one that does not name the answer (issue 29): the newer side of a conflict the
judge journaled ranks first when the question asks its slot, and an offer it journaled
(a suggestion) ranks below the state it would change; a successor that ranks on the
fact it replaced answers that fact's slot, so a later fact naming the successor's value and
saying what holds now ranks above it; a relationship ended and a new one begun answers with
the new one; a value told as held before never ranks above the one that holds; and a habit
begun ("started taking the train") answers how a thing is done now."""

from __future__ import annotations

from pathlib import Path

from timeline import ids, retain

from memfold import Memory


def test_a_journaled_conflict_across_entities_puts_the_newer_fact_first(
        workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2024-03-01",
                     "W @me: The kids' swimming lessons are on Saturday mornings at Fernhill pool.")
        retained = memory.retain(["W @Fernhill-Pool: At Fernhill pool the kids' swimming"
                                  " lessons are on Sunday afternoons."],
                                 date="2025-03-01", now="2025-03-01T00:00:00")
        [new] = retained.facts
        assert [c.id for c in retained.conflicts] == [old]  # offered, not superseded
        result = memory.recall("When are the kids' swimming lessons?",
                               now="2025-06-01T09:00:00")
        assert ids(result)[:2] == [new.id, old]
        assert new.id in {h.fact.id: h for h in result.hits}[old].possibly_outdated_by


def test_an_offer_the_judge_journaled_ranks_below_the_state_it_would_change(
        workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2024-06-03", "W @Project-Skua: Skua's logs are shipped to Loki.")
        retain(memory, "2025-05-15",
               "W @Project-Skua: Anselma thinks Skua's logs should be shipped to Splunk.")
        result = memory.recall("Where are Skua's logs shipped?", now="2025-06-01T09:00:00")
        assert ids(result)[0] == old  # a suggestion matching as well comes after the state
        asked = memory.recall("What did Anselma suggest for Skua's logs?",
                              now="2025-06-01T09:00:00")
        assert ids(asked)[0] != old  # asked for the suggestion itself, it answers


def test_a_later_fact_naming_the_successors_value_answers_its_slot(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2023-09-01", "W @Team-Osprey: Team Osprey is led by Benedetta.")
        retain(memory, "2024-08-01", "W @Team-Osprey: Corentin took over Team Osprey from"
                                     " Benedetta.")
        now = retain(memory, "2025-07-01", "W @Team-Osprey: Team Osprey is now run by Ysolde"
                                           " after Corentin's promotion.")
        result = memory.recall("Who leads Team Osprey?", now="2025-10-01T09:00:00")
        assert ids(result)[0] == now


def test_a_new_partner_ranks_above_the_break_up_that_replaced_the_old_one(
        workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2023-01-01", "W @Liesel: Liesel is dating Konrad.")
        retain(memory, "2024-06-01", "B @Liesel: Liesel and Konrad split up in June.")
        new = retain(memory, "2025-02-01", "W @Liesel: Liesel's girlfriend is Maren.")
        result = memory.recall("Who is Liesel dating?", now="2025-09-01T09:00:00")
        assert ids(result)[0] == new


def test_a_home_told_as_held_before_ranks_below_the_move(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2023-03-01", "W @Ottavia: Ottavia lives in Bologna.")
        moved = retain(memory, "2024-07-10", "B @Ottavia: Ottavia moved to Trieste for a job"
                                             " at the port authority.")
        retain(memory, "2025-05-02", "B @Ottavia: Ottavia misses Bologna, where she lived"
                                     " for six years.")
        result = memory.recall("Which city is Ottavia in?", now="2025-10-06T09:00:00")
        assert ids(result)[0] == moved


def test_a_habit_begun_answers_how_it_is_done_now(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        old = retain(memory, "2024-01-10", "W @Teodric: Teodric cycles to work.")
        new = retain(memory, "2024-11-05",
                     "B @Teodric: Teodric started taking the train to work over the winter.")
        result = memory.recall("How does Teodric get to work?", now="2025-01-20T09:00:00")
        assert {h.fact.id: h for h in result.hits}[new].status == "archived"
        assert ids(result)[:2] == [new, old]


def test_a_change_the_judge_only_offers_unsure_lifts_nothing(workspace: Path) -> None:
    """An opinion that names the city of a workplace and says "now" is offered for review
    (same topic, unsure); it is no workplace, and the workplace keeps the first place."""
    with Memory.open(workspace) as memory:
        work = retain(memory, "2025-06-02",
                      "W @Ravi: Ravi now works in the physics lab at Durham University.")
        retain(memory, "2025-06-20", "W @Ravi: Ravi cycles to the lab most days.")
        retained = memory.retain(["O(c=0.7) @Ravi: Ravi prefers Durham to Newcastle now, "
                                  "mainly for the quieter evenings."],
                                 date="2025-10-15", now="2025-10-15T00:00:00")
        assert [c.id for c in retained.conflicts] == [work]  # offered, not superseded
        result = memory.recall("Where does Ravi work?", now="2025-11-01T09:00:00")
        assert ids(result)[0] == work
