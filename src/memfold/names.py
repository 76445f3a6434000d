"""Names: how entity mentions, page slugs and search text are normalised.

Two spellings name the same entity when their keys are equal: case, diacritics and the
separators `-`, `_`, `.` and spaces do not matter ("Hà-Nội", "ha noi" and "HA_NOI" share the
key "ha-noi").  The same folding feeds the search index, so a query without accents finds text
with them.
"""

from __future__ import annotations

import functools
import re
import unicodedata

_SEPARATORS = re.compile(r"[\s_.\-]+")
# Letters that Unicode does not decompose into a base letter plus a mark.
_EXTRA_TABLE = {"đ": "d", "Đ": "D", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L",
                "ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE"}
_EXTRA_FOLDS = str.maketrans(_EXTRA_TABLE)
_EXTRA_CHARS = re.compile("[" + "".join(_EXTRA_TABLE) + "]")


def strip_marks(text: str) -> str:
    """Remove diacritics: "Hà Nội" -> "Ha Noi", "Đà Nẵng" -> "Da Nang"."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_EXTRA_FOLDS))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def fold(text: str) -> str:
    """Text as the search index sees it: no diacritics, case folded."""
    return text.casefold() if text.isascii() else strip_marks(text).casefold()


@functools.lru_cache(maxsize=65536)
def entity_key(name: str) -> str:
    """The identity of an entity name: folded, with separators unified to "-"."""
    return _SEPARATORS.sub("-", fold(name)).strip("-")


def fold_for_index(text: str) -> str:
    """Text for the full-text index: letters the tokenizer cannot unaccent are folded here
    (the tokenizer itself removes case and ordinary diacritics)."""
    if text.isascii() or not _EXTRA_CHARS.search(text):
        return text
    return text.translate(_EXTRA_FOLDS)
