"""Every result type comes back from its JSON: `X.from_dict(x.to_dict()).to_dict() ==
x.to_dict()`, on real results of a local Memory, and what the CLI prints from the rebuilt
value (a hit's line, a context, core memory, a reflect diff) is what it prints from the
original.  memfold.client.remote rebuilds a server's answers this way."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memfold import Memory
from memfold.forget import PurgePlan
from memfold.journal.log import Event
from memfold.recall.search import Trace
from memfold.reflect.plan import NOT_SENT, ReflectPlan
from memfold.session.context import SessionContext
from memfold.session.core import CoreEdit, CoreMemory
from memfold.values import (
    AboutResult,
    Hit,
    RecallResult,
    RetainResult,
    StatusReport,
    SyncReport,
    render_hit,
)

NOW = "2025-11-30T09:00:00+00:00"


def json_copy(data: Any) -> Any:
    """What a client gets: the dict through JSON text and back."""
    return json.loads(json.dumps(data, ensure_ascii=False))


def round_trips(cls: Any, value: Any, **to_dict: Any) -> Any:
    data = value.to_dict(**to_dict)
    rebuilt = cls.from_dict(json_copy(data))
    assert type(rebuilt) is type(value)
    assert rebuilt.to_dict(**to_dict) == data
    return rebuilt


@pytest.fixture(scope="module")
def rich(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Memory, dict[str, Any]]]:
    """A workspace with something of every kind: supersedes, a conflict, notes, an archived
    fact, merged opinions, entity pages, core edits, expiring facts, hidden text."""
    root = tmp_path_factory.mktemp("rich") / "ws"
    Memory.init(root)
    seen: dict[str, Any] = {}
    with Memory.open(root, now=NOW) as memory:
        seen["vienna"] = memory.retain("W @Peter: Lives in Vienna.", date="2025-11-01")
        seen["berlin"] = memory.retain("W @Peter: Lives in Berlin now.", date="2025-11-20")
        memory.retain("W @Ada: Ada works at Monzo.", date="2025-11-02")
        seen["conflict"] = memory.retain("W @Ada: Ada might leave Monzo for Wise next year.",
                                         date="2025-11-03")
        memory.retain("O(c=0.9) @Peter: Prefers short replies on WhatsApp.", date="2025-11-20")
        memory.retain(["O @Peter: Prefers short replies, on WhatsApp.",
                       "O @Peter: Prefers short and direct replies on WhatsApp."],
                      date="2025-11-26")
        seen["many"] = memory.retain([
            "W @Ada: Ada has a dog.",
            "W @Ada: Ada has a dog called Rex.",
            "B @Peter @Ada: Met at the café in Zürich.",
            "S(i=7) @Acme: The deploy takes twelve minutes.",
            "W(until=2025-12-03) @Peter: In Marrakech this week.",
            "W @Peter: Likes green\u200b tea.",
        ], date="2025-11-29")
        seen["today"] = memory.retain("B @Peter: Called about the offsite.", date="2025-11-30")
        ids = [f.id for f in seen["many"].facts]
        memory.note(ids[2], "confirmed on the phone", rev=0)
        memory.use(ids[3])
        memory.forget(ids[3])
        memory.supersede(ids[1], ids[0], reason="said twice")
        memory.core_append("Human", "Peter, in Berlin.")
        memory.core_append("Persona", "Be brief.")
        seen["replace"] = memory.core_replace("Human", "Berlin", "Berlin (since November)")
        seen["insert"] = memory.core_insert("Persona", 1, "You are Peter's assistant.")
        seen["undo"] = memory.core_undo()
        seen["dry"] = memory.reflect(since="30d", dry_run=True)
        seen["reflect"] = memory.reflect(since="30d")
        seen["ids"] = ids
        yield memory, seen


def test_recall_results_round_trip_and_print_the_same(rich: tuple[Memory, dict[str, Any]]
                                                       ) -> None:
    memory, _ = rich
    asked = [memory.recall("where does Peter live"),
             memory.recall("where does Peter live", include_all=True),
             memory.recall("Peter", since="2025-11-25", until="2025-11-30", kinds="W,O"),
             memory.recall("what happened around Nov 29", budget=40),
             memory.recall("Peter", entities=["Ada"]),
             memory.recall("nothing matches this at all")]
    assert any(r.hidden for r in asked) and any(r.truncated for r in asked)
    assert any(r.window for r in asked) and any(not r.hits for r in asked)
    for result in asked:
        rebuilt = round_trips(RecallResult, result)
        assert [render_hit(h) for h in rebuilt.hits] == [render_hit(h) for h in result.hits]
        assert rebuilt.hidden_hint() == result.hidden_hint()


def test_about_trace_history_status_and_index_round_trip(rich: tuple[Memory, dict[str, Any]]
                                                          ) -> None:
    memory, seen = rich
    about = round_trips(AboutResult, memory.about("Peter", include_all=True))
    assert about.page and about.hits
    old = seen["vienna"].facts[0].id
    trace = round_trips(Trace, memory.trace(seen["berlin"].facts[0].id))
    assert [h.fact.id for h in trace.supersedes] == [old]
    merged = seen["reflect"].merges[0][0]
    assert round_trips(Trace, memory.trace(merged)).derived_from
    for fact_id in (old, seen["ids"][2], "core:Human"):
        events = memory.history(fact_id)
        assert events
        for event in events:
            round_trips(Event, event)
    status = round_trips(StatusReport, memory.status())
    assert status.facts_by_kind and status.secrets == () and status.freshness.stale == 0
    round_trips(SyncReport, memory.index())
    round_trips(SyncReport, memory.index(full=True))


def test_retain_results_round_trip(rich: tuple[Memory, dict[str, Any]]) -> None:
    _, seen = rich
    assert seen["berlin"].superseded and seen["conflict"].conflicts
    assert seen["many"].warnings  # the zero-width space is named
    for key in ("vienna", "berlin", "conflict", "many", "today"):
        rebuilt = round_trips(RetainResult, seen[key])
        assert [f.source for f in rebuilt.facts] == [f.source for f in seen[key].facts]


def test_a_shown_fact_keeps_its_provenance(rich: tuple[Memory, dict[str, Any]]) -> None:
    memory, seen = rich
    for fact_id in [*seen["ids"], seen["reflect"].merges[0][0]]:
        hit = memory.get(fact_id, use=False)
        fact = hit.fact
        shown = {**hit.to_dict(), "path": fact.path, "line": fact.line,
                 "end_line": fact.end_line, "sha256": hit.sha256, "params": dict(fact.params),
                 "importance": fact.importance, "explicit_id": fact.explicit_id,
                 "reason": hit.reason, "derived_from": list(hit.derived_from)}
        rebuilt = Hit.from_dict(json_copy(shown))
        assert rebuilt.fact == fact
        assert (rebuilt.sha256, rebuilt.reason, rebuilt.derived_from) == (
            hit.sha256, hit.reason, hit.derived_from)
        assert rebuilt.to_dict() == hit.to_dict()


def test_core_context_reflect_and_purge_round_trip(rich: tuple[Memory, dict[str, Any]]
                                                   ) -> None:
    memory, seen = rich
    core = round_trips(CoreMemory, memory.core())
    assert core.render() == memory.core().render() and len(core.blocks) >= 2
    for key in ("replace", "insert", "undo"):
        round_trips(CoreEdit, seen[key])
    for budget in (None, 60):
        found = memory.context(budget=budget)
        rebuilt = round_trips(SessionContext, found)
        assert rebuilt.render() == found.render() and rebuilt.tokens == found.tokens
    dry, done = seen["dry"], seen["reflect"]
    assert dry.diff() and dry.pages and dry.records and done.merges
    for plan, dry_run in ((dry, True), (done, False), (dry, False)):
        rebuilt = round_trips(ReflectPlan, plan, dry_run=dry_run)
        assert len(rebuilt.events) == len(plan.events)
        assert {e["event"] for e in rebuilt.events} <= {NOT_SENT}
    assert ReflectPlan.from_dict(json_copy(dry.to_dict(dry_run=True))).diff() == dry.diff()
    plan = round_trips(PurgePlan, memory.purge(seen["ids"][4], dry_run=True))
    assert plan.places and plan.dry_run


# -- property: whatever is retained, its results come back from their JSON ----------------

WORDS = ["Vienna", "tea", "deploy", "Zürich", "offsite", "naïve", "release", "v2.1", "(draft)",
         "short", "replies", "garden", "42", "café", "Montag", "—", "ok"]
bullet = st.builds(
    lambda kind, params, names, words: (
        f"{kind}{params} {' '.join('@' + n for n in names)}: {' '.join(words)}.".replace(
            "  ", " ")),
    st.sampled_from("WBOS"),
    st.sampled_from(["", "(c=0.7)", "(i=3)", "(until=2025-12-24)", "(c=0.95, i=9)"]),
    st.lists(st.sampled_from(["Peter", "Ada", "Acme", "Zoë"]), max_size=2, unique=True),
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=8))


@settings(max_examples=25)
@given(batches=st.lists(st.lists(bullet, min_size=1, max_size=4), min_size=1, max_size=3),
       query=st.lists(st.sampled_from(WORDS + ["Peter", "@Ada"]), min_size=1, max_size=3),
       budget=st.none() | st.integers(min_value=10, max_value=200))
def test_any_retained_facts_come_back_from_their_json(
        tmp_path_factory: pytest.TempPathFactory, batches: list[list[str]], query: list[str],
        budget: int | None) -> None:
    root = tmp_path_factory.mktemp("prop") / "ws"
    Memory.init(root)
    with Memory.open(root, now=NOW) as memory:
        for n, batch in enumerate(batches):
            round_trips(RetainResult, memory.retain(batch, date=f"2025-11-{27 + n}"))
        checks: list[Callable[[], Any]] = [
            lambda: (RecallResult, memory.recall(" ".join(query), budget=budget,
                                                 include_all=True)),
            lambda: (AboutResult, memory.about("Peter")),
            lambda: (StatusReport, memory.status()),
            lambda: (SessionContext, memory.context(budget=budget)),
        ]
        for check in checks:
            cls, value = check()
            rebuilt = round_trips(cls, value)
            for old, new in zip(getattr(value, "hits", ()), getattr(rebuilt, "hits", ()),
                                strict=True):
                assert render_hit(new) == render_hit(old)


def test_rebuilt_hits_keep_the_line_they_cite(tmp_path: Path) -> None:
    Memory.init(tmp_path / "ws")
    with Memory.open(tmp_path / "ws", now=NOW) as memory:
        made = memory.retain(["W @Peter: Lives in Vienna.", "B @Peter: Flew home."],
                             date="2025-11-29")
        hit = memory.recall("Peter Vienna").hits[0]
    rebuilt = Hit.from_dict(json_copy(hit.to_dict()))
    assert (rebuilt.fact.path, rebuilt.fact.line) == (hit.fact.path, hit.fact.line)
    assert rebuilt.fact.source == made.facts[0].source
    assert rebuilt.origin == hit.origin
