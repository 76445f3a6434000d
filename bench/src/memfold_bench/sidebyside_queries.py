"""The query classes of `memfold bench sidebyside`, each with planted answers.

Every query is drawn from one world-fact (`W`) Retain bullet that states no time span — a
current truth, which memfold's lifecycle never fades by time alone (experiences and
observations years old are archived by design and rank below fresher facts that match fewer
words, and a fact valid only for a span that has ended is expired: the lifecycle working,
not the index).  It is kept only if that bullet is the one line of the whole workspace —
every line of every Markdown file, entity pages and paragraphs included — holding all of the
query's content words as memfold's index tokenizes them (porter stemming, diacritics folded;
a throwaway FTS5 table answers), and if memfold reads the query as it is meant (no time
phrase, no "tell me about").  So each query has exactly one right bullet, named by its
`path#Lline`.

The classes (`CLASSES`):

- rare words — three content words of the bullet (four letters or more, no stop word), as
  plain words: "kraelyel shipped weekend";
- entity topic — a name the bullet carries (its `@Name`) and two of its content words:
  "Zagreb misil neskra";
- natural questions — the name and three content words in a question frame of common words
  ("What did Zagreb decide about the misil, neskra and owns?", "Do you remember what ...
  said about ...?"): the frame's words are stop words or common ones the corpus holds
  thousands of times ("decide", "remember", "mentioned", "note");
- multi-word — five content words of the bullet, in its order;
- what/which questions — a question that asks for a kind of thing by its noun, the way people
  ask ("Which instrument did Emma mention with the velfu and wenzelan?"): the bullet holds an
  English word the lexicon knows as a kind of that noun (guitar: instrument; pizza: dish),
  and the question holds the bullet's name and two of its other content words, not the word.
  Recall searches the noun's kinds deep (`recall.expansion.ASKED_KINDS`), the costliest
  reading of a question; the floor searches the noun as a word, which the bullet does not
  hold.

The floor runs each query's words, stop words left out (memfold's list; the rare-words
queries hold none), any of them, best ten by BM25: `floor_fts`.
"""

from __future__ import annotations

import random
import re
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import click

from memfold import lexicon
from memfold.names import STOP_WORDS, find_words
from memfold.recall import expansion
from memfold.recall.query import plan_query
from memfold.times.parse import extract_interval
from memfold.workspace.format import daily_date

from . import corpus, floor
from .scale import floor_fts, query_words

RARE = "rare words"
ENTITY_TOPIC = "entity topic"
NATURAL = "natural questions"
MULTI = "multi-word"
WHICH = "what/which questions"
CLASSES = (RARE, ENTITY_TOPIC, NATURAL, MULTI, WHICH)
QUERY_WORDS = 3  # content words of a rare-words query
MULTI_WORDS = 5
ATTEMPTS = 50  # bullets drawn per query wanted, at most, before giving up
LINES_SCHEMA = ("CREATE VIRTUAL TABLE lines USING fts5(text, path UNINDEXED, line UNINDEXED, "
                "tokenize = 'porter unicode61 remove_diacritics 2')")
# question frames: {name} and three content words {a} {b} {c}
FRAMES = (
    "What did {name} decide about the {a}, {b} and {c}?",
    "Do you remember what {name} said about {a} {b} {c}?",
    "Can you find the note where {name} mentioned {a}, {b} and the {c}?",
    "Which {a} does {name} have for the {b} and {c}?",
    "Is there anything from {name} on {a} and {b} or {c}?",
    "Where was the note about {name} and the {a} {b} {c}?",
)
# what/which questions: {kind} the noun asked for, {name} and two content words {a} {b}
ASKING = (
    "Which {kind} did {name} mention with the {a} and {b}?",
    "What {kind} does {name} have for the {a} and {b}?",
    "What kind of {kind} did {name} pick for {a} and {b}?",
    "Which {kind} was it that {name} chose for the {a}, {b}?",
)
REAL = frozenset(corpus.CONTENT_WORDS)  # the corpus's English words, not its made-up ones
KINDS_READ = 3  # of what a bullet's word is a kind of, the nearest this many single words


