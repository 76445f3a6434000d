"""Semantic and hybrid recall answered from PostgreSQL (`--recall-from postgres`): the bank's
fact vectors, read from its `vectors` rows, searched exactly in memory by the very code local
memfold runs (`recall.semantic.Semantic` over a `VectorStore` whose snapshot is held here).

PostgreSQL keeps each fact's vector in `vectors`, keyed by the embedder and the hash of the
fact's text (memfold.server.vectors); a bank's recall rows (`recall_facts`) hold each row's
text.  Without pgvector (none is required: `detect` says at start whether the database has
it), a replica searches them itself:

- *One matrix per bank, kept per bank version.*  `VectorCache` keeps, per bank and
  embedder, the matrix of its distinct vectors and which row each fact uses, for the
  version the recall's own snapshot reads (`banks.head` and the statistics row's version,
  as memfold.server.pgcache keys its answers).  A recall of that version searches it
  without a statement.
- *A new version reads what it added.*  The bank's rows are numbered in the order they are
  written (a bank's writes take turns, so a later version's new rows come after every row
  an earlier one held): the rows past the highest one read are fetched with their text,
  their vectors read by key, and appended to the matrix.  When the bank's row count says
  rows went too (a supersede or a purge rewrote a line), the live rows up to that one are
  read again (their numbers only).  A fact whose text has no vector yet is embedded by the
  replica's model, at most `EMBED_DURING_RECALL` in a recall as local memfold does
  (shortest first, `CHUNK` at a time, as `VectorStore.update` does), and stored for every
  replica; past that bound none is, and the recall finds them by their words.
- *Bounded by bytes, least recently used bank first.*  At most `budget` bytes of matrices
  (CACHE_BYTES); a bank whose matrix alone is larger is searched and not kept.  Matrix rows
  no fact uses any more are dropped once they outnumber the live ones, and a purge's notice
  drops the bank's matrix at once (`Replica.drop`).  Everything is derived: a replica that
  starts holds nothing and answers its first semantic recall from the rows.

A recall whose snapshot is older than the version kept (a write landed between two recalls'
snapshots) builds its own matrix and keeps nothing.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memfold.embed.store import CHUNK, Snapshot, VectorStore, fact_text, text_key
from memfold.recall.embedding import EMBED_DURING_RECALL
from memfold.server.db import tenant_tx
from memfold.server.vectors import (
    VECTORS_ALL,
    VECTORS_BY_KEY,
    read_vectors,
    store_vectors,
    stored_name,
)

if TYPE_CHECKING:
    import numpy.typing as npt
    import psycopg
    from psycopg_pool import ConnectionPool

    from memfold.embed.base import Embedder, Matrix
    from memfold.recall.semantic import Semantic

log = logging.getLogger("memfold.server")

CACHE_BYTES = 512 << 20  # matrices a replica process keeps, over all banks
STRIPES = 64  # locks a cache holds for its banks' updates
ROWS_SINCE = ("SELECT rowid, content FROM recall_facts WHERE bank_id = %s AND rowid > %s"
              " ORDER BY rowid")
ROWS_BY_ID = "SELECT rowid, content FROM recall_facts WHERE bank_id = %s AND rowid = ANY(%s)"
LIVE_UPTO = "SELECT rowid FROM recall_facts WHERE bank_id = %s AND rowid <= %s"
KEYS_HELD = "SELECT key FROM vectors WHERE bank_id = %s AND embedder = %s"
TEXTS = "SELECT DISTINCT content FROM recall_facts WHERE bank_id = %s"
INDEX_EMBED = 2_000  # texts one call of the MCP tool `index` embeds at most
PGVECTOR = ("SELECT (SELECT extversion FROM pg_extension WHERE extname = 'vector'),"
            " EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector')")


def detect(pool: ConnectionPool) -> str:
    """What the database offers for vector search, in one line for the replica's log:
    pgvector installed (its version), available but not created, or absent.  The exact
    search in memory runs in every case; nothing requires pgvector."""
    with pool.connection() as conn:
        row = conn.execute(PGVECTOR).fetchone()
    installed, available = (row or (None, False))
    if installed:
        where = f"pgvector {installed} is installed (not used yet)"
    elif available:
        where = "pgvector is available but not created"
    else:
        where = "no pgvector"
    return f"vectors: exact search in memory, up to {CACHE_BYTES >> 20} MiB a process ({where})"


def warm(pool: ConnectionPool, model: Embedder) -> None:
    """Before the port opens: load the model and run it on questions (the quick session and
    the optimised one it makes next), and send each statement a semantic recall sends once,
    in a transaction that sees no bank (as memfold.server.pgwarm does for the rest)."""
    for question in ("warm replica started", "when did the replica move to a new host?"):
        model.embed_query(question)
    name = stored_name(model.identity)
    with tenant_tx(pool, None, snapshot=True) as conn:
        for sql, params in ((ROWS_SINCE, [0, 0]), (ROWS_BY_ID, [0, [0]]), (LIVE_UPTO, [0, 0]),
                            (VECTORS_BY_KEY, [0, name, [b""]]), (VECTORS_ALL, [0, name])):
            conn.execute(sql, params).fetchall()


class Rows:
    """A bank's matrix rows, grown in place: a version's snapshot views the rows it had, and
    rows appended later (past them) never move under it.  Reallocated (doubling) when full;
    the old array lives on while a snapshot views it."""

    def __init__(self, dims: int, capacity: int = 0) -> None:
        import numpy as np

        self.dims = dims
        self.data: Matrix = np.zeros((max(capacity, 64), dims), dtype=np.float32)
        self.used = 0
        self.keys: list[bytes] = []  # the key of each row in use
        self.position: dict[bytes, int] = {}  # a key's row

    def append(self, keys: Sequence[bytes], vectors: Matrix) -> None:
        import numpy as np

        if not keys:
            return
        need = self.used + len(keys)
        if need > len(self.data):
            grown = np.zeros((max(need, 2 * len(self.data)), self.dims), dtype=np.float32)
            grown[: self.used] = self.data[: self.used]
            self.data = grown
        self.data[self.used : need] = vectors
        for n, key in enumerate(keys):
            self.position[key] = self.used + n
        self.keys.extend(keys)
        self.used = need

    @property
    def nbytes(self) -> int:
        return int(self.data.nbytes)


@dataclass(frozen=True)
class BankMatrix:
    """One bank version's vectors: each fact (row key, ascending) that has one, the matrix
    row it uses, and the facts still waiting for one."""

    version: tuple[int, str]
    top: int  # the highest row key read
    rowids: npt.NDArray[Any]  # int64, ascending
    rows: npt.NDArray[Any]  # int64, each fact's row in `matrix`
    matrix: Rows  # grows past this version's rows as later versions are read
    view: Matrix  # this version's rows of it (rows a later version appends stay out)
    waiting: tuple[int, ...]  # facts with no vector yet (more than a recall embeds)

    def snapshot(self, model: Embedder) -> Snapshot:
        import numpy as np

        return Snapshot(identity=model.identity, generation=0, rows=len(self.view),
                        keys=np.zeros(0, dtype="V16"), fact_rowids=self.rowids,
                        fact_rows=self.rows, signature="", matrix=self.view)

    @property
    def nbytes(self) -> int:
        return self.matrix.nbytes + int(self.rowids.nbytes + self.rows.nbytes)


class HeldVectors(VectorStore):
    """A VectorStore over a matrix held in memory: what `Semantic` searches."""

    def __init__(self, snap: Snapshot) -> None:
        super().__init__(Path(os.devnull))  # never read: the snapshot is held
        self._held = snap

    def snapshot(self) -> Snapshot | None:
        return self._held

    def update(self, source: Any, embedder: Embedder, progress: Any = None, *,
               wait: bool = True, max_new: int | None = None) -> int:
        return 0  # the matrix is made current before the recall (`VectorCache.matrix`)


class VectorCache:
    """This process's bank matrices, least recently used first out, `budget` bytes in all."""

    def __init__(self, budget: int = CACHE_BYTES) -> None:
        self.budget = budget
        self._kept: OrderedDict[tuple[int, str], BankMatrix] = OrderedDict()
        self._lock = threading.Lock()  # for the dict, never across a read
        # one update of a bank at a time (a bank's lock is one of these, by its id)
        self._banks = tuple(threading.Lock() for _ in range(STRIPES))
        self._drops = 0  # how many times matrices were forgotten (`generation`)

    def drop(self, bank_id: int) -> None:
        """Forget a bank's matrices (a purge or a deleted bank: memfold.server.notices)."""
        with self._lock:
            self._drops += 1
            for key in [k for k in self._kept if k[0] == bank_id]:
                del self._kept[key]

    def clear(self) -> None:
        """Forget every matrix (notices may have been missed: memfold.server.notices)."""
        with self._lock:
            self._drops += 1
            self._kept.clear()

    def generation(self) -> int:
        """Read before a recall's snapshot begins: a matrix made from that snapshot is kept
        only when no matrix was forgotten since.  A purge's notice comes after its commit,
        so a snapshot begun after the notice cannot hold the purged text; one begun before
        may, and what it made from it is not kept past the notice."""
        with self._lock:
            return self._drops

    def held(self) -> int:
        """The bytes of the matrices kept."""
        with self._lock:
            return sum(m.nbytes for m in self._kept.values())

    def kept(self, bank_id: int) -> BankMatrix | None:
        """The matrix kept for this bank (its latest version read), if any."""
        with self._lock:
            return next((m for k, m in self._kept.items() if k[0] == bank_id), None)

    def __len__(self) -> int:
        return len(self._kept)

    def matrix(self, bank: BankRows, version: tuple[int, str], rows: int,
               since: int | None = None) -> BankMatrix:
        """The bank's matrix at `version` (its snapshot holds `rows` recall rows): the one
        kept, or the one kept extended by what the version added, or one made whole; kept
        unless a matrix was forgotten after `since` (`generation`)."""
        key = (bank.bank_id, bank.name)
        with self._banks[bank.bank_id % STRIPES]:
            with self._lock:
                found = self._kept.get(key)
                if found is not None:
                    self._kept.move_to_end(key)
            if found is not None and found.version == version:
                return found
            if found is not None and found.version[0] > version[0]:
                return bank.extend(None, version, rows)  # an older snapshot: kept nowhere
            made = bank.extend(found, version, rows)
            self._keep(key, made, since)
            return made

    def _keep(self, key: tuple[int, str], made: BankMatrix, since: int | None) -> None:
        with self._lock:
            if since is not None and since != self._drops:
                return  # its snapshot may predate a purge heard since
            self._kept.pop(key, None)
            if made.nbytes > self.budget:
                return
            self._kept[key] = made
            while sum(m.nbytes for m in self._kept.values()) > self.budget:
                self._kept.popitem(last=False)


