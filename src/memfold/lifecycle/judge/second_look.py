"""More changes the rules never relate, offered for a person's look.

- *Another price of the same thing*: both facts are about one entity (not the user alone)
  and each gives an amount of money per the same unit of time or of goods ("Mixpanel, about
  $1,100 a month" / "Mixpanel is $1,600 a month now"; "Breda minds Fionn for €150 a week" /
  "Breda's rate goes up to €170 a week"; or, with no unit, said to have changed: "Zerwa's
  student pass went up to 169 zł").  The rules ask two amounts to measure a word both
  facts name, so that a rent and an insurance premium of the user's are never one slot;
  under one entity of its own, one price per month is what there is to change.
- *An opinion that turned*: a newer opinion about the same entity, or on a name the older
  one gives, says the writer was wrong, has come round, or finds it otherwise now ("Nia is
  actually really good at standing up for us" after "Nia is very focused on targets; I'm
  not sure about her yet"), or follows an older opinion not yet formed ("not sure about
  macOS yet" / "I now prefer macOS"); or an older opinion that was a wish or a plan ("I
  want to go to Open'er Festival"), or an experience that booked or arranged something
  ("Booked a cottage on Anglesey"), and a newer fact that settles or calls it off on a word
  both give ("Decided not to go to Open'er after all", "Cancelled the Anglesey cottage";
  `called_off` tells the ledger to weigh such a fact against experiences too).
- *An end of what the older fact is about*: the newer fact stops, cancels, quits or is done
  with a thing the older state names ("Cancelled GoodLife" / "Down to one gym visit a week"
  at @GoodLife; "Stopped running for now" / "I run along the stream three times a week"),
  or says a relationship ended or that one is single now against an older fact that names
  the bond ("Minh Anh and I broke up" / "Minh Anh, my girlfriend, is a ceramicist").

All are offered, never made by themselves: an entity may have two prices (two plans, two
services), an opinion may turn on another side of the same thing, and an end may be of a
part.  English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from memfold.lifecycle.judge import words as w
from memfold.lifecycle.judge.aliases import priced_text
from memfold.lifecycle.judge.apart import models_apart
from memfold.lifecycle.judge.base import Verdict
from memfold.lifecycle.judge.pieces import (
    exploring,
    keys_of,
    name_stems,
    plan_words,
    words_as_written,
    written_name,
)
from memfold.lifecycle.judge.readers import read
from memfold.lifecycle.judge.words import PARTED
from memfold.names import entity_key
from memfold.values import Fact

_AMOUNT = re.compile(r"(?<![\w.])(?:[$€£¥₹₦₩]|US\$)\s?(?P<value>\d[\d,.]*)(?:\s?(?P<big>k|m|"
                     r"million|thousand|lakh))?", re.IGNORECASE)
# what an amount is per: "a month", "/mo", "per night", "an hour", "monthly", "a kilo"
_PER = re.compile(r"^[^.;]{0,30}?(?:\b(?:a|an|per|each)\s+|/\s?)(?P<per>month|mo|hour|hr|week|wk"
                  r"|night|day|year|yr|kilo|kg|lesson|session|class|visit|bag|box|tube|unit)\b"
                  r"|^[^.;]{0,30}?\b(?P<ly>monthly|weekly|hourly|nightly|daily|yearly|annually"
                  r"|biweekly|fortnightly)\b", re.IGNORECASE)
# a price said to have changed, with no unit beside it: "went up to 169 zł", "now costs"
_REPRICED = re.compile(r"\b(?:went\s+up|gone\s+up|goes\s+up|rose|risen|raised|increased|put\s+"
                       r"(?:\w+\s+)?up|came\s+down|dropped|cut|lowered|reduced|now\s+(?:costs?|is)"
                       r"|costs?\s+\S+\s+now)\b", re.IGNORECASE)
_PERIODS = {"mo": "month", "hr": "hour", "wk": "week", "yr": "year", "kg": "kilo",
            "monthly": "month", "weekly": "week", "hourly": "hour", "nightly": "night",
            "daily": "day", "yearly": "year", "annually": "year", "biweekly": "fortnight",
            "fortnightly": "fortnight"}


@lru_cache(maxsize=4096)  # the new fact's, asked once per older fact
def _prices(text: str) -> dict[str, set[str]]:
    """The amounts of money a text gives, by what each is per ("month"; "" for none); the
    caller only reads it."""
    text = priced_text(text)
    found: dict[str, set[str]] = {}
    for m in _AMOUNT.finditer(text):
        per = _PER.match(text[m.end():])
        unit = (per.group("per") or per.group("ly")).lower() if per else ""
        value = m.group("value").rstrip(".,").replace(",", "") + (m.group("big") or "").lower()
        found.setdefault(_PERIODS.get(unit, unit), set()).add(value)
    return found


def _priced_again(new: Fact, old: Fact, shared: frozenset[str]) -> str | None:
    if not shared - {"me"} or old.kind != "world" or new.kind == "opinion":
        return None
    mine, theirs = _prices(new.content), _prices(old.content)
    for per in sorted(set(mine) & set(theirs)):
        if (per or _REPRICED.search(new.content)) and not mine[per] & theirs[per]:
            name = written_name(new, shared - {"me"})
            each = f" {'an' if per[0] in 'aeiouh' else 'a'} {per}" if per else ""
            return f"another price{each} for {name}"
    return None


# an opinion said to have turned: "I was wrong about", "has grown on me", "actually fine now"
_TURNED = re.compile(r"\b(?:was\s+wrong|were\s+wrong|(?:has|have|is|'s)\s+grown\s+on"
                     r"|come\s+(?:a)?round|came\s+(?:a)?round|changed\s+my\s+mind|after\s+all"
                     r"|turns\s+out|turned\s+out"
                     r"|actually|now\s+(?:i|we)\s+(?:like|love|think|find)|(?:like|love|enjoy)"
                     r"\s+(?:it|them|him|her)\s+now|(?:is|are)\s+(?:fine|great|good|bearable|better)"
                     r"\s+now|(?:i|we)\s+now\s+(?:like|love|prefer|enjoy|think|find)|(?:like|love"
                     r"|prefer|enjoy)\b[^.;]*\bnow\b|gone\s+off|(?:never|not|n't)\s+go\s+back)\b",
                     re.IGNORECASE)
# an opinion not yet formed: "I'm not sure about macOS yet"
_UNSURE = re.compile(r"\b(?:not\s+sure|unsure|undecided|on\s+the\s+fence|(?:have|has)\s*n[o']t"
                     r"\s+decided)\b", re.IGNORECASE)
# a plan or a wish in an older opinion, and a newer fact that settles it
_PLANNED = re.compile(r"\b(?:wants?\s+to|would\s+like|'d\s+like|thinking\s+(?:of|about)|plans?\s+to"
                      r"|planning|hopes?\s+to|hoping|intends?\s+to|saving\s+for|considering"
                      r"|don't\s+want|do\s+not\s+want|no\s+more|not\s+ready|never)\b",
                      re.IGNORECASE)
_SETTLES = re.compile(r"\b(?:after\s+all|instead|decided|passed\s+on|said\s+(?:yes|no)"
                      r"|turned\s+down|went\s+ahead|booked|bought|adopted|cancell?ed|called\s+off"
                      r"|dropped|postponed|put\s+off|gave\s+up|moved\s+to)\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z][\w'-]{2,}")


# a booking or an arrangement told as done ("Booked flights to Boston for August"), and a
# newer fact that calls it off ("Cancelled our August trip to Boston")
_BOOKED = re.compile(r"\b(?:booked|reserved|planned|arranged|signed\s+up|registered|entered"
                     r"|bought\s+tickets|got\s+tickets|settled\s+on|plan\s+to|going\s+to)\b",
                     re.IGNORECASE)
_CALLED_OFF = re.compile(r"\b(?:cancell?ed|cancell?ing|called\s+off|fell\s+through|pulled\s+out"
                         r"|postponed|put\s+off|scrapped|decided\s+against|not\s+going)\b",
                         re.IGNORECASE)


def called_off(text: str) -> bool:
    """Whether a text calls something off: the ledger then weighs it against experiences too,
    for the booking or plan it may cancel."""
    return _CALLED_OFF.search(text) is not None


def _settled(new: Fact, old: Fact) -> str | None:
    """A booking told as done and called off, or a wish or plan in an opinion settled."""
    if old.kind == "experience" and _BOOKED.search(old.content) and called_off(new.content) \
            and (booked := plan_words(new.content) & plan_words(old.content) - _SAY_NOTHING):
        return f"the plan on {words_as_written(booked, old.content)!r} may be settled"
    if old.kind == "opinion" and _PLANNED.search(old.content) \
            and _SETTLES.search(new.content) \
            and (common := sorted(plan_words(new.content) & plan_words(old.content))):
        plan = words_as_written(frozenset(common[:3]), old.content)
        return f"the plan on {plan!r} may be settled"
    return None


def _turned(new: Fact, old: Fact, shared: frozenset[str]) -> str | None:
    if new.kind != "opinion" or old.kind != "opinion" or not (
            _TURNED.search(new.content) or _UNSURE.search(old.content)):
        return None
    about = frozenset(e for e in new.entities if entity_key(e) in shared - {"me"})
    if not about:  # the user's own opinions: on a name both give ("Lekki", "iPhone")
        (theirs, inside), (mine, within) = _names(old.content), _names(new.content)
        about = theirs & mine & (inside | within)
    return f"the opinion on {sorted(about)[0]} may have turned" if about else None


def _names(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The capitalised words of a text as written ("iPhone", "Barranco"), and those of them
    that are names for sure: written so inside a sentence, not only at its start ("Okay",
    "Love" are no names; "Barranco is the best" is one when the other text names it too)."""
    found, inside = set(), set()
    for m in _WORD.finditer(text):
        word = re.sub(r"['’]s$", "", m.group())
        if not any(c.isupper() for c in word) or word == "I":
            continue
        found.add(word)
        if any(c.isupper() for c in word[1:]) or text[:m.start()].strip() \
                and text[:m.start()].rstrip()[-1] not in ".!?;:":
            inside.add(word)
    return frozenset(found), frozenset(inside)


