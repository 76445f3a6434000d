"""Edits of Markdown files as text in, text out: what a retain appends to a day's log, and
the lines a purge removes or redacts.  The verbs do the file I/O (`workspace.files`)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from memfold.values import ParsedDoc
from memfold.workspace.format.document import daily_date, hidden_until, parse_tail
from memfold.workspace.format.frontmatter import front_matter_end
from memfold.workspace.format.lines import (
    COMMENT_START,
    HEADING,
    Fences,
    is_retain_heading,
    split_lines,
)


@dataclass(frozen=True)
class Append:
    """What goes at the end of a day's log so that some bullets land in a Retain section:
    the text, and what reading the file before it found (so nobody reads it twice)."""

    text: str
    lines: tuple[str, ...] = ()  # the file's lines before it
    tail: _Tail | None = None  # the parser's state after them (None: the file was empty)
    ends_last_line: bool = False  # the text begins with the newline the file lacked

    @property
    def first_line(self) -> int:
        """The line the text starts on."""
        return len(self.lines) + 1


def prepare_append(existing: str | None, title: str, bullet_lines: list[str]) -> Append:
    """The text to append to a file so that `bullet_lines` land in a Retain section.

    Only ever appends: when the file's last section is not `## Retain`, or it ends inside an
    unclosed code fence or HTML comment (which would hide the bullets), the fence or comment
    is closed and a new Retain section started at the end, instead of inserting into the
    middle of the file.  A file may hold several Retain sections.
    """
    body = "".join(f"{line}\n" for line in bullet_lines)
    lines = split_lines(existing) if existing else []
    if existing is None or not existing.strip():
        return Append(f"# {title}\n\n## Retain\n{body}", tuple(lines))
    end = front_matter_end(lines)  # the parser skips front matter; so must we
    tail = _tail_state(lines[end + 1 if end else 0:])
    ends_last_line = not existing.endswith("\n")
    prefix = "\n" if ends_last_line else ""
    if tail.fence is not None:
        prefix += f"{tail.fence}\n"
    if tail.hidden is not None:
        prefix += f"{tail.hidden}\n"
    if tail.fence is not None or tail.hidden is not None or not tail.in_retain:
        blank = "" if not lines or not lines[-1].strip() else "\n"
        prefix += f"{blank}## Retain\n"
    return Append(prefix + body, tuple(lines), tail, ends_last_line)


def plan_append(existing: str | None, title: str, bullet_lines: list[str]) -> str:
    """The text `prepare_append` appends."""
    return prepare_append(existing, title, bullet_lines).text


def parse_appended(path: str, append: Append) -> ParsedDoc | None:
    """The facts and warnings of what `append` adds to a day's log, numbered as in the whole
    file, parsed without reading the lines before it again; None when those lines leave a
    fence or comment open (the append closes it) or there were none, and the caller parses
    the whole file."""
    tail = append.tail
    if tail is None or tail.fence is not None or tail.hidden is not None \
            or daily_date(path) is None:
        return None
    new = split_lines(append.text)[1 if append.ends_last_line else 0:]
    return parse_tail(path, [*append.lines, *new], len(append.lines), in_retain=tail.in_retain)


@dataclass(frozen=True)
class _Tail:
    fence: str | None  # the code fence still open at the end of the file
    hidden: str | None  # what closes the comment (or summary) still open there
    in_retain: bool  # whether the last heading the parser sees is Retain


def _tail_state(lines: list[str]) -> _Tail:
    """The state the document parser is in after `lines` (the same rules: a comment opens
    only outside a fence, a fence only outside a comment, headings count outside both)."""
    fences = Fences()
    hidden: str | None = None
    in_retain = False
    for line in lines:
        if hidden is not None:
            hidden = None if hidden in line else hidden
            continue
        if fences.open is None and (cm := COMMENT_START.match(line)):
            hidden = hidden_until(cm, line)
            continue
        if not fences.inside(line) and (hm := HEADING.match(line)):
            in_retain = is_retain_heading(hm)
    return _Tail(fences.open, hidden, in_retain)


@dataclass(frozen=True)
class LineEdit:
    """A file's bytes after `remove_lines`, and what changed, by 1-based line."""

    after: bytes
    removed: tuple[int, ...]
    redacted: tuple[tuple[int, int], ...]  # (line, tokens replaced on it)


def remove_lines(data: bytes, drop: Collection[int], tokens: Sequence[str],
                 marker: str) -> LineEdit:
    """`data` without the lines numbered in `drop`, and every token on the lines kept
    replaced by `marker`.  Works on bytes, split on LF only, so every other byte (CRs, bad
    UTF-8) stays as it was."""
    kept: list[bytes] = []
    removed: list[int] = []
    redacted: list[tuple[int, int]] = []
    for n, line in enumerate(data.split(b"\n"), 1):
        if n in drop:
            removed.append(n)
            continue
        new, count = redact_bytes(line, tokens, marker)
        if count:
            redacted.append((n, count))
        kept.append(new)
    return LineEdit(b"\n".join(kept), tuple(removed), tuple(redacted))


def redact_bytes(data: bytes, tokens: Iterable[str], marker: str) -> tuple[bytes, int]:
    """`data` with every occurrence of each token replaced by `marker`; how many there were."""
    count = 0
    for token in tokens:
        raw = token.encode("utf-8", "surrogatepass")
        count += data.count(raw)
        data = data.replace(raw, marker.encode())
    return data, count
