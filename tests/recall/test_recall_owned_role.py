"""A role of someone the question names ("where does *Gideon's mother* live?",
`roles.owned_roles`) stands for the person the memory names beside it ("Gideon's mother Ruth
lives in Kenora"): the question is about Ruth, not about Gideon."""

from __future__ import annotations

from pathlib import Path

from timeline import retain, top

from memfold import Memory

NOW = "2026-01-05T09:00:00"


def test_a_named_persons_role_is_the_person(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        retain(memory, "2025-02-25", "W @Gideon: Gideon's mother Ruth lives in Kenora and calls "
                                     "every Sunday.")
        moved = retain(memory, "2025-11-08", "B @Ruth: Ruth moved into her sister's house in "
                                             "Keewatin for the winter.")
        retain(memory, "2025-12-03", "B @Gideon: Gideon became a permanent staff member at the "
                                     "university.")
        retain(memory, "2025-12-21", "B @me @Gideon: Went skating on the river trail with "
                                     "Gideon.")
        assert top(memory.recall("Where is Gideon's mother staying?", now=NOW)) == moved
