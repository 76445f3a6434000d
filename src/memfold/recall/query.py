"""Reading a recall query: the words to search, the names, the time and the intent.

Pure functions of the query text and `today`.  The words are searched as `Terms` (the index's
own value, which each backend renders: the user's text never reaches FTS5 as syntax), so
quotes, `*`, `-`, `^`, `:`, parentheses, NEAR and AND/OR/NOT are plain words, and a phrase in
double quotes is searched as a phrase.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from datetime import date

from memfold import names
from memfold.errors import BadInput
from memfold.index.base import Terms
from memfold.language import looks_vietnamese
from memfold.names import STOP_WORDS, WORD, entity_key, find_words, symbols
from memfold.recall.query_vi import VI_CONTENT_WORDS, VI_OPINION_WORDS, VI_STOP_WORDS
from memfold.times.anchors import Anchor, find_anchor
from memfold.times.parse import find_time_phrase, unread_time_phrase
from memfold.values import Interval
from memfold.workspace.format import clean_slug, find_mentions

MAX_TERMS = 64
MAX_QUERY_CHARS = 4000  # longer queries are cut here (the first words carry the question)


def refuse_long(text: str, what: str, hint: str) -> None:
    """BadInput when `text` passes MAX_QUERY_CHARS, giving its length, never the text."""
    if len(text) > MAX_QUERY_CHARS:
        raise BadInput(f"the {what} is {len(text):,} characters; the limit is "
                       f"{MAX_QUERY_CHARS:,}{hint}")
PHRASE = re.compile(r'"([^"]+)"')
# a word with its combining marks ("Hà Nội" written decomposed stays one word per name part)
WORD_SPAN = re.compile(r"\w[\w\u0300-\u036f]*")
POSSESSIVE = re.compile(r"['\u2019]s\b")
# lone surrogates (undecodable bytes of a command line) cannot be encoded for SQLite
SURROGATES = re.compile("[\ud800-\udfff]")
ABOUT = re.compile(
    r"^\s*(?:tell\s+me\s+(?:everything\s+|more\s+)?about|what\s+do\s+(?:you|we|i)\s+know\s+about"
    r"|who\s+is|who's|who\s+was)\s+(?P<name>.+?)\s*[?.!]*\s*$",
    re.IGNORECASE,
)
OPINION_WORDS = frozenset(
    "prefer prefers preferred preference preferences like likes liked love loves loved hate "
    "hates dislike dislikes think thinks thought opinion opinions favorite favourite feel "
    "feels enjoy enjoys want wants wish believe believes view views taste".split()
)

# a question that asks for a view without an opinion word: how one finds, rates or takes a
# thing, whether it was worth it or a good choice, which is better or best
OPINION_ASKED = re.compile(
    r"\bhow\s+(?:am|is|are|was|were|do|does|did)\s+(?:\w+\s+){1,2}?(?:finding|find|feeling"
    r"|coping|getting\s+on|liking)\b"
    r"|\bhow\s+(?:do|does)\s+\w+\s+(?:take|have|get)\s+(?:my|his|her|their|our)\s+\w+\s*"
    r"(?:these\s+days|now|in\s+the\s+\w+)?\s*[?.]*\s*$"
    r"|\bwhat\s+(?:do|did|does)\s+\w+\s+make\s+of\b|\b(?:what's|what\s+is)\s+\w+\s+take\s+on\b"
    r"|\breckons?\b|\bimpressions?\s+of\b|\b(?:do|does|did)\s+\w+\s+rate\b"
    r"|\brated?\s+(?:\w+\s+)?(?:highest|most|more|best|lowest)\b"
    r"|\bworth\s+(?:it|the\s+(?:money|cost|effort|wait|price|hassle))\b"
    r"|\bgood\s+(?:choice|idea|decision|call|move)\b|\bregret|\brather\b|\bany\s+good\b"
    r"|\b(?:happy|happier|glad|pleased|satisfied|annoyed|enjoying)\b"
    r"|\b(?:do|does|did|will|going\s+to)\s+(?:\w+\s+)?miss\b|\bmiss\s+most\b"
    r"|\bwhere\s+do\s+(?:i|we)\s+stand\s+on\b"
    # not a record ("my best parkrun") nor health ("feeling better")
    r"|(?<!feeling\s)(?<!getting\s)(?<!doing\s)(?<!my\s)(?<!his\s)(?<!her\s)(?<!'s\s)"
    r"(?<!our\s)(?<!their\s)(?<!personal\s)\b(?:better|best|worse|worst)\b",
    re.IGNORECASE)

# words that ask about what held before, or how it went over time ("where did we live before
# Bishopston", "how has my salary changed"): such a question is answered with the facts a
# newer one replaced too (`scoring.standing`, ranking.HISTORY_SHARE)
HISTORY_WORDS = frozenset(
    "was were did before previous previously originally formerly former earlier used "
    "changed change changes ever first history".split()
)

# the present perfect asks about the past too ("what have Priyanka and I done together",
# "which teams has Milo played for"): has/have, up to three words, then a past participle
PERFECT = re.compile(
    r"\b(?:has|have|'ve)\s+(?:\w+\s+){0,3}?(?:\w{2,}ed|been|done|had|gone|seen|made|got"
    r"|gotten|taken|given|won|run|met|bought|sold|held|left|kept|known|read|worn|eaten"
    r"|driven|written|grown|become)\b", re.IGNORECASE)

# the simple past after the one who did it asks about the past too ("who looked after the dog
# when we went away", "which races I ran"): a question word or a person, then a past form —
# irregular, or a regular one of at least five letters ("looked", "walked"; not "need",
# "breed", "bed")
PAST = re.compile(
    r"\b(?:who|what|which|i|we|you|they|he|she)\s+(?:\w{2,}[^\We]ed|went|came|took|ran|swam|saw|"
    r"met|got|had|made|bought|sold|left|paid|gave|wore|ate|drove|flew|fed|kept|won|lost|told|"
    r"said|spent|used)\b", re.IGNORECASE)

# the user asks about themselves, "I" or "we" the subject after the question's verb ("what car do
# I drive", "where have we lived", "what was I driving"): a question of the user's own facts
# (`QueryPlan.user_subject`, ranking.OTHERS_SHARE).  "my" alone does not: "what does my
# brother do" asks about someone else
USER_SUBJECT = re.compile(
    r"\b(?:do|does|did|am|are|was|were|have|had|can|could|should|will|would|shall|must)"
    r"\s+(?:(?-i:I)|we)\b(?!')", re.IGNORECASE)

# phrases that say "now" in other words: the question asks what holds today, which recall
# weighs anyway, so their words are not searched ("days" of "these days" would match "I
# cycle to work most days", "moment" every "minute")
NOW_PHRASES = re.compile(
    r"\b(?:these\s+days|at\s+the\s+moment|at\s+present|right\s+now|nowadays|currently"
    r"|any\s*more)\b", re.IGNORECASE)


# phrases that span a stretch of time the time reader gives no window ("over the year",
# "next year", "the past month"): they frame the question, and their words are not searched
# ("year" of "how has my weight changed over the year" would match every fact that says
# "year" above the facts about the weight)
SPAN_PHRASES = re.compile(
    r"\b(?:(?:(?:over|during|throughout|across)\s+)?(?:the\s+)?(?:next|coming|past|whole)"
    r"|(?:over|during|throughout|across)\s+the|all(?:\s+the)?)\s+(?:year|month|week)\b",
    re.IGNORECASE)


# words of a time phrase that also say what happened: beside other words they are searched
# for too (alone, the time phrase is only a time: "what did I do last weekend")
TIME_TOPICS = frozenset({"weekend", "weekends", "holidays", "christmas", "xmas", "halloween",
                         "valentine", "valentines", "easter", "thanksgiving", "hogmanay",
                         "bonfire"})
# the occasions a time phrase names by a word a fact may hold ("over Easter", "Thanksgiving at
# our place"; not a weekend, which every week has): a fact that names the occasion, written
# within OCCASION_DAYS of the time asked, tells of it wherever the calendar puts its day (a
# plan written the week before, Canada's Thanksgiving in October; `occasion_words`)
OCCASIONS = TIME_TOPICS - {"weekend", "weekends"}
OCCASION_DAYS = 60
OCCASION_EVE = "eve"


@dataclass(frozen=True)
class QueryPlan:
    """What a query asks for, before any index is consulted."""

    text: str
    terms: tuple[str, ...]  # single words to match, stop words dropped
    phrases: tuple[str, ...]  # quoted phrases, matched as phrases
    mentions: tuple[str, ...]  # explicit @names
    name_keys: tuple[str, ...]  # entity keys of word n-grams, to detect names like "Peter"
    window: Interval | None  # a time phrase in the query ("around Nov 27")
    about: str | None  # "tell me about X" -> "X"
    opinion: bool  # a question about preferences or judgments
    # a range that names a time but could not be read ("between banana and Tuesday"): its
    # words are searched as words, and the result says so
    unread_time: str | None = None
    # a question about what held before or how it changed (HISTORY_WORDS)
    history: bool = False
    # a time named by an event ("around my birthday"): `recall.anchored` reads its day
    anchor: Anchor | None = None
    # the question's subject is the user, "I" or "we" (USER_SUBJECT)
    user_subject: bool = False
    # the facts that say who a role the question names is ("My brother Stuart runs a dairy
    # farm" for "my brother"; `recall.roles`), by id
    role_told: frozenset[str] = frozenset()
    # asked of what held before a change ("where did I live before Nairobi?"): the day of the
    # fact that tells of the change (`recall.before`); what was written since weighs
    # ranking.AFTER_CHANGE
    change_day: date | None = None

    def search_terms(self, skip: set[str] | frozenset[str] = frozenset()) -> Terms | None:
        """What the lexical search looks for: every term and phrase, any of them, for BM25
        to rank (None when there is nothing to search).

        Terms whose entity key is in `skip` (known entity names) are left out: the
        entity's links find its facts, and the name would otherwise count twice.  If that
        leaves nothing, they stay in.
        """
        terms = tuple(t for t in self.terms if entity_key(t) not in skip) or self.terms
        found = Terms(words=terms, phrases=self.phrases)
        return found if found else None

    def without_names(self, keys: set[str] | frozenset[str]) -> str:
        """The query's text without the names of the entities `keys` (runs of one to three
        words whose entity key is among them, and a possessive 's after one): what its
        vector is made of (`ranking.VECTOR_NAMES`).  The whole text when nothing is left."""
        if not keys:
            return self.text
        spans = [(m.start(), m.end()) for m in WORD_SPAN.finditer(self.text)]
        cut: list[tuple[int, int]] = []
        i = 0
        while i < len(spans):
            for size in (3, 2, 1):
                run = spans[i:i + size]
                if len(run) == size and entity_key(
                        " ".join(self.text[a:b] for a, b in run)) in keys:
                    end = run[-1][1]
                    if (m := POSSESSIVE.match(self.text, end)) is not None:
                        end = m.end()
                    cut.append((run[0][0], end))
                    i += size
                    break
            else:
                i += 1
        if not cut:
            return self.text
        parts, at = [], 0
        for start, end in cut:
            parts.append(self.text[at:start])
            at = end
        parts.append(self.text[at:])
        rest = " ".join("".join(parts).split())
        return rest if WORD.search(rest) else self.text


# inflections `word_stem` takes off, longest first: what the index's Porter stemmer folds
# together, told back in `why` ("moving (moved)")
SUFFIXES = ("ingly", "ings", "ing", "ied", "ies", "ed", "es", "ly", "s", "e", "y")


@functools.lru_cache(maxsize=1 << 16)  # a recall asks it of every word of every candidate
def word_stem(word: str) -> str:
    """A word without its inflection, enough to tell that two words are forms of one
    ("moved", "moving", "moves" -> "mov"); at least three letters are left."""
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def clean_text(text: str) -> str:
    """Text safe to hand to SQLite: lone surrogates become U+FFFD, NULs spaces."""
    return SURROGATES.sub("\ufffd", text).replace("\x00", " ")


def plan_query(text: str, *, today: date) -> QueryPlan:
    """Split a query into terms, phrases, names, a time window and an intent."""
    text = clean_text(text[:MAX_QUERY_CHARS])
    about = None
    if m := ABOUT.match(text):
        about = m.group("name").lstrip("@").strip()
    phrases = tuple(p.strip() for p in PHRASE.findall(text) if WORD.search(p))[:MAX_TERMS]
    rest = NOW_PHRASES.sub(" ", PHRASE.sub(" ", text))
    window, rest, unread, topics = _read_time(rest, today)
    spanless = SPAN_PHRASES.sub(" ", rest)  # unless nothing else is asked
    if any(w.casefold() not in STOP_WORDS for w in find_words(spanless)):
        rest = spanless
    mentions = tuple(dict.fromkeys(clean_slug(m) for m in find_mentions(rest)))
    words = find_words(rest)
    lowered = [unicodedata.normalize("NFC", w.casefold()) for w in words]
    stop, opinions = _words_of(text)
    opinion = any(w in opinions for w in lowered) or bool(OPINION_ASKED.search(text))
    terms = [w for w, low in zip(words, lowered, strict=True) if low not in stop]
    terms += symbols(rest)  # "🚀" finds the facts holding it (`names.fold_for_index`)
    if not terms and not phrases and not mentions and window is None:
        terms = words  # a query of stop words only still searches for them
    elif terms:
        terms += topics  # "volunteer at last weekend": the weekend is a word to match too
    return QueryPlan(
        text=text,
        terms=tuple(dict.fromkeys(t.casefold() for t in terms))[:MAX_TERMS],
        phrases=phrases,
        mentions=mentions,
        name_keys=name_keys(words),
        window=window,
        about=about,
        opinion=opinion,
        unread_time=unread,
        history=any(w in HISTORY_WORDS for w in lowered) or bool(PERFECT.search(rest))
        or bool(PAST.search(rest)),
        anchor=find_anchor(rest) if window is None else None,
        user_subject=bool(USER_SUBJECT.search(rest)),
    )


def _words_of(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The stop words and opinion words of the query's language (`language`)."""
    if looks_vietnamese(text):
        return (STOP_WORDS - VI_CONTENT_WORDS) | VI_STOP_WORDS, OPINION_WORDS | VI_OPINION_WORDS
    return STOP_WORDS, OPINION_WORDS


