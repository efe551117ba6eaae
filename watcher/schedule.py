"""The schedule stage: when each source is due, and claiming due sources with a lease.

Which source is due lives in the database (``source.next_due_at``), never in memory, so
a restart neither forgets nor double-fires, and several daemons sharing one PostgreSQL
split the work between them.

Scheduling rules (all times UTC; ``now`` is always passed in, so tests inject a clock):

- A source never checked (``next_due_at`` is NULL) is due at once.
- Interval sources (``every_seconds``): next due = end of the check + interval + jitter.
  The next time is counted from when the check ended, never by catching up missed ticks:
  checks missed while the daemon was down run once on start, then the rhythm resumes.
- Cron sources (``cron`` with an optional IANA ``timezone``, UTC by default): next due =
  the next cron time after now, in that timezone (so "0 7 * * mon" stays 07:00 local
  across daylight-saving changes), plus jitter.
- Jitter: a fraction of the period (up to 10 %, at most 15 minutes), derived from a hash
  of the source id. It is the same on every run and every machine, so a thousand sources
  added at once spread over a window instead of firing together, and a restart does not
  reshuffle them. Jitter only ever delays: a page is never read more often than asked.
- Failures back off: after the n-th consecutive failure the delay is
  ``min(period * 2**(n-1), max(7 days, period))``, never shorter than the normal period
  (the fetcher already retries transient errors within one check; the schedule's job is to
  stop hammering a page that keeps failing). A server's ``Retry-After`` pushes the next
  try further when it asks for longer. Cron sources take the first cron time after
  ``now + backoff - period``, so the first failure keeps the normal next cron time.

Claiming: ``claim_due_sources`` marks due sources with a lease (owner, expiry) in one
statement. On PostgreSQL the candidate rows are selected ``FOR UPDATE SKIP LOCKED``, so
concurrent daemons never claim the same source and never wait on each other; on SQLite
the single ``UPDATE … RETURNING`` runs under SQLite's write lock, which gives the same
guarantee for the one daemon SQLite allows (plus ``watcher check`` run by hand). A daemon
that dies leaves leases that simply expire; the others then claim those sources.

The daemon renews the leases of its running checks (``renew_leases``) every third of a
lease, so a slow check keeps its source and a dead daemon's leases lapse within one lease.
Leases use each daemon's clock: daemons on several machines need synchronised clocks (NTP).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from croniter import croniter
from croniter.croniter import CroniterError
from sqlalchemy import ColumnElement, and_, or_, select, update

from watcher.errors import ConfigError
from watcher.store.db import Database
from watcher.store.models import Source

__all__ = [
    "JITTER_CAP",
    "JITTER_FRACTION",
    "MAX_BACKOFF",
    "CheckResult",
    "ScheduleSpec",
    "claim_due_sources",
    "finish_check",
    "jitter",
    "next_due_at",
    "release_leases",
    "renew_leases",
    "validate_schedule",
]

JITTER_FRACTION = 0.10
JITTER_CAP = timedelta(minutes=15)
MAX_BACKOFF = timedelta(days=7)


class ScheduleSpec(Protocol):
    """What scheduling reads from a source (a ``Source`` row satisfies it)."""

    id: int
    every_seconds: int
    cron: str | None
    timezone: str | None
    failures: int


class CheckResult(Protocol):
    """What ``finish_check`` reads from a check's outcome (``pipeline.CheckOutcome``)."""

    status: str


