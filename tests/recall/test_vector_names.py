"""The query's vector leaves out the names of the entities the query names
(`ranking.VECTOR_NAMES`, `QueryPlan.without_names`).

A fact's vector is made of its content alone; its speaker or subject (`@Ada`) is a link, and
the entity boost weighs it.  A name left in the query's vector can only meet the name
where it stands in someone else's words ("Ada, what a lovely day"): the wrong facts.  The
lexical search leaves such names out for the same reason (`QueryPlan.fts`)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from memfold.embed.base import FakeEmbedder
from memfold.memory import Memory
from memfold.recall import ranking
from memfold.recall.query import plan_query

NOW = "2025-11-28T12:00:00+00:00"


def without(text: str, *keys: str) -> str:
    return plan_query(text, today=date(2025, 11, 28)).without_names(frozenset(keys))


def test_names_and_their_possessive_are_left_out() -> None:
    assert without("What is Caroline's identity?", "caroline") == "What is identity?"
    assert without("What do Jon and Gina have in common?", "jon", "gina") == (
        "What do and have in common?")
    assert without("Where is Anna’s flat?", "anna") == "Where is flat?"


def test_a_name_of_several_words_is_left_out_whole() -> None:
    assert without("Who met us in Hà Nội last spring", "ha-noi") == "Who met us in last spring"
    assert without("When did The Castle open", "the-castle") == "When did open"


def test_the_text_stays_whole_when_nothing_else_is_left_or_nothing_is_named() -> None:
    assert without("Peter?", "peter") == "Peter?"
    assert without("What did Peter say?") == "What did Peter say?"
    assert without("What did Peter say?", "anna") == "What did Peter say?"
    assert without("Peterson's garden", "peter") == "Peterson's garden"  # whole words only


@pytest.fixture
def memory(workspace: Path) -> Memory:
    mem = Memory.open(workspace, now=NOW)
    mem.set_embedder(FakeEmbedder())
    mem.retain(["B @Ada: I paint with watercolours on sundays",
                "B @Bo: Ada, what a lovely day for the beach",
                "W: the marsh lake freezes every january"], date="2025-11-27")
    yield mem  # type: ignore[misc]
    mem.close()


def contents(memory: Memory, query: str, mode: str) -> list[str]:
    return [h.fact.content for h in memory.recall(query, mode=mode).hits]


def test_the_query_vector_does_not_meet_the_name_in_another_speakers_words(
        memory: Memory) -> None:
    assert ranking.VECTOR_NAMES == 0  # names out of the vector by default
    found = contents(memory, "What did Ada paint?", "semantic")
    assert found == ["I paint with watercolours on sundays"]
    with ranking.tuned({"VECTOR_NAMES": 1.0}):  # the query embedded as written
        assert "Ada, what a lovely day for the beach" in contents(
            memory, "What did Ada paint?", "semantic")
