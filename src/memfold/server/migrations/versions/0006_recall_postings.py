"""A search reads only its bank's matches: `recall_postings`, one row per (bank, term, row),
and a full-text index that names the bank.

- `recall_postings`: for each term a recall row holds, the row, the term's hits weighed by
  column (body 1.0, entity names 0.5: bm25's `f`) and the row's length.  Its key is
  (bank_id, term, rowid), so the rows that hold a search's terms — and all bm25 needs to
  score them — are read from one index range per term, in that bank alone.  Kept in every
  write's transaction beside `recall_facts` (memfold.server.recall_rows); `term` sorts
  byte by byte (`COLLATE "C"`) whatever the database's collation.
- The GIN index on `recall_facts.terms` held every bank's rows, so PostgreSQL read the whole
  bank instead (a phrase's or a prefix's matches).  Where the `btree_gin` extension can be
  created (a trusted extension from PostgreSQL 13 on: the database's owner may create it),
  the index becomes (bank_id, terms); without it the old index stays, and nothing else
  needs the extension.

Existing banks' postings are derived here from their recall rows.

Revision ID: 0006
Revises: 0005
"""

from alembic import op

revision = "0006"
down_revision = "0005"

TENANT = "current_setting('memfold.tenant', true)"

SCHEMA = """
CREATE TABLE recall_postings (
    tenant_id   text NOT NULL,
    bank_id     integer NOT NULL,
    term        text COLLATE "C" NOT NULL,
    rowid       bigint NOT NULL,
    hits        double precision NOT NULL,
    length      integer NOT NULL,
    PRIMARY KEY (bank_id, term, rowid) INCLUDE (hits, length, tenant_id)
);
"""

# each term of a recall row with its hits weighed by column (places of weight A are names)
POSTINGS_OF = """
SELECT f.tenant_id, f.bank_id, u.lexeme, f.rowid,
       cardinality(u.positions) - 0.5 * cardinality(array_positions(u.weights, 'A')),
       f.length
FROM recall_facts f CROSS JOIN LATERAL unnest(f.terms) u
"""

BANK_GIN = """
DO $$
BEGIN
    CREATE EXTENSION IF NOT EXISTS btree_gin;
    CREATE INDEX recall_facts_bank_terms ON recall_facts USING gin (bank_id, terms);
    DROP INDEX recall_facts_terms;
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'btree_gin not available (%): recall_facts keeps its GIN on terms', SQLERRM;
END
$$;
"""


def upgrade() -> None:
    op.execute(SCHEMA)
    # the owner is bound by forced row-level security: lift it for the backfill alone
    op.execute("ALTER TABLE recall_facts NO FORCE ROW LEVEL SECURITY")
    op.execute(f"INSERT INTO recall_postings {POSTINGS_OF}")  # noqa: S608
    op.execute("ALTER TABLE recall_facts FORCE ROW LEVEL SECURITY")
    op.execute("ALTER TABLE recall_postings ENABLE ROW LEVEL SECURITY")
    op.execute("ALTER TABLE recall_postings FORCE ROW LEVEL SECURITY")
    op.execute(f"CREATE POLICY tenant_rows ON recall_postings USING (tenant_id = {TENANT}) "
               f"WITH CHECK (tenant_id = {TENANT})")
    op.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON recall_postings TO memfold_app")
    op.execute("ALTER TABLE recall_postings ADD CONSTRAINT recall_postings_tenant_bank "
               "FOREIGN KEY (tenant_id, bank_id) REFERENCES banks (tenant_id, bank_id) "
               "ON DELETE CASCADE")
    op.execute(BANK_GIN)


def downgrade() -> None:
    op.execute("DROP TABLE recall_postings")
    op.execute("CREATE INDEX IF NOT EXISTS recall_facts_terms ON recall_facts USING gin (terms)")
    op.execute("DROP INDEX IF EXISTS recall_facts_bank_terms")
