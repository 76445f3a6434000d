"""Reranking: a second, closer look at recall's best candidates (`memfold recall --rerank`).

Optional, and off unless asked for.  A cross-encoder (query and fact read together by one
model) is the usual tool, but none ships inside a package on the registries memfold may
use: each one checked downloads its weights at run time (docs/semantic.md, "Reranking").
What ships is all-MiniLM-L6-v2, the embedder of the `embed` extra (`models`, pinned by
sha256), and its per-token output allows late interaction:

    late = mean over the query's tokens of the best cosine with any of the fact's tokens

(the MaxSim of ColBERT, here over a model not trained for it).  Unlike the fact's single
vector it keeps which words of the query each part of the fact answers.  Recall blends it
into the score of its `ranking.RERANK_TOP` best candidates (`recall.search._reranked`).

The model keeps the token vectors its runs give (`embed.tokens`: a fact's when it is
embedded or first looked at, a question's when its vector is made), so a second look runs
it only for what it has not seen lately.

Rerankers register in the entry-point group `memfold.rerankers` (`RERANKERS`; this one as
`late-interaction`, declared as a plugin would declare its own): the object registered is
called with no arguments and returns a Reranker (docs/plugins.md).
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from memfold.errors import BadInput, EmbedUnavailable, MemfoldError
from memfold.plugins import Group

if TYPE_CHECKING:
    from memfold.embed.base import Matrix

HINT = "reranking needs the embed extra: pip install 'memfold[embed]'"
LATE_INTERACTION = "late-interaction"
RERANKERS = Group("memfold.rerankers", "reranker", (
    (LATE_INTERACTION, "memfold.embed.rerank:late_interaction"),
))


class Reranker(Protocol):
    """Scores texts against a query; higher is more relevant.  Only the order matters:
    recall rescales the scores to 0..1 among the candidates."""

    def scores(self, query: str, texts: Sequence[str]) -> list[float]: ...


class LateInteraction:
    """MaxSim over all-MiniLM-L6-v2's token vectors (`models.MiniLMEmbedder`)."""

    def __init__(self, model: object) -> None:
        # a MiniLMEmbedder: anything with token_vectors(texts), which keeps what it made
        self._model = model

    def _tokens(self, query: str, texts: Sequence[str]) -> tuple[Matrix, list[Matrix]]:
        """The query's token vectors and each text's (at float16, as the model keeps a
        fact's), from one call of the model: whatever it has not kept is made in one run."""
        import numpy as np

        made = self._model.token_vectors([query, *texts])  # type: ignore[attr-defined]
        return made[0], [np.asarray(m).astype("float16", copy=False) for m in made[1:]]

    def scores(self, query: str, texts: Sequence[str]) -> list[float]:
        import numpy as np

        if not texts:
            return []
        asked, found = self._tokens(query, texts)
        asked = np.asarray(asked, dtype="float32")  # a question's: kept at full precision
        out = []
        for tokens in found:
            if not len(asked) or not len(tokens):
                out.append(0.0)
                continue
            out.append(float((asked @ tokens.T.astype("float32")).max(axis=1).mean()))
        return out


_lock = threading.Lock()
_shared: dict[str, Reranker] = {}


def late_interaction() -> Reranker:
    """The built-in reranker over the embed extra's MiniLM (whichever model the workspace
    embeds with); EmbedUnavailable, saying what to install, without the extra."""
    from memfold.embed import RUNTIME, shared_embedder
    from memfold.embed.models import MINILM, MiniLMEmbedder, minilm_path

    if any(importlib.util.find_spec(n) is None for n in RUNTIME) or not minilm_path():
        raise EmbedUnavailable(HINT)
    model = shared_embedder(MINILM)
    if not isinstance(model, MiniLMEmbedder):  # pragma: no cover - a loader swapped
        raise EmbedUnavailable(HINT)
    return LateInteraction(model)


def shared_reranker(name: str = LATE_INTERACTION) -> Reranker:
    """The reranker registered as `name`, made once per process; BadInput naming the
    registered ones when none is."""
    with _lock:
        if name not in _shared:
            make = RERANKERS.load(name)
            if make is None:
                raise BadInput(f"no reranker {name!r}; use one of: "
                               f"{', '.join(RERANKERS.names())}")
            try:
                reranker: Reranker = make()
            except MemfoldError:
                raise
            except Exception as exc:  # a plugin's reranker that cannot start: one line
                raise EmbedUnavailable(f"the {name} reranker cannot load: "
                                       f"{type(exc).__name__}: {exc}") from None
            _shared[name] = reranker
        return _shared[name]
