"""Parse a workspace file into what memfold indexes: facts, text chunks, warnings, aliases.

Everything it does not take as a fact is still indexed as text, and every line it cannot
read as written yields a warning with its line number; nothing is dropped silently.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, datetime

from memfold.times.parse import extract_interval, parse_iso_day
from memfold.values import TEXT, Citation, Fact, Interval, ParsedDoc, ParseWarning, made_fact
from memfold.workspace.format.bullets import (
    BLOCK_ID,
    BulletFields,
    FactSyntaxError,
    bullet_fields,
    derived_id,
)
from memfold.workspace.format.frontmatter import entity_names, read_front_matter
from memfold.workspace.format.lines import (
    BULLET,
    COMMENT_START,
    FENCE,
    HEADING,
    Fences,
    closes_fence,
    decode,
    is_retain_heading,
    split_lines,
)
from memfold.workspace.format.regions import CITED, END_MARK, GENERATED, SUMMARY, end_marker
from memfold.workspace.format.turns import speaker_entity, turn_statement

DAILY_NAME = re.compile(r"memory/(\d{4}-\d{2}-\d{2})\.md")
DAY_NAME = re.compile(r"(\d{4}-\d{2}-\d{2})\.md")  # a page named by its day
TASK = re.compile(r"[ \t]*[-*+][ \t]+\[ \][ \t]+(\S.*)$")
CHUNK_MAX_LINES = 40
CHUNK_MAX_CHARS = 4000
LONG_LINE = 20_000  # characters; a line this long is still indexed, with a warning
STRUCTURE_LEADS = ("<", "`", "~", "#")  # the first character of COMMENT_START, FENCE, HEADING


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


def page_date(path: str, front: dict[str, object]) -> date | None:
    """The day a bank page is dated: its front matter's `date` (else `created`), else its
    file's name when that is a day (a journal's daily note, `daily/2025-05-02.md`); None for
    a page of no day."""
    for key in ("date", "created"):
        value = front.get(key)
        if isinstance(value, datetime):
            return value.date()
        if isinstance(value, date):
            return value
        if isinstance(value, str) and (day := parse_iso_day(value.strip()[:10])):
            return day
    m = DAY_NAME.fullmatch(path.rsplit("/", 1)[-1])
    return parse_iso_day(m.group(1)) if m else None


def hidden_until(cm: re.Match[str], line: str) -> str | None:
    """What closes the hidden region `line` opens (`cm`: COMMENT_START matched it), or None
    when it hides nothing past itself."""
    if gm := GENERATED.match(line):
        if gm.group(1) == SUMMARY:
            return end_marker(SUMMARY)
        return None  # other generated regions hold facts: read them as usual
    if END_MARK.match(line):
        return None
    return None if "-->" in line[cm.end():] else "-->"


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

        A generated summary (`regions.begin_marker("summary")` ... `end_marker("summary")`)
        is skipped whole, its citations collected; it restates facts that are indexed where
        they were written.  Returns what closes the hidden region, if open.
        """
        return hidden_until(cm, line)

    def occurrence(self, key: str) -> int:
        n = self.seen.get(key, 0)
        self.seen[key] = n + 1
        return n

    def flush(self) -> None:
        if not self.chunk:
            return
        chunk, text = self.chunk, "\n".join(line for _, line in self.chunk).strip()
        first, last = chunk[0][0], chunk[-1][0]
        self.chunk, self.chunk_chars = [], 0
        if not text or HEADING.fullmatch(text):
            return  # a heading alone says nothing to search for
        key = f"chunk\0{text}"
        entities: tuple[str, ...] = ()
        params: dict[str, str] = {}
        if turn := turn_statement(text):  # a captured turn: one statement by its speaker
            speaker, text, skipped = turn
            entities, params = (speaker_entity(speaker),), {"speaker": speaker}
            first = chunk[skipped][0]  # cited at the turn's header, not the heading above it
        self.facts.append(made_fact(
            derived_id(self.path, key, self.occurrence(key)), TEXT, text, self.path, first,
            last, entities, params, None, None, None, self.day, False))

    def add_chunk_line(self, number: int, line: str) -> None:
        self.chunk.append((number, line))
        self.chunk_chars += len(line)
        if len(self.chunk) >= CHUNK_MAX_LINES or self.chunk_chars >= CHUNK_MAX_CHARS:
            self.flush()

    def text_line(self, number: int, text: str, why: str) -> None:
        """A line under Retain that is not a fact: indexed as text, reported."""
        self.warn(number, why)
        key = f"line\0{text}"
        self.facts.append(made_fact(
            derived_id(self.path, key, self.occurrence(key)), TEXT, text.strip(), self.path,
            number, number, (), {}, None, None, None, self.day, False))

    def retain_line(self, number: int, line: str) -> None:
        bm = BULLET.match(line)
        if not bm:
            self.text_line(number, line, "line under Retain is not a bullet; indexed as text")
            return
        try:
            bullet = bullet_fields(bm.group(1))
        except FactSyntaxError as exc:
            self.text_line(number, bm.group(1), f"{exc}; indexed as text")
            return
        if bullet.errors or bullet.notes:
            for note in (*bullet.errors, *bullet.notes):
                self.warn(number, note)
        self.facts.append(self.fact_from(bullet, number, bm.group(1)))

    def fact_from(self, bullet: BulletFields, number: int, text: str) -> Fact:
        if bullet.block_id:
            fact_id, explicit = bullet.block_id, True
        else:
            body = BLOCK_ID.sub("", text) if "^" in text else text
            fact_id = derived_id(self.path, body, self.occurrence(" ".join(body.split())))
            explicit = False
        valid = extract_interval(bullet.content, default_year=self.default_year)
        if bullet.until:
            start = valid.start if valid else self.day
            valid = Interval(start if start and start <= bullet.until else None, bullet.until)
        return made_fact(
            fact_id, bullet.kind, bullet.content, self.path, number, number, bullet.entities,
            bullet.params, bullet.confidence, bullet.importance, valid, self.day, explicit)

    def hidden_line(self, hidden: str, number: int, line: str) -> str | None:
        """A line inside a comment or a generated summary: what still closes it, if open."""
        if hidden in line:
            return None
        if hidden != "-->" and (ref := CITED.search(line)):
            self.citations.append(Citation(number, ref.group(1), int(ref.group(2)),
                                           ref.group(3)))
        return hidden

    def scan(self, start: int, *, in_retain: bool = False) -> None:
        fence: str | None = None
        hidden: str | None = None  # inside an HTML comment or a generated summary
        for index in range(start, len(self.lines)):
            number, line = index + 1, self.lines[index]
            if len(line) > LONG_LINE:
                self.warn(number, f"a line of {len(line):,} characters: indexed whole, and "
                                  "recall returns it whole; split it into shorter lines")
            if hidden is not None:
                hidden = self.hidden_line(hidden, number, line)
                continue
            if fence is not None:
                self.add_chunk_line(number, line)
                if closes_fence(line, fence):
                    fence = None
                continue
            # a comment, a fence and a heading each start with one of these after blanks
            lead = line[:1]
            if lead == " " or lead == "\t":
                lead = line.lstrip(" \t")[:1]
            if lead in STRUCTURE_LEADS:
                if cm := COMMENT_START.match(line):
                    hidden = self.hide(cm, number, line)
                    continue
                if fm := FENCE.match(line):
                    fence = fm.group(1)
                    self.add_chunk_line(number, line)
                    continue
                if hm := HEADING.match(line):
                    self.flush()
                    in_retain = is_retain_heading(hm)
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


