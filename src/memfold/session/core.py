"""Core memory: the named blocks of `memory.md` an agent sees in every session.

    ---
    limits: {Persona: 1000, Human: 1000, Project: 2000}
    ---
    # Core memory
    (a preamble: anything before the first block; never edited by memfold)

    ## Persona
    I answer in short sentences.

    ## Human
    ...

A block is a level-2 heading and everything under it up to the next level-1 or level-2
heading (outside code fences); `### ...` headings belong to the block.  Its text is those
lines without the blank lines around them; its limit, in characters, is the `limits` map in
the front matter, else DEFAULT_LIMIT.  A `## Retain` section is a Retain section, not a block.
Reading and rewriting the file's Markdown is `workspace.format.core_blocks`; this module owns
the edits, their checks, the lock and the journal.

Invariants of every edit (append, replace, insert, undo):
 - bad input, an OLD that does not occur exactly once, or a result past the block's limit
   raises BadInput and writes nothing;
 - the read-modify-write runs under the workspace write lock (`Ledger.transact`), so two
   memfold processes never lose each other's edits; an editor does not take that lock, so
   the file's bytes are read again just before the atomic replace and the edit is redone if
   they moved;
 - only the edited block's lines change; every other byte of the file is kept;
 - each edit is one `core` event in the journal (id `core:<Block>`) holding the block's
   previous text, so `undo` can put it back and `memfold history core:<Block>` shows it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memfold.errors import BadInput, MemfoldError, WorkspaceError
from memfold.journal.events import Core, Record
from memfold.journal.log import Event
from memfold.lifecycle.ledger import Ledger
from memfold.workspace.files import remove, replace_atomically
from memfold.workspace.format import DEFAULT_LIMIT as DEFAULT_LIMIT  # core.DEFAULT_LIMIT, as before
from memfold.workspace.format import (
    BlockSpan,
    CoreDoc,
    is_block_title,
    parse_core,
    rewrite_block,
    structure_problem,
)
from memfold.workspace.layout import Workspace

CORE_PATH = "memory.md"
BLOCK_NAME = re.compile(r"[^\W_][\w .'&()/-]{0,63}")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
_ATTEMPTS = 5  # how often an edit is redone when an editor saves the file under us


@dataclass(frozen=True)
class Block:
    """One core block as it stands in memory.md."""

    name: str
    text: str
    limit: int
    line: int  # 1-based line of the `## Name` heading
    first_line: int  # 1-based line of the text's first line (line + 1 when empty)

    @property
    def chars(self) -> int:
        return len(self.text)

    @property
    def source(self) -> str:
        return f"{CORE_PATH}#L{self.line}"

    def lines(self) -> list[tuple[int, str]]:
        """(line number, text) of each line of the block's text."""
        return [(self.first_line + n, ln) for n, ln in enumerate(self.text.split("\n"))
                if self.text]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "limit": self.limit, "chars": self.chars,
                "free": max(0, self.limit - self.chars), "text": self.text,
                "source": self.source}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Block:
        """A block from `to_dict`, which names the heading's line only: the text is taken
        to start on the line after it."""
        line = int(str(d["source"]).rpartition("#L")[2])
        return cls(name=d["name"], text=d["text"], limit=d["limit"], line=line,
                   first_line=line + 1)


@dataclass(frozen=True)
class CoreMemory:
    """All blocks of memory.md, in file order."""

    blocks: tuple[Block, ...]
    warnings: tuple[str, ...] = ()
    path: str = CORE_PATH

    def block(self, name: str) -> Block | None:
        key = name.strip().casefold()
        return next((b for b in self.blocks if b.name.casefold() == key), None)

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "blocks": [b.to_dict() for b in self.blocks],
                "warnings": list(self.warnings)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CoreMemory:
        return cls(blocks=tuple(Block.from_dict(b) for b in d["blocks"]),
                   warnings=tuple(d["warnings"]), path=d["path"])

    def render(self) -> str:
        parts = []
        for b in self.blocks:
            parts.append(f"## {b.name}  ({b.chars}/{b.limit} chars)  {b.source}")
            parts.append(b.text if b.text else "(empty)")
            parts.append("")
        return "\n".join(parts).rstrip("\n")


