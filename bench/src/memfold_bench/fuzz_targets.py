"""The fuzz targets of `memfold bench fuzz`: one function of bytes per parser, and its seeds.

Each target feeds arbitrary bytes to one of memfold's parsers and checks the parser's
contract, not only that it returned: a broken contract raises `Broken` (an AssertionError),
any other exception escapes as itself, and atheris counts either as a crash.

- markdown:  `parse_document` never raises; every fact, warning and citation points at a line
             of the document; a fact's bullet, re-rendered, parses back to the same fact; a
             bullet `plan_append` adds to any file is read back as that fact, at its end.
- query:     `plan_query` never raises; its terms, phrases and name keys stay within bounds;
             its text is safe for SQLite; SQLite's FTS5 accepts its MATCH expression.
- timeparse: `parse_spec` returns an interval with start <= end or raises TimeSpecError;
             `find_time_phrase` and `extract_interval` return None or such an interval.
- tool-args: arguments a model sends, as JSON text: `check_object` returns a cleaned dict that
             passes the check again unchanged, or raises BadInput with a one-line message.
- selftest:  a planted bug (b"fz!" breaks it), so the harness shows it can fail.

This module imports memfold at its top: the fuzz child first imports the parser under test
inside atheris's import hook, so that its code reports coverage and this module's does not.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from datetime import date

from memfold.agents.schema import check_object
from memfold.agents.tools import parse_json, tools
from memfold.errors import BadInput
from memfold.index.sqlite.fts import expression as fts_expression
from memfold.recall.query import MAX_QUERY_CHARS, MAX_TERMS, SURROGATES, plan_query
from memfold.times.parse import TimeSpecError, extract_interval, find_time_phrase, parse_spec
from memfold.values import TEXT, Interval
from memfold.workspace.format import (
    BULLET,
    Bullet,
    FactSyntaxError,
    decode,
    parse_bullet,
    parse_document,
    plan_append,
    render_bullet,
    split_lines,
)

from .fuzz_seeds import DAY, PATHS, TODAYS


class Broken(AssertionError):
    """A parser broke its contract on this input (the message says how)."""


def require(condition: bool, message: str) -> None:
    if not condition:
        raise Broken(message)


def _ordered(interval: Interval | None, what: str) -> None:
    if interval is not None and interval.start is not None and interval.end is not None:
        require(interval.start <= interval.end, f"{what}: start after end in {interval}")


# -- markdown ---------------------------------------------------------------------------------

PROBE_ID = "fzprobe01"
PROBE = f"- W @Fuzz: appended probe ^{PROBE_ID}"
APPEND_MODE, BULLET_MODE = len(PATHS), len(PATHS) + 1


def markdown(data: bytes) -> None:
    """The first byte picks a file path (or a mode); the rest is the file's bytes."""
    mode = data[0] % (len(PATHS) + 2) if data else 0
    body = data[1:]
    if mode == APPEND_MODE:
        _append_lands(body)
    elif mode == BULLET_MODE:
        text = body.decode("utf-8", "replace").split("\n", 1)[0]
        try:
            bullet = parse_bullet(text)
        except FactSyntaxError:
            return
        _round_trip(bullet)
    else:
        _document(PATHS[mode], body)


def _document(path: str, body: bytes) -> None:
    doc = parse_document(path, body)
    lines = split_lines(decode(body)[0])
    count = len(lines)
    for fact in doc.facts:
        require(1 <= fact.line <= fact.end_line <= count,
                f"fact {fact.id} at lines {fact.line}-{fact.end_line} of {count}")
        require(bool(fact.id), f"a fact with no id at line {fact.line}")
        _ordered(fact.valid, f"fact at line {fact.line}")
        if fact.kind != TEXT:
            _bullet_line(lines[fact.line - 1], fact.content, fact.kind)
    for warning in doc.warnings:
        require(1 <= warning.line <= max(count, 1),
                f"warning at line {warning.line} of {count}: {warning.message}")
    for citation in doc.citations:
        require(1 <= citation.line <= count, f"citation at line {citation.line} of {count}")


def _bullet_line(line: str, content: str, kind: str) -> None:
    """The line a fact cites holds a bullet that parses to that fact, and round-trips."""
    match = BULLET.match(line)
    require(match is not None, f"fact line is not a bullet: {line[:80]!r}")
    assert match is not None
    bullet = parse_bullet(match.group(1))
    require((bullet.kind, bullet.content) == (kind, content),
            f"fact line parses to another fact: {line[:80]!r}")
    _round_trip(bullet)


def _same(bullet: Bullet) -> tuple[object, ...]:
    return (bullet.kind, bullet.content, bullet.block_id, bullet.params, bullet.confidence,
            bullet.importance, bullet.until, frozenset(bullet.entities))


def _round_trip(bullet: Bullet) -> None:
    line = render_bullet(bullet)
    require("\n" not in line, f"a rendered bullet spans lines: {line[:80]!r}")
    match = BULLET.match(line)
    require(match is not None, f"a rendered bullet is not a bullet: {line[:80]!r}")
    assert match is not None
    try:
        again = parse_bullet(match.group(1))
    except FactSyntaxError as exc:
        raise Broken(f"a rendered bullet does not parse ({exc}): {line[:80]!r}") from None
    require(_same(again) == _same(bullet),
            f"a rendered bullet parses to another fact: {line[:80]!r}: "
            f"{_same(bullet)} != {_same(again)}")
    doc = parse_document(DAY, f"## Retain\n{line}\n")
    facts = [f for f in doc.facts if f.kind != TEXT]
    require(len(facts) == 1 and (facts[0].kind, facts[0].content) == (bullet.kind, bullet.content),
            f"a rendered bullet is not read back from a Retain section: {line[:80]!r}")


