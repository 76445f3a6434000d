"""Vectors: each bank's fact embeddings, keyed by the embedder and the text they embed.

A replica that embeds a fact stores its vector here; another replica, or the same one after
a restart, takes it from here instead of running the model again (memfold.server.vectors).
Row-level security as on every tenant table.

Revision ID: 0002
Revises: 0001
"""

from alembic import op

revision = "0002"
down_revision = "0001"

TENANT = "current_setting('memfold.tenant', true)"


def upgrade() -> None:
    op.execute("""
CREATE TABLE vectors (
    tenant_id   text NOT NULL,
    bank_id     integer NOT NULL REFERENCES banks ON DELETE CASCADE,
    embedder    text NOT NULL,
    key         bytea NOT NULL,
    vector      bytea NOT NULL,
    PRIMARY KEY (bank_id, embedder, key)
);
ALTER TABLE vectors ENABLE ROW LEVEL SECURITY;
ALTER TABLE vectors FORCE ROW LEVEL SECURITY;
GRANT SELECT, INSERT ON vectors TO memfold_app;
""")
    op.execute(f"CREATE POLICY tenant_rows ON vectors USING (tenant_id = {TENANT}) "
               f"WITH CHECK (tenant_id = {TENANT})")


def downgrade() -> None:
    op.execute("DROP TABLE vectors")
