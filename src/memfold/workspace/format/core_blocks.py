"""memory.md's core blocks as Markdown: where each block lies in the file, its text, and
the file with one block's text replaced, added or removed (every other byte kept, CRLF line
endings included).  The rules, in docs/format.md ("Core memory blocks"):

A block is a level-2 heading and everything under it up to the next level-1 or level-2
heading (outside code fences); `### ...` headings belong to the block.  Its text is those
lines without the blank lines around them.  A `## Retain` section is not a block.
"""

from __future__ import annotations

from dataclasses import dataclass

from memfold.errors import BadInput
from memfold.workspace.format.frontmatter import DEFAULT_LIMIT, core_limits
from memfold.workspace.format.lines import HEADING, RETAIN_HEADING, Fences, decode


@dataclass(frozen=True)
class BlockSpan:
    """A block's place in the file's lines (0-based, end exclusive)."""

    name: str
    heading: int
    end: int


@dataclass
class CoreDoc:
    """memory.md as lines, with its blocks found."""

    lines: list[str]  # with their line endings
    newline: str
    body_start: int
    limits: dict[str, int]
    spans: list[BlockSpan]
    open_fence: bool
    warnings: list[str]

    def span(self, name: str) -> BlockSpan | None:
        key = name.strip().casefold()
        found = [s for s in self.spans if s.name.casefold() == key]
        if len(found) > 1:
            where = ", ".join(f"line {s.heading + 1}" for s in found)
            raise BadInput(f"memory.md has {len(found)} blocks named {name!r} ({where}); "
                           "rename one by hand first")
        return found[0] if found else None

    def limit(self, name: str) -> int:
        key = name.strip().casefold()
        return next((n for k, n in self.limits.items() if k.casefold() == key), DEFAULT_LIMIT)

    def text(self, span: BlockSpan) -> tuple[str, int]:
        """A block's text (blank lines around it dropped) and the index of its first line."""
        body = [ln.rstrip("\r\n") for ln in self.lines[span.heading + 1 : span.end]]
        first = 0
        while first < len(body) and not body[first].strip():
            first += 1
        last = len(body)
        while last > first and not body[last - 1].strip():
            last -= 1
        return "\n".join(ln.rstrip() for ln in body[first:last]), span.heading + 1 + first


def is_block_title(title: str) -> bool:
    """Whether a level-2 heading's title names a core block (not empty, not `Retain`)."""
    return bool(title) and title.casefold() != RETAIN_HEADING


def parse_core(data: bytes | None) -> CoreDoc:
    """memory.md's bytes (None: no file yet) as a CoreDoc."""
    text = decode(data)[0] if data is not None else ""
    lines = text.splitlines(keepends=True)
    newline = "\r\n" if "\r\n" in text else "\n"
    body_start, limits, warnings = core_limits([ln.rstrip("\r\n") for ln in lines])
    spans: list[BlockSpan] = []
    fences = Fences()
    current: tuple[str, int] | None = None
    for index in range(body_start, len(lines)):
        line = lines[index].rstrip("\r\n")
        if fences.inside(line):
            continue
        hm = HEADING.match(line)
        if hm and len(hm.group(1)) <= 2:
            if current is not None:
                spans.append(BlockSpan(current[0], current[1], index))
            title = (hm.group(2) or "").strip()
            current = (title, index) if len(hm.group(1)) == 2 and is_block_title(title) else None
    if current is not None:
        spans.append(BlockSpan(current[0], current[1], len(lines)))
    return CoreDoc(lines, newline, body_start, limits, spans, fences.open is not None, warnings)


def structure_problem(text: str) -> str | None:
    """What in `text` would break the block it is put in — a level-1 or level-2 heading, a
    code fence left open — said after the text's name; None when nothing would."""
    fences = Fences()
    for line in text.split("\n"):
        if not fences.inside(line) and (hm := HEADING.match(line)) and len(hm.group(1)) <= 2:
            return (f"has a level-1 or level-2 heading ({line.strip()!r}), which would end "
                    "the block; use ### or plain text")
    if fences.open is not None:
        return f"opens a code fence ({fences.open}) and never closes it"
    return None


def rewrite_block(doc: CoreDoc, span: BlockSpan | None, name: str, text: str | None) -> bytes:
    """The file with one block's text replaced (or the block added at the end when `span`
    is None, or removed, heading and all, when `text` is None)."""
    nl = doc.newline
    lines = list(doc.lines)
    if span is None:
        return _add_block(lines, nl, name, text)
    if text is None:
        start = span.heading
        if span.end == len(lines):  # the last block: the blank lines before it go too
            while start > doc.body_start and not lines[start - 1].strip():
                start -= 1
        del lines[start : span.end]
        return "".join(lines).encode()
    body = [ln.rstrip("\r\n") for ln in lines[span.heading + 1 : span.end]]
    lead = 0
    while lead < len(body) and not body[lead].strip():
        lead += 1
    trail = 0
    while trail < len(body) - lead and not body[len(body) - 1 - trail].strip():
        trail += 1
    if lead == len(body):  # the block was empty: one blank line after the heading
        lead, trail = 1, 0
    if span.end != len(lines):
        trail = max(trail, 1)  # a blank line before the next heading
    new_body = [""] * lead + text.split("\n") + [""] * trail if text else [""] * trail
    lines[span.heading + 1 : span.end] = [f"{ln}{nl}" for ln in new_body]
    if lines and lines[span.heading].rstrip("\r\n") == lines[span.heading]:
        lines[span.heading] += nl  # the heading was the last line, without a newline
    return "".join(lines).encode()


def _add_block(lines: list[str], nl: str, name: str, text: str | None) -> bytes:
    """The file's lines with a new block at the end (a title first in an empty file)."""
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += nl
    if not lines:
        lines.append(f"# Core memory{nl}")
    if lines[-1].strip():
        lines.append(nl)
    lines += [f"## {name}{nl}", nl, *(f"{ln}{nl}" for ln in (text or "").split("\n"))]
    return "".join(lines).encode()