def _zone(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ConfigError(f"unknown timezone {name!r} (use an IANA name such as Europe/Paris)") from exc


def _cron(expression: str, start: datetime) -> croniter:
    try:
        return croniter(expression, start)
    except (CroniterError, ValueError, KeyError) as exc:
        raise ConfigError(f"not a cron expression: {expression!r}") from exc


def validate_schedule(cron: str | None, timezone: str | None) -> None:
    """Raise ``ConfigError`` for a bad cron expression or timezone (config loading calls it)."""
    zone = _zone(timezone)
    if cron:
        _cron(cron, datetime.now(zone))


def jitter(source_id: int, period: timedelta) -> timedelta:
    """A stable delay in ``[0, min(10 % of period, 15 min))`` derived from the source id."""
    digest = hashlib.blake2b(str(source_id).encode(), digest_size=8).digest()
    fraction = int.from_bytes(digest, "big") / 2**64
    window = min(period * JITTER_FRACTION, JITTER_CAP)
    return timedelta(seconds=round(window.total_seconds() * fraction, 3))


def _backoff(period: timedelta, failures: int) -> timedelta:
    """Delay after the ``failures``-th failure in a row: doubling, capped, never below ``period``."""
    exponent = min(max(failures, 1) - 1, 30)  # 2**30 periods is past any cap
    return min(period * 2**exponent, max(MAX_BACKOFF, period))


def _next_cron_time(expression: str, zone: ZoneInfo, after: datetime) -> datetime:
    return _cron(expression, after.astimezone(zone)).get_next(datetime)


def _cron_period(expression: str, zone: ZoneInfo, after: datetime) -> timedelta:
    """The gap between the next two cron times: the period jitter and backoff scale with."""
    it = _cron(expression, after.astimezone(zone))
    first = it.get_next(datetime)
    return it.get_next(datetime) - first


def next_due_at(
    source: ScheduleSpec, now: datetime, *, failed: bool, retry_after: float | None = None
) -> datetime:
    """When ``source`` is due next after a check that ended at ``now`` (aware UTC).

    ``failed`` means the check ended in error (``source.failures`` counts the failures in
    a row, this one included); ``retry_after`` is a server's Retry-After in seconds.
    """
    if source.cron:
        zone = _zone(source.timezone)
        period = _cron_period(source.cron, zone, now)
        start = now + _backoff(period, source.failures) - period if failed else now
        base = _next_cron_time(source.cron, zone, start)
    else:
        period = timedelta(seconds=max(int(source.every_seconds), 1))
        base = now + (_backoff(period, source.failures) if failed else period)
    due = base.astimezone(now.tzinfo) + jitter(source.id, period)
    if retry_after is not None and retry_after > 0:
        due = max(due, now + timedelta(seconds=retry_after))
    return due


def _is_due(now: datetime) -> ColumnElement[bool]:
    return and_(
        Source.active.is_(True),
        Source.paused.is_(False),
        or_(Source.next_due_at.is_(None), Source.next_due_at <= now),
        or_(Source.lease_expires_at.is_(None), Source.lease_expires_at < now),
    )


def claim_due_sources(db: Database, owner: str, now: datetime, *, lease: timedelta, limit: int) -> list[int]:
    """Lease up to ``limit`` due sources to ``owner`` until ``now + lease``; their ids, most overdue first.

    A source is due when it is active, its next due time has come (or it was never
    checked) and no unexpired lease holds it. One statement does the select and the
    update; PostgreSQL's ``FOR UPDATE SKIP LOCKED`` lets concurrent claimers pass over each
    other's rows instead of waiting or double-claiming.
    """
    if limit <= 0:
        return []
    candidates = (
        select(Source.id)
        .where(_is_due(now))
        .order_by(Source.next_due_at.asc().nulls_first(), Source.id)
        .limit(limit)
        # SQLite's dialect renders no FOR UPDATE: its write lock serialises the claim.
        .with_for_update(skip_locked=True)
    )
    # Materialised on PostgreSQL: a subquery inlined into the UPDATE may be re-run per row,
    # and with SKIP LOCKED each run skips the rows the last one locked, claiming past ``limit``.
    due = candidates.cte("due").prefix_with("MATERIALIZED", dialect="postgresql")
    claim = (
        update(Source)
        .where(Source.id.in_(select(due.c.id)))
        # Re-check inside the UPDATE: on PostgreSQL a row may have changed between the
        # subquery's snapshot and the lock (READ COMMITTED re-evaluates this predicate).
        .where(_is_due(now))
        .values(lease_owner=owner, lease_expires_at=now + lease)
        .returning(Source.id, Source.next_due_at)
        .execution_options(synchronize_session=False)
    )
    with db.session() as session:
        rows = session.execute(claim).all()
    rows.sort(key=lambda row: (row.next_due_at is not None, row.next_due_at or now, row.id))
    return [row.id for row in rows]


def finish_check(db: Database, source_id: int, owner: str, outcome: CheckResult, now: datetime) -> bool:
    """Set the source's next due time and drop ``owner``'s lease; False if the lease was lost.

    A lease that expired and went to another daemon is left alone: that daemon's check
    decides the next due time. ``outcome.status == "error"`` counts as a failure; an
    optional ``outcome.retry_after`` (seconds) is honoured.
    """
    failed = outcome.status == "error"
    retry_after: float | None = getattr(outcome, "retry_after", None)
    with db.session() as session:
        source = session.get(Source, source_id)
        if source is None or source.lease_owner != owner:
            return False
        spec = _Spec.of(source, failed=failed)
        due = next_due_at(spec, now, failed=failed, retry_after=retry_after)
        result = session.execute(
            update(Source)
            .where(Source.id == source_id, Source.lease_owner == owner)
            .values(next_due_at=due, lease_owner=None, lease_expires_at=None)
            .execution_options(synchronize_session=False)
        )
        return bool(result.rowcount)


def renew_leases(db: Database, owner: str, source_ids: list[int], now: datetime, *, lease: timedelta) -> int:
    """Extend ``owner``'s leases on ``source_ids`` to ``now + lease``; how many it still held.

    A daemon renews the leases of its running checks every third of a lease, so a check
    slowed down by a busy host or machine keeps its source, while a daemon that died stops
    renewing and its leases expire within one lease.
    """
    if not source_ids:
        return 0
    with db.session() as session:
        result = session.execute(
            update(Source)
            .where(Source.lease_owner == owner, Source.id.in_(source_ids))
            .values(lease_expires_at=now + lease)
            .execution_options(synchronize_session=False)
        )
        return int(result.rowcount)


def release_leases(db: Database, owner: str, source_ids: list[int] | None = None) -> int:
    """Drop ``owner``'s leases (all, or those of ``source_ids``) so others may claim them now."""
    stmt = update(Source).where(Source.lease_owner == owner)
    if source_ids is not None:
        stmt = stmt.where(Source.id.in_(source_ids))
    with db.session() as session:
        result = session.execute(
            stmt.values(lease_owner=None, lease_expires_at=None).execution_options(synchronize_session=False)
        )
        return int(result.rowcount)


@dataclass(frozen=True, kw_only=True)
class _Spec:
    id: int
    every_seconds: int
    cron: str | None
    timezone: str | None
    failures: int

    @classmethod
    def of(cls, source: Source, *, failed: bool) -> _Spec:
        # A check that crashed before recording its failure still counts as one.
        failures = max(source.failures, 1) if failed else source.failures
        return cls(
            id=source.id,
            every_seconds=source.every_seconds,
            cron=source.cron,
            timezone=source.timezone,
            failures=failures,
        )
