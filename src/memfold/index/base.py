"""The index interface: what every backend (SQLite, `memfold.index.sqlite`) provides.

The index is derived data.  It holds nothing that the Markdown files and the journal do not,
so any backend can be dropped and rebuilt.  Backends see parsed documents only — never
Markdown — and the sync logic above them is shared, so a new backend fits beside SQLite
without touching the parser or the CLI.

The interface is cut into roles, each a protocol a caller can be typed with: `FactReader`
(facts by id or row, entities, counts), `FactSearch` (the searches recall runs), `LifecycleStore`
(state folded from the journal), `ReviewStore` (the review queue) and `IndexWriter` (keeping
the rows in step with the files).  `IndexBackend` is their union, what a backend implements.
Arguments and answers are memfold's own values: a full-text search is asked for in `Terms`
(words and phrases), which each backend renders in its own query language — an FTS5
expression, a tsquery — and rows come back as named records, never a driver's tuples.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import NamedTuple, Protocol, runtime_checkable

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
    # how well it matched a full-text search, lower is better (SQLite: FTS5's bm25, which is
    # negative; a backend whose rank grows with the match negates it); None when found another way
    bm25: float | None
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


@dataclass(frozen=True, kw_only=True)
class Terms:
    """What a full-text search looks for, in memfold's words: each backend renders it in its
    own query language, and what a user typed is never read as that language's syntax
    (quotes, `*`, `-`, `:`, parentheses, AND/OR/NOT and NEAR are plain words).

    `words` are matched as the index reads words (folded, stemmed; a word its tokenizer
    splits, "e-mail", as its parts side by side), `phrases` as their words side by side.  A
    fact matches when it holds any of them (`every`: all of them), ranked by how well (BM25);
    each is weighed once per time it is listed.  `prefix`: a word also matches the longer
    words it begins ("harb" finds "harbour").  SQLite writes them as quoted FTS5 strings
    (`index.sqlite.fts`); a tsvector backend would write `plainto_tsquery` and
    `phraseto_tsquery` joined by `||` (`every`: `&&`), `:*` for a prefix."""

    words: tuple[str, ...] = ()
    phrases: tuple[str, ...] = ()
    every: bool = False
    prefix: bool = False

    def __bool__(self) -> bool:
        return bool(self.words or self.phrases)


class FactDays(NamedTuple):
    first: date | None  # the first day a fact was written (dated, or retained)
    last: date | None  # the last day a fact is dated


class Lineage(NamedTuple):
    """Which index this is (an id made when its data was built) and how far along (the count
    of syncs that changed a fact since)."""

    ident: str
    syncs: int


class JournalPosition(NamedTuple):
    """How far the journal has been folded into the index: bytes read, the hash and seq of
    the last event."""

    offset: int
    last_hash: str
    last_seq: int


class Unjudged(NamedTuple):
    """A typed fact no retain wrote: its day as an ordinal (None when undated) and its id."""

    day: int | None
    id: str


class TrackedContent(NamedTuple):
    """A fact the journal holds a content hash for: its text now, that hash and its rev."""

    id: str
    content: str
    sha: str
    rev: int


class Citation(NamedTuple):
    """A generated summary line, where it cites from, the hash it recorded and the cited
    fact's text now (None when nothing is there any more)."""

    page: str
    line: int
    source: str
    source_line: int
    sha: str
    content: str | None


class ReviewPage(NamedTuple):
    """The review items a query names, up to its limit, and how many it names in all."""

    rows: list[ReviewRow]
    total: int


# a fact's link in a chain of replacements, as `ChainReader.successions` gives it: the day of
# the row holding the id and the id that replaced it (None when nothing did)
Succession = tuple[date | None, str | None]


@runtime_checkable
class ChainReader(Protocol):
    """An index that walks chains of replacements in one statement (`currency.successors`
    reads the others a link at a time with `FactReader.by_ids`)."""

    def successions(self, ids: Sequence[str]) -> tuple[dict[str, Succession], set[str]]:
        """For `ids` and the ids their chains of `superseded_by` reach, up to a bound: the
        row holding each id that exists (its day, and what replaced it), and every id looked
        for (one missing from the first was looked for and is not in the index)."""
        ...


class FactReader(Protocol):
    """Reading facts: by id or row key, with their lifecycle state; entities and their
    names; what the index holds in all (status) and what the vectors are made from."""

    def by_id(self, fact_id: str) -> list[Candidate]:
        """Every row with this id, the one holding it first."""
        ...

    def by_ids(self, ids: Sequence[str]) -> list[Candidate]:
        """The row holding each id, for ids that exist."""
        ...

    def by_rowids(self, rowids: Sequence[int], filters: Filters) -> list[Candidate]:
        """The facts with these row keys that pass `filters`."""
        ...

    def neighbours(self, rowids: Sequence[int]) -> dict[int, tuple[int, ...]]:
        """Row keys of the facts just before and after each fact in its file."""
        ...

    def life(self, ids: Iterable[str]) -> dict[str, LifeState]: ...

    def locate(self, fact_id: str) -> list[str]:
        """Citations of every row with this id."""
        ...

    def resolve_names(self, keys: Sequence[str]) -> dict[str, str]:
        """Which of these keys name a known entity (directly or as an alias): key -> entity."""
        ...

    def alias_keys(self, entities: Sequence[str]) -> list[str]:
        """The keys of the other names (entity pages' aliases) of these entity keys."""
        ...

    def entity(self, key: str) -> EntityInfo | None: ...

    def fact_days(self) -> FactDays:
        """The first day a fact was written (its date, or the day it was retained, the
        earlier) and the last day a fact is dated; None where there is none."""
        ...

    def counts(self) -> IndexCounts: ...

    def warnings(self) -> list[ParseWarning]: ...

    def warning_count(self) -> int: ...

    def fact_texts(self) -> list[tuple[int, str]]:
        """(row key, content) of every fact, by row key: what the vectors embed."""
        ...

    def facts_signature(self) -> str:
        """A token that changes whenever a sync changes any fact: vectors made against
        another signature may be out of date."""
        ...

    def dump(self) -> list[tuple[object, ...]]:
        """Every indexed row in a canonical order: two indexes of the same files compare equal."""
        ...


