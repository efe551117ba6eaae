"""The daemon: checks due sources on schedule until stopped, alone or beside other daemons.

APScheduler (3.x, ``AsyncIOScheduler``) drives the ticks; the database says what is due
(``watcher.schedule``). Each tick claims due sources with a lease, up to the free check
slots, and checks them concurrently with ONE shared ``Fetcher`` (per-host limits and the
gap between requests to a host hold across all of this daemon's checks). A finished check
sets the source's next due time and drops the lease; a freed slot claims more at once, so
a backlog drains without waiting for the next tick.

Several daemons may share one PostgreSQL: ``FOR UPDATE SKIP LOCKED`` plus leases make each
due check run in exactly one of them. A daemon renews the leases of its running checks
every third of ``lease`` (from a thread of its own), so a slow check keeps its source; a daemon killed with -9 stops
renewing, its leases expire within ``lease``, and the others pick its sources up.

Per-host politeness is per daemon: N daemons may each hold up to ``per_host_limit``
requests to one host, each keeping its own gap between requests. A site shared by very
many sources is best served by fewer daemons or a lower ``per_host_limit``.

SQLite allows one daemon per database file, enforced by an exclusive lock on
``<dbfile>.daemon.lock`` held for the daemon's lifetime.

Signals: SIGTERM/SIGINT stop claiming, let in-flight checks finish (up to ``grace``),
release the leases of unfinished ones, flush due deliveries and return. SIGHUP reloads the
config file and syncs its watch list (notification channels change on restart).

One structured log line per check (logfmt or JSON): source, status, duration_ms, items,
changes, error.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import os
import secrets
import signal
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from watcher.config import Config, load_config
from watcher.errors import ConfigError, StorageError, WatcherError
from watcher.schedule import claim_due_sources, finish_check, release_leases, renew_leases
from watcher.store.db import Database, utcnow

__all__ = [
    "CheckLine",
    "DaemonMetrics",
    "LineFormatter",
    "default_owner",
    "run_daemon",
    "sqlite_daemon_lock",
    "start_metrics",
]

log = logging.getLogger("watcher.daemon")

#: Serialises config syncs of daemons starting together on one PostgreSQL ("watc").
_SYNC_LOCK_KEY = 0x77617463


class ServicesFactory(Protocol):
    def __call__(self) -> AbstractAsyncContextManager[Any]: ...


def default_owner() -> str:
    """``host:pid:random``: unique per daemon run, readable in ``watcher status``."""
    return f"{socket.gethostname()[:80]}:{os.getpid()}:{secrets.token_hex(3)}"


# -- the SQLite guard ------------------------------------------------------------------


def _sqlite_file(db: Database) -> Path | None:
    if not db.is_sqlite:
        return None
    database = make_url(db.url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database).expanduser().resolve()


@contextlib.contextmanager
def sqlite_daemon_lock(db: Database) -> Iterator[Path | None]:
    """Hold ``<dbfile>.daemon.lock`` exclusively; a second daemon on the file gets ``StorageError``.

    No-op (yields None) on PostgreSQL, where daemons share the work through leases.
    """
    dbfile = _sqlite_file(db)
    if dbfile is None:
        yield None
        return
    lock_path = dbfile.with_name(dbfile.name + ".daemon.lock")
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "unknown"
            raise StorageError(
                f"another watcher daemon (pid {holder}) is already running on {dbfile}; SQLite allows one "
                f"daemon per database (use PostgreSQL to run several)"
            ) from exc
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield lock_path
    finally:
        os.close(fd)  # closing the descriptor drops the lock


# -- structured logs -------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class CheckLine:
    """The fields of the one log line a check produces."""

    source: str
    status: str
    duration_ms: int
    items: int = 0
    changes: int = 0
    error: str | None = None

    @classmethod
    def of(cls, outcome: Any) -> CheckLine:
        return cls(
            source=outcome.source,
            status=outcome.status,
            duration_ms=int(outcome.duration_ms),
            items=int(outcome.items),
            changes=int(outcome.changes),
            error=outcome.error,
        )

    def fields(self) -> dict[str, Any]:
        values: dict[str, Any] = {
            "source": self.source,
            "status": self.status,
            "duration_ms": self.duration_ms,
            "items": self.items,
            "changes": self.changes,
        }
        if self.error:
            values["error"] = self.error
        return values


def _logfmt_value(value: Any) -> str:
    text_value = str(value)
    if text_value and not any(c in text_value for c in ' ="\\\n\t'):
        return text_value
    escaped = text_value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


class LineFormatter(logging.Formatter):
    """One line per record, ``logfmt`` (``ts=… level=… event=… key=value``) or JSON.

    Structured fields come from ``extra={"fields": {...}}``; other records keep their message.
    """

    def __init__(self, style: str = "logfmt") -> None:
        super().__init__()
        if style not in {"logfmt", "json"}:
            raise ConfigError(f"unknown log format {style!r} (use logfmt or json)")
        self.style = style

    def format(self, record: logging.LogRecord) -> str:
        values: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "event": record.getMessage(),
        }
        if record.name != log.name:
            values["logger"] = record.name
        values.update(getattr(record, "fields", {}) or {})
        if record.exc_info:
            values["exception"] = self.formatException(record.exc_info)
        if self.style == "json":
            return json.dumps(values, ensure_ascii=False, default=str)
        return " ".join(f"{key}={_logfmt_value(value)}" for key, value in values.items())


# -- metrics ---------------------------------------------------------------------------


@dataclass
class DaemonMetrics:
    """Prometheus metrics of one daemon, in a registry of its own."""

    registry: Any
    checks: Any
    duration: Any
    due: Any
    pending: Any
    in_flight: Any
    server: Any = None

    def observe(self, line: CheckLine) -> None:
        self.checks.labels(status=line.status).inc()
        self.duration.observe(line.duration_ms / 1000)

    def close(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()


def start_metrics(port: int | None, address: str = "127.0.0.1") -> DaemonMetrics | None:
    """Serve metrics on ``address:port`` (None: no endpoint); needs ``prometheus-client``."""
    if port is None:
        return None
    try:
        import prometheus_client as prom
    except ImportError as exc:
        raise ConfigError(
            "the metrics endpoint needs prometheus-client: pip install 'watcher[metrics]'"
        ) from exc
    registry = prom.CollectorRegistry()
    metrics = DaemonMetrics(
        registry=registry,
        checks=prom.Counter("watcher_checks", "Checks finished, by status", ["status"], registry=registry),
        duration=prom.Histogram(
            "watcher_check_duration_seconds",
            "Time a check took",
            buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120),
            registry=registry,
        ),
        due=prom.Gauge("watcher_sources_due", "Active sources due and not leased", registry=registry),
        pending=prom.Gauge("watcher_deliveries_pending", "Deliveries waiting to be sent", registry=registry),
        in_flight=prom.Gauge("watcher_checks_in_flight", "Checks running in this daemon", registry=registry),
    )
    try:
        server, _thread = prom.start_http_server(port, addr=address, registry=registry)
    except OSError as exc:
        raise ConfigError(f"cannot serve metrics on {address}:{port}: {exc.strerror}") from exc
    metrics.server = server
    return metrics


# -- the daemon ------------------------------------------------------------------------


class _LeaseKeeper:
    """Renews the leases of running checks from a thread of its own, every third of a lease.

    A thread, not a scheduler job: checks do blocking database work on the event loop and
    the loop's worker threads may all be busy, and neither may delay a renewal past the
    lease. A check running longer than ``max_hold`` is no longer renewed, so a hung check
    gives its source up within one lease.
    """

    def __init__(
        self, db: Database, owner: str, lease: timedelta, now: Callable[[], datetime], max_hold: timedelta
    ) -> None:
        self.db, self.owner, self.lease, self.now, self.max_hold = db, owner, lease, now, max_hold
        self._held: dict[int, float] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="watcher-lease-keeper", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def hold(self, source_ids: list[int]) -> None:
        started = time.monotonic()
        with self._lock:
            self._held.update((source_id, started) for source_id in source_ids)

    def drop(self, source_id: int) -> None:
        with self._lock:
            self._held.pop(source_id, None)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(self.lease.total_seconds() / 3):
            oldest = time.monotonic() - self.max_hold.total_seconds()
            with self._lock:
                ids = [source_id for source_id, started in self._held.items() if started >= oldest]
            if not ids:
                continue
            try:
                renew_leases(self.db, self.owner, ids, self.now(), lease=self.lease)
            except WatcherError as exc:
                log.error("renew-failed", extra={"fields": {"error": str(exc)}})


@dataclass(kw_only=True)
class _Daemon:
    """One daemon run's moving parts (created and owned by ``run_daemon``)."""

    db: Database
    services: Any
    owner: str
    lease: timedelta
    max_parallel: int
    now: Callable[[], datetime]
    metrics: DaemonMetrics | None
    keeper: _LeaseKeeper
    in_flight: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    stopping: bool = False
    claim_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    backlog: bool = False
    #: Fire-and-forget tasks (refills, reloads), referenced so they are not collected mid-run.
    background: set[asyncio.Task[None]] = field(default_factory=set)

    def spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def tick(self) -> None:
        """The scheduler's job: start a claim in a task of its own, so the job returns at once
        and a shutdown of the scheduler never cancels a claim half-way."""
        if not self.stopping and not self.claim_lock.locked():
            self.spawn(self.claim_and_start())

    async def claim_and_start(self) -> None:
        """Claim due sources for the free slots and start their checks."""
        if self.stopping or self.claim_lock.locked():
            return
        async with self.claim_lock:
            free = self.max_parallel - len(self.in_flight)
            if free <= 0:
                self.backlog = True
                return
            try:
                ids = await asyncio.to_thread(
                    claim_due_sources, self.db, self.owner, self.now(), lease=self.lease, limit=free
                )
            except WatcherError as exc:
                log.error("claim-failed", extra={"fields": {"error": str(exc)}})
                return
            if self.stopping:
                await asyncio.to_thread(release_leases, self.db, self.owner, ids)
                return
            # A full batch suggests more is due: refill as soon as a slot frees up.
            self.backlog = len(ids) == free
            self.keeper.hold(ids)
            for source_id in ids:
                task = asyncio.create_task(self.check(source_id), name=f"check-{source_id}")
                self.in_flight[source_id] = task
            if self.metrics:
                self.metrics.in_flight.set(len(self.in_flight))

    async def check(self, source_id: int) -> None:
        from watcher.pipeline import CheckOutcome, check_source

        try:
            outcome = await check_source(self.services, source_id)
        except WatcherError as exc:
            outcome = CheckOutcome(source=f"#{source_id}", url="", status="error", error=str(exc))
        except Exception as exc:  # the daemon outlives any one check's bug
            log.exception("check-crashed", extra={"fields": {"source_id": source_id}})
            outcome = CheckOutcome(source=f"#{source_id}", url="", status="error", error=repr(exc))
        try:
            kept = await asyncio.to_thread(finish_check, self.db, source_id, self.owner, outcome, self.now())
            if not kept:
                log.warning("lease-lost", extra={"fields": {"source": outcome.source, "source_id": source_id}})
        except WatcherError as exc:  # the lease expires and another try comes later
            log.error("finish-failed", extra={"fields": {"source_id": source_id, "error": str(exc)}})
        finally:
            self.in_flight.pop(source_id, None)
            self.keeper.drop(source_id)
        line = CheckLine.of(outcome)
        log.info("check", extra={"fields": line.fields()})
        if self.metrics:
            self.metrics.observe(line)
            self.metrics.in_flight.set(len(self.in_flight))
        if self.backlog and not self.stopping:
            self.spawn(self.claim_and_start())

    async def dispatch(self) -> None:
        """Send due deliveries (notify's outbox), one batch per call."""
        if not self.services.notifiers:
            return
        from watcher.notify.outbox import dispatch_pending

        try:
            report = await dispatch_pending(self.db, self.services.notifiers, self.now)
        except WatcherError as exc:
            log.error("dispatch-failed", extra={"fields": {"error": str(exc)}})
            return
        if report.sent or report.retrying or report.failed:
            log.info(
                "deliveries",
                extra={"fields": {"sent": report.sent, "retrying": report.retrying, "failed": report.failed}},
            )

    async def housekeeping(self) -> None:
        """Hourly: forget hosts idle for a day in the shared host gate's table."""
        from watcher.hosts import prune_hosts

        try:
            pruned = await asyncio.to_thread(prune_hosts, self.db)
        except SQLAlchemyError as exc:
            log.warning("housekeeping-failed", extra={"fields": {"error": str(exc)}})
            return
        if pruned:
            log.info("hosts-pruned", extra={"fields": {"hosts": pruned}})

    async def refresh_gauges(self) -> None:
        if self.metrics is None:
            return
        from watcher.status import count_due_and_pending

        try:
            due, pending = await asyncio.to_thread(count_due_and_pending, self.db, self.now())
        except WatcherError:
            return
        self.metrics.due.set(due)
        self.metrics.pending.set(pending)

    async def drain(self, grace: timedelta) -> int:
        """Wait up to ``grace`` for in-flight checks, cancel the rest and release their leases."""
        self.stopping = True
        async with self.claim_lock:  # a claim in progress finishes (and releases its batch) first
            tasks = list(self.in_flight.values())
        unfinished = 0
        if tasks:
            _done, pending = await asyncio.wait(tasks, timeout=grace.total_seconds())
            unfinished = len(pending)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
        released = await asyncio.to_thread(release_leases, self.db, self.owner)
        return max(released, unfinished)


