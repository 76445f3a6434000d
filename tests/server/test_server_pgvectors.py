"""Semantic and hybrid recall answered from PostgreSQL (`--recall-from postgres`,
memfold.server.pgvectors): a replica that never opened the bank ranks as local memfold does
on the same workspace (hybrid's second look too, and through a copy), making no copy; a
write after its first read is seen by the next, rows a purge removed leave the matrix kept;
the vectors it makes are stored for every replica once its snapshot's connection is back,
and those stored are not made again; the model and each statement are warmed at start."""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path
from typing import Any

import pytest
from test_server_pgrecall import QUERIES, _workspace

from memfold.embed.base import FakeEmbedder
from memfold.memory import Memory
from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, make_tenant

NOW = "2026-03-21T09:00:00"
MORE = ("a string instrument", "money for the opening", "insects that make honey",
        "travel in Italy", "moving house")
TENANTS = itertools.count()


def _top(answer: Any) -> list[tuple[str, str, float]]:
    assert answer.status_code == 200, answer.text
    return [(h["id"], h["source"], h["score"]) for h in answer.json()["results"]]


class LateFake(FakeEmbedder):
    """The fake model with token vectors (each word's own hashed vector), so that hybrid
    recall takes its second look (`recall.semantic.Semantic.late_interaction`)."""

    def embed_queries(self, texts: Any) -> Any:
        return self.embed(texts)

    def token_vectors(self, texts: Any) -> list[Any]:
        return [self.embed(text.split() or [text]) for text in texts]


def _local(root: Path, mode: str, queries: tuple[str, ...],
           model: Any = FakeEmbedder) -> dict[str, list[Any]]:
    """Each query's top 10 from local memfold on the workspace, with the same model."""
    with Memory.open(root, watch=False, now=NOW) as memory:
        memory.set_embedder(model())
        return {q: [(h.fact.id, h.fact.source, round(h.score, 4)) for h in memory.recall(
            q, k=10, mode=mode).hits] for q in queries}


