"""Bank notices: a purge or a deleted bank tells every replica at once (LISTEN/NOTIFY).

A trigger sends `NOTIFY memfold_bank, '<bank_id>'` in the transaction that deletes a bank
(`memfold server bank delete`, or its tenant removed: the delete cascades) or stores a
journal line recording a purge; PostgreSQL delivers it only if that transaction commits.  The
payload is the bank id alone, never text.  Every replica process listens on its own
connection and, on a notice, drops its copies of that bank (memfold.server.notices).  NOTIFY
needs no privilege, so the serving role sends it like any writer.

Revision ID: 0004
Revises: 0003
"""

from alembic import op

revision = "0004"
down_revision = "0003"

CHANNEL = "memfold_bank"


def upgrade() -> None:
    op.execute(f"""
CREATE FUNCTION memfold_bank_notice() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('{CHANNEL}', OLD.bank_id::text);
        RETURN OLD;
    END IF;
    PERFORM pg_notify('{CHANNEL}', NEW.bank_id::text);
    RETURN NEW;
END
$$;
CREATE TRIGGER bank_deleted AFTER DELETE ON banks
    FOR EACH ROW EXECUTE FUNCTION memfold_bank_notice();
CREATE TRIGGER bank_purged AFTER INSERT OR UPDATE ON events
    FOR EACH ROW WHEN (NEW.record ->> 'event' = 'purge') EXECUTE FUNCTION memfold_bank_notice();
""")


def downgrade() -> None:
    op.execute("DROP TRIGGER bank_purged ON events")
    op.execute("DROP TRIGGER bank_deleted ON banks")
    op.execute("DROP FUNCTION memfold_bank_notice()")
