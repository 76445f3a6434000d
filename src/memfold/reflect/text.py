"""The words and names reflect works with: content words and their overlap, what makes two
facts different though their words agree (names, numbers, negations), the dates a
consolidated fact lists, and the file name of an entity's page.  Pure functions of text.
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata
from collections.abc import Iterable, Sequence
from datetime import date

from memfold.index.base import Candidate
from memfold.language import looks_vietnamese
from memfold.lifecycle.judge import AGREES, OPPOSES, REVERSES, stance
from memfold.names import STOP_WORDS
from memfold.recall.query_vi import VI_STOP_WORDS
from memfold.times.words_vi import fold
from memfold.values import Fact

NEGATION = re.compile(r"\b(?:not|no|never|don't|doesn't|didn't|isn't|dislikes?|hates?|"
                      r"stopped|avoids?|against|no\s+longer|cannot|can't|won't)\b",
                      re.IGNORECASE)
# the same in Vietnamese, matched folded (no diacritics): "không thích" is not "thích"
VI_NEGATION = re.compile(r"(?<!\w)(?:khong|chang|chua|ghet|ngung|dung\s+lai)(?!\w)")
_VI_STOP = frozenset(fold(w)[0] for w in VI_STOP_WORDS)
# a Vietnamese view, as written (folded, "yêu" to love would be "yếu" weak too) or typed
# without diacritics: for (thích, ưa, yêu, mê, khoái), against (ghét, không thích, chẳng ưa),
# and a change of mind (không còn thích, hết thích, thôi thích)
_VI_VIEW = r"(?:thích|thich|ưa|ua|yêu|yeu|mê|khoái|khoai|chuộng|chuong)"
_VI_NOT = r"(?:không|khong|chẳng|chang|chả|chưa|chua)"
_VI_CHANGED = re.compile(rf"(?<!\w)(?:{_VI_NOT}\s+còn|khong\s+con|chang\s+con|hết|het|thôi"
                         rf"|thoi)\s+{_VI_VIEW}(?!\w)")
_VI_AGAINST = re.compile(rf"(?<!\w)(?:ghét|ghet|{_VI_NOT}\s+(?:hề\s+|he\s+)?{_VI_VIEW})(?!\w)")
_VI_FOR = re.compile(rf"(?<!\w){_VI_VIEW}(?!\w)")
# numbers, and capitals not first; `\b` so a word without a digit is tried once, not from each
# of its letters (the same matches: a run of word characters only starts at a boundary)
SPECIFIC = re.compile(r"\b\w*\d[\w.:/-]*|(?<=\s)[A-Z]\w*")
# Neither vectors nor word overlap tell "meets Anna on Monday" from "... on Tuesday" or
# "likes" from "dislikes" (3 of 5 words shared), so duplicates keep the same names, numbers
# and negations (`_specifics`).

MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
               "Dec")
LISTED_DATES = 3  # a consolidated fact lists up to this many days, else a count and a range
DATES_NOTE = re.compile(r" \((?:noted )?(?:on \d+ days between )?[A-Z][a-z]{2} \d{1,2}\b"
                        r"[^()]*\b\d{4}\)(?=[.!?]*$)")  # what `with_dates` adds
WINDOWS_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)),
                    *(f"lpt{i}" for i in range(1, 10))}


# -- words and names --------------------------------------------------------------------


def _words(text: str) -> set[str]:
    """Content words; a Vietnamese text's are folded, so a restatement typed without
    diacritics has the words of the one typed with them."""
    stop: frozenset[str] = STOP_WORDS
    if looks_vietnamese(text):
        text, stop = fold(text)[0], STOP_WORDS | _VI_STOP
    found = set()
    for word in re.findall(r"\w+", text.casefold()):
        if word in stop or len(word) < 2:
            continue
        found.add(word[:-1] if len(word) > 3 and word.endswith("s") else word)
    return found


def _overlap(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


@functools.lru_cache(maxsize=1 << 16)  # reflect compares each fact with many others
def _specifics(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """What a paraphrase must keep: names and numbers, and its negations (a Vietnamese
    text's folded, so "Đà Nẵng" and "Da Nang" are one name)."""
    if looks_vietnamese(text):
        folded = fold(text)[0]
        names = (fold(m)[0] for m in SPECIFIC.findall(text.replace("Đ", "D")))
        return (frozenset(names), frozenset(
            [*(m.casefold() for m in NEGATION.findall(text)), *VI_NEGATION.findall(folded)]))
    return (frozenset(m.casefold() for m in SPECIFIC.findall(text)),
            frozenset(m.casefold() for m in NEGATION.findall(text)))


def vi_view(text: str) -> str | None:
    """The view a Vietnamese text states: "changed" (no longer likes), "against", "for",
    or None (no view, or not Vietnamese).  Reflect weighs a Vietnamese opinion with it."""
    if not looks_vietnamese(text):
        return None
    text = unicodedata.normalize("NFC", text.lower())
    if _VI_CHANGED.search(text):
        return "changed"
    if _VI_AGAINST.search(text):
        return "against"
    return "for" if _VI_FOR.search(text) else None


def opinion_stance(opinion: Fact, evidence: Fact) -> str:
    """`judge.stance`, and for a Vietnamese opinion and evidence that both state a view
    (`vi_view`: the judge does not read Vietnamese yet), that view: "hết thích" reverses
    the opinion, an opposite view opposes it, the same view agrees."""
    mine, theirs = vi_view(opinion.content), vi_view(evidence.content)
    if mine in ("for", "against") and theirs is not None:
        if theirs == "changed":
            return REVERSES if mine == "for" else OPPOSES
        return AGREES if theirs == mine else OPPOSES
    return stance(opinion, evidence)


def _core(c: Candidate) -> str:
    """A fact's text without the dates note an earlier run wrote into a consolidated fact,
    so a later duplicate is compared with what it says, not with when."""
    if c.life is not None and c.life.derived_from:
        return DATES_NOTE.sub("", c.fact.content)
    return c.fact.content


def _day_text(day: date, *, year: bool) -> str:
    return f"{MONTH_NAMES[day.month - 1]} {day.day}" + (f", {day.year}" if year else "")


def _listed(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def dates_note(days: Iterable[date]) -> str:
    """The days a consolidated fact's originals were written, as a person writes them:
    "Nov 20 and Nov 22, 2025"; more than LISTED_DATES days keep their count and range, "on 4
    days between Nov 2 and Nov 28, 2025".  Never in a form the format reads as a validity
    range: the days say when it was said or done, not that it stopped holding after them."""
    unique = sorted(set(days))
    one_year = unique[0].year == unique[-1].year
    prefix = ""
    if len(unique) > LISTED_DATES:
        prefix, unique = f"on {len(unique)} days between ", [unique[0], unique[-1]]
    text = _listed([_day_text(d, year=not one_year) for d in unique])
    return prefix + text + (f", {unique[0].year}" if one_year else "")


def with_dates(content: str, kind: str, days: Iterable[date]) -> str:
    """`content` with its dates in parentheses before its closing punctuation; a state
    fact's dates are when it was noted ("Lives in Vienna (noted Nov 20, 2025).")."""
    body = content.rstrip(".!?")
    noted = "" if kind == "experience" else "noted "
    return f"{body} ({noted}{dates_note(days)}){content[len(body):]}"


def page_slug(name: str) -> str:
    """A file name for an entity page that can never leave bank/entities: NFKC, only
    letters, digits, `-`, `_`, `.`; no leading dot; no Windows device names; at most 100
    characters (longer names keep a hash of the whole)."""
    text = unicodedata.normalize("NFKC", name)
    slug = re.sub(r"[^\w.\-]+", "-", text).strip("-.")
    slug = re.sub(r"\.{2,}", ".", slug)
    if not slug or not any(ch.isalnum() for ch in slug):
        slug = "entity-" + hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    stem, dot, rest = slug.partition(".")
    if stem.casefold() in WINDOWS_RESERVED:
        slug = f"{stem}-{dot}{rest}"
    if len(slug) > 100:
        digest = hashlib.sha256(slug.encode()).hexdigest()[:8]
        slug = f"{slug[:90]}-{digest}"
    return slug
