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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import BadInput, MemfoldError, WorkspaceError
from .events import Core, Record
from .ledger import Ledger
from .workspace.files import replace_atomically
from .workspace.format import HEADING, Fences, decode
from .workspace.layout import Workspace

CORE_PATH = "memory.md"
DEFAULT_LIMIT = 2000
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


# -- parsing ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Span:
    """A block's place in the file's lines (0-based, end exclusive)."""

    name: str
    heading: int
    end: int


@dataclass
class _Doc:
    lines: list[str]  # with their line endings
    newline: str
    body_start: int
    limits: dict[str, int]
    spans: list[_Span]
    open_fence: bool
    warnings: list[str]

    def span(self, name: str) -> _Span | None:
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

    def text(self, span: _Span) -> tuple[str, int]:
        """A block's text (blank lines around it dropped) and the index of its first line."""
        body = [ln.rstrip("\r\n") for ln in self.lines[span.heading + 1 : span.end]]
        first = 0
        while first < len(body) and not body[first].strip():
            first += 1
        last = len(body)
        while last > first and not body[last - 1].strip():
            last -= 1
        return "\n".join(ln.rstrip() for ln in body[first:last]), span.heading + 1 + first


def _parse(data: bytes | None) -> _Doc:
    text = decode(data)[0] if data is not None else ""
    lines = text.splitlines(keepends=True)
    newline = "\r\n" if "\r\n" in text else "\n"
    body_start, limits, warnings = _front_matter([ln.rstrip("\r\n") for ln in lines])
    spans: list[_Span] = []
    fences = Fences()
    current: tuple[str, int] | None = None
    for index in range(body_start, len(lines)):
        line = lines[index].rstrip("\r\n")
        if fences.inside(line):
            continue
        hm = HEADING.match(line)
        if hm and len(hm.group(1)) <= 2:
            if current is not None:
                spans.append(_Span(current[0], current[1], index))
            title = (hm.group(2) or "").strip()
            current = (title, index) if len(hm.group(1)) == 2 and _is_block(title) else None
    if current is not None:
        spans.append(_Span(current[0], current[1], len(lines)))
    return _Doc(lines, newline, body_start, limits, spans, fences.open is not None, warnings)


def _is_block(title: str) -> bool:
    return bool(title) and title.casefold() != "retain"


def _front_matter(lines: list[str]) -> tuple[int, dict[str, int], list[str]]:
    """(index of the first body line, the `limits` map, problems) from YAML front matter."""
    if not lines or lines[0].strip() != "---":
        return 0, {}, []
    end = next((i for i in range(1, len(lines)) if lines[i].strip() in ("---", "...")), None)
    if end is None:
        return 0, {}, []
    import yaml  # only a memory.md with front matter needs it

    try:
        data = yaml.safe_load("\n".join(lines[1:end]))
    except yaml.YAMLError:
        return end + 1, {}, ["memory.md: front matter is not valid YAML; default limits used"]
    raw = data.get("limits") if isinstance(data, dict) else None
    if raw is None:
        return end + 1, {}, []
    if not isinstance(raw, Mapping):
        return end + 1, {}, ["memory.md: `limits` is not a map of block name to characters"]
    limits: dict[str, int] = {}
    problems: list[str] = []
    for name, value in raw.items():
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            limits[str(name)] = value
        else:
            problems.append(f"memory.md: limit of {name!r} is not a positive whole number; "
                            f"{DEFAULT_LIMIT} used")
    return end + 1, limits, problems


def _view(doc: _Doc) -> CoreMemory:
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
    return _view(_parse(_read(_core_file(workspace))))


# -- checks -------------------------------------------------------------------------------


def _check_name(name: str) -> str:
    name = name.strip() if isinstance(name, str) else ""
    if not BLOCK_NAME.fullmatch(name) or name.endswith((" ", ".")):
        raise BadInput(f"block name {name!r} is not a name: use letters, digits, spaces and "
                       "- _ . ' & ( ) /, up to 64 characters, e.g. Persona")
    if not _is_block(name):
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
    fences = Fences()
    for line in text.split("\n"):
        if not fences.inside(line) and (hm := HEADING.match(line)) and len(hm.group(1)) <= 2:
            raise BadInput(f"{what} has a level-1 or level-2 heading ({line.strip()!r}), which "
                           "would end the block; use ### or plain text")
    if fences.open is not None:
        raise BadInput(f"{what} opens a code fence ({fences.open}) and never closes it")
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


def _rewrite(doc: _Doc, span: _Span | None, name: str, text: str | None) -> bytes:
    """The file with one block's text replaced (or the block added, or removed)."""
    nl = doc.newline
    lines = list(doc.lines)
    if span is None:  # a new block at the end
        if lines and not lines[-1].endswith(("\n", "\r")):
            lines[-1] += nl
        if not lines:
            lines.append(f"# Core memory{nl}")
        if lines[-1].strip():
            lines.append(nl)
        lines += [f"## {name}{nl}", nl, *(f"{ln}{nl}" for ln in (text or "").split("\n"))]
        return "".join(lines).encode()
    if text is None:  # remove the block, heading and all
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
    at_end = span.end == len(lines)
    if lead == len(body):  # the block was empty: one blank line after the heading
        lead, trail = 1, 0
    if not at_end:
        trail = max(trail, 1)  # a blank line before the next heading
    new_body = [""] * lead + text.split("\n") + [""] * trail if text else [""] * trail
    lines[span.heading + 1 : span.end] = [f"{ln}{nl}" for ln in new_body]
    if lines and lines[span.heading].rstrip("\r\n") == lines[span.heading]:
        lines[span.heading] += nl  # the heading was the last line, without a newline
    return "".join(lines).encode()


