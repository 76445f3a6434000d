"""`names.strip_marks` drops exactly the characters Unicode calls combining, after NFKD:
the characters below U+0300 (none of which combine) are not read one by one."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from memfold.names import _EXTRA_FOLDS, fold, strip_marks


def every_character_read(text: str) -> str:
    """What strip_marks gives, read a character at a time."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_EXTRA_FOLDS))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def test_no_character_below_the_first_combining_mark_combines() -> None:
    assert not [c for c in range(0x300) if unicodedata.combining(chr(c))]
    assert unicodedata.combining("\u0300")


def test_every_character_folds_as_read_one_by_one() -> None:
    for start in range(0, 0x30000, 4096):
        text = "".join(chr(c) for c in range(start, start + 4096) if not 0xD800 <= c < 0xE000)
        assert strip_marks(text) == every_character_read(text)


@given(st.text())
def test_any_text_folds_as_read_one_by_one(text: str) -> None:
    assert strip_marks(text) == every_character_read(text)


def test_examples() -> None:
    assert strip_marks("Hà Nội") == "Ha Noi"
    assert strip_marks("Đà Nẵng") == "Da Nang"
    assert fold("Ångström – Ça") == "angstrom – ca"
