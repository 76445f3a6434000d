"""What a replica remembers of a bank between recalls from PostgreSQL (`--recall-from
postgres`): the answers that depend only on the bank's version, not on the question.

A recall reads, besides its search, the bank's parse warnings and the days its facts speak
of, how many rows hold each of its words (the idf of its terms, the rarity tests of the
query's expansion), how many rows match a phrase, the entity names its words resolve to, the
facts it ranks (as a search finds them: the row, its links, its file's hash, its lifecycle
state), their neighbours in their files, the facts found by id (a replaced fact's
current one, which recall brings) and the open conflicts the judge journaled about its best
results (memfold.server.pgreview), each search's rows and scores (a search of words, of an
entity's links, of the newest facts: the same search asked again reads nothing); and the
whole answers of `status` and `entities`, which read the whole bank and depend on nothing
else (memfold.server.pgrecall.DatabaseBank).  The version's token is also the facts version
recall's own readings are kept by (`recall.versioned`).
Each of these is a function of the bank's rows alone, so between two writes every recall
asks the same of the database again.  `Versions` keeps them per bank, keyed by the bank's
version as the recall's own snapshot reads it: the bank's write counter (`banks.head`) and
the version of its statistics row (`recall_stats.xmin`, which every write moves in its
transaction, and so does `memfold server bank check --repair`).  A recall whose snapshot
reads another version starts a fresh entry; nothing is ever read from an entry of another
version, so an answer is the one the database would have given in that snapshot.

Bounded and in memory only: at most BANKS banks and TOTAL answers over all of them (the least
recently used banks forgotten first), at most ENTRIES answers per bank (all forgotten when it
fills); derived, so nothing needs purging —
a purge is a write, and the next recall's version is new.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memfold.index.base import Candidate, ReviewRow

BANKS = 256
ENTRIES = 50_000
TOTAL = 200_000  # answers over all banks (a fact row, the largest, is about a kilobyte)
SEARCHED_ROWS = 10  # a search's rows kept (a key and a score each) weigh one answer


class BankFacts:
    """One bank version's answers.  Shared by the recalls that read this version, each
    answer put whole (a dict's item), so concurrent recalls need no lock."""

    def __init__(self, bank_id: int, version: tuple[int, str], token: str | None = None) -> None:
        self.bank_id = bank_id
        self.version = version
        # the version recall's own readings are kept by (`recall.versioned`: which entities
        # a kind names, a name's subjects, a word's count), unique to this process's pool
        # and the bank's version; None: kept for no one (a write's rows, pgjudge)
        self.token = token
        # warnings, days, whether a conflict was journaled (PgRecallIndex._head)
        self.head: tuple[Any, ...] | None = None
        self.held: dict[str, int] = {}  # term -> rows holding it (recall_terms)
        self.counted: dict[tuple[str, int], int] = {}  # (tsquery, most) -> rows matching
        self.names: dict[str, str | None] = {}  # entity key -> its name, None: no entity
        self.near: dict[int, tuple[int, ...]] = {}  # rowid -> the rows before and after it
        self.rows: dict[int, Candidate] = {}  # rowid -> its fact as a search finds it
        # fact id -> the row `by_ids` answers for it (holder first) with its place among
        # others (shadowed, path, line, rowid), None: no such fact
        self.ids: dict[str, tuple[tuple[bool, str, int, int], Candidate] | None] = {}
        # (older fact id, limit) -> its open review items, newest first (pgreview)
        self.reviews: dict[tuple[str, int], tuple[ReviewRow, ...]] = {}
        # a read verb's whole answer that only the version decides (status, entities)
        self.reports: dict[str, Any] = {}
        # a search (its kind and arguments) -> the rows it found, in order, with their
        # scores: kept only for a version with a token (a snapshot's, never a write's)
        self.searches: dict[tuple[Any, ...], tuple[tuple[int, float | None], ...]] = {}
        self.searched = 0  # the rows the searches kept hold, SEARCHED_ROWS to an answer
        # fact ids -> the ids their chains of replacements reach (`successions`), kept
        # only for a version with a token, as the searches
        self.chains: dict[tuple[str, ...], frozenset[str]] = {}

    def size(self) -> int:
        return (len(self.held) + len(self.counted) + len(self.names) + len(self.near)
                + len(self.rows) + len(self.ids) + len(self.reviews) + len(self.reports)
                + len(self.searches) + self.searched // SEARCHED_ROWS + len(self.chains))

    def room(self) -> None:
        """Forget every answer when this version holds ENTRIES of them."""
        if self.size() >= ENTRIES:
            for kept in (self.held, self.counted, self.names, self.near, self.rows, self.ids,
                         self.reviews, self.reports, self.searches, self.chains):
                kept.clear()
            self.searched = 0

    def keep_search(self, key: tuple[Any, ...],
                    found: tuple[tuple[int, float | None], ...]) -> None:
        self.searches[key] = found
        self.searched += len(found)


class Versions:
    """The latest version seen of each of at most `banks` banks, per process."""

    def __init__(self, banks: int = BANKS) -> None:
        self.banks = banks
        self.lineage = uuid.uuid4().hex  # this pool's, in the versions it hands out
        self._found: OrderedDict[int, BankFacts] = OrderedDict()
        self._lock = threading.Lock()  # held for a dict operation, never across a read

    def facts(self, bank_id: int, head: int, stats: str | None) -> BankFacts:
        """This version's entry: the one kept when it is this version, else a fresh one
        (kept in place of the other when its head is not older)."""
        version = (head, stats or "")
        with self._lock:
            found = self._found.get(bank_id)
            if found is not None and found.version == version:
                self._found.move_to_end(bank_id)
                return found
            fresh = BankFacts(bank_id, version,
                              token=f"pg:{self.lineage}:{bank_id}:{head}:{stats or ''}")
            if found is None or found.version[0] <= head:
                self._found[bank_id] = fresh
                self._found.move_to_end(bank_id)
                while len(self._found) > self.banks or (
                        len(self._found) > 1 and self._size() > TOTAL):
                    self._found.popitem(last=False)
            return fresh

    def _size(self) -> int:
        return sum(found.size() for found in self._found.values())

    def __len__(self) -> int:
        return len(self._found)
