"""Per-host gaps shared across daemons: the ``host`` table on PostgreSQL (watcher.hosts)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from itertools import pairwise
from pathlib import Path

import pytest
from aiohttp import web
from pg import fresh_postgres_database
from servers import StaticSite, serve
from sqlalchemy import text

from watcher.fetch import Fetcher, FetchSettings, HostGate, LocalHostGate
from watcher.hosts import DatabaseHostGate, prune_hosts, shared_host_gate
from watcher.pipeline import open_services
from watcher.store.db import Database

GAP = 0.3
#: Request starts are booked on the database's clock and measured on arrival at the server;
#: the two differ by round trips and event-loop wake-ups (tens of ms on a loaded machine).
TOLERANCE = 0.05
DAEMONS = 3
PAGES_EACH = 3


@pytest.fixture
def postgres_url() -> Iterator[str]:
    with fresh_postgres_database() as url:
        db = Database(url)
        db.ensure_schema()
        db.engine.dispose()
        yield url


@pytest.fixture
def site() -> Iterator[tuple[StaticSite, str]]:
    pages = {f"/d{d}/p{p}": f"<h1>page {p} of daemon {d}</h1>" for d in range(DAEMONS) for p in range(PAGES_EACH)}
    static = StaticSite(pages)
    with serve(static.app()) as base_url:
        yield static, base_url


def _request_times(static: StaticSite) -> list[float]:
    return sorted(t for d in range(DAEMONS) for p in range(PAGES_EACH) for t in static.times(f"/d{d}/p{p}"))


def _gaps(times: list[float]) -> list[float]:
    return [later - earlier for earlier, later in pairwise(times)]


def _kept_apart(times: list[float]) -> bool:
    """Whether requests arrived no sooner than their booked slots allow: the n-th at least n gaps
    after the first. A request a loaded machine sent late (a long gap) may be followed by one sent
    on time (a short gap); two daemons booking one slot would arrive together and fall a gap short."""
    return all(time - times[0] >= index * GAP - TOLERANCE for index, time in enumerate(times))


async def _fetch_own_pages(fetcher: Fetcher, base_url: str, daemon: int) -> None:
    # Concurrently, as a daemon checks its claimed sources: only the gate spaces them out.
    urls = [f"{base_url}/d{daemon}/p{p}" for p in range(PAGES_EACH)]
    await asyncio.gather(*(fetcher.fetch(url, obey_robots=False) for url in urls))


def _run_daemons_in_threads(run_one: Callable[[int, threading.Barrier], object]) -> None:
    """Run ``run_one(daemon, barrier)`` in a thread per daemon, each with its own event loop."""
    barrier = threading.Barrier(DAEMONS)
    errors: list[BaseException] = []

    def target(daemon: int) -> None:
        try:
            asyncio.run(run_one(daemon, barrier))  # type: ignore[arg-type]
        except BaseException as exc:  # re-raised in the test thread below
            errors.append(exc)

    threads = [threading.Thread(target=target, args=(d,)) for d in range(DAEMONS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors


def test_daemons_on_one_postgres_keep_the_gap_between_them(postgres_url: str, site: tuple[StaticSite, str]) -> None:
    static, base_url = site
    settings = FetchSettings(host_delay=GAP, per_host_limit=PAGES_EACH, retries=0)

    async def daemon(number: int, barrier: threading.Barrier) -> None:
        # Each "daemon" has its own engine and its services built as `watcher daemon` builds them.
        db = Database(postgres_url)
        try:
            async with open_services(db, None, settings=settings, notifiers=()) as services:
                await asyncio.to_thread(barrier.wait)
                await _fetch_own_pages(services.fetcher, base_url, number)
        finally:
            db.engine.dispose()

    _run_daemons_in_threads(daemon)

    times = _request_times(static)
    assert len(times) == DAEMONS * PAGES_EACH
    assert _kept_apart(times), _gaps(times)
    # Booked back to back, not spaced further than needed.
    assert times[-1] - times[0] <= (len(times) - 1) * GAP + 0.5


def test_without_a_shared_gate_each_daemon_keeps_only_its_own_gap(site: tuple[StaticSite, str]) -> None:
    """The failure the shared gate prevents: in-process gates let daemons hit a host together."""
    static, base_url = site
    settings = FetchSettings(host_delay=GAP, per_host_limit=PAGES_EACH, retries=0)

    async def daemon(number: int, barrier: threading.Barrier) -> None:
        async with Fetcher(settings) as fetcher:
            await asyncio.to_thread(barrier.wait)
            await _fetch_own_pages(fetcher, base_url, number)

    _run_daemons_in_threads(daemon)

    times = _request_times(static)
    assert len(times) == DAEMONS * PAGES_EACH
    assert min(_gaps(times)) < GAP / 2
    for number in range(DAEMONS):
        own = sorted(t for p in range(PAGES_EACH) for t in static.times(f"/d{number}/p{p}"))
        assert _kept_apart(own), _gaps(own)


class _BusyHost:
    """A loopback host whose pages take ``seconds`` to answer; it records the most requests in flight at once."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.in_flight = 0
        self.most_in_flight = 0
        self.requests = 0

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/{tail:.*}", self._handle)
        return app

    async def _handle(self, request: web.Request) -> web.Response:
        # Runs on the server's one event loop: no lock needed.
        self.requests += 1
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self.seconds)
        finally:
            self.in_flight -= 1
        return web.Response(text="<h1>slow page</h1>", content_type="text/html")