class FactSearch(Protocol):
    """The searches recall (and the judge) runs: by words, by entity links, by time."""

    def lexical(self, terms: Terms, filters: Filters, limit: int) -> list[Candidate]:
        """The `limit` facts that best match `terms` and pass the filters, best BM25 first
        (ties by path and line; filtered, newest day first); none for empty terms."""
        ...

    def word_counts(self, words: Sequence[str], most: int) -> dict[str, int]:
        """How many facts hold each word (as `lexical` matches it: folded and stemmed),
        counted no further than `most` + 1: a common word costs no more than a rare one."""
        ...

    def matching_rowids(self, terms: Terms, limit: int) -> list[int]:
        """Row keys of up to `limit` facts matching `terms`, unranked (how rare a word is:
        hybrid recall's exact-match boost)."""
        ...

    def fact_rows(self) -> int:
        """How many facts the index holds, at once: a statistic of its content, never of
        how it was built (two replicas of a bank must weigh words alike)."""
        ...

    def linked(self, keys: Sequence[str], filters: Filters, limit: int) -> list[Candidate]:
        """Facts linked to any of these entities, newest first."""
        ...

    def recent(self, filters: Filters, limit: int) -> list[Candidate]:
        """Facts within the filters, newest first (for queries that only name a time)."""
        ...


class RecallIndex(FactReader, FactSearch, Protocol):
    """What recall reads: facts and the searches that find them."""


class LifecycleStore(Protocol):
    """Lifecycle state folded from the journal, and the journal's events as the index holds
    them."""

    def journal_position(self) -> JournalPosition: ...

    def apply_events(self, events: Sequence[Event], position: tuple[int, str, int], *,
                     reset: bool = False) -> None:
        """Fold events into the lifecycle state in one transaction (`position`: where the
        journal is read to after them, a `JournalPosition`); with `reset`, the state is
        cleared first, in the same transaction."""
        ...

    def events_for(self, fact_id: str) -> list[Event]: ...

    def events_of_kinds(self, kinds: Sequence[str], *,
                        limit: int | None = None) -> list[Event]:
        """Journal events of these kinds, newest first, at most `limit`."""
        ...

    def retained_with_key(self, key: str) -> Event | None:
        """The first `retain` event journaled with this idempotency key, if any."""
        ...

    def events_at(self, seqs: Sequence[int]) -> list[Event]:
        """The journal events with these seqs (those the index holds)."""
        ...

    def unretained_in_order(self) -> list[Unjudged]:
        """Every typed fact no retain wrote (the journal gives it no `retained_on`): undated
        first, then by day, path and line — the order a first index judges them in."""
        ...

    def match_scores(self, terms: Terms) -> dict[int, float]:
        """The BM25 score (`FactSearch.lexical`'s, lower is better) of every fact matching
        `terms`, by row key, in no order: the first judging of existing facts searches
        once per name and filters and orders the matches itself (`lifecycle.bulk`)."""
        ...

    def tracked_contents(self, paths: Sequence[str] | None) -> list[TrackedContent]:
        """Facts (in `paths`, or everywhere when None) the journal holds a content hash for."""
        ...

    def citations(self) -> list[Citation]:
        """Every generated summary line, by page and line."""
        ...

    def link_problems(self) -> LinkProblems:
        """Duplicate block ids, supersede/merge pointers to ids no file holds, and notes or
        supersedes about such ids — a few queries over the whole index (status, index)."""
        ...


class ReviewStore(Protocol):
    """The review queue, folded from the journal like the lifecycle state."""

    def review_rows(self, query: ReviewQuery) -> ReviewPage:
        """The review items a query names, newest first, up to its limit, and how many it
        names in all."""
        ...


class IndexWriter(Protocol):
    """Keeping the rows in step with the files: what each file was when indexed, replacing
    a file's rows, repair and the file as a whole."""

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

    def meta(self, key: str) -> str | None: ...

    def lineage(self) -> Lineage | None:
        """Which index this is and how far along (None before the first sync that changed a
        fact).  The same id with a count as high or higher is a later state of the index a
        reader last saw."""
        ...

    def scrub(self) -> None:
        """Leave no copy of deleted rows anywhere in the backend's files (a purge)."""
        ...

    def close(self) -> None: ...


class IndexBackend(FactReader, FactSearch, LifecycleStore, ReviewStore, IndexWriter, Protocol):
    """A store of parsed documents that can answer questions about them: every role.

    Every index operation memfold runs is a method of a role; callers never reach past it
    (no SQL, no driver, no query language outside the `memfold.index` package).  A method
    fails only with memfold errors: IndexError_ when the store cannot be used, IndexDamaged
    when what it read is damaged — a read that meets it calls `repair` and rebuilds from
    the files."""
