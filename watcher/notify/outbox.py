"""The outbox: deliveries written with the changes they carry, and the dispatcher that sends them.

Guarantees and how they are kept:

* **Nothing is lost.** ``enqueue_changes`` only adds rows to the caller's session, so the
  deliveries commit in the same transaction as the changes, or not at all. A crash after
  that commit leaves them ``pending``; the next ``dispatch_pending`` (after a restart) sends them.
* **At-least-once, deduplicated by the receiver.** The dispatcher commits a *claim* (attempt
  counted, ``next_attempt_at`` pushed out by a short lease), sends, then commits the result
  in a second transaction. A crash between sending and recording leaves the delivery pending;
  once the lease runs out it is sent again with the *same* idempotency key (the webhook-id,
  the email Message-ID), so receivers drop the duplicate.
* **One sender at a time.** On PostgreSQL the claim is ``SELECT … FOR UPDATE SKIP LOCKED``, so
  several daemons sharing the database never claim the same delivery while its lease runs.
  SQLite supports one daemon per database file.
* **Retries.** A failed attempt is retried with exponential backoff (30 s, doubling, capped at
  6 h, with jitter); a non-retryable error, or a delivery still failing after the give-up age
  (3 days by default), is marked ``failed`` and shown by ``watcher deliveries``.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import uuid4

from sqlalchemy import select
from sqlalchemy.orm import Session

from watcher.errors import NotifyError
from watcher.notify.base import GIVE_UP_AFTER, Message, Notifier
from watcher.report import change_to_json
from watcher.store.db import Database
from watcher.store.models import Change, Delivery, DeliveryChange, Source

__all__ = [
    "GIVE_UP_AFTER",
    "LEASE",
    "DeliveryError",
    "DispatchHooks",
    "DispatchReport",
    "backoff_delay",
    "clear_operator_alert",
    "dispatch_pending",
    "enqueue_changes",
    "enqueue_operator_alert",
    "list_deliveries",
    "message_for",
    "new_idempotency_key",
    "operator_channels",
    "retry_delivery",
]

BACKOFF_BASE = timedelta(seconds=30)
BACKOFF_FACTOR = 2
BACKOFF_CAP = timedelta(hours=6)
#: How long a claimed delivery stays invisible to other dispatchers; longer than any send.
LEASE = timedelta(minutes=5)
_MAX_ERROR = 2000


def new_idempotency_key() -> str:
    """A fresh delivery key; receivers see it as ``webhook-id`` and in the email Message-ID."""
    return f"msg_{uuid4().hex}"


def backoff_delay(attempts: int, rng: random.Random | None = None) -> timedelta:
    """The wait before retry number ``attempts`` (1-based): 30 s doubling, capped at 6 h, jittered.

    Half of the delay is fixed and half random ("equal jitter"), so retries spread out
    without ever coming back sooner than half the nominal delay.
    """
    nominal = min(BACKOFF_CAP, BACKOFF_BASE * BACKOFF_FACTOR ** max(0, attempts - 1))
    half = nominal / 2
    return half + half * (rng or random.Random()).random()


def _new_delivery(notifier: Notifier, now: datetime, *, due: datetime, payload: dict | None) -> Delivery:
    return Delivery(
        channel=notifier.name,
        target=notifier.target[:2000],
        status="pending",
        attempts=0,
        created_at=now,
        next_attempt_at=due,
        idempotency_key=new_idempotency_key(),
        payload=payload,
    )


def _open_digest(session: Session, notifier: Notifier, now: datetime) -> Delivery | None:
    """The channel's digest that is still collecting changes (never attempted, not yet due).

    ``FOR UPDATE`` on PostgreSQL: if a dispatcher is claiming it right now, we wait, the row
    no longer matches (attempts > 0) and a new digest is opened instead of adding changes
    to a message already on its way.
    """
    stmt = (
        select(Delivery)
        .where(
            Delivery.channel == notifier.name,
            Delivery.status == "pending",
            Delivery.attempts == 0,
            Delivery.next_attempt_at > now,
        )
        .order_by(Delivery.id)
        .limit(1)
        .with_for_update()
    )
    for delivery in session.scalars(stmt):
        if (delivery.payload or {}).get("type") == "digest":
            return delivery
    return None


def _delivery_for(session: Session, notifier: Notifier, now: datetime) -> Delivery:
    routing = notifier.routing
    if not routing.is_digest:
        delivery = _new_delivery(notifier, now, due=now, payload=None)
        session.add(delivery)
        return delivery
    if (existing := _open_digest(session, notifier, now)) is not None:
        return existing
    due = routing.next_digest_time(now)
    delivery = _new_delivery(
        notifier, now, due=due, payload={"type": "digest", "period": routing.digest, "due_at": due.isoformat()}
    )
    session.add(delivery)
    return delivery


def enqueue_changes(
    session: Session, changes: Sequence[Change], channels: Sequence[Notifier], now: datetime
) -> list[Delivery]:
    """Add the deliveries for one check's ``changes`` to ``session``; never commits.

    One delivery per channel whose routing accepts at least one of the changes; a digest
    channel's changes join its open digest (one per channel) instead. Call it in the
    transaction that records the changes, so both commit together.
    """
    if not changes or not channels:
        return []
    session.flush()  # change ids are needed for the links
    sources = {c.source_id: session.get(Source, c.source_id) for c in changes}
    deliveries = []
    for notifier in channels:
        accepted = [c for c in changes if notifier.routing.accepts(c, sources[c.source_id])]
        if not accepted:
            continue
        delivery = _delivery_for(session, notifier, now)
        linked = {link.change_id for link in delivery.changes}
        delivery.changes.extend(DeliveryChange(change_id=c.id) for c in accepted if c.id not in linked)
        deliveries.append(delivery)
    session.flush()
    return deliveries


def operator_channels(channels: Sequence[Notifier]) -> list[Notifier]:
    """The channels marked ``operator: true``, or all of them when none is marked."""
    marked = [c for c in channels if c.routing.operator]
    return marked or list(channels)


def enqueue_operator_alert(
    session: Session,
    source: Source,
    reason: str,
    now: datetime,
    channels: Sequence[Notifier],
    *,
    detail: str | None = None,
) -> list[Delivery]:
    """Tell the operator that ``source`` is ``reason`` (``failing``, ``suspect``), once per episode.

    Nothing is queued while ``source.alerted`` is set; ``clear_operator_alert`` ends the
    episode when the source recovers. Alerts ignore routing filters and digests.
    """
    if source.alerted:
        return []
    source.alerted = reason[:32]
    payload = {
        "type": "alert",
        "reason": reason,
        "source": source.name,
        "url": source.url,
        "label": source.person_name,
        "detail": detail if detail is not None else source.last_error,
        "failures": source.failures,
        "detected_at": now.isoformat(),
    }
    deliveries = [_new_delivery(c, now, due=now, payload=payload) for c in operator_channels(channels)]
    session.add_all(deliveries)
    return deliveries


def clear_operator_alert(source: Source) -> bool:
    """End the source's alert episode (it recovered); True when one was open."""
    was_alerted = source.alerted is not None
    source.alerted = None
    return was_alerted


