"""Scheduling math with an injected clock, and claiming due sources with leases on SQLite and PostgreSQL."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from watcher.errors import ConfigError
from watcher.schedule import (
    MAX_BACKOFF,
    claim_due_sources,
    finish_check,
    jitter,
    next_due_at,
    release_leases,
    renew_leases,
    validate_schedule,
)
from watcher.store.db import Database
from watcher.store.models import Source

NOW = datetime(2026, 3, 27, 12, 0, tzinfo=UTC)
POSTGRES_URL = os.environ.get("WATCHER_TEST_POSTGRES_URL")


@dataclass
class Spec:
    id: int = 1
    every_seconds: int = 6 * 3600
    cron: str | None = None
    timezone: str | None = None
    failures: int = 0


@dataclass(frozen=True)
class Outcome:
    status: str
    retry_after: float | None = None


# -- scheduling math ---------------------------------------------------------------


def test_interval_is_counted_from_the_end_of_the_check_plus_bounded_jitter() -> None:
    due = next_due_at(Spec(id=7), NOW, failed=False)
    assert NOW + timedelta(hours=6) <= due < NOW + timedelta(hours=6, minutes=15)
    assert due - NOW - timedelta(hours=6) == jitter(7, timedelta(hours=6))


def test_jitter_is_stable_bounded_and_spreads_sources() -> None:
    hour = timedelta(hours=1)
    values = [jitter(i, hour) for i in range(1, 1001)]
    assert values == [jitter(i, hour) for i in range(1, 1001)]  # same on every run
    assert all(timedelta(0) <= v < timedelta(minutes=6) for v in values)  # 10 % of an hour
    # A thousand sources added at once land in many different seconds of the window.
    assert len({int(v.total_seconds()) for v in values}) > 250
    week = timedelta(days=7)
    assert max(jitter(i, week) for i in range(1, 1001)) < timedelta(minutes=15)  # the cap
    assert max(jitter(i, week) for i in range(1, 1001)) > timedelta(minutes=14)


def test_short_intervals_get_proportionally_small_jitter() -> None:
    assert all(jitter(i, timedelta(seconds=4)) < timedelta(seconds=0.4) for i in range(1, 200))


def test_cron_follows_the_sources_timezone_across_daylight_saving() -> None:
    spec = Spec(id=3, cron="0 7 * * mon", timezone="Europe/Paris")
    # Friday 27 March 2026; Paris moves to summer time on Sunday 29 March.
    due = next_due_at(spec, NOW, failed=False)
    base = datetime(2026, 3, 30, 5, 0, tzinfo=UTC)  # 07:00 CEST
    assert base <= due < base + timedelta(minutes=15)
    winter = next_due_at(spec, datetime(2026, 1, 9, 12, tzinfo=UTC), failed=False)
    assert datetime(2026, 1, 12, 6, 0, tzinfo=UTC) <= winter < datetime(2026, 1, 12, 6, 15, tzinfo=UTC)
    assert due.tzinfo is not None and due.utcoffset() == timedelta(0)


def test_cron_without_timezone_is_utc() -> None:
    due = next_due_at(Spec(id=4, cron="30 * * * *"), NOW, failed=False)
    assert datetime(2026, 3, 27, 12, 30, tzinfo=UTC) <= due < datetime(2026, 3, 27, 12, 36, tzinfo=UTC)


def test_failures_back_off_doubling_and_capped_never_sooner_than_the_interval() -> None:
    delays = []
    for failures in range(1, 12):
        due = next_due_at(Spec(id=9, every_seconds=3600, failures=failures), NOW, failed=True)
        delays.append(due - NOW - jitter(9, timedelta(hours=1)))
    assert delays[:4] == [timedelta(hours=h) for h in (1, 2, 4, 8)]
    assert delays[-1] == MAX_BACKOFF
    assert all(d >= timedelta(hours=1) for d in delays)
    assert delays == sorted(delays)
    # An interval longer than the cap is never shortened by a failure.
    monthly = next_due_at(Spec(id=9, every_seconds=30 * 86400, failures=3), NOW, failed=True)
    assert monthly >= NOW + timedelta(days=30)


def test_success_resets_to_the_normal_interval() -> None:
    due = next_due_at(Spec(id=9, every_seconds=3600, failures=0), NOW, failed=False)
    assert due < NOW + timedelta(hours=1, minutes=6)


def test_retry_after_pushes_the_next_try_further_but_never_closer() -> None:
    spec = Spec(id=2, every_seconds=600, failures=1)
    assert next_due_at(spec, NOW, failed=True, retry_after=7200) == NOW + timedelta(hours=2)
    assert next_due_at(spec, NOW, failed=True, retry_after=5) >= NOW + timedelta(minutes=10)


def test_cron_failure_backoff_skips_cron_times() -> None:
    spec = Spec(id=5, cron="0 * * * *", failures=1)
    first = next_due_at(spec, NOW, failed=True)
    assert datetime(2026, 3, 27, 13, tzinfo=UTC) <= first < datetime(2026, 3, 27, 13, 7, tzinfo=UTC)
    spec.failures = 4  # backoff 8 periods: the 8th hourly time from now
    fourth = next_due_at(spec, NOW, failed=True)
    assert datetime(2026, 3, 27, 20, tzinfo=UTC) <= fourth < datetime(2026, 3, 27, 20, 7, tzinfo=UTC)


def test_bad_cron_or_timezone_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="cron"):
        validate_schedule("every tuesday", None)
    with pytest.raises(ConfigError, match="timezone"):
        validate_schedule(None, "Mars/Olympus")
    validate_schedule("0 7 * * mon", "America/New_York")


# -- claiming and leases -------------------------------------------------------------


@pytest.fixture
def db(database: Database) -> Database:
    """A migrated, empty database: a SQLite file and a fresh PostgreSQL database (conftest)."""
    return database


def _add_sources(db: Database, count: int, *, next_due: datetime | None = None, every: int = 60) -> list[int]:
    with db.session() as session:
        sources = [
            Source(
                name=f"person-{i}",
                url=f"http://127.0.0.1/person-{i}/",
                created_at=NOW,
                every_seconds=every,
                next_due_at=next_due,
            )
            for i in range(count)
        ]
        session.add_all(sources)
        session.flush()
        return [s.id for s in sources]


def _source(db: Database, source_id: int) -> Source:
    with db.session() as session:
        source = session.get(Source, source_id)
        assert source is not None
        return source


def test_claim_takes_due_sources_most_overdue_first_and_leases_them(db: Database) -> None:
    never = _add_sources(db, 2)
    with db.session() as session:
        late = Source(name="late", url="http://127.0.0.1/late/", created_at=NOW, next_due_at=NOW - timedelta(days=3))
        later = Source(name="soon", url="http://127.0.0.1/soon/", created_at=NOW, next_due_at=NOW - timedelta(hours=1))
        future = Source(name="future", url="http://127.0.0.1/f/", created_at=NOW, next_due_at=NOW + timedelta(hours=1))
        gone = Source(name="gone", url="http://127.0.0.1/g/", created_at=NOW, active=False)
        session.add_all([late, later, future, gone])
        session.flush()
        late_id, later_id = late.id, later.id
    claimed = claim_due_sources(db, "a", NOW, lease=timedelta(minutes=10), limit=10)
    assert claimed == [*never, late_id, later_id]
    assert _source(db, late_id).lease_owner == "a"
    assert _source(db, late_id).lease_expires_at == NOW + timedelta(minutes=10)
    assert claim_due_sources(db, "b", NOW, lease=timedelta(minutes=10), limit=10) == []


def test_claim_respects_the_limit(db: Database) -> None:
    _add_sources(db, 5)
    first = claim_due_sources(db, "a", NOW, lease=timedelta(minutes=1), limit=3)
    second = claim_due_sources(db, "b", NOW, lease=timedelta(minutes=1), limit=3)
    assert len(first) == 3 and len(second) == 2 and not set(first) & set(second)


def test_a_paused_source_is_not_claimed_until_resumed(db: Database) -> None:
    paused, running = _add_sources(db, 2)
    with db.session() as session:
        session.get(Source, paused).paused = True
    assert claim_due_sources(db, "a", NOW, lease=timedelta(minutes=1), limit=5) == [running]
    with db.session() as session:
        session.get(Source, paused).paused = False
    assert claim_due_sources(db, "a", NOW, lease=timedelta(minutes=1), limit=5) == [paused]


def test_expired_lease_is_reclaimed_by_another_owner(db: Database) -> None:
    (sid,) = _add_sources(db, 1)
    assert claim_due_sources(db, "dead", NOW, lease=timedelta(seconds=3), limit=5) == [sid]
    assert claim_due_sources(db, "alive", NOW + timedelta(seconds=2), lease=timedelta(seconds=3), limit=5) == []
    assert claim_due_sources(db, "alive", NOW + timedelta(seconds=4), lease=timedelta(seconds=3), limit=5) == [sid]
    assert _source(db, sid).lease_owner == "alive"


def test_finish_check_only_by_the_lease_owner(db: Database) -> None:
    (sid,) = _add_sources(db, 1, every=600)
    claim_due_sources(db, "dead", NOW, lease=timedelta(seconds=3), limit=5)
    claim_due_sources(db, "alive", NOW + timedelta(seconds=4), lease=timedelta(seconds=3), limit=5)
    # The first owner's late finish must not overwrite the new owner's lease or schedule.
    assert not finish_check(db, sid, "dead", Outcome("unchanged"), NOW + timedelta(seconds=5))
    source = _source(db, sid)
    assert source.lease_owner == "alive" and source.next_due_at is None
    assert finish_check(db, sid, "alive", Outcome("changed"), NOW + timedelta(seconds=6))
    source = _source(db, sid)
    assert source.lease_owner is None and source.lease_expires_at is None
    assert NOW + timedelta(seconds=606) <= source.next_due_at < NOW + timedelta(seconds=666)


def test_finish_check_backs_off_a_failing_source(db: Database) -> None:
    (sid,) = _add_sources(db, 1, every=600)
    with db.session() as session:
        session.get(Source, sid).failures = 3  # type: ignore[union-attr]
    claim_due_sources(db, "a", NOW, lease=timedelta(minutes=1), limit=1)
    assert finish_check(db, sid, "a", Outcome("error"), NOW)
    assert _source(db, sid).next_due_at >= NOW + timedelta(seconds=2400)


def test_missed_checks_run_once_then_resume_from_now(db: Database) -> None:
    # Down for a day with a 10-minute interval: one check on start, not 144.
    (sid,) = _add_sources(db, 1, every=600, next_due=NOW - timedelta(days=1))
    assert claim_due_sources(db, "a", NOW, lease=timedelta(minutes=1), limit=5) == [sid]
    finish_check(db, sid, "a", Outcome("unchanged"), NOW + timedelta(seconds=2))
    assert claim_due_sources(db, "a", NOW + timedelta(seconds=3), lease=timedelta(minutes=1), limit=5) == []
    assert _source(db, sid).next_due_at >= NOW + timedelta(seconds=602)


def test_renewed_lease_outlives_its_first_expiry_but_only_for_its_owner(db: Database) -> None:
    a, b = _add_sources(db, 2)
    claim_due_sources(db, "slow", NOW, lease=timedelta(seconds=3), limit=5)
    assert renew_leases(db, "slow", [a], NOW + timedelta(seconds=2), lease=timedelta(seconds=3)) == 1
    assert renew_leases(db, "other", [b], NOW + timedelta(seconds=2), lease=timedelta(seconds=3)) == 0
    # At 4 s only the unrenewed lease has lapsed.
    assert claim_due_sources(db, "other", NOW + timedelta(seconds=4), lease=timedelta(seconds=3), limit=5) == [b]
    assert _source(db, a).lease_expires_at == NOW + timedelta(seconds=5)


def test_release_leases_frees_only_the_owners_sources(db: Database) -> None:
    ids = _add_sources(db, 4)
    mine = claim_due_sources(db, "me", NOW, lease=timedelta(minutes=10), limit=2)
    theirs = claim_due_sources(db, "them", NOW, lease=timedelta(minutes=10), limit=2)
    assert release_leases(db, "me") == 2
    assert sorted(claim_due_sources(db, "new", NOW, lease=timedelta(minutes=10), limit=10)) == sorted(mine)
    assert {_source(db, i).lease_owner for i in theirs} == {"them"}
    assert len(ids) == 4


def test_parallel_claimers_never_get_the_same_source(db: Database) -> None:
    ids = _add_sources(db, 300)
    claims: dict[str, list[int]] = {}
    barrier = threading.Barrier(4)

    def claimer(owner: str) -> None:
        got: list[int] = []
        barrier.wait()
        while batch := claim_due_sources(db, owner, NOW, lease=timedelta(minutes=5), limit=7):
            got.extend(batch)
        claims[owner] = got

    threads = [threading.Thread(target=claimer, args=(f"daemon-{i}",)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    everything = [sid for got in claims.values() for sid in got]
    assert sorted(everything) == sorted(ids)  # each source claimed exactly once
    with db.session() as session:
        owners = dict(session.execute(select(Source.id, Source.lease_owner)).all())
    assert all(owners[sid] == owner for owner, got in claims.items() for sid in got)
