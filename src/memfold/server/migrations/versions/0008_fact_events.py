"""The journal events about one fact, by plain columns: `event_facts`.

A replica answering `history` from PostgreSQL (memfold.server.pgreads) reads the events
about a fact as the local index matches them: its own (`id`), a supersede `by` it, and each
retain that wrote it (its id among the retain's `ids`).  Read from `events` that is a test
of every event of the bank: an index on an expression such as `(record ->> 'id')` cannot
narrow it, because under the tables' row-level security PostgreSQL uses an index condition
only when its operators are leakproof, and `->>` is not.  So each event's facts are kept in
`event_facts` (bank, fact id, seq): plain columns, one index range per fact.

A trigger on `events` keeps it, in the transaction that stores or rewrites a journal line
(a purge rewrites lines), so every writer keeps it — a replica of any version included —
and it cannot disagree with the events.  The rows of existing banks are derived here.

Revision ID: 0008
Revises: 0007
"""

from alembic import op

revision = "0008"
down_revision = "0007"

TENANT = "current_setting('memfold.tenant', true)"

# the fact ids one event is about (`r`: its record), as index.sqlite.state.events_for matches
# them; kept by a trigger in the transaction that stores or rewrites the line
SCHEMA = """
CREATE TABLE event_facts (
    tenant_id   text NOT NULL,
    bank_id     integer NOT NULL,
    fact_id     text COLLATE "C" NOT NULL,
    seq         bigint NOT NULL,
    PRIMARY KEY (bank_id, fact_id, seq) INCLUDE (tenant_id)
);
CREATE FUNCTION memfold_event_facts(r jsonb) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
    SELECT DISTINCT f FROM (
        SELECT r ->> 'id' AS f
        UNION ALL SELECT r ->> 'by' WHERE r ->> 'event' = 'supersede'
        UNION ALL SELECT jsonb_array_elements_text(
            CASE WHEN r ->> 'event' = 'retain' AND jsonb_typeof(r -> 'ids') = 'array'
                 THEN r -> 'ids' ELSE '[]' END)) x
    WHERE coalesce(f, '') <> ''
$$;
CREATE FUNCTION memfold_event_facts_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        DELETE FROM event_facts WHERE bank_id = OLD.bank_id
            AND fact_id IN (SELECT memfold_event_facts(OLD.record)) AND seq = OLD.seq;
    END IF;
    INSERT INTO event_facts (tenant_id, bank_id, fact_id, seq)
        SELECT NEW.tenant_id, NEW.bank_id, f, NEW.seq FROM memfold_event_facts(NEW.record) f;
    RETURN NULL;
END
$$;
CREATE TRIGGER event_facts_kept AFTER INSERT OR UPDATE OF record ON events
    FOR EACH ROW EXECUTE FUNCTION memfold_event_facts_kept();
"""


def upgrade() -> None:
    op.execute(SCHEMA)
    # the owner is bound by forced row-level security: lift it for the backfill alone
    op.execute("ALTER TABLE events NO FORCE ROW LEVEL SECURITY")
    op.execute("INSERT INTO event_facts SELECT e.tenant_id, e.bank_id, f, e.seq FROM events e"
               " CROSS JOIN LATERAL memfold_event_facts(e.record) f")
    op.execute("ALTER TABLE events FORCE ROW LEVEL SECURITY")
    op.execute("ALTER TABLE event_facts ENABLE ROW LEVEL SECURITY")
    op.execute("ALTER TABLE event_facts FORCE ROW LEVEL SECURITY")
    op.execute(f"CREATE POLICY tenant_rows ON event_facts USING (tenant_id = {TENANT}) "
               f"WITH CHECK (tenant_id = {TENANT})")
    op.execute("GRANT SELECT, INSERT, DELETE ON event_facts TO memfold_app")
    op.execute("ALTER TABLE event_facts ADD CONSTRAINT event_facts_tenant_bank "
               "FOREIGN KEY (tenant_id, bank_id) REFERENCES banks (tenant_id, bank_id) "
               "ON DELETE CASCADE")


def downgrade() -> None:
    op.execute("DROP TRIGGER event_facts_kept ON events")
    op.execute("DROP FUNCTION memfold_event_facts_kept()")
    op.execute("DROP FUNCTION memfold_event_facts(jsonb)")
    op.execute("DROP TABLE event_facts")
