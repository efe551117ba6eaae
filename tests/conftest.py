"""Shared pytest fixtures."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from servers import StaticSite, serve


@pytest.fixture
def static_site() -> Iterator[tuple[StaticSite, str]]:
    """An empty ``StaticSite`` served on loopback: ``(site, base_url)``; fill it with ``site.set``."""
    site = StaticSite()
    with serve(site.app()) as base_url:
        yield site, base_url
