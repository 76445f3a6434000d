"""What a `--recall-from postgres` replica does once at start, before its port opens, so that
its first recall costs what a warm one does: every statement a recall sends is run once on
the pool's connection, in a transaction that sees no bank.

A fresh process and a fresh database connection pay, on the first recall they serve, for
what the statements touch the first time: PostgreSQL's backend reads each table's and
index's description and its row-level security policies into its caches (a first statement
on a table costs milliseconds, a later one microseconds), and psycopg builds its
conversions of each statement and of each type it sends.  `warm` pays for them at start:
the token look-up, the bank's row, each search (single terms, a phrase, a prefix, with and
without filters), the counts, the facts by id and by row, a chain of replacements, their
neighbours, the entities, the journal's review events — each run once through
`PgRecallIndex` itself, in a transaction that sets no tenant, so row-level security hides
every row and nothing is read or written.  Each statement runs once, below psycopg's
threshold for preparing it, so no plan made on an empty answer is kept for a bank's.
"""

from __future__ import annotations

from datetime import date
from itertools import product
from typing import TYPE_CHECKING

from memfold.index.base import Filters, Terms
from memfold.server import admin
from memfold.server.db import tenant_tx
from memfold.server.pgindex import PgRecallIndex
from memfold.server.pgreview import open_items
from memfold.values import Interval

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

WORDS = ("warm", "replica")
# the filters a search may carry — kinds, a time window, entities, written by a day — in
# each of their 16 combinations (each its own statement)
FILTERS = tuple(
    Filters(kinds=("W",) if kinds else (),
            window=Interval(date(2000, 1, 1), date(2000, 1, 2)) if window else None,
            entity_keys=("warm",) if entities else (),
            written_by=date(2000, 1, 2) if written else None)
    for kinds, window, entities, written in product((False, True), repeat=4))


def warm(pool: ConnectionPool) -> None:
    """Send each statement of a recall from PostgreSQL once, seeing no bank (module doc)."""
    from memfold.server.pgrecall import BANK, DatabaseBank

    admin.identify(pool, admin.TOKEN_PREFIX + "0" * 43)  # no such token
    with tenant_tx(pool, None, snapshot=True) as conn:
        conn.execute(BANK, ["warm"]).fetchall()
        index = PgRecallIndex(conn, 0, stats=(1, 1))
        index.warning_count()
        for terms in (Terms(words=WORDS), Terms(words=WORDS, every=True),
                      Terms(phrases=(" ".join(WORDS),), words=WORDS[:1]),
                      Terms(phrases=(" ".join(reversed(WORDS)), " ".join(WORDS * 2))),
                      Terms(words=WORDS, prefix=True)):
            for filters in FILTERS:
                index.lexical(terms, filters, 10)
        index.word_counts([WORDS[0], " ".join(WORDS)], 5)
        index.matching_rowids(Terms(words=WORDS), 5)
        for filters in FILTERS:
            index.linked(list(WORDS), filters, 5)
            index.recent(filters, 5)
            index.by_rowids([0], filters)
        index.by_ids(list(WORDS))
        index.successions(list(WORDS))
        index.by_id(WORDS[0])
        index.neighbours([0])
        index.life(WORDS)
        index.resolve_names(list(WORDS))
        index.alias_keys(list(WORDS))
        index.entity(WORDS[0])
        open_items(conn, 0, list(WORDS), 5)
        DatabaseBank(index).recall(" ".join(WORDS), k=5, mode="lexical")
