"""Short names the rule judge reads as the longer names they stand for, pair by pair: an
acronym in one fact spelled out as the other fact writes it ("moved from LA to Denver" after
"lives in Los Angeles", "left AWS for Azure" after "hosts its services on Amazon Web
Services", "Idris left NYC" after "lives in New York City").  An acronym is two to five
capitals (dotted ones, "D.C.", are read without their dots by judge.phrases.plainer); it
stands for a run of capitalised words in the other fact whose initials spell it, the inner
capitals of a word counting too ("BigQuery": BQ).  Product aliases that are no acronym
("Postgres", "k8s") are folded by the lexicons (judge.words); entity aliases by the index."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from functools import lru_cache

from memfold.lifecycle.judge import words as w
from memfold.values import Fact

_ACRONYM = re.compile(r"\b(?:[A-Z]\.){1,4}[A-Z]\b\.?|\b[A-Z]{2,5}\b")
_RUN = re.compile(r"\b[A-Z][\w'-]*(?:\s+(?:of\s+)?[A-Z][\w'-]*){0,4}")
_INNER = re.compile(r"(?<=[a-z])(?=[A-Z])")


def _initials(run: str) -> list[tuple[str, str]]:
    """Each stretch of a run of capitalised words, with the initials it spells: "Amazon Web
    Services" gives ("AWS", "Amazon Web Services"), ("AW", "Amazon Web"), ("WS", ...)."""
    words = [w for w in run.split() if w != "of"]
    parts = [(p[0], i) for i, word in enumerate(words) for p in _INNER.sub(" ", word).split()]
    out = []
    for start in range(len(parts)):
        for end in range(start + 2, len(parts) + 1):
            first, last = parts[start][1], parts[end - 1][1]
            if (start == 0 or parts[start - 1][1] != first) and \
                    (end == len(parts) or parts[end][1] != last):  # whole words only
                out.append(("".join(c for c, _ in parts[start:end]).upper(),
                            " ".join(words[first: last + 1])))
    return out


def spelled_out(fact: Fact, other: Fact) -> Fact:
    """`fact` with each acronym the other fact spells out written as the other fact writes
    it, or `fact` itself."""
    acronyms = _acronyms(fact.content)
    if not acronyms:
        return fact
    written = _acronyms(other.content)
    spelled: dict[str, str] = {}
    for letters, words in _spelled(other.content):
        if letters in acronyms and letters not in written:
            spelled.setdefault(letters, words)
    if not spelled:
        return fact
    content = _ACRONYM.sub(lambda m: spelled.get(m.group().replace(".", ""), m.group()),
                           fact.content)
    return replace(fact, content=content)


def other_names(words: Iterable[str]) -> tuple[str, ...]:
    """The other names of the products among `words` ("Postgres": "postgresql", and back),
    which a search for older facts on the same thing must also ask for: the index folds
    word forms, not a product's aliases."""
    said = {word.casefold() for word in words}
    found = {long for short, long in w.PRODUCT_ALIASES.items() if short in said}
    found |= {short for short, long in w.PRODUCT_ALIASES.items() if long in said}
    return tuple(sorted(found - said))


@lru_cache(maxsize=16384)  # asked of each fact once for every other fact it is weighed with
def _acronyms(content: str) -> frozenset[str]:
    return frozenset(m.group().replace(".", "") for m in _ACRONYM.finditer(content))


@lru_cache(maxsize=16384)
def _spelled(content: str) -> tuple[tuple[str, str], ...]:
    """Each stretch of each run of capitalised words in a text, with the initials it spells."""
    return tuple(pair for run in _RUN.findall(content) for pair in _initials(run))


def initials(content: str) -> frozenset[str]:
    """The acronyms a text writes and those its runs of capitalised words spell, marked
    ("#NYC"), for the judge's signature: "NYC" and "New York City" share one."""
    return frozenset("#" + letters for letters in (
        *_acronyms(content), *(letters for letters, _ in _spelled(content))))


def forget() -> None:
    """Empty the caches of acronyms and of the initials runs of words spell."""
    _acronyms.cache_clear()
    _spelled.cache_clear()


def written_alike(fact: Fact, other: Fact) -> Fact:
    """`fact` as the judge reads it beside `other`: its amounts `priced`, its acronyms
    `spelled_out` as the other fact writes them."""
    return spelled_out(priced(fact), priced(other))


def priced(fact: Fact) -> Fact:
    """`fact` with an amount in a currency written by its code or its name ("KSh 1,200",
    "R96,000", "4,500 rupees") written with the symbol the readers know as money ("$1,200"):
    else "KSh 1,200" reads as a product and its version, "KSh 1", and every price in the
    memory as one slot.  Which currency does not matter to the judge: an amount of money is
    compared with another amount of the same thing."""
    content = priced_text(fact.content)
    return fact if content == fact.content else replace(fact, content=content)


def priced_text(content: str) -> str:
    """`content` with its amounts in a currency written by code or name written with "$"
    (`priced`)."""
    content = _CODE_BEFORE.sub("$", content)
    return _NAME_AFTER.sub(lambda m: "$" + m.group(1) + (m.group(2) or ""), content)


# a currency's code or sign, written before or after an amount ("KSh 1,200", "1,050 zł"); a
# lone R (the rand) only before thousands
_CODES = (r"K[Ss]hs?|KES|Rs\.?|₹|INR|PKR|LKR|NPR|BDT|Tk|NGN|₦|GHS|GH₵|₵|ZAR|UGX|TZS|RWF|ETB|EGP"
          r"|MAD|kr\.?|SEK|NOK|DKK|ISK|CHF|zł|PLN|CZK|Kč|HUF|RON|TRY|TL|₺|UAH|₴|RUB|₽|RM|MYR"
          r"|Rp|IDR|₱|PHP|THB|฿|VND|₫|KRW|₩|JPY|CNY|RMB|MXN|BRL|COP|ARS|CLP|PEN|AUD|CAD|NZD|USD"
          r"|EUR|GBP|S/|AED|Dhs?|SAR|QAR|KWD|BHD|OMR|JOD|ILS|HKD|SGD|TWD|NT\$|MOP|LBP|MMK|KHR"
          r"|LAK|MNT|KZT|UZS|AZN|AMD|BGN|RSD|HRK|BAM|MKD|MUR|SCR|XOF|XAF|ZMW|MWK|BWP|NAD|TND"
          r"|DZD|IQD|IRR|AFN|PYG|UYU|BOB|DOP|GTQ|CRC|JMD|TTD|FJD|XPF")
_CODE_BEFORE = re.compile(rf"(?<![\w$])(?:{_CODES}|(?:HK|S|A|C|NZ|R|AU|US)\$"
                          r"|R(?=\d{1,3}(?:,\d{3})+\b|\d{3,}\b))\s?(?=\d)")
_NAME_AFTER = re.compile(
    r"(?<![\w$.])(\d[\d,]*(?:\.\d+)?)(\s+(?:thousand|million|billion|lakh|crore))?"
    r"\s?(?:(?i:shillings?|rand|rupees?|naira|cedis?|ringgits?|baht"
    r"|pesos?|yen|yuan|renminbi|won|dong|kronor|kronur|krona|kroner|krone|zlot(?:y|ys|ych)"
    r"|forints?|lira|lire|reais|dirhams?|euros?|dollars?|francs?|rubles?|roubles?|hryvnias?"
    r"|lei|leu|korun[ay]?|kwacha|birr|dinars?|riyals?|rials?|taka|shekels?)|" + _CODES + r")(?!\w)")