def _read_time(text: str, today: date,
               ) -> tuple[Interval | None, str, str | None, list[str]]:
    """The time phrase in a query: its window, the text without it, a range that names a
    time but could not be read (`times.parse.unread_time_phrase`), and the phrase's words
    that are topics as well as times (TIME_TOPICS: "weekend" in "last weekend")."""
    found = find_time_phrase(text, today=today)
    unread = unread_time_phrase(text, read=found[1] if found else None)
    if not found:
        return None, text, unread, []
    window, (start, end) = found
    topics = [w for w in find_words(text[start:end]) if w.casefold() in TIME_TOPICS]
    return window, text[:start] + " " + text[end:], unread, topics


@functools.lru_cache(maxsize=1 << 10)
def occasion_words(text: str) -> frozenset[str]:
    """The words of `text` that name an occasion (OCCASIONS: "easter" of "what did we do at
    Easter?"), with the eve of one ("christmas", "eve": Christmas Eve is not Christmas)."""
    words = [w.casefold() for w in find_words(text)]
    named = {w for w in words if w in OCCASIONS}
    return frozenset(named | ({OCCASION_EVE} & set(words))) if named else frozenset()


def name_keys(words: list[str]) -> tuple[str, ...]:
    """Entity keys of 1- to 3-word runs, so "Hà Nội" or "The Castle" can name an entity."""
    return names.name_keys(words, most=MAX_TERMS * 3)
