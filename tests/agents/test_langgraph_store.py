"""The LangGraph store on a workspace (memfold.agents.langgraph_store): LangGraph ships no
conformance suite for stores (only for checkpointers), so these check its documented
semantics — against its own InMemoryStore, op for op — and memfold's side of each call:
Markdown bullets, the journal's supersede and archive with their reasons."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langgraph.store.base")

from langgraph.store.base import (  # noqa: E402
    GetOp,
    InvalidNamespaceError,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchOp,
)
from langgraph.store.memory import InMemoryStore  # noqa: E402

from memfold.agents.langgraph_store import MemfoldStore  # noqa: E402
from memfold.errors import BadInput  # noqa: E402
from memfold.memory import Memory  # noqa: E402

NOW = "2026-12-05T10:00:00+00:00"
ALICE, BOB = ("users", "alice"), ("users", "bob")


@pytest.fixture
def store(workspace: Path) -> Iterator[MemfoldStore]:
    with Memory.open(workspace, now=NOW) as memory:
        yield MemfoldStore(memory)


def _journal(root: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (root / "journal.jsonl").read_text().splitlines()]


def _log(root: Path) -> str:
    return (root / "memory" / "2026-12-05.md").read_text()


def _fill(target: Any) -> None:
    target.put(ALICE, "food", {"food": "pizza", "rating": 5})
    target.put(ALICE, "city", {"text": "Alice lives in Lisbon", "rating": "2"})
    target.put(BOB, "city", {"text": "Bob lives in Porto", "rating": 3})
    target.put(("docs", "alice", "notes"), "n-1", {"text": "Ünïcode and\nnew lines", "n": [1, 2]})
    target.put(ALICE, "food", {"food": "sushi", "rating": 4})
    target.put(BOB, "pet", {"text": "Bob has a dog", "rating": 1})
    target.delete(BOB, "city")


def _seen(items: list[Any]) -> set[tuple[tuple[str, ...], str, str]]:
    return {(tuple(i.namespace), i.key, json.dumps(i.value, sort_keys=True)) for i in items}


def test_it_answers_as_langgraphs_in_memory_store(store: MemfoldStore) -> None:
    """Op for op as InMemoryStore, except one quirk of it not copied: it keeps listing a
    namespace after its last item is deleted (PostgresStore does not; see the next tests)."""
    reference = InMemoryStore()
    _fill(reference)
    _fill(store)
    for namespace, key in ((ALICE, "food"), (ALICE, "city"), (BOB, "city"), (ALICE, "none"),
                           (("docs", "alice", "notes"), "n-1")):
        ours, theirs = store.get(namespace, key), reference.get(namespace, key)
        assert (ours is None) == (theirs is None)
        if ours is not None and theirs is not None:
            assert (ours.namespace, ours.key, ours.value) == (theirs.namespace, theirs.key,
                                                             theirs.value)
    for prefix in ((), ("users",), ALICE, ("docs",), ("nobody",)):
        assert _seen(store.search(prefix)) == _seen(reference.search(prefix))
    for filters in ({"rating": 4}, {"rating": {"$gte": 4}}, {"rating": {"$lt": 5}},
                    {"rating": {"$ne": 4}}, {"food": "pizza"}):
        assert _seen(store.search(("users",), filter=filters)) == _seen(
            reference.search(("users",), filter=filters)), filters
    for kwargs in ({}, {"prefix": ("users",)}, {"suffix": ("notes",)}, {"max_depth": 1},
                   {"prefix": ("users", "*")}, {"limit": 1}, {"limit": 1, "offset": 1}):
        assert store.list_namespaces(**kwargs) == reference.list_namespaces(**kwargs), kwargs


def test_items_are_retain_bullets_with_stable_ids(store: MemfoldStore,
                                                  workspace: Path) -> None:
    store.put(ALICE, "food", {"food": "pizza"})
    item = store.get(ALICE, "food")
    assert item is not None and item.created_at.isoformat() == NOW
    line = next(ln for ln in _log(workspace).splitlines() if "[users/alice]" in ln)
    assert line.startswith('- W @alice: [users/alice] food: {"food": "pizza"} ^')
    retained = _journal(workspace)[0]
    assert retained["event"] == "retain" and retained["by"] == "langgraph"
    first_id = retained["id"]
    other = MemfoldStore(store.memory)  # another handle on the same workspace: the same id
    other.put(ALICE, "food", {"food": "sushi"})
    assert _journal(workspace)[-1]["id"] == first_id


def test_a_put_on_a_key_supersedes_with_a_reason(store: MemfoldStore, workspace: Path) -> None:
    store.put(ALICE, "food", {"food": "pizza"})
    store.put(ALICE, "food", {"food": "sushi"})
    item = store.get(ALICE, "food")
    assert item is not None and item.value == {"food": "sushi"}
    supersede = [e for e in _journal(workspace) if e["event"] == "supersede"]
    assert len(supersede) == 1
    assert supersede[0]["reason"] == "put again through the LangGraph store (key food)"
    old, new = supersede[0]["id"], supersede[0]["by"]
    assert store.memory.get(old, use=False).status == "superseded"
    assert store.memory.get(new, use=False).supersedes == (old,)
    assert '"pizza"' in _log(workspace) and '"sushi"' in _log(workspace)  # nothing deleted


def test_delete_archives_with_a_reason_and_keeps_the_bullet(store: MemfoldStore,
                                                            workspace: Path) -> None:
    store.put(BOB, "city", {"text": "Bob lives in Porto"})
    store.delete(BOB, "city")
    assert store.get(BOB, "city") is None
    archive = _journal(workspace)[-1]
    assert archive["event"] == "archive" and archive["source"] == "langgraph"
    assert archive["reason"] == "deleted through the LangGraph store"
    assert "Bob lives in Porto" in _log(workspace)
    assert store.search(("users",)) == [] and store.list_namespaces() == []
    store.delete(BOB, "city")  # deleting what is gone changes nothing
    assert len(_journal(workspace)) == 2
    store.put(BOB, "city", {"text": "Bob moved to Faro"})
    item = store.get(BOB, "city")
    assert item is not None and item.value == {"text": "Bob moved to Faro"}


def test_search_with_a_query_is_recall(store: MemfoldStore) -> None:
    _fill(store)
    store.put(("users", "carol"), "pet", {"text": "Carol has a cat named Miso"})
    found = store.search(("users",), query="cat named Miso")
    assert (found[0].namespace, found[0].key) == (("users", "carol"), "pet")
    assert found[0].score is not None and found[0].value["text"].startswith("Carol")
    assert all(i.namespace[0] == "users" for i in store.search(("users",), query="lives"))
    assert store.search(("docs",), query="cat named Miso") == []
    assert store.search(("users",), query="lives", limit=1)[0].key == "city"


def test_batch_and_the_async_forms(store: MemfoldStore) -> None:
    results = store.batch([PutOp(ALICE, "a", {"x": 1}), GetOp(ALICE, "a"),
                           SearchOp(("users",), None, 10, 0), ListNamespacesOp(
                               (MatchCondition("prefix", ("users",)),), None, 10, 0)])
    assert results[0] is None and results[1] is not None and results[1].value == {"x": 1}
    assert [i.key for i in results[2]] == ["a"] and results[3] == [ALICE]

    async def run() -> tuple[Any, ...]:
        await store.aput(BOB, "b", {"y": 2})
        got = await store.aget(BOB, "b")
        listed = await store.alist_namespaces()
        await store.adelete(BOB, "b")
        return got, listed, await store.aget(BOB, "b"), await store.asearch(("users",))

    got, listed, gone, left = asyncio.run(run())
    assert got.value == {"y": 2} and listed == [ALICE, BOB] and gone is None
    assert [i.key for i in left] == ["a"]
    assert asyncio.run(store.abatch([GetOp(ALICE, "a")]))[0].value == {"x": 1}


@pytest.mark.parametrize(("namespace", "key", "value", "error"), [
    (("users", "a/b"), "k", {"x": 1}, BadInput),
    (("users", "a]b"), "k", {"x": 1}, BadInput),
    (ALICE, "two: parts", {"x": 1}, BadInput),
    (ALICE, "line\nbreak", {"x": 1}, BadInput),
    (ALICE, "key", {"wifi": "the wifi password is hunter2hunter2"}, BadInput),
    (("users", "a.b"), "k", {"x": 1}, InvalidNamespaceError),
    (("langgraph",), "k", {"x": 1}, InvalidNamespaceError),
])
def test_what_the_store_cannot_keep_is_refused_and_nothing_written(
        store: MemfoldStore, workspace: Path, namespace: tuple[str, ...], key: str,
        value: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        store.put(namespace, key, value)
    assert not (workspace / "memory" / "2026-12-05.md").exists()
    assert not (workspace / "journal.jsonl").exists() or not _journal(workspace)
