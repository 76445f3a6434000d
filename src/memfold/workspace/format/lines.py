"""The line-level pieces every Markdown reader here shares: decoding bytes, numbering lines,
and recognising ATX headings, fenced code blocks, list bullets and HTML comment openings.

A line scanner rather than a full CommonMark parser: memfold needs exact line numbers, must
read ten thousand files in about a second, and only has to recognise these few constructs.
"""

from __future__ import annotations

import re

HEADING = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
# Any indentation: a fence inside a (nested) list item is indented past three spaces, and
# the fake bullets it holds must still not be read as facts.
FENCE = re.compile(r"[ \t]*(`{3,}|~{3,})")
BULLET = re.compile(r"[ \t]*[-*+][ \t]+(.*)$")
COMMENT_START = re.compile(r"[ \t]*<!--")
RETAIN_HEADING = "retain"


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
        text = text.replace("\x00", "")
        # NULs alone after the last newline (unsynced blocks read as zeros) leave no line
        # there: name the last line that is left
        line = max(1, min(line, len(split_lines(text))))
        problems.append(f"{line}:NUL bytes removed")
    return text, problems


def is_retain_heading(hm: re.Match[str]) -> bool:
    """Whether a HEADING match opens a Retain section: level 2, titled `Retain` (any case)."""
    title = (hm.group(2) or "").strip()
    return len(hm.group(1)) == 2 and title.casefold() == RETAIN_HEADING


def closes_fence(line: str, fence: str) -> bool:
    """Whether `line` closes the code block opened by `fence` (the same character, at least
    as many of it, nothing else on the line)."""
    stripped = line.strip()
    return stripped.startswith(fence) and not stripped.strip(fence[0])


class Fences:
    """Follows fenced code blocks line by line, so headings and bullets inside them are not
    taken for structure.  (The document scanner keeps its own inline copy for speed.)"""

    def __init__(self) -> None:
        self.open: str | None = None  # the fence that opened the current block, if any

    def inside(self, line: str) -> bool:
        """Whether `line` is a fence line or lies within a fenced block."""
        if self.open is not None:
            if closes_fence(line, self.open):
                self.open = None
            return True
        if fm := FENCE.match(line):
            self.open = fm.group(1)
            return True
        return False
