"""Per-host gaps shared by every daemon on one PostgreSQL database.

Each ``Fetcher`` keeps the gap between requests to one host within its own process
(``watcher.fetch.LocalHostGate``). Several daemons on one database would each keep their own
gap, so N daemons could hit a host N times as often. ``DatabaseHostGate`` books request starts
in the ``host`` table instead: one atomic upsert per request moves the host's next start time
on by the gap and tells this daemon when its own start is.

Only the database's clock is used (``now()``), so daemons on machines with skewed clocks agree.
The concurrency limit (``per_host_limit``) stays per process: across N daemons at most
N × limit requests to one host are in flight, while the gap bounds the rate of all together.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from sqlalchemy import func, literal
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.types import Interval

from watcher.fetch import HostGate, LocalHostGate
from watcher.store.db import Database
from watcher.store.models import Host

__all__ = ["DatabaseHostGate", "shared_host_gate"]

log = logging.getLogger(__name__)


class DatabaseHostGate:
    """A ``HostGate`` on the ``host`` table of a PostgreSQL database.

    Reservations run in a worker thread so the event loop never waits on the database. When
    the database cannot be reached the gate falls back to ``fallback`` (a ``LocalHostGate``
    by default) for that request and logs a warning: the gap then holds per process only.
    """

    def __init__(self, db: Database, *, fallback: HostGate | None = None) -> None:
        if db.is_sqlite:
            raise ValueError("DatabaseHostGate needs PostgreSQL; on SQLite use the in-process gate")
        self._db = db
        self._fallback = fallback or LocalHostGate()

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
        step = literal(timedelta(seconds=gap), Interval())
        booked = insert(Host).values(name=host, next_request_at=func.now() + step)
        booked = booked.on_conflict_do_update(
            index_elements=[Host.name],
            set_={"next_request_at": func.greatest(Host.next_request_at, func.now()) + step},
        ).returning(func.extract("epoch", Host.next_request_at - func.now()))
        with self._db.engine.begin() as conn:
            until_next = float(conn.execute(booked).scalar_one())
        return max(0.0, until_next - gap)


def shared_host_gate(db: Database | None) -> HostGate | None:
    """The gate that daemons on ``db`` share: a ``DatabaseHostGate`` on PostgreSQL, else ``None``.

    ``None`` leaves the ``Fetcher`` its in-process gate, which is all a single daemon on
    SQLite (or a run without a database) needs.
    """
    if db is None or db.is_sqlite:
        return None
    return DatabaseHostGate(db)
