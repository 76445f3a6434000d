"""A fact that says the word a question names an entity by is on that entity's subject, as a
fact that says its name is (`gather.called_by`, `scoring.score_candidate`): "mum" names
@Zora when her page gives the alias, and "Mum's old piano needs tuning", written under the
user, answers "when does mum's piano need tuning?" above Zora's facts that share one word."""

from __future__ import annotations

from pathlib import Path

from memfold import Memory

DAY, NOW = "2025-03-01", "2025-03-02T09:00:00"


def test_a_fact_that_says_the_alias_is_not_off_the_subject(workspace: Path) -> None:
    (workspace / "bank" / "entities").mkdir(parents=True, exist_ok=True)
    (workspace / "bank" / "entities" / "Zora.md").write_text(
        '---\naliases: ["Mum"]\n---\n\n# Zora\n\nMy mother.\n', encoding="utf-8")
    with Memory.open(workspace) as memory:
        memory.retain(["W @Zora: Zora lives in Sinj.",
                       "W @Zora: Zora teaches piano lessons at home.",
                       "B @Zora: Zora sold her old car in May."], date=DAY, now=DAY)
        [answer] = memory.retain(["W @me: Mum's old piano needs tuning before Christmas."],
                                 date=DAY, now=DAY).facts
        found = memory.recall("when does mum's piano need tuning", now=NOW)
    assert found.hits[0].fact.id == answer.id