class BankRows:
    """One bank's vectors as one recall's snapshot reads them (`conn`), with the replica's
    model for the facts that have none yet: what it makes waits in `made` until the
    snapshot's connection is back in the pool (`BankVectors.store`), so that a recall never
    holds two connections."""

    def __init__(self, conn: psycopg.Connection[Any], bank_id: int, model: Embedder) -> None:
        self.conn = conn
        self.bank_id = bank_id
        self.model = model
        self.name = stored_name(model.identity)
        self.notices: list[str] = []
        self.made: dict[bytes, Matrix] = {}  # vectors made here, to store

    def extend(self, kept: BankMatrix | None, version: tuple[int, str],
               rows: int) -> BankMatrix:
        """`kept` brought to `version`: the rows added since, the rows gone dropped (a
        new matrix when there is no `kept`)."""
        import numpy as np

        top = kept.top if kept is not None else 0
        added = [(int(r), str(c)) for r, c in self.conn.execute(ROWS_SINCE,
                                                                [self.bank_id, top])]
        if kept is not None and kept.waiting:  # facts a former recall left unembedded
            added += [(int(r), str(c)) for r, c in self.conn.execute(
                ROWS_BY_ID, [self.bank_id, list(kept.waiting)])]
        old_ids = kept.rowids if kept is not None else np.zeros(0, dtype=np.int64)
        old_rows = kept.rows if kept is not None else np.zeros(0, dtype=np.int64)
        waiting = set(kept.waiting) if kept is not None else set()
        if kept is not None and len(old_ids) + len(waiting) + len(added) - len(
                {r for r, _ in added} & waiting) != rows:
            live = np.fromiter((r for (r,) in self.conn.execute(LIVE_UPTO,
                                                                [self.bank_id, top])),
                               dtype=np.int64)
            still = np.isin(old_ids, live)
            old_ids, old_rows = old_ids[still], old_rows[still]
        matrix = kept.matrix if kept is not None else Rows(self.model.identity.dims)
        if kept is not None and matrix.used - len(set(old_rows.tolist())) > max(
                1024, len(old_ids)):
            matrix, old_rows = _compacted(matrix, old_rows)
        new_ids, new_rows, left = self._vectors(matrix, added)
        ids = np.concatenate([old_ids, np.asarray(new_ids, dtype=np.int64)])
        rows_of = np.concatenate([old_rows, np.asarray(new_rows, dtype=np.int64)])
        order = np.argsort(ids, kind="stable")
        return BankMatrix(version=version, top=max([top, *(r for r, _ in added)]),
                          rowids=ids[order], rows=rows_of[order], matrix=matrix,
                          view=matrix.data[: matrix.used], waiting=tuple(left))

    def _vectors(self, matrix: Rows, added: Sequence[tuple[int, str]],
                 ) -> tuple[list[int], list[int], list[int]]:
        """The matrix row of each added fact, its vector read from the bank's rows or made
        (and appended to `matrix`); the facts left without one."""
        keys = [text_key(fact_text(content)) for _, content in added]
        todo = {k: fact_text(c) for k, (_, c) in zip(keys, added, strict=True)
                if k not in matrix.position}
        if todo:
            found = self._stored(list(todo))
            matrix.append(list(found), _stack(list(found.values()), matrix.dims))
            missing = [(k, t) for k, t in todo.items() if k not in found]
            if missing and len(missing) <= EMBED_DURING_RECALL:
                made = self._embed(missing)
                matrix.append(list(made), _stack(list(made.values()), matrix.dims))
            elif missing:  # as local memfold: a recall does not stall on a large backlog
                self.notices.append(f"{len(missing)} facts have no vector yet; the MCP tool "
                                    "`index` embeds them (until then recall finds them by "
                                    "words)")
        ids, rows, left = [], [], []
        for (rowid, _), key in zip(added, keys, strict=True):
            if key in matrix.position:
                ids.append(rowid)
                rows.append(matrix.position[key])
            else:
                left.append(rowid)
        return ids, rows, left

    def _stored(self, keys: list[bytes]) -> dict[bytes, Matrix]:
        """The vectors the bank's rows hold for these keys."""
        return read_vectors(self.conn, self.bank_id, self.name, keys,
                            self.model.identity.dims)

    def _embed(self, missing: Sequence[tuple[bytes, str]]) -> dict[bytes, Matrix]:
        """Embed these texts (shortest first, CHUNK at a time, as a local update does); their
        vectors are stored for every replica once the recall's snapshot is over."""
        made = embed_texts(self.model, missing, self.notices)
        self.made.update(made)
        return made


