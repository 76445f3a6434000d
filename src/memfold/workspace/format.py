"""The Markdown format: parse a workspace file into facts, and render Retain bullets.

Pure functions of text (no I/O, no clock).  The grammar, in docs/format.md:

    ## Retain
    - KIND[(params)] [@Entity ...]: content [^blockid]

A line scanner rather than a full CommonMark parser: memfold needs exact line numbers, must
read ten thousand files in about a second, and only has to recognise four constructs — ATX
headings, fenced code blocks, list bullets and front matter.  Everything it does not take as a
fact is still indexed as text, and every line it cannot read as written yields a warning with
its line number; nothing is dropped silently.
"""

from __future__ import annotations

import base64
import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date

from ..model import KIND_LETTERS, TEXT, Citation, Fact, Interval, ParsedDoc, ParseWarning
from ..names import entity_key
from ..timeparse import extract_interval, parse_iso_day

HEADING = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
# Any indentation: a fence inside a (nested) list item is indented past three spaces, and
# the fake bullets it holds must still not be read as facts.
FENCE = re.compile(r"[ \t]*(`{3,}|~{3,})")
BULLET = re.compile(r"[ \t]*[-*+][ \t]+(.*)$")
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
DAILY_NAME = re.compile(r"memory/(\d{4}-\d{2}-\d{2})\.md")

COMMENT_START = re.compile(r"[ \t]*<!--")
GENERATED = re.compile(r"[ \t]*<!-- memfold:generated (\w+)")
END_MARK = re.compile(r"[ \t]*<!-- memfold:end (\w+) -->")
# in a generated summary: "[memory/2025-11-27.md#L12](...) <!-- h:9f2c01ab77d3e410 -->"
CITED = re.compile(r"\[([^\]#]+)#L(\d+)\]\([^)]*\)[^<]*<!-- h:([0-9a-f]+) -->")

RETAIN_HEADING = "retain"
CHUNK_MAX_LINES = 40
CHUNK_MAX_CHARS = 4000
LONG_LINE = 20_000  # characters; a line this long is still indexed, with a warning
FRONT_MATTER_MAX = 64 * 1024
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


def doc_role(path: str) -> str:
    """What a workspace file is for, from its relative path."""
    if path == "memory.md":
        return "core"
    if DAILY_NAME.fullmatch(path):
        return "daily"
    if path.startswith("bank/entities/"):
        return "entity"
    if path.startswith("bank/"):
        return "bank"
    return "note"


def daily_date(path: str) -> date | None:
    m = DAILY_NAME.fullmatch(path)
    return parse_iso_day(m.group(1)) if m else None


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
        raw[key] = value
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
    return raw, values, problems, notes


def parse_bullet(text: str) -> Bullet:
    """Parse the text of one Retain bullet (without the leading `- `).

    Raises FactSyntaxError when it is not a fact at all.  A value out of range comes back in
    `Bullet.errors` (and is not applied); an unknown parameter in `Bullet.notes`.
    """
    m = FACT.match(text.strip())
    if not m:
        raise FactSyntaxError("not a Retain fact: expected 'KIND[(params)] [@Entity ...]: content'")
    letter = m.group("letter")
    if letter not in KIND_LETTERS:
        raise FactSyntaxError(f"unknown kind {letter!r}: use W (world), B (experience), "
                              "O (opinion) or S (observation)")
    content = m.group("content").strip()
    block_id = None
    if bm := BLOCK_ID.search(content):
        block_id = bm.group(1)
        content = content[: bm.start()].rstrip()
    if not content:
        raise FactSyntaxError("empty content after the colon")
    names: list[str] = []
    for token in m.group("entities").split():
        slug = clean_slug(token[1:])
        if not valid_slug(slug):
            raise FactSyntaxError(f"entity {token!r} is not a name (letters, digits, - _ .)")
        names.append(slug)
    names.extend(clean_slug(s) for s in find_mentions(content))
    entities = _unique_entities(n for n in names if valid_slug(n))
    raw, values, errors, notes = _parse_params(m.group("params") or "")
    until = values.get("until")
    return Bullet(
        kind=KIND_LETTERS[letter],
        content=content,
        entities=entities,
        params=raw,
        block_id=block_id,
        confidence=values.get("c"),  # type: ignore[arg-type]
        importance=values.get("i"),  # type: ignore[arg-type]
        until=until if isinstance(until, date) else None,
        notes=tuple(notes),
        errors=tuple(errors),
    )