@pytest.fixture
def bank(pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A tenant whose bank "main" holds `_workspace` (imported), the workspace itself, and
    the agent's headers; every server answers at NOW."""
    from memfold.client.files import read_workspace

    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    tenant = f"vec{next(TENANTS)}"
    token = bearer(make_tenant(pg_db, tenant).tokens["agent"])
    with tempfile.TemporaryDirectory() as tmp:
        root = _workspace(Path(tmp) / "ws")
        with app_client(pg_db) as loader:
            loaded = loader.post("/v1/banks/main/import", headers=token,
                                 json=read_workspace(root))
            assert loaded.status_code == 200, loaded.text
        yield tenant, root, token


@pytest.mark.parametrize("mode", ["semantic", "hybrid"])
def test_semantic_and_hybrid_from_postgres_rank_as_local_memfold(
        pg_db: Provisioned, bank: Any, mode: str) -> None:
    _, root, token = bank
    queries = (*QUERIES, *MORE)
    model = FakeEmbedder()
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty-cache"
        empty.mkdir()
        with app_client(pg_db, recall_from="postgres", cache=empty,
                        embedder=lambda: model) as fresh:
            got = {q: _top(fresh.post("/v1/banks/main/recall", headers=token,
                                      json={"query": q, "k": 10, "mode": mode}))
                   for q in queries}
            assert list(empty.iterdir()) == []  # no copy, no lock, no manifest
    wanted = _local(root, mode, queries)
    assert got == wanted
    assert sum(len(v) for v in got.values()) > 2 * len(queries)
    assert got["who keeps bees"][0][1] == "memory/2026-03-12.md#L6"


def test_the_default_mode_of_a_replica_with_a_model_is_hybrid_from_postgres(
        pg_db: Provisioned, bank: Any) -> None:
    _, root, token = bank
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty-cache"
        empty.mkdir()
        with app_client(pg_db, recall_from="postgres", cache=empty,
                        embedder=FakeEmbedder) as fresh:
            got = {q: _top(fresh.post("/v1/banks/main/recall", headers=token,
                                      json={"query": q, "k": 10})) for q in MORE}
            assert list(empty.iterdir()) == []
    assert got == _local(root, "hybrid", MORE)


def test_hybrid_takes_local_memfolds_second_look_from_postgres_and_from_a_copy(
        pg_db: Provisioned, bank: Any) -> None:
    """With a model that has token vectors, hybrid recall orders its best again by them,
    locally; so does a replica, from PostgreSQL and from its copy (whose model, wrapped to
    keep vectors in PostgreSQL, once hid them: the copy took no second look)."""
    _, root, token = bank
    ask = {q: {"query": q, "k": 10, "mode": "hybrid"} for q in (*QUERIES, *MORE)}
    wanted = _local(root, "hybrid", tuple(ask), LateFake)
    assert wanted != _local(root, "hybrid", tuple(ask))  # the second look moves some
    with app_client(pg_db, recall_from="postgres", embedder=LateFake) as fresh:
        assert {q: _top(fresh.post("/v1/banks/main/recall", headers=token, json=body))
                for q, body in ask.items()} == wanted
    with app_client(pg_db, embedder=LateFake, recall_from="copy") as copy:
        assert {q: _top(copy.post("/v1/banks/main/recall", headers=token, json=body))
                for q, body in ask.items()} == wanted


def test_a_write_after_the_first_read_is_seen_by_the_next_semantic_read(
        pg_db: Provisioned, bank: Any) -> None:
    tenant, _, token = bank
    model = FakeEmbedder()
    ask = {"query": "who plays the theremin at midnight", "k": 10, "mode": "semantic"}
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty-cache"
        empty.mkdir()
        with app_client(pg_db, recall_from="postgres", cache=empty,
                        embedder=lambda: model) as fresh, app_client(pg_db) as writer:
            before = _top(fresh.post("/v1/banks/main/recall", headers=token, json=ask))
            embedded = sum(model.calls)
            assert embedded >= 10  # every fact of the bank, once
            made = writer.post("/v1/banks/main/retain", headers=token, json={
                "bullets": ["W @Zed: Plays the theremin at midnight."]})
            assert made.status_code == 200, made.text
            new_id = made.json()["facts"][0]["id"]
            after = _top(fresh.post("/v1/banks/main/recall", headers=token, json=ask))
            assert after[0][0] == new_id and new_id not in [i for i, _, _ in before]
            assert sum(model.calls) - embedded == 2  # the new fact, and the question
            # a purge through the other replica removes a fact the matrix held
            gone = writer.post("/v1/banks/main/forget", headers=token,
                               json={"id": new_id, "purge": True})
            assert gone.status_code == 200, gone.text
            again = _top(fresh.post("/v1/banks/main/recall", headers=token, json=ask))
            assert new_id not in [i for i, _, _ in again]
            assert list(empty.iterdir()) == []
    # the copy, at that version
    with app_client(pg_db, embedder=FakeEmbedder, recall_from="copy") as copy:
        assert _top(copy.post("/v1/banks/main/recall", headers=token, json=ask)) == again
    assert tenant


def same(a: list[tuple[str, float]], b: list[tuple[str, float]]) -> bool:
    """The same facts in the same order, their scores equal but for float32 rounding: a
    matrix extended and one made afresh hold the same vectors in another row order, and the
    question's vector moved toward the mean of its best candidates sums them in that order."""
    return [i for i, _ in a] == [i for i, _ in b] and all(
        abs(x - y) < 1e-6 for (_, x), (_, y) in zip(a, b, strict=True))


def test_a_version_that_dropped_rows_is_read_from_the_matrix_kept(
        pg_db: Provisioned, bank: Any) -> None:
    """Rows gone since the matrix was filled (a purge rewrote a line) leave it, and the
    answer is the one a replica holding nothing gives; no notice is needed for it."""
    from memfold.server.db import connect_pool
    from memfold.server.pgrecall import answer
    from memfold.server.pgvectors import VectorCache
    from server_support import caller

    tenant, _, token = bank
    model, kept = FakeEmbedder(), VectorCache()
    pool = connect_pool(pg_db.app, size=4)

    def recall(matrices: VectorCache | None) -> list[tuple[str, float]]:
        return answer(pool, caller(tenant), "main", lambda b: [
            (h.fact.id, round(h.score, 9)) for h in b.recall(
                "who plays the theremin at midnight", k=10, mode="hybrid").hits],
            embedder=lambda: model, matrices=matrices)

    try:
        with app_client(pg_db) as writer:
            made = writer.post("/v1/banks/main/retain", headers=token, json={"bullets": [
                "W @Zed: Plays the theremin at midnight.", "W @Zed: Tunes pianos."]})
            assert made.status_code == 200, made.text
            first = recall(kept)
            assert first[0][0] == made.json()["facts"][0]["id"]
            matrix = kept.kept(_bank_id(pool, tenant))
            assert matrix is not None and recall(kept) == first
            assert kept.kept(_bank_id(pool, tenant)) is matrix  # the same version: reused
            gone = writer.post("/v1/banks/main/forget", headers=token,
                               json={"id": first[0][0], "purge": True})
            assert gone.status_code == 200, gone.text
        after = recall(kept)
        assert first[0][0] not in [i for i, _ in after]
        assert same(after, recall(None))
        now = kept.kept(_bank_id(pool, tenant))
        assert now is not None and now.matrix is matrix.matrix  # extended, not made again
        assert len(now.rowids) == len(matrix.rowids) - 1
    finally:
        pool.close()


def _bank_id(pool: Any, tenant: str) -> int:
    from memfold.server.db import tenant_tx

    with tenant_tx(pool, tenant) as conn:
        row = conn.execute("SELECT bank_id FROM banks WHERE name = 'main'").fetchone()
    assert row is not None
    return int(row[0])


def test_vectors_a_replica_made_are_read_by_the_next_without_the_model(
        pg_db: Provisioned, bank: Any) -> None:
    _, _, token = bank
    first, second = FakeEmbedder(), FakeEmbedder()
    ask = {"query": "insects that make honey", "k": 5, "mode": "hybrid"}
    with app_client(pg_db, recall_from="postgres", embedder=lambda: first) as one:
        wanted = _top(one.post("/v1/banks/main/recall", headers=token, json=ask))
    assert sum(first.calls) > 10
    with app_client(pg_db, recall_from="postgres", embedder=lambda: second) as two:
        assert _top(two.post("/v1/banks/main/recall", headers=token, json=ask)) == wanted
    assert second.calls == [1]  # the question alone: every fact's vector was stored


def test_warm_sends_every_statement_of_a_semantic_recall_and_loads_the_model(
        pg_db: Provisioned, bank: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """`serve --recall-from postgres` with vectors: before its port opens the model has
    run and each statement a semantic or hybrid recall sends (a first one, and one after a
    write and a purge) was sent once, seeing no bank."""
    from test_server_pgwarm import _sent

    from memfold import embed
    from memfold.server import serving
    from memfold.server.db import connect_pool
    from memfold.server.pgrecall import answer
    from memfold.server.pgvectors import VectorCache
    from server_support import caller

    tenant, _, token = bank
    model, kept = FakeEmbedder(), VectorCache()
    monkeypatch.setattr(embed, "shared_embedder", lambda *a, **k: model)
    pool = connect_pool(pg_db.app, size=2)
    try:
        sent = _sent(monkeypatch)
        serving.warm_postgres(pool, vectors=True)
        warmed = set(sent)
        assert model.calls  # the model ran
        asked = 0

        def recall(mode: str) -> None:
            nonlocal asked
            answer(pool, caller(tenant), "main", lambda b: b.recall(
                f"{MORE[asked % len(MORE)]}", k=10, mode=mode), embedder=lambda: model,
                matrices=kept)
            asked += 1

        recall("semantic")
        with app_client(pg_db) as writer:
            made = writer.post("/v1/banks/main/retain", headers=token,
                               json={"bullets": ["W @Zed: Tunes pianos."]})
            assert made.status_code == 200, made.text
            recall("hybrid")
            assert writer.post("/v1/banks/main/forget", headers=token, json={
                "id": made.json()["facts"][0]["id"], "purge": True}).status_code == 200
        recall("hybrid")
        vector_statements = {s for s in sent if "vectors" in s or "rowid >" in s
                             or "rowid <=" in s}
    finally:
        pool.close()
    assert len(vector_statements) >= 3 and any("rowid <=" in s for s in vector_statements)
    assert vector_statements - warmed == set()


def test_a_recall_that_embeds_holds_one_connection_and_stores_after_it(
        pg_db: Provisioned, bank: Any) -> None:
    """The vectors a recall makes are stored once its snapshot's connection is back: on a
    pool of one connection it answers (it once waited for a second one, the pool's 10 s,
    and failed), and the next replica finds them stored."""
    from memfold.server.db import connect_pool
    from memfold.server.pgrecall import answer
    from server_support import caller

    tenant, _, _ = bank
    first, second = FakeEmbedder(), FakeEmbedder()
    pool = connect_pool(pg_db.app, size=1)
    try:
        def recall(model: FakeEmbedder) -> list[str]:
            return answer(pool, caller(tenant), "main", lambda b: [h.fact.id for h in b.recall(
                "who keeps bees", k=5, mode="semantic").hits], embedder=lambda: model)

        found = recall(first)
        assert found and sum(first.calls) > 10
        assert recall(second) == found and second.calls == [1]
    finally:
        pool.close()


def test_a_model_that_cannot_load_leaves_the_default_recall_lexical(
        pg_db: Provisioned, bank: Any) -> None:
    """As local memfold: the default mode falls back to lexical, a semantic recall asked
    for is refused with the reason."""
    from memfold.errors import EmbedUnavailable

    _, _, token = bank

    def broken() -> FakeEmbedder:
        raise EmbedUnavailable("the model is missing")

    with app_client(pg_db, recall_from="postgres") as lexical, \
            app_client(pg_db, recall_from="postgres", embedder=broken) as fresh:
        body = {"query": "who keeps bees", "k": 10}
        assert _top(fresh.post("/v1/banks/main/recall", headers=token, json=body)) == _top(
            lexical.post("/v1/banks/main/recall", headers=token, json=body))
        refused = fresh.post("/v1/banks/main/recall", headers=token,
                             json={**body, "mode": "semantic"})
        assert refused.status_code >= 400 and "the model is missing" in refused.text
