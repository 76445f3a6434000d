"""Semantic recall (memfold.embed) with the FakeEmbedder: the embedder contract, the vector
store (incremental, identity-bound, compacted), exact and HNSW search, hybrid fusion inside
recall (rare exact tokens first, lifecycle and filters after fusion), and memfold without
the extra."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from memfold import embed
from memfold.cli.main import cli
from memfold.embed.base import FakeEmbedder, Identity
from memfold.embed.store import VectorStore, fact_text
from memfold.errors import BadInput
from memfold.memory import Memory
from memfold.recall import fusion, modes
from memfold.recall.query import plan_query
from memfold.recall.semantic import exact_looking

NOW = "2025-11-28T12:00:00+00:00"
SYNONYMS = {"automobile": "car", "vehicle": "car", "canine": "dog", "puppy": "dog",
            "pet": "dog", "hound": "dog", "pupper": "dog"}


class SynonymEmbedder(FakeEmbedder):
    """FakeEmbedder that knows a few synonyms: meaning without shared words."""

    def embed(self, texts: Sequence[str]) -> object:  # type: ignore[override]
        swapped = [" ".join(SYNONYMS.get(w, w) for w in re.findall(r"\w+", t.casefold()))
                   for t in texts]
        return super().embed(swapped)


class Failing(FakeEmbedder):
    def embed(self, texts: Sequence[str]) -> object:  # type: ignore[override]
        raise RuntimeError("model fell over")


@pytest.fixture
def memory(workspace: Path) -> Memory:
    mem = Memory.open(workspace, now=NOW)
    yield mem  # type: ignore[misc]
    mem.close()


def retain(memory: Memory, *bullets: str) -> list[str]:
    return [f.id for f in memory.retain(list(bullets), date="2025-11-27").facts]


# -- the embedder contract ---------------------------------------------------------------


def test_fake_embedder_honours_the_contract() -> None:
    fake = FakeEmbedder(dims=32)
    vectors = fake.embed(["Peter lives in Vienna", "peter LIVES in vienna", "", "sushi"])
    assert vectors.shape == (4, 32) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert np.allclose(vectors[0], vectors[1])  # deterministic, case-insensitive
    assert float(vectors[0] @ vectors[3]) < 0.9
    assert fake.embed([]).shape == (0, 32)
    query = fake.embed_query("Peter lives in Vienna")
    assert query.shape == (32,) and np.allclose(query, vectors[0])
    ident = fake.identity
    assert (ident.model, ident.dims, len(ident.weights_sha256)) == ("fake-hashing", 32, 64)
    assert Identity.from_dict(ident.to_dict()) == ident
    assert Identity.from_dict({"model": "x"}) is None
    assert FakeEmbedder(dims=32, version="2").identity != ident


def test_fact_text_is_the_content() -> None:
    assert fact_text("Lives in Vienna.") == "Lives in Vienna."


# -- the store ----------------------------------------------------------------------------


def test_embedding_is_incremental_and_survives_a_rebuild(memory: Memory) -> None:
    fake = FakeEmbedder()
    memory.set_embedder(fake)
    retain(memory, "W @Peter: Lives in Vienna.", "B: Fixed the Baileys crash.")
    memory.recall("Vienna", mode="hybrid")
    assert sum(fake.calls[:-1]) == 2  # two facts, then the query
    fake.calls.clear()
    memory.recall("Vienna", mode="hybrid")
    assert fake.calls == [] or fake.calls == [1]  # nothing new to embed (query cached)
    retain(memory, "O @Peter: Prefers trains.")
    fake.calls.clear()
    memory.recall("trains", mode="hybrid")
    assert fake.calls[0] == 1  # only the new fact
    fake.calls.clear()
    memory.index(full=True)  # rowids change, texts do not: nothing is embedded again
    hits = memory.recall("trains", mode="hybrid").hits
    assert fake.calls == []  # the query was embedded before; the facts all have vectors
    assert "trains" in hits[0].fact.content
    folder = memory.workspace.index_path.parent / "vectors"
    state = json.loads((folder / "state.json").read_text(encoding="utf-8"))
    assert state["identity"] == fake.identity.to_dict() and state["facts"] == 3


def test_the_signature_moves_with_the_facts_and_only_then(memory: Memory) -> None:
    from memfold.embed.store import signature

    retain(memory, "W @Peter: Lives in Vienna.")
    memory.index()
    db = memory.index_backend  # the signature is the backend's (`facts_signature`)
    first = signature(db)
    memory.index()  # nothing changed
    assert signature(db) == first
    log = memory.workspace.root / "memory" / "2025-11-27.md"
    os.utime(log, ns=(log.stat().st_atime_ns, log.stat().st_mtime_ns - 5_000_000_000))
    memory.index()  # the same bytes with another mtime: restamped, no fact changed
    assert signature(db) == first
    retain(memory, "B: Fixed the Baileys crash.")
    memory.index()
    assert signature(db) not in (first, "")


def test_a_changed_identity_re_embeds_everything(memory: Memory) -> None:
    memory.set_embedder(FakeEmbedder(version="1"))
    retain(memory, "W @Peter: Lives in Vienna.", "B: Fixed the Baileys crash.")
    memory.recall("Vienna", mode="hybrid")
    other = FakeEmbedder(version="2")
    memory.set_embedder(other)
    memory.recall("Vienna", mode="hybrid")
    assert other.calls[0] == 2
    folder = memory.workspace.index_path.parent / "vectors"
    state = json.loads((folder / "state.json").read_text(encoding="utf-8"))
    assert state["identity"]["version"] == "2" and state["generation"] == 2
    assert not list(folder.glob("matrix-1.*"))  # the old model's vectors are gone


def test_edited_and_removed_facts_leave_the_search(memory: Memory) -> None:
    fake = FakeEmbedder()
    memory.set_embedder(fake)
    retain(memory, "W @Peter: Lives in Vienna.", "W: The office moved to Graz.")
    memory.recall("Vienna", mode="semantic")
    daily = memory.workspace.root / "memory/2025-11-27.md"
    text = daily.read_text(encoding="utf-8").replace("Lives in Vienna", "Lives in Lisbon")
    daily.write_text(text, encoding="utf-8")
    hits = memory.recall("Lisbon", mode="semantic").hits
    assert hits and "Lisbon" in hits[0].fact.content
    assert all("Vienna" not in h.fact.content for h in memory.recall("Vienna",
                                                                     mode="semantic").hits)


def test_compaction_drops_dead_rows_and_keeps_results(tmp_path: Path, memory: Memory) -> None:
    fake = FakeEmbedder()
    memory.set_embedder(fake)
    retain(memory, "W: keep this fact about ravens.")
    daily = memory.workspace.root / "memory/2025-11-27.md"
    original = daily.read_text(encoding="utf-8")
    for round_ in range(3):
        lines = "".join(f"- B: churn {round_} item {i}\n" for i in range(500))
        daily.write_text(original + lines, encoding="utf-8")
        memory.recall("ravens", mode="hybrid")
    daily.write_text(original, encoding="utf-8")
    hits = memory.recall("ravens", mode="hybrid").hits
    folder = memory.workspace.index_path.parent / "vectors"
    state = json.loads((folder / "state.json").read_text(encoding="utf-8"))
    assert state["generation"] > 1 and state["rows"] < 1500
    assert hits[0].fact.content == "keep this fact about ravens."


def test_hnsw_search_gives_the_exact_results(tmp_path: Path) -> None:
    fake = FakeEmbedder(dims=48)
    store = VectorStore(tmp_path / "vectors")
    words = ["alpha", "beta", "gamma", "delta", "omega", "kappa", "sigma", "tau", "rho", "phi"]
    texts = [(n + 1, f"{words[n % 10]} {words[(n // 10) % 10]} {words[n % 7]} {n}")
             for n in range(600)]

    class Facts:  # what the store reads from an index (`FactSource`)
        def fact_texts(self) -> list[tuple[int, str]]:
            return texts

        def facts_signature(self) -> str:
            return "600 facts"

    assert store.update(Facts(), fake) == 600
    for text in ("alpha beta", "sigma tau rho", "omega"):
        q = fake.embed_query(text)
        exact = store.search(q, 10)
        approx = store.search(q, 10, ann_min_rows=1)
        assert [round(s, 5) for _, s in approx] == [round(s, 5) for _, s in exact]
        last = round(exact[-1][1], 5)  # ties at the cut may come in another order
        assert {r for r, s in approx if round(s, 5) > last} == {
            r for r, s in exact if round(s, 5) > last}
    graphs = list((tmp_path / "vectors").glob("ann-*.usearch"))
    assert graphs
    # a small build is reproducible: the same rows give the same graph, byte for byte
    again = VectorStore(tmp_path / "again")
    again.update(Facts(), fake)
    again.search(fake.embed_query("omega"), 10, ann_min_rows=1)
    [graph] = graphs
    [other] = (tmp_path / "again").glob("ann-*.usearch")
    assert graph.read_bytes() == other.read_bytes()


# -- recall ------------------------------------------------------------------------------


def test_semantic_recall_finds_meaning_without_shared_words(memory: Memory) -> None:
    memory.set_embedder(SynonymEmbedder())
    retain(memory, "B @Peter: Adopted a puppy from the shelter.",
           "W: The automobile needs new tyres.", "W: Tax forms are due in April.")
    # "pupper", a word no lexicon holds (word knowledge finds the puppy for "canine")
    lexical = memory.recall("who got a pupper", mode="lexical").hits
    assert not lexical
    hits = memory.recall("who got a pupper", mode="hybrid").hits
    assert hits and "puppy" in hits[0].fact.content
    assert "similar meaning" in hits[0].why
    assert "puppy" in memory.recall("pupper", mode="semantic").hits[0].fact.content


def test_hybrid_keeps_a_rare_exact_token_first(memory: Memory) -> None:
    memory.set_embedder(FakeEmbedder())
    retain(memory, *[f"B: deploy of the api failed with a connection reset on node {n}"
                     for n in range(8)])
    retain(memory, "B: saw ERR_CONN_RESET_7731 once, in the nightly job")
    hits = memory.recall("deploy api failed connection reset ERR_CONN_RESET_7731",
                         mode="hybrid").hits
    assert "ERR_CONN_RESET_7731" in hits[0].fact.content
    assert exact_looking(plan_query('why "blue heron" failed ERR_X v2.1 Zephyr', today=None
                                    )) == ["blue heron", "ERR_X", "v2.1"]  # type: ignore[arg-type]


def test_lifecycle_and_filters_apply_after_fusion(memory: Memory) -> None:
    memory.set_embedder(SynonymEmbedder())
    [old] = retain(memory, "W @Peter: Drives an automobile.")
    [new, _] = retain(memory, "W @Anna: Sold the car and cycles now.",
                      "O: Vehicle taxes are too high.")
    memory.supersede(old, new, now=NOW)
    ids = [h.fact.id for h in memory.recall("car", mode="hybrid").hits]
    assert old not in ids and new in ids
    assert old in [h.fact.id for h in memory.recall("car", mode="hybrid",
                                                    include_all=True).hits]
    kinds = {h.fact.kind for h in memory.recall("car", mode="semantic", kinds="O").hits}
    assert kinds == {"opinion"}


def test_fusion_weights_and_parts() -> None:
    assert fusion.fuse("lexical", 0.7, 0.9) == 0.7
    assert fusion.fuse("semantic", 0.7, 0.9) == 0.9
    hybrid = fusion.fuse("hybrid", 1.0, 0.0)
    assert hybrid == pytest.approx(fusion.W_LEXICAL)
    assert fusion.fuse("hybrid", 0.2, 0.2, rare_exact=True) > fusion.fuse("hybrid", 1.0, 1.0)
    assert fusion.semantic_part(None, 0.9) == 0.0
    assert fusion.semantic_part(fusion.SEM_FLOOR / 2, 0.9) == 0.0
    assert fusion.semantic_part(0.9, 0.9) == pytest.approx(1.0)
    assert fusion.lexical_part(-2.0, 4.0) == pytest.approx(0.5)


def test_a_failing_embedder_never_fails_retain_or_recall(memory: Memory) -> None:
    memory.set_embedder(Failing())
    result = memory.retain("W @Peter: Lives in Vienna.")
    assert result.indexed
    hits = memory.recall("Vienna").hits  # the embedder at hand makes hybrid the default
    assert hits and "Vienna" in hits[0].fact.content
    assert any("could not embed" in n for n in memory.notices)


# -- without the extra --------------------------------------------------------------------


def test_without_the_extra_recall_is_lexical_and_says_how_to_enable(
        memory: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embed, "installed", lambda: False)
    monkeypatch.delenv("MEMFOLD_RECALL_MODE", raising=False)
    retain(memory, "W @Peter: Lives in Vienna.")
    assert modes.default_mode() == "lexical"
    assert memory.recall("Vienna").hits
    assert not (memory.workspace.index_path.parent / "vectors").exists()
    with pytest.raises(embed.EmbedUnavailable, match=r"pip install 'memfold\[embed\]'"):
        memory.recall("Vienna", mode="semantic")
    result = CliRunner().invoke(cli, ["-w", str(memory.workspace.root), "recall", "Vienna",
                                      "--mode", "hybrid"])
    assert result.exit_code == 1 and "memfold[embed]" in result.output
    bad = CliRunner().invoke(cli, ["-w", str(memory.workspace.root), "recall", "Vienna",
                                   "--mode", "fuzzy"])
    assert bad.exit_code == 2


def test_hybrid_becomes_the_default_once_a_workspace_has_vectors(
        memory: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embed, "installed", lambda: True)
    monkeypatch.delenv("MEMFOLD_RECALL_MODE", raising=False)
    folder = memory.workspace.index_path.parent
    assert modes.default_mode(memory_dir=folder) == "lexical"
    memory.set_embedder(FakeEmbedder())
    retain(memory, "W @Peter: Lives in Vienna.")
    memory.recall("Vienna", mode="hybrid")
    assert embed.enabled(folder) and modes.default_mode(memory_dir=folder) == "hybrid"
    monkeypatch.setenv("MEMFOLD_RECALL_MODE", "lexical")
    assert modes.default_mode(memory_dir=folder) == "lexical"


def test_the_mode_setting_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMFOLD_RECALL_MODE", "lexical")
    assert modes.default_mode(have_embedder=True) == "lexical"
    monkeypatch.setenv("MEMFOLD_RECALL_MODE", "vector")
    with pytest.raises(BadInput, match="unknown recall mode"):
        modes.default_mode()