def _unique_entities(names: object) -> tuple[str, ...]:
    seen: dict[str, str] = {}
    for name in names:  # type: ignore[attr-defined]
        seen.setdefault(entity_key(name), name)
    return tuple(seen.values())


def render_bullet(bullet: Bullet) -> str:
    """The Markdown line for a bullet: `- O(c=0.9) @Peter: content ^id`."""
    letter = next(k for k, v in KIND_LETTERS.items() if v == bullet.kind)
    params = ",".join(f"{k}={v}" for k, v in bullet.params.items())
    head = f"{letter}({params})" if params else letter
    header_names = [n for n in bullet.entities if n not in _mentions(bullet.content)]
    names = "".join(f" @{n}" for n in header_names)
    line = f"- {head}{names}: {bullet.content}"
    return f"{line} ^{bullet.block_id}" if bullet.block_id else line


def _mentions(content: str) -> set[str]:
    return {clean_slug(s) for s in find_mentions(content)}


def derived_id(path: str, text: str, occurrence: int = 0) -> str:
    """A stable id for a bullet or chunk written without `^blockid`: from file and content.

    Whitespace is normalised, so re-indenting or moving the line keeps the id.  Eight
    characters of base32 (a-z, 2-7): 40 bits of SHA-256.
    """
    normal = " ".join(text.split())
    seed = f"{path}\0{normal}\0{occurrence}" if occurrence else f"{path}\0{normal}"
    digest = hashlib.sha256(seed.encode("utf-8", "surrogatepass")).digest()
    return base64.b32encode(digest[:5]).decode("ascii").lower()


def split_lines(text: str) -> list[str]:
    """Lines as an editor numbers them: split on LF, a CR before the LF dropped."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


def decode(data: bytes) -> tuple[str, list[str]]:
    """Bytes to text: UTF-8 with an optional BOM; bad bytes replaced and reported."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    problems = []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        problems.append(f"{line}:invalid UTF-8 replaced with U+FFFD")
        text = data.decode("utf-8", "replace")
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        problems.append(f"{line}:NUL bytes removed")
        text = text.replace("\x00", "")
    return text, problems


def _summary_end(kind: str) -> str:
    return f"<!-- memfold:end {kind} -->"


