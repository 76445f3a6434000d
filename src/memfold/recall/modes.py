"""Recall's modes: lexical, semantic or hybrid, the one a recall runs in by default, and the
semantic search a workspace opens for it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from memfold import config, embed  # embed's functions read as embed.x, where tests replace them
from memfold.errors import BadInput, EmbedUnavailable
from memfold.recall.fusion import HYBRID, LEXICAL, MODES

if TYPE_CHECKING:
    from memfold.embed.base import Embedder
    from memfold.recall.semantic import Semantic


def check_mode(mode: str | None) -> str | None:
    if mode is None:
        return None
    chosen = mode.strip().lower()
    if chosen not in MODES:
        raise BadInput(f"unknown recall mode {mode!r}; use {', '.join(MODES)}")
    return chosen


def default_mode(have_embedder: bool = False, memory_dir: Path | None = None) -> str:
    """MEMFOLD_RECALL_MODE; else hybrid when an embedder is at hand, or when the extra is
    installed and the workspace has vectors (the first semantic or hybrid recall, or
    `memfold index` after one, makes them); else lexical.

    A workspace without vectors stays lexical until asked: embedding a large workspace for
    the first time takes minutes, which a plain recall should not start unasked."""
    configured = check_mode(config.given("MEMFOLD_RECALL_MODE") or None)
    if configured:
        return configured
    if have_embedder:
        return HYBRID
    wanted = memory_dir is not None and embed.enabled(memory_dir)
    return HYBRID if wanted and embed.installed() else LEXICAL


def open_semantic(memory_dir: Path, embedder: Embedder | None = None) -> Semantic:
    """Semantic search over the index in `memory_dir` (`.memory/`)."""
    if embedder is None and not embed.installed():
        raise EmbedUnavailable(embed.HINT)
    from memfold.recall.semantic import Semantic  # vector search (numpy): semantic and hybrid only

    return Semantic(memory_dir / "vectors", embedder or embed.shared_embedder())
