"""How a captured fact is worded: what a sentence says, as a person would write it in a
bullet about its speaker.

The chat's padding goes ("Quick thing,", "Anyway,", ", by the way", ", haha"); the speaker's
"I" is left out, in later clauses too ("I moved to Lisbon in March and I'm still settling in"
-> "Moved to Lisbon (March 2025) and is still settling in."), and the rest of the first
person turns into the third; a preference is said as one ("I'd rather you keep answers
short" -> "Prefers short answers."); a month without a year gets the turn's year (last
year's when the month is still ahead and what it dates is done), noted right after the fact
it dates, and "yesterday", "last week", "last month" and "last year" are dated from the
turn's day.

Pure and deterministic; which sentences are facts is `extract`'s to say, not this module's.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
# "we need", "I succeed": present tense, though spelt like a past one
PAST = re.compile(r"\b(?:I|we|We)(?:'ve|’ve| have| had| just| finally| recently| also|"
                  r" actually)* (?:(?!(?:need|feed|speed|seed|bleed|breed|exceed|proceed|succeed)"
                  r"\b)\w+ed|went|got|took|made|bought|met|saw|had|did|began|"
                  r"left|won|ran|read|wrote|gave|found|built|sold|spent|felt|thought|"
                  r"became|came|brought|taught|caught|drove|flew|swam|sang|heard|kept|"
                  r"lost|paid|told|won|been|done|seen|gone|taken|made)\b")
# leading interjections; "so" is one unless it starts "So far", "So much", "So many"…
LEAD = re.compile(r"^(?:(?:so(?! far| much| many| long)|well|oh|yeah|yes|and|but|actually|"
                  r"honestly|also|btw|by the way|haha|lol|wow|hey|hi|ok|okay|you know),?\s+)+",
                  re.IGNORECASE)
_SWAPS = [(re.compile(p, re.IGNORECASE), r) for p, r in (
    (r"\bI am\b", "they are"), (r"\bI was\b", "they were"), (r"\bI wasn['’]t\b", "they weren't"),
    (r"\bI['’]m\b", "they're"), (r"\bI['’]ve\b", "they've"),
    (r"\bI['’]d\b", "they'd"), (r"\bI['’]ll\b", "they'll"), (r"\bmyself\b", "themself"),
    (r"\bmy\b", "their"), (r"\bmine\b", "theirs"), (r"\bme\b", "them"), (r"\bI\b", "they"),
)]
_SUBJECT = re.compile(r"^(?:I|they)\s+(?:(am|are)|(have)|(\w+(?:n['’]t)?))(?!['’\w])",
                      re.IGNORECASE)
_WOULD = re.compile(r"^I(?:['’]d| would)\s+", re.IGNORECASE)
# "I'd been wanting to…": the "'d" of a past participle is "had"
_HAD = re.compile(r"^I['’]d\s+(?=(?:(?:just|already|never|always|finally|long)\s+)?(?:been|had|"
                  r"gone|done|seen|known|met|heard|wanted|thought|hoped|planned|tried)\b)",
                  re.IGNORECASE)
_CONTRACTED = re.compile(r"^I['’]m\s+", re.IGNORECASE)
_HAVE = re.compile(r"^I['’]ve\s+", re.IGNORECASE)
_MONTH = re.compile(r"\b(in|since|last|this|back in|early|late|mid-?)\s+(" + "|".join(MONTHS)
                    + r")\b(?!,? \d{4})")
_KEPT_BEFORE_MONTH = ("since", "early", "late", "mid", "mid-")  # kept: they change the meaning
_JOINT = re.compile(r",\s|\s(?:and|but|so|because)\s")
_RELATIVE = tuple((phrase, re.compile(rf"\b{phrase}\b", re.IGNORECASE))
                  for phrase in ("yesterday", "last week", "last year", "last month"))
_LEADING_MONTH = re.compile(r"^((?:back )?in|last|this) (" + "|".join(MONTHS) + r"),?\s+"
                            r"(?=(?:I|I['’](?:m|ve|d)|my|we)\b)", re.IGNORECASE)
# what a chat pads a statement with: a marker or greeting before it, an aside after it
_MARKER = re.compile(r"^(?:(?:anyways?|fyi|btw)(?:[,:!.—–-]+\s*|\s+)|(?:hello|hi again|hey there|"
                     r"one (?:more|last) thing|just so you know|for context|side note|(?:a |one )?"
                     r"(?:quick|small|little|random) (?:thing|question|update|note|one)"
                     r"(?: (?:before we (?:start|begin)|for you|first))?)[,:!.—–-]+\s*)",
                     re.IGNORECASE)
_TRAILING = re.compile(r"(?:,\s*(?:by the way|btw|anyways?|honestly|tbh|fyi|you know|though)|"
                       r"[,;]?\s+(?:ha(?:ha)+|he(?:he)+|lol|:\)|xd))\W*$", re.IGNORECASE)
# a preference framed as a wish ("I'd rather…", "please always…") and what the listener keeps
_FRAME = re.compile(r"^(?:I(?:['’]d| would) (?P<lead>rather|prefer|like)|please (?P<wanted>always|"
                    r"never|don['’]t|do not))\s+(?:(?:that|it if)\s+)?", re.IGNORECASE)
_KEEP = re.compile(r"^(?:please\s+|I(?:['’]d| would) (?:rather|prefer|like)\s+"
                   r"(?:(?:that|it if)\s+)?you\s+(?:to\s+)?)(?:always\s+)?keep\s+"
                   r"(?:the\s+|your\s+)?(.+)$",
                   re.IGNORECASE)
_HOW_KEPT = frozenset(("short", "brief", "concise", "simple", "casual", "formal", "informal",
                       "light", "plain", "friendly", "focused", "minimal", "direct", "tight",
                       "clean", "technical", "practical", "shorter", "simpler"))
# "… and I'm still settling in", ", I killed…": a later clause whose subject is the speaker
# ("so I can…" keeps its subject: a purpose, not a second fact)
_LATER_I = re.compile(r"((?:,|\s(?:and|but))\s+)I(?:(['’](?:m|ve|d|ll))|\s+(\w+(?:n['’]t)?))"
                      r"(?!['’\w])")
# "Luka started school in September": a past verb of someone named, for the month's year
_DONE = re.compile(r"(?<!^)\b(?:he|she|they|we|[A-Z][a-z]+)\s+(?:(?:just|finally|recently|also)"
                   r"\s+)?(?:\w+ed|went|got|took|made|bought|met|saw|had|did|began|left|won|ran|"
                   r"found|built|sold|spent|became|came|lost|grew|fell|quit)\b")
_THIRD_PERSON = {"have": "has", "do": "does", "go": "goes", "am": "is", "are": "is",
                 "was": "was", "were": "was", "can": "can", "will": "will", "would": "would",
                 "could": "could", "should": "should", "must": "must", "might": "might",
                 "may": "may", "just": "just", "really": "really", "also": "also",
                 "still": "still", "never": "never", "always": "always", "finally": "finally",
                 "recently": "recently", "actually": "actually", "usually": "usually",
                 "wanna": "wants to", "gonna": "is going to", "gotta": "has to",
                 "don't": "doesn't", "don’t": "doesn’t", "haven't": "hasn't",
                 "haven’t": "hasn’t", "aren't": "isn't", "aren’t": "isn’t",
                 "weren't": "wasn't", "weren’t": "wasn’t"}


def said(sentence: str, day: date) -> str:
    """The sentence in the third person, dated, ending with a full stop."""
    text = _time_last(_unpadded(sentence.rstrip(" .!…,;:")))
    text = _preference(text) or _subject_dropped(text)
    for pattern, replacement in _SWAPS:
        text = pattern.sub(replacement, text)
    text = _dated(text, day)
    text = text[:1].upper() + text[1:]
    return f"{text}."


def _unpadded(text: str) -> str:
    """Without the chat's padding: discourse markers and greetings before the statement
    ("Quick thing,", "Anyway,", "Hi again!") and asides after it (", by the way", ", haha")."""
    bare = text
    while True:
        shorter = _MARKER.sub("", LEAD.sub("", bare, count=1), count=1)
        if shorter == bare:
            break
        bare = shorter
    bare = _TRAILING.sub("", bare).rstrip(" .!…,;:")
    return bare if len(bare.split()) >= 2 else text


def _time_last(text: str) -> str:
    """A month said first moved to the end of the first clause, so the speaker's "I" opens
    the sentence: "In March, I moved to Porto" -> "I moved to Porto in March"."""
    lead = _LEADING_MONTH.match(text)
    if lead is None:
        return text
    rest = text[lead.end():]
    joint = _JOINT.search(rest)
    end = joint.start() if joint else len(rest)
    phrase = f"{lead.group(1).casefold()} {lead.group(2).capitalize()}"
    return f"{rest[:end]} {phrase}{rest[end:]}"


def _preference(text: str) -> str | None:
    """A preference said as one: "I'd rather you keep answers short" -> "Prefers short
    answers", "I'd prefer a window seat" -> "Prefers a window seat", "I'd rather walk" ->
    "Prefers to walk", "Please always cite sources" -> "Wants you to always cite sources"."""
    kept = _KEEP.match(text)
    if kept:
        said = kept.group(1).split()
        if len(said) == 2 and said[1].casefold() in _HOW_KEPT:
            said.reverse()  # "answers short" -> "short answers"
        return "Prefers " + _LATER_I.sub(_dropped_later, " ".join(said))
    frame = _FRAME.match(text)
    if frame is None:
        return None
    rest = _LATER_I.sub(_dropped_later, text[frame.end():])
    lead = (frame.group("lead") or "").casefold()
    if frame.group("wanted"):
        wanted = frame.group("wanted").casefold()
        return "Wants you " + ("not to " if wanted.startswith("don") else f"to {wanted} ") + rest
    if "like" in lead:
        return "Wants " + rest if rest.casefold().startswith("you ") else None
    if rest.casefold().startswith("you "):
        return "Prefers that " + rest
    return ("Prefers to " if "rather" in lead else "Prefers ") + rest


def _subject_dropped(text: str) -> str:
    """"I moved…" -> "Moved…", "I live…" -> "Lives…", "I'm…" -> "Is…"; a later clause of the
    same subject drops it too ("… and I'm still settling in" -> "… and is still settling in")."""
    if _HAD.match(text):
        return "Had " + _LATER_I.sub(_dropped_later, _HAD.sub("", text, count=1))
    if _WOULD.match(text):
        return "Would " + _LATER_I.sub(_dropped_later, _WOULD.sub("", text, count=1))
    if _CONTRACTED.match(text):
        return "Is " + _LATER_I.sub(_dropped_later, _CONTRACTED.sub("", text, count=1))
    if _HAVE.match(text):
        return "Has " + _LATER_I.sub(_dropped_later, _HAVE.sub("", text, count=1))
    match = _SUBJECT.match(text)
    if not match or not text.startswith("I "):
        return text
    verb = match.group(3) or match.group(2) or match.group(1)
    rest = _LATER_I.sub(_dropped_later, text[match.end():])
    after = _NEXT_VERB.match(rest)
    if _adverb(verb) and after and after.group(1) not in _THIRD_PERSON:
        # "I really love it" -> "Really loves it": the verb is the word after the adverb
        return f"{verb.capitalize()} {_conjugated(after.group(1))}{rest[after.end():]}"
    return _conjugated(verb) + rest


def _dropped_later(match: re.Match[str]) -> str:
    """"and I'm", ", I killed": the joint, then the verb the speaker's "I" went with."""
    joint, contracted, verb = match.group(1), match.group(2), match.group(3)
    if verb and _adverb(verb):
        return match.group(0)  # "and I just know it": the verb is further on; kept whole
    if contracted:
        return joint + {"m": "is", "v": "has", "d": "would", "l": "will"}[contracted[1].casefold()]
    return joint + _conjugated(verb)


