"""Design note 002's four stories, end to end through the public API, as the note tells them:
a database switch said five ways supersedes the old fact and recall answers with the new one;
the Bun.js curiosity fades while the current runtime answers; importance 8 at confidence 0.3
ranks below importance 6 at 0.9; a time-bound fact expires when its end passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from memfold import Memory

OLD = "W @Acme: The main application database is PostgreSQL."
SWITCHES = [
    "W @Acme: Acme switched the main application database from PostgreSQL to MySQL.",
    "W @Acme: We now use MySQL for the main application database.",
    "W @Acme: MySQL is our database now; PostgreSQL is gone.",
    "W @Acme: The team dropped Postgres in favour of MySQL.",
    "W @Acme: Cutover to MySQL done; the old Postgres cluster is decommissioned.",
]


@pytest.mark.parametrize("switch", SWITCHES)
def test_a_database_switch_supersedes_and_recall_answers_with_it(tmp_path: Path,
                                                                 switch: str) -> None:
    Memory.init(tmp_path)
    with Memory.open(tmp_path) as memory:
        old = memory.retain(OLD, date="2025-01-10", now="2025-01-10T12:00:00").facts[0].id
        done = memory.retain(switch, date="2025-04-02", now="2025-04-02T12:00:00")
        new = done.facts[0].id
        assert [j.id for j in done.superseded] == [old], done.judged
        hits = memory.recall("what database does Acme use?", now="2025-06-01T12:00:00").hits
        assert hits and hits[0].fact.id == new, [h.fact.content for h in hits]


def test_bun_fades_and_the_current_runtime_answers(tmp_path: Path) -> None:
    Memory.init(tmp_path)
    with Memory.open(tmp_path) as memory:
        bun = memory.retain("B(i=8) @build: Investigating Bun.js as an alternative JavaScript "
                            "runtime.", date="2025-01-10", now="2025-01-10T12:00:00").facts[0].id
        node = memory.retain("W @build: The build runs on Node.js 22.", date="2025-01-20",
                             now="2025-01-20T12:00:00").facts[0].id
        hits = memory.recall("JavaScript runtime for the build",
                             now="2025-07-20T12:00:00").hits
        assert hits[0].fact.id == node
        assert all(h.fact.id != bun or h.status == "archived" for h in hits)


def test_importance_and_confidence_weigh_ranking(tmp_path: Path) -> None:
    Memory.init(tmp_path)
    with Memory.open(tmp_path) as memory:
        weak = memory.retain("W(i=8,c=0.3) @Sam: Sam might be allergic to peanuts.",
                             date="2025-03-01", now="2025-03-01T12:00:00").facts[0].id
        sure = memory.retain("W(i=6,c=0.9) @Sam: Sam is allergic to peanuts, says his GP.",
                             date="2025-03-01", now="2025-03-01T12:00:00").facts[0].id
        hits = memory.recall("Sam peanuts allergy", now="2025-03-02T12:00:00").hits
        order = [h.fact.id for h in hits]
        assert order.index(sure) < order.index(weak)


def test_a_time_bound_fact_expires(tmp_path: Path) -> None:
    Memory.init(tmp_path)
    with Memory.open(tmp_path) as memory:
        wait = memory.retain("W(until=2025-05-20) @Alice: Waiting for Alice's reply on the API "
                             "spec.", date="2025-05-01", now="2025-05-01T12:00:00").facts[0].id
        during = memory.recall("Alice API spec", now="2025-05-10T12:00:00").hits
        assert during and during[0].fact.id == wait
        after = memory.recall("Alice API spec", now="2025-06-15T12:00:00")
        assert all(h.fact.id != wait for h in after.hits)
        everything = memory.recall("Alice API spec", now="2025-06-15T12:00:00", include_all=True)
        assert [h.status for h in everything.hits if h.fact.id == wait] == ["expired"]
