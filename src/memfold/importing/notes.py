"""A vault's notes into the workspace: each note a bank page, and the names the notes bring
(titles, front-matter aliases, `[[links]]`, `#tags`) entity pages with their `aliases`.

Copied notes go under `bank/notes/<vault>/`, each written whole and atomically, a likely
secret in one replaced by `[REDACTED:<kind>]` (and listed); a hidden
manifest there (`.imported.json`, the SHA-256 of what was written for each note) tells a
page nobody touched since (brought up to the vault's newer note) from one edited here
(left as it is, and listed).  With `in_place` the vault is inside the workspace and its
notes stay where they are: those under `memory/` or `bank/` are read there, the others are
listed (memfold reads only those two folders).  An entity page is made only for a name no
page answers to yet; existing pages are never changed.
"""

from __future__ import annotations

import hashlib
import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from memfold.capture.formats import Unreadable
from memfold.errors import BadInput
from memfold.importing.facts import entity_name
from memfold.importing.run import Options, Tally, Target
from memfold.importing.sources import Batch, Note
from memfold.index.base import EntityInfo
from memfold.names import entity_key
from memfold.reflect.text import page_slug
from memfold.scan.secrets import find_secrets, redact
from memfold.workspace.files import replace_atomically

NOTES_DIR = "bank/notes"
MANIFEST = ".imported.json"
MENTIONS_SHOWN = 20
WRITERS = 16  # files written at once


@dataclass
class Entity:
    name: str
    aliases: list[str] = field(default_factory=list)
    note: str | None = None  # the workspace page of the note it is
    mentioned_in: dict[str, None] = field(default_factory=dict)  # pages, in order

    def page(self) -> bytes:
        names = [alias for alias in self.aliases if entity_key(alias) != entity_key(self.name)]
        front = ("---\naliases: [" + ", ".join(json.dumps(a, ensure_ascii=False)
                                                for a in dict.fromkeys(names)) + "]\n---\n"
                 if names else "")
        body = [f"# {self.name}", ""]
        # where the name comes from, for a person reading the page; in a comment, which
        # recall does not read: it says nothing about the entity itself
        if self.note:
            body.append(f"<!-- The note: {self.note} -->")
        if self.mentioned_in:
            shown = list(self.mentioned_in)[:MENTIONS_SHOWN]
            more = len(self.mentioned_in) - len(shown)
            body.append("<!-- Named in: " + ", ".join(shown)
                        + (f" and {more} more" if more else "") + " -->")
        return (front + "\n".join(body) + "\n").encode("utf-8")


def import_notes(target: Target, batch: Batch, result: Tally, options: Options, *,
                 in_place: bool) -> None:
    """Write the batch's notes and their entity pages, then index them."""
    assert batch.root is not None
    result.read += len(batch.notes)
    if in_place:
        pages = _in_place(target, batch, result)
    else:
        base = f"{NOTES_DIR}/{page_slug(batch.root.name)}"
        pages = {note.rel: f"{base}/{note.rel}" for note in batch.notes}
        _copy_notes(target, batch.notes, base, result, options)
    _entity_pages(target, batch.notes, pages, result, options)
    if not options.dry_run and (result.pages or result.updated or result.entities):
        target.refresh()


def _in_place(target: Target, batch: Batch, result: Tally) -> dict[str, str]:
    root = target.workspace.root.resolve()
    assert batch.root is not None
    vault = batch.root.resolve()
    if not vault.is_relative_to(root):
        raise BadInput(f"--in-place: the vault {vault} is not inside the workspace {root}")
    base = vault.relative_to(root).as_posix()
    pages = {n.rel: f"{base}/{n.rel}" if base != "." else n.rel for n in batch.notes}
    for page in pages.values():
        if target.workspace.is_tracked(page):
            result.skipped += 1
        else:
            result.left_out.append(Unreadable(page, "outside memory/ and bank/: memfold does "
                                              "not read it there (import without --in-place)"))
    return pages