def message_for(session: Session, delivery: Delivery) -> Message:
    """The message a delivery carries, rebuilt from the database (the same on every attempt)."""
    rows = session.execute(
        select(Change, Source)
        .join(DeliveryChange, DeliveryChange.change_id == Change.id)
        .join(Source, Source.id == Change.source_id)
        .where(DeliveryChange.delivery_id == delivery.id)
        .order_by(Change.detected_at, Change.id)
    ).all()
    return Message(
        idempotency_key=delivery.idempotency_key,
        delivery_id=delivery.id,
        changes=tuple(change_to_json(change, source) for change, source in rows),
        labels={source.name: name for _, source in rows if (name := source.person_name)},
        payload=delivery.payload,
    )


@dataclass(frozen=True)
class DeliveryError:
    delivery_id: int
    channel: str
    error: str
    final: bool


@dataclass(frozen=True)
class DispatchReport:
    """What one ``dispatch_pending`` call did."""

    sent: int = 0
    retrying: int = 0
    failed: int = 0
    errors: tuple[DeliveryError, ...] = ()

    @property
    def attempted(self) -> int:
        return self.sent + self.retrying + self.failed


@dataclass(frozen=True)
class DispatchHooks:
    """Callbacks at the two crash-relevant points (tests kill the process there)."""

    after_claim: Callable[[Sequence[int]], None] | None = None
    after_send: Callable[[int], None] | None = None


@dataclass(frozen=True)
class _Claim:
    delivery_id: int
    channel: str
    message: Message


def _claim(db: Database, now: datetime, limit: int, lease: timedelta) -> list[_Claim]:
    stmt = (
        select(Delivery)
        .where(Delivery.status == "pending", Delivery.next_attempt_at <= now)
        .order_by(Delivery.next_attempt_at, Delivery.id)
        .limit(limit)
    )
    if not db.is_sqlite:
        stmt = stmt.with_for_update(skip_locked=True)
    with db.session() as session:
        deliveries = list(session.scalars(stmt))
        for delivery in deliveries:
            delivery.attempts += 1
            delivery.next_attempt_at = now + lease
        return [_Claim(d.id, d.channel, message_for(session, d)) for d in deliveries]


def _give_up_clock_start(delivery: Delivery) -> datetime:
    # A digest is created long before it is due; its give-up age runs from the due time.
    due = (delivery.payload or {}).get("due_at")
    return datetime.fromisoformat(due) if due else delivery.created_at