@dataclass(frozen=True)
class CoreEdit:
    """What one edit did: the block's text before and after, and its journal event."""

    block: str
    op: str
    text: str | None  # None when an undo removed a block that an append had created
    previous: str | None  # None when the edit created the block
    limit: int
    seq: int

    def to_dict(self) -> dict[str, Any]:
        chars = len(self.text) if self.text is not None else 0
        return {"block": self.block, "op": self.op, "text": self.text,
                "previous": self.previous, "chars": chars, "limit": self.limit,
                "free": max(0, self.limit - chars), "seq": self.seq,
                "history_id": f"core:{self.block}"}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CoreEdit:
        return cls(block=d["block"], op=d["op"], text=d["text"], previous=d["previous"],
                   limit=d["limit"], seq=d["seq"])


# -- reading ------------------------------------------------------------------------------


def _view(doc: CoreDoc) -> CoreMemory:
    blocks = []
    for span in doc.spans:
        text, first = doc.text(span)
        blocks.append(Block(span.name, text, doc.limit(span.name), span.heading + 1,
                            first + 1 if text else span.heading + 2))
    return CoreMemory(tuple(blocks), tuple(doc.warnings))


def _core_file(workspace: Workspace) -> Path:
    path = workspace.abspath(CORE_PATH)
    if path.is_symlink():
        raise WorkspaceError("memory.md is a symlink; memfold does not read or write "
                             "through symlinks inside the workspace")
    return path


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise MemfoldError(f"cannot read memory.md: {exc.strerror or exc}") from exc


def read_core(workspace: Workspace) -> CoreMemory:
    """The blocks of memory.md as they are on disk (no lock: a reader sees a whole file)."""
    return core_of(_read(_core_file(workspace)))


def core_of(data: bytes | None) -> CoreMemory:
    """The blocks of a memory.md given as its bytes (None: there is none), as `read_core`
    reads them from disk (the server reads the file from PostgreSQL)."""
    return _view(parse_core(data))


# -- checks -------------------------------------------------------------------------------


def _check_name(name: str) -> str:
    name = name.strip() if isinstance(name, str) else ""
    if not BLOCK_NAME.fullmatch(name) or name.endswith((" ", ".")):
        raise BadInput(f"block name {name!r} is not a name: use letters, digits, spaces and "
                       "- _ . ' & ( ) /, up to 64 characters, e.g. Persona")
    if not is_block_title(name):
        raise BadInput("`Retain` is a Retain section, not a core block; choose another name")
    return name


def _check_text(text: str, what: str, *, allow_empty: bool = False) -> str:
    """Text to put in a block: printable, no heading that would end the block, no open
    code fence.  CRLF becomes LF; trailing spaces on each line are dropped."""
    if not isinstance(text, str):
        raise BadInput(f"{what} must be text")
    text = "\n".join(ln.rstrip() for ln in text.replace("\r\n", "\n").split("\n"))
    if "\r" in text or _CONTROL.search(text):
        raise BadInput(f"{what} contains a control character; only printable text is kept")
    if not allow_empty and not text.strip():
        raise BadInput(f"{what} is empty")
    problem = structure_problem(text)
    if problem:
        raise BadInput(f"{what} {problem}")
    return text


def _check_limit(name: str, before: str | None, after: str, limit: int) -> None:
    """Refuse a result past the limit — unless the edit shrinks a block already over it."""
    if len(after) > limit and len(after) >= len(before or ""):
        raise BadInput(f"block {name!r} would be {len(after)} characters; its limit is {limit} "
                       f"({len(before or '')} used). Shorten it with `core replace` first, or "
                       "raise its limit in memory.md's front matter")


def text_sha(text: str | None) -> str | None:
    if text is None:
        return None
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


# -- writing ------------------------------------------------------------------------------


@dataclass
class _Plan:
    """What an edit will do, decided under the lock from the file as it is."""

    name: str
    span: BlockSpan | None
    before: str | None
    after: str | None  # None removes the block (an undo of the append that created it)
    limit: int
    undoes: int | None = None  # the seq of the edit an undo reverts


Planner = Callable[[CoreDoc], "_Plan"]  # decides an edit from memory.md as it is