@dataclass
class _Plan:
    """What an edit will do, decided under the lock from the file as it is."""

    name: str
    span: _Span | None
    before: str | None
    after: str | None  # None removes the block (an undo of the append that created it)
    limit: int
    undoes: int | None = None  # the seq of the edit an undo reverts


def _edit(workspace: Workspace, ledger: Ledger, op: str, plan: Callable[[_Doc], _Plan], *,
          ts: str) -> CoreEdit:
    """Decide `plan(doc)` under the lock, replace memory.md atomically, journal the edit.

    `plan` raises BadInput (or MemfoldError) to refuse; then nothing is written."""
    path = _core_file(workspace)
    done: list[_Plan] = []
    previous: list[bytes | None] = []  # memory.md as it was, should the journal append fail

    def decide() -> list[Record]:
        for _ in range(_ATTEMPTS):
            data = _read(path)
            doc = _parse(data)
            if doc.open_fence:
                raise BadInput("memory.md has a code fence that is never closed; close it by "
                               "hand first")
            chosen = plan(doc)
            new = _rewrite(doc, chosen.span, chosen.name, chosen.after)
            if _read(path) != data:
                continue  # saved by an editor while we worked: start again from its bytes
            try:
                replace_atomically(path, new)
            except OSError as exc:
                raise MemfoldError(f"could not write memory.md: {exc.strerror or exc}; "
                                   "nothing was changed") from exc
            done.append(chosen)
            previous.append(data)
            return [Core(id=f"core:{chosen.name}", block=chosen.name, op=op,
                         before=chosen.before, text=chosen.after, after=text_sha(chosen.after),
                         undoes=chosen.undoes)]
        raise MemfoldError("memory.md kept changing while memfold edited it (an editor "
                           "saving?); nothing was written, try again")

    def put_back() -> None:
        if previous and previous[-1] is not None:
            replace_atomically(path, previous[-1])
        elif previous:
            path.unlink(missing_ok=True)

    try:
        events = ledger.transact(decide, ts=ts, undo=put_back)
    except OSError as exc:
        raise MemfoldError(f"could not journal the edit ({exc}); memory.md was put back, "
                           "nothing was changed") from exc
    chosen = done[-1]
    return CoreEdit(chosen.name, op, chosen.after, chosen.before, chosen.limit,
                    events[0].seq if events else 0)


def append(workspace: Workspace, ledger: Ledger, block: str, text: str, *,
           ts: str) -> CoreEdit:
    """Add TEXT as new line(s) at the end of a block; a missing block is created."""
    name = _check_name(block)
    addition = _check_text(text, "the text").strip("\n")

    def plan(doc: _Doc) -> _Plan:
        span = doc.span(name)
        if span is None:
            _check_limit(name, None, addition, doc.limit(name))
            return _Plan(name, None, None, addition, doc.limit(name))
        before = doc.text(span)[0]
        after = f"{before}\n{addition}" if before else addition
        _check_limit(span.name, before, after, doc.limit(span.name))
        return _Plan(span.name, span, before, after, doc.limit(span.name))
    return _edit(workspace, ledger, "append", plan, ts=ts)


def replace(workspace: Workspace, ledger: Ledger, block: str, old: str, new: str, *,
            ts: str) -> CoreEdit:
    """Replace the one occurrence of OLD in a block with NEW (NEW may be empty)."""
    name = _check_name(block)
    if not isinstance(old, str) or not old:
        raise BadInput("OLD is empty; give the exact text to replace")
    new = _check_text(new, "NEW", allow_empty=True)
    if old == new:
        raise BadInput("OLD and NEW are the same; nothing to change")

    def plan(doc: _Doc) -> _Plan:
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
    return _edit(workspace, ledger, "replace", plan, ts=ts)


def insert(workspace: Workspace, ledger: Ledger, block: str, line: int, text: str, *,
           ts: str) -> CoreEdit:
    """Insert TEXT so that it becomes line LINE of the block (1 = first; one past the last
    line, or -1, = at the end)."""
    name = _check_name(block)
    addition = _check_text(text, "the text").strip("\n")
    if not isinstance(line, int) or isinstance(line, bool):
        raise BadInput(f"LINE must be a line number, not {line!r}")

    def plan(doc: _Doc) -> _Plan:
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
    return _edit(workspace, ledger, "insert", plan, ts=ts)


def undo(workspace: Workspace, ledger: Ledger, *, ts: str) -> CoreEdit:
    """Put back a block's text from before the last core edit not yet undone.

    Refuses (writing nothing) when the block changed since that edit — by hand, say —
    because putting the old text back would lose that change."""
    def plan(doc: _Doc) -> _Plan:
        seq, edit = _last_edit(ledger)
        span = doc.span(edit.block)
        current = doc.text(span)[0] if span else None
        if text_sha(current) != edit.after:
            raise MemfoldError(f"block {edit.block!r} changed since the edit to undo (#{seq}, "
                               f"{edit.op}); undoing it would lose that change, so "
                               "nothing was written. Use `memfold core replace` instead")
        return _Plan(span.name if span else edit.block, span, current, edit.before,
                     doc.limit(edit.block), seq)
    return _edit(workspace, ledger, "undo", plan, ts=ts)


def _last_edit(ledger: Ledger) -> tuple[int, Core]:
    """(seq, record) of the newest core event that is an edit and has not been undone."""
    stack: list[tuple[int, Core]] = []
    for event in ledger.journal.read().events:
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


def _existing(doc: _Doc, name: str) -> _Span:
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
