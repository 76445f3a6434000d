"""Which language a piece of text is written in, told per text (a fact, a query), never per
workspace: one workspace may mix English and Vietnamese bullets.

This module owns `looks_vietnamese` (and, for the judge, `vietnamese_sentence`: written in
Vietnamese, not only naming a Vietnamese person; `looks_telex`: Telex leftovers whose
language cannot be told): letters only Vietnamese uses (ă â đ ê ô ơ ư ĩ ũ and
the vowels with tone marks of U+1EA0..U+1EF9) say so at once; other text, its accents
dropped, is Vietnamese when more of its words are Vietnamese function words than English
ones (or, when it had accents, one is and none is English).  Text it cannot tell (a name, a
number, Telex leftovers such as "ddax chuyeenr") is not Vietnamese, so language-neutral
rules alone read it.  Pure functions; nothing here errors on any text.
"""

from __future__ import annotations

import functools
import re
import unicodedata

_VI_LETTERS = re.compile("[ăâđêôơưĩũĂÂĐÊÔƠƯĨŨ\u1ea0-\u1ef9]")
# Vietnamese words typed without diacritics that English text hardly uses
_VI_WORDS = frozenset(
    """khong duoc nhung cua trong voi nguoi dang chuyen sang thich song lam viec nay gi nao
    dau cho la da se cung van con rat hien gio bao nhieu may toi ban anh chi em ong ba minh
    nhau dung ngay thang nam tuan hom qua truoc sau roi chua nhat thu tai o ve den tu mot
    hai cac nhu the vay khi ai ghet yeu muon mon di dung va ket thuc hoc lop nang dong chinh
    phieu tro hen chia tay cuoi doi nghi huy tinh dinh nen them nua vao xuong thay dien thoai
    tiem giai doan nghiem""".split())
_EN_WORDS = frozenset(
    """the a an is are was were of to in on at for with and or but not this that it he she
    they we you i my his her their what where when who which how does do did has have had
    be been from by as about since last""".split())
_WORD = re.compile(r"[a-z]+")


@functools.lru_cache(maxsize=1 << 14)  # asked for the same facts by decay, reflect, recall
def looks_vietnamese(text: str) -> bool:
    """Whether `text` reads as Vietnamese (see the module docstring)."""
    if _VI_LETTERS.search(text):
        return True
    # "thích gì": í and ì are French too.  ASCII text has no marks to take off
    plain = text.lower() if text.isascii() else "".join(
        c for c in unicodedata.normalize("NFD", text.lower()) if not unicodedata.combining(c))
    words = _WORD.findall(plain)
    vi = sum(w in _VI_WORDS for w in words)
    en = sum(w in _EN_WORDS for w in words)
    # "Bình dùng Vim": accents French shares (à, ì, ù), one Vietnamese word, no English one
    return (vi >= 2 and vi > 2 * en) or (vi >= 1 and en == 0 and plain != text.lower())


# Vietnamese typed in Telex whose keys were not turned into marks: "ddax" (đã), "chuyeenr"
# (chuyển) — a doubled letter for a hat or a horn, a tone key at the end of the syllable
_TELEX = re.compile(r"^dd[aeiouy]\w*$|^\w*(?:aa|aw|ee|oo|uw)\w*[sfrxj]$")


@functools.lru_cache(maxsize=1 << 14)  # read for every fact the judge reads
def looks_telex(text: str) -> bool:
    """Whether `text` holds Telex leftovers: two syllables or more typed with Telex keys
    unconverted ("ddax chuyeenr"), so its language cannot be told from its words; one of
    them with a key English words seldom end in ("sees the trees" is English)."""
    keyed = [word for word in _WORD.findall(text.lower()) if _TELEX.match(word)]
    return len(keyed) >= 2 and any(w.startswith("dd") or w[-1] in "frxj" for w in keyed)


@functools.lru_cache(maxsize=1 << 14)
def vietnamese_sentence(text: str) -> bool:
    """Whether `text` is written in Vietnamese, not only naming someone in it: it looks
    Vietnamese and English function words do not outnumber Vietnamese words — a word with
    a letter only Vietnamese uses counts as one ("An độc thân" is Vietnamese; "Bao's mentor
    at the firm is Mrs. Trần" is English).  What the judge reads a fact's grammar by."""
    if not looks_vietnamese(text):
        return False
    words = re.findall(r"[^\W\d_]+", text.lower())
    vi = sum(bool(_VI_LETTERS.search(w)) or (_plain(w) in _VI_WORDS and w not in _EN_WORDS)
             for w in words)
    return sum(w in _EN_WORDS for w in words) <= vi


def _plain(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))
