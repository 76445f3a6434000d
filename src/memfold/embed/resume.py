"""The resume log of a vector update (`memfold.embed.store`): `resume-<gen>.keys`.

After each chunk an update embeds, the new rows are synced to the matrix, then their keys,
each with a digest of its row, are appended to the log and synced: a row is logged only once
it is on disk, and a checkpoint costs a chunk's bytes, however large the matrix already is.
The next update takes every logged row whose digest still matches the matrix.  The log starts
with RESUME_MAGIC and the row count of the saved state it extends.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import BinaryIO

from memfold.embed.base import Embedder

KEY_BYTES = 16  # a row's key: a hash of the text embedded (`store.text_key`)
RESUME_MAGIC = b"memfold-resume-1"  # then the row count of the state the log extends
ROW_DIGEST_BYTES = 8  # a log entry: the row's key, then this much of its bytes' digest
READ_ROWS = 256  # matrix rows read at a time when checking the log


def row_digest(row: bytes) -> bytes:
    return hashlib.blake2b(row, digest_size=ROW_DIGEST_BYTES).digest()


def append_vectors(out: BinaryIO, log: BinaryIO | None, pending: Sequence[tuple[bytes, str]],
                   embedder: Embedder, progress: Callable[[int, int], None] | None,
                   position: dict[bytes, int], known_keys: list[bytes], *, chunk: int) -> None:
    """Embed the `pending` texts `chunk` at a time and append their rows to the open matrix
    file, numbering each new row in `position` and `known_keys`.  After each chunk the
    matrix is synced, then the chunk's entries are appended to the resume log (if any) and
    synced: a row is logged only once it is on disk."""
    import numpy as np

    dims = embedder.identity.dims
    width = dims * 4
    done = 0
    if progress:
        progress(0, len(pending))
    for start in range(0, len(pending), chunk):
        part = pending[start : start + chunk]
        vectors = np.ascontiguousarray(embedder.embed([t for _, t in part]), dtype=np.float32)
        if vectors.shape != (len(part), dims):
            raise ValueError(f"the embedder returned {vectors.shape} for "
                             f"{len(part)} texts of {dims} dims")
        data = vectors.tobytes()
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
        entries = []
        for n, (key, _) in enumerate(part):
            position[key] = len(known_keys)
            known_keys.append(key)
            entries.append(key + row_digest(data[n * width : (n + 1) * width]))
        if log is not None:
            log.write(b"".join(entries))
            log.flush()
            os.fsync(log.fileno())
        done += len(part)
        if progress:
            progress(done, len(pending))


def resumable(log_path: Path, matrix_path: Path, base: int, width: int) -> list[bytes]:
    """The keys of the rows a killed update appended after the `base` saved rows: the
    resume log's entries, in order, as long as each row is in the matrix with its digest."""
    entry = KEY_BYTES + ROW_DIGEST_BYTES
    header = len(RESUME_MAGIC) + 8
    try:
        data = log_path.read_bytes()
    except OSError:
        return []
    if (len(data) < header or not data.startswith(RESUME_MAGIC)
            or int.from_bytes(data[len(RESUME_MAGIC) : header], "little") != base):
        return []
    keys: list[bytes] = []
    count = (len(data) - header) // entry
    try:
        with open(matrix_path, "rb") as matrix:
            matrix.seek(base * width)
            for first in range(0, count, READ_ROWS):
                block = matrix.read(min(READ_ROWS, count - first) * width)
                for n in range(len(block) // width):
                    at = header + (first + n) * entry
                    if row_digest(block[n * width : (n + 1) * width]) != data[
                            at + KEY_BYTES : at + entry]:
                        return keys
                    keys.append(data[at : at + KEY_BYTES])
    except OSError:
        return []
    return keys
