"""Retain bullets: parse one bullet's text, render a bullet as its Markdown line, and the
ids of bullets written without one.  The grammar, in docs/format.md:

    - KIND[(params)] [@Entity ...]: content [^blockid]
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import NamedTuple

from memfold.names import entity_key
from memfold.times.parse import parse_iso_day
from memfold.values import KIND_LETTERS, LETTER_OF_KIND

FACT = re.compile(
    r"(?P<letter>[A-Za-z])"
    r"(?:\((?P<params>[^()]*)\))?"
    r"(?P<entities>(?:[ \t]+@[^\s:@]*)*)"
    r"[ \t]*:[ \t]*(?P<content>.*)$"
)
BLOCK_ID = re.compile(r"(?:^|[ \t])\^([a-z0-9]{6,})[ \t]*$")
ASCII_SLUG = re.compile(r"[A-Za-z0-9_.\-]*[A-Za-z0-9][A-Za-z0-9_.\-]*")
BLOCK_ID_SHAPE = re.compile(r"[a-z0-9]{6,}")
MENTION_AT = re.compile(r"@(?=\w)")
PARAM_KEYS = ("c", "i", "until", "supersedes", "by")


class FactSyntaxError(ValueError):
    """A bullet that is not a valid Retain fact; the message says why."""


@dataclass(frozen=True)
class Bullet:
    """The parts of one Retain bullet, before it is placed in a file."""

    kind: str
    content: str
    entities: tuple[str, ...] = ()
    params: dict[str, str] = field(default_factory=dict)
    block_id: str | None = None
    confidence: float | None = None
    importance: int | None = None
    until: date | None = None
    notes: tuple[str, ...] = ()  # kept as written but worth a warning (an unknown key)
    errors: tuple[str, ...] = ()  # values not applied (out of range, malformed)


_NAME_BREAKS = re.compile(r"[^\w.\-]+")


def entity_slug(name: str) -> str:
    """A name as `@Entity` syntax takes it: letters, digits, `-`, `_`, `.` (runs of other
    characters, spaces included, become `-`); "" when nothing of it is left."""
    return _NAME_BREAKS.sub("-", name.strip()).strip("-.")


def clean_slug(token: str) -> str:
    """An @mention without the trailing punctuation of the sentence around it."""
    return token.rstrip(".-")


def _slug_char(ch: str) -> bool:
    """Letters, digits, `_ . -`, and combining marks: a decomposed "ë" (e + U+0308) or the
    vowel signs of Indic scripts are part of the name they follow."""
    return ch.isalnum() or ch in "_.-" or unicodedata.category(ch).startswith("M")


def valid_slug(slug: str) -> bool:
    if slug.isascii():  # the common case, in one regex
        return bool(ASCII_SLUG.fullmatch(slug))
    return all(_slug_char(ch) for ch in slug) and any(ch.isalnum() for ch in slug)


def find_mentions(content: str) -> list[str]:
    """The @mentions in running text, as written (before `clean_slug`).

    A mention starts with a word character right after `@`; the `@` must not follow a word
    character, a combining mark, `@` or `.` (so `x@example.com` is an address, not a mention).
    """
    found: list[str] = []
    if "@" not in content:
        return found
    for m in MENTION_AT.finditer(content):
        at = m.start()
        if at and (_slug_char(content[at - 1]) and content[at - 1] != "-"
                   or content[at - 1] == "@"):
            continue
        end = m.end()
        while end < len(content) and _slug_char(content[end]):
            end += 1
        found.append(content[m.end():end])
    return found


def _parse_param(key: str, value: str, values: dict[str, object], problems: list[str],
                 notes: list[str]) -> None:
    """Validate one `key=value`: into `values`, or a problem, or a note."""
    if key == "c":
        try:
            c = float(value)
        except ValueError:
            c = -1.0
        if 0.0 <= c <= 1.0:
            values["c"] = c
        else:
            problems.append(f"confidence c={value} is not a number from 0 to 1")
    elif key == "i":
        if value.isdigit() and 1 <= int(value) <= 10:
            values["i"] = int(value)
        else:
            problems.append(f"importance i={value} is not a whole number from 1 to 10")
    elif key == "until":
        day = parse_iso_day(value)
        if day is None:
            problems.append(f"until={value} is not a date (YYYY-MM-DD)")
        else:
            values["until"] = day
    elif key == "by":
        pass  # provenance: who retained the bullet, kept as written
    elif key == "supersedes":
        if BLOCK_ID_SHAPE.fullmatch(value.lstrip("^")):
            values["supersedes"] = value.lstrip("^")
        else:
            problems.append(f"supersedes={value} is not a block id (^ and 6+ of a-z0-9)")
    else:
        notes.append(f"unknown parameter {key!r} kept as written")


def _parse_params(text: str) -> tuple[dict[str, str], dict[str, object], list[str], list[str]]:
    """Split `c=0.9, i=7` into raw pairs, validated values, errors and notes."""
    raw: dict[str, str] = {}
    values: dict[str, object] = {}
    problems: list[str] = []
    notes: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        key, eq, value = (s.strip() for s in part.partition("="))
        if not eq or not key:
            problems.append(f"parameter {part!r} is not key=value")
            continue
        if key in raw:  # given twice: the last is the one kept, as written and as read
            values.pop(key, None)
            notes.append(f"parameter {key!r} given more than once; the last is kept")
        raw[key] = value
        _parse_param(key, value, values, problems, notes)
    return raw, values, problems, notes


class BulletFields(NamedTuple):
    """A Bullet's fields in its order, as a plain tuple: what the document scanner takes
    from each of a rebuild's bullets (a frozen dataclass costs more to make than the rest
    of the parse)."""

    kind: str
    content: str
    entities: tuple[str, ...]
    params: dict[str, str]
    block_id: str | None
    confidence: float | None
    importance: int | None
    until: date | None
    notes: tuple[str, ...]
    errors: tuple[str, ...]


def parse_bullet(text: str) -> Bullet:
    """Parse the text of one Retain bullet (without the leading `- `).

    Raises FactSyntaxError when it is not a fact at all.  A value out of range comes back in
    `Bullet.errors` (and is not applied); an unknown parameter in `Bullet.notes`.
    """
    return Bullet(*bullet_fields(text))


def bullet_fields(text: str) -> BulletFields:
    """`parse_bullet`, its fields as a tuple."""
    m = FACT.match(text.strip())
    if not m:
        raise FactSyntaxError("not a Retain fact: expected 'KIND[(params)] [@Entity ...]: content'")
    letter, params_text, header, content = m.groups()  # FACT's four groups, in order
    kind = KIND_LETTERS.get(letter)
    if kind is None:
        raise FactSyntaxError(f"unknown kind {letter!r}: use W (world), B (experience), "
                              "O (opinion) or S (observation)")
    content = content.strip()
    block_id = None
    if "^" in content and (bm := BLOCK_ID.search(content)):  # most bullets have no id
        block_id = bm.group(1)
        content = content[: bm.start()].rstrip()
    if not content:
        raise FactSyntaxError("empty content after the colon")
    names: list[str] = []
    for token in header.split():
        slug = clean_slug(token[1:])
        if not valid_slug(slug):
            raise FactSyntaxError(f"entity {token!r} is not a name (letters, digits, - _ .)")
        names.append(slug)
    if "@" in content:  # mentions in the text are kept when they are names
        names.extend(slug for slug in map(clean_slug, find_mentions(content))
                     if valid_slug(slug))
    entities = _unique_entities(names) if names else ()
    if not params_text:
        return BulletFields(kind, content, entities, {}, block_id, None, None, None, (), ())
    raw, values, errors, notes = _parse_params(params_text)
    until = values.get("until")
    return BulletFields(
        kind, content, entities, raw, block_id,
        values.get("c"),  # type: ignore[arg-type]
        values.get("i"),  # type: ignore[arg-type]
        until if isinstance(until, date) else None, tuple(notes), tuple(errors))


def _unique_entities(names: Iterable[str]) -> tuple[str, ...]:
    seen: dict[str, str] = {}
    for name in names:
        seen.setdefault(entity_key(name), name)
    return tuple(seen.values())


def render_bullet(bullet: Bullet) -> str:
    """The Markdown line for a bullet: `- O(c=0.9) @Peter: content ^id`."""
    letter = next(k for k, v in KIND_LETTERS.items() if v == bullet.kind)
    params = ",".join(f"{k}={v}" for k, v in bullet.params.items())
    head = f"{letter}({params})" if params else letter
    spelt = _mentions(bullet.content)
    header_names = [n for n in bullet.entities if spelt.get(entity_key(n)) != n]
    names = "".join(f" @{n}" for n in header_names)
    line = f"- {head}{names}: {bullet.content}"
    return f"{line} ^{bullet.block_id}" if bullet.block_id else line


def _mentions(content: str) -> dict[str, str]:
    """Each entity the content mentions, by key, as its first mention spells it: a name the
    header gives is left out of the rendered header only when the content spells it the same
    way first ("@Hà-Nội" in the header, "@Hà-Nối" then "@Hà-Nội" in the text keeps it)."""
    spelt: dict[str, str] = {}
    for slug in map(clean_slug, find_mentions(content)):
        if valid_slug(slug):
            spelt.setdefault(entity_key(slug), slug)
    return spelt


def bullet_line(kind: str, content: str, entities: Sequence[str], confidence: float | None,
                importance: int | None, fact_id: str) -> str:
    """The line of a consolidated fact reflect writes: `c` with two decimals, every entity
    named in the header (mentioned in the content or not), always with its id."""
    params = []
    if confidence is not None:
        params.append(f"c={confidence:.2f}")
    if importance is not None:
        params.append(f"i={importance}")
    head = LETTER_OF_KIND[kind] + (f"({','.join(params)})" if params else "")
    names = "".join(f" @{n}" for n in entities)
    return f"- {head}{names}: {content} ^{fact_id}"


# base32 (RFC 4648, lower case) by ten bits: each entry spells two characters
_BASE32_PAIRS = tuple(a + b for a in "abcdefghijklmnopqrstuvwxyz234567"
                      for b in "abcdefghijklmnopqrstuvwxyz234567")


def derived_id(path: str, text: str, occurrence: int = 0) -> str:
    """A stable id for a bullet or chunk written without `^blockid`: from file and content.

    Whitespace is normalised, so re-indenting or moving the line keeps the id.  Eight
    characters of base32 (a-z, 2-7): 40 bits of SHA-256 — what
    `base64.b32encode(digest[:5]).lower()` spells, four table look-ups instead of its loop
    (a rebuild derives an id for most of 200,000 rows).
    """
    normal = " ".join(text.split())
    seed = f"{path}\0{normal}\0{occurrence}" if occurrence else f"{path}\0{normal}"
    bits = int.from_bytes(hashlib.sha256(seed.encode("utf-8", "surrogatepass")).digest()[:5],
                          "big")
    pairs = _BASE32_PAIRS
    return (pairs[bits >> 30] + pairs[(bits >> 20) & 1023] + pairs[(bits >> 10) & 1023]
            + pairs[bits & 1023])
