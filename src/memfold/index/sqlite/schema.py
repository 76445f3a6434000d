"""The SQLite index's schema, and what its errors mean: which are damage, and how every error
the driver raises reaches callers as a memfold error (`storage_errors`).

A schema change bumps `SCHEMA_VERSION`; an index of another version is dropped and rebuilt from
the files, never migrated in place.
"""

from __future__ import annotations

import functools
import re
import sqlite3
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from memfold.errors import IndexDamaged, IndexError_

SCHEMA_VERSION = 11
DAMAGE = ("malformed", "corrupt", "not a database", "disk image")  # SQLite's words for it

DATA_SCHEMA = """
CREATE TABLE files (
    id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, role TEXT NOT NULL, day TEXT,
    size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, checked_ns INTEGER NOT NULL,
    sha256 TEXT NOT NULL
);
CREATE TABLE facts (
    rowid INTEGER PRIMARY KEY, file INTEGER NOT NULL, id TEXT NOT NULL,
    line INTEGER NOT NULL, end_line INTEGER NOT NULL, kind TEXT NOT NULL,
    content TEXT NOT NULL, entities TEXT NOT NULL, params TEXT,
    confidence REAL, importance INTEGER, valid_from INTEGER, valid_until INTEGER,
    day INTEGER, explicit INTEGER NOT NULL
);
CREATE TABLE fact_entities (fact INTEGER NOT NULL, key TEXT NOT NULL, name TEXT NOT NULL,
                            day INTEGER);
CREATE TABLE aliases (path TEXT NOT NULL, entity TEXT NOT NULL, key TEXT NOT NULL,
                      name TEXT NOT NULL);
CREATE TABLE warnings (path TEXT NOT NULL, line INTEGER NOT NULL, message TEXT NOT NULL);
CREATE TABLE duplicate_ids (id TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE shadowed (fact INTEGER PRIMARY KEY);
CREATE VIRTUAL TABLE facts_fts USING fts5(
    body, names, content = '', tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TABLE lifecycle (
    id TEXT PRIMARY KEY, status TEXT, reason TEXT, superseded_by TEXT, superseded_on TEXT,
    supersedes TEXT, derived_from TEXT, confidence REAL, rev INTEGER NOT NULL DEFAULT 0,
    note TEXT, last_used TEXT, uses INTEGER NOT NULL DEFAULT 0, content_sha TEXT,
    support TEXT, contradict TEXT, confidence_on TEXT, origin TEXT, retained_on TEXT
);
CREATE TABLE citations (path TEXT NOT NULL, line INTEGER NOT NULL, source TEXT NOT NULL,
                        source_line INTEGER NOT NULL, sha TEXT NOT NULL);
CREATE TABLE events (seq INTEGER PRIMARY KEY, ts TEXT NOT NULL, event TEXT NOT NULL,
                     id TEXT NOT NULL, data TEXT NOT NULL);
CREATE TABLE review (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, old TEXT NOT NULL,
                     new TEXT NOT NULL, judge TEXT NOT NULL, rule TEXT NOT NULL,
                     reason TEXT NOT NULL, ts TEXT NOT NULL, state TEXT NOT NULL,
                     settled INTEGER);
CREATE VIEW chunks AS SELECT * FROM facts WHERE kind = 'text';
CREATE VIEW entities AS
    SELECT key, MIN(name) AS name, COUNT(*) AS mentions FROM (
        SELECT key, name FROM fact_entities
        UNION ALL SELECT entity AS key, name FROM aliases WHERE key = entity
    ) GROUP BY key;
"""
DATA_INDEXES = """
CREATE INDEX facts_by_id ON facts(id);
CREATE INDEX facts_by_file ON facts(file, line);
CREATE INDEX links_by_fact ON fact_entities(fact);
CREATE INDEX links_by_key ON fact_entities(key, day);
CREATE INDEX facts_by_day ON facts(day);
CREATE INDEX facts_by_validity ON facts(valid_until) WHERE valid_until IS NOT NULL;
CREATE INDEX aliases_by_key ON aliases(key);
CREATE INDEX aliases_by_path ON aliases(path);
CREATE INDEX warnings_by_path ON warnings(path);
CREATE INDEX events_by_id ON events(id);
CREATE INDEX lifecycle_by_retained ON lifecycle(retained_on);
CREATE INDEX events_by_kind ON events(event, seq);
CREATE INDEX review_by_state ON review(state, rule, ts, judge);
CREATE INDEX review_by_old ON review(old);
CREATE INDEX review_by_new ON review(new);
CREATE INDEX citations_by_path ON citations(path);
"""
DATA_OBJECTS = (
    ("view", "entities"), ("view", "chunks"), ("table", "facts_fts"), ("table", "warnings"),
    ("table", "duplicate_ids"), ("table", "shadowed"),
    ("table", "lifecycle"), ("table", "events"), ("table", "review"), ("table", "citations"),
    ("table", "aliases"), ("table", "fact_entities"), ("table", "facts"), ("table", "files"),
)


def damaged(exc: BaseException) -> bool:
    """Whether an error met while reading says the index file itself is damaged."""
    return isinstance(exc, IndexDamaged | UnicodeDecodeError) or (  # garbled text: damage
        isinstance(exc, sqlite3.DatabaseError) and any(word in str(exc) for word in DAMAGE))


def drop_data(db: sqlite3.Connection) -> None:
    for kind, name in DATA_OBJECTS:
        db.execute(f"DROP {kind.upper()} IF EXISTS {name}")


def create_data(db: sqlite3.Connection, *, with_indexes: bool = True) -> None:
    for statement in DATA_SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)
    if with_indexes:
        create_indexes(db)


def create_indexes(db: sqlite3.Connection) -> None:
    for statement in DATA_INDEXES.split(";"):
        if statement.strip():
            db.execute(statement)


def drop_indexes(db: sqlite3.Connection) -> None:
    for name in re.findall(r"CREATE INDEX (\w+)", DATA_INDEXES):
        db.execute(f"DROP INDEX IF EXISTS {name}")


_P = ParamSpec("_P")
_R = TypeVar("_R")


def storage_errors(method: Callable[_P, _R]) -> Callable[_P, _R]:
    """Let no driver error out of a backend method: damage becomes IndexDamaged (which a
    read repairs), any other SQLite error IndexError_, each with the driver's message and
    the driver's exception as its cause."""

    @functools.wraps(method)
    def translated(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return method(*args, **kwargs)
        except (sqlite3.Error, UnicodeDecodeError) as exc:  # garbled text read: damage
            if damaged(exc):
                raise IndexDamaged(f"the index is damaged: {exc}; `memfold index --full` "
                                   "rebuilds it") from exc
            raise IndexError_(f"the index could not be used: {exc}") from exc

    return translated
