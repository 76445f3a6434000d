"""Hybrid recall's second look (`recall.search._looked`) compares token vectors the model
already made: the question's come from the same run as its single vector, a fact's from the
run that embedded it (`embed.tokens`).  The real packaged model (all-MiniLM-L6-v2), counted
by its runs, not timed."""

from __future__ import annotations

from pathlib import Path

import pytest

from memfold.embed import models
from memfold.embed.rerank import LateInteraction
from memfold.memory import Memory

NOW = "2025-11-28T12:00:00+00:00"
FACTS = ["B @Peter: Adopted a beagle called Biscuit from the animal shelter.",
         "W @Anna: Works as a midwife at the city hospital.",
         "W @Peter: Lives in Vienna with his partner.",
         "B: The nightly deploy failed with a connection reset.",
         "O @Anna: Prefers dark roast coffee in the morning.",
         "W: The quarterly tax report is due in April."]


@pytest.fixture
def model() -> models.MiniLMEmbedder:
    return models.MiniLMEmbedder()  # its own runs counted, not the process's shared one


def test_a_hybrid_recall_runs_the_model_once(workspace: Path, model: models.MiniLMEmbedder,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    looks: list[int] = []  # the texts each second look compared
    token_vectors = model.token_vectors
    monkeypatch.setattr(model, "token_vectors",
                        lambda texts: looks.append(len(texts)) or token_vectors(texts))
    with Memory.open(workspace, now=NOW) as memory:
        memory.set_embedder(model)
        memory.retain(FACTS, date="2025-11-27")
        memory.recall("where does the deploy fail", mode="hybrid")  # embeds every fact
        for question in ("What kind of dog does Peter have?",  # a name: two texts, one run
                         "What does Anna do for a living?",
                         "who drinks coffee or lives in Vienna"):
            before, looked = model.runs, len(looks)
            hits = memory.recall(question, mode="hybrid").hits
            assert model.runs - before == 1, question
            assert len(hits) >= 2 and len(looks) == looked + 1  # the second look ran
        before = model.runs
        memory.recall("who drinks coffee or lives in Vienna", mode="hybrid")
        assert model.runs == before  # asked again: nothing to make


def test_kept_token_vectors_score_as_made_afresh(model: models.MiniLMEmbedder) -> None:
    """What the second look compares is what it compared when it ran the model for the
    question and the facts together: the runs that embed them keep the same vectors."""
    question, asked_as = "What kind of dog does Peter have?", "What kind of dog does have?"
    texts = [f.split(": ", 1)[1] for f in FACTS]
    model.embed(texts)
    vectors = model.embed_queries([asked_as, question])
    before = model.runs
    kept = LateInteraction(model).scores(question, texts)
    assert model.runs == before  # everything was kept
    fresh = models.MiniLMEmbedder()
    made = LateInteraction(fresh).scores(question, texts)  # one run of all of them
    assert kept == pytest.approx(made, abs=1e-3)
    assert max(range(len(texts)), key=kept.__getitem__) == 0  # the beagle
    # a question's vector is the one it gets alone, whatever it was run beside
    assert (vectors[0] == fresh.embed_query(asked_as)).all()


def test_what_was_not_kept_is_made_in_one_run(model: models.MiniLMEmbedder) -> None:
    texts = [f.split(": ", 1)[1] for f in FACTS]
    before = model.runs
    LateInteraction(model).scores("who is a midwife", texts)
    assert model.runs - before == 1
    LateInteraction(model).scores("who is a midwife", texts)
    assert model.runs - before == 1
