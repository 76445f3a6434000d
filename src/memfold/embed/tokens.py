"""Token vectors kept in memory, by text: what late interaction compares (`embed.rerank`).

A run of the model gives every token's vector before it pools them into the text's single
vector, so the runs that embed facts (`VectorStore.update`) and questions (`Semantic.fuse`)
keep them here, and hybrid recall's second look (`recall.search._looked`) runs the model
again only for a fact this process has not embedded, nor looked at, lately.  Keyed by the
text embedded: a fact whose content changes is a new text, its old vectors age out.
Bounded: the least recently used text goes first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memfold.embed.base import Matrix

FACTS = 4096  # texts whose token vectors a process keeps (about 15 MB per 1,000 facts)
QUESTIONS = 256  # questions' token vectors, kept at full precision


class TokenCache:
    """The token vectors of up to `size` texts, stored as `dtype` (float16 for facts: half
    the memory, and what late interaction has always compared facts at)."""

    def __init__(self, size: int, dtype: str) -> None:
        self.size = size
        self.dtype = dtype
        self._kept: OrderedDict[str, Matrix] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, text: str) -> Matrix | None:
        with self._lock:
            found = self._kept.get(text)
            if found is not None:
                self._kept.move_to_end(text)
            return found

    def put(self, texts: Sequence[str], vectors: Sequence[Matrix]) -> None:
        """Keep each text's token vectors (the newest last: the first to go are the
        oldest)."""
        with self._lock:
            for text, made in zip(texts, vectors, strict=True):
                self._kept[text] = made.astype(self.dtype)
                self._kept.move_to_end(text)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
