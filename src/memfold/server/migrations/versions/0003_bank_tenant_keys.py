"""A bank's rows name the bank's own tenant: (tenant_id, bank_id) references banks.

Before, files, events, facts and vectors referenced `banks (bank_id)` alone, so a tenant's
transaction could write a row with its own tenant_id but another tenant's bank_id (invisible
to that tenant, yet its foreign-key error told which bank ids exist).  Referencing the pair
makes such a row impossible, and a wrong bank id fails the same way whether it exists or not.
The server never wrote such rows; this closes the door below it.

Revision ID: 0003
Revises: 0002
"""

from alembic import op

revision = "0003"
down_revision = "0002"

CHILDREN = ("files", "events", "facts", "vectors")


def upgrade() -> None:
    op.execute("ALTER TABLE banks ADD CONSTRAINT banks_tenant_bank UNIQUE (tenant_id, bank_id)")
    for table in CHILDREN:
        op.execute(f"ALTER TABLE {table} DROP CONSTRAINT {table}_bank_id_fkey")
        op.execute(f"ALTER TABLE {table} ADD CONSTRAINT {table}_tenant_bank FOREIGN KEY "
                   "(tenant_id, bank_id) REFERENCES banks (tenant_id, bank_id) "
                   "ON DELETE CASCADE")


def downgrade() -> None:
    for table in CHILDREN:
        op.execute(f"ALTER TABLE {table} DROP CONSTRAINT {table}_tenant_bank")
        op.execute(f"ALTER TABLE {table} ADD CONSTRAINT {table}_bank_id_fkey FOREIGN KEY "
                   "(bank_id) REFERENCES banks ON DELETE CASCADE")
    op.execute("ALTER TABLE banks DROP CONSTRAINT banks_tenant_bank")
