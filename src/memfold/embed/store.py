"""Vectors beside the index: `.memory/vectors/`, derived data like the index itself.

Files (all rebuildable; delete the folder and the next semantic recall makes them again):

    state.json        identity of the embedder, generation, rows, index signature (atomic)
    map-<gen>.npz     key of each matrix row; (fact rowid, matrix row) of every indexed fact
    matrix-<gen>.f32  float32 rows, `dims` each, append-only within a generation, memory-mapped
    resume-<gen>.keys the rows an unfinished update appended after the saved state (below)
    ann-<gen>.usearch an HNSW graph over the matrix rows, only past `ANN_MIN_ROWS` facts
    lock              flock taken by whoever updates (never by readers, never by retain)

A row's key is a hash of the text embedded (the fact's content, `fact_text`), so a fact
moved to another line or file, or a rebuilt index, costs no new embedding: only new or
changed texts are embedded.  Rows nobody uses any more stay until they outnumber the live
ones, then a new generation is written without them.  A changed embedder identity starts a
new generation from nothing.

The index signature (`signature`: a token the index renews whenever a sync changes any
fact) tells whether the index moved since the vectors were made; while it matches, a recall
checks nothing else.

An update embeds its texts shortest first (a batch of similar lengths is mostly text, not
padding), a CHUNK at a time.  After each chunk the new rows are synced to the matrix, then
their keys, each with a digest of its row, are appended to the resume log and synced: a
checkpoint costs a chunk's bytes, however large the matrix already is.  An update that is
killed loses at most the chunk it was embedding: the next one takes every logged row whose
digest still matches the matrix, saves them, and embeds only the rest.  Readers never look
at the log (the rows it adds are used by no fact until the update ends); a purge does.

numpy (and usearch, for the graph) belong to the embed extra: each method imports them
itself, so importing this module needs neither.  The resume log itself: memfold.embed.resume.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from memfold.embed.base import Embedder, Identity
from memfold.embed.resume import KEY_BYTES, RESUME_MAGIC, append_vectors, resumable

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from memfold.embed.base import Matrix

FORMAT = 1
CHUNK = 256  # texts embedded between two progress reports and checkpoints
ANN_MIN_ROWS = 200_000  # from this many live facts on, search an HNSW graph (if installed)
ANN_CONNECTIVITY = 16
ANN_EXPANSION_ADD = 128
ANN_EXPANSION_SEARCH = 256
# an addition of fewer rows than this is linked into the graph on one thread, so the same rows
# always give the same graph (and the same answers); a bulk build uses every core, whose
# graph varies with thread timing (re-scoring the candidates exactly keeps the order right)
ANN_SERIAL_ADD = 4_096
Progress = Callable[[int, int], None]  # (embedded so far, to embed)


def fact_text(content: str) -> str:
    """What is embedded for a fact: its content alone.  Entity names stay out of the vector
    (recall's entity boost already weighs them): on LoCoMo, vectors of "Name: text" pulled
    every turn of the named speaker up, and content alone scored 4 points higher."""
    return content


def text_key(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"),
                           digest_size=KEY_BYTES).digest()


class FactSource(Protocol):
    """What the vectors need from the index (an `IndexBackend` is one): the facts' texts by
    row key, and a signature that moves whenever they do."""

    def fact_texts(self) -> list[tuple[int, str]]: ...

    def facts_signature(self) -> str: ...


def signature(source: FactSource) -> str:
    """What the vectors were made against: the index's `facts_token`, new with every sync
    that changes any fact (else, for an index without one, counts and sums)."""
    return source.facts_signature()


@dataclass
class Snapshot:
    """One consistent view of the store, as readers use it."""

    identity: Identity
    generation: int
    rows: int  # matrix rows in use (the file may hold more, from an unfinished update)
    keys: npt.NDArray[np.void]  # (rows,) KEY_BYTES each
    fact_rowids: npt.NDArray[np.int64]  # live facts, ascending
    fact_rows: npt.NDArray[np.int64]  # the matrix row of each live fact
    signature: str
    matrix: Matrix  # (rows, dims), memory-mapped

    def rows_of(self, rowids: Sequence[int]) -> dict[int, int]:
        import numpy as np

        wanted = np.asarray(list(rowids), dtype=np.int64)
        at = np.searchsorted(self.fact_rowids, wanted)
        at = np.minimum(at, max(len(self.fact_rowids) - 1, 0))
        found = {}
        if len(self.fact_rowids):
            hit = self.fact_rowids[at] == wanted
            for rowid, index in zip(wanted[hit].tolist(), at[hit].tolist(), strict=True):
                found[int(rowid)] = int(self.fact_rows[index])
        return found


@dataclass
class _Backlog:
    """One update's work: the texts to embed, against the saved state it extends."""

    snap: Snapshot | None  # the saved state; None: no vectors yet
    kept: Snapshot | None  # the saved state, when the update extends it (same embedder)
    gen: int  # the generation written
    known_keys: list[bytes]  # the key of each matrix row, in order; grows as rows are added
    saved: int  # how many of those rows the saved state holds
    position: dict[bytes, int]  # a key's matrix row
    rowids: list[int]  # every indexed fact,
    keys: list[bytes]  # and the key of its text
    pending: list[tuple[bytes, str]]  # (key, text) to embed, shortest first
    matrix_path: Path
    log_path: Path


class VectorStore:
    """The vectors of one workspace's index."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._snapshot: Snapshot | None = None
        self._snapshot_stamp: tuple[int, int] | None = None
        self._ann: Any = None
        self._ann_key: tuple[int, int] | None = None

    # -- reading -------------------------------------------------------------------------

    def _state(self) -> dict[str, Any] | None:
        try:
            data = json.loads((self.folder / "state.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) and data.get("format") == FORMAT else None

    def snapshot(self) -> Snapshot | None:
        """The current vectors (cached until state.json changes), or None if there are none."""
        try:
            st = (self.folder / "state.json").stat()
        except OSError:
            return None
        stamp = (st.st_mtime_ns, st.st_ino)
        if self._snapshot is not None and stamp == self._snapshot_stamp:
            return self._snapshot
        for _ in range(3):  # a compaction may replace the files between two reads
            state = self._state()
            snap = self._load(state) if state else None
            if snap is not None:
                self._snapshot, self._snapshot_stamp = snap, stamp
                return snap
        return None

    def _load(self, state: dict[str, Any]) -> Snapshot | None:
        import numpy as np

        identity = Identity.from_dict(state.get("identity"))
        if identity is None:
            return None
        gen, rows = int(state["generation"]), int(state["rows"])
        try:
            with np.load(self.folder / f"map-{gen}.npz") as saved:
                keys = saved["keys"][:rows]
                fact_rowids, fact_rows = saved["fact_rowids"], saved["fact_rows"]
            matrix_path = self.folder / f"matrix-{gen}.f32"
            if rows == 0:
                matrix = np.zeros((0, identity.dims), dtype=np.float32)
            else:
                matrix = np.memmap(matrix_path, dtype=np.float32, mode="r",
                                   shape=(rows, identity.dims))
        except (OSError, ValueError, KeyError):
            return None
        return Snapshot(identity, gen, rows, keys, fact_rowids, fact_rows,
                        str(state.get("signature", "")), matrix)

    def current(self, source: FactSource, identity: Identity) -> bool:
        snap = self.snapshot()
        return (snap is not None and snap.identity == identity
                and snap.signature == signature(source))

    # -- writing -------------------------------------------------------------------------

    @contextlib.contextmanager
    def _locked(self, wait: bool = True) -> Iterator[bool]:
        """Hold the vectors' lock; without `wait`, yield False at once if another process
        holds it."""
        self.folder.mkdir(parents=True, exist_ok=True)
        with open(self.folder / "lock", "a+b") as handle:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            except BlockingIOError:
                yield False
                return
            try:
                yield True
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    def update(self, source: FactSource, embedder: Embedder,
               progress: Progress | None = None, *, wait: bool = True,
               max_new: int | None = None) -> int:
        """Embed every fact of `source` (the index) that has no vector yet; returns how many
        were embedded.

        Without `wait` it gives up (returning -1) when another process is embedding; with
        `max_new` it embeds nothing when more facts than that wait (returning minus their
        number), so a recall never stalls on a large backlog — `memfold index` clears it
        (a workspace without vectors gets an empty state, which marks it as using them).

        Texts go to the embedder shortest first, a CHUNK at a time, each chunk logged
        once on disk: an update that was killed is resumed by the next one, which embeds
        only the texts whose rows were not saved.
        """
        identity = embedder.identity
        if self.current(source, identity):
            return 0
        with self._locked(wait) as held:
            if not held:
                return -1
            self._snapshot = None
            if self.current(source, identity):  # another process did it while we waited
                return 0
            return self._update_locked(source, embedder, progress, max_new)

    def _update_locked(self, source: FactSource, embedder: Embedder, progress: Progress | None,
                       max_new: int | None) -> int:
        identity = embedder.identity
        sig = signature(source)
        work = self._backlog(source, identity)
        deferred = max_new is not None and len(work.pending) > max_new
        if deferred and work.snap is not None:
            return -len(work.pending)
        self._open_generation(work, identity)
        if deferred:
            return -len(work.pending)
        with contextlib.ExitStack() as files:
            out = files.enter_context(open(work.matrix_path, "ab"))
            log = None  # one chunk or less: nothing to resume, no log to write
            if len(work.pending) > CHUNK:
                log = files.enter_context(open(work.log_path, "wb"))
                log.write(RESUME_MAGIC + len(work.known_keys).to_bytes(8, "little"))
            append_vectors(out, log, work.pending, embedder, progress, work.position,
                           work.known_keys, chunk=CHUNK)
        self._finish(work, identity, sig)
        return len(work.pending)

    def _backlog(self, source: FactSource, identity: Identity) -> _Backlog:
        """What an update has to embed: every fact's text whose key no saved or resumable
        row holds, shortest first."""
        facts = source.fact_texts()
        texts = [fact_text(content) for _, content in facts]
        snap = self.snapshot()
        fresh = snap is None or snap.identity != identity
        gen = (snap.generation + 1 if fresh else snap.generation) if snap else 1
        kept = snap if snap is not None and not fresh else None
        known_keys = [bytes(k) for k in kept.keys.tolist()] if kept else []
        saved = len(known_keys)
        matrix_path = self.folder / f"matrix-{gen}.f32"
        log_path = self.folder / f"resume-{gen}.keys"
        if kept is not None:  # the rows a killed update embedded after the saved state
            known_keys += resumable(log_path, matrix_path, saved, identity.dims * 4)
        position = {key: row for row, key in enumerate(known_keys)}
        keys = [text_key(t) for t in texts]
        todo = {k: t for k, t in zip(keys, texts, strict=True) if k not in position}
        # shortest first: each chunk, and each batch the model runs, holds texts of
        # about the same length (stable, so the order is the same on every run)
        pending = sorted(todo.items(), key=lambda item: len(item[1]))
        return _Backlog(snap=snap, kept=kept, gen=gen, known_keys=known_keys, saved=saved,
                        position=position, rowids=[rowid for rowid, _ in facts], keys=keys,
                        pending=pending, matrix_path=matrix_path, log_path=log_path)

    def _open_generation(self, work: _Backlog, identity: Identity) -> None:
        """Make the matrix file the rows to come are appended to; save the state the
        resume log will extend, when there is one to save."""
        import numpy as np

        kept = work.kept
        old_rowids = kept.fact_rowids if kept else np.zeros(0, np.int64)
        old_rows = kept.fact_rows if kept else np.zeros(0, np.int64)
        if kept is None:
            work.matrix_path.write_bytes(b"")
        else:
            with open(work.matrix_path, "ab") as handle:  # drop rows the log does not hold
                handle.truncate(len(work.known_keys) * identity.dims * 4)
        if work.pending and (kept is None or len(work.known_keys) > work.saved):
            # the state the log extends (old mapping: readers see no change yet);
            # a first update that leaves its backlog to `memfold index` saves it too,
            # so that the workspace counts as using vectors and `index` embeds them
            self._save(identity, work.gen, work.known_keys, old_rowids, old_rows, "")

    def _finish(self, work: _Backlog, identity: Identity, sig: str) -> None:
        """Save the state mapping every fact to its row (compacted when dead rows
        outnumber the live ones) and drop older generations and the resume log."""
        import numpy as np

        fact_rows = np.fromiter((work.position[k] for k in work.keys), dtype=np.int64,
                                count=len(work.keys))
        fact_rowids = np.asarray(work.rowids, dtype=np.int64)
        gen, known_keys = work.gen, work.known_keys
        live = len(set(fact_rows.tolist()))
        if len(known_keys) - live > max(1024, live):
            gen, known_keys, fact_rows = self._compact(identity, gen, known_keys, fact_rows)
        self._save(identity, gen, known_keys, fact_rowids, fact_rows, sig)
        self._remove_other_generations(gen)
        with contextlib.suppress(OSError):
            work.log_path.unlink()
        self._snapshot = None

    def _compact(self, identity: Identity, gen: int, keys: list[bytes],
                 fact_rows: npt.NDArray[np.int64]) -> tuple[int, list[bytes],
                                                            npt.NDArray[np.int64]]:
        """A new generation holding only the rows live facts use."""
        used = sorted(set(fact_rows.tolist()))
        renumber = self._copy_rows(identity, gen, len(keys), used)
        return gen + 1, [keys[i] for i in used], renumber[fact_rows]

    def _copy_rows(self, identity: Identity, gen: int, rows: int,
                   used: Sequence[int]) -> npt.NDArray[np.int64]:
        """Write generation gen + 1's matrix with only the `used` rows (ascending) of
        generation `gen`; returns each old row's new number (-1: left out)."""
        import numpy as np

        with open(self.folder / f"matrix-{gen + 1}.f32", "wb") as out:
            if used:
                old = np.memmap(self.folder / f"matrix-{gen}.f32", dtype=np.float32,
                                mode="r", shape=(rows, identity.dims))
                for start in range(0, len(used), 8192):
                    part = list(used[start : start + 8192])
                    out.write(np.ascontiguousarray(old[part]).tobytes())
                del old
            out.flush()
            os.fsync(out.fileno())
        renumber = np.full(rows, -1, dtype=np.int64)
        renumber[list(used)] = np.arange(len(used), dtype=np.int64)
        return renumber

    def drop(self, texts: Sequence[str], *, dry_run: bool = False) -> int:
        """Remove the vectors of these texts (a purge): a new generation is written without
        their rows, and the old generation's files, which held them, are deleted.  Facts that
        used those rows lose their vector until the next update; the rows an unfinished
        update left for its resume go too.  Returns the rows dropped (with `dry_run`, the
        rows that would be)."""
        if not texts or not (self.folder / "state.json").exists():
            return 0
        gone = {text_key(fact_text(t)) for t in texts}
        with self._locked():
            self._snapshot = None
            snap = self.snapshot()
            if snap is None:
                return 0
            keys = [bytes(k) for k in snap.keys.tolist()]
            used = [row for row, key in enumerate(keys) if key not in gone]
            # an unfinished update's rows count too: the new generation leaves them behind
            unsaved = resumable(self.folder / f"resume-{snap.generation}.keys",
                                 self.folder / f"matrix-{snap.generation}.f32", len(keys),
                                 snap.identity.dims * 4)
            dropped = len(keys) - len(used) + sum(key in gone for key in unsaved)
            if dry_run or not dropped:
                return dropped
            identity, gen, fact_rowids, fact_rows = (snap.identity, snap.generation,
                                                     snap.fact_rowids, snap.fact_rows)
            self._snapshot = snap = None  # let go of the memory-mapped matrix
            renumber = self._copy_rows(identity, gen, len(keys), used)
            rows = renumber[fact_rows]
            live = rows >= 0
            # no signature: the next update maps the index's facts again (none re-embedded)
            self._save(identity, gen + 1, [keys[i] for i in used], fact_rowids[live],
                       rows[live], "")
            self._remove_other_generations(gen + 1)
            self._ann = self._ann_key = None
            return dropped

    def _save(self, identity: Identity, gen: int, keys: list[bytes],
              fact_rowids: npt.NDArray[np.int64], fact_rows: npt.NDArray[np.int64],
              sig: str) -> None:
        import numpy as np

        key_array = np.frombuffer(b"".join(keys), dtype=f"V{KEY_BYTES}") if keys else (
            np.zeros(0, dtype=f"V{KEY_BYTES}"))
        map_tmp = self.folder / f"map-{gen}.npz.tmp"
        with open(map_tmp, "wb") as handle:
            np.savez(handle, keys=key_array, fact_rowids=fact_rowids, fact_rows=fact_rows)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(map_tmp, self.folder / f"map-{gen}.npz")
        state = {"format": FORMAT, "identity": identity.to_dict(), "generation": gen,
                 "rows": len(keys), "facts": len(fact_rowids), "signature": sig}
        state_tmp = self.folder / "state.json.tmp"
        state_tmp.write_text(json.dumps(state, indent=1) + "\n", encoding="utf-8")
        os.replace(state_tmp, self.folder / "state.json")

    def _remove_other_generations(self, gen: int) -> None:
        for path in self.folder.iterdir():
            stem = path.name.split(".", 1)[0]
            if "-" in stem and stem.split("-", 1)[0] in ("map", "matrix", "resume", "ann"):
                number = stem.split("-", 1)[1]
                if number.isdigit() and int(number) != gen:
                    with contextlib.suppress(OSError):
                        path.unlink()

    # -- searching -----------------------------------------------------------------------

    def search(self, query: Matrix, limit: int, *,
               ann_min_rows: int = ANN_MIN_ROWS) -> list[tuple[int, float]]:
        """The `limit` facts (rowids) most similar to `query`, best first, with cosine.

        Exact (one matrix-vector product over the memory-mapped rows) up to `ann_min_rows`
        live facts; past that an HNSW graph proposes candidates that are then scored exactly,
        when `usearch` is installed.
        """
        import numpy as np

        snap = self.snapshot()
        if snap is None or not len(snap.fact_rowids) or limit < 1:
            return []
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        if len(snap.fact_rowids) >= ann_min_rows:
            found = self._ann_search(snap, q, limit)
            if found is not None:
                return found
        scores = snap.matrix @ q  # (rows,)
        live = scores[snap.fact_rows]
        take = min(limit, len(live))
        top = np.argpartition(-live, take - 1)[:take]
        top = top[np.lexsort((snap.fact_rowids[top], -live[top]))]
        return [(int(snap.fact_rowids[i]), float(live[i])) for i in top]

    def vector(self, rowid: int) -> Matrix | None:
        """The vector of this fact, if it has one."""
        snap = self.snapshot()
        row = snap.rows_of([rowid]).get(rowid) if snap else None
        return None if snap is None or row is None else snap.matrix[row]

    def similarity(self, query: Matrix, rowids: Sequence[int]) -> dict[int, float]:
        """Cosine of `query` with each of these facts that has a vector."""
        import numpy as np

        snap = self.snapshot()
        if snap is None or not rowids:
            return {}
        rows = snap.rows_of(rowids)
        if not rows:
            return {}
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        order = sorted(set(rows.values()))
        values = dict(zip(order, (snap.matrix[order] @ q).tolist(), strict=True))
        return {rowid: float(values[row]) for rowid, row in rows.items()}

    def pairwise(self, rowids: Sequence[int]) -> list[list[float]]:
        """The cosine of each of these facts with each other, in the order given (0 where a
        fact has no vector)."""
        import numpy as np

        snap = self.snapshot()
        rows = snap.rows_of(rowids) if snap is not None and rowids else {}
        out = np.zeros((len(rowids), len(rowids)), dtype=np.float32)
        have = [i for i, rowid in enumerate(rowids) if rowid in rows]
        if snap is not None and have:
            vectors = snap.matrix[[rows[rowids[i]] for i in have]]
            out[np.ix_(have, have)] = vectors @ vectors.T
        result: list[list[float]] = out.tolist()
        return result

    def _ann_search(self, snap: Snapshot, q: Matrix, limit: int) -> list[tuple[int, float]] | None:
        import numpy as np

        index = self._ann_index(snap)
        if index is None:
            return None
        # rows shared by several facts and dead rows make room for fewer facts: ask for more
        want = min(snap.rows, max(4 * limit, 200))
        matches = index.search(q, want, exact=False)
        rows = np.asarray(matches.keys, dtype=np.int64)
        if not len(rows):
            return []
        order = np.argsort(snap.fact_rows, kind="stable")
        sorted_rows = snap.fact_rows[order]
        scored: list[tuple[int, float]] = []
        exact = (snap.matrix[np.sort(rows)] @ q).tolist()
        by_row = dict(zip(np.sort(rows).tolist(), exact, strict=True))
        for row in rows.tolist():
            lo, hi = np.searchsorted(sorted_rows, [row, row + 1])
            for i in order[lo:hi].tolist():
                scored.append((int(snap.fact_rowids[i]), float(by_row[row])))
        scored.sort(key=lambda p: (-p[1], p[0]))
        return scored[:limit]

    def _ann_index(self, snap: Snapshot) -> Any:
        """The HNSW graph of this generation, brought up to the snapshot's rows."""
        with contextlib.suppress(ImportError):
            # onnxruntime first: importing it after usearch crashes the process
            # (usearch 2.26 with onnxruntime 1.32, seen on Linux x86-64)
            import onnxruntime  # noqa: F401
        try:
            from usearch.index import Index
        except ImportError:
            return None
        key = (snap.generation, snap.rows)
        if self._ann is not None and self._ann_key == key:
            return self._ann
        path = self.folder / f"ann-{snap.generation}.usearch"
        index = Index(ndim=snap.identity.dims, metric="ip", dtype="f32",
                      connectivity=ANN_CONNECTIVITY, expansion_add=ANN_EXPANSION_ADD,
                      expansion_search=ANN_EXPANSION_SEARCH)
        if path.exists():
            try:
                index.load(str(path))
            except (RuntimeError, ValueError, OSError):
                index = Index(ndim=snap.identity.dims, metric="ip", dtype="f32",
                              connectivity=ANN_CONNECTIVITY, expansion_add=ANN_EXPANSION_ADD,
                              expansion_search=ANN_EXPANSION_SEARCH)
        have = len(index)
        if have < snap.rows:
            import numpy as np

            index.add(np.arange(have, snap.rows, dtype=np.uint64),
                      np.ascontiguousarray(snap.matrix[have:]),
                      threads=1 if snap.rows - have < ANN_SERIAL_ADD else 0)
            with contextlib.suppress(OSError, RuntimeError):
                tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
                index.save(str(tmp))
                os.replace(tmp, path)
        self._ann, self._ann_key = index, key
        return index
