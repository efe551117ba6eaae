"""What ``watcher status`` shows: the schedule's state, failing and suspect sources, leases, the outbox."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, or_, select

from watcher.store.db import Database
from watcher.store.models import Delivery, Source

__all__ = [
    "FailingSource",
    "LeaseHolder",
    "StatusReport",
    "collect_status",
    "count_due_and_pending",
    "render_status",
    "status_to_json",
]


@dataclass(frozen=True, kw_only=True)
class FailingSource:
    name: str
    url: str
    failures: int
    last_error: str | None
    last_checked_at: datetime | None
    next_try_at: datetime | None


@dataclass(frozen=True, kw_only=True)
class LeaseHolder:
    owner: str
    sources: int
    expires_at: datetime
    expired: bool


@dataclass(frozen=True, kw_only=True)
class StatusReport:
    now: datetime
    sources_total: int
    sources_active: int
    never_checked: int
    due_now: int
    next_due_at: datetime | None
    failing: tuple[FailingSource, ...]
    suspect: tuple[str, ...]
    leases: tuple[LeaseHolder, ...]
    deliveries_pending: int
    deliveries_failed: int


def _due(now: datetime) -> Any:
    return and_(
        Source.active.is_(True),
        Source.paused.is_(False),
        or_(Source.next_due_at.is_(None), Source.next_due_at <= now),
        or_(Source.lease_expires_at.is_(None), Source.lease_expires_at < now),
    )


def count_due_and_pending(db: Database, now: datetime) -> tuple[int, int]:
    """Sources due and not leased, and deliveries pending: the daemon's gauges."""
    with db.session() as session:
        due = session.scalar(select(func.count()).select_from(Source).where(_due(now))) or 0
        pending = session.scalar(select(func.count()).select_from(Delivery).where(Delivery.status == "pending")) or 0
    return int(due), int(pending)


def collect_status(db: Database, now: datetime) -> StatusReport:
    """Read the whole status in one transaction."""
    with db.session() as session:

        def count(*where: Any) -> int:
            return int(session.scalar(select(func.count()).select_from(Source).where(*where)) or 0)

        active = Source.active.is_(True)
        failing = [
            FailingSource(
                name=s.name, url=s.url, failures=s.failures, last_error=s.last_error,
                last_checked_at=s.last_checked_at, next_try_at=s.next_due_at,
            )
            for s in session.scalars(
                select(Source).where(active, Source.failures > 0).order_by(Source.failures.desc(), Source.name)
            )
        ]
        suspect = session.scalars(
            select(Source.name).where(active, Source.last_status == "suspect").order_by(Source.name)
        ).all()
        leases = [
            LeaseHolder(owner=owner, sources=int(n), expires_at=expires, expired=expires < now)
            for owner, n, expires in session.execute(
                select(Source.lease_owner, func.count(), func.max(Source.lease_expires_at))
                .where(Source.lease_owner.is_not(None))
                .group_by(Source.lease_owner)
                .order_by(Source.lease_owner)
            ).all()
        ]
        deliveries = dict(
            session.execute(
                select(Delivery.status, func.count())
                .where(Delivery.status.in_(["pending", "failed"]))
                .group_by(Delivery.status)
            ).all()
        )
        upcoming = session.scalar(select(func.min(Source.next_due_at)).where(active, Source.next_due_at > now))
        return StatusReport(
            now=now,
            sources_total=count(),
            sources_active=count(active),
            never_checked=count(active, Source.last_checked_at.is_(None)),
            due_now=count(_due(now)),
            next_due_at=upcoming,
            failing=tuple(failing),
            suspect=tuple(suspect),
            leases=tuple(leases),
            deliveries_pending=int(deliveries.get("pending", 0)),
            deliveries_failed=int(deliveries.get("failed", 0)),
        )


def _iso(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _iso(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_iso(v) for v in value]
    return value


def status_to_json(report: StatusReport) -> dict[str, Any]:
    """The report as JSON-ready values (times in ISO 8601)."""
    return _iso(asdict(report))  # type: ignore[no-any-return]


def _when(value: datetime | None, now: datetime) -> str:
    if value is None:
        return "now"
    seconds = int((value - now).total_seconds())
    if seconds <= 0:
        return "now"
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"in {seconds // size}{unit}"
    return f"in {seconds}s"


def render_status(report: StatusReport) -> list[str]:
    """Human-readable lines for the terminal."""
    lines = [
        f"sources: {report.sources_active} active of {report.sources_total}"
        f" ({report.never_checked} never checked)",
        f"due now: {report.due_now}"
        + (f"; next due {_when(report.next_due_at, report.now)}" if report.next_due_at else ""),
        f"deliveries: {report.deliveries_pending} pending, {report.deliveries_failed} failed",
    ]
    lines.append(f"failing: {len(report.failing)}")
    for source in report.failing:
        error = (source.last_error or "").splitlines()[0][:160] if source.last_error else "unknown error"
        lines.append(
            f"  {source.name}: {source.failures} failures, next try {_when(source.next_try_at, report.now)}: {error}"
        )
    lines.append(f"suspect: {len(report.suspect)}" + (f" ({', '.join(report.suspect)})" if report.suspect else ""))
    lines.append(f"leases: {sum(h.sources for h in report.leases)}")
    for holder in report.leases:
        state = "expired" if holder.expired else f"until {holder.expires_at.isoformat(timespec='seconds')}"
        lines.append(f"  {holder.owner}: {holder.sources} sources ({state})")
    return lines