# done with a thing: "is done with hockey", "let Duolingo go", "'s over"
_DONE_WITH = re.compile(r"\b(?:(?:done|finished)\s+with\s+(?:the\s+|my\s+|her\s+|his\s+)?"
                        r"(?P<with>[\w'-]+)|let\s+(?P<let>[\w'-]+)\s+go)\b"
                        r"|(?P<over>[\w'-]+)(?:'s|\s+is)\s+over"  # said where the clause ends
                        r"(?=\s*(?:[.,;:!?)]|$|now\b|for\s+good\b|and\b|but\b))",
                        re.IGNORECASE)
_SINGLE = re.compile(r"\b(?:i\s+am|i'm|is|are)\s+single\b", re.IGNORECASE)
_BOND = re.compile(r"\b(?:girlfriend|boyfriend|partner|wife|husband|fianc[ée]e?|spouse|seeing"
                   r"|dating|together|been\s+with|engaged|married|novia|novio)\b", re.IGNORECASE)


def _ended_here(new: Fact, old: Fact) -> str | None:
    if old.kind in ("opinion", "experience") or new.kind == "opinion":
        return None
    if (PARTED.search(new.content) or _SINGLE.search(new.content)) and _BOND.search(old.content):
        return "the newer fact says the relationship ended"
    n, o = read(new), read(old)
    ended = [e for e in n.ends if e] + [frozenset({w.stem(x.lower()) for x in m.groups() if x})
                                        for m in _DONE_WITH.finditer(new.content)]
    theirs = o.words | name_stems(keys_of(old.entities))
    for thing in ended:
        common = frozenset(x for x in thing & theirs - _SAY_NOTHING
                           if not models_apart(x, n.text, o.text))
        if common:
            return (f"the newer fact says {words_as_written(common, new.content)!r} ended; what "
                    f"the older one says may no longer hold")
    return None


# words an end shares with an older fact that say nothing of what ended ("run" is a generic
# word of the rules, "runs on", but here names what stopped: "stopped running")
_SAY_NOTHING = frozenset(w.stem(x) for x in (*w.STOP, "me", "be", "have", "get", "go", "do",
                                              "make", "now", "time", "day", "week", "month"))


def second_look(new: Fact, older: Sequence[Fact], said: Sequence[Verdict]) -> list[Verdict]:
    """Offers for the older facts no rule had a word on (`said`: the verdicts made): another
    price of the same entity, a plan or booking settled, an opinion that turned, an end of
    what the older fact is about."""
    if exploring(new):
        return []
    keys, weighed = keys_of(new.entities), {v.id for v in said}
    found = []
    for old in older:
        if old.id in weighed or old.id == new.id or exploring(old):
            continue
        shared = keys & keys_of(old.entities)
        if why := _priced_again(new, old, shared) or _settled(new, old) \
                or _turned(new, old, shared) or (_ended_here(new, old) if shared else None):
            found.append(Verdict(old.id, False, why, offer=True))
    return found


__all__ = ["called_off", "second_look"]
