"""Synthetic workspaces for the benchmarks: seeded, fast, and the same bytes every time.

This module owns the benchmark corpus — its vocabulary, its pool of entity names, the text of
each daily log and entity page — and `touch`, which edits a few files the way a person would
between two syncs.  Nothing here is timed; it only has to be quick enough (ten thousand files
in a few seconds) that a benchmark run is not spent waiting for its input.

Shape of a generated workspace (on top of `Memory.init`'s skeleton):

    memory/YYYY-MM-DD.md      one per day, going back from `end`: a title, 1-3 paragraphs and
                              a `## Retain` section of 8-16 typed bullets (12 on average)
    bank/entities/<Slug>.md   about 50 pages, some with `aliases:` front matter

Words are drawn from a fixed vocabulary of a few thousand (real words first, then made-up
ones) with Zipf-Mandelbrot weights, so the full-text index sees a realistic term distribution.
Every file's mtime is set to its day (18:00 UTC), so the stamps are in the past and stable.
"""

from __future__ import annotations

import itertools
import json
import os
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from memfold.memory import Memory

END_DAY = date(2025, 11, 30)
ENTITY_PAGES = 50
VOCABULARY_SIZE = 4000
_VOCABULARY_SEED = 0x6D656D66  # fixed: the vocabulary does not change with the corpus seed
_ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
_ID_SPACE = 36**8
_ID_STEP = 2_654_435_761  # prime, so counter -> id is a bijection on 8-character ids
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _words(text: str) -> tuple[str, ...]:
    """A word list written as running text, one space or line break apart."""
    return tuple(text.split())


FUNCTION_WORDS = _words("""
the of and to a in is that for it with as was on be at by this had not are but from or have
an they which one you were all we her she there would their will when who him been has more
if no out so said what up its about than into them can only other new some could time these
two may then do first any my now such like our over even most made after also did many
before must through back where much your way well down should because each just those how
too little very make still own see get here between both under never same another while last
might us off since against again right used three
""")

CONTENT_WORDS = _words("""
meeting project deadline coffee train flight hotel budget invoice contract review design
database migration release laptop server backup garden recipe dinner birthday doctor
appointment concert museum library office kitchen weekend morning evening holiday vacation
conference workshop report draft proposal feedback schedule calendar ticket station airport
bicycle apartment lease landlord neighbour sister brother mother father daughter son friend
colleague manager client customer vendor partner team company startup product feature bug
issue patch deploy pipeline cluster network router password account subscription payment
refund receipt bank loan mortgage insurance tax pension salary bonus promotion interview
hiring onboarding training course lecture thesis paper article book novel podcast episode
movie series album playlist guitar piano violin lesson teacher student school university
campus gym yoga running marathon swimming hiking climbing skiing cycling football tennis
chess puzzle game score match league season trip journey road bridge river lake mountain
forest beach island harbour market bakery restaurant cafe bar pub wine beer tea juice water
bread cheese pasta soup salad curry noodles dumplings pizza burger sandwich chocolate cake
breakfast lunch snack allergy medicine vitamin sleep headache fever cough clinic hospital
dentist pharmacy prescription insurance weather rain snow storm sunshine wind heat cold
autumn winter spring summer january february march april june july august september
october november december monday tuesday wednesday thursday friday saturday sunday
prefers likes dislikes visited booked moved asked decided promised agreed declined started
finished cancelled postponed bought sold ordered returned fixed broke lost found called
emailed texted met joined left signed renewed paid owes lent borrowed planned cooked baked
painted wrote read watched listened learned taught built tested shipped reviewed merged
reverted released migrated upgraded installed configured deleted archived noticed observed
mentioned suggested recommended complained praised confirmed denied remembered forgot
usually always rarely often sometimes recently finally quickly slowly carefully early late
busy tired happy worried excited curious careful quiet loud cheap expensive fast slow
reliable flaky broken stable urgent important minor major private public remote local
green blue red yellow black white small large short tall warm cozy bright dark fresh
spicy sweet bitter sour salty strong weak simple complex clear vague strict flexible
café naïve résumé façade jalapeño über smörgåsbord crème déjà piñata fiancée doppelgänger
""")

SYLLABLES = _words("""
ka lo mi ren tor vel sha quin bra del fen gor hal jun kel lum mar nor pel ras sil tam ul var
wen yor zel an ber cor dra el fis gan hem is jor kra lin mon nes or pra qua ris sto tri un
vor wyn xan yel zor bi da fu go he ju ke li mo nu pa re si to vu
""")