@dataclass(frozen=True)
class Planted:
    """A query, its class, the words that make it unique, and its one right bullet."""

    text: str
    path: str
    line: int
    kind: str = RARE
    words: tuple[str, ...] = ()

    @property
    def answer(self) -> str:
        return f"{self.path}#L{self.line}"

    @property
    def floor(self) -> str:
        """The FTS5 expression the floor runs: the query's words, stop words left out."""
        if self.kind == RARE:
            return floor_fts(self.text)
        kept = [w.casefold() for w in find_words(self.text)]
        return floor_fts(" ".join(w for w in kept if w not in STOP_WORDS))


def every_line(ws: Path) -> Iterator[tuple[str, str, int]]:
    """(text, path, 1-based line) of every non-blank line of every Markdown file memfold reads."""
    for rel in sorted(floor.stamps(ws)):
        text = (ws / rel).read_text(encoding="utf-8")
        for number, line in enumerate(text.split("\n"), 1):
            if line.strip():
                yield line, rel, number


def lines_holding(db: sqlite3.Connection, words: Sequence[str]) -> list[tuple[str, int]]:
    """The lines (at most two) that hold all of `words`."""
    match = " AND ".join(f'"{w}"' for w in words)
    return db.execute("SELECT path, line FROM lines WHERE lines MATCH ? LIMIT 2",
                      (match,)).fetchall()


def plain_words(text: str) -> bool:
    """Whether memfold reads `text` as its words alone: no time phrase, name or "about"."""
    plan = plan_query(text, today=corpus.END_DAY)
    return (plan.window is None and plan.about is None and not plan.mentions
            and len(plan.terms) == QUERY_WORDS)


def reads_as_asked(text: str) -> bool:
    """Whether memfold reads `text` with no time phrase and no "tell me about"."""
    plan = plan_query(text, today=corpus.END_DAY)
    return plan.window is None and plan.about is None and not plan.mentions


def names_of(body: str) -> list[str]:
    """The one-word ASCII names the bullet carries as `@Name`."""
    return [w for w in dict.fromkeys(m[1:] for m in body.split() if m.startswith("@"))
            if w.isascii() and w.isalpha()]


# a maker: (bullet, its content words, rng) -> (query, the words that make it unique) or None
Made = tuple[str, tuple[str, ...]] | None
Maker = Callable[[str, list[str], random.Random], Made]


def rare_words(body: str, words: list[str], rng: random.Random) -> Made:
    if len(words) < QUERY_WORDS:
        return None
    picked = rng.sample(words, QUERY_WORDS)
    text = " ".join(picked)
    return (text, tuple(picked)) if plain_words(text) else None


def entity_topic(body: str, words: list[str], rng: random.Random) -> Made:
    names = names_of(body)
    if not names or len(words) < 2:
        return None
    name, picked = rng.choice(names), rng.sample(words, 2)
    text = " ".join([name, *picked])
    return (text, (name.casefold(), *picked)) if reads_as_asked(text) else None


def natural_question(body: str, words: list[str], rng: random.Random) -> Made:
    names = names_of(body)
    if not names or len(words) < 3:
        return None
    name, (a, b, c) = rng.choice(names), rng.sample(words, 3)
    text = rng.choice(FRAMES).format(name=name, a=a, b=b, c=c)
    return (text, (name.casefold(), a, b, c)) if reads_as_asked(text) else None


def multi_word(body: str, words: list[str], rng: random.Random) -> Made:
    if len(words) < MULTI_WORDS:
        return None
    start = rng.randrange(len(words) - MULTI_WORDS + 1)
    picked = words[start:start + MULTI_WORDS]
    text = " ".join(picked)
    return (text, tuple(picked)) if reads_as_asked(text) else None


