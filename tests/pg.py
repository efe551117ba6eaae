"""PostgreSQL for tests: a fresh database per test on the server named by
``WATCHER_TEST_POSTGRES_URL`` (``.ci/run`` sets it to the machine's local service)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
from sqlalchemy.engine import make_url

__all__ = ["POSTGRES_URL", "fresh_postgres_database", "postgres_or_skip"]

POSTGRES_URL = os.environ.get("WATCHER_TEST_POSTGRES_URL")
SKIP_REASON = "WATCHER_TEST_POSTGRES_URL is not set (.ci/run sets it to the local PostgreSQL)"


def postgres_or_skip() -> str:
    if not POSTGRES_URL:
        pytest.skip(SKIP_REASON)
    return POSTGRES_URL


@contextmanager
def fresh_postgres_database() -> Iterator[str]:
    """A new, empty database on the test server, dropped afterwards (with its connections).

    Each test gets its own, so tests, and several test runs at once, never share tables.
    """
    base = make_url(postgres_or_skip())
    name = f"watcher_t_{uuid.uuid4().hex[:12]}"
    admin = base.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