def embed_texts(model: Embedder, missing: Sequence[tuple[bytes, str]],
                notices: list[str]) -> dict[bytes, Matrix]:
    """These texts' vectors by key, made by `model` shortest first, `CHUNK` at a time (as
    a local update makes them); a failure keeps what was made and says so in `notices`."""
    import numpy as np

    pending = sorted(missing, key=lambda item: len(item[1]))
    made: dict[bytes, Matrix] = {}
    try:
        for start in range(0, len(pending), CHUNK):
            part = pending[start : start + CHUNK]
            vectors = np.asarray(model.embed([t for _, t in part]), dtype=np.float32)
            made.update({k: vectors[n] for n, (k, _) in enumerate(part)})
    except Exception as exc:  # noqa: BLE001 - embedding must never fail a recall
        notices.append(f"could not embed new facts ({exc}); they are found by "
                       "their words until the next write")
    return made


def unembedded(conn: psycopg.Connection[Any], bank_id: int,
               name: str) -> list[tuple[bytes, str]]:
    """The bank's texts (each recall row's, as `VectorStore.update` reads them) that have
    no vector of the embedder `name` stored, each once, shortest first: what `memfold
    index` embeds.  Only the stored keys are read, not their vectors."""
    held = {bytes(k) for (k,) in conn.execute(KEYS_HELD, [bank_id, name])}
    todo: dict[bytes, str] = {}
    for (content,) in conn.execute(TEXTS, [bank_id]):
        text = fact_text(str(content))
        key = text_key(text)
        if key not in held:
            todo.setdefault(key, text)
    return sorted(todo.items(), key=lambda item: (len(item[1]), item[0]))