PEOPLE = _words("""
Peter Anna Maria Lukas Sofia Jonas Emma Felix Clara Paul Lena David Sarah Tobias Julia Simon
Laura Daniel Hannah Michael Lisa Thomas Nina Markus Eva Andreas Mia Stefan Lea Martin Sophie
Florian Katharina Alexander Johanna Sebastian Marie Christian Elena Benedikt Theresa Oliver
Amelia James Olivia William Ava Henry Isabella Noah Charlotte Liam Harper Ethan Grace Lucas
Zoë Chloé Renée François José Björn Søren Müller Dvořák Işıl Ngọc Nguyễn Ólafur Siân Małgorzata
Priya Arjun Mei Hiroshi Yuki Wei Fatima Omar Kwame Amara Diego Lucía Mateo Valentina Ines
""")

PLACES = _words("""
Vienna Zürich Hà-Nội São-Paulo Kraków Đà-Nẵng Malmö Reykjavík Tōkyō Łódź Ålesund Montréal
Berlin Munich Hamburg Graz Salzburg Linz Innsbruck Geneva Basel Bern Paris Lyon Marseille
London Edinburgh Dublin Amsterdam Rotterdam Brussels Copenhagen Stockholm Oslo Helsinki Prague
Brno Bratislava Budapest Ljubljana Zagreb Belgrade Athens Rome Milan Turin Naples Madrid
Barcelona Sevilla Lisbon Porto Istanbul Cairo Nairobi Lagos Mumbai Delhi Bengaluru Singapore
Bangkok Seoul Kyoto Osaka Sydney Melbourne Auckland Toronto Vancouver Chicago Boston Denver
Seattle Austin Lima Bogotá Santiago Mexico-City
""")

ORGS_AND_PROJECTS = _words("""
Acme Globex Initech Umbrella Hooli Stark Wayne Wonka Tyrell Cyberdyne Soylent Aperture
Vandelay Pied-Piper Massive-Dynamic Oscorp Gringotts Monsters-Inc Duff Nakatomi
memfold Atlas Borealis Cobalt Delta-Wing Ember Falcon Granite Helios Iris Juniper Kestrel
Lighthouse Meridian Nimbus Orion Pegasus Quasar Redwood Sequoia Tundra Umbra Vortex Willow
Zephyr Kubernetes Postgres SQLite Python Rust Linux GitHub Figma Slack Notion Obsidian
""")

ENTITIES = tuple(dict.fromkeys([*PEOPLE, *PLACES, *ORGS_AND_PROJECTS]))

OPENERS = {
    "W": ("Lives in", "Works at", "Is based in", "Owns", "Runs", "Uses", "Has", "Speaks"),
    "B": ("Visited", "Booked", "Met", "Finished", "Started", "Called", "Moved", "Shipped"),
    "O": ("Prefers", "Likes", "Dislikes", "Trusts", "Enjoys", "Avoids", "Recommends"),
    "S": ("Noticed", "Seems", "Often", "Usually", "Mentioned", "Sounded", "Looked"),
}
KIND_CUTS = ((0.40, "W"), (0.70, "B"), (0.85, "O"), (1.01, "S"))


@dataclass(frozen=True)
class Corpus:
    """What `generate` wrote: paths relative to the workspace root, and the bullet count."""

    root: Path
    daily: tuple[str, ...]
    entity_pages: tuple[str, ...]
    bullets: int
    bytes: int


def build_vocabulary(size: int = VOCABULARY_SIZE) -> list[str]:
    """Words in rank order: function words, then real content words, then made-up ones."""
    rng = random.Random(_VOCABULARY_SEED)
    known = set(FUNCTION_WORDS) | set(CONTENT_WORDS)
    made: dict[str, None] = {}
    while len(known) + len(made) < size:
        word = "".join(rng.choices(SYLLABLES, k=rng.choice((2, 2, 3))))
        if word not in known:
            made[word] = None
    head = list(dict.fromkeys(FUNCTION_WORDS))
    real = [w for w in dict.fromkeys(CONTENT_WORDS) if w not in head]
    invented = list(made)
    rng.shuffle(real)
    rng.shuffle(invented)
    return head + real + invented


def zipf_weights(count: int, *, shift: float = 2.7, power: float = 1.0) -> list[float]:
    """Cumulative Zipf-Mandelbrot weights for ranks 1..count (for `random.choices`)."""
    return list(itertools.accumulate(1.0 / (rank + shift) ** power
                                     for rank in range(1, count + 1)))


