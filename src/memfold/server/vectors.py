"""Vectors kept in PostgreSQL: an embedder that remembers what it made, per bank.

`StoredVectors` wraps the replica's embedder.  Asked to embed texts, it first takes the
vectors this bank already has for them (table `vectors`, keyed by the embedder's identity
and the text's key, memfold.embed.store.text_key), runs the model only on the rest, and
stores those.  The replica's own vector files (.memory/vectors/, exact search with numpy up
to 200k facts) are then rebuilt from PostgreSQL without the model, on any replica.

Queries are embedded fresh each time; they are not facts.

A purge reaches these rows (schema 0009).  The purge's own transaction deletes the vectors
made from the text it removed — each gone row's text, and the judge's reading of it without
its names (lifecycle.judge.meaning) — when no live row of the bank still has that text
(`drop_purged`).  A read may have embedded such a text before the purge committed (its copy
or its snapshot still held it) and store it after: so every store outside a bank's write
takes the bank's purge fence (an advisory lock a purge holds exclusively from its delete to
its commit, `PURGE_SPACE`) shared, and stores nothing when a purge committed after the
version it read (`store_vectors(..., seen=)`).  Either the store commits first, and the
purge's delete sees its rows, or the purge does, and the store sees the purge.  A store
inside a write runs in the write's own transaction, under the bank's write lock
(`StoredVectors.writing`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from memfold.embed.store import fact_text, text_key
from memfold.server.db import tenant_tx
from memfold.values.facts import Fact

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
PURGE_SPACE = 0x6D70  # the first key of a bank's purge fence ("mp"); the second is bank_id
FENCE = "SELECT pg_advisory_xact_lock(%s, %s)"
FENCE_SHARED = "SELECT pg_advisory_xact_lock_shared(%s, %s)"
PURGED_SINCE = ("SELECT EXISTS (SELECT 1 FROM events WHERE bank_id = %s AND version > %s"
                " AND record ->> 'event' = 'purge')")
ROWS_OF_FILES = ("SELECT fact_id, kind, content, path, line, end_line, entities"
                 " FROM recall_facts WHERE bank_id = %s AND path = ANY(%s)")
STILL_HELD = "SELECT DISTINCT content FROM recall_facts WHERE bank_id = %s AND content = ANY(%s)"
DROP = "DELETE FROM vectors WHERE bank_id = %s AND key = ANY(%s)"


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
                  made: Iterable[tuple[bytes, Matrix]], *, seen: int | None) -> bool:
    """Store vectors the model made, for every replica (a key already there is kept).
    `seen`: the bank version whose texts were embedded, for a store outside the bank's
    write: nothing is stored when a purge committed after it (the fence, module doc).
    None: the caller's transaction holds the bank's write lock.  Whether they were stored."""
    import numpy as np  # the embed extra

    if seen is not None:
        conn.execute(FENCE_SHARED, [PURGE_SPACE, bank_id])
        row = conn.execute(PURGED_SINCE, [bank_id, seen]).fetchone()
        if row is None or row[0]:
            return False
    with conn.cursor() as cur:
        cur.executemany(STORE, [(tenant, bank_id, name, key,
                                 np.asarray(vector, dtype=np.float32).tobytes())
                                for key, vector in made])
    return True


def purges(lines: Iterable[tuple[int, str]]) -> bool:
    """Whether these journal lines (seq, line) hold a purge."""
    return any('"purge"' in line and json.loads(line).get("event") == "purge"
               for _, line in lines)


def rows_of(cur: psycopg.Cursor[Any], bank_id: int, paths: Sequence[str]) -> list[Fact]:
    """The bank's recall rows in these files, as they are before a write replaces them."""
    return [Fact(id=str(fact_id), kind=str(kind), content=str(content), path=str(path),
                 line=int(line), end_line=int(end), entities=tuple(json.loads(str(names))))
            for fact_id, kind, content, path, line, end, names
            in cur.execute(ROWS_OF_FILES, [bank_id, list(paths)])]


def drop_purged(cur: psycopg.Cursor[Any], bank_id: int, before: Sequence[Fact]) -> int:
    """In a purge's transaction, once its rows are stored: delete the vectors made from the
    texts of `before` (the rows its files held) that no row of the bank holds any more —
    each text's, and the judge's reading of it without its names — under the bank's purge
    fence (module doc).  The rows deleted."""
    from memfold.lifecycle.judge.meaning import without_names

    texts = sorted({fact.content for fact in before})
    if not texts:
        return 0
    cur.execute(FENCE, [PURGE_SPACE, bank_id])
    held = {str(c) for (c,) in cur.execute(STILL_HELD, [bank_id, texts])}
    gone = [fact for fact in before if fact.content not in held]
    keys = {text_key(fact_text(fact.content)) for fact in gone}
    keys |= {text_key(without_names(fact)) for fact in gone}
    if not keys:
        return 0
    return cur.execute(DROP, [bank_id, sorted(keys)]).rowcount


def stored_name(identity: Identity) -> str:
    """The embedder's name in the `vectors` rows: a vector is only ever read by the model
    that made it."""
    return f"{identity.model}/{identity.version}/{identity.dims}/{identity.weights_sha256}"


class StoredVectors:
    """An Embedder whose fact vectors live in the bank's `vectors` rows."""

    def __init__(self, inner: Embedder, pool: ConnectionPool, tenant: str,
                 bank_id: int, version: Callable[[], int]) -> None:
        self.inner = inner
        self.pool = pool
        self.tenant = tenant
        self.bank_id = bank_id
        self.version = version  # the bank version the copy holds (what it embeds is of it)
        self.computed = 0  # texts the model embedded (the rest came from PostgreSQL)
        self._write: psycopg.Connection[Any] | None = None  # the write's, while one runs

    @contextmanager
    def writing(self, conn: psycopg.Connection[Any]) -> Iterator[None]:
        """While a write of the bank runs on this handle: read and store vectors in the
        write's own transaction (`conn`, holding the bank's write lock), so what the write
        embeds (the judge's readings, `index`) commits or rolls back with it, on the
        connection the write holds rather than two more of the pool's; no purge can commit
        meanwhile, so no fence is taken."""
        self._write = conn
        try:
            yield
        finally:
            self._write = None

    @property
    def identity(self) -> Identity:
        return self.inner.identity

    def _name(self) -> str:
        return stored_name(self.inner.identity)

    def embed(self, texts: Sequence[str]) -> Matrix:
        import numpy as np  # the embed extra

        dims = self.inner.identity.dims
        keys = [text_key(text) for text in texts]
        seen = self.version()
        with self._transaction() as conn:
            found = read_vectors(conn, self.bank_id, self._name(), keys, dims)
        missing = [i for i, key in enumerate(keys) if key not in found]
        out = np.zeros((len(texts), dims), dtype=np.float32)
        if missing:
            made = self.inner.embed([texts[i] for i in missing])
            self.computed += len(missing)
            with self._transaction() as conn:
                store_vectors(conn, self.tenant, self.bank_id, self._name(),
                              [(keys[i], made[row]) for row, i in enumerate(missing)],
                              seen=None if self._write is not None else seen)
            for row, i in enumerate(missing):
                out[i] = made[row]
        for i, key in enumerate(keys):
            if key in found:
                out[i] = found[key]
        return out

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[Any]]:
        if self._write is not None:
            yield self._write
            return
        with tenant_tx(self.pool, self.tenant) as conn:
            yield conn

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
