"""The index interface: what every backend provides (one today: SQLite's, `index.sqlite`).

The index is derived data.  It holds nothing that the Markdown files and the journal
do not, so any backend can be dropped and rebuilt.  Backends see parsed documents
only — never Markdown — and the sync logic above them is shared, so a new backend fits beside
SQLite without touching the parser or the CLI.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Protocol

from memfold.journal.fold import LifeState
from memfold.journal.log import Event
from memfold.values import Fact, FileStamp, Interval, ParsedDoc, ParseWarning

DocChange = tuple[ParsedDoc, FileStamp]
Progress = Callable[[int], None]


@dataclass(frozen=True)
class PreparedDoc:
    """A parsed document turned into one backend's rows (`IndexBackend.preparer`), ready to
    insert.  A large sync prepares documents in its parse workers: plain tuples of text and
    numbers cost a fraction of a ParsedDoc's dataclasses to send between processes, and the
    process that writes the index is left with little but the writing."""

    path: str
    stamp: FileStamp
    warnings: tuple[ParseWarning, ...]
    typed_ids: tuple[str, ...]  # the ids of its typed facts, in file order
    rows: object  # the backend's own layout


Preparer = Callable[[ParsedDoc, FileStamp], PreparedDoc]
SeenStamp = tuple[int, int, int]  # a file's size, mtime_ns and checked_ns, as last indexed


@dataclass(frozen=True)
class IndexCounts:
    files: int
    facts_by_kind: dict[str, int]
    entities: int
    chunks: int
    warnings: int


@dataclass(frozen=True)
class Filters:
    """Restrictions every search honours: kinds, a time window, required entities."""

    kinds: tuple[str, ...] = ()
    window: Interval | None = None
    entity_keys: tuple[str, ...] = ()
    # as of a day in the past: only facts written by then (dated that day or before,
    # retained by then, or undated); None when every fact is
    written_by: date | None = None


@dataclass(frozen=True)
class Candidate:
    """A fact found by a search, with what the ranking needs to know about it."""

    fact: Fact
    bm25: float | None  # FTS5 bm25 (lower is better); None when found another way
    links: tuple[str, ...]  # keys of the entities the fact is linked to
    sha256: str  # the file's hash when it was indexed
    rowid: int = 0  # the backend's row key (not stable across rebuilds)
    life: LifeState | None = None  # what the journal says about it, if anything


@dataclass(frozen=True)
class DuplicateId:
    """One block id on several typed facts; `places` in path order, and memfold acts on the
    first (`by_id` answers with it)."""

    id: str
    places: tuple[tuple[str, int], ...]  # (path, line)


@dataclass(frozen=True)
class DanglingPointer:
    """A superseded or merged fact whose `superseded_by` names a fact no file holds."""

    id: str
    path: str
    line: int
    status: str  # superseded | merged
    target: str


@dataclass(frozen=True)
class OrphanState:
    """Journal state (a note, a supersede or merge) about an id no file holds any more: its
    latest event of that kind, and that event's data."""

    id: str
    seq: int
    event: str  # note | supersede | merge
    data: dict[str, object]


@dataclass(frozen=True)
class ReviewRow:
    """One review item as the index folds it: a supersede or a conflict the judge journaled
    (`seq`), its state, and the seq of the event that settled it."""

    seq: int
    kind: str  # conflict | supersede
    old: str
    new: str
    judge: str
    rule: str
    reason: str
    ts: str
    state: str  # open | applied | accepted | dismissed | restored | replaced
    settled: int | None


@dataclass(frozen=True, kw_only=True)
class ReviewQuery:
    """Which review items: in these states, journaled on or after `since` (an ISO day),
    of a rule or judge, about facts linked to an entity, by seq, or about one older fact."""

    states: tuple[str, ...] = ()
    since: str | None = None
    rule: str | None = None
    entity_keys: tuple[str, ...] = ()
    seqs: tuple[int, ...] | None = None
    old: str | None = None
    limit: int | None = None