def block_id(n: int, salt: int) -> str:
    """The n-th block id of a corpus: distinct for every n below 36**8, random-looking."""
    value = (n * _ID_STEP + salt) % _ID_SPACE
    chars = []
    for _ in range(8):
        value, r = divmod(value, 36)
        chars.append(_ID_ALPHABET[r])
    return "".join(chars)


def mtime_of(day: date) -> int:
    """The stamp a generated file gets: 18:00 UTC on its day, in nanoseconds."""
    moment = datetime(day.year, day.month, day.day, 18, tzinfo=UTC)
    return int(moment.timestamp()) * 1_000_000_000


def date_range(start: date, length: int) -> str:
    """A range as people write it: "(Nov 27–Dec 1, 2025)" or "(Nov 3–7, 2025)"."""
    end = start + timedelta(days=length)
    head = f"{_MONTHS[start.month - 1]} {start.day}"
    if (start.year, start.month) == (end.year, end.month):
        return f"({head}–{end.day}, {end.year})"
    return f"({head}–{_MONTHS[end.month - 1]} {end.day}, {end.year})"


class _Writer:
    """Text for one corpus: every random choice comes from one seeded generator."""

    def __init__(self, seed: int, vocabulary: Sequence[str]) -> None:
        self.rng = random.Random(seed)
        self.words = list(vocabulary)
        self.word_weights = zipf_weights(len(self.words))
        self.names = list(ENTITIES)
        random.Random(seed ^ 0x5EED).shuffle(self.names)
        self.name_weights = zipf_weights(len(self.names), shift=1.0, power=0.9)
        self.salt = random.Random(seed).randrange(_ID_SPACE)
        self.ids = 0
        self.bullets = 0

    def draw_words(self, k: int) -> list[str]:
        return self.rng.choices(self.words, cum_weights=self.word_weights, k=k)

    def draw_names(self, k: int) -> list[str]:
        return self.rng.choices(self.names, cum_weights=self.name_weights, k=k)

    def sentence(self, low: int, high: int) -> str:
        words = self.draw_words(self.rng.randint(low, high))
        words[0] = words[0].capitalize()
        if self.rng.random() < 0.25:
            words.insert(self.rng.randrange(1, len(words) + 1), "@" + self.draw_names(1)[0])
        return " ".join(words) + "."

    def paragraph(self) -> str:
        return " ".join(self.sentence(6, 20) for _ in range(self.rng.randint(2, 5)))

    def params(self, letter: str) -> str:
        r = self.rng.random()
        if letter == "O" and r < 0.7:
            c = f"c={self.rng.randint(5, 99) / 100:g}"
            return f"({c},i={self.rng.randint(1, 10)})" if r < 0.1 else f"({c})"
        return f"(i={self.rng.randint(1, 10)})" if r < 0.06 else ""

    def content(self, letter: str, day: date) -> str:
        rng = self.rng
        words = self.draw_words(rng.randint(5, 16))
        if rng.random() < 0.2:
            words.insert(rng.randrange(len(words) + 1), "@" + self.draw_names(1)[0])
        opener = rng.choice(OPENERS[letter])
        text = f"{opener} {' '.join(words)}"
        if rng.random() < 0.08:
            start = day + timedelta(days=rng.randint(-20, 40))
            text += " " + date_range(start, rng.randint(1, 9))
        return text + "."

    def bullet(self, day: date) -> str:
        rng = self.rng
        r = rng.random()
        letter = next(kind for cut, kind in KIND_CUTS if r < cut)
        header = "".join(f" @{name}" for name in self.draw_names(rng.choice((0, 0, 1, 1, 1, 2))))
        line = f"- {letter}{self.params(letter)}{header}: {self.content(letter, day)}"
        self.bullets += 1
        if rng.random() < 0.7:
            self.ids += 1
            return f"{line} ^{block_id(self.ids, self.salt)}"
        return line

    def daily(self, day: date) -> str:
        rng = self.rng
        parts = [f"# {day.isoformat()} ({day.strftime('%A')})"]
        parts.extend(self.paragraph() for _ in range(rng.randint(1, 3)))
        bullets = "\n".join(self.bullet(day) for _ in range(rng.randint(8, 16)))
        parts.append(f"## Retain\n{bullets}")
        if rng.random() < 0.1:
            parts.append(f"## Later\n\n{self.paragraph()}")
        return "\n\n".join(parts) + "\n"

    def entity_page(self, name: str) -> str:
        rng = self.rng
        parts = []
        if rng.random() < 0.4:
            aliases = [name.lower(), name.replace("-", " "), rng.choice(CONTENT_WORDS).title()]
            listed = ", ".join(json.dumps(a, ensure_ascii=False) for a in dict.fromkeys(aliases))
            parts.append(f"---\naliases: [{listed}]\n---")
        parts.append(f"# {name}\n\n{self.paragraph()}")
        notes = "\n".join(f"- {self.sentence(4, 12)}" for _ in range(rng.randint(2, 4)))
        parts.append(f"## Notes\n\n{notes}")
        return "\n\n".join(parts) + "\n"


