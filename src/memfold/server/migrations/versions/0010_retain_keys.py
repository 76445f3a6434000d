"""A retain's idempotency key found by an index: a retain written from PostgreSQL
(`--recall-from postgres`, memfold.server.pgretain) looks up whether the bank journaled the
key before, in the bank's `retain` events only, at a cost that does not grow with the bank.

Revision ID: 0010
Revises: 0009
"""

from alembic import op

revision = "0010"
down_revision = "0009"


def upgrade() -> None:
    op.execute("CREATE INDEX events_retain_keys ON events (bank_id, (record->>'idempotency_key'),"
               " seq) WHERE record->>'event' = 'retain' AND record ? 'idempotency_key'")


def downgrade() -> None:
    op.execute("DROP INDEX events_retain_keys")