def write_files(target: Target, writes: list[tuple[Path, bytes]]) -> None:
    """Write each file whole and durably (`replace_atomically`), several at once: each
    waits on its own fsync, and the disk serves them together."""
    for folder in sorted({path.parent for path, _ in writes}):
        target.workspace.require_real_dir(folder)
        folder.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(max_workers=WRITERS) as pool:
        for done in [pool.submit(replace_atomically, path, data) for path, data in writes]:
            done.result()  # the first failure stops the import (StorageError, one line)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _copy_notes(target: Target, notes: tuple[Note, ...], base: str, result: Tally,
                options: Options) -> None:
    folder = target.workspace.abspath(base)
    manifest_path = folder / MANIFEST
    try:
        manifest = json.loads(manifest_path.read_text("utf-8"))
    except (OSError, ValueError):
        manifest = {}
    written: dict[str, str] = {}
    writes: list[tuple[Path, bytes]] = []
    for note in notes:
        path = folder / note.rel
        data, found = _screened(note.data)
        state = _state(path, data, manifest.get(note.rel))
        if state in ("same", "edited"):
            result.skipped += state == "same"
            if state == "edited":
                result.left_out.append(Unreadable(f"{base}/{note.rel}", "edited here since it "
                                                  "was imported; left as it is"))
            continue
        writes.append((path, data))
        result.files.append(f"{base}/{note.rel}")
        result.secrets.extend((f"{base}/{note.rel}:{line}", kind) for line, kind in found)
        written[note.rel] = _sha(data)
        result.pages += state == "new"
        result.updated += state == "changed"
    if written and not options.dry_run:
        write_files(target, writes)
        replace_atomically(manifest_path, json.dumps({**manifest, **written}, indent=1,
                                                     sort_keys=True).encode("utf-8"))


def _screened(data: bytes) -> tuple[bytes, list[tuple[int, str]]]:
    """A note's bytes with each likely secret replaced by `[REDACTED:<kind>]`, and the
    (line, kind) of each: secrets are not copied into the workspace."""
    text = data.decode("utf-8-sig")
    found = find_secrets(text)
    if not found:
        return data, []
    return (redact(text).encode("utf-8"),
            [(text.count("\n", 0, m.start) + 1, m.kind) for m in found])


def _state(path: Path, data: bytes, imported: object) -> str:
    """new (no page), same (the page holds the note), changed (the note changed and the
    page is as imported) or edited (the page was changed here)."""
    try:
        current = path.read_bytes()
    except FileNotFoundError:
        return "new"
    if current == data:
        return "same"
    return "changed" if imported == _sha(current) else "edited"


def _entities(notes: tuple[Note, ...], pages: dict[str, str]) -> dict[str, Entity]:
    """The names the notes bring, by entity key: each note's title (answering to its file
    name and aliases too), then the links (to a note's entity when it names one) and tags.
    A name without a letter (a daily note's date) is no entity."""
    found: dict[str, Entity] = {}
    for note in notes:
        name = entity_name(note.title) or entity_name(Path(note.rel).stem)
        if not any(ch.isalpha() for ch in name):
            continue  # a daily note (2025-11-27) names a day, not an entity
        entity = found.setdefault(entity_key(name), Entity(name))
        entity.note = pages[note.rel]
        entity.aliases.extend([note.title, Path(note.rel).stem, *note.aliases])
    by_name = {entity_key(a): e for e in list(found.values()) for a in [e.name, *e.aliases]}
    for note in notes:
        for raw in (*note.links, *(tag.replace("/", "-") for tag in note.tags)):
            name = entity_name(raw)
            if not any(ch.isalpha() for ch in name):
                continue
            entity = by_name.get(entity_key(name)) or found.setdefault(entity_key(name),
                                                                        Entity(name))
            by_name.setdefault(entity_key(name), entity)
            if entity.note != pages[note.rel]:
                entity.mentioned_in[pages[note.rel]] = None
            if raw != name:
                entity.aliases.append(raw)
    return found


def _has_page(info: EntityInfo | None) -> bool:
    return info is not None and info.page is not None


def _entity_pages(target: Target, notes: tuple[Note, ...], pages: dict[str, str],
                  result: Tally, options: Options) -> None:
    entities = _entities(notes, pages)
    backend = target.index_backend
    known = backend.resolve_names([*entities])
    writes: list[tuple[Path, bytes]] = []
    for key, entity in entities.items():
        rel = f"bank/entities/{page_slug(entity.name)}.md"
        path = target.workspace.abspath(rel)
        if path.exists() or path.is_symlink() or (
                key in known and _has_page(backend.entity(known[key]))):
            result.skipped += 1
            continue
        writes.append((path, entity.page()))
        result.files.append(rel)
        result.entities += 1
    if not options.dry_run:
        write_files(target, writes)
