"""memfold as the lab's third column: the same records written as a memfold workspace.

Only memfold's public API is used (`Memory.init`, `open`, `retain`, `get`, `recall`, `about`,
`note`, `index`).  Each record becomes one Retain bullet in a daily log, written with `retain`:

    - W @p000041: group2 fact 166 ... ^r000166

- **id** — the explicit block id `^r` + six digits, so a lookup by id is `Memory.get`;
- **text** — the bullet's content, byte for byte (the generated texts have no edge spaces,
  which memfold would strip);
- **parent** — an entity named in the bullet's header, `@p` + the parent's six digits (the
  root has none).  Header names are not part of the content, so the text stays the same as
  in the other stores, and "the children of 41" is `Memory.about("p000041")`: the facts
  linked to that entity.  No entity page is needed: a name that facts mention resolves.

The records are spread over ten daily logs (one `retain` call each), so the workspace looks
like a small memory rather than one long file.

What memfold cannot say as the other stores do:

- substring search — `recall` is ranked full-text search over words (case-folded,
  accent-folded), not a case-sensitive substring scan.  The column asks `recall` for the
  query's words with `k` as large as the store, world facts only, and then keeps the hits
  whose content contains the exact string (`term in content`).  That gives the same answer
  for the lab's terms (`group3 ` is a whole word followed by a space), not for every string:
  a substring inside a word (`roup3`) is not found through words;
- provenance — memfold compares each file's size and mtime with what it indexed, so only
  the records of the edited file are refused (`Memory.get(id, strict=True)` raises
  `SourceChanged`), not the whole bundle as the lab stores do; `Memory.index()` is the
  rebuild;
- revisions — a fact's revision starts at 0 and rises by one per note (`Memory.note(id, text,
  rev=N)`, a compare-and-set that raises `StaleRevision` when the revision moved on) and by
  one per change of its text under the same block id (a `revise` event, journaled once the
  fact has any journal event).  The lab stores instead raise every record's revision when the
  bundle changes; after the lab's one note and one edit of record 0 both say rev 2, but a
  memfold fact whose text did not change keeps its revision across the rebuild;
- rebuild and backup — notes and revisions live in the workspace's `journal.jsonl`, not in
  the index, so `rm -r .memory` followed by `Memory.index(full=True)` is the full rebuild,
  and a backup is a copy of the Markdown files and `journal.jsonl` (without `.memory`),
  restored by opening the copy and rebuilding its index.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Sequence
from datetime import date, timedelta
from pathlib import Path
from typing import TypedDict

from memfold.errors import SourceChanged, StaleRevision
from memfold.memory import Memory

from .lab_stores import SourceRow

FILES = 10
FIRST_DAY = date(2025, 1, 1)
PARENT_NAME = re.compile(r"p(\d{6})")
RECORD_ID = re.compile(r"r(\d{6})")


INDEX_DIR = ".memory"
JOURNAL = "journal.jsonl"


class View(TypedDict):
    """A record as the query batch compares it: id, text and parent."""

    id: int
    text: str
    parent: int | None


class Held(TypedDict):
    """A record with its lifecycle: memfold has no bundle hash, the rest is the contract."""

    id: int
    text: str
    parent: int | None
    rev: int
    note: str


def block_id(key: int) -> str:
    return f"r{key:06d}"


def parent_name(key: int) -> str:
    return f"p{key:06d}"


def bullet(row: SourceRow) -> str:
    names = "" if row["parent"] is None else f" @{parent_name(row['parent'])}"
    return f"W{names}: {row['text']} ^{block_id(row['id'])}"


def _record_id(fact_id: str) -> int | None:
    m = RECORD_ID.fullmatch(fact_id)
    return int(m.group(1)) if m else None


def _parent(entities: Sequence[str]) -> int | None:
    for name in entities:
        if m := PARENT_NAME.fullmatch(name):
            return int(m.group(1))
    return None


def read_held(memory: Memory, key: int) -> Held:
    """A record with its revision and note, read without counting as a use."""
    hit = memory.get(block_id(key), use=False)
    return Held(id=key, text=hit.fact.content, parent=_parent(hit.fact.entities), rev=hit.rev,
                note=hit.note or "")


def set_note(memory: Memory, key: int, rev: int, note: str) -> bool:
    """Compare-and-set a record's note: whether it applied (False: the revision moved on)."""
    try:
        memory.note(block_id(key), note, rev=rev)
    except StaleRevision:
        return False
    return True


