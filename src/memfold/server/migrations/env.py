"""Alembic's environment for memfold's server schema: online migrations only, raw SQL.

`memfold db upgrade` (memfold.server.migrate) builds the Alembic Config itself and hands the
connection URL in; there is no alembic.ini and no SQLAlchemy model — each version file holds
the SQL it runs, so the schema reads as PostgreSQL.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, pool

url = context.config.get_main_option("sqlalchemy.url")
engine = create_engine(str(url), poolclass=pool.NullPool)
with engine.connect() as connection:
    context.configure(connection=connection, transaction_per_migration=True,
                      version_table="memfold_schema_version")
    with context.begin_transaction():
        context.run_migrations()
