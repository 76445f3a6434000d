"""What the shipped word table derives from WordNet beyond its links (`tools/build_lexicon.py`):
a compound noun is a kind of its last word when its definition opens with that word, and a
word defined with a longer form of itself has that form."""

from __future__ import annotations

from pathlib import Path

from memfold import lexicon
from memfold.memory import Memory


def test_a_compound_defined_by_its_last_word_is_a_kind_of_it() -> None:
    """WordNet files "male sibling" ("a sibling who is male") under "male relative", not
    "sibling": read from its definition, a brother (a male sibling) is a kind of sibling,
    and a sibling one of what a brother is."""
    assert "brother" in lexicon.related("sibling", lexicon.KIND)
    assert "sibling" in lexicon.classes("brother")


def test_a_compound_filed_under_another_sense_of_its_last_word_is_not_linked() -> None:
    """A hot dog ("a frankfurter served hot on a bun") is no dog, and the capital of Oman
    no kind of Oman."""
    assert "hot dog" not in lexicon.related("dog", lexicon.KIND)
    assert "oman" not in lexicon.classes("capital of oman")


def test_a_word_defined_by_a_longer_form_of_itself_has_that_form() -> None:
    """"weigh": "have a certain weight" — weight and weigh are forms of each other, though
    WordNet links neither to the other."""
    assert "weight" in lexicon.related("weigh", lexicon.FORM)
    assert "weigh" in lexicon.related("weight", lexicon.FORM)


def test_a_question_in_one_form_finds_a_fact_in_the_other(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        memory.retain(["W @me: I weigh 79 kg now.",
                       "W @me: I cycle to the office most days."], now="2025-06-01T10:00:00")
        hits = memory.recall("what is my weight?", now="2025-06-02T10:00:00").hits
    assert hits and hits[0].fact.content == "I weigh 79 kg now."
    assert "weigh, a form of weight" in hits[0].why


def test_hand_written_kinds_after_wordnet_keep_the_nearest_kinds_first() -> None:
    """kinds.tsv's `kind+` lines (dog crosses WordNet lacks) come after WordNet's own kinds:
    a cockapoo is a kind of dog, and a puppy is still the nearest one — the one a question
    about a dog that asks for no kind searches ("who has a dog")."""
    kinds = lexicon.related("dog", lexicon.KIND)
    assert "cockapoo" in kinds and "maine coon" in lexicon.related("cat", lexicon.KIND)
    assert kinds.index("puppy") < 4 < kinds.index("cockapoo")
