"""The schema's versions, applied with Alembic: `memfold db upgrade` and `serve --migrate`.

The version files are in memfold/server/migrations/versions, one per schema version, each in
one transaction (a crash mid-upgrade leaves the previous version whole).  Alembic records
the version in `memfold_schema_version`; `current` reads it and `head` names the newest.
"""

from __future__ import annotations

from pathlib import Path

from memfold.errors import MemfoldError
from memfold.server.db import one_line

MIGRATIONS = Path(__file__).parent / "migrations"


def _engine_url(url: str) -> str:
    """A libpq URL as SQLAlchemy's psycopg 3 URL (postgresql:// -> postgresql+psycopg://)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    if url.startswith("postgresql+psycopg://"):
        return url
    raise MemfoldError("--db takes a URL such as postgresql://USER:PASSWORD@HOST:5432/DB")


def _config(url: str):  # type: ignore[no-untyped-def]  # alembic's Config
    from alembic.config import Config  # the server extra (alembic, SQLAlchemy)

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", _engine_url(url).replace("%", "%%"))
    return config


def head() -> str:
    from alembic.script import ScriptDirectory  # the server extra

    found = ScriptDirectory.from_config(_config("postgresql://")).get_current_head()
    return str(found)


def current(url: str) -> str | None:
    """The schema version of the database at `url` (None before the first upgrade)."""
    from sqlalchemy import create_engine, pool, text  # the server extra

    engine = create_engine(_engine_url(url), poolclass=pool.NullPool)
    try:
        with engine.connect() as connection:
            exists = connection.execute(
                text("SELECT to_regclass('memfold_schema_version')")).scalar()
            if exists is None:
                return None
            return connection.execute(
                text("SELECT version_num FROM memfold_schema_version")).scalar()
    except Exception as exc:  # SQLAlchemy wraps the driver's errors
        raise MemfoldError(f"cannot read the schema version: {one_line(exc)}") from None
    finally:
        engine.dispose()


def upgrade(url: str, target: str = "head") -> tuple[str | None, str]:
    """Bring the database to `target`; returns (version before, version after)."""
    from alembic import command  # the server extra

    before = current(url)
    try:
        command.upgrade(_config(url), target)
    except Exception as exc:
        raise MemfoldError(f"the schema upgrade failed, nothing of it was kept: "
                           f"{one_line(exc)}") from None
    return before, current(url) or ""
