"""A purge reaches the vectors (issue 36): `forget --purge` on a server bank deletes, in its
own transaction, every `vectors` row made from the text it removed (schema 0009 lets the
serving role delete them) — the fact's text and the words the judge embedded of it — and a
semantic recall from PostgreSQL no longer finds it; a read that embedded the text before the
purge committed stores nothing of it afterwards, nor keeps it in a replica's matrices."""

from __future__ import annotations

import itertools
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest

from memfold.embed.base import FakeEmbedder
from memfold.embed.store import text_key
from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, caller, make_tenant

TENANTS = itertools.count()
SECRET = "W @Ivo: Ivo now keeps the spare key under the blue flowerpot."
# what the judge embeds of it, weighing it against the older place of the key
# (judge.meaning.without_names)
JUDGED = "now keeps the spare key under the blue flowerpot."
OTHERS = ("W @Ivo: Ivo grows tomatoes on the balcony.",
          "W @Ivo: Ivo hides the spare key under the doormat.", "W @Mara: Repairs clocks in Ghent.")
WAIT = 15.0


def _keys(pg_db: Provisioned, tenant: str) -> set[bytes]:
    """Every key of the tenant's `vectors` rows (read as the owner)."""
    with psycopg.connect(pg_db.owner) as conn:
        conn.execute("SELECT set_config('memfold.tenant', %s, false)", [tenant])
        return {bytes(k) for (k,) in conn.execute("SELECT key FROM vectors")}


def _ids(answer: Any) -> list[str]:
    assert answer.status_code == 200, answer.text
    return [hit["id"] for hit in answer.json()["results"]]


@pytest.mark.parametrize("recall_from", ["copy", "postgres"])
def test_a_purge_deletes_the_vectors_of_the_text_it_removed(pg_db: Provisioned,
                                                            recall_from: str) -> None:
    tenant = f"pv{next(TENANTS)}"
    token = bearer(make_tenant(pg_db, tenant).tokens["agent"])
    ask = {"query": "the key under the blue flowerpot", "mode": "semantic", "k": 5}
    content = SECRET.split(": ", 1)[1]
    with app_client(pg_db, embedder=FakeEmbedder, recall_from=recall_from) as client:
        assert client.post("/v1/banks/main/retain", headers=token,
                           json={"bullets": list(OTHERS)}).status_code == 200
        made = client.post("/v1/banks/main/retain", headers=token, json={"bullets": [SECRET]})
        assert made.status_code == 200, made.text
        secret_id = made.json()["facts"][-1]["id"]
        assert secret_id in _ids(client.post("/v1/banks/main/recall", headers=token, json=ask))
        stored = _keys(pg_db, tenant)
        assert text_key(content) in stored  # the recall stored its vector
        assert text_key(JUDGED) in stored  # the judge's, stored by the retain
        gone = client.post("/v1/banks/main/forget", headers=token,
                           json={"id": secret_id, "purge": True})
        assert gone.status_code == 200, gone.text
        left = _keys(pg_db, tenant)
        assert text_key(content) not in left
        assert text_key(JUDGED) not in left
        assert {text_key(o.split(": ", 1)[1]) for o in OTHERS} <= left  # the rest stay
    with app_client(pg_db, embedder=FakeEmbedder, recall_from="postgres") as fresh:
        assert secret_id not in _ids(fresh.post("/v1/banks/main/recall", headers=token,
                                                json=ask))


class Racing(FakeEmbedder):
    """A model that, asked to embed `text`, first lets `during` run (a purge committing
    while a read that saw the text is embedding it)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text
        self.during: Callable[[], None] | None = None

    def embed(self, texts: Sequence[str]) -> Any:
        if self.during is not None and self.text in texts:
            during, self.during = self.during, None
            during()
        return super().embed(texts)


@contextmanager
def _replica(pg_db: Provisioned, model: Any, recall_from: str) -> Iterator[Any]:
    from memfold.server.db import connect_pool
    from memfold.server.replica import Replica

    pool = connect_pool(pg_db.app, size=8)
    cache = Path(tempfile.mkdtemp(prefix="memfold-test-cache-"))
    embedder = None if model is None else (lambda: model)
    replica = Replica(pool, cache, embedder=embedder, recall_from=recall_from)
    try:
        yield replica
    finally:
        replica.close()
        pool.close()
        shutil.rmtree(cache, ignore_errors=True)


def _soon(condition: Callable[[], bool]) -> bool:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline and not condition():
        time.sleep(0.02)
    return condition()


@pytest.mark.parametrize("recall_from", ["copy", "postgres"])
def test_a_read_embedding_a_text_while_it_is_purged_stores_nothing_of_it(
        pg_db: Provisioned, recall_from: str) -> None:
    """The read saw the text (its snapshot, or its copy, predates the purge), the purge
    commits while the model embeds it: the read's vectors are not stored over the purge,
    and a replica answering from PostgreSQL keeps no matrix of that older snapshot."""
    tenant = f"pv{next(TENANTS)}"
    make_tenant(pg_db, tenant)
    who = caller(tenant)
    content = SECRET.split(": ", 1)[1]
    model = Racing(content)

    def recall(replica: Any) -> list[str]:
        return replica.run(who, "main", "read", lambda bank: [
            h.fact.id for h in bank.recall("the key under the blue flowerpot", k=5,
                                           mode="semantic").hits], what="recall")

    with _replica(pg_db, None, "copy") as writer, _replica(pg_db, model, recall_from) as reader:
        def write(work: Callable[[Any], Any]) -> Any:
            return writer.run(who, "main", "write", work, what="retain")

        write(lambda m: m.retain(list(OTHERS)))
        assert recall(reader)  # the matrix (or the copy's vectors) of the others
        secret_id = write(lambda m: m.retain([SECRET])).facts[0].id
        bank_id = writer.bank(who, "main").bank_id
        kept = reader.matrices.kept(bank_id)

        def purge() -> None:
            write(lambda m: m.purge(secret_id))
            if recall_from == "postgres":  # the notice reached the reader
                assert _soon(lambda: reader.matrices.kept(bank_id) is not kept)

        model.during = purge
        recall(reader)  # it may still see the text: it began before the purge
        assert model.during is None  # the purge ran while the text was embedded
        assert text_key(content) not in _keys(pg_db, tenant)
        if recall_from == "postgres":
            matrix = reader.matrices.kept(bank_id)
            assert matrix is None or text_key(content) not in matrix.matrix.position
        assert secret_id not in recall(reader)
        assert text_key(content) not in _keys(pg_db, tenant)