@pytest.mark.parametrize("shared", [True, False], ids=["shared-slots", "per-process-slots"])
def test_daemons_on_one_postgres_share_the_per_host_limit(postgres_url: str, shared: bool) -> None:
    host = _BusyHost(0.2)
    limit = 2
    settings = FetchSettings(host_delay=0.0, per_host_limit=limit, retries=0)
    with serve(host.app()) as base_url:

        async def daemon(number: int, barrier: threading.Barrier) -> None:
            db = Database(postgres_url)
            gate = None if shared else LocalHostGate()
            try:
                async with open_services(db, None, settings=settings, notifiers=(), host_gate=gate) as services:
                    await asyncio.to_thread(barrier.wait)
                    await _fetch_own_pages(services.fetcher, base_url, number)
            finally:
                db.engine.dispose()

        _run_daemons_in_threads(daemon)

    assert host.requests == DAEMONS * PAGES_EACH
    if shared:
        assert host.most_in_flight == limit
    else:
        assert host.most_in_flight > limit


async def test_a_dead_daemons_slots_are_free_at_once(postgres_url: str) -> None:
    first_db, second_db = Database(postgres_url), Database(postgres_url)
    first, second = DatabaseHostGate(first_db), DatabaseHostGate(second_db)
    try:
        async with first.slot("busy.example:443", 1):
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(_take_slot(second, "busy.example:443"), 0.3)
            # The first daemon dies: PostgreSQL ends its session, and its locks with it.
            with first_db.engine.connect() as admin:
                admin.execute(
                    text(
                        "SELECT pg_terminate_backend(pid) FROM pg_locks"
                        " WHERE locktype = 'advisory' AND pid <> pg_backend_pid()"
                        " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                    )
                )
            await asyncio.wait_for(_take_slot(second, "busy.example:443"), 2.0)
    finally:
        await first.aclose()
        await second.aclose()
        first_db.engine.dispose()
        second_db.engine.dispose()


async def _take_slot(gate: DatabaseHostGate, host: str) -> None:
    async with gate.slot(host, 1):
        pass


async def test_reservations_follow_each_other_per_host(postgres_url: str) -> None:
    db = Database(postgres_url)
    try:
        gate = DatabaseHostGate(db)
        first = await gate.reserve("a.example:443", 5.0)
        second = await gate.reserve("a.example:443", 5.0)
        other_host = await gate.reserve("b.example:443", 5.0)
        no_gap = await gate.reserve("a.example:443", 0.0)
    finally:
        db.engine.dispose()
    assert first == 0.0
    assert 4.5 < second <= 5.0
    assert other_host == 0.0
    assert no_gap == 0.0


async def test_hosts_idle_for_a_day_are_pruned(postgres_url: str) -> None:
    db = Database(postgres_url)
    try:
        gate = DatabaseHostGate(db)
        await gate.reserve("recent.example:443", 1.0)
        await gate.reserve("idle.example:443", 1.0)
        with db.engine.begin() as conn:
            conn.execute(text("UPDATE host SET next_request_at = now() - interval '25 hours' WHERE name LIKE 'idle%'"))
        assert prune_hosts(db) == 1
        with db.engine.connect() as conn:
            left = [row[0] for row in conn.execute(text("SELECT name FROM host"))]
        # A pruned host is simply booked afresh.
        assert await gate.reserve("idle.example:443", 1.0) == 0.0
    finally:
        db.engine.dispose()
    assert left == ["recent.example:443"]


async def test_unreachable_database_falls_back_to_the_process_gap() -> None:
    # Nothing listens on port 1: the reservation fails at once and the local gate answers.
    db = Database("postgresql://watcher@127.0.0.1:1/nowhere?connect_timeout=2")
    try:
        gate = DatabaseHostGate(db, fallback=LocalHostGate())
        first = await gate.reserve("a.example:443", 5.0)
        second = await gate.reserve("a.example:443", 5.0)
        async with gate.slot("a.example:443", 1) as slot:
            assert slot is None  # no shared slot: the Fetcher's own limit still holds
    finally:
        db.engine.dispose()
    assert first == 0.0
    assert 4.5 < second <= 5.0


def test_sqlite_keeps_the_in_process_gate(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'watcher.db'}")
    assert shared_host_gate(db) is None
    assert shared_host_gate(None) is None
    with pytest.raises(ValueError, match="PostgreSQL"):
        DatabaseHostGate(db)


async def test_local_gate_books_starts_a_gap_apart_on_its_clock() -> None:
    now = [100.0]
    gate: HostGate = LocalHostGate(lambda: now[0])
    assert await gate.reserve("h:1", 2.0) == 0.0
    assert await gate.reserve("h:1", 2.0) == 2.0
    now[0] = 103.0
    assert await gate.reserve("h:1", 2.0) == 1.0
    assert await gate.reserve("other:1", 2.0) == 0.0