def _edit(workspace: Workspace, ledger: Ledger, op: str, plan: Planner, *,
          ts: str) -> CoreEdit:
    """Decide `plan(doc)` under the lock, replace memory.md atomically, journal the edit.

    `plan` raises BadInput (or MemfoldError) to refuse; then nothing is written."""
    path = _core_file(workspace)
    done: list[_Plan] = []
    previous: list[bytes | None] = []  # memory.md as it was, should the journal append fail

    def decide() -> list[Record]:
        for _ in range(_ATTEMPTS):
            data = _read(path)
            new, chosen, record = edited(data, op, plan)
            if _read(path) != data:
                continue  # saved by an editor while we worked: start again from its bytes
            try:
                replace_atomically(path, new)
            except OSError as exc:
                raise MemfoldError(f"could not write memory.md: {exc.strerror or exc}; "
                                   "nothing was changed") from exc
            done.append(chosen)
            previous.append(data)
            return [record]
        raise MemfoldError("memory.md kept changing while memfold edited it (an editor "
                           "saving?); nothing was written, try again")

    def put_back() -> None:
        if previous and previous[-1] is not None:
            replace_atomically(path, previous[-1])
        elif previous:
            remove(path, missing_ok=True)

    try:
        events = ledger.transact(decide, ts=ts, undo=put_back)
    except OSError as exc:
        raise MemfoldError(f"could not journal the edit ({exc}); memory.md was put back, "
                           "nothing was changed") from exc
    return outcome(op, done[-1], events[0].seq if events else 0)


def edited(data: bytes | None, op: str, plan: Planner) -> tuple[bytes, _Plan, Core]:
    """The edit decided on memory.md's bytes `data` (None: there is none): the file's new
    bytes, the plan and the journal record, or BadInput/MemfoldError, writing nothing.
    `_edit` applies it to the disk; the server to the bank's rows."""
    doc = parse_core(data)
    if doc.open_fence:
        raise BadInput("memory.md has a code fence that is never closed; close it by "
                       "hand first")
    chosen = plan(doc)
    new = rewrite_block(doc, chosen.span, chosen.name, chosen.after)
    return new, chosen, Core(id=f"core:{chosen.name}", block=chosen.name, op=op,
                             before=chosen.before, text=chosen.after,
                             after=text_sha(chosen.after), undoes=chosen.undoes)


def outcome(op: str, chosen: _Plan, seq: int) -> CoreEdit:
    """What an edit that was journaled as event `seq` did."""
    return CoreEdit(chosen.name, op, chosen.after, chosen.before, chosen.limit, seq)


def append(workspace: Workspace, ledger: Ledger, block: str, text: str, *,
           ts: str) -> CoreEdit:
    """Add TEXT as new line(s) at the end of a block; a missing block is created."""
    return _edit(workspace, ledger, "append", appending(block, text), ts=ts)


def appending(block: str, text: str) -> Planner:
    """`append`'s decision (its arguments checked now: BadInput)."""
    name = _check_name(block)
    addition = _check_text(text, "the text").strip("\n")

    def plan(doc: CoreDoc) -> _Plan:
        span = doc.span(name)
        if span is None:
            _check_limit(name, None, addition, doc.limit(name))
            return _Plan(name, None, None, addition, doc.limit(name))
        before = doc.text(span)[0]
        after = f"{before}\n{addition}" if before else addition
        _check_limit(span.name, before, after, doc.limit(span.name))
        return _Plan(span.name, span, before, after, doc.limit(span.name))
    return plan


def replace(workspace: Workspace, ledger: Ledger, block: str, old: str, new: str, *,
            ts: str) -> CoreEdit:
    """Replace the one occurrence of OLD in a block with NEW (NEW may be empty)."""
    return _edit(workspace, ledger, "replace", replacing(block, old, new), ts=ts)


def replacing(block: str, old: str, new: str) -> Planner:
    """`replace`'s decision (its arguments checked now: BadInput)."""
    name = _check_name(block)
    if not isinstance(old, str) or not old:
        raise BadInput("OLD is empty; give the exact text to replace")
    new = _check_text(new, "NEW", allow_empty=True)
    if old == new:
        raise BadInput("OLD and NEW are the same; nothing to change")

    def plan(doc: CoreDoc) -> _Plan:
        span = _existing(doc, name)
        before = doc.text(span)[0]
        count = _occurrences(before, old)
        if count != 1:
            where = "does not occur" if count == 0 else f"occurs {count} times"
            raise BadInput(f"OLD {where} in block {span.name!r}; it must occur exactly once "
                           "(run `memfold core` to see the block's current text)")
        after = _tidy(before.replace(old, new, 1))
        _check_text(after, f"block {span.name!r} after the replace", allow_empty=True)
        _check_limit(span.name, before, after, doc.limit(span.name))
        return _Plan(span.name, span, before, after, doc.limit(span.name))
    return plan