def _adverb(word: str) -> bool:
    low = word.casefold()
    return low in _ADVERBS or (low.endswith("ly") and low not in ("fly", "apply", "reply", "rely"))


def _conjugated(verb: str) -> str:
    low = verb.casefold()
    if low in _THIRD_PERSON:
        return _THIRD_PERSON[low]
    if low.endswith(("ed", "s", "ly", "n't", "n’t")) or low in _IRREGULAR_PAST:
        return low
    if low.endswith(("sh", "ch", "x", "o")):
        return low + "es"
    if low.endswith("y") and low[-2:-1] not in "aeiou":
        return low[:-1] + "ies"
    return low + "s"


_IRREGULAR_PAST = frozenset((
    "went", "got", "took", "made", "bought", "met", "saw", "had", "did", "began", "left",
    "won", "ran", "read", "wrote", "gave", "found", "built", "sold", "spent", "felt",
    "thought", "became", "came", "brought", "taught", "caught", "drove", "flew", "swam",
    "sang", "heard", "kept", "lost", "paid", "told", "just", "put", "set", "let", "quit",
    "grew", "knew", "threw", "drew", "fell", "forgot", "chose", "spoke", "broke", "woke",
    "wore", "ate", "drank", "rode", "slept", "sent", "lent", "meant", "sat", "stood",
    "understood", "hit", "cut", "hurt", "held", "led", "learnt", "dreamt", "burnt", "spelt",
    "leapt", "knelt"))
