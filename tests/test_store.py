"""Storage: migrations on SQLite and PostgreSQL, models and migrations agree, locked databases."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import event, select

from watcher.errors import ConfigError, StorageError
from watcher.sources import add_source
from watcher.store.db import SCHEMA_REVISION, Database, normalise_url, utcnow
from watcher.store.models import Base, Source, is_modelled

TABLES = {"source", "snapshot", "body", "item", "change", "delivery", "delivery_change"}


def test_migrations_create_every_table(database: Database) -> None:
    assert set(database.table_names()) >= TABLES


def test_models_and_migrations_agree(database: Database) -> None:
    """A model changed without a migration fails here."""
    with database.engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": False, "include_object": is_modelled})
        diffs = compare_metadata(context, Base.metadata)
    assert diffs == []


def test_schema_revision_is_the_newest_migration(database: Database) -> None:
    # ensure_schema trusts SCHEMA_REVISION to recognise a current database without Alembic.
    from alembic.script import ScriptDirectory

    assert ScriptDirectory.from_config(database.alembic_config()).get_current_head() == SCHEMA_REVISION


def test_ensure_schema_upgrades_a_database_that_is_behind(database: Database) -> None:
    database.downgrade("0002")
    assert "host" not in database.table_names()
    database.ensure_schema()
    assert "host" in database.table_names()
    database.ensure_schema()  # current: nothing to do
    assert set(database.table_names()) >= TABLES | {"host"}


def test_downgrade_to_base_and_back(database: Database) -> None:
    database.downgrade("base")
    assert not TABLES & set(database.table_names())
    database.upgrade()
    assert set(database.table_names()) >= TABLES


def test_timestamps_come_back_as_utc(database: Database) -> None:
    now = utcnow()
    with database.session() as session:
        add_source(session, "https://example.org/", now=now, name="x")
    with database.session() as session:
        source = session.scalars(select(Source)).one()
        assert source.created_at == now
        assert source.created_at.tzinfo is not None


def test_plain_postgresql_urls_use_psycopg() -> None:
    assert normalise_url("postgresql://me@db.example.org/watch").startswith("postgresql+psycopg://")
    assert normalise_url("postgres://me@db.example.org/watch").startswith("postgresql+psycopg://")


def test_unsupported_database_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unsupported database"):
        normalise_url("mysql://root@localhost/w")
    with pytest.raises(ConfigError, match="not a database URL"):
        normalise_url("::nonsense::")


def test_locked_sqlite_database_is_a_clear_storage_error(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'w.db'}")
    db.ensure_schema()
    # Another process holds the write lock; a short busy timeout keeps the test quick.
    blocker = sqlite3.connect(tmp_path / "w.db", isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        short = Database(f"sqlite:///{tmp_path / 'w.db'}")
        event.listen(short.engine, "connect", lambda c, _r: c.execute("PRAGMA busy_timeout=200"))
        with pytest.raises(StorageError, match="locked"), short.session() as session:
            add_source(session, "https://example.org/", now=utcnow(), name="x")
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    with db.session() as session:
        add_source(session, "https://example.org/", now=utcnow(), name="x")