class _Scanner:
    """One pass over a file's lines, collecting facts, text chunks and warnings."""

    def __init__(self, path: str, lines: list[str], day: date | None) -> None:
        self.path = path
        self.lines = lines
        self.day = day
        self.default_year = day.year if day else 2000
        self.facts: list[Fact] = []
        self.warnings: list[ParseWarning] = []
        self.chunk: list[tuple[int, str]] = []
        self.chunk_chars = 0
        self.seen: dict[str, int] = {}
        self.citations: list[Citation] = []

    def warn(self, line: int, message: str) -> None:
        self.warnings.append(ParseWarning(self.path, line, message))

    def hide(self, cm: re.Match[str], number: int, line: str) -> str | None:
        """A line opening an HTML comment: invisible when rendered, so not indexed.

        A generated summary (`<!-- memfold:generated summary -->` ... `<!-- memfold:end
        summary -->`) is skipped whole, its citations collected; it restates facts that are
        indexed where they were written.  Returns what closes the hidden region, if open.
        """
        if gm := GENERATED.match(line):
            if gm.group(1) == "summary":
                return _summary_end("summary")
            return None  # other generated regions hold facts: read them as usual
        if END_MARK.match(line):
            return None
        return None if "-->" in line[cm.end():] else "-->"

    def occurrence(self, key: str) -> int:
        n = self.seen.get(key, 0)
        self.seen[key] = n + 1
        return n

    def flush(self) -> None:
        if not self.chunk:
            return
        text = "\n".join(line for _, line in self.chunk).strip()
        first, last = self.chunk[0][0], self.chunk[-1][0]
        self.chunk, self.chunk_chars = [], 0
        if not text or HEADING.fullmatch(text):
            return  # a heading alone says nothing to search for
        key = f"chunk\0{text}"
        self.facts.append(Fact(
            id=derived_id(self.path, key, self.occurrence(key)), kind=TEXT, content=text,
            path=self.path, line=first, end_line=last, day=self.day))

    def add_chunk_line(self, number: int, line: str) -> None:
        self.chunk.append((number, line))
        self.chunk_chars += len(line)
        if len(self.chunk) >= CHUNK_MAX_LINES or self.chunk_chars >= CHUNK_MAX_CHARS:
            self.flush()

    def text_line(self, number: int, text: str, why: str) -> None:
        """A line under Retain that is not a fact: indexed as text, reported."""
        self.warn(number, why)
        key = f"line\0{text}"
        self.facts.append(Fact(
            id=derived_id(self.path, key, self.occurrence(key)), kind=TEXT,
            content=text.strip(), path=self.path, line=number, end_line=number, day=self.day))

    def retain_line(self, number: int, line: str) -> None:
        bm = BULLET.match(line)
        if not bm:
            self.text_line(number, line, "line under Retain is not a bullet; indexed as text")
            return
        try:
            bullet = parse_bullet(bm.group(1))
        except FactSyntaxError as exc:
            self.text_line(number, bm.group(1), f"{exc}; indexed as text")
            return
        for note in (*bullet.errors, *bullet.notes):
            self.warn(number, note)
        self.facts.append(self.fact_from(bullet, number, bm.group(1)))

    def fact_from(self, bullet: Bullet, number: int, text: str) -> Fact:
        if bullet.block_id:
            fact_id, explicit = bullet.block_id, True
        else:
            body = BLOCK_ID.sub("", text)
            fact_id = derived_id(self.path, body, self.occurrence(" ".join(body.split())))
            explicit = False
        valid = extract_interval(bullet.content, default_year=self.default_year)
        if bullet.until:
            start = valid.start if valid else self.day
            valid = Interval(start if start and start <= bullet.until else None, bullet.until)
        return Fact(
            id=fact_id, kind=bullet.kind, content=bullet.content, path=self.path, line=number,
            end_line=number, entities=bullet.entities, params=bullet.params,
            confidence=bullet.confidence, importance=bullet.importance, valid=valid,
            day=self.day, explicit_id=explicit)

    def scan(self, start: int) -> None:
        fence: str | None = None
        in_retain = False
        hidden: str | None = None  # inside an HTML comment or a generated summary
        for index in range(start, len(self.lines)):
            number, line = index + 1, self.lines[index]
            if len(line) > LONG_LINE:
                self.warn(number, f"a line of {len(line):,} characters: indexed whole, and "
                                  "recall returns it whole; split it into shorter lines")
            if hidden is not None:
                if hidden in line:
                    hidden = None
                elif hidden != "-->" and (ref := CITED.search(line)):
                    self.citations.append(Citation(number, ref.group(1), int(ref.group(2)),
                                                   ref.group(3)))
                continue
            if fence is None and (cm := COMMENT_START.match(line)):
                hidden = self.hide(cm, number, line)
                continue
            if fence is not None:
                self.add_chunk_line(number, line)
                stripped = line.strip()
                if stripped.startswith(fence) and not stripped.strip(fence[0]):
                    fence = None
                continue
            if fm := FENCE.match(line):
                fence = fm.group(1)
                self.add_chunk_line(number, line)
                continue
            if hm := HEADING.match(line):
                self.flush()
                title = (hm.group(2) or "").strip()
                in_retain = len(hm.group(1)) == 2 and title.casefold() == RETAIN_HEADING
                if not in_retain:
                    self.add_chunk_line(number, line)
                continue
            if not line.strip():
                if not (len(self.chunk) == 1 and HEADING.match(self.chunk[0][1])):
                    self.flush()
                continue
            if in_retain:
                self.flush()
                self.retain_line(number, line)
            else:
                self.add_chunk_line(number, line)
        self.flush()
        if fence is not None:
            self.warn(len(self.lines), f"code fence {fence} is never closed")