def sync_config(db: Database, config: Config, now: datetime) -> Any:
    """Load ``config``'s watch list into the database; daemons starting together take turns."""
    from watcher.sources import sync_sources

    with db.session() as session:
        if not db.is_sqlite:
            session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _SYNC_LOCK_KEY})
        return sync_sources(session, config, now)


def _load_and_sync(db: Database, config_path: str | os.PathLike[str], now: datetime) -> Any:
    config = load_config(config_path)
    report = sync_config(db, config, now)
    log.info(
        "config-synced",
        extra={
            "fields": {
                "config": str(config_path),
                "added": len(report.added),
                "updated": len(report.updated),
                "removed": len(report.removed),
            }
        },
    )
    return report


@contextlib.contextmanager
def _signal_handlers(loop: asyncio.AbstractEventLoop, handlers: Mapping[int, Callable[[], None]]) -> Iterator[None]:
    """Install loop signal handlers (main thread only) and restore the defaults after."""
    installed = []
    for signum, handler in handlers.items():
        try:
            loop.add_signal_handler(signum, handler)
        except (RuntimeError, ValueError):  # not the main thread: the caller stops us
            continue
        installed.append(signum)
    try:
        yield
    finally:
        for signum in installed:
            loop.remove_signal_handler(signum)


@contextlib.asynccontextmanager
async def _scheduler(daemon: _Daemon, tick: timedelta, dispatch_every: timedelta) -> AsyncIterator[None]:
    scheduler = AsyncIOScheduler(event_loop=asyncio.get_running_loop(), timezone=UTC)
    every = {"max_instances": 1, "coalesce": True, "misfire_grace_time": None}
    scheduler.add_job(
        daemon.tick, "interval", seconds=tick.total_seconds(), id="claim",
        next_run_time=datetime.now(UTC), **every,
    )
    scheduler.add_job(
        daemon.dispatch, "interval", seconds=dispatch_every.total_seconds(), id="dispatch",
        next_run_time=datetime.now(UTC), **every,
    )
    scheduler.add_job(
        daemon.refresh_gauges, "interval", seconds=15, id="gauges", next_run_time=datetime.now(UTC), **every
    )
    scheduler.add_job(daemon.housekeeping, "interval", hours=1, id="housekeeping", **every)
    scheduler.start()
    try:
        yield
    finally:
        scheduler.shutdown(wait=False)