def _record(
    db: Database, claim: _Claim, error: NotifyError | None, now: datetime, give_up_after: timedelta,
    rng: random.Random,
) -> str:
    """Store the outcome of one attempt; returns the new status (or ``retrying``)."""
    with db.session() as session:
        delivery = session.get(Delivery, claim.delivery_id)
        if delivery is None or delivery.status != "pending":
            return "gone"
        if error is None:
            delivery.status = "sent"
            delivery.sent_at = now
            delivery.last_error = None
            return "sent"
        delivery.last_error = str(error)[:_MAX_ERROR]
        if not error.retryable or now - _give_up_clock_start(delivery) >= give_up_after:
            delivery.status = "failed"
            return "failed"
        delivery.next_attempt_at = now + backoff_delay(delivery.attempts, rng)
        return "retrying"


async def _attempt(notifier: Notifier | None, claim: _Claim, timeout: float) -> NotifyError | None:
    if notifier is None:
        # Retryable: the channel may come back with the next config reload.
        return NotifyError(f"channel {claim.channel!r} is not configured", retryable=True)
    if claim.message.type == "changes" and not claim.message.changes:
        # Its source (and with it the changes) was deleted: nothing to say, never an empty message.
        return NotifyError("nothing left to send: its changes were deleted", retryable=False)
    try:
        await asyncio.wait_for(notifier.send(claim.message), timeout=timeout)
    except NotifyError as exc:
        return exc
    except TimeoutError:
        return NotifyError(f"{claim.channel}: no answer within {timeout:g}s", retryable=True)
    return None


async def dispatch_pending(
    db: Database,
    notifiers: Sequence[Notifier],
    now: Callable[[], datetime],
    *,
    limit: int = 100,
    lease: timedelta = LEASE,
    give_up_after: timedelta | None = None,
    concurrency: int = 8,
    rng: random.Random | None = None,
    hooks: DispatchHooks | None = None,
) -> DispatchReport:
    """Send up to ``limit`` due pending deliveries and record each attempt.

    ``now`` is the clock (called at claim and at each result). Call it again for the next
    batch; ``DispatchReport.attempted < limit`` means nothing else was due. A failing
    delivery is retried for its channel's ``give_up_after`` (``give_up_after`` overrides it).
    """
    hooks = hooks or DispatchHooks()
    rng = rng or random.Random()
    claims = _claim(db, now(), limit, lease)
    if hooks.after_claim:
        hooks.after_claim([c.delivery_id for c in claims])
    by_name = {n.name: n for n in notifiers}
    gate = asyncio.Semaphore(concurrency)
    # The send must finish well within the lease, or another dispatcher may resend meanwhile.
    send_timeout = lease.total_seconds() / 2

    async def one(claim: _Claim) -> tuple[_Claim, NotifyError | None, str]:
        notifier = by_name.get(claim.channel)
        async with gate:
            error = await _attempt(notifier, claim, send_timeout)
        if error is None and hooks.after_send:
            hooks.after_send(claim.delivery_id)
        patience = give_up_after or (notifier.routing.give_up_after if notifier else GIVE_UP_AFTER)
        return claim, error, _record(db, claim, error, now(), patience, rng)

    outcomes = await asyncio.gather(*(one(c) for c in claims))
    counts = {"sent": 0, "retrying": 0, "failed": 0}
    errors = []
    for claim, error, status in outcomes:
        counts[status] = counts.get(status, 0) + 1
        if error is not None:
            errors.append(DeliveryError(claim.delivery_id, claim.channel, str(error), final=status == "failed"))
    return DispatchReport(
        sent=counts["sent"], retrying=counts["retrying"], failed=counts["failed"], errors=tuple(errors)
    )


def list_deliveries(
    session: Session, statuses: Sequence[str] = ("pending", "failed"), *, limit: int = 200
) -> list[Delivery]:
    """Deliveries in ``statuses``, oldest first (``watcher deliveries``)."""
    stmt = select(Delivery).where(Delivery.status.in_(statuses)).order_by(Delivery.id).limit(limit)
    return list(session.scalars(stmt))


def retry_delivery(session: Session, delivery_id: int, now: datetime) -> Delivery | None:
    """Put a failed (or pending) delivery back in the queue, due now, keeping its key."""
    delivery = session.get(Delivery, delivery_id)
    if delivery is None or delivery.status == "sent":
        return None
    delivery.status = "pending"
    delivery.next_attempt_at = now
    delivery.created_at = now  # restart the give-up clock
    if delivery.payload and delivery.payload.get("due_at"):
        delivery.payload = {k: v for k, v in delivery.payload.items() if k != "due_at"}
    return delivery
