"""Statistics gathered right after an import: `memfold_analyze()` runs `ANALYZE` on the tables
an import fills (the bank's files, journal and facts, and the recall rows derived from them),
as the tables' owner.

The planner chooses how to answer a recall from PostgreSQL (`--recall-from postgres`) by the
tables' statistics; after a whole import they describe the tables as they were before it
(on a new database: nothing at all), and a recall planned on them read the 1,000-file bank of
`memfold bench server-scale` in 702 ms at the median against 39 ms once autovacuum had
analysed it.  The serving role may not `ANALYZE` a table it does not own (PostgreSQL
skips such a table with a warning), so the owner lends it this one function: SECURITY
DEFINER, with a fixed list of tables and a search path pinned to the schema that holds them,
so a caller chooses nothing.  `SKIP_LOCKED` passes over a table that autovacuum or another import is
analysing at that moment (its statistics are on their way).  Sampling bounds the cost
(300 × `default_statistics_target` rows a table), whatever the tables hold.

Revision ID: 0012
Revises: 0011
"""

from alembic import op

revision = "0012"
down_revision = "0011"

TABLES = ("files", "events", "facts", "event_facts", "recall_facts", "recall_links",
          "recall_aliases", "recall_files", "recall_life", "recall_stats", "recall_terms",
          "recall_postings")


def upgrade() -> None:
    op.execute(f"""
CREATE FUNCTION memfold_analyze() RETURNS void LANGUAGE plpgsql SECURITY DEFINER AS $$
BEGIN
    ANALYZE (SKIP_LOCKED) {", ".join(TABLES)};
END $$""")
    op.execute("""
DO $$ BEGIN
    EXECUTE format('ALTER FUNCTION memfold_analyze() SET search_path = %I, pg_temp',
                   current_schema());
END $$""")
    op.execute("REVOKE ALL ON FUNCTION memfold_analyze() FROM PUBLIC")
    op.execute("GRANT EXECUTE ON FUNCTION memfold_analyze() TO memfold_app")


def downgrade() -> None:
    op.execute("DROP FUNCTION memfold_analyze()")