def insert(workspace: Workspace, ledger: Ledger, block: str, line: int, text: str, *,
           ts: str) -> CoreEdit:
    """Insert TEXT so that it becomes line LINE of the block (1 = first; one past the last
    line, or -1, = at the end)."""
    return _edit(workspace, ledger, "insert", inserting(block, line, text), ts=ts)


def inserting(block: str, line: int, text: str) -> Planner:
    """`insert`'s decision (its arguments checked now: BadInput)."""
    name = _check_name(block)
    addition = _check_text(text, "the text").strip("\n")
    if not isinstance(line, int) or isinstance(line, bool):
        raise BadInput(f"LINE must be a line number, not {line!r}")

    def plan(doc: CoreDoc) -> _Plan:
        span = _existing(doc, name)
        before = doc.text(span)[0]
        rows = before.split("\n") if before else []
        at = len(rows) + 1 if line == -1 else line
        if not 1 <= at <= len(rows) + 1:
            raise BadInput(f"LINE {line} is outside block {span.name!r}, which has "
                           f"{len(rows)} lines: use 1 to {len(rows) + 1} (or -1 for the end)")
        after = "\n".join([*rows[: at - 1], addition, *rows[at - 1 :]])
        _check_limit(span.name, before, after, doc.limit(span.name))
        return _Plan(span.name, span, before, after, doc.limit(span.name))
    return plan


def undo(workspace: Workspace, ledger: Ledger, *, ts: str) -> CoreEdit:
    """Put back a block's text from before the last core edit not yet undone.

    Refuses (writing nothing) when the block changed since that edit — by hand, say —
    because putting the old text back would lose that change."""
    return _edit(workspace, ledger, "undo", undoing(lambda: ledger.journal.read().events),
                 ts=ts)


def undoing(journal: Callable[[], Iterable[Event]]) -> Planner:
    """`undo`'s decision over the journal's events as they are when it decides (its core
    events suffice)."""
    def plan(doc: CoreDoc) -> _Plan:
        seq, edit = last_edit(journal())
        span = doc.span(edit.block)
        current = doc.text(span)[0] if span else None
        if text_sha(current) != edit.after:
            raise MemfoldError(f"block {edit.block!r} changed since the edit to undo (#{seq}, "
                               f"{edit.op}); undoing it would lose that change, so "
                               "nothing was written. Use `memfold core replace` instead")
        return _Plan(span.name if span else edit.block, span, current, edit.before,
                     doc.limit(edit.block), seq)
    return plan


def last_edit(events: Iterable[Event]) -> tuple[int, Core]:
    """(seq, record) of the newest core event that is an edit and has not been undone."""
    stack: list[tuple[int, Core]] = []
    for event in events:
        record = event.record
        if not isinstance(record, Core):
            continue
        if record.op == "undo":
            stack = [(seq, edit) for seq, edit in stack if seq != record.undoes]
        else:
            stack.append((event.seq, record))
    if not stack:
        raise BadInput("nothing to undo: the journal holds no core edit that is not undone")
    return stack[-1]


def _existing(doc: CoreDoc, name: str) -> BlockSpan:
    span = doc.span(name)
    if span is None:
        known = ", ".join(s.name for s in doc.spans) or "none"
        raise BadInput(f"memory.md has no block {name!r} (blocks: {known}); "
                       "`memfold core append` creates one")
    return span


def _occurrences(text: str, old: str) -> int:
    """How often `old` occurs in `text` (two overlapping matches count as two)."""
    first = text.find(old)
    if first < 0:
        return 0
    return 1 if text.find(old, first + 1) < 0 else max(2, text.count(old))


def _tidy(text: str) -> str:
    """Blank lines at either end of a block are not part of its text."""
    lines = text.split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines)
