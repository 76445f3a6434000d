"""The review queue (memfold review, Memory.review/accept/reject, the review tools) and the
lifecycle of notes that already exist (a first index judges them in the order written)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import Cli, write
from memfold import Memory, ReviewItem, UnknownId
from memfold.agents import tools as at
from memfold.errors import BadInput

NOW = "2026-03-01T09:00:00+00:00"
# one retain call: a change the judge sees, written together, so left active as a conflict
TOGETHER = ["W @Kenji: Lives in Berlin.", "W @Kenji: Lives in Zurich now."]


def journal_lines(root: Path) -> list[dict[str, object]]:
    text = (root / "journal.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def setup_queue(memory: Memory) -> tuple[ReviewItem, ReviewItem]:
    """An open conflict (Kenji) and an automatic supersede (Acme's database)."""
    made = memory.retain(TOGETHER, date="2026-01-05", now="2026-01-05T10:00:00+00:00")
    assert made.conflicts and not made.superseded
    memory.retain(["W @Acme: The main database is PostgreSQL."], date="2026-01-10",
                  now="2026-01-10T10:00:00+00:00")
    moved = memory.retain(["W @Acme: The main database is MySQL now."], date="2026-02-10",
                          now="2026-02-10T10:00:00+00:00")
    assert moved.superseded
    conflict, supersede = sorted(memory.review(now=NOW).items, key=lambda i: i.kind)
    return conflict, supersede


def test_conflicts_survive_a_later_retain_and_a_rebuild(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        conflict, supersede = setup_queue(memory)
        assert (conflict.kind, conflict.state, supersede.state) == ("conflict", "open",
                                                                      "applied")
        assert conflict.older.content == "Lives in Berlin."
        assert conflict.newer.content == "Lives in Zurich now."
        assert conflict.judge == "rules" and "written together" in conflict.reason
        memory.retain(["B @Kenji: Called about the launch."], date="2026-02-20",
                      now="2026-02-20T10:00:00+00:00")
        assert conflict in memory.review(now=NOW).items
        memory.index(full=True)
        assert [i.id for i in memory.review(now=NOW).items] == [supersede.id, conflict.id]
    (workspace / ".memory" / "index.sqlite").unlink()  # the index is disposable
    with Memory.open(workspace) as memory:
        assert conflict.id in [i.id for i in memory.review(now=NOW).items]


def test_an_item_shows_the_copy_that_holds_a_pasted_id(workspace: Path) -> None:
    """A copy of the older fact's bullet, with its block id, pasted in a file earlier in path
    order: the item shows the fact the id is held by (sqlite_holders), not the copy."""
    with Memory.open(workspace) as memory:
        conflict, _ = setup_queue(memory)
        write(workspace, "memory/2025-01-01.md",
              f"# 2025-01-01\n\n## Retain\n- W @Kenji: Lives in Oslo. ^{conflict.older.id}\n")
        memory.index()
        shown = next(i for i in memory.review(now=NOW).items if i.id == conflict.id)
        assert (shown.older.content, shown.older.source) == (
            "Lives in Berlin.", conflict.older.source)
        assert shown.older.source is not None
        assert not shown.older.source.startswith("memory/2025-01-01.md")


def test_accept_and_reject_are_journaled_and_replayed_after_a_rebuild(
        workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        conflict, supersede = setup_queue(memory)
        accepted = memory.accept(str(conflict.id), reason="she did move", now=NOW,
                                 source="agent:tester")
        [item] = accepted.settled
        assert item.state == "accepted" and item.settled is not None
        assert (item.settled.by, item.settled.reason) == ("agent:tester", "she did move")
        restored = memory.reject(supersede.older.id, now=NOW)  # by the older fact's id
        assert [i.state for i in restored.settled] == ["restored"]
        assert memory.get(conflict.older.id, use=False).status == "superseded"
        assert memory.get(supersede.older.id, use=False).status == "active"
        memory.index(full=True)
        states = {i.id: i.state for i in memory.review(settled=True, now=NOW).items}
        assert states == {conflict.id: "accepted", supersede.id: "restored"}
        assert memory.get(conflict.older.id, use=False).status == "superseded"
        assert memory.get(supersede.older.id, use=False).status == "active"
        assert memory.review(now=NOW).items == ()


def test_a_dismissed_conflict_stays_dismissed_and_is_not_written_twice(
        workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        conflict, _ = setup_queue(memory)
        memory.reject(conflict.id, reason="both hold", now=NOW, source="cli:ann")
        lines = len(journal_lines(workspace))
        again = memory.reject(conflict.id, now="2026-03-02T09:00:00+00:00")
        assert again.settled == () and [i.state for i in again.unchanged] == ["dismissed"]
        settled = again.unchanged[0].settled
        assert settled is not None and (settled.by, settled.ts) == ("cli:ann", NOW)
        assert memory.accept(conflict.id).settled == ()
        assert len(journal_lines(workspace)) == lines
        assert memory.get(conflict.older.id, use=False).status == "active"


def test_unknown_items_and_bulk_without_a_rule_are_refused(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        setup_queue(memory)
        with pytest.raises(UnknownId, match="no review item 999"):
            memory.accept("999")
        with pytest.raises(UnknownId):
            memory.reject("zz9zz9zz")
        with pytest.raises(BadInput, match="needs an ID or --rule"):
            memory.reject()
        with pytest.raises(BadInput, match="cannot read time"):
            memory.review(since="the other day")


def test_filters_since_entity_and_rule(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        conflict, supersede = setup_queue(memory)
        assert [i.id for i in memory.review(entity="@Kenji", now=NOW).items] == [conflict.id]
        assert [i.id for i in memory.review(since="2026-02-01", now=NOW).items] == \
            [supersede.id]
        assert [i.id for i in memory.review(rule=supersede.rule, now=NOW).items][:1] == \
            [supersede.id]
        assert memory.review(rule="no-such-rule", now=NOW).total == 0
        assert memory.review(limit=1, now=NOW).total == 2


def test_cli_bulk_reject_by_rule_with_dry_run(run: Cli, workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        _, supersede = setup_queue(memory)
    before = len(journal_lines(workspace))
    dry = run("review", "reject", "--rule", supersede.rule, "--dry-run", "--json",
              env={"MEMFOLD_NOW": NOW})
    assert dry.exit_code == 0, dry.output
    data = json.loads(dry.stdout)
    assert data["dry_run"] and supersede.id in [i["id"] for i in data["settled"]]
    assert len(journal_lines(workspace)) == before
    done = run("review", "reject", "--rule", supersede.rule, "--since", "30d",
               env={"MEMFOLD_NOW": NOW})
    assert done.exit_code == 0 and f"restored {supersede.id}:" in done.stdout
    assert journal_lines(workspace)[-1]["event"] == "restore"
    none = run("review", "reject", "--rule", supersede.rule, "--since", "30d",
               env={"MEMFOLD_NOW": NOW})
    assert none.exit_code == 0 and none.stdout == "no review item matches: nothing rejected\n"


def test_a_bulk_reject_of_a_rule_no_judge_used_names_the_rules(run: Cli,
                                                              workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        conflict, _ = setup_queue(memory)
        with pytest.raises(BadInput, match="no judge has used the rule 'bogus'"):
            memory.reject(rule="bogus", dry_run=True)
    before = len(journal_lines(workspace))
    typo = run("review", "reject", "--rule", "bogus", env={"MEMFOLD_NOW": NOW})
    assert typo.exit_code == 2 and typo.stdout == ""
    assert typo.stderr.count("\n") == 1
    assert "moved" in typo.stderr and "reflect" in typo.stderr
    # a known rule with nothing waiting is an empty result, said so, exit 0
    known = run("review", "reject", "--rule", "Moved", env={"MEMFOLD_NOW": NOW})
    assert known.exit_code == 0 and known.stdout == "no review item matches: nothing rejected\n"
    # the rule or judge of an item in the queue is known, whatever its name
    mine = run("review", "reject", "--rule", conflict.rule, "--dry-run", env={"MEMFOLD_NOW": NOW})
    assert mine.exit_code == 0 and f"would be dismissed {conflict.id}" in mine.stdout
    assert len(journal_lines(workspace)) == before


def test_cli_bad_input_and_settled_items(run: Cli, workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        conflict, _ = setup_queue(memory)
    unknown = run("review", "accept", "999")
    assert unknown.exit_code == 2
    assert unknown.stderr == "memfold: error: no review item 999; `memfold review` lists them\n"
    assert run("review", "reject").exit_code == 2
    assert run("review", "reject", "7", "--rule", "value").exit_code == 2
    assert run("review", "--since", "whenever").exit_code == 2
    first = run("review", "accept", str(conflict.id), "--reason", "moved",
                env={"MEMFOLD_NOW": NOW})
    assert first.exit_code == 0 and first.stdout.startswith(f"accepted {conflict.id}: ")
    lines = len(journal_lines(workspace))
    second = run("review", "reject", str(conflict.id))
    assert second.exit_code == 0
    assert second.stdout.startswith(f"{conflict.id} already accepted: accepted by cli")
    assert f"on {NOW}; nothing written" in second.stdout
    assert len(journal_lines(workspace)) == lines


def test_cli_json_shape(run: Cli, workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        setup_queue(memory)
    found = run("review", "--json")
    assert found.exit_code == 0
    data = json.loads(found.stdout)
    assert data["total"] == 2
    item = data["items"][0]
    assert set(item) == {"id", "kind", "state", "older", "newer", "judge", "rule", "reason",
                         "ts", "settled"}
    assert set(item["older"]) == {"id", "content", "source", "day", "status"}
    assert item["kind"] == "supersede" and item["settled"] is None
    text = run("review")
    assert text.stdout.startswith(f"{item['id']}\tsupersede applied\trules/")


def test_the_review_tools(workspace: Path) -> None:
    tools = {t.name: t for t in at.tools()}
    assert tools["review"].read_only and not tools["review"].destructive
    assert tools["review_accept"].destructive and tools["review_reject"].destructive
    with Memory.open(workspace) as memory:
        conflict, supersede = setup_queue(memory)
        listed = at.call(memory, "review", {"entities": ["Kenji"]})
        assert [i["id"] for i in listed["items"]] == [conflict.id]
        done = at.call(memory, "review_accept", {"item": str(conflict.id)})
        assert done["settled"][0]["state"] == "accepted"
        dry = at.call(memory, "review_reject", {"rule": supersede.rule, "dry_run": True})
        assert [i["id"] for i in dry["settled"]] == [supersede.id]
        assert memory.get(supersede.older.id, use=False).status == "superseded"
        with pytest.raises(UnknownId, match="no review item 999"):
            at.call(memory, "review_accept", {"item": "999"})


# -- lifecycle for notes that already exist ---------------------------------------------------

LOGS = {
    "memory/2025-03-01.md": "# 2025-03-01\n\n## Retain\n- W @Kenji: Kenji lives in Berlin.\n",
    "memory/2025-04-01.md": "# 2025-04-01\n\n## Retain\n- W @Acme: Acme's CI runs on Jenkins.\n",
    "memory/2025-06-01.md": "# 2025-06-01\n\n## Retain\n- W @Kenji: Kenji lives in Zurich now.\n",
}


def hand_written(root: Path) -> None:
    for rel, text in LOGS.items():
        write(root, rel, text)


def status_of(memory: Memory, text: str) -> str:
    [hit] = [h for h in memory.recall(text, include_all=True).hits if h.fact.content == text]
    return hit.status


def test_a_first_index_judges_hand_written_logs_in_date_order(workspace: Path) -> None:
    hand_written(workspace)
    with Memory.open(workspace, now=NOW) as memory:
        memory.index()
        assert status_of(memory, "Kenji lives in Berlin.") == "superseded"
        assert status_of(memory, "Kenji lives in Zurich now.") == "active"
        [item] = memory.review().items
        assert item.older.content == "Kenji lives in Berlin." and item.kind == "supersede"
    lines = journal_lines(workspace)
    assert [e["event"] for e in lines] == ["supersede"]
    with Memory.open(workspace, now=NOW) as memory:  # a rebuild with decisions judges nothing
        memory.index(full=True)
        memory.reject(item.id)
        memory.index(full=True)
        assert status_of(memory, "Kenji lives in Berlin.") == "active"
    assert [e["event"] for e in journal_lines(workspace)] == ["supersede", "restore"]


def test_no_judge_keeps_a_first_index_as_it_was(workspace: Path, run: Cli) -> None:
    hand_written(workspace)
    done = run("index", "--no-judge")
    assert done.exit_code == 0
    assert not (workspace / "journal.jsonl").exists() or not journal_lines(workspace)
    with Memory.open(workspace, now=NOW) as memory:
        assert status_of(memory, "Kenji lives in Berlin.") == "active"
        assert memory.review().items == ()
    assert run("index", "--full").exit_code == 0  # no decision yet: the rebuild judges
    with Memory.open(workspace, now=NOW) as memory:
        assert status_of(memory, "Kenji lives in Berlin.") == "superseded"


def test_the_first_index_judges_only_against_what_was_written_before(
        workspace: Path) -> None:
    """A fact is weighed against the facts written by its day, as a retain that day
    would: an older log read after a newer one does not supersede it."""
    hand_written(workspace)
    write(workspace, "memory/2025-02-01.md",
          "# 2025-02-01\n\n## Retain\n- W @Kenji: Kenji lives in Lyon.\n")
    with Memory.open(workspace, now=NOW) as memory:
        memory.index()
        assert status_of(memory, "Kenji lives in Zurich now.") == "active"
        assert status_of(memory, "Kenji lives in Lyon.") == "superseded"


def test_a_supersede_by_hand_settles_the_conflict_it_answers(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        conflict, _ = setup_queue(memory)
        memory.supersede(conflict.older.id, conflict.newer.id, now=NOW, source="agent:x")
        [item] = memory.review(settled=True, entity="Kenji", now=NOW).items
        assert item.state == "accepted" and item.settled is not None
        assert item.settled.by == "agent:x"
        assert memory.review(entity="Kenji", now=NOW).items == ()


def test_reflect_undo_puts_back_what_its_run_settled_or_raised(workspace: Path) -> None:
    """A merge settles a conflict (`replaced`); a `reset` that undoes it reopens the item.
    A supersede the undone run made is restored."""
    from memfold.journal.events import Merge, Reset

    with Memory.open(workspace) as memory:
        conflict, supersede = setup_queue(memory)
        [merged] = memory.ledger.append(
            [Merge(id=conflict.older.id, into=conflict.newer.id, reason="near-duplicate",
                   on=None)], ts=NOW)
        memory.ledger.replay()
        assert memory.review(now=NOW).total == 1  # only the supersede waits
        memory.ledger.append([Reset(id=conflict.older.id, state={}, reason="reflect --undo",
                                    undoes=(merged.seq, supersede.id))], ts=NOW)
        memory.ledger.replay()
        states = {i.id: i.state for i in memory.review(settled=True, now=NOW).items}
        assert states == {conflict.id: "open", supersede.id: "restored"}


def test_a_fact_journals_a_few_conflicts_and_reports_them_all(workspace: Path) -> None:
    """A fact sharing a topic with many older ones keeps JOURNALED_CONFLICTS of them in the
    queue (the newest), while its retain still reports every one."""
    from memfold.lifecycle.ledger import JOURNALED_CONFLICTS

    with Memory.open(workspace, now=NOW) as memory:
        for n in range(JOURNALED_CONFLICTS + 3):
            memory.retain([f"W @Team: The release checklist covers staging deploys, step {n}."],
                          date=f"2026-01-{n + 1:02d}")
        made = memory.retain(["W @Team: The release checklist for staging deploys is owned "
                              "by Priya."], date="2026-01-20")
        assert len(made.conflicts) == JOURNALED_CONFLICTS + 3
        new = made.facts[0].id
        kept = [i for i in memory.review(limit=None).items if i.newer.id == new]
        assert len(kept) == JOURNALED_CONFLICTS
        assert {i.older.id for i in kept} == {j.id for j in made.conflicts[:JOURNALED_CONFLICTS]}


def test_a_rebuild_of_retained_facts_judges_nothing_they_were_not_judged_on(
        workspace: Path) -> None:
    """Facts a retain wrote were judged when retained: a rebuild of a journal without
    decisions leaves them as they are, so it equals the index the retains kept (found by
    the kill -9 trials: a back-dated retain, judged again in date order, gained conflicts)."""
    with Memory.open(workspace, now=NOW) as memory:
        memory.retain("W @Kenji: Kenji lives in Zurich now.", date="2025-06-10")
        memory.retain("W @Kenji: Kenji lives in Berlin.", date="2025-01-10")
        memory.index()
        before = journal_lines(workspace)
        kept = memory.index_backend.dump()
        memory.index(full=True)
        assert journal_lines(workspace) == before
        assert memory.index_backend.dump() == kept
