"""What `reflect --undo` takes back, kept in the database: `reflect_undo` holds, per bank, the
undo manifest of the bank's last reflect run (the bytes local memfold writes to
`.memory/reflect-last.json`: each page's bytes before the run, the events it journaled, the
lifecycle fields it changed as they were before and after), so any replica can take the run
back — one answering from PostgreSQL (`--recall-from postgres`, memfold.server.pgreflect),
or one whose copy of the bank never saw the run.

A run stores it in its write's transaction (the version it wrote); an undo, a purge (the
manifest may hold the purged text) or a later run replaces or deletes it; a deleted bank's
goes with the bank.  Row-level security as on every tenant table; the key names the tenant
too, so a row naming another tenant's bank is refused by the foreign key alone (never by the
key, which would tell that bank keeps a manifest).

Revision ID: 0011
Revises: 0010
"""

from alembic import op

revision = "0011"
down_revision = "0010"

TENANT = "current_setting('memfold.tenant', true)"


def upgrade() -> None:
    op.execute("""
CREATE TABLE reflect_undo (
    tenant_id   text NOT NULL,
    bank_id     integer NOT NULL,
    version     bigint NOT NULL,
    manifest    bytea NOT NULL,
    PRIMARY KEY (tenant_id, bank_id)
)""")
    op.execute("ALTER TABLE reflect_undo ENABLE ROW LEVEL SECURITY")
    op.execute("ALTER TABLE reflect_undo FORCE ROW LEVEL SECURITY")
    op.execute(f"CREATE POLICY tenant_rows ON reflect_undo USING (tenant_id = {TENANT}) "
               f"WITH CHECK (tenant_id = {TENANT})")
    op.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON reflect_undo TO memfold_app")
    op.execute("ALTER TABLE reflect_undo ADD CONSTRAINT reflect_undo_tenant_bank FOREIGN KEY "
               "(tenant_id, bank_id) REFERENCES banks (tenant_id, bank_id) ON DELETE CASCADE")


def downgrade() -> None:
    op.execute("DROP TABLE reflect_undo")