async def run_daemon(
    db: Database,
    config_path: str | os.PathLike[str] | None,
    services_factory: ServicesFactory,
    *,
    owner: str | None = None,
    tick: timedelta = timedelta(seconds=5),
    lease: timedelta = timedelta(minutes=10),
    max_parallel: int = 32,
    stop_event: asyncio.Event | None = None,
    now: Callable[[], datetime] = utcnow,
    grace: timedelta = timedelta(seconds=30),
    dispatch_every: timedelta | None = None,
    metrics: DaemonMetrics | None = None,
    feeds: tuple[str, int] | None = None,
    web: Any = None,
) -> None:
    """Run until ``stop_event`` is set or SIGTERM/SIGINT arrives; return after a clean shutdown.

    ``feeds`` (address, port) serves the Atom feeds of the recorded changes over HTTP.
    ``web`` (``watcher.web.WebSettings``) serves the dashboard, its API and the same feeds.

    ``config_path`` (optional) is synced into the database on start and on SIGHUP. On
    SQLite a second daemon on the same file raises ``StorageError`` before doing anything.
    """
    if max_parallel < 1:
        raise ConfigError(f"max_parallel must be at least 1, got {max_parallel}")
    if lease <= tick:
        raise ConfigError(f"the lease ({lease}) must be longer than the tick ({tick})")
    stop = stop_event or asyncio.Event()
    owner = owner or default_owner()
    loop = asyncio.get_running_loop()
    with sqlite_daemon_lock(db):
        await asyncio.to_thread(db.ensure_schema)
        if config_path is not None:
            await asyncio.to_thread(_load_and_sync, db, config_path, now())

        keeper = _LeaseKeeper(db, owner, lease, now, max_hold=max(lease * 3, timedelta(minutes=15)))
        async with services_factory() as services:
            daemon = _Daemon(
                db=db, services=services, owner=owner, lease=lease, max_parallel=max_parallel, now=now,
                metrics=metrics, keeper=keeper,
            )

            def reload() -> None:
                if config_path is not None:
                    daemon.spawn(_reload(db, config_path, now))

            handlers = {signal.SIGTERM: stop.set, signal.SIGINT: stop.set, signal.SIGHUP: reload}
            keeper.start()
            try:
                with _signal_handlers(loop, handlers):
                    # Said only once the handlers are in: a SIGHUP sent on this line must reload, not kill.
                    log.info(
                        "daemon-started",
                        extra={"fields": {"owner": owner, "database": db.display_url, "tick_s": tick.total_seconds()}},
                    )
                    async with contextlib.AsyncExitStack() as serving:
                        if feeds is not None:
                            from watcher.notify.feed import serve_feeds

                            port = await serving.enter_async_context(serve_feeds(db, *feeds, now))
                            log.info("feeds-served", extra={"fields": {"url": f"http://{feeds[0]}:{port}/feed.atom"}})
                        if web is not None:
                            from watcher.web.app import serve_web

                            port = await serving.enter_async_context(serve_web(db, web, now=now))
                            url = web.url.rsplit(":", 1)[0] + f":{port}/"
                            log.info("web-served", extra={"fields": {"url": url, "writes": web.allow_writes}})
                        async with _scheduler(daemon, tick, dispatch_every or max(tick, timedelta(seconds=5))):
                            await stop.wait()
                            log.info("daemon-stopping", extra={"fields": {"in_flight": len(daemon.in_flight)}})
                        released = await daemon.drain(grace)
            finally:
                await asyncio.to_thread(keeper.stop)
            await _flush_deliveries(daemon)
            log.info("daemon-stopped", extra={"fields": {"owner": owner, "released": released}})


async def _reload(db: Database, config_path: str | os.PathLike[str], now: Callable[[], datetime]) -> None:
    try:
        await asyncio.to_thread(_load_and_sync, db, config_path, now())
    except WatcherError as exc:  # a bad edit must not stop a running daemon
        log.error("config-reload-failed", extra={"fields": {"config": str(config_path), "error": str(exc)}})


async def _flush_deliveries(daemon: _Daemon, timeout: float = 10.0) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(daemon.dispatch(), timeout)
