"""Reflect consolidates paraphrases when the workspace has vectors — conservatively.

Word overlap finds duplicates worded alike; vectors find the same fact in other words.  A
paraphrase must be close (the model's `fusion.Calibration.paraphrase`) and keep the same
names, numbers and negations, since vectors rate "Monday"/"Tuesday" or "likes"/"dislikes"
as near.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from memfold.embed.base import FakeEmbedder
from memfold.memory import Memory
from memfold.recall import modes
from memfold.reflect import plan as reflect

NOW = "2025-11-28T12:00:00+00:00"


class OneMeaning(FakeEmbedder):
    """Every text gets the same vector: only the guards can keep two facts apart."""

    def embed(self, texts: Sequence[str]) -> object:  # type: ignore[override]
        return super().embed(["same" for _ in texts])


@pytest.fixture
def memory(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Memory]:
    monkeypatch.delenv("MEMFOLD_RECALL_MODE", raising=False)
    with Memory.open(workspace, now=NOW) as mem:
        yield mem


def merged(memory: Memory, *bullets: str, embedder: FakeEmbedder | None = None) -> list[
        list[str]]:
    """Retain the bullets, reflect, and return the groups merged (as contents)."""
    if embedder is not None:
        memory.set_embedder(embedder)
    ids = [f.id for f in memory.retain(list(bullets), date="2025-11-27").facts]
    content = {i: b.split(": ", 1)[1] for i, b in zip(ids, bullets, strict=True)}
    plan = memory.reflect(since="7d")
    return [sorted(content[i] for i in group) for _, group in plan.merges]


def test_a_paraphrase_is_consolidated_with_vectors(memory: Memory) -> None:
    groups = merged(memory, "W @Tom: Drives a car to work.",
                    "W @Tom: Commutes by automobile every day.", embedder=OneMeaning())
    assert groups == [["Commutes by automobile every day.", "Drives a car to work."]]
    hit = memory.get(memory.recall("automobile", include_all=True).hits[0].fact.id)
    assert hit.status == "merged" and hit.reason and "consolidated" in hit.reason


def test_without_vectors_only_word_overlap_counts(memory: Memory) -> None:
    assert modes.default_mode(memory_dir=memory.workspace.index_path.parent) != "hybrid"
    assert merged(memory, "W @Tom: Drives a car to work.",
                  "W @Tom: Commutes by automobile every day.") == []


@pytest.mark.parametrize(("first", "second"), [
    ("Meets Anna on Monday.", "Meets Anna on Tuesday."),  # names differ
    ("Runs version 2.3 in production.", "Runs version 2.4 in production."),  # numbers
    ("Likes dark roast coffee.", "Dislikes dark roast coffee."),  # a negation
    ("Can eat peanuts.", "Cannot eat peanuts."),
])
@pytest.mark.parametrize("vectors", [True, False])
def test_close_facts_with_other_specifics_stay_apart(memory: Memory, first: str, second: str,
                                                     vectors: bool) -> None:
    # most of these share enough words to count as duplicates by overlap alone
    assert merged(memory, f"W @Tom: {first}", f"W @Tom: {second}",
                  embedder=OneMeaning() if vectors else None) == []


def test_other_entities_or_kinds_stay_apart_however_close(memory: Memory) -> None:
    assert merged(memory, "W @Tom: Drives a car to work.", "W @Ann: Drives a car to work now.",
                  "O @Tom: Drives a car to work.", embedder=OneMeaning()) == []


def test_specifics_are_names_numbers_and_negations() -> None:
    assert reflect._specifics("Meets Anna at 9:30 in Berlin.") == (
        frozenset({"anna", "9:30", "berlin"}), frozenset())
    assert reflect._specifics("Never drinks coffee.") == (frozenset(), frozenset({"never"}))
    # the capital that starts a sentence is not a name
    assert reflect._specifics("Drives a car.") == reflect._specifics("drives a car.")


def test_the_models_calibration_sets_how_close_a_paraphrase_is(
        memory: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    from memfold.recall import fusion

    fake = OneMeaning()  # every pair at cosine 1.0
    strict = fusion.Calibration(floor=0.2, minimum=0.3, paraphrase=1.01)
    monkeypatch.setitem(fusion.CALIBRATIONS, fake.identity.model, strict)
    assert merged(memory, "W @Tom: Drives a car to work.",
                  "W @Tom: Commutes by automobile every day.", embedder=fake) == []
    assert fusion.calibration("some-other-model").paraphrase == fusion.PARAPHRASE
