"""A captured turn, as the index reads it.

`memfold capture` writes each message of a conversation as a paragraph: a header line naming
the speaker, the time and the turn's key, then the text verbatim as a block quote
(`capture.write`):

    **Caroline** · 13:56 · turn 26b8a15b25
    > I went to a LGBTQ support group yesterday and it was so powerful.

Such a paragraph is one statement by a named speaker, and it is indexed as one: a text row
whose content is `Caroline: I went to ...` (the quote marks dropped), linked to the speaker as
an entity and cited at the header's line, never cut into sentences.  Read as ordinary prose
it was a header row with no words of what was said and quote rows with no speaker, so a
question naming the speaker met only the extracted bullets (LoCoMo dev, evidence R@10 on a
captured workspace: 44.8 before, see docs/capture.md).

A bullet extracted from a turn ends by citing it, `(turn at line 5)` (`turn_citation`,
`cited_turn`): recall weighs it as an observation memfold made, below the turn itself, and
shows one row per turn.
"""

from __future__ import annotations

import re

from memfold.values import TEXT, Fact
from memfold.workspace.format.bullets import entity_slug
from memfold.workspace.format.lines import HEADING

# the header line of a captured turn: `**speaker** · HH:MM · turn 0123456789`
TURN_HEADER = re.compile(r"\*\*([^*\n]+)\*\* · [0-9:-]{5} · turn ([0-9a-f]{10})[ \t]*$",
                         re.MULTILINE)
_CITES_TURN = re.compile(r"\(turn at line ([1-9][0-9]*)\)$")


def is_turn(fact: Fact) -> bool:
    """Whether the index read `fact` as a captured turn (a text row with its speaker)."""
    return fact.kind == TEXT and "speaker" in fact.params


def speaker_entity(name: str) -> str:
    """A speaker's name as an entity: runs of spaces (and other breaks) become '-'."""
    return entity_slug(name) or "someone"


def turn_statement(text: str) -> tuple[str, str, int] | None:
    """(speaker, `speaker: what was said`, lines before the header) when the paragraph
    `text` is a captured turn — its header line (under a heading, for a conversation's first
    turn), then only quoted lines — else None."""
    skipped = 0
    head, _, rest = text.partition("\n")
    if HEADING.fullmatch(head):
        text, skipped = rest, 1
    header = TURN_HEADER.match(text)
    if not header:
        return None
    lines = text[header.end():].strip("\n").split("\n")
    if not all(line.startswith(">") for line in lines):
        return None
    said = "\n".join(line[1:].strip() for line in lines).strip()
    return header.group(1), f"{header.group(1)}: {said}", skipped


def turn_citation(line: int) -> str:
    """What a bullet extracted from the turn whose header is on `line` ends with."""
    return f"(turn at line {line})"


def cited_turn(content: str) -> int | None:
    """The header line of the turn a bullet was extracted from (its content ends with
    `turn_citation`), else None."""
    found = _CITES_TURN.search(content) if content.endswith(")") else None
    return int(found.group(1)) if found else None