def write_text(path: Path, text: str, mtime_ns: int) -> int:
    """Write `text` as UTF-8 with LF line ends and set the file's mtime; returns the size."""
    data = text.encode("utf-8")
    with open(path, "wb") as handle:
        handle.write(data)
    os.utime(path, ns=(mtime_ns, mtime_ns))
    return len(data)


def generate(root: Path, *, files: int, seed: int = 0, end: date = END_DAY,
             entity_pages: int = ENTITY_PAGES,
             vocabulary: Sequence[str] | None = None) -> Corpus:
    """Write a workspace of `files` daily logs (one per day back from `end`) and entity pages.

    The same arguments always produce the same bytes and the same mtimes.
    """
    _, created = Memory.init(root)
    writer = _Writer(seed, vocabulary or build_vocabulary())
    total = 0
    daily: list[str] = []
    for back in range(files):
        day = end - timedelta(days=back)
        rel = f"memory/{day.isoformat()}.md"
        total += write_text(root / rel, writer.daily(day), mtime_of(day))
        daily.append(rel)
    pages: list[str] = []
    for name in writer.names[:entity_pages]:
        rel = f"bank/entities/{name}.md"
        total += write_text(root / rel, writer.entity_page(name), mtime_of(end))
        pages.append(rel)
    settle_skeleton(root, created, mtime_of(end - timedelta(days=files)))
    return Corpus(root, tuple(daily), tuple(pages), writer.bullets, total)


def settle_skeleton(root: Path, created: Sequence[str], mtime_ns: int) -> None:
    """Give the files `Memory.init` wrote a fixed mtime in the past, like the generated ones."""
    for rel in created:
        path = root / rel
        if path.is_file():
            os.utime(path, ns=(mtime_ns, mtime_ns))


def touch(root: Path, k: int, *, seed: int, mtime_ns: int | None = None) -> list[str]:
    """Edit `k` distinct daily logs, chosen by `seed`: append a bullet or reword one.

    Returns the paths changed (relative to `root`).  The mtime is the clock's unless
    `mtime_ns` is given.  A file whose last section is not Retain gets a new Retain section.
    """
    rng = random.Random(seed)
    daily = sorted(entry.name for entry in os.scandir(root / "memory")
                   if entry.name.endswith(".md"))
    chosen = [f"memory/{name}" for name in rng.sample(daily, min(k, len(daily)))]
    writer = _Writer(seed, build_vocabulary())
    for rel in chosen:
        path = root / rel
        text = path.read_text(encoding="utf-8")
        day = date.fromisoformat(rel[7:17])
        edited = reword(text, writer) if rng.random() < 0.5 else None
        path.write_text(edited or append_bullet(text, writer.bullet(day)), encoding="utf-8")
        if mtime_ns is not None:
            os.utime(path, ns=(mtime_ns, mtime_ns))
    return chosen


def append_bullet(text: str, bullet: str) -> str:
    last_heading = text.rfind("\n#")
    in_retain = text.startswith("# Retain\n", last_heading + 2)
    return text + (f"{bullet}\n" if in_retain else f"\n## Retain\n{bullet}\n")


def reword(text: str, writer: _Writer) -> str | None:
    """Replace one word of one Retain bullet's content (the line keeps its kind and id)."""
    lines = text.split("\n")
    bullets = [n for n, line in enumerate(lines) if line.startswith("- ") and ": " in line]
    if not bullets:
        return None
    n = writer.rng.choice(bullets)
    head, _, content = lines[n].partition(": ")
    words = content.split(" ")
    words[writer.rng.randrange(len(words) - 1) if len(words) > 1 else 0] = writer.draw_words(1)[0]
    lines[n] = f"{head}: {' '.join(words)}"
    return "\n".join(lines)