@dataclass(frozen=True)
class LinkProblems:
    """Where the ids in the files and the journal's pointers no longer agree."""

    duplicates: tuple[DuplicateId, ...] = ()
    dangling: tuple[DanglingPointer, ...] = ()
    orphans: tuple[OrphanState, ...] = ()


@dataclass(frozen=True)
class EntityInfo:
    key: str
    name: str
    page: str | None  # bank/entities/<Slug>.md when the entity has a page
    aliases: tuple[str, ...]


class IndexBackend(Protocol):
    """A store of parsed documents that can answer questions about them.

    Every index operation memfold runs is a method here; callers never reach past it (no
    SQL, no driver outside the `memfold.index` package).  A method fails only with memfold
    errors: IndexError_ when the store cannot be used, IndexDamaged when what it read is
    damaged — a read that meets it calls `repair` and rebuilds from the files."""

    location: str  # where the index lives, for status
    notices: list[str]  # one line per repair made (on opening, or by `repair`)

    def repair(self, reason: str) -> None:
        """Put a damaged index aside and start an empty one (the caller refills it)."""
        ...

    def stamps(self, paths: Sequence[str] | None = None) -> dict[str, FileStamp]:
        """The stamp of every file the index holds (or of `paths`), by relative path."""
        ...

    def seen_stamps(self) -> dict[str, SeenStamp]:
        """Every file the index holds, with its stamp but not its hash: what a sync compares
        a scan with (every command that reads pays it first, so it is one small query)."""
        ...

    def hashes(self, paths: Sequence[str]) -> dict[str, str]:
        """The sha256 the index holds for each of `paths` it holds."""
        ...

    def preparer(self) -> Preparer:
        """The function that turns a parsed document into this backend's rows: a plain
        module-level function, so parse worker processes can run it too."""
        ...

    def apply(
        self,
        changes: Iterable[PreparedDoc],
        removed: Sequence[str],
        restamped: Sequence[tuple[str, FileStamp]],
        *,
        full: bool,
        synced_at: str,
    ) -> list[str]:
        """In one transaction: replace the rows of changed files, drop removed files, and
        record new stamps for files whose content did not change.  `full` starts from empty.

        `changes` (made by `preparer`) may be a lazy stream (files parsed while rows are
        inserted); `restamped` is read only after it is exhausted.  Returns the ids of typed
        facts the index had never held (empty for a full rebuild), so new facts can be judged
        against older ones."""
        ...

    def append(self, tail: PreparedDoc, *, held: str, synced_at: str) -> list[str] | None:
        """Add the rows of lines appended to a file (`tail`, made by `preparer`: their facts
        and warnings, and the whole file's new stamp) when the index holds the file as it was
        before (sha256 `held`), leaving its other rows as they are: a retain's cost then does
        not grow with the file.  Returns the ids of typed facts never held, or None —
        changing nothing — when the index holds another version (the caller syncs the whole
        file)."""
        ...

    def counts(self) -> IndexCounts: ...

    def warnings(self) -> list[ParseWarning]: ...

    def warning_count(self) -> int: ...

    def fact_days(self) -> tuple[date | None, date | None]:
        """The first day a fact was written (its date, or the day it was retained, the
        earlier) and the last day a fact is dated; None where there is none."""
        ...

    def locate(self, fact_id: str) -> list[str]:
        """Citations of every row with this id."""
        ...

    def meta(self, key: str) -> str | None: ...

    def resolve_names(self, keys: Sequence[str]) -> dict[str, str]:
        """Which of these keys name a known entity (directly or as an alias): key -> entity."""
        ...

    def alias_keys(self, entities: Sequence[str]) -> list[str]:
        """The keys of the other names (entity pages' aliases) of these entity keys."""
        ...

    def entity(self, key: str) -> EntityInfo | None: ...

    def lexical(self, fts: str, filters: Filters, limit: int) -> list[Candidate]:
        """Facts matching an FTS5 expression, best BM25 first."""
        ...

    def fact_rows(self) -> int:
        """About how many facts the index holds (at least as many: it may count rows since
        removed), at once."""
        ...

    def term_counts(self, expressions: Sequence[str], most: int) -> dict[str, int]:
        """How many facts each FTS5 expression matches (each a quoted word, say), counted
        no further than `most` + 1."""
        ...

    def linked(self, keys: Sequence[str], filters: Filters, limit: int) -> list[Candidate]:
        """Facts linked to any of these entities, newest first."""
        ...

    def recent(self, filters: Filters, limit: int) -> list[Candidate]:
        """Facts within the filters, newest first (for queries that only name a time)."""
        ...

    def by_id(self, fact_id: str) -> list[Candidate]: ...

    def by_ids(self, ids: Sequence[str]) -> list[Candidate]: ...

    def by_rowids(self, rowids: Sequence[int], filters: Filters) -> list[Candidate]:
        """The facts with these row keys that pass `filters`."""
        ...

    def neighbours(self, rowids: Sequence[int]) -> dict[int, tuple[int, ...]]:
        """Row keys of the facts just before and after each fact in its file."""
        ...

    def fts_rowids(self, fts: str, limit: int) -> list[int]:
        """Row keys of up to `limit` facts matching an FTS5 expression, unranked (how rare
        a word is: hybrid recall's exact-match boost)."""
        ...

    def fact_texts(self) -> list[tuple[int, str]]:
        """(row key, content) of every fact, by row key: what the vectors embed."""
        ...

    def facts_signature(self) -> str:
        """A token that changes whenever a sync changes any fact: vectors made against
        another signature may be out of date."""
        ...

    def lineage(self) -> tuple[str, int] | None:
        """Which index this is and how far along: an id made when its data was built and
        the count of syncs that changed a fact since (None before the first).  The same id
        with a count as high or higher is a later state of the index a reader last saw."""
        ...

    def journal_position(self) -> tuple[int, str, int]: ...

    def citations(self) -> list[tuple[str, int, str, int, str, str | None]]:
        """Generated summary lines: (page, line, source, source line, sha, current text)."""
        ...

    def apply_events(self, events: Sequence[Event], position: tuple[int, str, int], *,
                     reset: bool = False) -> None:
        """Fold events into the lifecycle state in one transaction; with `reset`, the state
        is cleared first, in the same transaction."""
        ...

    def link_problems(self) -> LinkProblems:
        """Duplicate block ids, supersede/merge pointers to ids no file holds, and notes or
        supersedes about such ids — a few queries over the whole index (status, index)."""
        ...

    def life(self, ids: Iterable[str]) -> dict[str, LifeState]: ...

    def events_for(self, fact_id: str) -> list[Event]: ...

    def events_of_kinds(self, kinds: Sequence[str], *,
                        limit: int | None = None) -> list[Event]:
        """Journal events of these kinds, newest first, at most `limit`."""
        ...

    def unretained_in_order(self) -> list[tuple[int | None, str]]:
        """(day as an ordinal or None, id) of every typed fact no retain wrote (the journal
        gives it no `retained_on`): undated first, then by day, path and line — the order a
        first index judges them in."""
        ...

    def review_rows(self, query: ReviewQuery) -> tuple[list[ReviewRow], int]:
        """The review items a query names, newest first, up to its limit, and how many it
        names in all (the review table, folded from the journal like `lifecycle`)."""
        ...

    def events_at(self, seqs: Sequence[int]) -> list[Event]:
        """The journal events with these seqs (those the index holds)."""
        ...

    def tracked_contents(self, paths: Sequence[str] | None) -> list[tuple[str, str, str, int]]:
        ...

    def dump(self) -> list[tuple[object, ...]]:
        """Every indexed row in a canonical order: two indexes of the same files compare equal."""
        ...

    def scrub(self) -> None:
        """Leave no copy of deleted rows anywhere in the backend's files (a purge)."""
        ...

    def close(self) -> None: ...