def embed_unembedded(conn: psycopg.Connection[Any], bank_id: int, model: Embedder,
                     limit: int = INDEX_EMBED) -> tuple[str, dict[bytes, Matrix], int]:
    """Embed at most `limit` of the bank's texts with no vector of `model` stored (what the
    MCP tool `index` embeds a call): the name its `vectors` rows go under, the vectors made
    by key, and how many texts are left without one."""
    name = stored_name(model.identity)
    pending = unembedded(conn, bank_id, name)
    made = embed_texts(model, pending[:limit], [])
    return name, made, len(pending) - len(made)


def _stack(vectors: list[Matrix], dims: int) -> Matrix:
    import numpy as np

    return np.stack(vectors) if vectors else np.zeros((0, dims), dtype=np.float32)


def _compacted(matrix: Rows, fact_rows: npt.NDArray[Any]) -> tuple[Rows, npt.NDArray[Any]]:
    """A matrix of only the rows these facts use, and each fact's row in it."""
    import numpy as np

    used = sorted(set(fact_rows.tolist()))
    fresh = Rows(matrix.dims, len(used))
    fresh.append([matrix.keys[r] for r in used], matrix.data[used])
    renumber = np.full(matrix.used, -1, dtype=np.int64)
    renumber[used] = np.arange(len(used), dtype=np.int64)
    return fresh, renumber[fact_rows]


