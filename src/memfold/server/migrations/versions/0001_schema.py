"""memfold's server schema: tenants, banks, tokens, and each bank's files, events and facts.

Every table holds `tenant_id` and has row-level security enabled *and forced*, so the owner
is bound by it too: a row is visible only inside a transaction that ran
`set_config('memfold.tenant', <tenant>, true)` (SET LOCAL) for its tenant.  With the setting
unset, `current_setting(..., true)` is NULL or '' and no row matches: the policy fails closed.
A token row is also visible to the transaction that names its hash in `memfold.token_hash`,
which is how a request finds its tenant from its credential and nothing else.

The server connects as a member of `memfold_app` (NOLOGIN, no BYPASSRLS), which may read and
write bank contents but not create tenants, banks or tokens (`memfold server ...` does that
on the owner's connection, still under the same policies).

Revision ID: 0001
Revises:
"""

from alembic import op

revision = "0001"
down_revision = None

TENANT = "current_setting('memfold.tenant', true)"
TABLES = ("tenants", "banks", "tokens", "files", "events", "facts")

SCHEMA = """
CREATE TABLE tenants (
    tenant_id   text PRIMARY KEY CHECK (tenant_id ~ '^[a-z0-9][a-z0-9_-]{0,62}$'),
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE banks (
    bank_id     serial PRIMARY KEY,
    tenant_id   text NOT NULL REFERENCES tenants ON DELETE CASCADE,
    name        text NOT NULL CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$'),
    head        bigint NOT NULL DEFAULT 0,
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (tenant_id, name)
);
CREATE TABLE tokens (
    token_id    serial PRIMARY KEY,
    tenant_id   text NOT NULL REFERENCES tenants ON DELETE CASCADE,
    name        text NOT NULL CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$'),
    hash        bytea NOT NULL UNIQUE,
    scopes      text[] NOT NULL CHECK (scopes <@ ARRAY['read', 'write', 'admin']
                                       AND cardinality(scopes) > 0),
    bank        text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz,
    UNIQUE (tenant_id, name)
);
-- a bank's Markdown files, byte for byte; content NULL marks a file deleted at `version`
CREATE TABLE files (
    tenant_id   text NOT NULL,
    bank_id     integer NOT NULL REFERENCES banks ON DELETE CASCADE,
    path        text NOT NULL,
    content     bytea,
    sha256      text,
    version     bigint NOT NULL,
    PRIMARY KEY (bank_id, path)
);
CREATE INDEX files_by_version ON files (bank_id, version);
-- a bank's journal: one row per journal.jsonl line, in order (`seq`), the line as written
CREATE TABLE events (
    tenant_id   text NOT NULL,
    bank_id     integer NOT NULL REFERENCES banks ON DELETE CASCADE,
    seq         bigint NOT NULL,
    line        text NOT NULL,
    record      jsonb NOT NULL,
    version     bigint NOT NULL,
    PRIMARY KEY (bank_id, seq)
);
CREATE INDEX events_by_version ON events (bank_id, version);
-- every fact the Markdown carries, derived from `files` on each write, for SQL readers
CREATE TABLE facts (
    tenant_id   text NOT NULL,
    bank_id     integer NOT NULL REFERENCES banks ON DELETE CASCADE,
    path        text NOT NULL,
    line        integer NOT NULL,
    end_line    integer NOT NULL,
    fact_id     text NOT NULL,
    kind        text NOT NULL,
    day         date,
    entities    text[] NOT NULL,
    params      jsonb NOT NULL,
    content     text NOT NULL,
    raw         text NOT NULL,
    PRIMARY KEY (bank_id, path, line)
);
CREATE INDEX facts_by_id ON facts (bank_id, fact_id);
"""

APP_ROLE = """
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'memfold_app') THEN
        CREATE ROLE memfold_app NOLOGIN NOSUPERUSER NOBYPASSRLS;
    END IF;
END
$$;
GRANT SELECT ON tenants, tokens, memfold_schema_version TO memfold_app;
GRANT SELECT, UPDATE ON banks TO memfold_app;
GRANT SELECT, INSERT, UPDATE ON files, events TO memfold_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON facts TO memfold_app;
"""


def upgrade() -> None:
    op.execute(SCHEMA)
    for table in TABLES:
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
        op.execute(f"CREATE POLICY tenant_rows ON {table} USING (tenant_id = {TENANT}) "
                   f"WITH CHECK (tenant_id = {TENANT})")
    op.execute("CREATE POLICY token_by_hash ON tokens FOR SELECT USING (hash = decode("
               "nullif(current_setting('memfold.token_hash', true), ''), 'hex'))")
    op.execute(APP_ROLE)


def downgrade() -> None:
    for table in reversed(TABLES):
        op.execute(f"DROP TABLE {table}")