_NEXT_VERB = re.compile(r"\s+([a-z]+)\b(?!['’])")
_ADVERBS = frozenset(("just", "still", "never", "always", "also", "even", "often", "totally",
                      "definitely", "kinda", "sometimes", "too", "already", "almost", "soon"))


def _dated(text: str, day: date) -> str:
    """Relative and year-less times made absolute from the turn's day."""
    for phrase, pattern in _RELATIVE:
        text = pattern.sub(f"{phrase} ({_meant(phrase, day)})", text, count=1)
    match = _MONTH.search(text)
    if match:
        said, name = match.group(1).casefold(), match.group(2)
        month = MONTHS.index(name) + 1
        done = PAST.search(f"I {text}") or _DONE.search(text[:match.start()])
        year = day.year - 1 if month > day.month and done else day.year
        if said in _KEPT_BEFORE_MONTH:
            return f"{text[:match.end()]} {year}{text[match.end():]}"
        return _noted(text[:match.start()], text[match.end():], f"({name} {year})")
    return text


def _noted(before: str, after: str, note: str) -> str:
    """The date note where its phrase was, after the fact it dates ("Moved to Lisbon
    (March 2025) and is still settling in"); a leading phrase's note ends the first clause."""
    before = before.rstrip()
    if before:
        return f"{before} {note}{after}".rstrip(" ,")
    after = after.lstrip(" ,")
    joint = _JOINT.search(after)
    end = joint.start() if joint else len(after.rstrip(" ,"))
    return f"{after[:end]} {note}{after[end:]}".rstrip(" ,")


def _meant(phrase: str, day: date) -> str:
    """The day, year or month a relative phrase said on `day` means."""
    if phrase in ("yesterday", "last week"):
        return (day - timedelta(days=1 if phrase == "yesterday" else 7)).isoformat()
    if phrase == "last year":
        return str(day.year - 1)
    previous = day.replace(day=1) - timedelta(days=1)
    return f"{MONTHS[previous.month - 1]} {previous.year}"