def semantic(found: BankMatrix, model: Embedder) -> Semantic:
    """Recall's own vector search over this matrix, exact (no graph at any size)."""
    from memfold.recall.semantic import Semantic

    searched = Semantic(Path(os.devnull), model, ann_min_rows=sys.maxsize)
    searched.store = HeldVectors(found.snapshot(model))
    return searched


class BankVectors:
    """The vector search of one recall's snapshot of a bank, made when a recall asks for
    it (a lexical one never does): the bank's matrix at the snapshot's version from `cache`,
    the query embedded by the replica's model (`opener`)."""

    def __init__(self, conn: psycopg.Connection[Any], pool: ConnectionPool, tenant: str,
                 bank_id: int, version: tuple[int, str], rows: int,
                 opener: Callable[[], Embedder], cache: VectorCache,
                 since: int | None = None) -> None:
        self.conn = conn
        self.pool = pool
        self.tenant = tenant
        self.bank_id = bank_id
        self.version = version
        self.rows = rows
        self.opener = opener
        self.cache = cache
        self.since = since  # the cache's generation before the snapshot began

        self.made: tuple[str, dict[bytes, Matrix]] | None = None  # to store (`store`)

    def semantic(self) -> Semantic:
        model = self.opener()
        bank = BankRows(self.conn, self.bank_id, model)
        found = self.cache.matrix(bank, self.version, self.rows, self.since)
        if bank.made:
            self.made = (bank.name, bank.made)
        searched = semantic(found, model)
        searched.notices.extend(bank.notices)
        return searched

    def fill(self, limit: int | None = None) -> int:
        """Embed at most `limit` of the bank's texts that have no vector stored (the MCP tool
        `index`), stored as a recall's are once the snapshot is over (`store`); how many
        are left without one."""
        name, made, left = embed_unembedded(self.conn, self.bank_id, self.opener(),
                                            INDEX_EMBED if limit is None else limit)
        if made:
            self.made = (name, made)
        return left

    def store(self) -> None:
        """Store the vectors this recall made, for every replica, in a transaction of
        their own (after the snapshot's).  A failure loses nothing but the work: the next
        replica to need them makes them again."""
        if self.made is None:
            return
        name, made = self.made
        self.made = None
        try:
            with tenant_tx(self.pool, self.tenant) as conn:
                store_vectors(conn, self.tenant, self.bank_id, name, made.items(),
                              seen=self.version[0])
        except Exception as exc:  # noqa: BLE001 - derived data: the answer stands without it
            log.warning("vectors of bank %s not stored (%s): made again when needed",
                        self.bank_id, exc)

