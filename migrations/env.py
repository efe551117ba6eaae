"""Alembic environment bound to watcher's models.

The engine comes from ``watcher.store.db.Database`` (``config.attributes["engine"]``), or
from ``WATCHER_DATABASE_URL`` when alembic is run by hand.
"""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import Engine

from watcher.store.db import Database, default_database_url
from watcher.store.models import Base, is_modelled

target_metadata = Base.metadata


def _engine() -> Engine:
    engine = context.config.attributes.get("engine")
    if engine is None:
        engine = Database(os.environ.get("WATCHER_DATABASE_URL") or default_database_url()).engine
    return engine


def run_migrations_online() -> None:
    engine = _engine()
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=connection.dialect.name == "sqlite",
            compare_type=True,
            include_object=is_modelled,
        )
        with context.begin_transaction():
            context.run_migrations()
        connection.commit()


run_migrations_online()