def parse_document(path: str, data: bytes | str) -> ParsedDoc:
    """Everything memfold takes from one file: facts, text chunks, warnings, aliases."""
    problems: list[str] = []
    if isinstance(data, bytes):
        text, problems = decode(data)
    else:
        text = data.removeprefix("\ufeff")
    lines = split_lines(text)
    body_start, front, fm_problems = read_front_matter(lines)
    role = doc_role(path)
    day = daily_date(path) or (page_date(path, front) if role == "bank" else None)
    scanner = _Scanner(path, lines, day)
    for problem in problems:
        number, _, message = problem.partition(":")
        scanner.warn(int(number), message)
    for message in fm_problems:
        scanner.warn(1, message)
    scanner.scan(body_start)
    aliases = entity_names(path, front) if role == "entity" else ()
    return ParsedDoc(path=path, role=role, day=day, facts=tuple(scanner.facts),
                     warnings=tuple(scanner.warnings), aliases=aliases,
                     citations=tuple(scanner.citations))


def parse_tail(path: str, lines: list[str], start: int, *, in_retain: bool) -> ParsedDoc:
    """The facts and warnings of `lines[start:]` as `parse_document` reads them, for lines
    before `start` that leave the parser outside any fence and comment, in a Retain section
    or not (`in_retain`), with no text pending: what a retain appended to a day's log."""
    scanner = _Scanner(path, lines, daily_date(path))
    scanner.scan(start, in_retain=in_retain)
    return ParsedDoc(path=path, role=doc_role(path), day=daily_date(path),
                     facts=tuple(scanner.facts), warnings=tuple(scanner.warnings))


def open_tasks(text: str) -> Iterator[tuple[int, str]]:
    """The unchecked task items (`- [ ] ...`) of a file, outside code fences: (line, text),
    the text's whitespace normalised."""
    fences = Fences()
    for number, line in enumerate(split_lines(text), 1):
        if not fences.inside(line) and (m := TASK.match(line)):
            yield number, " ".join(m.group(1).split())