def _front_matter(path: str, lines: list[str]) -> tuple[int, dict[str, object], list[str]]:
    """Front matter between `---` lines at the top: (first body line index, data, problems)."""
    if not lines or lines[0].strip() != "---":
        return 0, {}, []
    for index in range(1, len(lines)):
        if lines[index].strip() in ("---", "..."):
            block = "\n".join(lines[1:index])
            if len(block) > FRONT_MATTER_MAX:
                return index + 1, {}, ["front matter larger than 64 KiB ignored"]
            import yaml  # only pages with front matter need it

            try:
                data = yaml.load(block, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
            except yaml.YAMLError as exc:
                return index + 1, {}, [f"front matter is not valid YAML: {_one_line(exc)}"]
            if data is None:
                return index + 1, {}, []
            if not isinstance(data, dict):
                return index + 1, {}, ["front matter is not a mapping; ignored"]
            return index + 1, data, []
    return 0, {}, ["front matter starts with --- but never ends; read as text"]


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())[:200]


def _aliases(path: str, data: dict[str, object]) -> tuple[str, ...]:
    names: list[str] = []
    stem = path.rsplit("/", 1)[-1].removesuffix(".md")
    names.append(stem)
    for key in ("title", "name"):
        if isinstance(data.get(key), str):
            names.append(str(data[key]))
    aliases = data.get("aliases", data.get("alias"))
    if isinstance(aliases, str):
        aliases = [aliases]
    if isinstance(aliases, list):
        names.extend(str(a) for a in aliases if isinstance(a, str | int | float))
    return tuple(n for n in dict.fromkeys(names) if n.strip())


def parse_document(path: str, data: bytes | str) -> ParsedDoc:
    """Everything memfold takes from one file: facts, text chunks, warnings, aliases."""
    problems: list[str] = []
    if isinstance(data, bytes):
        text, problems = decode(data)
    else:
        text = data.removeprefix("\ufeff")
    lines = split_lines(text)
    role, day = doc_role(path), daily_date(path)
    scanner = _Scanner(path, lines, day)
    for problem in problems:
        number, _, message = problem.partition(":")
        scanner.warn(int(number), message)
    body_start, front, fm_problems = _front_matter(path, lines)
    for message in fm_problems:
        scanner.warn(1, message)
    scanner.scan(body_start)
    aliases = _aliases(path, front) if role == "entity" else ()
    return ParsedDoc(path=path, role=role, day=day, facts=tuple(scanner.facts),
                     warnings=tuple(scanner.warnings), aliases=aliases,
                     citations=tuple(scanner.citations))


def plan_append(existing: str | None, title: str, bullet_lines: list[str]) -> str:
    """The text to append to a file so that `bullet_lines` land in a Retain section.

    Only ever appends: when the file's last section is not `## Retain` (or it ends inside an
    unclosed code fence), a new Retain section is started at the end instead of inserting
    into the middle of the file.  A file may hold several Retain sections.
    """
    body = "".join(f"{line}\n" for line in bullet_lines)
    if existing is None or not existing.strip():
        return f"# {title}\n\n## Retain\n{body}"
    lines = split_lines(existing)
    body_start = _front_matter("", lines)[0]  # the parser skips front matter; so must we
    fence, last_retain = _tail_state(lines[body_start:])
    prefix = "" if existing.endswith("\n") else "\n"
    if fence is not None:
        prefix += f"{fence}\n"
    if fence is not None or not last_retain:
        blank = "" if not lines or not lines[-1].strip() else "\n"
        prefix += f"{blank}## Retain\n"
    return prefix + body


class Fences:
    """Follows fenced code blocks line by line, so headings and bullets inside them are not
    taken for structure.  (The scanner keeps its own inline copy of this for speed.)"""

    def __init__(self) -> None:
        self.open: str | None = None  # the fence that opened the current block, if any

    def inside(self, line: str) -> bool:
        """Whether `line` is a fence line or lies within a fenced block."""
        if self.open is not None:
            stripped = line.strip()
            if stripped.startswith(self.open) and not stripped.strip(self.open[0]):
                self.open = None
            return True
        if fm := FENCE.match(line):
            self.open = fm.group(1)
            return True
        return False


def _tail_state(lines: list[str]) -> tuple[str | None, bool]:
    """(the fence still open at the end of the file, whether the last heading is Retain)."""
    fences = Fences()
    last_retain = False
    for line in lines:
        if not fences.inside(line) and (hm := HEADING.match(line)):
            title = (hm.group(2) or "").strip()
            last_retain = len(hm.group(1)) == 2 and title.casefold() == RETAIN_HEADING
    return fences.open, last_retain