def _append_lands(before: bytes) -> None:
    """What retain does: decode the day file, plan the append, write before + addition."""
    existing = decode(before)[0] if before else None
    addition = plan_append(existing, DAY.removeprefix("memory/").removesuffix(".md"), [PROBE])
    require(addition.endswith(PROBE + "\n"), "plan_append does not end with the bullet")
    after = before + addition.encode()
    if not _probe_at_end(after):
        raise Broken("a bullet appended by plan_append is not read back as a fact at the "
                     "file's end")


def _probe_at_end(data: bytes) -> bool:
    doc = parse_document(DAY, data)
    last = len(split_lines(decode(data)[0]))
    found = [f for f in doc.facts if f.id == PROBE_ID and f.line == last]
    return len(found) == 1 and found[0].content == "appended probe"


# -- query ------------------------------------------------------------------------------------

_FTS: sqlite3.Connection | None = None


def _fts() -> sqlite3.Connection:
    """An FTS5 table tokenized as memfold's index is, to run each query's MATCH against."""
    global _FTS
    if _FTS is None:
        _FTS = sqlite3.connect(":memory:")
        _FTS.execute("CREATE VIRTUAL TABLE t USING fts5(body, names, "
                     "tokenize = 'porter unicode61 remove_diacritics 2')")
        _FTS.execute("INSERT INTO t VALUES ('Peter moved to Hà Nội', 'peter')")
    return _FTS


def _today(data: bytes) -> date:
    return TODAYS[data[0] % len(TODAYS)] if data else TODAYS[0]


def query(data: bytes) -> None:
    """The first byte picks `today`; the rest is the query (undecodable bytes as a command
    line passes them: lone surrogates)."""
    text = data[1:].decode("utf-8", "surrogateescape")
    plan = plan_query(text, today=_today(data))
    require(len(plan.text) <= MAX_QUERY_CHARS, f"plan text of {len(plan.text)} characters")
    require(len(plan.terms) <= MAX_TERMS and len(plan.phrases) <= MAX_TERMS
            and len(plan.name_keys) <= 3 * MAX_TERMS,
            f"{len(plan.terms)} terms, {len(plan.phrases)} phrases, {len(plan.name_keys)} keys")
    require(all(plan.terms) and all(plan.phrases), "an empty term or phrase")
    require("\x00" not in plan.text and not SURROGATES.search(plan.text),
            "plan text holds a NUL or a lone surrogate")
    _ordered(plan.window, "query window")
    for terms in (plan.search_terms(), plan.search_terms(skip=set(plan.name_keys))):
        if terms is None:
            continue
        expression = fts_expression(terms)
        try:
            _fts().execute("SELECT rowid FROM t WHERE t MATCH ?", (expression,)).fetchall()
        except sqlite3.Error as exc:
            raise Broken(f"FTS5 refuses {expression[:80]!r}: {exc}") from None


# -- timeparse --------------------------------------------------------------------------------


def timeparse(data: bytes) -> None:
    """The first byte picks the function and `today` (or the default year)."""
    text = data[1:].decode("utf-8", "replace")
    choice = data[0] % 3 if data else 0
    today = _today(data[1:2])
    if choice == 0:
        try:
            interval = parse_spec(text, today=today)
        except TimeSpecError:
            return
        _ordered(interval, f"parse_spec({text[:40]!r})")
    elif choice == 1:
        found = find_time_phrase(text, today=today)
        if found is not None:
            interval, (start, end) = found
            require(0 <= start <= end <= len(text), f"span {start}..{end} of {len(text)}")
            _ordered(interval, f"find_time_phrase({text[:40]!r})")
    else:
        year = int.from_bytes(data[1:3] or b"\x07\xe9", "big") % 10_000 or 1
        _ordered(extract_interval(text, default_year=year), f"extract_interval({text[:40]!r})")


# -- tool arguments ---------------------------------------------------------------------------

TOOLS = tools()


def tool_args(data: bytes) -> None:
    """The first byte picks a tool; the rest is the arguments' JSON text, as a model sends."""
    chosen = TOOLS[data[0] % len(TOOLS)] if data else TOOLS[0]
    try:
        value = parse_json(data[1:], "fuzz: the arguments")
    except BadInput:
        return
    try:
        cleaned = check_object(chosen.name, chosen.schema, value)
    except BadInput as exc:
        require("\n" not in str(exc), f"a message of several lines: {str(exc)[:80]!r}")
        return
    require(isinstance(cleaned, dict), f"check_object returned {type(cleaned).__name__}")
    properties = chosen.schema.get("properties", {})
    require(set(cleaned) <= set(properties), f"unknown arguments kept: {sorted(cleaned)}")
    require(all(key in cleaned for key in chosen.schema.get("required", ())),
            "a required argument is missing from the cleaned arguments")
    again = check_object(chosen.name, chosen.schema, cleaned)
    require(json.dumps(again, sort_keys=True) == json.dumps(cleaned, sort_keys=True),
            "the cleaned arguments change when checked again")


# -- the planted bug --------------------------------------------------------------------------


def selftest(data: bytes) -> None:
    """Breaks its contract on inputs starting b"fz!": one byte at a time, so each step is
    new coverage for the fuzzer to follow."""
    if data[:1] == b"f" and data[1:2] == b"z" and data[2:3] == b"!":
        raise Broken("the planted bug: input starts with b'fz!'")


TARGETS: dict[str, Callable[[bytes], None]] = {
    "markdown": markdown, "query": query, "timeparse": timeparse, "tool-args": tool_args,
    "selftest": selftest,
}
