"""What a `--recall-from postgres` replica does once at start, before its port opens, so that
its first recall costs what a warm one does: every statement a recall sends is run once on
each connection of its pool, in a transaction that sees no bank.

A fresh process and a fresh database connection pay, on the first recall they serve, for
what the statements touch the first time: PostgreSQL's backend reads each table's and
index's description and its row-level security policies into its caches (a first statement
on a table costs milliseconds, a later one microseconds), and psycopg builds its
conversions of each statement and of each type it sends.  `warm` pays for them at start:
the token look-up, the bank's row, each search (single terms, a phrase, a prefix, with and
without filters), the counts, the facts by id and by row, their neighbours, the entities,
the journal's review events — each run once through `PgRecallIndex` itself, in a
transaction that sets no tenant, so row-level security hides every row and nothing is read
or written.  Each statement runs once, below psycopg's threshold for preparing it, so no
plan made on an empty answer is kept for a bank's.

The caches warmed are the backend's own, one per connection: a recall's first statements on
a connection that never ran them cost it 50-60 ms more on a 365- or 1,000-file bank
(`memfold bench server-scale`'s banks, measured on branch srv38a).  So a replica warms every
connection its pool may hold (`memfold serve --pool-size`, 10 by default), each taken out at
once so the pool opens them all, not only the first: the first requests of a burst after a
start then find warmed connections as a lone first request does.  The pool keeps them while
they are used and closes the idle ones above one after its idle time (ten minutes); one it
opens again later is warmed by the requests that first use it, as before.
"""

from __future__ import annotations

from datetime import date
from itertools import product
from typing import TYPE_CHECKING, Any

from memfold.index.base import Filters, Terms
from memfold.server import admin
from memfold.server.db import SCOPE
from memfold.server.pgindex import PgRecallIndex
from memfold.server.pgreview import open_items
from memfold.values import Interval

if TYPE_CHECKING:
    import psycopg
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


def warm(pool: ConnectionPool, connections: int = 1) -> None:
    """Send each statement of a recall from PostgreSQL once, seeing no bank, on each of
    `connections` connections of the pool (it opens those it lacks; module doc)."""
    taken: list[psycopg.Connection[Any]] = []
    try:
        for _ in range(min(connections, pool.max_size)):
            taken.append(pool.getconn())
        for conn in taken:
            with conn.transaction():
                send(conn)
    finally:
        for conn in taken:
            pool.putconn(conn)


def send(conn: psycopg.Connection[Any]) -> None:
    """Each statement of a recall once on `conn`, in its transaction, which this scopes to no
    tenant and no token (db.tenant_tx): row-level security hides every row."""
    from memfold.server.pgrecall import BANK, DatabaseBank

    conn.execute(SCOPE, ["", ""])
    conn.execute(admin.TOKEN_ROW, [admin.hash_token(admin.TOKEN_PREFIX + "0" * 43)])
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
    index.by_id(WORDS[0])
    index.neighbours([0])
    index.life(WORDS)
    index.resolve_names(list(WORDS))
    index.alias_keys(list(WORDS))
    index.entity(WORDS[0])
    open_items(conn, 0, list(WORDS), 5)
    DatabaseBank(index).recall(" ".join(WORDS), k=5, mode="lexical")
