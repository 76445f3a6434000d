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

Bounded and in memory only, by an estimate of the bytes its answers hold (`weight`: each
kind of answer at its measured size, a fact row with its text's length): at most `budget`
bytes over all banks (MEMFOLD_SERVER_CACHE_MB, `memfold serve --cache-mb`; 16 MB unless
told), the least recently used banks forgotten first, and at most BANKS banks; a bank
whose answers alone outgrow the budget forgets its fact rows (the most of its weight, read
again by row key as they are met), and all its answers when the rest still does.  So a replica's
memory does not grow with the banks it answers: 100 banks asked a few questions each hold
what the budget allows, and one busy bank keeps its answers up to the whole budget.  Derived,
so nothing needs purging — a purge is a write, and the next recall's version is new.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from memfold.errors import BadInput

if TYPE_CHECKING:
    from memfold.index.base import Candidate, ReviewRow

BANKS = 256
MB = 1 << 20
WRITE_BYTES = 64 * MB  # a write's own entry (pgjudge), forgotten with the write
# the estimated bytes of one kept answer of each kind (`sys.getsizeof` walked over the
# entries of banks of generated daily logs: the objects, their keys and the dict's slot)
ROW = 1_150  # a fact row as a search finds it (Candidate, Fact, links), besides its text
ID = 200  # a fact id's place (its row is one of `rows`)
NEAR = 175  # a row's neighbours
HELD = 95  # a term's count of rows
COUNTED = 185  # a phrase's count
NAME = 95  # an entity key's name
REVIEW = 300  # an older fact's open review items
CHAIN = 300  # a set of ids' chains of replacements
SEARCH = 300  # a search's key
SEARCHED = 110  # each row a search keeps (its key and score)
REPORT = 4_096  # a whole answer (status); one that is a sequence: ITEM an item
ITEM = 150


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
        self.searched = 0  # the rows the searches kept hold
        # fact ids -> the ids their chains of replacements reach (`successions`), kept
        # only for a version with a token, as the searches
        self.chains: dict[tuple[str, ...], frozenset[str]] = {}
        self.text = 0  # the characters of the kept rows' texts (`keep_row`)

    def keep_row(self, row: Candidate) -> None:
        if row.rowid not in self.rows:
            self.text += len(row.fact.content)
        self.rows[row.rowid] = row

    def weight(self) -> int:
        """An estimate of the bytes this version's answers hold (the module doc)."""
        return (len(self.rows) * ROW + self.text + len(self.ids) * ID + len(self.near) * NEAR
                + len(self.held) * HELD + len(self.counted) * COUNTED + len(self.names) * NAME
                + len(self.reviews) * REVIEW + len(self.chains) * CHAIN
                + len(self.searches) * SEARCH + self.searched * SEARCHED
                + sum(len(r) * ITEM if isinstance(r, (tuple, list)) else REPORT
                      for r in list(self.reports.values())))

    def lighter(self, budget: int) -> BankFacts:
        """A new entry of this version with its searches, counts and names but no fact
        rows (read again by row key, one statement a recall, as they are met), or with
        nothing when those alone weigh `budget`; this one left whole for the recalls
        still reading it."""
        fresh = BankFacts(self.bank_id, self.version, token=self.token)
        for name in ("held", "counted", "names", "reports", "searches", "chains"):
            getattr(fresh, name).update(getattr(self, name))
        fresh.head, fresh.searched = self.head, self.searched
        if fresh.weight() >= budget:
            return BankFacts(self.bank_id, self.version, token=self.token)
        return fresh

    def forget_rows(self) -> None:
        """Forget the rows, their ids and review items and the head (what a day of the
        judge's changes), keeping names and counts."""
        self.rows.clear()
        self.ids.clear()
        self.reviews.clear()
        self.head = None
        self.text = 0

    def forget(self) -> None:
        """Forget every answer."""
        for kept in (self.held, self.counted, self.names, self.near, self.reviews,
                     self.reports, self.searches, self.chains):
            kept.clear()
        self.forget_rows()
        self.searched = 0

    def room(self, budget: int) -> None:
        """Forget every answer when this version's weigh `budget` bytes or more."""
        if self.weight() >= budget:
            self.forget()

    def keep_search(self, key: tuple[Any, ...],
                    found: tuple[tuple[int, float | None], ...]) -> None:
        self.searches[key] = found
        self.searched += len(found)


def budget_bytes() -> int:
    """MEMFOLD_SERVER_CACHE_MB in bytes (its default unless set); BadInput when it is not a
    whole number of megabytes, 0 or more."""
    from memfold import config

    try:
        found = config.integer("MEMFOLD_SERVER_CACHE_MB")
    except ValueError:
        found = -1
    if found < 0:
        raise BadInput("MEMFOLD_SERVER_CACHE_MB: use a whole number of megabytes, 0 or more")
    return found * MB


class Versions:
    """The latest version seen of each of at most `banks` banks, per process, their answers
    within `budget` bytes (`BankFacts.weight`) over all of them."""

    def __init__(self, banks: int = BANKS, budget: int | None = None) -> None:
        self.banks = banks
        self._budget = budget  # None: MEMFOLD_SERVER_CACHE_MB's, read when first needed
        self.lineage = uuid.uuid4().hex  # this pool's, in the versions it hands out
        self._found: OrderedDict[int, BankFacts] = OrderedDict()
        self._lock = threading.Lock()  # held for a dict operation, never across a read

    def facts(self, bank_id: int, head: int, stats: str | None) -> BankFacts:
        """This version's entry: the one kept when it is this version, else a fresh one
        (kept in place of the other when its head is not older); then the least recently
        used banks forgotten while all weigh more than the budget, and this one's answers
        when it alone does."""
        version = (head, stats or "")
        with self._lock:
            found = self._found.get(bank_id)
            if found is not None and found.version == version:
                self._found.move_to_end(bank_id)
                return self._fit(found)
            fresh = BankFacts(bank_id, version,
                              token=f"pg:{self.lineage}:{bank_id}:{head}:{stats or ''}")
            if found is None or found.version[0] <= head:
                self._found[bank_id] = fresh
                self._found.move_to_end(bank_id)
                return self._fit(fresh)
            return fresh

    def _fit(self, asked: BankFacts) -> BankFacts:
        """Within BANKS banks and the budget, `asked` (the most recently used) kept: the
        entry to use, a fresh one of the same version when `asked` alone weighs the budget
        (the recalls still reading `asked` keep it whole)."""
        while len(self._found) > self.banks:
            self._found.popitem(last=False)
        total = self.weight()
        while total > self.budget and len(self._found) > 1:
            _, oldest = self._found.popitem(last=False)
            total -= oldest.weight()
        if total < self.budget:
            return asked
        fresh = self._found[asked.bank_id] = asked.lighter(self.budget)
        return fresh

    @property
    def budget(self) -> int:
        if self._budget is None:
            self._budget = budget_bytes()
        return self._budget

    @budget.setter
    def budget(self, value: int) -> None:
        self._budget = value

    def weight(self) -> int:
        """The estimated bytes of every bank's answers kept."""
        return sum(found.weight() for found in list(self._found.values()))

    def __len__(self) -> int:
        return len(self._found)
