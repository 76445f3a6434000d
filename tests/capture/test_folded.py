"""A bullet extracted from a captured turn is folded into the turn: it takes no part in the
full-text index's statistics or candidate places, and recall reaches it through its turn."""

from __future__ import annotations

from pathlib import Path

from test_capture import DAY, TURNS, chatgpt_conversation, chatgpt_export, day_text

from memfold.index.base import Filters, Terms
from memfold.memory import Memory

TALK = [*TURNS,
        ("user", "My sister Inês works at a hospital in Braga and she moved to Lisbon too."),
        ("assistant", "Noted."),
        ("user", "I started a pottery class in Lisbon last week and I love it.")]


def _captured(root: Path, *, extract: bool) -> Memory:
    Memory.init(root)
    memory = Memory.open(root)
    memory.capture(chatgpt_export(chatgpt_conversation("c-fold", TALK)), extract=extract)
    return memory


def _turn_scores(memory: Memory, query: str) -> dict[str, float]:
    return {h.fact.content: round(h.score, 9)
            for h in memory.recall(query, k=20, now=f"{DAY}T12:00:00+00:00").hits
            if h.fact.kind == "text"}


def test_bullets_do_not_change_how_their_turns_score(tmp_path: Path) -> None:
    """The turns score as they do in the same conversation captured without bullets."""
    with _captured(tmp_path / "with", extract=True) as bullets, \
            _captured(tmp_path / "without", extract=False) as turns:
        assert bullets.recall("Lisbon", k=20).hits  # bullets were extracted
        assert "## Retain" in day_text(tmp_path / "with")
        for query in ("Lisbon", "moved to Lisbon", "pottery class", "sister hospital Braga"):
            assert _turn_scores(bullets, query) == _turn_scores(turns, query), query


def test_a_folded_bullet_holds_no_words_of_its_own(memory: Memory) -> None:
    """Only the turns hold the words in the full-text index; the bullet is still a fact."""
    memory.capture(chatgpt_export(chatgpt_conversation("c-fold", TALK)))
    backend = memory.index_backend
    rows = backend.matching_rowids(Terms(words=("lisbon",)), 50)
    kinds = {c.fact.kind for c in backend.by_rowids(rows, Filters())}
    assert kinds == {"text"}
    assert any(c.fact.kind == "world" and "Lisbon" in c.fact.content
               for c in backend.linked(["me"], Filters(), 50))


def test_recall_brings_a_bullet_through_its_turn(memory: Memory) -> None:
    """Asked for opinions, recall finds the preference through the turn that matched; a
    bullet of that turn holding none of the words the turn matched is not brought."""
    memory.capture(chatgpt_export(chatgpt_conversation("c-fold", TALK)))
    said = [h.fact.content for h in memory.recall("short answers", k=10,
                                                  kinds="opinion,world").hits]
    assert said and said[0].startswith("Would rather you keep answers short.")
    assert not any("Lisbon" in s for s in said)


def test_a_file_with_folded_bullets_is_reindexed_cleanly(memory: Memory,
                                                         workspace: Path) -> None:
    """The full-text rows a changed file had are removed with the values they were made
    from: after an edit the index answers as a full rebuild of the same files does."""
    memory.capture(chatgpt_export(chatgpt_conversation("c-fold", TALK)))
    path = workspace / "memory" / f"{DAY}.md"
    path.write_text(day_text(workspace) + "\nThe tram to Belem runs past Lisbon's river.\n",
                    encoding="utf-8")
    memory.index()
    synced = _turn_scores(memory, "Lisbon river tram")
    memory.index(full=True)
    assert synced == _turn_scores(memory, "Lisbon river tram") and synced
