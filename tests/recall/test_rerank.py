"""Reranking (`memfold recall --rerank`, `embed.rerank`): the stage orders recall's
RERANK_TOP best candidates again by a blend of their score and a reranker's, leaves the rest
alone, keeps scores falling down the list, and says what to install when the embed extra
is missing.  The plumbing runs on a fake reranker; the last test runs the packaged model."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

from memfold.cli.main import cli
from memfold.embed import models, rerank
from memfold.errors import EmbedUnavailable
from memfold.memory import Memory
from memfold.recall import ranking

NOW = "2025-11-28T12:00:00+00:00"
FACTS = [f"B: the garden {'pond ' * (6 - n)}needs work, item {n}" for n in range(6)]


class Backwards:
    """A fake reranker that prefers what recall ranked last: it scores each text by its
    position in the list it is given."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    def scores(self, query: str, texts: Sequence[str]) -> list[float]:
        self.asked.append(len(texts))
        return [float(i) for i in range(len(texts))]


@pytest.fixture
def memory(workspace: Path) -> Memory:
    mem = Memory.open(workspace, now=NOW)
    mem.retain(FACTS, date="2025-11-27")
    yield mem  # type: ignore[misc]
    mem.close()


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Backwards:
    reranker = Backwards()
    monkeypatch.setattr(rerank, "shared_reranker", lambda: reranker)
    return reranker


def items(memory: Memory, **options: object) -> list[str]:
    hits = memory.recall("garden pond", mode="lexical", **options).hits  # type: ignore[arg-type]
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)  # reranked or not, scores fall
    return [h.fact.content.rsplit(" ", 1)[-1] for h in hits]


def test_reranking_changes_the_order_and_only_when_asked(memory: Memory,
                                                          fake: Backwards) -> None:
    plain = items(memory)
    assert plain == ["0", "1", "2", "3", "4", "5"]  # more "pond", higher BM25
    assert items(memory, rerank=False) == plain and not fake.asked
    with ranking.tuned({"RERANK_SHARE": 1.0}):  # the reranker alone decides
        assert items(memory, rerank=True) == plain[::-1]
    assert fake.asked == [6]
    with ranking.tuned({"RERANK_SHARE": 0.0}):  # a share of 0 is recall without it
        assert items(memory, rerank=True) == plain


def test_only_the_best_candidates_are_reranked(memory: Memory, fake: Backwards,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ranking, "RERANK_TOP", 3)
    with ranking.tuned({"RERANK_SHARE": 1.0}):
        assert items(memory, rerank=True) == ["2", "1", "0", "3", "4", "5"]
    assert fake.asked == [3]


def test_without_the_extra_reranking_says_what_to_install(
        memory: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rerank, "_shared", [])
    monkeypatch.setattr(models, "minilm_path", lambda: None)
    with pytest.raises(EmbedUnavailable, match=r"pip install 'memfold\[embed\]'"):
        memory.recall("garden", rerank=True)
    result = CliRunner().invoke(cli, ["-w", str(memory.workspace.root), "recall", "garden",
                                      "--rerank"])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "memfold: error: reranking needs the embed extra: pip install 'memfold[embed]'"]
    assert "Traceback" not in result.output


def test_the_packaged_model_reranks(memory: Memory) -> None:
    """all-MiniLM-L6-v2's token vectors (the test extra installs the model): late
    interaction prefers the fact that answers, and a reranked recall runs end to end."""
    reranker = rerank.shared_reranker()
    assert rerank.shared_reranker() is reranker  # loaded once per process
    scores = reranker.scores("where does the dog play",
                             ["A dog is playing in the park.", "The tax report is due.", ""])
    assert scores[0] > scores[1] > scores[2] == 0.0
    memory.retain(["B: took the puppy to the dog park on Sunday"], date="2025-11-27")
    hits = memory.recall("where did the puppy play", rerank=True, mode="lexical").hits
    assert hits and "puppy" in hits[0].fact.content
    result = CliRunner().invoke(cli, ["-w", str(memory.workspace.root), "recall",
                                      "dog park", "--rerank", "--mode", "lexical"])
    assert result.exit_code == 0 and "puppy" in result.output
