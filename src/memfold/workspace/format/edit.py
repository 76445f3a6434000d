"""Edits of Markdown files as text in, text out: what a retain appends to a day's log, and
the lines a purge removes or redacts.  The verbs do the file I/O (`workspace.files`)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from ...model import ParsedDoc
from .document import daily_date, hidden_until, parse_tail
from .frontmatter import front_matter_end
from .lines import COMMENT_START, HEADING, Fences, is_retain_heading, split_lines


def plan_append(existing: str | None, title: str, bullet_lines: list[str]) -> str:
    """The text to append to a file so that `bullet_lines` land in a Retain section.

    Only ever appends: when the file's last section is not `## Retain`, or it ends inside an
    unclosed code fence or HTML comment (which would hide the bullets), the fence or comment
    is closed and a new Retain section started at the end, instead of inserting into the
    middle of the file.  A file may hold several Retain sections.
    """
    body = "".join(f"{line}\n" for line in bullet_lines)
    if existing is None or not existing.strip():
        return f"# {title}\n\n## Retain\n{body}"
    lines = split_lines(existing)
    end = front_matter_end(lines)  # the parser skips front matter; so must we
    tail = _tail_state(lines[end + 1 if end else 0:])
    prefix = "" if existing.endswith("\n") else "\n"
    if tail.fence is not None:
        prefix += f"{tail.fence}\n"
    if tail.hidden is not None:
        prefix += f"{tail.hidden}\n"
    if tail.fence is not None or tail.hidden is not None or not tail.in_retain:
        blank = "" if not lines or not lines[-1].strip() else "\n"
        prefix += f"{blank}## Retain\n"
    return prefix + body


def parse_appended(path: str, before: str, addition: str) -> ParsedDoc | None:
    """What `plan_append`'s `addition` adds to a day's log that read `before`: its facts and
    warnings, numbered as in the whole file, parsed without reading `before` again — or None
    when the lines before could change how the new ones read (front matter, an open fence or
    comment, no final newline), and the caller parses the whole file."""
    if daily_date(path) is None or not before.endswith("\n") or before.startswith("---"):
        return None
    lines = split_lines(before)
    tail = _tail_state(lines)
    if tail.fence is not None or tail.hidden is not None:
        return None
    return parse_tail(path, lines + split_lines(addition), len(lines), in_retain=tail.in_retain)


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
