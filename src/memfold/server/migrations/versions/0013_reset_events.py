"""The journal's resets, found without reading the bank's review events: `events_resets`.

A recall from PostgreSQL that meets an open conflict reads the review events about its best
results and every `reflect --undo` reset of the bank (memfold.server.pgreview: a reset
settles items by seq, so each may matter).  The resets were read through `events_reviewed`
(schema 0007), whose keys after the bank are expressions — `record ->> 'event'` — that a
query under row-level security may not use as an index condition (`->>` is not leakproof),
so the bank's whole range of review events was tested one by one: 10,756 of them, 7 ms, on
the 1,000-file bank of `memfold bench server-scale`, to find none.  This index holds the
resets alone (a partial index: PostgreSQL proves a query's `record ->> 'event' = 'reset'`
implies its predicate whatever the security barrier), so the bank's resets are one index
range, empty in most banks.

Revision ID: 0013
Revises: 0012
"""

from alembic import op

revision = "0013"
down_revision = "0012"

# the kind as a literal: pgreview.EVENTS names the same one, so PostgreSQL may use this index
INDEX = "CREATE INDEX events_resets ON events (bank_id, seq) WHERE record ->> 'event' = 'reset'"


def upgrade() -> None:
    op.execute(INDEX)


def downgrade() -> None:
    op.execute("DROP INDEX events_resets")