def rebuilt_from_scratch(root: Path) -> Memory:
    """Drop the workspace's index and rebuild it from the Markdown and the journal."""
    shutil.rmtree(root / INDEX_DIR, ignore_errors=True)
    memory = Memory.open(root)
    try:
        memory.index(full=True)
    except BaseException:
        memory.close()
        raise
    return memory


def copy_workspace(root: Path, target: Path) -> None:
    """A backup: every Markdown file and the journal, not the index."""
    for path in sorted(root.rglob("*.md")):
        rel = path.relative_to(root)
        if rel.parts[0] == INDEX_DIR:
            continue
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target / rel)
    shutil.copy2(root / JOURNAL, target / JOURNAL)


class MemfoldColumn:
    """A workspace holding the records, and the lab's questions asked through `Memory`."""

    name = "memfold"

    def __init__(self, root: Path, rows: Sequence[SourceRow]) -> None:
        Memory.init(root)
        self.root = root
        self.rows = len(rows)
        self.memory = Memory.open(root)
        self.days: dict[int, date] = {}
        self.recalled = 0  # recall hits seen by `search`, before the exact-substring check
        self.kept = 0  # of those, hits whose content contains the term
        self._write(rows)

    def _write(self, rows: Sequence[SourceRow]) -> None:
        per_file = -(-len(rows) // FILES)
        for n in range(0, len(rows), per_file):
            day = FIRST_DAY + timedelta(days=n // per_file)
            chunk = rows[n : n + per_file]
            result = self.memory.retain([bullet(r) for r in chunk], date=day)
            if not result.indexed or result.warnings:
                raise RuntimeError(f"retain of {day} was not clean: {result.warnings}")
            self.days.update((r["id"], day) for r in chunk)

    def _daily(self, day: date) -> Path:
        return self.root / "memory" / f"{day.isoformat()}.md"

    def path_of(self, key: int) -> Path:
        return self._daily(self.days[key])

    def markdown_bytes(self) -> int:
        """The size of the daily logs that hold the records."""
        return sum(self._daily(day).stat().st_size for day in set(self.days.values()))

    def get(self, key: int, *, strict: bool = False) -> View:
        fact = self.memory.get(block_id(key), strict=strict).fact
        return View(id=key, text=fact.content, parent=_parent(fact.entities))

    def search(self, term: str) -> list[int]:
        hits = self.memory.recall(term, k=self.rows, kinds=["world"]).hits
        self.recalled += len(hits)
        exact = [h for h in hits if term in h.fact.content]
        self.kept += len(exact)
        return sorted(k for h in exact if (k := _record_id(h.fact.id)) is not None)

    def children(self, parent: int) -> list[int]:
        hits = self.memory.about(parent_name(parent), k=self.rows).hits
        return sorted(k for h in hits if (k := _record_id(h.fact.id)) is not None)

    def edit_source(self, key: int, old: str, new: str) -> None:
        """Change one record's text in its Markdown file, as an editor would."""
        path = self.path_of(key)
        marker = f" ^{block_id(key)}\n"
        text = path.read_text(encoding="utf-8")
        if text.count(f"{old}{marker}") != 1:
            raise RuntimeError(f"record {key} is not written once in {path.name}")
        path.write_text(text.replace(f"{old}{marker}", f"{new}{marker}"), encoding="utf-8")

    def refused(self, key: int) -> bool:
        """Whether a strict lookup refuses the record because its file changed."""
        try:
            self.get(key, strict=True)
        except SourceChanged:
            return True
        return False

    def held(self, key: int) -> Held:
        return read_held(self.memory, key)

    def held_all(self) -> list[Held]:
        return [read_held(self.memory, key) for key in range(self.rows)]

    def note(self, key: int, rev: int, note: str) -> bool:
        return set_note(self.memory, key, rev, note)

    def rebuild(self) -> None:
        """`rm -r .memory`, then `Memory.index(full=True)` on a freshly opened workspace."""
        self.memory.close()
        self.memory = rebuilt_from_scratch(self.root)

    def close(self) -> None:
        self.memory.close()
