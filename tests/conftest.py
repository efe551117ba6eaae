"""Shared pytest fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pg import fresh_postgres_database
from servers import StaticSite, serve

from watcher.store.db import Database


@pytest.fixture
def static_site() -> Iterator[tuple[StaticSite, str]]:
    """An empty ``StaticSite`` served on loopback: ``(site, base_url)``; fill it with ``site.set``."""
    site = StaticSite()
    with serve(site.app()) as base_url:
        yield site, base_url


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database URL for an empty database: a SQLite file, and a fresh PostgreSQL database
    when ``WATCHER_TEST_POSTGRES_URL`` names a server (skipped with the reason otherwise)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'watcher.db'}"
        return
    with fresh_postgres_database() as url:
        yield url


@pytest.fixture
def database(db_url: str) -> Iterator[Database]:
    """A migrated database on SQLite and on PostgreSQL."""
    db = Database(db_url)
    db.ensure_schema()
    yield db
    db.dispose()
