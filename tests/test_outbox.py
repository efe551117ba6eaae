"""The outbox: routing, digests, retries with backoff, give-up, operator alerts, crash safety."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from typing import Any

import pytest
from notify_support import SECRET, T0, Clock, Receiver, add_change, add_source, make_db, paper
from pg import fresh_postgres_database
from servers import serve
from sqlalchemy import select

from watcher.config import ChannelConfig
from watcher.errors import ConfigError
from watcher.notify import build_notifiers
from watcher.notify.base import Routing
from watcher.notify.outbox import (
    backoff_delay,
    clear_operator_alert,
    dispatch_pending,
    enqueue_changes,
    enqueue_operator_alert,
    list_deliveries,
    retry_delivery,
)
from watcher.store.db import Database
from watcher.store.models import Delivery, DeliveryChange, Source

ENV = {"WH_SECRET": SECRET}


def webhooks(base_url: str, *channels: dict[str, Any]) -> list:
    configs = [
        ChannelConfig(type="webhook", options={"url": f"{base_url}/hook", "secret_env": "WH_SECRET", **c})
        for c in channels
    ]
    return build_notifiers(configs, ENV)


def delivered_change_ids(db: Database, delivery_id: int) -> set[int]:
    with db.session() as s:
        return set(s.scalars(select(DeliveryChange.change_id).where(DeliveryChange.delivery_id == delivery_id)))


def test_routing_filters_one_delivery_per_accepting_channel(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    channels = webhooks(
        "http://127.0.0.1:9",
        {"name": "all"},
        {"name": "jane-only", "sources": ["jane"]},
        {"name": "lab-tag", "tags": ["lab"]},
        {"name": "papers-added", "kinds": ["paper"], "only": "added"},
        {"name": "awards", "kinds": ["award"]},
    )
    with db.session() as s:
        jane = add_source(s, "jane", label="Jane Doe")
        lab = add_source(s, "xlab", label="Lab X", tags=("lab",))
        c1 = add_change(s, jane, "paper", paper("A"))
        c2 = add_change(s, jane, "paper", paper("B"), change="removed")
        c3 = add_change(s, lab, "role", {"title": "Professor", "organization": "Uni"})
        deliveries = enqueue_changes(s, [c1, c2, c3], channels, T0)
        got = {d.channel: {link.change_id for link in d.changes} for d in deliveries}
    assert got == {
        "all": {c1.id, c2.id, c3.id},
        "jane-only": {c1.id, c2.id},
        "lab-tag": {c3.id},
        "papers-added": {c1.id},
    }
    with db.session() as s:
        rows = s.scalars(select(Delivery)).all()
        assert len(rows) == 4
        assert all(r.status == "pending" and r.next_attempt_at == T0 for r in rows)
        assert len({r.idempotency_key for r in rows}) == 4


def test_enqueue_is_part_of_the_callers_transaction(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    channels = webhooks("http://127.0.0.1:9", {})
    with pytest.raises(RuntimeError), db.session() as s:
        source = add_source(s, "jane")
        enqueue_changes(s, [add_change(s, source, "paper", paper("A"))], channels, T0)
        raise RuntimeError("the check failed after recording")
    with db.session() as s:
        assert s.scalars(select(Delivery)).all() == []


def test_digest_collects_changes_until_due_then_starts_a_new_one(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    receiver = Receiver()
    with serve(receiver.app()) as url:
        channels = webhooks(url, {"digest": "daily", "digest_at": "08:00", "timezone": "Europe/Paris"})
        with db.session() as s:
            jane = add_source(s, "jane")
            first = enqueue_changes(s, [add_change(s, jane, "paper", paper("A"))], channels, T0)
        with db.session() as s:
            jane = s.get(Source, jane.id)
            later = T0 + timedelta(hours=5)
            second = enqueue_changes(s, [add_change(s, jane, "news", {"text": "hello"}, at=later)], channels, later)
        assert first[0].id == second[0].id
        # 09:30 UTC on 2026-11-20 is 10:30 in Paris, so the digest goes out at 08:00 Paris the next day.
        due = datetime(2026, 11, 21, 7, 0, tzinfo=UTC)
        assert first[0].next_attempt_at == due
        assert len(delivered_change_ids(db, first[0].id)) == 2

        clock = Clock(T0 + timedelta(hours=6))
        report = asyncio.run(dispatch_pending(db, channels, clock))
        assert report.attempted == 0 and receiver.hits == []

        clock.now = due
        report = asyncio.run(dispatch_pending(db, channels, clock))
        assert report.sent == 1
        body = receiver.hits[0].verified
        assert body["type"] == "changes" and [c["kind"] for c in body["changes"]] == ["paper", "news"]

        with db.session() as s:
            jane = s.get(Source, jane.id)
            third = enqueue_changes(s, [add_change(s, jane, "paper", paper("C"), at=due)], channels, due)
        assert third[0].id != first[0].id


def test_next_digest_time_daily_and_weekly() -> None:
    daily = Routing(digest="daily", digest_at=time(8, 0))
    assert daily.next_digest_time(datetime(2026, 11, 20, 7, 59, tzinfo=UTC)) == datetime(2026, 11, 20, 8, tzinfo=UTC)
    assert daily.next_digest_time(datetime(2026, 11, 20, 8, 0, tzinfo=UTC)) == datetime(2026, 11, 21, 8, tzinfo=UTC)
    weekly = Routing(digest="weekly", digest_at=time(9, 0))
    # 2026-11-20 is a Friday; the next Monday 09:00 is the 23rd.
    assert weekly.next_digest_time(T0) == datetime(2026, 11, 23, 9, tzinfo=UTC)
    monday_early = datetime(2026, 11, 23, 8, tzinfo=UTC)
    assert weekly.next_digest_time(monday_early) == datetime(2026, 11, 23, 9, tzinfo=UTC)


def test_backoff_doubles_with_jitter_and_caps() -> None:
    rng = random.Random(7)
    for attempts, nominal in [(1, 30), (2, 60), (3, 120), (6, 960)]:
        delays = [backoff_delay(attempts, rng).total_seconds() for _ in range(50)]
        assert all(nominal / 2 <= d <= nominal for d in delays)
        assert max(delays) - min(delays) > nominal / 10  # jittered, not constant
    assert backoff_delay(30, rng) <= timedelta(hours=6)
    assert backoff_delay(30, rng) >= timedelta(hours=3)


def test_failing_endpoint_is_retried_then_given_up_and_listed(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    receiver = Receiver(script=[500] * 100)
    with serve(receiver.app()) as url:
        channels = webhooks(url, {})
        with db.session() as s:
            source = add_source(s, "jane")
            enqueue_changes(s, [add_change(s, source, "paper", paper("A"))], channels, T0)
        clock = Clock()
        report = asyncio.run(dispatch_pending(db, channels, clock))
        assert (report.sent, report.retrying, report.failed) == (0, 1, 0)
        assert "HTTP 500" in report.errors[0].error
        with db.session() as s:
            d = s.scalars(select(Delivery)).one()
            assert d.attempts == 1 and d.status == "pending"
            assert T0 + timedelta(seconds=15) <= d.next_attempt_at <= T0 + timedelta(seconds=30)
        # Not due yet: nothing is sent.
        clock.advance(timedelta(seconds=10))
        assert asyncio.run(dispatch_pending(db, channels, clock)).attempted == 0
        clock.advance(timedelta(days=3))
        report = asyncio.run(dispatch_pending(db, channels, clock))
        assert report.failed == 1 and report.errors[0].final
    with db.session() as s:
        [d] = list_deliveries(s)
        assert (d.status, d.attempts) == ("failed", 2)
        assert "HTTP 500" in (d.last_error or "")
        assert retry_delivery(s, d.id, clock.now) is d
        assert d.status == "pending"
    assert len(receiver.hits) == 2


def test_a_channels_give_up_age_comes_from_its_config(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    receiver = Receiver(script=[500] * 100)
    with serve(receiver.app()) as url:
        patient, hasty = webhooks(url, {"name": "patient"}, {"name": "hasty", "give_up_after": "2h"})
        with db.session() as s:
            source = add_source(s, "jane")
            enqueue_changes(s, [add_change(s, source, "paper", paper("A"))], [patient, hasty], T0)
        clock = Clock()
        asyncio.run(dispatch_pending(db, [patient, hasty], clock))
        clock.advance(timedelta(hours=3))
        report = asyncio.run(dispatch_pending(db, [patient, hasty], clock))
    assert (report.retrying, report.failed) == (1, 1)
    with db.session() as s:
        status = {d.channel: d.status for d in s.scalars(select(Delivery))}
    assert status == {"patient": "pending", "hasty": "failed"}


def test_a_bad_give_up_age_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"notify\[webhook\].*give_up_after.*not a duration"):
        webhooks("http://127.0.0.1:9", {"give_up_after": "soon"})


def test_unconfigured_channel_is_kept_and_retried(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    channels = webhooks("http://127.0.0.1:9", {"name": "gone"})
    with db.session() as s:
        source = add_source(s, "jane")
        enqueue_changes(s, [add_change(s, source, "paper", paper("A"))], channels, T0)
    report = asyncio.run(dispatch_pending(db, [], Clock()))
    assert report.retrying == 1 and "not configured" in report.errors[0].error


def test_operator_alert_once_per_episode_to_operator_channels(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    receiver = Receiver()
    with serve(receiver.app()) as url:
        channels = webhooks(url, {"name": "users"}, {"name": "ops", "operator": True})
        with db.session() as s:
            source = add_source(s, "jane")
            source.last_error = "HTTP 503 five times"
            first = enqueue_operator_alert(s, source, "failing", T0, channels)
            again = enqueue_operator_alert(s, source, "failing", T0, channels)
            assert [d.channel for d in first] == ["ops"] and again == []
            assert source.alerted == "failing"
        report = asyncio.run(dispatch_pending(db, channels, Clock()))
        assert report.sent == 1
        alert = receiver.hits[0].verified
        assert alert["type"] == "alert" and alert["source"] == "jane" and alert["reason"] == "failing"
        assert alert["detail"] == "HTTP 503 five times"
        with db.session() as s:
            source = s.get(Source, source.id)
            assert clear_operator_alert(source) is True
            assert len(enqueue_operator_alert(s, source, "suspect", T0, channels)) == 1


def test_operator_alert_goes_to_every_channel_when_none_is_marked(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    channels = webhooks("http://127.0.0.1:9", {"name": "a"}, {"name": "b", "kinds": ["paper"]})
    with db.session() as s:
        source = add_source(s, "jane")
        assert {d.channel for d in enqueue_operator_alert(s, source, "suspect", T0, channels)} == {"a", "b"}


# --- crash safety: a separate process is killed at the hook points -----------------------------

CRASH_SCRIPT = textwrap.dedent(
    """
    import asyncio, os, sys
    from datetime import datetime, timedelta
    from watcher.config import ChannelConfig
    from watcher.notify import build_notifiers
    from watcher.notify.outbox import DispatchHooks, dispatch_pending, enqueue_changes
    from watcher.store.db import Database
    from watcher.store.models import Change, Source

    db_url, hook_url, secret, where = sys.argv[1:5]
    now = datetime.fromisoformat(sys.argv[5])
    db = Database(db_url)
    db.ensure_schema()
    channels = build_notifiers(
        [ChannelConfig(type="webhook", options={"url": hook_url, "secret_env": "S"})], {"S": secret}
    )
    with db.session() as s:
        src = Source(name="jane", url="https://jane.example.org/", tags=[], created_at=now, fetch_state={})
        s.add(src)
        s.flush()
        change = Change(source_id=src.id, kind="paper", change="added",
                        after={"title": "Crash-proof", "authors": []}, detected_at=now)
        s.add(change)
        enqueue_changes(s, [change], channels, now)
    if where == "after-commit":
        os._exit(9)

    def die(*_):
        os._exit(9)

    hooks = DispatchHooks(after_claim=die if where == "after-claim" else None,
                          after_send=die if where == "after-send" else None)
    asyncio.run(dispatch_pending(db, channels, lambda: now, hooks=hooks))
    print("finished without crashing")
    """
)


def run_until_killed(tmp_path: Path, db_url: str, hook_url: str, where: str) -> None:
    script = tmp_path / "crash.py"
    script.write_text(CRASH_SCRIPT)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    proc = subprocess.run(
        [sys.executable, str(script), db_url, hook_url, SECRET, where, T0.isoformat()],
        env=env, capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 9, proc.stdout + proc.stderr


@pytest.mark.slow
@pytest.mark.parametrize("where", ["after-commit", "after-claim"])
def test_crash_between_commit_and_send_is_delivered_after_restart(tmp_path: Path, where: str) -> None:
    receiver = Receiver()
    db_url = f"sqlite:///{tmp_path / 'w.db'}"
    with serve(receiver.app()) as url:
        run_until_killed(tmp_path, db_url, f"{url}/hook", where)
        assert receiver.hits == []
        db = Database(db_url)
        channels = webhooks(url, {})
        # The claim's lease (5 min) must run out before another dispatcher may take it.
        report = asyncio.run(dispatch_pending(db, channels, Clock(T0 + timedelta(minutes=6))))
        assert report.sent == 1
        assert len(receiver.hits) == 1 and receiver.hits[0].error is None
        assert receiver.hits[0].verified["changes"][0]["item"]["title"] == "Crash-proof"
        assert asyncio.run(dispatch_pending(db, channels, Clock(T0 + timedelta(hours=1)))).attempted == 0
    assert len(receiver.hits) == 1


@pytest.mark.slow
def test_crash_after_send_resends_with_the_same_webhook_id(tmp_path: Path) -> None:
    receiver = Receiver()
    db_url = f"sqlite:///{tmp_path / 'w.db'}"
    with serve(receiver.app()) as url:
        run_until_killed(tmp_path, db_url, f"{url}/hook", "after-send")
        assert len(receiver.hits) == 1
        db = Database(db_url)
        with db.session() as s:
            d = s.scalars(select(Delivery)).one()
            assert (d.status, d.attempts) == ("pending", 1)
        report = asyncio.run(dispatch_pending(db, webhooks(url, {}), Clock(T0 + timedelta(minutes=6))))
        assert report.sent == 1
    ids = receiver.ids()
    assert len(ids) == 2 and ids[0] == ids[1] == d.idempotency_key
    assert all(h.error is None for h in receiver.hits)
    with db.session() as s:
        d = s.scalars(select(Delivery)).one()
        assert (d.status, d.attempts) == ("sent", 2)


# --- PostgreSQL: concurrent dispatchers never claim the same delivery --------------------------


@pytest.fixture
def pg_db() -> Iterator[Database]:
    with fresh_postgres_database() as url:
        db = Database(url)
        db.ensure_schema()
        yield db
        db.dispose()


@pytest.mark.postgres
def test_postgres_claim_skips_rows_locked_by_another_dispatcher(pg_db: Database) -> None:
    receiver = Receiver()
    with serve(receiver.app()) as url:
        channels = webhooks(url, {})
        with pg_db.session() as s:
            source = add_source(s, "jane")
            for i in range(10):
                enqueue_changes(s, [add_change(s, source, "paper", paper(f"P{i}"))], channels, T0)
        clock = Clock(T0 + timedelta(seconds=1))
        with pg_db.session() as other:
            # Another daemon holds a claim on three deliveries (its transaction is open).
            held = list(
                other.scalars(
                    select(Delivery).order_by(Delivery.id).limit(3).with_for_update(skip_locked=True)
                )
            )
            report = asyncio.run(dispatch_pending(pg_db, channels, clock))
            assert report.sent == 7
        held_keys = {d.idempotency_key for d in held}
        assert held_keys.isdisjoint(receiver.ids())
        report = asyncio.run(dispatch_pending(pg_db, channels, clock))
        assert report.sent == 3
    ids = receiver.ids()
    assert len(ids) == len(set(ids)) == 10


def test_delivery_whose_changes_were_deleted_is_failed_not_sent_empty(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    receiver = Receiver()
    with serve(receiver.app()) as url:
        channels = webhooks(url, {})
        with db.session() as s:
            source = add_source(s, "jane")
            enqueue_changes(s, [add_change(s, source, "paper", paper("A"))], channels, T0)
        with db.session() as s:
            s.delete(s.get(Source, source.id))
        report = asyncio.run(dispatch_pending(db, channels, Clock()))
    assert report.failed == 1 and "changes were deleted" in report.errors[0].error
    assert receiver.hits == []