def kinds_asked(word: str) -> list[str]:
    """The single words, nearest first, the lexicon says `word` is a kind of."""
    return [k for k in lexicon.classes(word) if k.isalpha() and k not in STOP_WORDS
            ][:KINDS_READ]


def which_question(body: str, words: list[str], rng: random.Random) -> Made:
    names = names_of(body)
    known = [w for w in words if w in REAL and kinds_asked(w)]
    if not names or not known or len(words) < 3:
        return None
    word = rng.choice(known)
    name, kind = rng.choice(names), rng.choice(kinds_asked(word))
    a, b = rng.sample([w for w in words if w != word], 2)
    text = rng.choice(ASKING).format(kind=kind, name=name, a=a, b=b)
    if not reads_as_asked(text) or expansion.asked_kind(text, [kind]) != kind:
        return None
    return text, (name.casefold(), a, b)


MAKERS: dict[str, Maker] = {RARE: rare_words, ENTITY_TOPIC: entity_topic,
                            NATURAL: natural_question, MULTI: multi_word,
                            WHICH: which_question}
WORLD_FACT = re.compile(r"W(\([^)]*\))?[ :@]")  # a `W` bullet, with or without params
SALTS = {RARE: 0x51DE, ENTITY_TOPIC: 0xE7, NATURAL: 0xA7, MULTI: 0x3A, WHICH: 0x3C}


def current_truths(ws: Path, rel: str) -> list[tuple[str, int]]:
    """The `W` bullets of a daily log that state no time span, with their lines."""
    day = daily_date(rel)  # the year a date without one is read in, as memfold does
    year = day.year if day else corpus.END_DAY.year
    return [(body, line) for body, line in floor.retain_lines(
        (ws / rel).read_text(encoding="utf-8")) if WORLD_FACT.match(body)
        and "until=" not in body and not extract_interval(body, default_year=year)]


def lines_db(ws: Path) -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.execute(LINES_SCHEMA)
    db.executemany("INSERT INTO lines (text, path, line) VALUES (?, ?, ?)", every_line(ws))
    return db


def plant_queries(ws: Path, count: int, seed: int, kind: str = RARE,
                  db: sqlite3.Connection | None = None) -> list[Planted]:
    """`count` queries of one class, each with exactly one right bullet; the same workspace
    and seed give the same set."""
    rng = random.Random(seed * 1_000_003 + SALTS[kind])
    make = MAKERS[kind]
    daily = sorted(floor.daily_files(ws))
    own = db is None
    lines = lines_db(ws) if db is None else db
    try:
        planted: list[Planted] = []
        seen: set[tuple[str, int]] = set()
        bullets_of: dict[str, list[tuple[str, int]]] = {}
        for _ in range(count * ATTEMPTS):
            if len(planted) == count or not daily:
                break
            rel = rng.choice(daily)
            if rel not in bullets_of:
                bullets_of[rel] = current_truths(ws, rel)
            if not bullets_of[rel]:
                continue
            body, line = rng.choice(bullets_of[rel])
            words = [w for w in query_words(body) if w.isascii()]
            made = make(body, words, rng) if (rel, line) not in seen else None
            if made and lines_holding(lines, made[1]) == [(rel, line)]:
                planted.append(Planted(made[0], rel, line, kind, made[1]))
                seen.add((rel, line))
    finally:
        if own:
            lines.close()
    if len(planted) < count:
        raise click.ClickException(
            f"only {len(planted)} of {count} {kind} queries with one right answer could be "
            "drawn from this corpus; give more --files or fewer --queries")
    return planted


def plant_classes(ws: Path, count: int, seed: int,
                  kinds: Sequence[str] = CLASSES) -> dict[str, list[Planted]]:
    """`count` planted queries of each class in `kinds`."""
    db = lines_db(ws)
    try:
        return {kind: plant_queries(ws, count, seed, kind, db) for kind in kinds}
    finally:
        db.close()

