"""Writing the SQLite index: the files' stamps, and replacing every row of a changed file
(`replace_rows`, run by `SqliteIndex.apply` inside one write transaction).

Every row belongs to exactly one file row (facts by its key `file`, the rest by `path`);
replacing a file replaces all its rows, so an incremental sync and a full rebuild of the same
files hold the same rows.  A document's rows are made by `prepare` (in the parse workers of a
large sync) and inserted by `_insert`.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple, cast

from memfold.index.base import Lineage, PreparedDoc, SeenStamp
from memfold.index.sqlite.rows import chunks, marks
from memfold.index.sqlite.schema import create_data, create_indexes, drop_data, drop_indexes
from memfold.names import entity_key, fold_for_index
from memfold.values import TEXT, FileStamp, ParsedDoc
from memfold.workspace.format import cited_turn


def stamps(db: sqlite3.Connection, paths: Sequence[str] | None = None) -> dict[str, FileStamp]:
    sql = "SELECT path, size, mtime_ns, sha256, checked_ns FROM files"
    if paths is not None:
        paths = list(paths)
        rows = db.execute(f"{sql} WHERE path IN ({marks(paths)})", paths)  # noqa: S608
    else:
        rows = db.execute(sql)
    return {path: FileStamp(size, mtime, sha, checked) for path, size, mtime, sha, checked
            in rows}


def seen_stamps(db: sqlite3.Connection) -> dict[str, SeenStamp]:
    return {path: (size, mtime_ns, checked_ns) for path, size, mtime_ns, checked_ns
            in db.execute("SELECT path, size, mtime_ns, checked_ns FROM files")}


def hashes(db: sqlite3.Connection, paths: Sequence[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for chunk in chunks(list(paths), 500):
        found.update(db.execute("SELECT path, sha256 FROM files"  # noqa: S608
                                f" WHERE path IN ({marks(chunk)})", chunk).fetchall())
    return found


def replace_rows(db: sqlite3.Connection, stream: Iterable[PreparedDoc], removed: Sequence[str],
                 restamped: Sequence[tuple[str, FileStamp]], *, full: bool,
                 synced_at: str) -> list[str]:
    """The body of `SqliteIndex.apply`, inside its write transaction: replace the rows of
    changed files, drop removed ones, restamp the rest; the ids of typed facts never held."""
    new_ids: list[str] = []
    touched = full or bool(removed)
    # an index that holds no file yet (a first sync) is filled as a rebuild is: rows first,
    # their indexes built once at the end, no file's old rows to look for
    empty = not full and db.execute("SELECT 1 FROM files LIMIT 1").fetchone() is None
    if full:
        drop_data(db)
        create_data(db, with_indexes=False)
        db.execute("DELETE FROM meta WHERE key LIKE 'journal_%'")
    elif empty:
        drop_indexes(db)
    bulk = full or empty
    moved: list[str] = []  # ids whose rows were removed or added: duplicates to recount
    for path in removed:
        moved.extend(_delete_path(db, path))
    for batch in _batches(stream, 500):
        touched = True
        if empty:  # every id is one the index never held
            new_ids.extend(i for prepared in batch for i in prepared.typed_ids)
        elif not full:
            new_ids.extend(_unseen_ids(db, batch))
            for prepared in batch:
                moved.extend(_delete_path(db, prepared.path))
        inserted = _insert(db, batch)
        if not bulk:
            moved.extend(inserted)
    if empty:
        new_ids = list(dict.fromkeys(new_ids))
    if bulk:
        create_indexes(db)
        db.execute("INSERT INTO duplicate_ids SELECT id FROM facts GROUP BY id"
                   " HAVING COUNT(*) > 1")
    else:
        _recount_duplicates(db, moved)
    db.executemany(
        "UPDATE files SET size = ?, mtime_ns = ?, checked_ns = ? WHERE path = ?",
        [(s.size, s.mtime_ns, s.checked_ns, path) for path, s in restamped],
    )
    db.execute("INSERT OR REPLACE INTO meta VALUES ('last_sync', ?)", (synced_at,))
    if touched:  # derived data (vectors) compares this to know the facts moved
        renew_facts_token(db, rebuilt=full)
    return new_ids


def renew_facts_token(db: sqlite3.Connection, *, rebuilt: bool = False) -> None:
    """Mark the facts as moved: `facts_token` is this index's lineage — a random id made
    when its data is (re)built — and a count of the syncs that changed a fact since, so a
    reader can tell a later state of the same index (a write by another process) from
    another index (deleted, rebuilt, or an older copy put back: `lineage`)."""
    ident, count = lineage(db) or ("", 0)
    if rebuilt or not ident:
        ident, count = os.urandom(8).hex(), 0
    db.execute("INSERT OR REPLACE INTO meta VALUES ('facts_token', ?)",
               (f"{ident}:{count + 1}",))


def lineage(db: sqlite3.Connection) -> Lineage | None:
    """(the index's lineage id, syncs that changed a fact since), from `facts_token`; None
    for an index that has none yet (or one of the old random tokens)."""
    row = db.execute("SELECT value FROM meta WHERE key = 'facts_token'").fetchone()
    ident, _, count = (row[0] if row else "").partition(":")
    return Lineage(ident, int(count)) if ident and count.isdigit() else None


def append_rows(db: sqlite3.Connection, tail: PreparedDoc, *, held: str,
                synced_at: str) -> list[str] | None:
    """The body of `SqliteIndex.append`: the appended lines' rows added to a file whose rows
    the index holds as of sha256 `held`, its stamp moved on; None if it holds another."""
    path, stamp = tail.path, tail.stamp
    row = db.execute("SELECT sha256 FROM files WHERE path = ?", (path,)).fetchone()
    if row is None or row[0] != held:
        return None
    new_ids = _unseen_ids(db, [tail])
    _recount_duplicates(db, _insert(db, [tail], with_files=False))
    db.execute("UPDATE files SET size = ?, mtime_ns = ?, checked_ns = ?, sha256 = ? "
               "WHERE path = ?", (stamp.size, stamp.mtime_ns, stamp.checked_ns, stamp.sha256,
                                  path))
    db.execute("INSERT OR REPLACE INTO meta VALUES ('last_sync', ?)", (synced_at,))
    renew_facts_token(db)
    return new_ids


def _unseen_ids(db: sqlite3.Connection, batch: Sequence[PreparedDoc]) -> list[str]:
    """Typed facts in these documents whose id the index has never held."""
    ids = list(dict.fromkeys(i for prepared in batch for i in prepared.typed_ids))
    seen: set[str] = set()
    for chunk in chunks(ids, 500):
        seen.update(r[0] for r in db.execute(
            f"SELECT id FROM facts WHERE id IN ({marks(chunk)})", chunk))  # noqa: S608
    return [i for i in ids if i not in seen]


def entity_keys(names: Sequence[str], page: str | None) -> dict[str, str]:
    """A fact's entities by key (one name per key): its links, and its `names` column.  A
    fact on an entity page (`page`: the page's first name) is linked to that entity too."""
    keys = {entity_key(n): n for n in names}
    if page is not None and (page_key := entity_key(page)) and page_key not in keys:
        keys[page_key] = page
    return keys


def fts_values(content: str, keys: dict[str, str]) -> tuple[str, str]:
    """The two columns the full-text index takes for a fact: its text and the names of its
    entities (`entity_keys`), folded for the tokenizer.

    The full-text table is contentless (it keeps its index, not a copy of the text), so a
    fact's row is removed by handing FTS5 the very values it was given: both are computed
    here, from what the index keeps (the fact's content and entities, and the first name of
    its entity page in `aliases`).  A change to what this returns is a schema change (bump
    `SCHEMA_VERSION`), or an old index would be handed values it never held."""
    # fold_for_index leaves ASCII as it is: most text need not make the call
    body = content if content.isascii() else fold_for_index(content)
    if not keys:
        return body, ""
    names = " ".join(keys.values())
    return body, names if names.isascii() else fold_for_index(names)


def folded(kind: str, content: str) -> bool:
    """Whether the full-text index leaves a fact out: a bullet folded into its captured turn,
    one that cites the turn it was extracted from (`cited_turn`).  Such a bullet repeats its
    turn's words, so as a row of its own it made them count for less in every search's
    statistics and took candidate places its turn needed; recall reaches it through its turn
    instead (`recall.folded`).  Decided from the row alone, so insert and delete agree."""
    return kind != TEXT and cited_turn(content) is not None


def _recount_duplicates(db: sqlite3.Connection, ids: Iterable[str]) -> None:
    """Bring `duplicate_ids` up to date for these ids (their rows were added or removed)."""
    for chunk in chunks(list(set(ids)), 500):
        db.execute(f"DELETE FROM duplicate_ids WHERE id IN ({marks(chunk)})", chunk)  # noqa: S608
        db.execute("INSERT INTO duplicate_ids SELECT id FROM facts"  # noqa: S608
                   f" WHERE id IN ({marks(chunk)}) GROUP BY id HAVING COUNT(*) > 1", chunk)


def _delete_path(db: sqlite3.Connection, path: str) -> list[str]:
    """Remove every row of one file; returns the ids of its facts."""
    found = db.execute("SELECT id FROM files WHERE path = ?", (path,)).fetchone()
    file = found[0] if found else None
    rows = db.execute("SELECT rowid, id, kind, content, entities FROM facts WHERE file = ?",
                      (file,)).fetchall()
    named = db.execute("SELECT name FROM aliases WHERE path = ? ORDER BY rowid LIMIT 1",
                       (path,)).fetchone()  # an entity page's first name, as `prepare` took it
    page = named[0] if named else None
    # the full-text rows first, with the values they were made from
    db.executemany(
        "INSERT INTO facts_fts (facts_fts, rowid, body, names) VALUES ('delete', ?, ?, ?)",
        [(rowid, *fts_values(content, entity_keys(json.loads(entities), page)))
         for rowid, _, kind, content, entities in rows if not folded(kind, content)])
    db.execute("DELETE FROM fact_entities WHERE fact IN "
               "(SELECT rowid FROM facts WHERE file = ?)", (file,))
    db.execute("DELETE FROM facts WHERE file = ?", (file,))
    db.execute("DELETE FROM aliases WHERE path = ?", (path,))
    db.execute("DELETE FROM warnings WHERE path = ?", (path,))
    db.execute("DELETE FROM citations WHERE path = ?", (path,))
    db.execute("DELETE FROM files WHERE id = ?", (file,))
    return [fact_id for _, fact_id, _, _, _ in rows]


class DocRows(NamedTuple):
    """One document's rows, as `prepare` makes them: its file and its facts in file order
    without their keys (`_insert` numbers them), and the rows that point at a fact by its
    place in `facts` (from 0)."""

    file: tuple[object, ...]
    facts: list[tuple[object, ...]]
    fts: list[tuple[str, str]]  # one per fact: `fts_values`
    links: list[tuple[int, str, str, int | None]]  # (place of the fact, key, name, day)
    aliases: list[tuple[object, ...]]
    warnings: list[tuple[object, ...]]
    citations: list[tuple[object, ...]]


def prepare(doc: ParsedDoc, stamp: FileStamp) -> PreparedDoc:
    """A document's rows for this index (`IndexBackend.preparer`): a pure function of the
    document, run in the parse workers of a large sync, so it is kept lean."""
    path = doc.path
    day = doc.day.toordinal() if doc.day else None  # days are kept as ordinals (sqlite.rows)
    page = doc.aliases[0] if doc.aliases else None
    facts: list[tuple[object, ...]] = []
    fts: list[tuple[str, str]] = []
    links: list[tuple[int, str, str, int | None]] = []
    for place, f in enumerate(doc.facts):
        fact_day = day if f.day == doc.day else f.day.toordinal() if f.day else None
        names = f.entities
        keys = entity_keys(names, page) if names or page is not None else {}
        for key, name in keys.items():
            links.append((place, key, name, fact_day))
        fts.append(fts_values(f.content, keys))
        valid = f.valid
        facts.append((
            f.id, f.line, f.end_line, f.kind, f.content, _json_names(names) if names else "[]",
            json.dumps(f.params, ensure_ascii=False) if f.params else None,
            f.confidence, f.importance,
            valid.start.toordinal() if valid and valid.start else None,
            valid.end.toordinal() if valid and valid.end else None,
            fact_day, int(f.explicit_id),
        ))
    page_key = entity_key(doc.aliases[0]) if doc.aliases else None
    rows = DocRows(
        file=(path, doc.role, doc.day.isoformat() if doc.day else None, stamp.size,
              stamp.mtime_ns, stamp.checked_ns, stamp.sha256),
        facts=facts, fts=fts, links=links,
        aliases=[(path, page_key, entity_key(name), name) for name in doc.aliases],
        warnings=[(w.path, w.line, w.message) for w in doc.warnings],
        citations=[(path, c.line, c.source, c.source_line, c.sha) for c in doc.citations])
    return PreparedDoc(path, stamp, doc.warnings,
                       tuple(f.id for f in doc.facts if f.kind != TEXT), rows)


def _insert(db: sqlite3.Connection, batch: Sequence[PreparedDoc], *,
            with_files: bool = True) -> list[str]:
    """Insert the prepared rows of these documents (their files rows too, `with_files`),
    numbering their facts on from the highest row key; returns the ids of the facts."""
    rowid = db.execute("SELECT COALESCE(MAX(rowid), 0) FROM facts").fetchone()[0]
    file = db.execute("SELECT COALESCE(MAX(id), 0) FROM files").fetchone()[0]
    files: list[tuple[object, ...]] = []
    facts: list[tuple[object, ...]] = []
    fts: list[tuple[int, str, str]] = []
    links: list[tuple[int, str, str, int | None]] = []
    aliases: list[tuple[object, ...]] = []
    warnings: list[tuple[object, ...]] = []
    citations: list[tuple[object, ...]] = []
    for prepared in batch:
        rows = cast(DocRows, prepared.rows)
        first = rowid + 1
        if with_files:
            file += 1
            files.append((file, *rows.file))
        else:  # lines appended to a file the index holds
            file = db.execute("SELECT id FROM files WHERE path = ?",
                              (prepared.path,)).fetchone()[0]
        facts.extend([(first + place, file, *row) for place, row in enumerate(rows.facts)])
        fts.extend([(first + place, *values) for place, (values, row) in enumerate(
            zip(rows.fts, rows.facts, strict=True)) if not folded(cast(str, row[3]),
                                                                 cast(str, row[4]))])
        links.extend([(first + place, key, name, day) for place, key, name, day in rows.links])
        aliases.extend(rows.aliases)
        warnings.extend(rows.warnings)
        citations.extend(rows.citations)
        rowid += len(rows.facts)
    if with_files:
        db.executemany("INSERT INTO files VALUES (?, ?, ?, ?, ?, ?, ?, ?)", files)
    db.executemany("INSERT INTO facts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   facts)
    db.executemany("INSERT INTO facts_fts (rowid, body, names) VALUES (?, ?, ?)", fts)
    db.executemany("INSERT INTO fact_entities VALUES (?, ?, ?, ?)", links)
    db.executemany("INSERT INTO aliases VALUES (?, ?, ?, ?)", aliases)
    db.executemany("INSERT INTO warnings VALUES (?, ?, ?)", warnings)
    db.executemany("INSERT INTO citations VALUES (?, ?, ?, ?, ?)", citations)
    return [cast(str, row[2]) for row in facts]


def _json_names(names: Sequence[str]) -> str:
    """A JSON list of entity names; names are slugs, so most need no escaping at all."""
    if not names:
        return "[]"
    joined = "".join(names)
    if '"' in joined or "\\" in joined or not joined.isprintable():
        return json.dumps(list(names), ensure_ascii=False)
    return '["' + '","'.join(names) + '"]'


def _batches(items: Iterable[PreparedDoc], size: int) -> Iterator[list[PreparedDoc]]:
    batch: list[PreparedDoc] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
