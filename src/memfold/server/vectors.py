"""Vectors kept in PostgreSQL: an embedder that remembers what it made, per bank.

`StoredVectors` wraps the replica's embedder.  Asked to embed texts, it first takes the
vectors this bank already has for them (table `vectors`, keyed by the embedder's identity
and the text's key, memfold.embed.store.text_key), runs the model only on the rest, and
stores those.  The replica's own vector files (.memory/vectors/, exact search with numpy up
to 200k facts) are then rebuilt from PostgreSQL without the model, on any replica.

Queries are embedded fresh each time; they are not facts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from memfold.embed.store import text_key
from memfold.server.db import tenant_tx

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

    from memfold.embed.base import Embedder, Identity, Matrix


PASSED = frozenset({"embed_queries", "token_vectors"})  # the model's, unstored
MANY_KEYS = 2_000  # more vectors wanted than this: read the bank's all, not by key
VECTORS_BY_KEY = ("SELECT key, vector FROM vectors WHERE bank_id = %s AND embedder = %s"
                  " AND key = ANY(%s)")
VECTORS_ALL = "SELECT key, vector FROM vectors WHERE bank_id = %s AND embedder = %s"
STORE = ("INSERT INTO vectors (tenant_id, bank_id, embedder, key, vector)"
         " VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING")


def read_vectors(conn: psycopg.Connection[Any], bank_id: int, name: str,
                 keys: Sequence[bytes], dims: int) -> dict[bytes, Matrix]:
    """The vectors the bank's rows hold for these keys, made by the embedder `name`, in
    the keys' order (a row of another width is none: a model that changed its size)."""
    import numpy as np  # the embed extra

    wanted = set(keys)
    if len(keys) > MANY_KEYS:
        rows = conn.execute(VECTORS_ALL, [bank_id, name])
    else:
        rows = conn.execute(VECTORS_BY_KEY, [bank_id, name, list(keys)])
    found = {}
    for key, vector in rows:
        key, data = bytes(key), bytes(vector)
        if key in wanted and len(data) == dims * 4:
            found[key] = np.frombuffer(data, dtype=np.float32)
    return {k: found[k] for k in keys if k in found}


def store_vectors(conn: psycopg.Connection[Any], tenant: str, bank_id: int, name: str,
                  made: Iterable[tuple[bytes, Matrix]]) -> None:
    """Store vectors the model made, for every replica (a key already there is kept)."""
    import numpy as np  # the embed extra

    with conn.cursor() as cur:
        cur.executemany(STORE, [(tenant, bank_id, name, key,
                                 np.asarray(vector, dtype=np.float32).tobytes())
                                for key, vector in made])


def stored_name(identity: Identity) -> str:
    """The embedder's name in the `vectors` rows: a vector is only ever read by the model
    that made it."""
    return f"{identity.model}/{identity.version}/{identity.dims}/{identity.weights_sha256}"


class StoredVectors:
    """An Embedder whose fact vectors live in the bank's `vectors` rows."""

    def __init__(self, inner: Embedder, pool: ConnectionPool, tenant: str,
                 bank_id: int) -> None:
        self.inner = inner
        self.pool = pool
        self.tenant = tenant
        self.bank_id = bank_id
        self.computed = 0  # texts the model embedded (the rest came from PostgreSQL)

    @property
    def identity(self) -> Identity:
        return self.inner.identity

    def _name(self) -> str:
        return stored_name(self.inner.identity)

    def embed(self, texts: Sequence[str]) -> Matrix:
        import numpy as np  # the embed extra

        dims = self.inner.identity.dims
        keys = [text_key(text) for text in texts]
        with tenant_tx(self.pool, self.tenant) as conn:
            found = read_vectors(conn, self.bank_id, self._name(), keys, dims)
        missing = [i for i, key in enumerate(keys) if key not in found]
        out = np.zeros((len(texts), dims), dtype=np.float32)
        if missing:
            made = self.inner.embed([texts[i] for i in missing])
            self.computed += len(missing)
            with tenant_tx(self.pool, self.tenant) as conn:
                store_vectors(conn, self.tenant, self.bank_id, self._name(),
                              [(keys[i], made[row]) for row, i in enumerate(missing)])
            for row, i in enumerate(missing):
                out[i] = made[row]
        for i, key in enumerate(keys):
            if key in found:
                out[i] = found[key]
        return out

    def embed_query(self, text: str) -> Matrix:
        return self.inner.embed_query(text)

    def __getattr__(self, name: str) -> Any:
        """What the model offers besides, as the model itself: several questions in one run
        and token vectors (`embed_queries`, `token_vectors`: hybrid's second look,
        memfold.recall.semantic), which are not stored; without them recall on a copy took
        no second look where local memfold takes one."""
        if name in PASSED:
            return getattr(self.inner, name)
        raise AttributeError(name)
