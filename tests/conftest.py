"""Shared pytest fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from servers import StaticSite, serve

from watcher.store.db import Database


@pytest.fixture
def static_site() -> Iterator[tuple[StaticSite, str]]:
    """An empty ``StaticSite`` served on loopback: ``(site, base_url)``; fill it with ``site.set``."""
    site = StaticSite()
    with serve(site.app()) as base_url:
        yield site, base_url


def _postgres_admin_url() -> str | None:
    import os

    return os.environ.get("WATCHER_TEST_POSTGRES_URL")


@contextmanager
def fresh_postgres_database() -> Iterator[str]:
    """A new, empty PostgreSQL database on the test server, dropped afterwards.

    Each test gets its own, so tests (and engineers running them at once) never share tables.
    """
    import uuid

    import psycopg
    from sqlalchemy.engine import make_url

    base = make_url(_postgres_admin_url() or "")
    name = f"watcher_t_{uuid.uuid4().hex[:12]}"
    admin = base.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database URL for an empty database: a SQLite file, and a fresh PostgreSQL database
    when ``WATCHER_TEST_POSTGRES_URL`` names a server (skipped with the reason otherwise)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'watcher.db'}"
        return
    if not _postgres_admin_url():
        pytest.skip("WATCHER_TEST_POSTGRES_URL is not set (.ci/run sets it to the local PostgreSQL)")
    with fresh_postgres_database() as url:
        yield url


@pytest.fixture
def database(db_url: str) -> Iterator[Database]:
    """A migrated database on SQLite and on PostgreSQL."""
    db = Database(db_url)
    db.ensure_schema()
    yield db
    db.dispose()
