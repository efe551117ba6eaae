"""Per-host gaps shared by every daemon on one PostgreSQL database.

Each ``Fetcher`` keeps the gap between requests to one host within its own process
(``watcher.fetch.LocalHostGate``). Several daemons on one database would each keep their own
gap, so N daemons could hit a host N times as often. ``DatabaseHostGate`` books request starts
in the ``host`` table instead: one atomic upsert per request moves the host's next start time
on by the gap and tells this daemon when its own start is.

Only the database's clock is used (``now()``), so daemons on machines with skewed clocks agree.

The concurrency limit (``per_host_limit``) holds across daemons too: a request holds one of its
host's ``limit`` slots, a PostgreSQL session-level advisory lock ``(hash of host, slot)`` taken
on one connection the gate keeps. A daemon that dies (kill -9) loses its connection and so its
slots at once; no lease has to expire.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

from sqlalchemy import Connection, delete, func, literal, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.types import Interval

from watcher.fetch import HostGate, LocalHostGate
from watcher.store.db import Database
from watcher.store.models import Host

__all__ = ["HOST_IDLE", "DatabaseHostGate", "prune_hosts", "shared_host_gate"]

log = logging.getLogger(__name__)

#: A host not booked for this long has no gap left to keep: its row is deleted by ``prune_hosts``.
HOST_IDLE = timedelta(days=1)


class DatabaseHostGate:
    """A ``HostGate`` on the ``host`` table of a PostgreSQL database.

    Database calls run in worker threads so the event loop never waits on them. When the
    database cannot be reached the gate falls back for that request, with a warning: the gap
    is kept by ``fallback`` (a ``LocalHostGate`` by default) and the limit by the Fetcher's
    own per-process one. A request waiting for a slot asks again every ``poll`` seconds.
    """

    def __init__(self, db: Database, *, fallback: HostGate | None = None, poll: float = 0.05) -> None:
        if db.is_sqlite:
            raise ValueError("DatabaseHostGate needs PostgreSQL; on SQLite use the in-process gate")
        self._db = db
        self._fallback = fallback or LocalHostGate()
        self._poll = poll
        # The slots' connection and the slots taken on it; a session's advisory locks are
        # re-entrant, so the slots this process holds must be skipped by hand.
        self._lock = threading.Lock()
        self._connection: Connection | None = None
        self._held: set[tuple[str, int]] = set()

    async def reserve(self, host: str, gap: float) -> float:
        """Book the next start for ``host``; return the seconds (on the database's clock) to wait for it."""
        if gap <= 0:
            return 0.0
        try:
            return await asyncio.to_thread(self._reserve_now, host, gap)
        except SQLAlchemyError as exc:
            log.warning("host gate: database unreachable, keeping the gap for %s in this process only: %s", host, exc)
            return await self._fallback.reserve(host, gap)

    def _reserve_now(self, host: str, gap: float) -> float:
        # One statement, so one row lock: concurrent reservations for a host queue on it and each
        # sees the previous one's booking. The new next_request_at is our start plus the gap.
        # Imported here: a check on SQLite imports this module but never books through it, and
        # the PostgreSQL dialect takes 40 ms to import.
        from sqlalchemy.dialects.postgresql import insert

        step = literal(timedelta(seconds=gap), Interval())
        booked = insert(Host).values(name=host, next_request_at=func.now() + step)
        booked = booked.on_conflict_do_update(
            index_elements=[Host.name],
            set_={"next_request_at": func.greatest(Host.next_request_at, func.now()) + step},
        ).returning(func.extract("epoch", Host.next_request_at - func.now()))
        with self._db.engine.begin() as conn:
            until_next = float(conn.execute(booked).scalar_one())
        return max(0.0, until_next - gap)

    @asynccontextmanager
    async def slot(self, host: str, limit: int) -> AsyncIterator[object]:
        """Hold one of ``host``'s ``limit`` slots, shared by every daemon on the database."""
        index = await self._acquire(host, limit)
        try:
            yield index
        finally:
            if index is not None:
                await asyncio.to_thread(self._release, host, index)

    async def aclose(self) -> None:
        """Close the slots' connection; the slots still held are released with it."""
        await asyncio.to_thread(self._drop_connection)

    async def _acquire(self, host: str, limit: int) -> int | None:
        while True:
            try:
                index = await asyncio.to_thread(self._try_slots, host, limit)
            except SQLAlchemyError as exc:
                log.warning("host gate: database unreachable, limiting %s in this process only: %s", host, exc)
                return None
            if index is not None:
                return index
            await asyncio.sleep(self._poll)

    def _try_slots(self, host: str, limit: int) -> int | None:
        key = _lock_key(host)
        with self._lock:
            try:
                conn = self._slots_connection()
                for index in range(limit):
                    if (host, index) in self._held:
                        continue
                    if conn.execute(select(func.pg_try_advisory_lock(key, index))).scalar_one():
                        self._held.add((host, index))
                        return index
            except SQLAlchemyError:
                self._drop_connection_locked()
                raise
        return None

    def _release(self, host: str, index: int) -> None:
        with self._lock:
            if (host, index) not in self._held or self._connection is None:
                return  # the connection was lost, and the slot with it
            self._held.discard((host, index))
            try:
                self._connection.execute(select(func.pg_advisory_unlock(_lock_key(host), index)))
            except SQLAlchemyError as exc:
                log.warning("host gate: could not release a slot of %s, reconnecting: %s", host, exc)
                self._drop_connection_locked()

    def _slots_connection(self) -> Connection:
        if self._connection is None:
            # Autocommit: the locks are the session's, and the connection never idles in a transaction.
            self._connection = self._db.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        return self._connection

    def _drop_connection(self) -> None:
        with self._lock:
            self._drop_connection_locked()

    def _drop_connection_locked(self) -> None:
        connection, self._connection = self._connection, None
        self._held.clear()
        if connection is not None:
            # Invalidate, not close: a pooled connection would keep the session and its locks.
            try:
                connection.invalidate()
                connection.close()
            except SQLAlchemyError as exc:
                log.debug("host gate: closing the slots' connection failed: %s", exc)


def prune_hosts(db: Database, idle: timedelta = HOST_IDLE) -> int:
    """Delete the rows of hosts not booked for ``idle`` (on the database's clock); the number deleted.

    Every host ever fetched gets a row, so without this the table only grows. A pruned host's
    next booking simply inserts its row again. Nothing to do on SQLite, where the table is unused.
    """
    if db.is_sqlite:
        return 0
    cutoff = func.now() - literal(idle, Interval())
    with db.engine.begin() as conn:
        return conn.execute(delete(Host).where(Host.next_request_at < cutoff)).rowcount


def _lock_key(host: str) -> int:
    """A stable signed 32-bit advisory-lock key for ``host`` (``hash()`` differs per process)."""
    return int.from_bytes(hashlib.blake2b(host.encode(), digest_size=4).digest(), "big", signed=True)


def shared_host_gate(db: Database | None) -> HostGate | None:
    """The gate that daemons on ``db`` share: a ``DatabaseHostGate`` on PostgreSQL, else ``None``.

    ``None`` leaves the ``Fetcher`` its in-process gate, which is all a single daemon on
    SQLite (or a run without a database) needs.
    """
    if db is None or db.is_sqlite:
        return None
    return DatabaseHostGate(db)
