"""Names: how entity mentions, page slugs, fact ids and search text are normalised.

Two spellings name the same entity when their keys are equal: case, diacritics and the
separators `-`, `_`, `.` and spaces do not matter ("Hà-Nội", "ha noi" and "HA_NOI" share the
key "ha-noi").  The same folding feeds the search index, so a query without accents finds text
with them.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence

_SEPARATORS = re.compile(r"[\s_.\-]+")
# Letters that Unicode does not decompose into a base letter plus a mark.
_EXTRA_TABLE = {"đ": "d", "Đ": "D", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L",
                "ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE"}
_EXTRA_FOLDS = str.maketrans(_EXTRA_TABLE)
_EXTRA_CHARS = re.compile("[" + "".join(_EXTRA_TABLE) + "]")


# Where combining marks may be: no character below U+0300 is one, so only the runs of
# characters from there on are read one by one (recall folds every candidate's text)
_MAY_MARK = re.compile("[^\x00-\u02ff]+")


def _unmarked(run: re.Match[str]) -> str:
    return "".join(ch for ch in run.group() if not unicodedata.combining(ch))


def strip_marks(text: str) -> str:
    """Remove diacritics: "Hà Nội" -> "Ha Noi", "Đà Nẵng" -> "Da Nang"."""
    return _MAY_MARK.sub(_unmarked, unicodedata.normalize("NFKD", text.translate(_EXTRA_FOLDS)))


def fold(text: str) -> str:
    """Text as the search index sees it: no diacritics, case folded."""
    return text.casefold() if text.isascii() else strip_marks(text).casefold()


def fact_id(text: str) -> str:
    """A fact's id as a person or an agent writes it, without the spaces around it or the `^`
    of its block reference: " ^k3x9q2ma" -> "k3x9q2ma"."""
    return text.strip().lstrip("^")


USER = "me"  # the user's own entity: the key of the facts a person states of themselves


@functools.lru_cache(maxsize=65536)
def entity_key(name: str) -> str:
    """The identity of an entity name: folded, with separators unified to "-"."""
    return _SEPARATORS.sub("-", fold(name)).strip("-")


# Where symbols outside ASCII live (currency, arrows, dingbats, emoji...): a quick first look,
# which `symbols` narrows to the characters Unicode calls symbols (category S).
_SYMBOL_SPANS = re.compile("[\u00a2-\u00be\u00d7\u00f7\u02c2-\u02ff\u2010-\u2bff"
                           "\u3000-\u303f\u3200-\u33ff\ufe10-\ufe6f\uff01-\uffef"
                           "\U0001d000-\U0001faff]")


def symbols(text: str) -> list[str]:
    """The symbols outside ASCII in `text` ("🚀", "€", "★"), each once, in order: the
    full-text tokenizer takes them for spaces, so the index spells each as a word
    (`fold_for_index`) and a query for one searches that word."""
    if text.isascii():
        return []
    found = (m.group() for m in _SYMBOL_SPANS.finditer(text))
    return list(dict.fromkeys(ch for ch in found if unicodedata.category(ch)[0] == "S"))


def symbol_word(symbol: str) -> str:
    """The word the index holds for a symbol: "🚀" -> "symb1f680"."""
    return f"symb{ord(symbol):x}"


def fold_for_index(text: str) -> str:
    """Text for the full-text index: letters the tokenizer cannot unaccent are folded here
    (the tokenizer itself removes case and ordinary diacritics), and each symbol outside
    ASCII is followed by its word (`symbol_word`), which the tokenizer keeps."""
    if text.isascii():
        return text
    if _EXTRA_CHARS.search(text):
        text = text.translate(_EXTRA_FOLDS)
    marked = symbols(text)
    if marked:
        text = text.translate({ord(s): f"{s} {symbol_word(s)} " for s in marked})
    return text


# -- search text: the words of a text, the words a search leaves out -------------------------

WORD = re.compile(r"\w+")
STOP_WORDS = frozenset(
    """a about above after again against all am an and any are aren as at be because been
    before being below between both but by can cannot could couldn did didn do does doesn
    doing don down during each few for from further had hadn has hasn have haven having he
    her here hers herself him himself his how i if in into is isn it its itself just let me
    more most mustn my myself no nor not now of off on once only or other ought our ours
    ourselves out over own same shan she should shouldn so some such than that the their
    theirs them themselves then there these they this those through to too under until up
    very was wasn we were weren what when where which while who whom why will with won would
    wouldn you your yours yourself yourselves s t d ll m re ve y also ever tell know
    anything something thing things much many get got did does really happen happened
    happening happens true going doing done went new news""".split()
)


def find_words(text: str) -> list[str]:
    """Runs of word characters.  Combining marks stay inside their word: `\\w` alone would
    cut a decomposed "Hà Nội" into "Ha", "No", "i" and "नमस्ते" into "नमस", "त"."""
    if text.isascii():
        return WORD.findall(text)
    words: list[str] = []
    current: list[str] = []
    for ch in text:
        if ch.isalnum() or ch == "_" or (current and unicodedata.category(ch)[0] == "M"):
            current.append(ch)
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    return words


def name_keys(words: list[str], *, most: int) -> tuple[str, ...]:
    """Entity keys of 1- to 3-word runs of `words` (at most `most`, longest runs first), so
    "Hà Nội" or "The Castle" can name an entity: how recall reads a query's names, and the
    judge the names a fact's text holds."""
    keys: list[str] = []
    for size in (3, 2, 1):
        for start in range(len(words) - size + 1):
            run = words[start : start + size]
            if size == 1 and run[0].casefold() in STOP_WORDS:
                continue
            keys.append(entity_key(" ".join(run)))
    return tuple(dict.fromkeys(k for k in keys if k))[:most]


def text_names(text: str, keys: Sequence[str]) -> bool:
    """Whether `text` names one of the entities `keys` (as words, any case or accents)."""
    words = f" {' '.join(find_words(fold(text)))} "
    return any(f" {key.replace('-', ' ')} " in words for key in keys)
