"""The embedder contract: texts in, unit-length float32 vectors out, with an identity.

An embedder's `Identity` (model name, version, dimensions, weights sha256) is stored beside
the vectors it made; when the identity changes, every vector is made again, so vectors of
two models never meet in one search.  `FakeEmbedder` honours the same contract with no model
at all (words hashed into buckets), for tests.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Matrix = npt.NDArray[np.float32]

WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Identity:
    """What made a vector: two vectors compare only when their identities are equal."""

    model: str
    version: str
    dims: int
    weights_sha256: str

    def to_dict(self) -> dict[str, object]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> Identity | None:
        if not isinstance(data, dict):
            return None
        try:
            return cls(str(data["model"]), str(data["version"]), int(data["dims"]),
                       str(data["weights_sha256"]))
        except (KeyError, TypeError, ValueError):
            return None


class Embedder(Protocol):
    """Turns texts into vectors: row i of `embed(texts)` is texts[i], L2-normalised."""

    @property
    def identity(self) -> Identity: ...

    def embed(self, texts: Sequence[str]) -> Matrix:
        """Passages (facts, chunks) as an (n, dims) float32 matrix of unit rows."""
        ...

    def embed_query(self, text: str) -> Matrix:
        """A search query as a (dims,) unit vector (some models mark queries apart)."""
        ...


class FakeEmbedder:
    """A deterministic stand-in: each word adds a signed hash bucket, then L2 norm.

    Texts sharing words are close, texts sharing none are near-orthogonal: enough to test
    storage, incremental updates, search and fusion without a model.  `version` is part of
    the identity, so a test can change it to see everything re-embedded.
    """

    def __init__(self, dims: int = 64, version: str = "1") -> None:
        self._identity = Identity("fake-hashing", version, dims,
                                  hashlib.sha256(f"fake:{version}:{dims}".encode()).hexdigest())
        self.calls: list[int] = []  # how many texts each embed() call was given

    @property
    def identity(self) -> Identity:
        return self._identity

    def embed(self, texts: Sequence[str]) -> Matrix:
        import numpy as np  # the embed extra

        self.calls.append(len(texts))
        dims = self._identity.dims
        out = np.zeros((len(texts), dims), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in WORD.findall(text.casefold()):
                digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
                bucket = int.from_bytes(digest[:4], "little") % dims
                out[row, bucket] += 1.0 if digest[4] & 1 else -1.0
            norm = float(np.linalg.norm(out[row]))
            if norm > 0:
                out[row] /= norm
            else:
                out[row, 0] = 1.0
        return out

    def embed_query(self, text: str) -> Matrix:
        vector: Matrix = self.embed([text])[0]
        return vector
