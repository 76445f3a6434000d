"""Link warnings: where a hand edit left the files' ids and the journal's pointers apart.

A bullet without a `^blockid` takes its id from its text, so editing it gives it a new id,
and a bullet pasted with its `^blockid` gives one id to two facts.  Nothing fails then —
the journal's notes and supersedes just stop meaning what they meant.  `memfold status` and
`memfold index` name each such place, with what to do:

- a duplicate block id, at every copy (memfold acts on the holder: `sqlite.holders`);
- a superseded or merged fact whose newer fact no file holds any more, at the older fact;
- a note, supersede or merge journaled about an id no file holds any more, at its line in
  `journal.jsonl` (a fact removed with `forget --purge` is gone on purpose and not named).

The problems come from a few queries over the index (`IndexBackend.link_problems`), never
from the journal itself; only the journal line of an orphaned event is looked up in the file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from pathlib import Path

from memfold.index.base import (
    DanglingPointer,
    DuplicateId,
    IndexBackend,
    LinkProblems,
    OrphanState,
)
from memfold.journal.events import Merge, Note, Supersede, from_dict
from memfold.journal.log import JOURNAL_NAME
from memfold.values import ParseWarning
from memfold.workspace.layout import Workspace

EVENT_LINE = re.compile(rb'\{"seq": (\d+),')  # how Journal.append starts every line
QUOTE_MAX = 60  # characters of a note quoted in a warning
EDITED = "edited or moved? a bullet without ^blockid gets a new id when its text or file changes"


def link_warnings(workspace: Workspace, index: IndexBackend) -> list[ParseWarning]:
    """Every link warning, duplicates and dangling pointers by place, then journal orphans."""
    return warnings_of(index.link_problems(),
                       lambda seqs: journal_lines(workspace.root / JOURNAL_NAME, seqs))


def warnings_of(problems: LinkProblems,
                lines_of: Callable[[Collection[int]], dict[int, int]]) -> list[ParseWarning]:
    """The warnings of these problems; `lines_of` gives the journal line of each seq (the
    server reads the journal from PostgreSQL)."""
    found = [w for dup in problems.duplicates for w in _duplicate(dup)]
    found += [_dangling(d) for d in problems.dangling]
    if problems.orphans:
        lines = lines_of({o.seq for o in problems.orphans})
        found += [_orphan(o, lines.get(o.seq, o.seq)) for o in problems.orphans]
    return found


def journal_lines(path: Path, seqs: Collection[int]) -> dict[int, int]:
    """The line number of each of these events in the journal: a torn line left by a crash
    shifts the lines after it, so seq alone is not the line; and the append after a crash
    reuses the torn line's seq, so the last complete line with a seq is the event."""
    try:
        data = path.read_bytes()
    except OSError:
        return {}
    found: dict[int, int] = {}
    for number, raw in enumerate(data.split(b"\n"), 1):
        match = EVENT_LINE.match(raw)
        if match and int(match.group(1)) in seqs and raw.rstrip().endswith(b"}"):
            found[int(match.group(1))] = number
    return found


def _duplicate(dup: DuplicateId) -> list[ParseWarning]:
    (first_path, first_line), others = dup.places[0], dup.places[1:]
    also = ", ".join(f"{path}:{line}" for path, line in others)
    found = [ParseWarning(first_path, first_line,
                          f"block id ^{dup.id} is also on {also}; memfold uses this bullet, so "
                          "give the other a new block id or remove it")]
    found += [ParseWarning(path, line,
                           f"block id ^{dup.id} is already on {first_path}:{first_line}, the "
                           "bullet memfold uses; give this one a new block id or remove it")
              for path, line in others]
    return found


def _dangling(d: DanglingPointer) -> ParseWarning:
    how = "merged into" if d.status == "merged" else "superseded by"
    return ParseWarning(d.path, d.line,
                        f"{d.id} is {how} {d.target}, which no file holds now ({EDITED}): "
                        f"end the newer bullet with ^{d.target} to re-link, or run `memfold "
                        f"supersede {d.id} NEWID` or `memfold restore {d.id}`")


def _orphan(o: OrphanState, line: int) -> ParseWarning:
    gone = f"no file holds {o.id} now ({EDITED})"
    record = from_dict({"event": o.event, "id": o.id, **o.data})
    if isinstance(record, Note):
        text = " ".join(record.note.split())
        quoted = text if len(text) <= QUOTE_MAX else text[: QUOTE_MAX - 1] + "…"
        message = (f"note #{o.seq} on {o.id} (\"{quoted}\") is attached to no fact: {gone}; "
                   f"end the edited bullet with ^{o.id} to re-attach it, or note the edited "
                   "fact again with the same text (`memfold note NEWID --rev 0 TEXT`)")
    else:
        target = record.into if isinstance(record, Merge) \
            else record.by if isinstance(record, Supersede) else ""
        how = "merged into" if isinstance(record, Merge) else "superseded by"
        message = (f"{o.event} #{o.seq} ({o.id} {how} {target}) applies to no fact: {gone}, "
                   f"so the edited bullet counts as current again; end it with ^{o.id} to "
                   f"keep the {o.event}, or run `memfold supersede NEWID {target}`")
    return ParseWarning(JOURNAL_NAME, line, message)
