"""What an edit of a whole file changes, as memfold reads it: the lines of its Retain
sections (with the block id each ends with) and reflect's generated regions — so a writer that
takes a file's new text whole (the Anthropic memory tool, `memfold.pages`) can route new
Retain bullets through retain and refuse edits inside the regions reflect owns.

Lines are numbered as `split_lines` numbers them; code fences and HTML comments hide what
they hold, as in `parse_document`.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import NamedTuple

from memfold.workspace.format.bullets import BLOCK_ID
from memfold.workspace.format.document import hidden_until
from memfold.workspace.format.edit import remove_lines
from memfold.workspace.format.lines import (
    BULLET,
    COMMENT_START,
    HEADING,
    Fences,
    is_retain_heading,
    split_lines,
)
from memfold.workspace.format.regions import END_MARK, GENERATED


class RetainLine(NamedTuple):
    """A non-blank line inside a Retain section: its number, its text (a bullet's without
    the marker), whether it is a bullet, and the block id it ends with (None without one)."""

    number: int
    text: str
    bullet: bool
    block_id: str | None


def retain_lines(text: str) -> list[RetainLine]:
    """Every non-blank line inside the Retain sections of `text`, outside fences and
    comments, in order."""
    found: list[RetainLine] = []
    fences, in_retain, hidden = Fences(), False, None
    for number, line in enumerate(split_lines(text), 1):
        if hidden is not None:
            hidden = None if hidden in line else hidden
            continue
        if fences.inside(line):
            continue
        if cm := COMMENT_START.match(line):
            hidden = hidden_until(cm, line)
            continue
        if hm := HEADING.match(line):
            in_retain = is_retain_heading(hm)
            continue
        if in_retain and line.strip():
            bm = BULLET.match(line)
            body = bm.group(1) if bm else line.strip()
            im = BLOCK_ID.search(body)
            found.append(RetainLine(number, body.strip(), bm is not None,
                                    im.group(1) if im else None))
    return found


def generated_regions(text: str) -> list[str]:
    """The generated regions of `text` (marker lines included), each as one string."""
    lines = split_lines(text)
    regions: list[str] = []
    index = 0
    while index < len(lines):
        if GENERATED.match(lines[index]):
            end = index + 1
            while end < len(lines) and not END_MARK.match(lines[end]):
                end += 1
            regions.append("\n".join(lines[index:end + 1]))
            index = end
        index += 1
    return regions


def without_lines(text: str, numbers: Collection[int]) -> str:
    """`text` without the lines of these numbers; every other byte kept (`edit.remove_lines`
    on its text)."""
    if not numbers:
        return text
    data = text.encode("utf-8", "surrogatepass")
    return remove_lines(data, numbers, (), "").after.decode("utf-8", "surrogatepass")
