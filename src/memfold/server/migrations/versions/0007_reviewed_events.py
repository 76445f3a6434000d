"""The journal events the review queue folds, found by the fact they are about.

Recall reads the open conflicts the judge journaled about its best results (the newer fact
first, the older marked possibly outdated: memfold.recall.offered); a replica that answers
recall from PostgreSQL reads them from `events` in the recall's own snapshot
(memfold.server.pgreview).  `events_reviewed` holds, per bank, only the events that raise or
settle a review item — conflict, supersede, dismiss, restore, merge, and `reflect --undo`'s
reset — keyed by kind then fact id, so a recall reads the few events about the facts it asks
for (and the bank's resets) from one index, and learns whether a bank holds any conflict at
all from its first entry; a retain's own events are not in it.

Revision ID: 0007
Revises: 0006
"""

from alembic import op

revision = "0007"
down_revision = "0006"

# the kinds as literals: a query names the same list, so PostgreSQL may use this index
INDEX = """
CREATE INDEX events_reviewed ON events (bank_id, (record ->> 'event'), (record ->> 'id'))
    WHERE record ->> 'event' IN ('conflict', 'supersede', 'dismiss', 'restore', 'merge',
                                 'reset')
"""


def upgrade() -> None:
    op.execute(INDEX)


def downgrade() -> None:
    op.execute("DROP INDEX events_reviewed")
