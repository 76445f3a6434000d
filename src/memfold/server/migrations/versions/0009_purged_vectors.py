"""A purge reaches the vectors: the serving role may delete a bank's `vectors` rows.

`forget --purge` removes a fact's text from every place memfold keeps it.  Its vector, and
the vector the judge made of the text without its names, are derived from that text and kept
in `vectors` (schema 0002), which the serving role could read and insert into but not delete
from, so a purge left them.  The purge's own transaction now deletes them
(memfold.server.vectors.drop_purged); row-level security binds the delete as every other
statement, so a tenant can only ever delete its own rows.

Revision ID: 0009
Revises: 0008
"""

from alembic import op

revision = "0009"
down_revision = "0008"


def upgrade() -> None:
    op.execute("GRANT DELETE ON vectors TO memfold_app")


def downgrade() -> None:
    op.execute("REVOKE DELETE ON vectors FROM memfold_app")
